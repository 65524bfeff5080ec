// process.hpp — one agent as a real subprocess: pipes, reads with deadlines, wall and CPU
// accounting, limits, and a kill that leaves nothing behind.
//
// Every agent is started through a keeper: a small process of the judge's (forked, never
// exec'd) that is a child subreaper, forks the agent, reports its pid and exit status on a pipe
// and reaps whatever is left to it. Whatever the agent starts stays a descendant of the keeper,
// whatever it does with setsid() or setpgid(): an orphan is re-parented to the keeper, not to
// init or to the judge.
//
// Accounting (see docs/HARNESS.md, "What is enforced"), one of:
// - "cgroup-v2" / "cgroup-v1": the agent joins its own control group between fork and exec
//   (process/cgroup.hpp). CPU is the group's (every task that ever ran in it), memory is capped
//   by the kernel at `memory_bytes` (an OOM kill in the group is a RUNTIME_ERROR), tasks are
//   capped by pids.max (a refused fork is a RUNTIME_ERROR), processes alive are counted from
//   cgroup.procs; at the end the group is frozen, killed, emptied and removed;
// - "proc" (no cgroup can be made, or forced): the keeper's tree is read from /proc on every
//   sample: utime+stime of every live process plus cutime+cstime (what was reaped, the keeper's
//   reaped orphans included), resident memory summed over the tree, processes counted; at the
//   end every descendant of the keeper is killed until none is left.
// In both: RLIMIT_CORE = 0; `hard_data_limit` adds RLIMIT_DATA = memory_bytes per process.
// RLIMIT_NPROC is not used: it counts every process of the user and does not apply to root.
#pragma once

#include <sys/types.h>

#include <algorithm>
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

class Cgroup;  // process/cgroup.hpp

// The agent could not be started at all (no such file, not executable): a setup error of the
// user, not a game verdict.
class SpawnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How an agent's resources are counted: cgroup where one can be made, else /proc ("automatic");
// `cgroup` refuses to start an agent without one (SpawnError); `proc` never tries.
enum class Accounting { automatic, cgroup, proc };

// "auto", "cgroup", "proc" <-> Accounting; false if the text is none of these.
bool parse_accounting(const std::string& text, Accounting& out);

struct ProcessLimits {
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;  // resident memory of the agent's tree
  bool hard_data_limit = false;  // also RLIMIT_DATA = memory_bytes per process (no sanitizers)
  int max_processes = 64;        // alive at once in the agent's tree
  Accounting accounting = Accounting::automatic;
  // cgroup modes: the kernel's cap on tasks (processes and threads) of the agent's group.
  int max_tasks() const { return std::max(4 * max_processes, max_processes + 64); }
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

// What one wait on a pipe gave: bytes, nothing yet (the wait ran out or a signal came), its end.
enum class PipeRead { data, nothing, closed };
// Waits up to `timeout_ms` for `fd` to be readable, then appends one read's bytes to `out`.
PipeRead read_pipe(int fd, int timeout_ms, std::string& out);

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

  pid_t pid() const { return pid_; }  // the agent itself (the keeper's child)
  // "cgroup-v1", "cgroup-v2" or "proc": how this agent is accounted.
  const std::string& mode() const { return mode_; }
  const ProcessLimits& limits() const { return limits_; }

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
    // proc: resident memory of the tree (shared pages once per process); cgroup: the group's
    // charge (resident + page cache), which the kernel keeps under the limit.
    std::uint64_t rss_bytes = 0;
    std::uint64_t memory_peak = 0;  // cgroup: the highest charge so far
    long oom_kills = 0;             // cgroup: processes the kernel killed at the memory limit
    long task_cap_hits = 0;         // cgroup: forks or threads refused at max_tasks()
  };
  // Reads the cgroup or /proc (and notes the leader's exit if the keeper reported it).
  Sample sample();
  double cpu_ms() const { return cpu_ms_; }

  // True once the leader has exited (its status came from the keeper).
  bool exited();
  // Waits up to `wait` for the leader to exit.
  bool wait_exit(std::chrono::milliseconds wait);
  const std::optional<ExitStatus>& exit_status() const { return status_; }

  // Keeps reading the agent's stderr so it never blocks on it; the last bytes are kept.
  void drain_stderr();
  // Also appends everything the agent writes on stderr, from now on, to `path` (created or
  // truncated). Throws SpawnError if the file cannot be opened.
  void log_stderr_to(const std::string& path);
  std::string stderr_tail() const;  // last ~2 KiB, as written

  // Gives the leader `grace` to exit on its own, then kills everything the agent started (the
  // cgroup frozen and emptied, every descendant of the keeper killed) and reaps the keeper.
  // Returns the final CPU ms (the cgroup's figure, or the max of the /proc ledger and the
  // keeper's rusage, which holds everything it reaped). Idempotent.
  double terminate(std::chrono::milliseconds grace = std::chrono::milliseconds{0});

 private:
  Process();
  void read_available_stdout();
  void poll_leader(int wait_ms);
  void kill_tree();
  void reap_keeper();
  struct Known {
    unsigned long long start = 0;  // starttime in clock ticks since boot (tells pid reuse apart)
    pid_t ppid = 0;
  };

  pid_t pid_ = -1;     // the agent
  pid_t keeper_ = -1;  // its parent, the harness's child
  int in_ = -1, out_ = -1, err_ = -1, status_fd_ = -1;
  std::string mode_ = "proc";
  std::unique_ptr<Cgroup> cg_;
  ProcessLimits limits_;
  std::string out_buf_;
  bool out_eof_ = false;
  Clock::time_point out_last_read_{};
  std::string err_tail_;
  int err_log_ = -1;  // log_stderr_to's file
  std::optional<ExitStatus> status_;
  bool leader_reaped_ = false;  // its exit reported by the keeper (or the keeper is gone)
  bool keeper_reaped_ = false;
  bool terminated_ = false;
  double cpu_ms_ = 0;     // ledger high-water mark
  double reaped_ms_ = 0;  // rusage of the keeper (its reaped descendants included) and strays
  std::map<pid_t, Known> known_;  // every descendant seen
};

}  // namespace tactica::harness
