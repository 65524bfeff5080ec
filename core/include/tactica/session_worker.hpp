// session_worker.hpp — the worker thread that owns every strategy call (new_game, observe,
// choose), so calls never overlap and the Session can wait for one with a time limit, and the
// watchdog's last resort: parking a runaway strategy thread for good with a thread-directed
// signal. Part of session.hpp; standard library and POSIX only (it goes into fused submissions).
#pragma once

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
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
#include <vector>

#include "tactica/strategy.hpp"

namespace tactica::detail {

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

}  // namespace tactica::detail
