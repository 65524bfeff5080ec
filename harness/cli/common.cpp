// common.cpp — see common.hpp.
#include "cli/common.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

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
  app->add_option("--accounting", accounting,
                  "how agents are counted: auto (a cgroup per agent where one can be made, else "
                  "/proc), cgroup (refuse to run without one), proc (docs/HARNESS.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cgroup", "proc"}));
  // Hidden (empty group): for tests only.
  app->add_option("--bank-ms", bank_ms, "wall bank per player, ms")
      ->group("")
      ->check(CLI::Range(1.0, 1e9));
  app->add_option("--cpu-ms", cpu_ms, "Icebreaking CPU cap per player, ms")
      ->group("")
      ->check(CLI::Range(1.0, 1e9));
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
  app->add_option("--replay-dir", replay_dir,
                  "also write every game's JSON replay into this directory");
  app->add_flag("--no-progress", no_progress, "no progress bar or progress lines");
}

void guarded(Context& ctx, const std::string& name, const std::function<int()>& body) {
  try {
    ctx.exit_code = body();
  } catch (const harness::AgentError& e) {
    std::fprintf(stderr, "tactica %s: %s\n", name.c_str(), e.what());
    ctx.exit_code = 2;
  } catch (const harness::RunError& e) {
    std::fprintf(stderr, "tactica %s: %s\n", name.c_str(), e.what());
    ctx.exit_code = 2;
  } catch (const harness::SpawnError& e) {
    std::fprintf(stderr, "tactica %s: %s\n", name.c_str(), e.what());
    ctx.exit_code = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tactica %s: %s\n", name.c_str(), e.what());
    ctx.exit_code = 1;
  }
  harness::reap_all_children();
}

std::vector<harness::AgentSpec> resolve_agents(const std::vector<std::string>& specs,
                                               const std::vector<std::string>& labels,
                                               const std::string& game) {
  if (labels.size() > specs.size())
    throw harness::AgentError("more --label (" + std::to_string(labels.size()) + ") than agents (" +
                              std::to_string(specs.size()) + ")");
  std::vector<harness::AgentSpec> out;
  const auto dir = harness::self_dir();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    out.push_back(harness::resolve_agent(specs[i], dir, game));
    if (i < labels.size()) {
      if (labels[i].empty()) throw harness::AgentError("empty --label");
      out.back().label = labels[i];
    }
  }
  harness::make_labels_unique(out);
  return out;
}

std::string default_results_path(const std::string& what) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return "results/" + what + "-" + buf + ".jsonl";
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

std::vector<std::uint64_t> seeds_or(const std::string& text, const std::string& fallback) {
  return harness::parse_seeds(text.empty() ? fallback : text);
}

}  // namespace tactica::cli
