// cgroup.cpp — see cgroup.hpp. Linux only.
#include "process/cgroup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace tactica::harness {

bool read_small_file(const std::string& path, std::string& out, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out.clear();
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
      if (out.size() > max_bytes) break;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(fd);
  return true;
}

void append_pids(const std::string& text, std::vector<pid_t>& out) {
  const char* p = text.c_str();
  for (;;) {
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p) break;
    out.push_back(static_cast<pid_t>(v));
    p = end;
  }
}

namespace {

bool read_file(const std::string& path, std::string& out) {
  return read_small_file(path, out, 1u << 22);
}

bool write_file(const std::string& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n;
  while ((n = ::write(fd, value.data(), value.size())) < 0 && errno == EINTR) {
  }
  const int e = errno;
  ::close(fd);
  errno = e;
  return n == static_cast<ssize_t>(value.size());
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::uint64_t read_u64(const std::string& path) {
  std::string s;
  if (!read_file(path, s)) return 0;
  return std::strtoull(s.c_str(), nullptr, 10);
}

// The value of "key N" in a flat keyed file (cpu.stat, memory.events, pids.events, oom_control).
long long keyed(const std::string& path, const std::string& key) {
  std::string s;
  if (!read_file(path, s)) return 0;
  std::istringstream in(s);
  std::string k;
  long long v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

// Where the judge's own groups are, found once from /proc/self/mountinfo and /proc/self/cgroup.
struct Layout {
  std::string v2_base;  // the judge's cgroup in a cgroup2 mount that delegates memory + pids
  std::string v1_cpuacct, v1_memory, v1_pids, v1_freezer;  // the judge's group in each hierarchy
  std::string why_not;
};

Layout detect() {
  Layout L;
  std::string mounts, groups;
  if (!read_file("/proc/self/mountinfo", mounts) || !read_file("/proc/self/cgroup", groups)) {
    L.why_not = "cannot read /proc/self/mountinfo or /proc/self/cgroup";
    return L;
  }
  // controller list ("memory", "cpu,cpuacct", "" for v2) -> the judge's path in it
  std::vector<std::pair<std::vector<std::string>, std::string>> own;
  {
    std::istringstream in(groups);
    std::string line;
    while (std::getline(in, line)) {
      const auto a = line.find(':'), b = line.find(':', a + 1);
      if (a == std::string::npos || b == std::string::npos) continue;
      own.push_back({split(line.substr(a + 1, b - a - 1), ','), line.substr(b + 1)});
    }
  }
  const auto own_path = [&](const std::string& controller) -> const std::string* {
    for (const auto& [ctls, path] : own)
      for (const auto& c : ctls)
        if (c == controller) return &path;
    return nullptr;
  };
  std::istringstream in(mounts);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string id, parent, dev, root, point, opts, tok;
    f >> id >> parent >> dev >> root >> point >> opts;
    while (f >> tok && tok != "-") {
    }
    std::string fstype, source, super;
    f >> fstype >> source >> super;
    const auto rel = [&](const std::string& path) {
      // the judge's path relative to the mount's root
      if (root == "/") return path;
      if (path.rfind(root, 0) == 0) return path.substr(root.size());
      return std::string("/");
    };
    if (fstype == "cgroup2") {
      std::string path;
      for (const auto& [ctls, p] : own)
        if (ctls.size() == 1 && ctls[0].empty()) path = p;
      if (path.empty()) continue;
      const std::string base = point + (rel(path) == "/" ? "" : rel(path));
      std::string sub, avail;
      read_file(base + "/cgroup.subtree_control", sub);
      read_file(base + "/cgroup.controllers", avail);
      const auto has = [](const std::string& list, const char* c) {
        for (const auto& w : split(list.substr(0, list.find('\n')), ' '))
          if (w == c) return true;
        return false;
      };
      if (!(has(sub, "memory") && has(sub, "pids")) && rel(path) == "/" && has(avail, "memory") &&
          has(avail, "pids"))
        write_file(base + "/cgroup.subtree_control", "+memory +pids");  // the root may
      read_file(base + "/cgroup.subtree_control", sub);
      if (has(sub, "memory") && has(sub, "pids")) L.v2_base = base;
      continue;
    }
    if (fstype != "cgroup") continue;
    for (const auto& o : split(super, ',')) {
      std::string* slot = o == "cpuacct"   ? &L.v1_cpuacct
                          : o == "memory"  ? &L.v1_memory
                          : o == "pids"    ? &L.v1_pids
                          : o == "freezer" ? &L.v1_freezer
                                           : nullptr;
      if (!slot) continue;
      const std::string* path = own_path(o);
      if (!path) continue;
      *slot = point + (rel(*path) == "/" ? "" : rel(*path));
    }
  }
  if (L.v2_base.empty() &&
      (L.v1_cpuacct.empty() || L.v1_memory.empty() || L.v1_pids.empty() || L.v1_freezer.empty()))
    L.why_not =
        "no cgroup2 hierarchy delegating memory and pids, and not all of the v1 controllers "
        "cpuacct, memory, pids, freezer are mounted";
  return L;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// `dir` and every group below it (an agent running as root may make sub-groups of its own),
// deepest last.
void subtree(const std::string& dir, std::vector<std::string>& out, int depth = 0) {
  out.push_back(dir);
  if (depth > 32) return;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> subs;
  while (const dirent* e = ::readdir(d)) {
    if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
    subs.push_back(dir + "/" + e->d_name);
  }
  ::closedir(d);
  for (const auto& s : subs) subtree(s, out, depth + 1);
}

// Groups of a tactica that is gone (killed before it could remove them): their tasks killed,
// the groups removed. A group whose tactica pid is alive (any process) is left alone.
void sweep_stale(const Layout& L) {
  std::vector<std::string> bases = {L.v2_base, L.v1_cpuacct, L.v1_memory, L.v1_pids, L.v1_freezer};
  std::vector<std::string> stale;
  for (const auto& base : bases) {
    if (base.empty()) continue;
    DIR* d = ::opendir(base.c_str());
    if (!d) continue;
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind("tactica-", 0) != 0) continue;
      const long pid = std::strtol(name.c_str() + 8, nullptr, 10);
      if (pid <= 0 || pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 ||
          errno != ESRCH)
        continue;
      stale.push_back(base + "/" + name);
    }
    ::closedir(d);
  }
  for (const auto& dir : stale) {
    std::vector<std::string> tree;
    subtree(dir, tree);
    for (int round = 0; round < 50; ++round) {
      bool any = false;
      std::string s;
      for (const auto& t : tree) {
        write_file(t + "/freezer.state", "THAWED");
        write_file(t + "/cgroup.freeze", "0");
        if (!read_file(t + "/cgroup.procs", s)) continue;
        std::istringstream in(s);
        long p;
        while (in >> p) any = true, ::kill(static_cast<pid_t>(p), SIGKILL);
      }
      if (!any) break;
      sleep_ms(2);
    }
    for (auto it = tree.rbegin(); it != tree.rend(); ++it) ::rmdir(it->c_str());
  }
}

const Layout& layout() {
  static const Layout L = [] {
    Layout l = detect();
    if (l.why_not.empty()) sweep_stale(l);
    return l;
  }();
  return L;
}

std::atomic<unsigned> g_sequence{0};

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

std::unique_ptr<Cgroup> Cgroup::create(std::uint64_t memory_bytes, int max_tasks,
                                       std::string& why_not) {
  const Layout& L = layout();
  if (!L.why_not.empty()) {
    why_not = L.why_not;
    return nullptr;
  }
  const std::string name =
      "tactica-" + std::to_string(::getpid()) + "-" + std::to_string(g_sequence.fetch_add(1));
  std::unique_ptr<Cgroup> g(new Cgroup());
  g->max_tasks_ = max_tasks;
  const auto make = [&](const std::string& base) -> std::string {
    const std::string dir = base + "/" + name;
    if (::mkdir(dir.c_str(), 0755) != 0) {
      why_not = errno_text("cannot create " + dir);
      return {};
    }
    g->dirs_.push_back(dir);
    return dir;
  };
  const auto fail = [&](const std::string& why) {
    why_not = why;
    return nullptr;
  };
  const std::string mem = memory_bytes ? std::to_string(memory_bytes) : std::string();
  if (!L.v2_base.empty()) {
    g->version_ = 2;
    const std::string dir = make(L.v2_base);
    if (dir.empty()) return nullptr;
    g->cpu_dir_ = g->mem_dir_ = g->pids_dir_ = g->freeze_dir_ = dir;
    if (!mem.empty() && !write_file(dir + "/memory.max", mem))
      return fail(errno_text("cannot write " + dir + "/memory.max"));
    write_file(dir + "/memory.swap.max", "0");  // absent without swap accounting
    if (!write_file(dir + "/pids.max", std::to_string(max_tasks)))
      return fail(errno_text("cannot write " + dir + "/pids.max"));
  } else {
    g->version_ = 1;
    if ((g->cpu_dir_ = make(L.v1_cpuacct)).empty() || (g->mem_dir_ = make(L.v1_memory)).empty() ||
        (g->pids_dir_ = make(L.v1_pids)).empty() || (g->freeze_dir_ = make(L.v1_freezer)).empty())
      return nullptr;
    if (!mem.empty()) {
      if (!write_file(g->mem_dir_ + "/memory.limit_in_bytes", mem))
        return fail(errno_text("cannot write " + g->mem_dir_ + "/memory.limit_in_bytes"));
      if (exists(g->mem_dir_ + "/memory.memsw.limit_in_bytes"))
        write_file(g->mem_dir_ + "/memory.memsw.limit_in_bytes", mem);  // no swapping past it
    }
    if (!write_file(g->pids_dir_ + "/pids.max", std::to_string(max_tasks)))
      return fail(errno_text("cannot write " + g->pids_dir_ + "/pids.max"));
  }
  for (const auto& d : g->dirs_) {
    const int fd = ::open((d + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return fail(errno_text("cannot open " + d + "/cgroup.procs"));
    g->join_fds_.push_back(fd);
  }
  return g;
}

Cgroup::~Cgroup() {
  kill_all();
  for (int fd : join_fds_) ::close(fd);
  for (const auto& top : dirs_) {
    std::vector<std::string> tree;
    subtree(top, tree);
    for (auto it = tree.rbegin(); it != tree.rend(); ++it)
      for (int attempt = 0; attempt < 200; ++attempt) {
        if (::rmdir(it->c_str()) == 0 || errno == ENOENT) break;
        if (errno != EBUSY) break;
        sleep_ms(1);  // the last tasks are still leaving
      }
  }
}

double Cgroup::cpu_ms() const {
  if (version_ == 2) return static_cast<double>(keyed(cpu_dir_ + "/cpu.stat", "usage_usec")) / 1e3;
  return static_cast<double>(read_u64(cpu_dir_ + "/cpuacct.usage")) / 1e6;
}

std::uint64_t Cgroup::memory_bytes() const {
  return read_u64(mem_dir_ + (version_ == 2 ? "/memory.current" : "/memory.usage_in_bytes"));
}

std::uint64_t Cgroup::memory_peak() const {
  return read_u64(mem_dir_ + (version_ == 2 ? "/memory.peak" : "/memory.max_usage_in_bytes"));
}

long Cgroup::oom_kills() const {
  return static_cast<long>(version_ == 2 ? keyed(mem_dir_ + "/memory.events", "oom_kill")
                                         : keyed(mem_dir_ + "/memory.oom_control", "oom_kill"));
}

long Cgroup::task_cap_hits() const {
  return static_cast<long>(keyed(pids_dir_ + "/pids.events", "max"));
}

std::vector<pid_t> Cgroup::pids() const {
  std::vector<pid_t> out;
  std::vector<std::string> dirs;
  subtree(pids_dir_, dirs);
  std::string s;
  for (const auto& dir : dirs) {
    if (read_file(dir + "/cgroup.procs", s)) append_pids(s, out);
  }
  return out;
}

bool Cgroup::kill_all(int wait_ms) {
  if (dirs_.empty()) return true;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  const bool v2_kill = version_ == 2 && exists(freeze_dir_ + "/cgroup.kill");
  if (pids().empty()) return true;
  // Frozen, nobody can fork while the list is read and killed.
  bool frozen = false;
  if (v2_kill) {
    write_file(freeze_dir_ + "/cgroup.kill", "1");
  } else if (version_ == 2) {
    frozen = write_file(freeze_dir_ + "/cgroup.freeze", "1");
    for (int i = 0; frozen && i < 200 && keyed(freeze_dir_ + "/cgroup.events", "frozen") != 1; ++i)
      sleep_ms(1);
  } else {
    frozen = write_file(freeze_dir_ + "/freezer.state", "FROZEN");
    std::string state;
    for (int i = 0; frozen && i < 200; ++i) {
      read_file(freeze_dir_ + "/freezer.state", state);
      if (state.rfind("FROZEN", 0) == 0) break;
      sleep_ms(1);
    }
  }
  for (pid_t p : pids()) ::kill(p, SIGKILL);
  if (frozen) {
    if (version_ == 2)
      write_file(freeze_dir_ + "/cgroup.freeze", "0");
    else
      write_file(freeze_dir_ + "/freezer.state", "THAWED");
  }
  for (;;) {
    const auto left = pids();
    if (left.empty()) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    for (pid_t p : left) ::kill(p, SIGKILL);
    sleep_ms(1);
  }
}

std::string Cgroup::where() const {
  std::string s;
  for (const auto& d : dirs_) s += (s.empty() ? "" : ", ") + d;
  return s;
}

}  // namespace tactica::harness
