// timebank.hpp — how much of the bank one move may spend, and the clocks it is measured with.
//
// The promise
// -----------
// The platform gives each player one bank (5,000 ms) for all its replies together, measured by
// the judge from writing a command to reading our answer, so the bank includes our pipe latency;
// Icebreaking also caps the CPU time of the whole process life at 5,000 ms. Running out of
// either loses (Hanpang: the run ends and later points are lost). The TimeManager below turns
// "what is left" into two numbers per move, in the style of Stockfish's TimeManagement:
//
//   mtg      = the replies still expected, this one included (at least 1);
//   usable   = left - reserve_ms - mtg * move_overhead_ms   (never below 0);
//   optimum  = usable / mtg                                 the planned time: an even share;
//   safe     = usable - (mtg - 1) * optimum / 2             the most this move may take while
//                                                           every later move keeps at least half
//                                                           of today's share;
//   maximum  = min(kMaxRatio * optimum, safe, max_move_ms)  the hard limit of this move.
//
// The Session hands the strategy a Deadline with soft = optimum ("do not start another
// iteration") and hard slightly before maximum ("return now"), and its own watchdog answers at
// maximum whatever the strategy does. With [time] node_budget > 0 the strategy gets no clock at
// all (Deadline::never(), so its play is reproducible) and the watchdog waits up to `safe`
// instead of `maximum`: a budget that fits the bank plays deterministically, one that does not
// is cut off before it can lose the game on time.
//
// Because every reply is written within maximum <= usable of the moment its command arrived,
// the bank never drops below reserve_ms plus one move_overhead_ms per remaining reply, as long
// as a round trip through the pipes costs at most move_overhead_ms beyond what we measure. Each
// move re-plans from the judge's own figure (remaining_ms / my_time), so latency we did not
// foresee is charged to later moves instead of accumulating. When usable is 0 the Session does
// not ask the strategy at all and answers its cheap fallback move at once.
//
// Standard library and POSIX only: this header goes into fused submissions.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace tactica {

// The [time] section of a config. Every field is documented in docs/CONFIG.md.
struct TimeConfig {
  std::int64_t reserve_ms = 300;      // never planned for: start-up, latency spikes, safety
  std::int64_t move_overhead_ms = 2;  // per reply: pipe latency and the Session's own work
  std::int64_t max_move_ms = 0;       // cap on one move's maximum (0: no cap; clock mode only)
  std::uint64_t node_budget = 0;      // >0: strategies search this many nodes, no clock
  std::int64_t bank_ms = 5000;        // the platform's wall bank (before the judge reports one)
  std::int64_t cpu_cap_ms = 5000;     // Icebreaking: the CPU cap over the process life
};

class TimeManager {
 public:
  // Hard limit as a multiple of the even share: room to finish an iteration started late.
  static constexpr double kMaxRatio = 3.0;

  // left_ms: the bank left now; moves_to_go: replies still expected, this one included.
  void init(double left_ms, int moves_to_go, const TimeConfig& cfg) {
    const int mtg = std::max(1, moves_to_go);
    usable_ =
        std::max(0.0, left_ms - static_cast<double>(cfg.reserve_ms) -
                          static_cast<double>(mtg) * static_cast<double>(cfg.move_overhead_ms));
    optimum_ = usable_ / mtg;
    safe_ = std::max(0.0, usable_ - (mtg - 1) * optimum_ / 2);
    maximum_ = std::min(kMaxRatio * optimum_, safe_);
    if (cfg.max_move_ms > 0) maximum_ = std::min(maximum_, static_cast<double>(cfg.max_move_ms));
    optimum_ = std::min(optimum_, maximum_);
    budget_mode_ = cfg.node_budget > 0;
  }

  double usable() const { return usable_; }
  double optimum() const { return optimum_; }
  double maximum() const { return maximum_; }
  double safe() const { return safe_; }
  // When the Session's watchdog answers, counted from the command's arrival.
  double watchdog() const { return budget_mode_ ? safe_ : maximum_; }
  bool budget_mode() const { return budget_mode_; }

 private:
  double usable_ = 0, optimum_ = 0, safe_ = 0, maximum_ = 0;
  bool budget_mode_ = false;
};

// CPU time of the whole process (every thread) in milliseconds: what the Icebreaking cap counts.
inline double process_cpu_ms() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0.0;
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Milliseconds between two steady_clock points, as a double.
inline double ms_between(std::chrono::steady_clock::time_point a,
                         std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace tactica
