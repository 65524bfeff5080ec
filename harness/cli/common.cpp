// common.cpp — see common.hpp.
#include "cli/common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "judge/check.hpp"
#include "process/process.hpp"

namespace tactica::cli {

void LimitOptions::add(CLI::App* app) {
  app->add_option("--memory-mb", memory_mb,
                  "resident memory an agent's process tree may hold, MiB (more: RUNTIME_ERROR)")
      ->capture_default_str()
      ->check(CLI::Range(16, 1 << 20));
  app->add_flag("--rlimit-data", rlimit_data,
                "also cap each agent process with RLIMIT_DATA = --memory-mb, so allocations fail "
                "(sanitizer-built agents cannot start under it)");
  app->add_option("--max-procs", max_procs,
                  "processes an agent may have alive at once (more: RUNTIME_ERROR)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app->add_option("--bank-ms", bank_ms,
                  "time control: the wall bank of each player for the whole game, ms (the "
                  "platform's: 5000)")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e9));
  app->add_option("--cpu-ms", cpu_ms,
                  "time control: Icebreaking's CPU cap of each player over the process's life, "
                  "ms (the platform's: 5000)")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e9));
  app->add_option("--accounting", accounting,
                  "how agents are counted: auto (a cgroup per agent where one can be made, else "
                  "/proc), cgroup (refuse to run without one), proc (docs/HARNESS.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cgroup", "proc"}));
  // Hidden (empty group): for tests only.
  app->add_option("--grace-ms", grace_ms, "extra wait after the bank, ms")
      ->group("")
      ->check(CLI::Range(0.0, 1e6));
}

harness::Limits LimitOptions::limits() const {
  harness::Limits l;
  l.bank_ms = bank_ms;
  l.cpu_ms = cpu_ms;
  l.grace_ms = grace_ms;
  l.process.memory_bytes = static_cast<std::uint64_t>(memory_mb) << 20;
  l.process.hard_data_limit = rlimit_data;
  l.process.max_processes = max_procs;
  harness::parse_accounting(accounting, l.process.accounting);
  return l;
}

void RunOptions::add(CLI::App* app, const std::string& what) {
  app->add_option(
         "-j,--workers", workers,
         "games played at once (default: the number of cores; more distorts the time limits)")
      ->check(CLI::Range(1, 4096));
  auto* out_opt = app->add_option("-o,--out", out,
                                  "results file, JSON Lines, one line per finished game (default: "
                                  "results/" +
                                      what + "-<date>-<time>.jsonl)");
  app->add_option("--resume", resume,
                  "continue an interrupted run: append to this results file, "
                  "skipping the games it already holds")
      ->excludes(out_opt);
  app->add_option(
      "--shard", shard,
      "play share K of N (e.g. 3/8) for a job array; join the files with tactica merge");
  app->add_option("--log-dir", log_dir,
                  "keep each agent's whole stderr of every game in this directory "
                  "(<game>-seed<N>-[first-|second-]<label>.stderr)");
  app->add_option("--replay-dir", replay_dir,
                  "also write every game's JSON replay into this directory");
  app->add_flag("--no-progress", no_progress, "no progress bar or progress lines");
}

void RunOptions::prepare_log_dir() const {
  if (log_dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(log_dir, ec);
  const auto probe = std::filesystem::path(log_dir) / ".tactica-write-test";
  std::ofstream f(probe);
  if (ec || !f)
    throw harness::RunError("--log-dir " + log_dir + ": cannot create or write it");
  f.close();
  std::filesystem::remove(probe, ec);
}

std::string RunOptions::results_path(const std::string& what) const {
  return resuming() ? resume : !out.empty() ? out : default_results_path(what);
}

harness::Shard RunOptions::parsed_shard() const {
  return shard.empty() ? harness::Shard{} : harness::parse_shard(shard);
}

std::unique_ptr<harness::Progress> RunOptions::start(std::size_t games) const {
  if (auto w = harness::workers_warning(workers); !w.empty())
    std::fprintf(stderr, "%s\n", w.c_str());
  if (auto w = harness::busy_warning(workers); !w.empty())
    std::fprintf(stderr, "%s\n", w.c_str());
  if (no_progress) return nullptr;
  return std::make_unique<harness::Progress>(games, ::isatty(2));
}

void RunOptions::warn_if_busy(const harness::LoadMeter& load, std::size_t games) const {
  if (games == 0) return;
  if (auto w = load.warning(workers); !w.empty()) std::fprintf(stderr, "%s\n", w.c_str());
}

std::string RunOptions::shard_and_done(const harness::Shard& s, std::size_t done) const {
  std::string note;
  if (s.n > 1) note += ", shard " + std::to_string(s.k) + "/" + std::to_string(s.n);
  if (done) note += ", " + std::to_string(done) + " already done";
  return note;
}

harness::GameControl RunOptions::control(const std::atomic<bool>& abort) const {
  return {&abort, !replay_dir.empty(), log_dir};
}

void RunOptions::keep_replay(const std::string& name, const nlohmann::json& replay) const {
  if (!replay_dir.empty()) write_json_file(replay_dir + "/" + name, replay);
}

void add_agent_options(CLI::App* app, std::vector<std::string>& agents,
                       std::vector<std::string>& labels, const std::string& repeat) {
  app->add_option(
         "-a,--agent", agents,
         "AGENT (" + repeat + "): a config (.toml), an executable, a .py file or a command line")
      ->required();
  app->add_option("--label", labels, "names for the agents, in order (default: from AGENT)");
}

int finish_run(harness::RunStatus status, std::size_t games, const std::string& path,
               const std::vector<std::string>& argv) {
  if (status == harness::RunStatus::interrupted) {
    std::fprintf(stderr, "interrupted: %zu games are in %s; continue with:\n  %s\n", games,
                 path.c_str(), resume_command(argv, path).c_str());
    return 130;
  }
  std::fprintf(stderr, "results: %s\n", path.c_str());
  return 0;
}

void guarded(Context& ctx, const std::string& name, const std::function<int()>& body) {
  const auto fail = [&](const std::exception& e, int code) {
    std::fprintf(stderr, "tactica %s: %s\n", name.c_str(), e.what());
    ctx.exit_code = code;
  };
  try {
    ctx.exit_code = body();
  } catch (const harness::AgentError& e) {
    fail(e, 2);
  } catch (const harness::RunError& e) {
    fail(e, 2);
  } catch (const harness::SpawnError& e) {
    fail(e, 1);
  } catch (const std::exception& e) {
    fail(e, 1);
  }
  harness::reap_all_children();
}

void AgentSetOptions::add(CLI::App* app) {
  app->add_option("--set", set,
                  "N:key=value (repeat): override a key of agent N's config (agents counted from "
                  "1 in order; with one agent key=value), e.g. --set 2:params.width=300")
      ->type_name("N:KEY=VALUE");
  app->add_option("--each", each,
                  "key=value (repeat): override a key of every config agent, e.g. --each "
                  "time.reserve_ms=200")
      ->type_name("KEY=VALUE");
}

std::vector<std::vector<std::string>> AgentSetOptions::per_agent(std::size_t n) const {
  std::vector<std::vector<std::string>> out(n, each);
  for (const auto& s : set) {
    const auto eq = s.find('=');
    const auto colon = s.find(':');
    if (colon == std::string::npos || (eq != std::string::npos && colon > eq)) {
      if (n == 1) {
        out[0].push_back(s);
        continue;
      }
      throw harness::AgentError("--set " + s + ": say which agent, e.g. --set 2:" + s +
                                " (agents 1.." + std::to_string(n) +
                                " in the order given), or --each " + s + " for all of them");
    }
    const std::string num = s.substr(0, colon);
    const bool digits = !num.empty() && num.size() < 6 &&
                        num.find_first_not_of("0123456789") == std::string::npos;
    const std::size_t k = digits ? std::stoul(num) : 0;
    if (k < 1 || k > n)
      throw harness::AgentError("--set " + s + ": no agent '" + num + "'; allowed: 1.." +
                                std::to_string(n) + " (the agents in the order given)");
    out[k - 1].push_back(s.substr(colon + 1));
  }
  return out;
}

std::vector<harness::AgentSpec> resolve_agents(const std::vector<std::string>& specs,
                                               const std::vector<std::string>& labels,
                                               const std::string& game,
                                               const AgentSetOptions& sets) {
  if (labels.size() > specs.size())
    throw harness::AgentError("more --label (" + std::to_string(labels.size()) + ") than agents (" +
                              std::to_string(specs.size()) + ")");
  std::vector<harness::AgentSpec> out;
  const auto dir = harness::self_dir();
  const auto per_agent = sets.per_agent(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    out.push_back(harness::resolve_agent(specs[i], dir, game, per_agent[i]));
    if (i < labels.size()) {
      if (labels[i].empty()) throw harness::AgentError("empty --label");
      out.back().label = labels[i];
    }
  }
  harness::make_labels_unique(out);
  harness::check_agents(out);
  return out;
}


std::string run_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

std::string default_results_path(const std::string& what) {
  return "results/" + what + "-" + run_stamp() + ".jsonl";
}

std::string file_safe(const std::string& s) {
  std::string out;
  for (char ch : s) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
    out += ok ? ch : '_';
  }
  if (out.size() > 60) out.resize(60);
  return out.empty() ? "agent" : out;
}

void write_json_file(const std::string& path, const nlohmann::json& j) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const auto dir = fs::path(path).parent_path(); !dir.empty()) fs::create_directories(dir, ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!out) throw harness::RunError("cannot write '" + path + "': " + std::strerror(errno));
}

harness::BenchRecord result_record(const harness::HanpangResult& r, const std::string& agent,
                                   int index, std::uint64_t seed) {
  return {agent, index, seed, r.score, r.actions, r.verdict, r.time_ms, r.detail, r.accounting};
}

harness::TourneyRecord result_record(const harness::IcebreakingResult& r, std::uint64_t seed,
                                     long pair, const std::string& first, const std::string& second,
                                     int first_index, int second_index) {
  harness::TourneyRecord rec;
  rec.seed = seed;
  rec.pair = pair;
  rec.first = first;
  rec.second = second;
  rec.first_index = first_index;
  rec.second_index = second_index;
  rec.totals = r.totals;
  rec.winner = r.winner;
  rec.verdict = r.verdict;
  rec.time_ms = r.time_ms;
  rec.detail = r.detail;
  rec.accounting = r.accounting;
  return rec;
}

CLI::Validator seed_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        const bool digits =
            !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
        if (digits && (v.size() < 20 || (v.size() == 20 && v <= "18446744073709551615")))
          return {};
        return "'" + v + "' is not a seed; allowed: a whole number 0..18446744073709551615";
      },
      "SEED");
}

std::vector<std::uint64_t> seeds_or(const std::string& text, const std::string& fallback) {
  return harness::parse_seeds(text.empty() ? fallback : text);
}

}  // namespace tactica::cli
