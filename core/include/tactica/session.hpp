// session.hpp — the protocol loops: one Session per game reads the judge's lines, keeps the game
// with the core rules, asks the strategy for a move under the time bank, and writes the reply.
// The same code runs in tactica-agent (strategy from a plugin) and in a fused main.cpp.
//
// What a Session guarantees, whatever the strategy does:
//   * stdout carries protocol lines only, each written with one write() and so flushed at once;
//     diagnostics go to stderr (bounded in volume, so an undrained pipe cannot block us);
//   * every TURN gets a legal move (legal in the Session's own record of the game) before the
//     time manager's limit: a cheap fallback move is computed before the strategy is asked, the
//     strategy runs on a worker thread, and the Session sleeps on a condition variable until the
//     strategy returns or the limit passes. A strategy that throws, returns an illegal move or
//     overruns is answered for with its published best-so-far move if legal, else the fallback;
//   * a strategy that overran and is still running is never called again concurrently: the
//     fallback answers until it returns. Under a CPU cap (Icebreaking) such a runaway may use up
//     the usable CPU time but never the reserve: the Session then parks its thread for good
//     (a thread-directed signal whose handler sleeps) and plays the fallback to the end;
//   * judge input is cross-checked and never trusted blindly: malformed lines, unknown
//     commands and impossible moves are reported on stderr and play goes on where possible;
//   * end of input (and Icebreaking's FINISH) ends the run with status 0, also while the
//     strategy thinks (the Session watches its input while it waits: the search is stopped and
//     no reply is sent). If a strategy does not return within 30 ms of being stopped, the
//     strategy object cannot be destroyed safely, so run() ends the process with std::_Exit(0)
//     instead of returning (all output is unbuffered by then);
//   * the strategy's new_game (its tables) is waited for, up to 25 ms, before READY/OK, so no
//     move's reply queues behind it; a READY that comes after TURN or OPP still gets its OK.
//
// Standard library and POSIX only: this header goes into fused submissions.
#pragma once

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/protocol.hpp"
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

// The Icebreaking fallback: the empty ice cell with the best immediate gain (its score plus
// what it captures), ties to the lowest cell; kNoCell when no ice is left.
inline int icebreaking_fallback_move(const icebreaking::Board& board,
                                     const icebreaking::Position& pos) {
  int best = icebreaking::kNoCell, best_gain = 0;
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s);
    const int gain = board.score[c] + board.sum(pos.captures(c));
    if (best == icebreaking::kNoCell || gain > best_gain) best = c, best_gain = gain;
  }
  return best;
}

// A Hanpang move that is legal on the judge's board even if our record of the colours is wrong:
// right after a row is pushed the bottom row is full, so a bottom cell always holds a tile.
// Takes the bottom cell whose group (in our record) is largest.
inline int hanpang_bottom_move(const hanpang::State& s) {
  int best = hanpang::cell(0, 0), best_size = -1;
  for (int col = 0; col < hanpang::kCols; ++col) {
    const int size = popcount(s.group_at(hanpang::cell(col, 0)));
    if (size > best_size) best = hanpang::cell(col, 0), best_size = size;
  }
  return best;
}

namespace detail {

using Clock = std::chrono::steady_clock;

// ---- parking a runaway strategy thread --------------------------------------------------------
// Set by the worker thread around strategy calls; read by the signal handler on that same
// thread, so the handler parks only inside strategy code (never while the worker holds the
// Session's mutex).
inline thread_local volatile std::sig_atomic_t t_in_strategy = 0;
inline thread_local std::atomic<bool>* t_parked = nullptr;

inline void park_handler(int) {
  if (!t_in_strategy) return;
  if (t_parked) t_parked->store(true);
  for (;;) pause();
}
inline int park_signal() { return SIGRTMIN + 4; }
inline bool install_park_handler() {
  static const bool ok = [] {
    struct sigaction sa {};
    sa.sa_handler = park_handler;
    sigemptyset(&sa.sa_mask);
    return sigaction(park_signal(), &sa, nullptr) == 0;
  }();
  return ok;
}

// ---- lines from a file descriptor ---------------------------------------------------------------

class LineReader {
 public:
  enum class Status { line, eof, timeout };
  explicit LineReader(int fd) : fd_(fd) {}

  // The next line without its '\n' (a last line without one counts). `cut` is set when the line
  // was longer than protocol::kMaxLine (only its beginning is kept). timeout_ms < 0 waits for
  // ever; `arrived` is when the read that brought the line returned.
  Status next(std::string& line, bool& cut, Clock::time_point& arrived, int timeout_ms) {
    for (;;) {
      const auto nl = pending_.find('\n');
      if (nl != std::string::npos) {
        cut = cut_ || nl > protocol::kMaxLine;
        line.assign(pending_, 0, std::min(nl, protocol::kMaxLine));
        pending_.erase(0, nl + 1);
        cut_ = false;
        arrived = read_at_;
        return Status::line;
      }
      if (pending_.size() > protocol::kMaxLine) pending_.resize(protocol::kMaxLine), cut_ = true;
      if (eof_) {
        if (pending_.empty() && !cut_) return Status::eof;
        line.swap(pending_);
        pending_.clear();
        cut = cut_;
        cut_ = false;
        arrived = read_at_;
        return Status::line;
      }
      if (timeout_ms >= 0) {
        pollfd p{fd_, POLLIN, 0};
        const int r = ::poll(&p, 1, timeout_ms);
        if (r == 0) return Status::timeout;
        if (r < 0 && errno == EINTR) continue;
      }
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      read_at_ = Clock::now();
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // Buffers what input has arrived within `timeout_ms` (0: none waited for) without taking a
  // line; next() returns it later. True once input has ended.
  bool fill(int timeout_ms) {
    while (!eof_ && pending_.size() <= 4 * protocol::kMaxLine) {
      pollfd p{fd_, POLLIN, 0};
      const int r = ::poll(&p, 1, timeout_ms);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      read_at_ = Clock::now();
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) break;
      if (n <= 0) {
        eof_ = true;
        break;
      }
      pending_.append(chunk, static_cast<std::size_t>(n));
      timeout_ms = 0;
    }
    return eof_;
  }
  // A complete line waiting in the buffer is exactly `word` (a CR before '\n' allowed).
  bool has_line(std::string_view word) const {
    std::size_t start = 0;
    for (;;) {
      const auto nl = pending_.find('\n', start);
      if (nl == std::string::npos) return false;
      std::string_view l(pending_.data() + start, nl - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (l == word) return true;
      start = nl + 1;
    }
  }

 private:
  int fd_;
  std::string pending_;
  bool cut_ = false, eof_ = false;
  Clock::time_point read_at_ = Clock::now();
};

// Writes all of `s` with as few write() calls as the pipe allows; false if the reader is gone.
inline bool write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// ---- the worker thread that owns every strategy call ---------------------------------------

// One call into the strategy (new_game, observe or choose) and what came of it.
struct Job {
  explicit Job(const char* w) : what(w) {}
  const char* what;
  BestMove best;                  // choose: published by the search while it runs
  std::atomic<bool> stop{false};  // raised by the Session: stop now (or do not start)
  // Written by the worker before `done` is set under the Worker's mutex.
  bool done = false;
  bool skipped = false;  // stopped before it started
  bool failed = false;   // threw
  std::string error;
  int result = -1;
  SearchStats stats;
  double ms = 0;  // wall time of the call
};

// A single thread that runs the strategy's calls in order, so they never overlap. It sleeps on
// a condition variable while there is nothing to do.
class Worker {
 public:
  using Task = std::function<void(Job&)>;

  explicit Worker(bool threaded) {
    if (!threaded) return;
    try {
      thread_ = std::thread([this] { loop(); });
      threaded_ = true;
    } catch (const std::system_error&) {
      threaded_ = false;  // no threads here: calls run inline
    }
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  // Only reached when the worker is idle or will be soon (see SessionCore::finish).
  ~Worker() {
    {
      std::lock_guard<std::mutex> lk(m_);
      quit_ = true;
      for (auto& q : queue_) q.first->stop.store(true);
    }
    task_cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // Queues a call; without a thread, makes it at once.
  void post(std::shared_ptr<Job> job, Task fn) {
    if (!threaded_) {
      run_one(*job, fn);
      finished(*job);
      return;
    }
    {
      std::lock_guard<std::mutex> lk(m_);
      queue_.emplace_back(std::move(job), std::move(fn));
    }
    task_cv_.notify_one();
  }

  // Sleeps until the job is done or `until` passes; true if done.
  bool wait(const Job& job, Clock::time_point until) {
    std::unique_lock<std::mutex> lk(m_);
    return done_cv_.wait_until(lk, until, [&] { return job.done; });
  }
  bool done(const Job& job) {
    std::lock_guard<std::mutex> lk(m_);
    return job.done;
  }
  bool idle() {
    std::lock_guard<std::mutex> lk(m_);
    return !running_ && queue_.empty();
  }
  bool wait_idle(Clock::time_point until) {
    std::unique_lock<std::mutex> lk(m_);
    return done_cv_.wait_until(lk, until, [&] { return !running_ && queue_.empty(); });
  }
  std::shared_ptr<Job> running() {
    std::lock_guard<std::mutex> lk(m_);
    return running_;
  }
  // Raises the stop flag of every job queued or running.
  void stop_all() {
    std::lock_guard<std::mutex> lk(m_);
    for (auto& q : queue_) q.first->stop.store(true);
    if (running_) running_->stop.store(true);
  }
  // Errors of calls nobody waited for (new_game, observe), taken once.
  std::vector<std::string> take_errors() {
    std::lock_guard<std::mutex> lk(m_);
    return std::exchange(errors_, {});
  }

  // Freezes the thread for good if it is inside strategy code; true once it is parked.
  bool park() {
    if (!install_park_handler()) return false;
    {
      std::lock_guard<std::mutex> lk(m_);
      if (!running_) return false;
      pthread_kill(thread_.native_handle(), park_signal());
    }
    const auto until = Clock::now() + std::chrono::milliseconds(100);
    while (!parked_.load() && Clock::now() < until) {
      std::unique_lock<std::mutex> lk(m_);
      if (!running_) return false;  // it left strategy code first: nothing to park
      done_cv_.wait_for(lk, std::chrono::milliseconds(1));
    }
    return parked_.load();
  }
  bool parked() const { return parked_.load(); }
  bool threaded() const { return threaded_; }

 private:
  void loop() {
    t_parked = &parked_;
    std::unique_lock<std::mutex> lk(m_);
    for (;;) {
      task_cv_.wait(lk, [&] { return quit_ || !queue_.empty(); });
      if (quit_) return;
      auto [job, fn] = std::move(queue_.front());
      queue_.pop_front();
      running_ = job;
      lk.unlock();
      run_one(*job, fn);
      fn = nullptr;  // drop the task's copies outside the lock
      lk.lock();
      finished(*job);
      running_.reset();
      done_cv_.notify_all();
    }
  }

  // Marks a call done (under the mutex when threaded) and keeps errors nobody waits for.
  void finished(Job& job) {
    if (job.failed && std::string_view(job.what) != "choose")
      errors_.push_back(std::string(job.what) + " threw: " + job.error);
    job.done = true;
  }

  static void run_one(Job& job, Task& fn) {
    if (job.stop.load()) {
      job.skipped = true;
      return;
    }
    const auto t0 = Clock::now();
    t_in_strategy = 1;
    try {
      fn(job);
      t_in_strategy = 0;
    } catch (const std::exception& e) {
      t_in_strategy = 0;
      job.failed = true;
      job.error = e.what();
    } catch (...) {
      t_in_strategy = 0;
      job.failed = true;
      job.error = "an exception not derived from std::exception";
    }
    job.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }

  std::mutex m_;
  std::condition_variable task_cv_, done_cv_;
  std::deque<std::pair<std::shared_ptr<Job>, Task>> queue_;
  std::shared_ptr<Job> running_;
  std::vector<std::string> errors_;
  bool quit_ = false;
  bool threaded_ = false;
  std::atomic<bool> parked_{false};
  std::thread thread_;  // started last, once everything above exists
};

// ---- what both games share ----------------------------------------------------------------------

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

  // Chooses this move's cell: the strategy's answer when it is legal and in time, else its
  // best-so-far, else `fallback`. `call(limits, best, stats)` runs on the worker thread.
  template <class Legal, class Call>
  Decision decide(Clock::time_point arrived, double left_ms, int moves_to_go, int fallback,
                  Legal legal, Call call) {
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
      d.problem = std::string("the strategy's ") + overdue_->what +
                  " from an earlier move is still running";
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
      limits.deadline =
          Deadline::in(us(d.tm.optimum() - spent), us(d.tm.maximum() - margin - spent));
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

  void verbose_move(int n, const std::string& reply, const Decision& d, Clock::time_point arrived) {
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

}  // namespace detail

// ---- Hanpang ----------------------------------------------------------------------------------

class HanpangSession : detail::SessionCore {
 public:
  HanpangSession(HanpangStrategy& strategy, SessionOptions options)
      : SessionCore(std::move(options), "hanpang"), strategy_(strategy) {}
  ~HanpangSession() { quiesce(); }

  // Plays until end of input; returns the exit status (0).
  int run() {
    namespace io = protocol::hanpang_io;
    if (!opt_.banner.empty()) raw_err(opt_.banner);
    if (opt_.worker_thread && !worker_.threaded())
      note("no thread could be started: the strategy runs without a watchdog");
    // new_game runs before START arrives, so its time is not charged to the bank.
    new_game_ = std::make_shared<detail::Job>("new_game");
    worker_.post(new_game_, [this](detail::Job&) { strategy_.new_game(opt_.seed); });
    std::string line;
    bool cut = false;
    detail::Clock::time_point arrived;
    while (!output_closed_ && next_line(line, cut, arrived) == detail::LineReader::Status::line) {
      io::Command cmd = io::parse(line, opt_.time.bank_ms);
      if (cut) line_note("line longer than " + std::to_string(protocol::kMaxLine) + " bytes, cut");
      for (const auto& p : cmd.problems) line_note(p);
      switch (cmd.kind) {
        case io::Kind::blank:
          break;
        case io::Kind::unknown:
          line_note("unknown command " + protocol::quote(cmd.word) + " ignored");
          break;
        case io::Kind::start:
          if (started_) {
            line_note("START again: ignored");
            break;
          }
          started_ = true;
          await_new_game(arrived);
          send(io::ready());
          charge(arrived);
          break;
        case io::Kind::turn:
          turn(cmd, arrived);
          break;
      }
    }
    return finish(0);
  }

 private:
  void turn(const protocol::hanpang_io::Command& cmd, detail::Clock::time_point arrived) {
    namespace io = protocol::hanpang_io;
    if (!started_) {
      line_note("TURN before START: playing it anyway");
      started_ = true;
    }
    ++turns_;
    if (cmd.row) {
      if (!state_.push_row(*cmd.row) && !desynced_) {
        line_note(
            "the new row pushed a tile out over the top of our board, yet the game goes on: "
            "playing bottom-row cells (always legal) from now on");
        desynced_ = true;
      }
    } else {
      state_.push_row(io::guess_row(cmd.row_text));
      if (!desynced_)
        line_note(
            "without a readable new_row our board may differ from the judge's: playing "
            "bottom-row cells (always legal) from now on");
      desynced_ = true;
    }
    const double left = wall_left(cmd.remaining_ms);
    detail::Decision d;
    d.left_ms = left;
    if (desynced_) {
      d.cell = hanpang_bottom_move(state_);
      d.problem = "board out of step with the judge";
    } else if (state_.over() && state_.end != hanpang::End::overflow) {
      line_note("TURN after the last of " + std::to_string(hanpang::kMaxActions) +
                " actions: answering the fallback");
      d.cell = hanpang::fallback_move(state_);
      d.problem = "the game is over in our record";
    } else {
      const hanpang::State& s = state_;
      const auto legal = [&s](int c) {
        return c >= 0 && c < 128 && (hanpang::kValid & bit128(c)) && (s.occupied() & bit128(c));
      };
      HanpangStrategy& strat = strategy_;
      const hanpang::State copy = state_;
      d = decide(arrived, left, hanpang::kMaxActions - state_.actions, hanpang::fallback_move(s),
                 legal, [&strat, copy](const SearchLimits& l, BestMove& b, SearchStats& st) {
                   const int c = strat.choose(copy, l, b);
                   st = strat.stats();
                   return c;
                 });
      if (ending_) return;  // input ended while it thought: no reply, the run ends
      if (!d.problem.empty())
        note("move " + std::to_string(turns_) + ": " + d.problem + "; answered " + d.source);
    }
    if (d.cell < 0 || d.cell >= 128 || !(state_.occupied() & bit128(d.cell)))
      d.cell = hanpang_bottom_move(state_);
    const std::string reply = io::pang(d.cell);
    send(reply);
    charge(arrived);
    state_.play(d.cell);
    verbose_move(turns_, reply, d, arrived);
  }

  HanpangStrategy& strategy_;
  hanpang::State state_;
  bool started_ = false;
  bool desynced_ = false;
  int turns_ = 0;
};

// ---- Icebreaking ------------------------------------------------------------------------------

class IcebreakingSession : detail::SessionCore {
 public:
  IcebreakingSession(IcebreakingStrategy& strategy, SessionOptions options)
      : SessionCore(std::move(options), "icebreaking"), strategy_(strategy) {
    cpu_cap_ms_ = double(opt_.time.cpu_cap_ms);
    end_word_ = "FINISH";
  }
  ~IcebreakingSession() { quiesce(); }

  // Plays until FINISH or end of input; returns the exit status (0).
  int run() {
    namespace io = protocol::icebreaking_io;
    if (!opt_.banner.empty()) raw_err(opt_.banner);
    if (opt_.worker_thread && !worker_.threaded())
      note("no thread could be started: the strategy runs without a watchdog");
    std::string line;
    bool cut = false;
    detail::Clock::time_point arrived;
    while (!output_closed_ && next_line(line, cut, arrived) == detail::LineReader::Status::line) {
      io::Command cmd = io::parse(line, opt_.time.bank_ms);
      if (cut) line_note("line longer than " + std::to_string(protocol::kMaxLine) + " bytes, cut");
      if (cmd.kind == io::Kind::blank) continue;
      if (cmd.kind == io::Kind::board_line) {
        board_line(line);
        continue;
      }
      for (const auto& p : cmd.problems) line_note(p);
      if (cmd.kind != io::Kind::unknown) close_board(cmd.word);
      switch (cmd.kind) {
        case io::Kind::blank:
        case io::Kind::board_line:
          break;
        case io::Kind::unknown:
          line_note("unknown command " + protocol::quote(cmd.word) + " ignored");
          break;
        case io::Kind::ready:
          ready(cmd, arrived);
          break;
        case io::Kind::turn:
          turn(cmd, arrived);
          break;
        case io::Kind::opp:
          opp(cmd);
          break;
        case io::Kind::finish:
          return finish(0);
      }
    }
    return finish(0);
  }

 private:
  void board_line(std::string_view line) {
    namespace io = protocol::icebreaking_io;
    if (board_closed_ || rows_ >= icebreaking::kSize) {
      line_note("board line after the board was complete: ignored");
      return;
    }
    const io::BoardLine b = io::parse_board_line(line);
    for (const auto& p : b.problems) line_note("board row " + std::to_string(rows_) + ": " + p);
    for (int c = 0; c < icebreaking::kSize; ++c) {
      const auto& t = b.cells[c];
      const int cell = icebreaking::cell(rows_, c);
      board_.set(cell, t.kind != io::BoardToken::ice, t.score);
      if (t.kind == io::BoardToken::hole) ++declared_holes_;
      if (t.kind == io::BoardToken::unknown) unread_ |= bit128(cell);
    }
    ++rows_;
  }

  // The first command ends the board: missing rows are holes, and the game position starts.
  void close_board(std::string_view word) {
    if (board_closed_) return;
    board_closed_ = true;
    if (rows_ < icebreaking::kSize) {
      line_note("only " + std::to_string(rows_) + " board rows before " + protocol::quote(word) +
                ": the missing cells are treated as holes");
      for (int r = rows_; r < icebreaking::kSize; ++r)
        for (int c = 0; c < icebreaking::kSize; ++c) {
          board_.set(icebreaking::cell(r, c), true, 0);
          unread_ |= bit128(icebreaking::cell(r, c));
        }
    } else if (declared_holes_ != icebreaking::kHoles) {
      line_note("the board has " + std::to_string(declared_holes_) + " holes, not " +
                std::to_string(icebreaking::kHoles) + ": playing on it as given");
    }
    pos_ = icebreaking::Position::start(board_);
  }

  void start_game(icebreaking::Player me) {
    if (side_known_) return;
    side_known_ = true;
    me_ = me;
    new_game_ = std::make_shared<detail::Job>("new_game");
    worker_.post(new_game_, [this](detail::Job&) { strategy_.new_game(board_, me_, opt_.seed); });
  }

  void ready(const protocol::icebreaking_io::Command& cmd, detail::Clock::time_point arrived) {
    using protocol::icebreaking_io::Side;
    if (ok_sent_) {
      line_note("READY again: ignored");
      return;
    }
    if (ready_) line_note("READY after the game began: answering OK");
    ready_ = ok_sent_ = true;
    if (cmd.side == Side::first) start_game(icebreaking::A);
    if (cmd.side == Side::second) start_game(icebreaking::B);
    await_new_game(arrived);
    send(protocol::icebreaking_io::ok());
    charge(arrived);
  }

  void turn(const protocol::icebreaking_io::Command& cmd, detail::Clock::time_point arrived) {
    if (!ready_) line_note("TURN before READY: playing it anyway"), ready_ = true;
    start_game(pos_.to_move);  // a bare READY: whoever is to move when TURN comes is us
    if (pos_.to_move != me_) {
      line_note("TURN when our record says the opponent is to move: playing anyway");
      pos_.to_move = me_;
    }
    ++turns_;
    const double cpu_left = cpu_cap_ms_ > 0 ? cpu_cap_ms_ - process_cpu_ms() : 1e18;
    const double left = std::min(wall_left(cmd.my_time), cpu_left);
    detail::Decision d;
    d.left_ms = left;
    if (pos_.over()) {
      line_note("TURN but our record has no empty ice left: answering a guess");
      d.cell = guess_cell();
      d.problem = "no empty ice in our record";
    } else {
      const icebreaking::Position& p = pos_;
      const auto legal = [&p](int c) { return p.legal(c); };
      IcebreakingStrategy& strat = strategy_;
      const icebreaking::Board& board = board_;
      const icebreaking::Position copy = pos_;
      d = decide(arrived, left, (popcount(pos_.ice) + 1) / 2,
                 icebreaking_fallback_move(board_, pos_), legal,
                 [&strat, &board, copy](const SearchLimits& l, BestMove& b, SearchStats& st) {
                   const int c = strat.choose(board, copy, l, b);
                   st = strat.stats();
                   return c;
                 });
      if (ending_) return;  // FINISH or end of input while it thought: no reply, the run ends
      if (!d.problem.empty())
        note("move " + std::to_string(turns_) + ": " + d.problem + "; answered " + d.source);
    }
    if (d.cell < 0 || d.cell >= icebreaking::kSize * icebreaking::kStride) d.cell = guess_cell();
    const std::string reply = protocol::icebreaking_io::move(d.cell);
    send(reply);
    charge(arrived);
    if (pos_.legal(d.cell)) apply(d.cell);
    verbose_move(turns_, reply, d, arrived);
  }

  void opp(const protocol::icebreaking_io::Command& cmd) {
    if (!ready_) line_note("OPP before READY: taking it anyway"), ready_ = true;
    start_game(icebreaking::other(pos_.to_move));  // a bare READY: the opponent moved first
    if (!cmd.cell) {
      line_note("OPP without a readable cell: not applied");
      return;
    }
    if (!pos_.legal(*cmd.cell)) {
      line_note("OPP " + std::to_string(icebreaking::row_of(*cmd.cell)) + " " +
                std::to_string(icebreaking::col_of(*cmd.cell)) +
                " is not empty ice in our record (a hole or a taken cell): not applied");
      return;
    }
    if (pos_.to_move == me_) {
      line_note("OPP when our record says we are to move: applying it anyway");
      pos_.to_move = icebreaking::other(me_);
    }
    apply(*cmd.cell);
  }

  void apply(int cell) {
    pos_.play(board_, cell);
    worker_.post(std::make_shared<detail::Job>("observe"),
                 [this, after = pos_, cell](detail::Job&) { strategy_.observe(after, cell); });
  }

  // Our record is out of step: prefer a cell we could not read (it may be ice), else any
  // non-hole cell.
  int guess_cell() const {
    if (unread_) return lowest_bit(unread_);
    for (int r = 0; r < icebreaking::kSize; ++r)
      for (int c = 0; c < icebreaking::kSize; ++c)
        if (!(board_.holes & bit128(icebreaking::cell(r, c)))) return icebreaking::cell(r, c);
    return icebreaking::cell(0, 0);
  }

  IcebreakingStrategy& strategy_;
  icebreaking::Board board_;
  icebreaking::Position pos_;
  u128 unread_ = 0;  // cells whose board token was missing or unreadable (played as holes)
  int rows_ = 0, declared_holes_ = 0, turns_ = 0;
  bool board_closed_ = false, ready_ = false, side_known_ = false, ok_sent_ = false;
  icebreaking::Player me_ = icebreaking::A;
};

}  // namespace tactica
