// cgroup.hpp — one agent's own control group: everything it starts is charged to it, wherever
// it moved its session or process group, and everything in it is killed at the end.
//
// cgroup v2 is used where the judge's own cgroup delegates the memory and pids controllers to
// its children (cgroup.subtree_control), v1 where cpuacct, memory, pids and freezer are mounted
// as v1 hierarchies and writable (root). Each agent gets a group created beside the judge's own
// (a child of the judge's cgroup in every hierarchy) before it is started; the agent joins it
// between fork and exec, so its first instruction already runs inside.
//
//   CPU       cpuacct.usage (v1) / cpu.stat usage_usec (v2): every task that ever ran in the
//             group, exited ones included;
//   memory    memory.limit_in_bytes (+ memsw) / memory.max (+ swap.max 0) = the memory limit: the
//             kernel refuses more (reclaims cache, then OOM-kills in the group); oom_kill counted;
//   processes pids.max = a hard cap on tasks (threads count), pids.events max counted;
//             cgroup.procs = the processes alive now;
//   end       freeze, SIGKILL every process listed (in the group and in any sub-group the
//             agent made), thaw, wait until empty, rmdir (sub-groups first).
//
// Not covered: a task running as root can write its pid into a cgroup outside its own subtree
// and leave it (the judge runs agents with its own uid; the platform would not run them as
// root).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tactica::harness {

// Reads a small kernel file (/proc, cgroupfs) whole, at most about `max_bytes`; false if it cannot
// be opened (the process or the group is gone). Shared by process.cpp and cgroup.cpp.
bool read_small_file(const std::string& path, std::string& out, std::size_t max_bytes);
// Appends the pids of a whitespace-separated list (cgroup.procs, /proc/<pid>/task/<tid>/children).
void append_pids(const std::string& text, std::vector<pid_t>& out);

class Cgroup {
 public:
  // Creates a new group with these limits (memory_bytes 0: no memory limit). nullptr with
  // `why_not` set if no cgroup can be made here (not root, no delegation, nothing mounted).
  static std::unique_ptr<Cgroup> create(std::uint64_t memory_bytes, int max_tasks,
                                        std::string& why_not);
  ~Cgroup();  // kill_all(), then rmdir
  Cgroup(const Cgroup&) = delete;
  Cgroup& operator=(const Cgroup&) = delete;

  int version() const { return version_; }  // 1 or 2
  // Write-only fds of every cgroup.procs the agent must join (O_CLOEXEC): the child writes "0"
  // to each between fork and exec (async-signal-safe).
  const std::vector<int>& join_fds() const { return join_fds_; }

  double cpu_ms() const;               // CPU of every task that ran in the group
  std::uint64_t memory_bytes() const;  // charged now (resident + page cache)
  std::uint64_t memory_peak() const;   // highest charge so far (0 if the kernel cannot tell)
  long oom_kills() const;              // processes the kernel killed at the memory limit
  long task_cap_hits() const;          // forks and threads refused by pids.max
  std::vector<pid_t> pids() const;     // processes in the group now
  int max_tasks() const { return max_tasks_; }

  // Freezes the group, SIGKILLs every process in it, thaws it and waits (up to `wait_ms`) until
  // it is empty. True if it is empty. Idempotent.
  bool kill_all(int wait_ms = 2000);

  // One line: which directories this group lives in (for messages).
  std::string where() const;

 private:
  Cgroup() = default;
  std::string file(const std::string& dir, const char* name) const { return dir + "/" + name; }
  int version_ = 0;
  int max_tasks_ = 0;
  // v1: one directory per hierarchy; v2: dirs_[0] only.
  std::string cpu_dir_, mem_dir_, pids_dir_, freeze_dir_;
  std::vector<std::string> dirs_;  // every directory created (removed in the destructor)
  std::vector<int> join_fds_;
};

}  // namespace tactica::harness
