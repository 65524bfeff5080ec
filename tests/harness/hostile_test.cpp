// Hostile agents, judged in both accounting modes (a cgroup per agent, and /proc with a keeper
// subreaper, forced by Accounting::proc): helpers that call setsid() and double-fork to escape
// the CPU cap, the memory limit and the process cap, a fork bomb, 100 MB of stderr, a partial
// line, closed stdout, SIGSTOP, an answer before the command is read. Each gets its verdict,
// and after every game nothing the agent started is alive: no process with the game's tag in
// its command line, no child of this process, no cgroup left.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "harness_test_util.hpp"
#include "process/cgroup.hpp"

using namespace tactica::harness;
using namespace harness_test;

namespace {

std::atomic<int> g_tag_seq{0};

// A word no other process on the machine has in its command line.
std::string new_tag() {
  return "hostile-" + std::to_string(::getpid()) + "-" + std::to_string(g_tag_seq++);
}

// The /proc directories of the processes whose command line holds `tag` (this process excluded).
std::vector<std::filesystem::path> tagged_processes(const std::string& tag) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] < '0' || name[0] > '9') continue;
    if (std::stoi(name) == ::getpid()) continue;
    if (read_proc(e.path() / "cmdline").find(tag) != std::string::npos) out.push_back(e.path());
  }
  return out;
}

int alive_with_tag(const std::string& tag) {
  return static_cast<int>(tagged_processes(tag).size());
}

// cgroups this process made and did not remove (tactica-<pid>-<n>, anywhere below the mounts).
int leftover_cgroups() {
  int n = 0;
  const std::string prefix = "tactica-" + std::to_string(::getpid()) + "-";
  std::error_code ec;
  for (const char* root : {"/sys/fs/cgroup"}) {
    for (auto it = std::filesystem::recursive_directory_iterator(
             root, std::filesystem::directory_options::skip_permission_denied, ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (!it->is_directory(ec)) {
        continue;
      }
      if (it->path().filename().string().rfind(prefix, 0) == 0) ++n;
      if (it.depth() > 4) it.disable_recursion_pending();
    }
  }
  return n;
}

bool cgroups_available() {
  static const bool ok = [] {
    std::string why;
    auto g = Cgroup::create(64 << 20, 64, why);
    if (!g) MESSAGE("no cgroup can be made here (" << why << "): cgroup mode skipped");
    return g != nullptr;
  }();
  return ok;
}

// A game that has not ended after kWatchdog is a hang (each ends in a few seconds): the
// watchdog prints where every thread of this process and every process with the game's tag
// waits (state, kernel wait channel, kernel stack where readable), and ends the test run, so
// that CI reports it at once and with its cause instead of at ctest's 900 s limit (a clean-clone
// CI run once hit that limit here and left nothing to go on).
constexpr auto kWatchdog = std::chrono::seconds(120);

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\0' || c == '\n') c = ' ';
  return s;
}

void dump_waits(const std::filesystem::path& proc_dir, const std::string& who) {
  const std::string stat = read_proc(proc_dir / "stat");
  std::fprintf(stderr, "  %s %s: stat '%s' wchan '%s'\n", who.c_str(), proc_dir.filename().c_str(),
               one_line(stat).c_str(), read_proc(proc_dir / "wchan").c_str());
  const std::string stack = read_proc(proc_dir / "stack");
  if (!stack.empty()) std::fprintf(stderr, "%s", stack.c_str());
}

class Watchdog {
 public:
  Watchdog(std::string what, std::string tag)
      : what_(std::move(what)), tag_(std::move(tag)), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_for(lock, kWatchdog, [this] { return done_; })) return;
    std::fprintf(stderr, "hostile_test: HANG: the game '%s' (tag %s) did not end in %lld s\n",
                 what_.c_str(), tag_.c_str(),
                 static_cast<long long>(std::chrono::seconds(kWatchdog).count()));
    std::error_code ec;
    for (const auto& t : std::filesystem::directory_iterator("/proc/self/task", ec))
      dump_waits(t.path(), "test thread");
    for (const auto& dir : tagged_processes(tag_)) {
      dump_waits(dir, "tagged " + one_line(read_proc(dir / "cmdline")));
      ::kill(std::stoi(dir.filename().string()), SIGKILL);  // no agent outlives the run it hung
    }
    std::fflush(stderr);
    std::_Exit(3);
  }

  std::string what_, tag_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

struct Mode {
  Accounting accounting;
  const char* name;
};

// The modes to run: proc always, cgroup where the machine allows it.
std::vector<Mode> modes() {
  std::vector<Mode> m{{Accounting::proc, "proc"}};
  if (cgroups_available()) m.insert(m.begin(), {Accounting::cgroup, "cgroup"});
  return m;
}

Limits hostile_limits(Accounting a) {
  Limits l = limits(5000, 300);
  l.process.accounting = a;
  l.process.memory_bytes = std::uint64_t{128} << 20;
  l.process.max_processes = 16;
  return l;
}

void check_mode(const std::string& got, const Mode& m) {
  if (m.accounting == Accounting::proc)
    CHECK(got == "proc");
  else
    CHECK(got.rfind("cgroup-v", 0) == 0);
}

void check_nothing_left(const std::string& tag) {
  CHECK(alive_with_tag(tag) == 0);
  CHECK(child_count() == 0);
  CHECK(leftover_cgroups() == 0);
}

// Icebreaking: a slow but correct first side (`slow_ms` a move, 28 moves: at 40 ms the game
// lasts over a second) against the hostile second side.
IcebreakingResult against_slow(const Mode& m, const std::string& tag, std::vector<std::string> args,
                               Limits l, int slow_ms = 40) {
  const auto slow = agent(
      "icebreaking", {"--fault", "slow", "--ms", std::to_string(slow_ms), "--tag", tag}, "slow");
  args.push_back("--tag");
  args.push_back(tag);
  const Watchdog watchdog(std::string(m.name) + " " + args[1], tag);
  auto r = judge_icebreaking(slow, agent("icebreaking", args, "hostile"), 3, l, {nullptr, true});
  check_mode(r.accounting, m);
  CHECK(r.replay["result"]["accounting"] == r.accounting);
  check_nothing_left(tag);
  return r;
}

HanpangResult hanpang_run(const Mode& m, const std::string& tag, std::vector<std::string> args,
                          Limits l) {
  args.push_back("--tag");
  args.push_back(tag);
  const Watchdog watchdog(std::string(m.name) + " " + args[1], tag);
  auto r = judge_hanpang(agent("hanpang", args, "hostile"), 7, l);
  check_mode(r.accounting, m);
  check_nothing_left(tag);
  return r;
}

// Runs `body(mode, limits)` in each accounting mode with the hostile limits (and, if given, a
// bank of `bank_ms`).
template <class Body>
void in_each_mode(double bank_ms, const Body& body) {
  for (const Mode& m : modes()) {
    CAPTURE(std::string(m.name));
    Limits l = hostile_limits(m.accounting);
    if (bank_ms > 0) l.bank_ms = bank_ms;
    body(m, l);
  }
}
template <class Body>
void in_each_mode(const Body& body) {
  in_each_mode(0, body);
}

// The bank of the output tests: the waits of their faults cost at most this.
constexpr double kOutputBankMs = 600;

}  // namespace

// The burners need 300 ms of CPU before the game ends: 100 ms moves give them about 2.8 s, so a
// burner that gets an eighth of a core on a loaded machine still reaches the cap (the game ends
// there, so a passing test does not wait for the slow side's moves).
constexpr int kBurnSlowMs = 100;

TEST_CASE("escape: burning CPU: CPU_LIMIT") {
  in_each_mode([](const Mode& m, const Limits& l) {
    const auto r = against_slow(m, new_tag(), {"--fault", "setsid-burn"}, l, kBurnSlowMs);
    CHECK(r.verdict == "CPU_LIMIT");
    CHECK(r.loser == 1);
    CHECK(r.cpu_ms[1] > 300);
  });
}

TEST_CASE("escape: a helper that hides in a sub-group of its cgroup is still charged and killed") {
  in_each_mode([](const Mode& m, const Limits& l) {
    const auto r = against_slow(m, new_tag(), {"--fault", "cgroup-hide"}, l, kBurnSlowMs);
    CHECK(r.verdict == "CPU_LIMIT");
    CHECK(r.loser == 1);
  });
}

TEST_CASE("escape: over the memory or the process limit: RUNTIME_ERROR") {
  struct Case {
    const char* name;
    std::vector<std::string> args;
    const char* detail;
  };
  const Case cases[] = {
      {"holding 200 MiB against a 128 MiB limit",
       {"--fault", "setsid-mem", "--mb", "200"},
       "over the 128 MiB limit"},
      {"spawning 200 processes against a cap of 16",
       {"--fault", "setsid-spawn"},
       "more than 16 processes"},
      {"a fork bomb", {"--fault", "fork-bomb"}, "more than 16 processes"},
  };
  for (const auto& c : cases) {
    SUBCASE(c.name) {
      in_each_mode([&](const Mode& m, Limits l) {
        // A CPU cap the fault cannot reach first: on some machines touching 128 MiB alone costs
        // over 300 ms of CPU (2.7 ms a MiB measured on one), and the cap would answer first.
        l.cpu_ms = 4000;
        const auto r = against_slow(m, new_tag(), c.args, l);
        CHECK(r.verdict == "RUNTIME_ERROR");
        CHECK(r.loser == 1);
        CHECK(contains(r.detail, c.detail));
      });
    }
  }
}

TEST_CASE("escape: a stopped helper (SIGSTOP) does not outlive the game") {
  in_each_mode([](const Mode& m, const Limits& l) {
    const auto r = against_slow(m, new_tag(), {"--fault", "sigstop-child"}, l);
    CHECK(r.verdict == "FINISHED");
  });
}

TEST_CASE("escape: Hanpang: a CPU burner is counted (no cap) and killed") {
  in_each_mode([](const Mode& m, const Limits& l) {
    const auto r = hanpang_run(m, new_tag(), {"--fault", "setsid-burn", "--delay", "10"}, l);
    CHECK((r.verdict == "OVERFLOW" || r.verdict == "MAX_ACTIONS"));
    // About 0.5 s of play: the burner's CPU shows even on a loaded machine (a judge that missed
    // it counted the agent's own few ms).
    CHECK(r.cpu_ms > 25);
  });
}

TEST_CASE("output: 100 MB of stderr: the game goes on, stderr is drained") {
  in_each_mode(kOutputBankMs, [](const Mode& m, const Limits& l) {
    const auto r = hanpang_run(m, new_tag(), {"--fault", "stderr-flood"}, l);
    CHECK((r.verdict == "OVERFLOW" || r.verdict == "MAX_ACTIONS"));
  });
}

TEST_CASE("output: a partial line, then sleep: TIME_LIMIT") {
  in_each_mode(kOutputBankMs, [](const Mode& m, const Limits& l) {
    const auto r = hanpang_run(m, new_tag(), {"--fault", "partial-line", "--after", "2"}, l);
    CHECK(r.verdict == "TIME_LIMIT");
    CHECK(r.actions == 2);
  });
}

TEST_CASE("output: closing stdout: RUNTIME_ERROR") {
  in_each_mode(kOutputBankMs, [](const Mode& m, const Limits& l) {
    const auto r = hanpang_run(m, new_tag(), {"--fault", "close-stdout", "--after", "2"}, l);
    CHECK(r.verdict == "RUNTIME_ERROR");
  });
}

TEST_CASE("output: SIGSTOP on itself: TIME_LIMIT, and the stopped agent is killed") {
  in_each_mode(kOutputBankMs, [](const Mode& m, const Limits& l) {
    const auto r = hanpang_run(m, new_tag(), {"--fault", "sigstop", "--after", "2"}, l);
    CHECK(r.verdict == "TIME_LIMIT");
  });
}

TEST_CASE("output: an answer to a command it never reads: INVALID") {
  in_each_mode(kOutputBankMs, [](const Mode& m, const Limits& l) {
    const auto r = hanpang_run(m, new_tag(), {"--fault", "deaf"}, l);
    CHECK(r.verdict == "INVALID");
    CHECK((contains(r.detail, "before reading") || contains(r.detail, "before the command")));
  });
}

TEST_CASE("output: an answer given before the command is read, read right after: best effort") {
  in_each_mode(kOutputBankMs, [](const Mode& m, const Limits& l) {
    // docs/HARNESS.md: the judge can only see bytes still unread when it looks; an agent that
    // reads right after answering may pass. Either way the run is judged and nothing is left.
    const auto r = hanpang_run(m, new_tag(), {"--fault", "late-read", "--ms", "30"}, l);
    CHECK((r.verdict == "INVALID" || r.verdict == "OVERFLOW" || r.verdict == "MAX_ACTIONS"));
  });
}
