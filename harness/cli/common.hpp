// common.hpp — options and helpers shared by the subcommands.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "judge/agent.hpp"
#include "judge/judge.hpp"
#include "runner/command_line.hpp"
#include "runner/records.hpp"
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

  bool resuming() const { return !resume.empty(); }
  // The results file: --resume's, else --out's, else results/<what>-<date>-<time>.jsonl.
  std::string results_path(const std::string& what) const;
  harness::Shard parsed_shard() const;
  // The workers and busy-machine warnings (if any) on stderr, then the progress bar of `games`
  // (none with --no-progress).
  std::unique_ptr<harness::Progress> start(std::size_t games) const;
  // After the games (none in flight): the busy-machine warning for the load other processes put
  // on the machine while they were played, measured from `load` (started before the first), if
  // any game was played.
  void warn_if_busy(const harness::LoadMeter& load, std::size_t games) const;
  // ", shard K/N" and ", D already done" where they apply, for the line that announces a run.
  std::string shard_and_done(const harness::Shard& shard, std::size_t done) const;
  // How a game of the run is played: stopped by `abort`, a replay with --replay-dir, stderr kept
  // with --log-dir.
  harness::GameControl control(const std::atomic<bool>& abort) const;
  // With --replay-dir: writes a game's replay there as `name` (throws RunError).
  void keep_replay(const std::string& name, const nlohmann::json& replay) const;
};

// -a,--agent (required; `repeat` says how often, e.g. "repeat, at least two") and --label, as
// the many-game commands take them.
void add_agent_options(CLI::App* app, std::vector<std::string>& agents,
                       std::vector<std::string>& labels, const std::string& repeat);

// The end of a many-game run: interrupted, how to continue (exit 130); else where the results
// are (exit 0).
int finish_run(harness::RunStatus status, std::size_t games, const std::string& path,
               const std::vector<std::string>& argv);

// --resume: the games `path` already holds (a results set, BenchSet or TourneySet), every line
// checked and its agents against `names`; a torn last line is cut and said to be played again.
template <class Set>
Set read_resumed(const std::string& what, const std::string& path,
                 const std::vector<std::string>& names, harness::ResultsWriter& writer) {
  Set set;
  const auto scan = set.add_file(path);
  set.check_agents(names);
  if (scan.torn_line)
    std::fprintf(stderr, "%s: %s: that game is played again\n", what.c_str(),
                 scan.torn_note(path).c_str());
  writer.cut_torn_line();
  return set;
}

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

// A subcommand and the options object its option flags fill, shared with its callback:
//   auto [o, b] = add_command<BenchOptions>(app, "bench", "what it does");
template <class Options>
std::pair<std::shared_ptr<Options>, CLI::App*> add_command(CLI::App& parent,
                                                           const std::string& name,
                                                           const std::string& help) {
  return {std::make_shared<Options>(), parent.add_subcommand(name, help)};
}

// When `sub` is chosen: body(options) under guarded(ctx, name), its result the exit code.
template <class Options, class Body>
void on_run(CLI::App* sub, Context& ctx, const std::string& name, std::shared_ptr<Options> options,
            Body body) {
  sub->callback(
      [o = std::move(options), &ctx, name, body] { guarded(ctx, name, [&] { return body(*o); }); });
}

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

// One judged game as its results line: agent `index` (from 0) of a bench; the game of pair
// `pair` of a tourney between agents `first` and `second`.
harness::BenchRecord result_record(const harness::HanpangResult& r, const std::string& agent,
                                   int index, std::uint64_t seed);
harness::TourneyRecord result_record(const harness::IcebreakingResult& r, std::uint64_t seed,
                                     long pair, const std::string& first, const std::string& second,
                                     int first_index = 0, int second_index = 1);

// A check for a --seed option: a whole number 0..2^64-1 written in decimal digits (CLI11 would
// take -1 as 18446744073709551615).
CLI::Validator seed_validator();

// The seeds option's value, or `fallback` when not given.
std::vector<std::uint64_t> seeds_or(const std::string& text, const std::string& fallback);

}  // namespace tactica::cli
