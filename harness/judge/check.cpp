// check.cpp — see check.hpp.
#include "judge/check.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>
#include <string>

#include "process/process.hpp"

extern char** environ;

namespace tactica::harness {
namespace {

struct Captured {
  int status = 0;
  std::string err;
};

// Runs argv with stdin and stdout on /dev/null, collecting all of stderr. A check that takes
// longer than `timeout` is killed (a plugin whose factory never returns).
Captured run_capturing_stderr(const std::vector<std::string>& argv,
                              std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw SpawnError(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw SpawnError("cannot run '" + argv[0] + "': " + std::strerror(rc));
  }
  Captured c;
  const auto end = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          end - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    if (read_pipe(fds[0], static_cast<int>(left), c.err) == PipeRead::closed) break;
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  while (::waitpid(pid, &c.status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    throw AgentError("'" + argv[0] + " ... --check' did not finish within " +
                     std::to_string(timeout.count() / 1000) + " s");
  return c;
}

// The first line tactica-agent reported as an error, without its prefix; else the first line.
std::string error_line(const std::string& err) {
  static const std::string prefix = "tactica-agent: error: ";
  std::string first;
  std::size_t pos = 0;
  while (pos < err.size()) {
    auto nl = err.find('\n', pos);
    if (nl == std::string::npos) nl = err.size();
    const std::string line = err.substr(pos, nl - pos);
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    if (first.empty() && line.find_first_not_of(" \t\r") != std::string::npos) first = line;
    pos = nl + 1;
  }
  return first;
}

}  // namespace

void check_agents(const std::vector<AgentSpec>& agents) {
  std::set<std::vector<std::string>> checked;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AgentSpec& a = agents[i];
    if (a.config.empty() || !checked.insert(a.argv).second) continue;
    auto argv = a.argv;
    argv.push_back("--check");
    const auto c = run_capturing_stderr(argv, std::chrono::seconds(60));
    if (WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) continue;
    std::string line = error_line(c.err);
    if (line.empty()) {
      ExitStatus st;
      st.exited = WIFEXITED(c.status);
      st.code = st.exited ? WEXITSTATUS(c.status) : 0;
      st.signal = WIFSIGNALED(c.status) ? WTERMSIG(c.status) : 0;
      line = a.config + ": '" + a.command() + " --check' failed with " + st.describe() +
             " and no message";
    }
    throw AgentError(line);
  }
}

}  // namespace tactica::harness
