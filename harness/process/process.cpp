// process.cpp — see process.hpp. Linux only: /proc, prctl(PR_SET_CHILD_SUBREAPER), pipe2.
#include "process/process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "process/cgroup.hpp"

namespace tactica::harness {
namespace {

long g_clock_ticks = 100;

double timeval_ms(const timeval& tv) { return tv.tv_sec * 1000.0 + tv.tv_usec / 1000.0; }
double rusage_ms(const rusage& ru) { return timeval_ms(ru.ru_utime) + timeval_ms(ru.ru_stime); }

ExitStatus decode_status(int st) {
  ExitStatus s;
  if (WIFEXITED(st)) {
    s.exited = true;
    s.code = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    s.signal = WTERMSIG(st);
  }
  return s;
}

// The most of a /proc file read (stat, statm, children: far less).
constexpr std::size_t kProcFileMax = 1u << 20;

struct Stat {
  pid_t ppid = 0, pgrp = 0;
  char state = '?';
  double own_ms = 0, children_ms = 0;
  unsigned long long start = 0;
};

// Parses /proc/<pid>/stat. The command name may hold spaces and ')', so fields are read after
// the last ')'.
bool read_stat(pid_t pid, Stat& s) {
  std::string text;
  if (!read_small_file("/proc/" + std::to_string(pid) + "/stat", text, kProcFileMax)) return false;
  const auto close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return false;
  const char* p = text.c_str() + close + 2;
  s.state = *p++;
  // Fields 4.. (1-based as in proc(5)): ppid pgrp session tty_nr tpgid flags minflt cminflt
  // majflt cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime.
  unsigned long long f[19] = {};
  for (int i = 0; i < 19; ++i) {
    char* end = nullptr;
    f[i] = std::strtoull(p, &end, 10);
    if (end == p) return false;
    p = end;
  }
  s.ppid = static_cast<pid_t>(f[0]);
  s.pgrp = static_cast<pid_t>(f[1]);
  const double tick_ms = 1000.0 / static_cast<double>(g_clock_ticks);
  s.own_ms = static_cast<double>(f[10] + f[11]) * tick_ms;
  s.children_ms = static_cast<double>(f[12] + f[13]) * tick_ms;
  s.start = f[18];
  return true;
}

// The children of every thread of `pid` (from /proc/<pid>/task/<tid>/children).
void children_of(pid_t pid, std::vector<pid_t>& out) {
  const std::string task_dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = ::opendir(task_dir.c_str());
  if (!dir) return;
  std::string text;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    if (read_small_file(task_dir + "/" + e->d_name + "/children", text, kProcFileMax))
      append_pids(text, out);
  }
  ::closedir(dir);
}

std::vector<pid_t> harness_children() {
  std::vector<pid_t> out;
  children_of(::getpid(), out);
  return out;
}

// Resident bytes of one process (from /proc/<pid>/statm), 0 if it is gone.
std::uint64_t resident_bytes(pid_t pid) {
  std::string text;
  if (!read_small_file("/proc/" + std::to_string(pid) + "/statm", text, kProcFileMax)) return 0;
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(text.c_str(), "%llu %llu", &size, &resident) != 2) return 0;
  static const long page = ::sysconf(_SC_PAGESIZE);
  return resident * static_cast<std::uint64_t>(page > 0 ? page : 4096);
}

bool same_process(pid_t pid, unsigned long long start) {
  Stat s;
  return read_stat(pid, s) && s.start == start;
}

// Resolves argv[0] like execvp would, but in the parent, so the child only calls execv.
std::string resolve_program(const std::string& name) {
  if (name.empty()) throw SpawnError("empty command");
  if (name.find('/') != std::string::npos) {
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0)
      throw SpawnError("cannot run '" + name + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw SpawnError("cannot run '" + name + "': not a regular file");
    if (::access(name.c_str(), X_OK) != 0)
      throw SpawnError("cannot run '" + name + "': not executable (chmod +x " + name + ")");
    return name;
  }
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const auto colon = path.find(':', pos);
    std::string dir =
        path.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  throw SpawnError("cannot run '" + name + "': command not found in PATH");
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

std::string ExitStatus::describe() const {
  if (exited) return "exit status " + std::to_string(code);
  if (signal) {
    const char* name = ::strsignal(signal);
    return "killed by signal " + std::to_string(signal) +
           (name ? std::string(" (") + name + ")" : "");
  }
  return "unknown status";
}

void init_process_control() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::signal(SIGPIPE, SIG_IGN);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    for (int fd = 0; fd <= 2; ++fd)
      if (::fcntl(fd, F_GETFD) == -1) ::open("/dev/null", O_RDWR);  // takes the lowest free fd
    const long t = ::sysconf(_SC_CLK_TCK);
    if (t > 0) g_clock_ticks = t;
  });
}

PipeRead read_pipe(int fd, int timeout_ms, std::string& out) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return PipeRead::nothing;
  char buf[65536];
  const ssize_t got = ::read(fd, buf, sizeof buf);
  if (got < 0 && errno == EINTR) return PipeRead::nothing;
  if (got <= 0) return PipeRead::closed;
  out.append(buf, static_cast<std::size_t>(got));
  return PipeRead::data;
}

void reap_all_children() {
  for (int round = 0; round < 1000; ++round) {
    const auto kids = harness_children();
    if (kids.empty()) return;
    for (pid_t c : kids) {
      ::kill(c, SIGKILL);
      int st;
      while (::waitpid(c, &st, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

bool parse_accounting(const std::string& text, Accounting& out) {
  if (text == "auto")
    out = Accounting::automatic;
  else if (text == "cgroup")
    out = Accounting::cgroup;
  else if (text == "proc")
    out = Accounting::proc;
  else
    return false;
  return true;
}

namespace {
// What the agent's side reports on the exec-error pipe when it cannot start: {stage, errno}.
enum SpawnStage : int { kStageFork = 1, kStageCgroup = 2, kStageExec = 3 };
// What the keeper ignores (and its agent, before exec, sets back to the default).
constexpr int kKeeperIgnores[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE};

// The keeper's order to sweep its tree (Process::reap_keeper sends it): kill every child it
// has, reap, and again, until it has none, then exit. Set by a signal handler.
constexpr int kSweepSignal = SIGUSR1;
volatile sig_atomic_t g_keeper_sweep = 0;
extern "C" void keeper_on_sweep(int) { g_keeper_sweep = 1; }

// The keeper's sweep, between fork and _exit: async-signal-safe calls only, no allocation.
// Every process the agent started is the keeper's descendant (the keeper is a subreaper: an
// orphan comes back to it), so SIGKILLing the keeper's children over and over, reaping as they
// die, ends with none left even against a fork bomb (a killed process forks no more; its
// children come back to the keeper for the next round). /proc/self/task/T/children may miss a
// child created or re-parented during the read; the next round sees it.
[[noreturn]] void keeper_sweep(pid_t agent, int status_fd) {
  static char buf[1 << 18];
  char path[64] = "/proc/self/task/";
  {
    char digits[16];
    int n = 0;
    for (long v = ::getpid(); v > 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
    std::size_t at = std::strlen(path);
    while (n > 0) path[at++] = digits[--n];
    std::memcpy(path + at, "/children", sizeof "/children");
  }
  for (;;) {
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(-1, &st, WNOHANG | __WALL)) > 0)
      if (r == agent) [[maybe_unused]] auto w = ::write(status_fd, &st, sizeof st);
    if (r < 0 && errno == ECHILD) ::_exit(0);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      ssize_t got = 0, n;
      while (got < static_cast<ssize_t>(sizeof buf) - 1 &&
             (n = ::read(fd, buf + got, sizeof buf - 1 - static_cast<std::size_t>(got))) != 0) {
        if (n < 0) {
          if (errno == EINTR) continue;
          break;
        }
        got += n;
      }
      ::close(fd);
      long pid = 0;
      for (ssize_t i = 0; i <= got; ++i) {
        if (i < got && buf[i] >= '0' && buf[i] <= '9') {
          pid = pid * 10 + (buf[i] - '0');
        } else if (pid > 0) {
          ::kill(static_cast<pid_t>(pid), SIGKILL);
          pid = 0;
        }
      }
    }
    const timespec pause{0, 1000000};  // 1 ms: the killed die, their children come back
    ::nanosleep(&pause, nullptr);
  }
}

void close_from(int first, int max_fd) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, static_cast<unsigned>(first), ~0u, 0) == 0) return;
#endif
  for (int fd = first; fd < max_fd; ++fd) ::close(fd);
}
}  // namespace

Process::Process() = default;

std::unique_ptr<Process> Process::spawn(const std::vector<std::string>& argv,
                                        const ProcessLimits& limits) {
  init_process_control();
  if (argv.empty()) throw SpawnError("empty command");
  const std::string program = resolve_program(argv[0]);

  // The agent's own cgroup, made before it starts.
  std::unique_ptr<Cgroup> cg;
  std::string mode = "proc";
  if (limits.accounting != Accounting::proc) {
    std::string why_not;
    cg = Cgroup::create(limits.memory_bytes, limits.max_tasks(), why_not);
    if (!cg && limits.accounting == Accounting::cgroup)
      throw SpawnError("no cgroup for the agent (" + why_not +
                       "): run as root on a machine with cgroups, or use --accounting proc");
    if (cg) mode = "cgroup-v" + std::to_string(cg->version());
  }

  // Everything the children need is prepared here: between fork and exec they may only make
  // async-signal-safe calls (no allocation: another thread may hold the allocator's lock).
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::vector<int> join = cg ? cg->join_fds() : std::vector<int>{};
  rlimit nofile{};
  ::getrlimit(RLIMIT_NOFILE, &nofile);
  const int max_fd = nofile.rlim_cur == RLIM_INFINITY || nofile.rlim_cur > 65536
                         ? 65536
                         : static_cast<int>(nofile.rlim_cur);

  int in[2], out[2], err[2], exec_err[2], status[2];
  int* pipes[] = {in, out, err, exec_err, status};
  int made = 0;
  for (; made < 5; ++made)
    if (::pipe2(pipes[made], O_CLOEXEC) != 0) break;
  if (made < 5) {
    const int e = errno;
    for (int i = 0; i < made; ++i) ::close(pipes[i][0]), ::close(pipes[i][1]);
    throw SpawnError(std::string("pipe: ") + std::strerror(e));
  }
  const rlimit no_core{0, 0};
  const rlimit data{static_cast<rlim_t>(limits.memory_bytes),
                    static_cast<rlim_t>(limits.memory_bytes)};

  const pid_t harness_pid = ::getpid();
  const pid_t keeper = ::fork();
  if (keeper < 0) {
    const int e = errno;
    for (int* p : pipes) ::close(p[0]), ::close(p[1]);
    throw SpawnError(std::string("fork: ") + std::strerror(e));
  }
  if (keeper == 0) {
    // The keeper: its own process group (no terminal signals), a subreaper for the agent's tree.
    ::setpgid(0, 0);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    // If tactica itself is killed (a second Ctrl-C, SIGKILL), the keeper goes too, and with it
    // the agent (below); what is left in a cgroup is swept when tactica next starts.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (::getppid() != harness_pid) ::_exit(127);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP) ::signal(sig, SIG_DFL);
    // A fork of tactica has its name and command line, so `pkill tactica` or a signal to the
    // whole tree reaches the keeper too. Were it to die there, its agent would die with it
    // (PDEATHSIG) and the game in flight would end in a fault before the harness even saw
    // the stop. So the keeper ignores the termination signals: the harness ends its games
    // itself, and if the harness dies the keeper still goes (PDEATHSIG above).
    for (const int sig : kKeeperIgnores) ::signal(sig, SIG_IGN);
    struct sigaction sweep {};
    sweep.sa_handler = keeper_on_sweep;  // no SA_RESTART: the wait below returns EINTR
    ::sigemptyset(&sweep.sa_mask);
    ::sigaction(kSweepSignal, &sweep, nullptr);
    const pid_t agent = ::fork();
    if (agent < 0) {
      const int msg[2] = {kStageFork, errno};
      [[maybe_unused]] auto w = ::write(exec_err[1], msg, sizeof msg);
      ::_exit(127);
    }
    if (agent == 0) {
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);  // kept across exec
      // Ignored signals stay ignored across exec: the agent gets the defaults back.
      for (const int sig : kKeeperIgnores) ::signal(sig, SIG_DFL);
      ::signal(kSweepSignal, SIG_DFL);
      for (int fd : join)
        if (::write(fd, "0", 1) != 1) {
          const int msg[2] = {kStageCgroup, errno};
          [[maybe_unused]] auto w = ::write(exec_err[1], msg, sizeof msg);
          ::_exit(127);
        }
      ::setrlimit(RLIMIT_CORE, &no_core);
      if (limits.hard_data_limit && limits.memory_bytes) ::setrlimit(RLIMIT_DATA, &data);
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      ::execv(program.c_str(), args.data());
      const int msg[2] = {kStageExec, errno};
      [[maybe_unused]] auto w = ::write(exec_err[1], msg, sizeof msg);
      ::_exit(127);
    }
    [[maybe_unused]] auto w = ::write(status[1], &agent, sizeof agent);
    // Nothing of the judge's stays open here: not the agent's pipes (it must see EOF when the
    // judge closes them), not other games' pipes.
    if (status[1] != 3) ::dup2(status[1], 3);
    ::close(0), ::close(1), ::close(2);
    close_from(4, max_fd);
    // The keeper waits for its children's deaths and for the sweep order with both signals
    // blocked and taken by sigtimedwait, so neither can land between a look and the wait (the
    // agent, forked above, has the empty mask).
    sigset_t wake;
    ::sigemptyset(&wake);
    ::sigaddset(&wake, SIGCHLD);
    ::sigaddset(&wake, kSweepSignal);
    ::sigprocmask(SIG_BLOCK, &wake, nullptr);
    for (;;) {
      if (g_keeper_sweep) keeper_sweep(agent, 3);  // (an order that came before the block)
      int st = 0;
      pid_t r;
      while ((r = ::waitpid(-1, &st, WNOHANG | __WALL)) > 0)
        if (r == agent) [[maybe_unused]]
          auto w2 = ::write(3, &st, sizeof st);
      if (r < 0 && errno == ECHILD) break;  // nothing left to keep
      siginfo_t info;
      const timespec at_most{1, 0};  // a missed wake-up costs a second, never the game
      if (::sigtimedwait(&wake, &info, &at_most) == kSweepSignal) g_keeper_sweep = 1;
    }
    ::_exit(0);
  }
  ::setpgid(keeper, keeper);  // also here, so the group exists before we ever signal it
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::close(exec_err[1]);
  ::close(status[1]);

  std::unique_ptr<Process> p(new Process());
  p->keeper_ = keeper;
  p->in_ = in[1];
  p->out_ = out[0];
  p->err_ = err[0];
  p->status_fd_ = status[0];
  p->limits_ = limits;
  p->cg_ = std::move(cg);
  p->mode_ = mode;
  set_nonblocking(p->in_);
  set_nonblocking(p->out_);
  set_nonblocking(p->err_);

  // The exec-error pipe reaches EOF once the keeper has closed its copy and the agent exec'd.
  int msg[2] = {0, 0};
  std::size_t got = 0;
  for (;;) {
    const ssize_t n = ::read(exec_err[0], reinterpret_cast<char*>(msg) + got, sizeof msg - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
    if (got == sizeof msg) break;
  }
  ::close(exec_err[0]);
  pid_t agent = -1;
  std::size_t pid_got = 0;
  if (msg[0] != kStageFork)
    for (;;) {
      const ssize_t n =
          ::read(p->status_fd_, reinterpret_cast<char*>(&agent) + pid_got, sizeof agent - pid_got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      pid_got += static_cast<std::size_t>(n);
      if (pid_got == sizeof agent) break;
    }
  set_nonblocking(p->status_fd_);
  if (pid_got == sizeof agent) p->pid_ = agent;
  if (got == sizeof msg || pid_got != sizeof agent) {
    p->terminate();
    const std::string why = std::strerror(msg[1]);
    if (msg[0] == kStageCgroup)
      throw SpawnError("cannot put '" + argv[0] + "' into its cgroup: " + why +
                       " (use --accounting proc)");
    if (msg[0] == kStageFork) throw SpawnError("fork: " + why);
    if (msg[0] == kStageExec) throw SpawnError("cannot run '" + argv[0] + "': " + why);
    throw SpawnError("cannot start '" + argv[0] + "': its keeper process failed");
  }
  return p;
}

Process::~Process() { terminate(); }

Process::WriteStatus Process::write_line(std::string_view line, Clock::time_point deadline) {
  if (in_ < 0) return WriteStatus::closed;
  std::string data(line);
  data += '\n';
  std::size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::write(in_, data.data() + off, data.size() - off);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      const auto now = Clock::now();
      if (now >= deadline) return WriteStatus::timeout;
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
      pollfd pfd{in_, POLLOUT, 0};
      ::poll(&pfd, 1, static_cast<int>(std::min<long long>(ms + 1, 50)));
      drain_stderr();
      continue;
    }
    return WriteStatus::closed;
  }
  return WriteStatus::ok;
}

void Process::read_available_stdout() {
  if (out_ < 0 || out_eof_) return;
  char buf[16384];
  std::size_t total = 0;
  while (total < 65536) {
    const ssize_t n = ::read(out_, buf, sizeof buf);
    if (n > 0) {
      out_buf_.append(buf, static_cast<std::size_t>(n));
      out_last_read_ = Clock::now();
      total += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    out_eof_ = true;  // 0: every writer closed it; an error counts the same
    break;
  }
}

Process::Read Process::read_line(Clock::time_point deadline, std::chrono::milliseconds tick,
                                 const std::function<bool()>& on_tick) {
  auto next_tick = Clock::now() + tick;
  for (;;) {
    const auto nl = out_buf_.find('\n');
    if (nl != std::string::npos) {
      if (nl > kMaxLineBytes)
        return {Read::overlong, out_buf_.substr(0, kMaxLineBytes + 1), out_last_read_};
      Read r{Read::line, out_buf_.substr(0, nl), out_last_read_};
      out_buf_.erase(0, nl + 1);
      return r;
    }
    if (out_buf_.size() > kMaxLineBytes)
      return {Read::overlong, out_buf_.substr(0, kMaxLineBytes + 1), out_last_read_};
    if (out_eof_) return {Read::eof, out_buf_, out_last_read_};
    auto now = Clock::now();
    if (now >= deadline) return {Read::timeout, out_buf_, now};
    if (now >= next_tick) {
      // What already arrived wins over what the tick might find (an agent that answered and
      // then exited still answered).
      const auto before = out_buf_.size();
      read_available_stdout();
      if (out_buf_.size() != before || out_eof_) continue;
      if (on_tick && !on_tick()) return {Read::aborted, out_buf_, Clock::now()};
      next_tick = Clock::now() + tick;
      continue;
    }
    const auto until = std::min(deadline, next_tick);
    const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(until - now);
    timespec ts{static_cast<time_t>(wait.count() / 1000000000),
                static_cast<long>(wait.count() % 1000000000)};
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    const int r = ::ppoll(fds, err_ >= 0 ? 2 : 1, &ts, nullptr);
    if (r <= 0) continue;
    if (err_ >= 0 && fds[1].revents) drain_stderr();
    if (fds[0].revents) read_available_stdout();
  }
}

std::string Process::take_unsolicited_output(std::size_t limit) {
  read_available_stdout();
  if (out_buf_.empty()) return {};
  std::string s = out_buf_.substr(0, limit);
  out_buf_.clear();
  return s;
}

int Process::unread_input() const {
  if (in_ < 0) return -1;
  int n = 0;
  if (::ioctl(in_, FIONREAD, &n) != 0) return -1;
  return n;
}

void Process::close_stdin() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

void Process::drain_stderr() {
  if (err_ < 0) return;
  char buf[16384];
  std::size_t total = 0;
  while (total < (1u << 18)) {
    const ssize_t n = ::read(err_, buf, sizeof buf);
    if (n > 0) {
      err_tail_.append(buf, static_cast<std::size_t>(n));
      for (ssize_t done = 0; err_log_ >= 0 && done < n;) {
        const ssize_t w = ::write(err_log_, buf + done, static_cast<std::size_t>(n - done));
        if (w > 0) {
          done += w;
        } else if (w < 0 && errno == EINTR) {
          continue;
        } else {
          ::close(err_log_);  // a full disk: the game goes on, the log stops here
          err_log_ = -1;
        }
      }
      if (err_tail_.size() > 4096) err_tail_.erase(0, err_tail_.size() - 2048);
      total += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    ::close(err_);
    err_ = -1;
    return;
  }
}

void Process::log_stderr_to(const std::string& path) {
  if (err_log_ >= 0) ::close(err_log_);
  err_log_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (err_log_ < 0)
    throw SpawnError("cannot write the agent's stderr to " + path + ": " + std::strerror(errno));
}

std::string Process::stderr_tail() const {
  return err_tail_.size() > 2048 ? err_tail_.substr(err_tail_.size() - 2048) : err_tail_;
}

void Process::poll_leader(int wait_ms) {
  if (leader_reaped_ || status_fd_ < 0) return;
  int st = 0;
  std::size_t got = 0;
  const auto until = Clock::now() + std::chrono::milliseconds(wait_ms);
  for (;;) {
    const ssize_t n = ::read(status_fd_, reinterpret_cast<char*>(&st) + got, sizeof st - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      if (got < sizeof st) continue;
      leader_reaped_ = true;
      status_ = decode_status(st);
      return;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {  // the keeper is gone without a word: the agent is no longer ours to watch
      leader_reaped_ = true;
      return;
    }
    const auto now = Clock::now();
    if (got == 0 && now >= until) return;
    pollfd pfd{status_fd_, POLLIN, 0};
    ::poll(
        &pfd, 1,
        got ? 10
            : static_cast<int>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count() + 1));
  }
}

bool Process::exited() {
  poll_leader(0);
  return leader_reaped_;
}

bool Process::wait_exit(std::chrono::milliseconds wait) {
  const auto until = Clock::now() + wait;
  for (;;) {
    if (exited()) return true;
    drain_stderr();
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

Process::Sample Process::sample() {
  poll_leader(0);
  if (cg_) {
    Sample out;
    cpu_ms_ = std::max(cpu_ms_, cg_->cpu_ms());
    out.cpu_ms = cpu_ms_;
    out.processes = static_cast<int>(cg_->pids().size());
    out.leader_alive = !leader_reaped_;
    out.rss_bytes = cg_->memory_bytes();
    out.memory_peak = cg_->memory_peak();
    out.oom_kills = cg_->oom_kills();
    out.task_cap_hits = cg_->task_cap_hits();
    return out;
  }
  // The keeper's tree holds everything the agent started (orphans are re-parented to the
  // keeper). Its own CPU is the judge's, its children's (reaped) is the agent's.
  std::vector<pid_t> stack;
  double total = reaped_ms_;
  if (!keeper_reaped_) {
    Stat k;
    if (read_stat(keeper_, k)) total += k.children_ms;
    children_of(keeper_, stack);
  }
  // If the keeper was killed, its orphans came to the harness (a subreaper too).
  for (pid_t c : harness_children()) {
    if (c == keeper_) continue;
    Stat s;
    if (!read_stat(c, s)) continue;
    const auto k = known_.find(c);
    if (s.pgrp == pid_ || (k != known_.end() && k->second.start == s.start)) stack.push_back(c);
  }
  int alive = 0;
  std::uint64_t rss = 0;
  std::set<pid_t> seen;
  std::vector<pid_t> kids;
  while (!stack.empty()) {
    const pid_t p = stack.back();
    stack.pop_back();
    if (!seen.insert(p).second) continue;
    Stat s;
    if (!read_stat(p, s)) continue;
    known_[p] = Known{s.start, s.ppid};
    total += s.own_ms + s.children_ms;
    if (s.state != 'Z' && s.state != 'X') {
      ++alive;
      rss += resident_bytes(p);
    }
    kids.clear();
    children_of(p, kids);
    for (pid_t k : kids) stack.push_back(k);
  }
  cpu_ms_ = std::max(cpu_ms_, total);
  return Sample{cpu_ms_, alive, !leader_reaped_, rss};
}

// SIGKILLs every descendant of the keeper (and every process seen before) until none is left;
// the keeper reaps them and then exits by itself.
void Process::kill_tree() {
  const auto until = Clock::now() + std::chrono::seconds(2);
  std::vector<pid_t> stack, kids;
  for (;;) {
    bool any = false;
    stack.clear();
    if (!keeper_reaped_) children_of(keeper_, stack);
    std::set<pid_t> seen;
    while (!stack.empty()) {
      const pid_t p = stack.back();
      stack.pop_back();
      if (p == keeper_ || !seen.insert(p).second) continue;
      any = true;
      ::kill(p, SIGKILL);
      if (Stat s; !known_.count(p) && read_stat(p, s))  // a stray later, should the keeper die
        known_[p] = Known{s.start, s.ppid};
      kids.clear();
      children_of(p, kids);
      for (pid_t k : kids) stack.push_back(k);
    }
    if (pid_ > 0) ::kill(-pid_, SIGKILL);
    for (const auto& [p, k] : known_)
      if (same_process(p, k.start)) {
        Stat s;
        if (read_stat(p, s) && s.state != 'Z') {
          ::kill(p, SIGKILL);
          if (s.ppid != ::getpid()) any = true;  // the harness's own are reaped below
        }
      }
    if (!any || Clock::now() >= until) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The keeper sweeps what kill_tree missed (its own children, round after round: see
// keeper_sweep) and exits when it has none. One that has not exited by the deadline is
// killed; its last children come to the harness, and terminate() kills them as strays.
void Process::reap_keeper() {
  if (keeper_reaped_ || keeper_ <= 0) return;
  ::kill(keeper_, kSweepSignal);
  const auto until = Clock::now() + std::chrono::seconds(3);
  bool killed = false;
  int st = 0;
  rusage ru{};
  for (;;) {
    const pid_t r = ::wait4(keeper_, &st, killed ? 0 : WNOHANG, &ru);
    if (r == keeper_) break;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;  // not ours any more
    if (!killed && Clock::now() >= until) {
      ::kill(keeper_, SIGKILL);  // before the blocking wait: a live keeper would never return
      killed = true;
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  keeper_reaped_ = true;
  reaped_ms_ += rusage_ms(ru);
}

double Process::terminate(std::chrono::milliseconds grace) {
  if (terminated_) return cpu_ms_;
  close_stdin();
  if (grace.count() > 0) wait_exit(grace);
  sample();  // a last look at the tree (children's CPU) before it goes
  if (cg_) cg_->kill_all();
  kill_tree();
  reap_keeper();
  poll_leader(50);  // the keeper wrote the agent's status before it exited

  // Strays re-parented to the harness (only if the keeper itself was killed before it could
  // sweep): again while any is found, as a killed stray's children come to the harness too.
  const auto strays_until = Clock::now() + std::chrono::seconds(2);
  for (bool any = true; any && Clock::now() < strays_until;) {
    any = false;
    for (pid_t c : harness_children()) {
      Stat s;
      if (!read_stat(c, s)) continue;
      const auto k = known_.find(c);
      if (s.pgrp != pid_ && !(k != known_.end() && k->second.start == s.start)) continue;
      any = true;
      ::kill(c, SIGKILL);
      int st;
      rusage ru{};
      pid_t r;
      while ((r = ::wait4(c, &st, 0, &ru)) < 0 && errno == EINTR) {
      }
      if (r == c) reaped_ms_ += rusage_ms(ru);
    }
  }
  drain_stderr();
  // (The tree is dead: what is left in the pipe, at most its 64 KiB, was just read, log included.)
  for (int* fd : {&in_, &out_, &err_, &status_fd_, &err_log_})
    if (*fd >= 0) ::close(*fd), *fd = -1;
  terminated_ = true;
  if (cg_) cpu_ms_ = std::max(cpu_ms_, cg_->cpu_ms());
  cpu_ms_ = std::max(cpu_ms_, reaped_ms_);
  cg_.reset();  // removes the (empty) group
  return cpu_ms_;
}

}  // namespace tactica::harness
