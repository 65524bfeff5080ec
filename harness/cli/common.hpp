// common.hpp — options and helpers shared by the subcommands.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "judge/agent.hpp"
#include "judge/judge.hpp"
#include "runner/command_line.hpp"
#include "runner/runner.hpp"

namespace tactica::cli {

using harness::resume_command;
using harness::shell_quote;

// The platform's limits (defaults: the platform's). --bank-ms and --cpu-ms are a public time
// control; --grace-ms is hidden (it exists so tests can run broken agents fast).
struct LimitOptions {
  double bank_ms = 5000, cpu_ms = 5000, grace_ms = 100;
  int memory_mb = 2048, max_procs = 64;
  bool rlimit_data = false;
  std::string accounting = "auto";
  void add(CLI::App* app);
  harness::Limits limits() const;
};

// Options of the many-game commands (bench, tourney).
struct RunOptions {
  int workers = harness::core_count();
  std::string out, resume, shard, replay_dir, log_dir;
  // --log-dir: made (or checked writable) before any game; throws RunError.
  void prepare_log_dir() const;
  bool no_progress = false;
  void add(CLI::App* app, const std::string& what);
};

// Config overrides for the agents: --set N:key=value changes agent N (from 1, in the order of
// the agents; with one agent plain key=value), --each key=value changes every config agent.
// Both are passed to tactica-agent as --set, --each first.
struct AgentSetOptions {
  std::vector<std::string> set, each;
  void add(CLI::App* app);
  // The --set list of each of `n` agents; throws AgentError for a bad N or a missing N:.
  std::vector<std::vector<std::string>> per_agent(std::size_t n) const;
};

// Runs a command body: bad input (AgentError, RunError) exits 2, a failure to run exits 1, each
// with one line "tactica <name>: <message>" on stderr.
void guarded(Context& ctx, const std::string& name, const std::function<int()>& body);

// Resolves AGENTs (labels from --label in order, the rest by default) with unique labels, then
// checks every config with `tactica-agent --check` (harness::check_agents) so that a bad config
// stops the command before any game.
std::vector<harness::AgentSpec> resolve_agents(const std::vector<std::string>& specs,
                                               const std::vector<std::string>& labels,
                                               const std::string& game,
                                               const AgentSetOptions& sets = {});


// The local time as YYYYmmdd-HHMMSS, for default file and directory names.
std::string run_stamp();
// results/<what>-YYYYmmdd-HHMMSS.jsonl
std::string default_results_path(const std::string& what);
// A label made safe for a file name.
std::string file_safe(const std::string& s);
// Writes a JSON document (throws RunError).
void write_json_file(const std::string& path, const nlohmann::json& j);

// A check for a --seed option: a whole number 0..2^64-1 written in decimal digits (CLI11 would
// take -1 as 18446744073709551615).
CLI::Validator seed_validator();

// The seeds option's value, or `fallback` when not given.
std::vector<std::uint64_t> seeds_or(const std::string& text, const std::string& fallback);

}  // namespace tactica::cli
