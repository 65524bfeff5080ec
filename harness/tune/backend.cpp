// backend.cpp — see backend.hpp.
#include "tune/backend.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include "process/process.hpp"
#include "runner/command_line.hpp"
#include "runner/records.hpp"

namespace tactica::tune {
namespace fs = std::filesystem;
using nlohmann::json;

json GameOutcome::to_json() const {
  json j{{"key", key}, {"seed", seed}, {"verdict", verdict}, {"detail", detail}};
  if (winner.empty()) {
    j["score"] = score;
    j["actions"] = actions;
  } else {
    j["totals"] = totals;
    j["winner"] = winner;
  }
  return j;
}

GameOutcome GameOutcome::from_json(const json& j, const std::string& where) {
  auto bad = [&](const std::string& what) { throw harness::RunError(where + ": " + what); };
  if (!j.is_object()) bad("not a JSON object");
  GameOutcome g;
  if (!j.contains("key") || !j["key"].is_string()) bad("no string \"key\"");
  if (!j.contains("seed") || !j["seed"].is_number_unsigned()) bad("no non-negative integer \"seed\"");
  if (!j.contains("verdict") || !j["verdict"].is_string()) bad("no string \"verdict\"");
  g.key = j["key"];
  g.seed = j["seed"];
  g.verdict = j["verdict"];
  if (j.contains("detail") && j["detail"].is_string()) g.detail = j["detail"];
  if (j.contains("winner")) {
    if (!j["winner"].is_string()) bad("\"winner\" is not a string");
    g.winner = j["winner"];
    if (g.winner != "first" && g.winner != "second" && g.winner != "draw")
      bad("\"winner\" must be first, second or draw, not '" + g.winner + "'");
    if (!j.contains("totals") || !j["totals"].is_array() || j["totals"].size() != 2 ||
        !j["totals"][0].is_number_integer() || !j["totals"][1].is_number_integer())
      bad("\"totals\" must be two integers");
    g.totals = {j["totals"][0].get<int>(), j["totals"][1].get<int>()};
  } else {
    if (!j.contains("score") || !j["score"].is_number_integer()) bad("no integer \"score\"");
    g.score = j["score"];
    // 200 actions of at most 120 tiles each: no Hanpang score is outside 0..200 * 120^2.
    if (g.score < 0 || g.score > 200LL * 120 * 120) bad("\"score\" out of range");
    if (j.contains("actions") && j["actions"].is_number_integer()) g.actions = j["actions"];
  }
  return g;
}

namespace {

GameOutcome play_local(const GameJob& job, const harness::Limits& limits,
                       const std::atomic<bool>& abort) {
  GameOutcome g;
  g.key = job.key;
  g.seed = job.seed;
  if (!job.icebreaking) {
    const auto r = harness::judge_hanpang(job.agents.at(0), job.seed, limits, {&abort, false});
    g.score = r.score;
    g.actions = r.actions;
    g.verdict = r.verdict;
    g.detail = r.detail;
  } else {
    const auto r = harness::judge_icebreaking(job.agents.at(0), job.agents.at(1), job.seed, limits,
                                              {&abort, false});
    g.totals = r.totals;
    g.winner = r.winner;
    g.verdict = r.verdict;
    g.detail = r.detail;
  }
  return g;
}

class LocalBackend : public Backend {
 public:
  LocalBackend(int workers, harness::Limits limits) : workers_(workers), limits_(limits) {}

  bool play(const std::vector<GameJob>& jobs, const std::function<void(const GameOutcome&)>& on_done,
            harness::Progress* progress) override {
    const auto status = harness::run_jobs(
        jobs.size(), workers_,
        [&](std::size_t i, const std::atomic<bool>& abort) {
          return play_local(jobs[i], limits_, abort).to_json();
        },
        [&](std::size_t, const json& line) {
          on_done(GameOutcome::from_json(line, "game"));
          return true;
        },
        progress);
    return status != harness::RunStatus::interrupted;
  }
  std::string describe() const override { return std::to_string(workers_) + " local workers"; }

 private:
  int workers_;
  harness::Limits limits_;
};

// The AGENT word that `tactica judge` resolves back into exactly `argv` (split on blanks).
std::string agent_word(const harness::AgentSpec& a) {
  std::string s;
  for (const auto& arg : a.argv) {
    if (arg.empty() || arg.find_first_of(" \t\n\"'\\$`|&;<>()*?[]{}~#!") != std::string::npos)
      throw harness::RunError("cannot pass '" + arg +
                              "' to tactica judge through GNU parallel (blank or shell character "
                              "in it): use paths without blanks or quotes");
    if (!s.empty()) s += ' ';
    s += arg;
  }
  return s;
}

std::atomic<bool> g_stop{false};
extern "C" void on_parallel_stop(int) { g_stop.store(true); }

class ParallelBackend : public Backend {
 public:
  ParallelBackend(std::string login, int jobs, harness::Limits limits, fs::path tactica)
      : login_(std::move(login)), jobs_(jobs), limits_(limits), tactica_(std::move(tactica)) {
    if (!harness::in_path("parallel"))
      throw harness::RunError(
          "--sshlogin needs GNU parallel, which is not on PATH: apt-get install parallel");
  }

  bool play(const std::vector<GameJob>& jobs, const std::function<void(const GameOutcome&)>& on_done,
            harness::Progress* progress) override {
    if (jobs.empty()) return true;
    // The commands, one per line, in a file GNU parallel reads on its stdin.
    char tmpl[] = "/tmp/tactica-tune-jobs-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) throw harness::RunError(std::string("cannot make a temporary file: ") + std::strerror(errno));
    const std::string list = tmpl;
    {
      std::string text;
      const std::string cwd = fs::current_path().string();
      for (const auto& job : jobs) {
        std::string cmd = "cd " + harness::shell_quote(cwd) + " &&";
        for (const char* var : {"TACTICA_PLUGIN_PATH", "TACTICA_AGENT"})
          if (const char* v = std::getenv(var); v && *v)
            cmd += std::string(" ") + var + "=" + harness::shell_quote(v);
        for (const auto& w : judge_command(job, limits_, tactica_)) cmd += " " + harness::shell_quote(w);
        text += cmd + " 2>/dev/null\n";
      }
      if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
        ::close(fd);
        ::unlink(list.c_str());
        throw harness::RunError("cannot write " + list);
      }
      ::close(fd);
    }

    int out[2];
    if (::pipe(out) != 0) throw harness::RunError("pipe failed");
    const pid_t pid = ::fork();
    if (pid < 0) throw harness::RunError("fork failed");
    if (pid == 0) {
      ::setpgid(0, 0);
      const int in = ::open(list.c_str(), O_RDONLY);
      ::dup2(in, 0);
      ::dup2(out[1], 1);
      ::close(out[0]);
      ::close(out[1]);
      const std::string j = std::to_string(jobs_);
      ::execlp("parallel", "parallel", "--will-cite", "--halt", "never", "--line-buffer",
               "--tagstring", "{#}", "-S", login_.c_str(), "-j", j.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(out[1]);

    g_stop.store(false);
    harness::StopSignals stop(on_parallel_stop);

    std::size_t done = 0;
    std::vector<bool> got(jobs.size(), false);
    std::string buf;
    std::exception_ptr failure;
    bool stopped = false;
    for (;;) {
      if (g_stop.load() && !stopped) {
        ::kill(-pid, SIGTERM);  // parallel passes it on to its jobs
        stopped = true;
      }
      const auto read = harness::read_pipe(out[0], 100, buf);
      if (read == harness::PipeRead::closed) break;
      if (read == harness::PipeRead::nothing) continue;
      std::size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        const std::string line = buf.substr(0, nl);
        buf.erase(0, nl + 1);
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        try {
          const std::size_t idx = std::stoul(line.substr(0, tab)) - 1;
          if (idx >= jobs.size() || got[idx]) continue;
          const auto j = json::parse(line.substr(tab + 1));
          GameOutcome g;
          g.key = jobs[idx].key;
          g.seed = jobs[idx].seed;
          if (!jobs[idx].icebreaking) {
            const auto r = harness::bench_record(j, "tactica judge");
            g.score = r.score;
            g.actions = r.actions;
            g.verdict = r.verdict;
            g.detail = r.detail;
          } else {
            const auto r = harness::tourney_record(j, "tactica judge");
            g.totals = r.totals;
            g.winner = r.winner;
            g.verdict = r.verdict;
            g.detail = r.detail;
          }
          got[idx] = true;
          if (!failure) on_done(g);
          if (progress) progress->update(++done);
        } catch (...) {
          if (!failure) failure = std::current_exception();
        }
      }
    }
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    stop.restore();
    ::unlink(list.c_str());
    if (failure) std::rethrow_exception(failure);
    if (stopped) return false;
    for (std::size_t i = 0; i < jobs.size(); ++i)
      if (!got[i])
        throw harness::RunError("game " + jobs[i].key + " gave no result through GNU parallel (-S " +
                                login_ + "); run it alone to see why: " +
                                [&] {
                                  std::string s;
                                  for (const auto& w : judge_command(jobs[i], limits_, tactica_))
                                    s += (s.empty() ? "" : " ") + harness::shell_quote(w);
                                  return s;
                                }());
    return true;
  }
  std::string describe() const override {
    return "GNU parallel -S " + login_ + " -j " + std::to_string(jobs_);
  }

 private:
  std::string login_;
  int jobs_;
  harness::Limits limits_;
  fs::path tactica_;
};

std::string number(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

}  // namespace

std::vector<std::string> judge_command(const GameJob& job, const harness::Limits& limits,
                                       const fs::path& tactica) {
  std::vector<std::string> cmd{tactica.string(), "judge", job.icebreaking ? "icebreaking" : "hanpang",
                               "--seed", std::to_string(job.seed)};
  if (!job.icebreaking) {
    cmd.insert(cmd.end(), {"--agent", agent_word(job.agents.at(0))});
  } else {
    cmd.insert(cmd.end(), {"--first", agent_word(job.agents.at(0)), "--second",
                           agent_word(job.agents.at(1))});
  }
  cmd.insert(cmd.end(),
             {"--json", "--bank-ms", number(limits.bank_ms), "--cpu-ms", number(limits.cpu_ms),
              "--grace-ms", number(limits.grace_ms), "--memory-mb",
              std::to_string(limits.process.memory_bytes >> 20), "--max-procs",
              std::to_string(limits.process.max_processes)});
  if (limits.process.hard_data_limit) cmd.push_back("--rlimit-data");
  return cmd;
}

std::unique_ptr<Backend> local_backend(int workers, const harness::Limits& limits) {
  return std::make_unique<LocalBackend>(workers, limits);
}

std::unique_ptr<Backend> parallel_backend(const std::string& sshlogin, int jobs,
                                          const harness::Limits& limits, const fs::path& tactica) {
  return std::make_unique<ParallelBackend>(sshlogin, jobs, limits, tactica);
}

}  // namespace tactica::tune
