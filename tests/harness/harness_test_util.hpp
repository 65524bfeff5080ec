// Helpers of the harness tests: the test agent (tests/harness/agents/test_agent.cpp), fast
// limits, and checks that nothing is left behind.
#pragma once

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "judge/judge.hpp"
#include "process/cgroup.hpp"
#ifdef TACTICA_HAVE_VIEWER
#include "report/view.hpp"
#endif

namespace harness_test {

using tactica::harness::AgentSpec;
using tactica::harness::Limits;

// The test agent playing `game`, with extra arguments (e.g. {"--fault", "sleep"}).
inline AgentSpec agent(const std::string& game, std::vector<std::string> args = {},
                       const std::string& label = "test") {
  AgentSpec a;
  a.label = label;
  a.argv = {TEST_AGENT, "--game", game};
  a.argv.insert(a.argv.end(), args.begin(), args.end());
  a.source = a.command();
  return a;
}

// A short bank so that time-outs take a fraction of a second (the platform's is 5,000 ms).
inline Limits limits(double bank_ms = 5000, double cpu_ms = 5000) {
  Limits l;
  l.bank_ms = bank_ms;
  l.cpu_ms = cpu_ms;
  return l;
}

// The text of a /proc file, or "" when it cannot be opened. A process can exit between the
// open and the read (the read then fails with ESRCH), and std::ifstream turns that into an
// exception; the harness's own reader (process/cgroup.hpp) keeps what it read and goes on.
inline std::string read_proc(const std::string& path) {
  std::string text;
  if (!tactica::harness::read_small_file(path, text, std::size_t{1} << 22)) return {};
  return text;
}

// Children of this process (any thread): zero after every game means no zombie, no survivor.
inline int child_count() {
  int n = 0;
  const std::string dir = "/proc/" + std::to_string(::getpid()) + "/task";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return -1;
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::istringstream in(read_proc(dir + "/" + e->d_name + "/children"));
    int pid;
    while (in >> pid) ++n;
  }
  ::closedir(d);
  return n;
}

// The replay passes the viewer's validation of docs/FORMATS.md (when the viewer is built).
inline void check_replay(const nlohmann::json& replay) {
#ifdef TACTICA_HAVE_VIEWER
  CHECK_NOTHROW(tactica::report::validate_replay(replay, "judge replay"));
#else
  CHECK(replay.contains("format"));
#endif
}

// What a crash of the test agent looks like: killed by SIGSEGV, or (sanitized build) the
// sanitizer's report of the null store (quoted from stderr) and exit status 1.
inline bool crash_detail(const std::string& detail) {
#ifdef TEST_AGENT_SANITIZED
  return detail.find("exit status 1") != std::string::npos &&
         (detail.find("runtime error") != std::string::npos ||
          detail.find("SEGV") != std::string::npos);
#else
  return detail.find("signal 11") != std::string::npos;
#endif
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace harness_test
