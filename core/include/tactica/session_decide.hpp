// session_decide.hpp — the time decision of one move: the time manager's limits for it, the
// strategy asked on the worker under a watchdog (the Session sleeps until it answers or the
// limit passes, watching its input), and which answer is played: the strategy's, its published
// best-so-far, or the fallback.
// Part of session.hpp; standard library and POSIX only (it goes into fused submissions).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "tactica/session_core.hpp"
#include "tactica/strategy.hpp"
#include "tactica/timebank.hpp"

namespace tactica::detail {

// How a move was chosen.
struct Decision {
  int cell = -1;
  const char* source = "fallback";  // "strategy", "best-so-far", "fallback"
  std::string problem;              // why not the strategy's own answer (empty if it was)
  bool asked = false;               // the strategy was called for this move
  SearchStats stats;
  double strategy_ms = 0;
  TimeManager tm;
  double left_ms = 0;
};

// Chooses this move's cell: the strategy's answer when it is legal and in time, else its
// best-so-far, else `fallback`. `call(limits, best, stats)` runs on the worker thread.
template <class Legal, class Call>
Decision SessionCore::decide(Clock::time_point arrived, double left_ms, int moves_to_go,
                             int fallback, Legal legal, Call call) {
  Decision d;
  d.cell = fallback;
  d.left_ms = left_ms;
  d.tm.init(left_ms, moves_to_go, opt_.time);
  report_worker_errors();
  if (strategy_dead_) {
    d.problem = "strategy parked";
    return d;
  }
  if (overdue_ && !worker_.done(*overdue_)) {
    if (cpu_cap_ms_ > 0 && cpu_cap_ms_ - process_cpu_ms() < double(opt_.time.reserve_ms))
      park_runaway();
    d.problem =
        std::string("the strategy's ") + overdue_->what + " from an earlier move is still running";
    return d;
  }
  overdue_.reset();
  const double spent = ms_between(arrived, Clock::now());
  const double watchdog = d.tm.watchdog() - spent;
  if (d.tm.usable() <= 0 || watchdog <= 0) {
    d.problem = "no time left to plan with (" + std::to_string(int(left_ms)) + " ms left)";
    return d;
  }
  SearchLimits limits;
  limits.node_budget = opt_.time.node_budget;
  limits.bank_ms = static_cast<std::int64_t>(left_ms);
  if (!d.tm.budget_mode()) {
    // The strategy's hard limit comes a little before the watchdog, so that a well-behaved
    // search returns on its own and its answer (not the best-so-far) is used.
    const double margin = std::min(2.0, 0.1 * d.tm.maximum());
    const auto us = [](double ms) {
      return std::chrono::microseconds(static_cast<std::int64_t>(std::max(0.0, ms) * 1000));
    };
    limits.deadline = Deadline::in(us(d.tm.optimum() - spent), us(d.tm.maximum() - margin - spent));
  }
  auto job = std::make_shared<Job>("choose");
  worker_.post(job, [call, limits](Job& j) mutable {
    limits.deadline.attach_stop_flag(&j.stop);
    j.result = call(static_cast<const SearchLimits&>(limits), j.best, j.stats);
  });
  d.asked = true;
  const auto until =
      arrived + std::chrono::microseconds(static_cast<std::int64_t>(d.tm.watchdog() * 1000));
  // Waits in slices, watching the input: end of input (or the game's end word, FINISH) stops
  // the search at once and no reply is sent (`ending_`), so the agent exits promptly.
  bool finished = false;
  for (;;) {
    finished = worker_.wait(*job, std::min(until, Clock::now() + std::chrono::milliseconds(5)));
    if (finished || Clock::now() >= until) break;
    if (in_.fill(0) || (end_word_ && in_.has_line(end_word_))) {
      job->stop.store(true);
      overdue_ = job;
      ending_ = true;
      d.problem = "the game ended while the strategy was thinking";
      return d;
    }
  }
  const int best = job->best.get();
  const auto best_or_fallback = [&](std::string why) {
    d.problem = std::move(why);
    if (legal(best)) d.cell = best, d.source = "best-so-far";
  };
  if (!finished) {
    job->stop.store(true);
    auto running = worker_.running();
    overdue_ = running ? running : job;
    best_or_fallback("the strategy's " + std::string(overdue_->what) + " overran the " +
                     std::to_string(int(d.tm.watchdog() + 0.5)) + " ms limit");
    return d;
  }
  d.strategy_ms = job->ms;
  d.stats = job->stats;
  if (job->failed)
    best_or_fallback("the strategy threw: " + job->error);
  else if (job->skipped)
    best_or_fallback("the strategy was not reached in time");
  else if (!legal(job->result))
    best_or_fallback("the strategy returned an illegal cell " + std::to_string(job->result));
  else
    d.cell = job->result, d.source = "strategy";
  return d;
}

inline void SessionCore::verbose_move(int n, const std::string& reply, const Decision& d,
                                      Clock::time_point arrived) {
  if (!opt_.verbose) return;
  char buf[400];
  const double took = ms_between(arrived, Clock::now());
  if (d.asked)
    std::snprintf(buf, sizeof buf,
                  "tactica: %s: move %d: %s (%s) bank %.0f ms, optimum %.1f, maximum %.1f, "
                  "watchdog %.1f; strategy %.1f ms, nodes %llu, depth %d, value %.2f; replied "
                  "after %.2f ms",
                  game_, n, reply.c_str(), d.source, d.left_ms, d.tm.optimum(), d.tm.maximum(),
                  d.tm.watchdog(), d.strategy_ms, static_cast<unsigned long long>(d.stats.nodes),
                  d.stats.depth, d.stats.value, took);
  else
    std::snprintf(buf, sizeof buf,
                  "tactica: %s: move %d: %s (%s, strategy not asked: %s) bank %.0f ms; replied "
                  "after %.2f ms",
                  game_, n, reply.c_str(), d.source, d.problem.c_str(), d.left_ms, took);
  raw_err(buf);
}

}  // namespace tactica::detail
