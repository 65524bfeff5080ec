// search_budget.hpp — one helper for a search's limits, so no algorithm spells them again: the
// node budget (counted exactly), the deadline (read every few hundred nodes, because reading the
// clock costs ~20 ns), and the node rate that turns the time left into nodes.
//
// With a node budget the search is repeatable: `may_start` and `affordable` never read the
// clock. The hard deadline is still honoured as a safety net (a budget too large for the bank
// must not lose the game on time); only then does the clock change what is played.
#pragma once

#include <chrono>
#include <cstdint>

#include "tactica/strategy.hpp"

namespace tactica {

class SearchBudget {
 public:
  explicit SearchBudget(const SearchLimits& limits, std::uint32_t check_every = 256)
      : deadline_(&limits.deadline),
        budget_(limits.node_budget),
        mask_(round_down_pow2(check_every) - 1),
        start_(Deadline::Clock::now()) {}

  // Counts n nodes; true once the search must stop now: the budget is spent, or (on every
  // check_every-th node) the hard deadline passed or the Session asked to stop.
  bool count(std::uint64_t n = 1) {
    const std::uint64_t before = nodes_;
    nodes_ += n;
    if (budget_ && nodes_ >= budget_) stopped_ = true;
    if (((before ^ nodes_) & ~mask_) != 0 && deadline_->hard_expired()) stopped_ = true;
    return stopped_;
  }
  // Reads the clock now (between iterations, before a long step); true if the search must stop.
  bool check() {
    if ((budget_ && nodes_ >= budget_) || deadline_->hard_expired()) stopped_ = true;
    return stopped_;
  }
  bool stopped() const { return stopped_; }
  std::uint64_t nodes() const { return nodes_; }
  bool budgeted() const { return budget_ != 0; }
  std::uint64_t budget() const { return budget_; }
  const Deadline& deadline() const { return *deadline_; }

  // Start another iteration (a deeper search, a wider pass)? With a budget: while nodes are left.
  // On the clock: before the soft limit and before `fraction` of it is used. Unlimited: yes.
  bool may_start(double fraction = 1.0) const {
    if (stopped_) return false;
    if (budget_) return nodes_ < budget_;
    if (deadline_->unlimited()) return true;
    return !deadline_->soft_expired() && deadline_->soft_fraction() < fraction;
  }

  // Nodes the rest of this move affords: the budget's rest; on the clock, the rate measured so
  // far times the time left to the soft limit (`guess` until min_nodes were counted, or when
  // unlimited).
  double affordable(double guess, std::uint64_t min_nodes = 1000) const {
    if (budget_) return nodes_ >= budget_ ? 0.0 : static_cast<double>(budget_ - nodes_);
    if (deadline_->unlimited() || nodes_ < min_nodes) return guess;
    const double left =
        std::chrono::duration<double>(deadline_->soft() - Deadline::Clock::now()).count();
    return left <= 0 ? 0.0 : nodes_per_second() * left;
  }
  // Nodes per second since this object was made (0 before any time passed).
  double nodes_per_second() const {
    const double s = std::chrono::duration<double>(Deadline::Clock::now() - start_).count();
    return s > 0 ? static_cast<double>(nodes_) / s : 0.0;
  }

 private:
  static constexpr std::uint64_t round_down_pow2(std::uint32_t v) {
    std::uint64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
  }
  const Deadline* deadline_;
  std::uint64_t budget_;
  std::uint64_t mask_;
  Deadline::Clock::time_point start_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
};

}  // namespace tactica
