// child.hpp — runs tactica-agent (or any program) as a child process with pipes on stdin,
// stdout and stderr, for the agent tests: send lines, read reply lines with a timeout, measure
// response times and CPU, wait for the exit status.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace agent_test {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Paths given by CMake.
inline const std::string kAgent = TACTICA_AGENT_EXE;
inline const std::string kTestPlugins = TACTICA_TEST_PLUGIN_DIR;
inline const std::string kPlugins = TACTICA_PLUGIN_DIR;
inline const std::string kSource = TACTICA_SOURCE_DIR;

class Child {
 public:
  // `env` entries ("NAME=value") replace or add variables; names in `unset` are removed.
  explicit Child(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
                 const std::vector<std::string>& unset = {"TACTICA_PLUGIN_PATH"}) {
    signal(SIGPIPE, SIG_IGN);
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
      throw std::runtime_error("pipe2 failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    std::vector<std::string> envs;
    for (char** e = environ; *e; ++e) {
      const std::string_view kv(*e);
      const auto name = kv.substr(0, kv.find('='));
      bool drop = false;
      for (const auto& u : unset) drop |= name == u;
      for (const auto& s : env) drop |= name == std::string_view(s).substr(0, s.find('='));
      if (!drop) envs.emplace_back(kv);
    }
    for (const auto& s : env) envs.push_back(s);
    std::vector<char*> cargv, cenv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    for (const auto& e : envs) cenv.push_back(const_cast<char*>(e.c_str()));
    cenv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, cargv[0], &fa, nullptr, cargv.data(), cenv.data());
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    in_ = in[1], out_ = out[0], err_ = err[0];
    if (rc != 0) throw std::runtime_error("posix_spawn " + argv[0] + ": " + std::strerror(rc));
    started_ = Clock::now();
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (!status_) {
      ::kill(pid_, SIGKILL);
      int st;
      ::waitpid(pid_, &st, 0);
    }
    for (int fd : {in_, out_, err_})
      if (fd >= 0) ::close(fd);
  }

  pid_t pid() const { return pid_; }

  // Writes raw bytes (add '\n' yourself, or use send_line).
  bool send(std::string_view s) {
    while (!s.empty()) {
      const ssize_t n = ::write(in_, s.data(), s.size());
      if (n <= 0) return false;
      s.remove_prefix(std::size_t(n));
    }
    return true;
  }
  bool send_line(std::string_view s) { return send(std::string(s) + "\n"); }
  void close_stdin() {
    if (in_ >= 0) ::close(in_), in_ = -1;
  }

  // The next stdout line (without '\n'); nullopt on timeout or end of output.
  std::optional<std::string> read_line(double timeout_ms) {
    const auto until = Clock::now() + std::chrono::microseconds(std::int64_t(timeout_ms * 1000));
    for (;;) {
      const auto nl = out_buf_.find('\n');
      if (nl != std::string::npos) {
        std::string line = out_buf_.substr(0, nl);
        out_buf_.erase(0, nl + 1);
        return line;
      }
      if (out_eof_) return std::nullopt;
      const double left = std::chrono::duration<double, std::milli>(until - Clock::now()).count();
      if (left <= 0) return std::nullopt;
      pump(static_cast<int>(left) + 1);
    }
  }
  // Everything on stdout until it closes (or the timeout).
  std::string read_all(double timeout_ms) {
    const auto t = Clock::now();
    while (!out_eof_ && ms_since(t) < timeout_ms) pump(10);
    return std::exchange(out_buf_, {});
  }
  const std::string& err() {
    pump(0);
    return err_buf_;
  }

  // Waits for the exit; the status (exit code, or 128 + signal), nullopt on timeout.
  std::optional<int> wait(double timeout_ms) {
    const auto t = Clock::now();
    while (!status_) {
      int st = 0;
      const pid_t r = ::waitpid(pid_, &st, WNOHANG);
      if (r == pid_) {
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        exit_ms_ = ms_since(started_);
        break;
      }
      if (ms_since(t) > timeout_ms) return std::nullopt;
      pump(2);
    }
    while (!out_eof_ || !err_eof_) pump(5);
    return status_;
  }

  // CPU time (user + system) of the running child in ms, from /proc; -1 if unreadable.
  double cpu_ms() const {
    std::ifstream f("/proc/" + std::to_string(pid_) + "/stat");
    std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const auto rp = s.rfind(')');
    if (rp == std::string::npos) return -1;
    std::istringstream in(s.substr(rp + 2));
    std::string field;
    long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && in >> field; ++i) {
      if (i == 14) utime = std::stoll(field);
      if (i == 15) stime = std::stoll(field);
    }
    return double(utime + stime) * 1000.0 / double(sysconf(_SC_CLK_TCK));
  }

 private:
  // Reads whatever stdout and stderr have, waiting up to timeout_ms for something.
  void pump(int timeout_ms) {
    pollfd p[2] = {{out_eof_ ? -1 : out_, POLLIN, 0}, {err_eof_ ? -1 : err_, POLLIN, 0}};
    if (out_eof_ && err_eof_) return;
    if (::poll(p, 2, timeout_ms) <= 0) return;
    char buf[65536];
    for (int i = 0; i < 2; ++i) {
      if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(p[i].fd, buf, sizeof buf);
      if (n <= 0)
        (i == 0 ? out_eof_ : err_eof_) = true;
      else
        (i == 0 ? out_buf_ : err_buf_).append(buf, std::size_t(n));
    }
  }

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string out_buf_, err_buf_;
  bool out_eof_ = false, err_eof_ = false;
  std::optional<int> status_;
  Clock::time_point started_;
  double exit_ms_ = 0;
};

// Runs a program to its end on the given input: exit status, stdout, stderr. With settle_ms > 0,
// stdin stays open until the program has printed no line for settle_ms (at most 5 s): an agent
// ends its run without a reply when input ends while its strategy thinks (the judge's kill), and
// on a loaded machine a think can outlast the agent's 5 ms look at its input, so closing at once
// would make the replies depend on the load.
struct RunResult {
  int status = -1;
  std::string out, err;
};
inline RunResult run(const std::vector<std::string>& argv, const std::string& input = {},
                     double timeout_ms = 10000, const std::vector<std::string>& env = {},
                     double settle_ms = 0) {
  Child c(argv, env);
  c.send(input);
  RunResult r;
  for (const auto t = Clock::now(); settle_ms > 0 && ms_since(t) < 5000;) {
    const auto line = c.read_line(settle_ms);
    if (!line) break;
    r.out += *line + "\n";
  }
  c.close_stdin();
  const auto st = c.wait(timeout_ms);
  r.status = st ? *st : -1;
  r.out += c.read_all(100);
  r.err = c.err();
  return r;
}

// A fresh temporary directory, removed with its contents at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "tactica-agent-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  // Writes a file under the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char ch : s) n += ch == '\n';
  return n;
}

}  // namespace agent_test
