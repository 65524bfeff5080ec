// session_core.hpp — what both games' protocol loops share: the options, protocol lines and
// bounded notes out, judge lines in (numbered, watching a runaway under a CPU cap), our own count
// of the bank, and the end of the run (the strategy stopped, or the process ended if it will
// not stop). How a move is decided is in session_decide.hpp.
// Part of session.hpp; standard library and POSIX only (it goes into fused submissions).
#pragma once

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "tactica/session_lines.hpp"
#include "tactica/session_worker.hpp"
#include "tactica/strategy.hpp"
#include "tactica/timebank.hpp"

namespace tactica {

struct SessionOptions {
  TimeConfig time;
  std::uint64_t seed = 1;
  bool verbose = false;  // one stderr line per move
  // false: call the strategy on the Session's own thread, without a watchdog (also what happens
  // when no thread can be started, e.g. an old C library without -pthread).
  bool worker_thread = true;
  std::string banner;  // printed to stderr when the run starts (empty: none)
  int in_fd = 0, out_fd = 1, err_fd = 2;
};

namespace detail {

struct Decision;  // session_decide.hpp

class SessionCore {
 protected:
  static constexpr int kMaxNotes = 100;  // stderr problem lines, so an undrained pipe never fills

  SessionCore(SessionOptions o, const char* game)
      : opt_(std::move(o)),
        game_(game),
        in_(opt_.in_fd),
        worker_(opt_.worker_thread),
        own_left_ms_(double(opt_.time.bank_ms)) {
    struct sigaction old {};
    if (sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
      std::signal(SIGPIPE, SIG_IGN);  // a closed stdout must end the run, not kill it
  }

  // Writes one protocol line; false if the judge is gone.
  bool send(std::string line) {
    line += '\n';
    if (!write_all(opt_.out_fd, line)) output_closed_ = true;
    return !output_closed_;
  }
  void raw_err(std::string line) {
    line += '\n';
    (void)write_all(opt_.err_fd, line);
  }
  // A problem worth knowing about, always shown (up to kMaxNotes of them).
  void note(const std::string& msg) {
    if (notes_ < kMaxNotes) raw_err("tactica: " + std::string(game_) + ": " + msg);
    if (++notes_ == kMaxNotes)
      raw_err("tactica: " + std::string(game_) + ": further notes suppressed");
  }
  void line_note(const std::string& msg) { note("line " + std::to_string(line_no_) + ": " + msg); }
  void unknown_command(std::string_view word) {
    line_note("unknown command " + protocol::quote(word) + " ignored");
  }
  void report_worker_errors() {
    for (const auto& e : worker_.take_errors()) note("strategy " + e);
  }

  // The next judge line. While a runaway strategy burns CPU under a cap, waits in slices and
  // parks it before it eats into the reserve.
  LineReader::Status next_line(std::string& line, bool& cut, Clock::time_point& arrived) {
    for (;;) {
      const int timeout = runaway_cpu_timeout();
      const auto st = in_.next(line, cut, arrived, timeout);
      if (st == LineReader::Status::timeout) continue;
      if (st == LineReader::Status::line) ++line_no_;
      return st;
    }
  }

  // What every run says first: the banner, and that no watchdog runs if no thread started.
  void begin_run() {
    if (!opt_.banner.empty()) raw_err(opt_.banner);
    if (opt_.worker_thread && !worker_.threaded())
      note("no thread could be started: the strategy runs without a watchdog");
  }

  // Both protocol loops: every judge line until end of input (or the judge is gone), parsed by
  // `parse(line)`, a cut line noted, then `handle(cmd, line, arrived)`; false from it ends the loop.
  template <class Parse, class Handle>
  void for_each_command(Parse parse, Handle handle) {
    std::string line;
    bool cut = false;
    Clock::time_point arrived;
    while (!output_closed_ && next_line(line, cut, arrived) == LineReader::Status::line) {
      auto cmd = parse(line);
      if (cut) line_note("line longer than " + std::to_string(protocol::kMaxLine) + " bytes, cut");
      if (!handle(cmd, line, arrived)) return;
    }
  }

  // Poll timeout while a runaway exists under a CPU cap (-1: none needed). Parks it when the
  // CPU left falls to the reserve.
  int runaway_cpu_timeout() {
    if (cpu_cap_ms_ <= 0 || !overdue_ || strategy_dead_ || worker_.done(*overdue_)) return -1;
    const double margin = cpu_cap_ms_ - process_cpu_ms() - double(opt_.time.reserve_ms);
    if (margin > 0) return static_cast<int>(std::clamp(margin, 1.0, 20.0));
    park_runaway();
    return -1;
  }

  void park_runaway() {
    if (worker_.park()) {
      strategy_dead_ = true;
      note("the strategy overran and kept using CPU (" + std::to_string(int(process_cpu_ms())) +
           " ms used of the " + std::to_string(cpu_cap_ms_) +
           " ms cap): its thread is parked; the fallback plays from now on");
    }
  }

  // The bank to plan with: the judge's figure if it gave one, never more than our own count.
  double wall_left(const std::optional<std::int64_t>& judge) const {
    return judge ? std::min(double(*judge), own_left_ms_) : own_left_ms_;
  }
  // Charges a reply to our own count of the bank.
  void charge(Clock::time_point arrived) { own_left_ms_ -= ms_between(arrived, Clock::now()); }

  // Chooses this move's cell under the time bank (session_decide.hpp).
  template <class Legal, class Call>
  Decision decide(Clock::time_point arrived, double left_ms, int moves_to_go, int fallback,
                  Legal legal, Call call);
  // One stderr line for the move when verbose (session_decide.hpp).
  void verbose_move(int n, const std::string& reply, const Decision& d, Clock::time_point arrived);

  // Ends the run: stops the strategy; if it does not come back, ends the process (see top).
  int finish(int status) {
    report_worker_errors();
    quiesce(status);
    return status;
  }
  // Stops every strategy call; ends the process if one does not return within a grace period
  // (short: the judge allows 100 ms from FINISH to exit), since the objects it uses cannot be
  // destroyed under it.
  void quiesce(int status = 0) {
    worker_.stop_all();
    if (strategy_dead_ || !worker_.wait_idle(Clock::now() + std::chrono::milliseconds(30))) {
      if (opt_.verbose) note("the strategy did not stop; exiting without waiting for it");
      std::_Exit(status);
    }
  }

  SessionOptions opt_;
  const char* game_;
  LineReader in_;
  Worker worker_;
  std::int64_t line_no_ = 0;
  int notes_ = 0;
  double own_left_ms_;
  double cpu_cap_ms_ = 0;         // >0: the game caps process CPU time
  std::shared_ptr<Job> overdue_;  // a call that overran and may still be running
  bool strategy_dead_ = false;    // its thread is parked for good
  bool output_closed_ = false;
  const char* end_word_ = nullptr;  // a judge line that ends the game (Icebreaking: FINISH)
  bool ending_ = false;             // input ended or end_word_ came while the strategy thought
  std::shared_ptr<Job> new_game_;   // the strategy's set-up, waited for before the first answer

  // Lets the strategy finish setting up (a transposition table takes a few ms) before READY/OK,
  // so that the first move's reply does not wait behind it; at most 25 ms, so READY/OK stays
  // prompt even when new_game is slow (then the first move gets the fallback, as before).
  void await_new_game(Clock::time_point arrived) {
    if (!new_game_) return;
    const double ms = std::clamp(own_left_ms_ / 10, 0.0, 25.0);
    worker_.wait(*new_game_,
                 arrived + std::chrono::microseconds(static_cast<std::int64_t>(ms * 1000)));
    new_game_.reset();
  }
};

// A game's session: what code for any game needs of it (agent_main.hpp: the strategy type, the
// fallback played when none loads, the game), and the strategy it plays. Each game's protocol
// loop derives from it (session_hanpang.hpp, session_icebreaking.hpp).
template <class S, class Fallback, GameKind K>
class GameSession : protected SessionCore {
 public:
  using Strategy = S;
  using FallbackStrategy = Fallback;
  static constexpr GameKind kGame = K;

 protected:
  GameSession(S& strategy, SessionOptions o, const char* game)
      : SessionCore(std::move(o), game), strategy_(strategy) {}
  S& strategy_;
};

}  // namespace detail
}  // namespace tactica
