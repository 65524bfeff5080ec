// deadline.hpp — when a search must stop. A Deadline has a soft limit (the planned, "optimum"
// time: do not start another iteration after it) and a hard limit (the "maximum": stop now),
// both on the monotonic clock, plus an optional stop flag the Session can raise.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace tactica {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  // No time limit at all (searches bounded by a node budget instead).
  static Deadline never() { return Deadline{}; }

  // Soft and hard limits counted from now.
  static Deadline in(std::chrono::microseconds soft, std::chrono::microseconds hard) {
    Deadline d;
    d.start_ = Clock::now();
    d.soft_ = d.start_ + soft;
    d.hard_ = d.start_ + (hard < soft ? soft : hard);
    d.unlimited_ = false;
    return d;
  }

  void attach_stop_flag(const std::atomic<bool>* flag) { stop_ = flag; }

  bool unlimited() const { return unlimited_; }
  bool stop_requested() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  // Past the optimum: finish the current iteration, do not start another.
  bool soft_expired() const { return stop_requested() || (!unlimited_ && Clock::now() >= soft_); }
  // Past the maximum: return the best move so far at once.
  bool hard_expired() const { return stop_requested() || (!unlimited_ && Clock::now() >= hard_); }

  // Fraction of the soft budget used (0 when unlimited); lets a search pace itself.
  double soft_fraction() const {
    if (unlimited_) return 0.0;
    const auto total = std::chrono::duration<double>(soft_ - start_).count();
    const auto used = std::chrono::duration<double>(Clock::now() - start_).count();
    return total > 0 ? used / total : 1.0;
  }
  std::chrono::microseconds soft_budget() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(soft_ - start_);
  }
  std::chrono::microseconds hard_budget() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(hard_ - start_);
  }
  // The same deadline with both limits drawn in to `f` of their budgets from the start (f < 1);
  // f >= 1, or no limit: unchanged (nothing moves a limit later than the host set it).
  Deadline shortened(double f) const {
    Deadline d = *this;
    if (unlimited_ || !(f < 1.0)) return d;
    if (f < 0) f = 0;
    const auto part = [&](Clock::time_point t) {
      return start_ + std::chrono::duration_cast<Clock::duration>((t - start_) * f);
    };
    d.soft_ = part(soft_);
    d.hard_ = part(hard_);
    return d;
  }
  // The same deadline with the soft limit moved out to `f` of its budget from the start (f > 1),
  // never past the hard limit; f <= 1, or no limit: unchanged (the hard limit never moves).
  Deadline stretched(double f) const {
    Deadline d = *this;
    if (unlimited_ || !(f > 1.0)) return d;
    const auto soft = start_ + std::chrono::duration_cast<Clock::duration>((soft_ - start_) * f);
    d.soft_ = soft < hard_ ? soft : hard_;
    return d;
  }
  Clock::time_point start() const { return start_; }
  Clock::time_point soft() const { return soft_; }
  Clock::time_point hard() const { return hard_; }

 private:
  Clock::time_point start_ = Clock::now(), soft_{}, hard_{};
  bool unlimited_ = true;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace tactica
