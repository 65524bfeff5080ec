// process.hpp — one agent as a real subprocess: pipes, reads with deadlines, wall and CPU
// accounting, limits, and a kill that leaves nothing behind.
//
// What is enforced (see docs/HARNESS.md, "Limits"):
// - memory: the resident memory (RSS) of the agent's whole tree is read on every sample; the
//   judge turns more than `memory_bytes` into RUNTIME_ERROR and kills the tree. No RLIMIT_AS or
//   RLIMIT_DATA by default: sanitizer builds reserve terabytes of address space and could not
//   start under them (`hard_data_limit` adds RLIMIT_DATA = memory_bytes for a hard cap anyway);
// - core files: RLIMIT_CORE = 0;
// - processes: the agent's tree is counted on every sample; more than `max_processes` alive at
//   once is reported (the judge turns it into RUNTIME_ERROR and kills the tree). RLIMIT_NPROC is
//   not used: it counts every process of the user and does not apply to root;
// - at the end the whole process group and every descendant seen is killed with SIGKILL and
//   reaped (the harness is a child subreaper, so orphans come back to it): no zombies.
//
// CPU time is the agent's whole tree: on each sample, utime+stime+cutime+cstime of every live
// process of the tree (found through /proc/<pid>/task/<tid>/children from the leader, plus
// orphans re-parented to the harness), plus the rusage of what the harness reaped itself. The
// figure never decreases.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tactica::harness {

using Clock = std::chrono::steady_clock;

// The agent could not be started at all (no such file, not executable): a setup error of the
// user, not a game verdict.
class SpawnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProcessLimits {
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;  // resident memory of the agent's tree
  bool hard_data_limit = false;  // also RLIMIT_DATA = memory_bytes per process (no sanitizers)
  int max_processes = 64;        // alive at once in the agent's tree
};

// How a process ended.
struct ExitStatus {
  bool exited = false;  // normal exit (else killed by `signal`)
  int code = 0;
  int signal = 0;
  std::string describe() const;  // "exit status 1", "killed by signal 11 (Segmentation fault)"
};

// Sets up the harness process once: SIGPIPE ignored, child subreaper, fds 0-2 open. Called by
// Process::spawn; safe to call again.
void init_process_control();

// Kills and reaps every remaining child of the harness (call when no game runs any more).
void reap_all_children();

// Raw line reads: at most this many bytes before the newline (a longer line is "overlong").
inline constexpr std::size_t kMaxLineBytes = 4096;

class Process {
 public:
  // Starts argv (argv[0] is searched in PATH when it has no '/') in a new process group with
  // stdin/stdout/stderr on pipes. Throws SpawnError if it cannot be executed.
  static std::unique_ptr<Process> spawn(const std::vector<std::string>& argv,
                                        const ProcessLimits& limits);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }

  enum class WriteStatus { ok, closed, timeout };
  // Writes line + '\n'. `closed`: the agent's stdin is gone (EPIPE).
  WriteStatus write_line(std::string_view line, Clock::time_point deadline);

  struct Read {
    enum Kind { line, timeout, eof, overlong, aborted } kind;
    std::string text;        // the line without '\n' (kind == line), or what was read
    Clock::time_point at{};  // when the read that completed the line returned
  };
  // Waits for one full line until `deadline`. Every `tick` while waiting, `on_tick` runs; if it
  // returns false the wait ends with `aborted`.
  Read read_line(Clock::time_point deadline, std::chrono::milliseconds tick,
                 const std::function<bool()>& on_tick);

  // Output the agent wrote that no command asked for: what is buffered plus what the pipe holds
  // now (non-blocking; at most about `limit` bytes). Empty if none.
  std::string take_unsolicited_output(std::size_t limit = 256);
  // Bytes of our commands still unread in the agent's stdin (-1 if unknown).
  int unread_input() const;

  void close_stdin();

  struct Sample {
    double cpu_ms = 0;  // the tree's CPU so far (never decreases)
    int processes = 0;  // alive in the tree now (leader included while alive)
    bool leader_alive = true;
    std::uint64_t rss_bytes = 0;  // resident memory of the tree (shared pages once per process)
  };
  // Reads /proc (and reaps the leader if it has exited).
  Sample sample();
  double cpu_ms() const { return cpu_ms_; }

  // True once the leader has exited (reaped here; status and rusage kept).
  bool exited();
  // Waits up to `wait` for the leader to exit.
  bool wait_exit(std::chrono::milliseconds wait);
  const std::optional<ExitStatus>& exit_status() const { return status_; }

  // Keeps reading the agent's stderr so it never blocks on it; the last bytes are kept.
  void drain_stderr();
  std::string stderr_tail() const;  // last ~2 KiB, as written

  // Gives the leader `grace` to exit on its own, then SIGKILLs the process group and every
  // descendant seen, and reaps them all. Returns the final CPU ms (max of the /proc ledger and
  // the rusage of everything reaped). Idempotent.
  double terminate(std::chrono::milliseconds grace = std::chrono::milliseconds{0});

 private:
  Process() = default;
  void read_available_stdout();
  void reap_leader(bool block);
  struct Known {
    unsigned long long start = 0;  // starttime in clock ticks since boot (tells pid reuse apart)
    pid_t ppid = 0;
  };

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  ProcessLimits limits_;
  std::string out_buf_;
  bool out_eof_ = false;
  Clock::time_point out_last_read_{};
  std::string err_tail_;
  std::optional<ExitStatus> status_;
  bool leader_reaped_ = false;
  bool terminated_ = false;
  double cpu_ms_ = 0;             // ledger high-water mark
  double reaped_ms_ = 0;          // rusage (self + children) of everything the harness reaped here
  std::map<pid_t, Known> known_;  // every descendant seen
};

}  // namespace tactica::harness
