// cmd_merge.cpp — `tactica merge`: joins results files (shards of one run, or runs to pool) into
// one report and, with --out, one file. A game found twice is counted once. With --runs, Hanpang
// files of separate runs (a reference benched once, candidates benched later on the same seeds)
// are compared as one bench: paired by seed against the first file's first agent.
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "cli/common.hpp"
#include "cli/sprt_option.hpp"
#include "report/run_plots.hpp"
#include "report/tables.hpp"
#include "runner/records.hpp"

namespace tactica::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> files, sprt;
  std::string out, plot;
  bool runs = false;
};

// Agents in the order of their recorded index, then of first appearance.
std::vector<std::string> order_agents(const std::vector<std::pair<int, std::string>>& seen) {
  std::map<std::string, std::pair<int, std::size_t>> rank;  // label -> (index, first seen)
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const auto& [index, label] = seen[i];
    auto it = rank.find(label);
    const int idx = index < 0 ? 1 << 30 : index;
    if (it == rank.end())
      rank[label] = {idx, i};
    else
      it->second.first = std::min(it->second.first, idx);
  }
  std::vector<std::pair<std::pair<int, std::size_t>, std::string>> v;
  for (const auto& [label, r] : rank) v.push_back({r, label});
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (const auto& x : v) out.push_back(x.second);
  return out;
}

// The game of the first result line of the first file that has one.
std::string first_game(const std::vector<std::string>& files) {
  struct Found {
    std::string game;
  };
  for (const auto& f : files) {
    try {
      harness::scan_results(f, [](nlohmann::json&& j, std::size_t) {
        throw Found{j["game"].is_string() ? j["game"].get<std::string>() : j["game"].dump()};
      });
    } catch (const Found& found) {
      return found.game;
    }
  }
  throw harness::RunError("no results in the given files: give the .jsonl files of a run");
}

int run_merge(const MergeOptions& o, bool sprt_given) {
  std::optional<stats::SprtSpec> sprt;
  if (sprt_given) sprt = parse_sprt(o.sprt);
  const std::string game = first_game(o.files);
  const bool keep = !o.out.empty();
  std::vector<std::string> notes;
  std::size_t duplicates = 0;
  std::string report;
  std::vector<nlohmann::json>* kept = nullptr;
  harness::BenchSet bench;
  harness::TourneySet tourney;
  if (o.runs && game != "hanpang")
    throw harness::RunError(
        "--runs compares Hanpang bench runs; an Icebreaking tourney pairs games by sides: play "
        "every agent in one tourney (or merge tourneys of the same agents, without --runs)");
  if (o.runs && keep)
    throw harness::RunError(
        "--out joins the shards of one run; runs compared with --runs keep their own files (drop "
        "--out, or merge each run's shards first)");
  if (game == "hanpang" && o.runs) {
    // Each file one run (its own indices checked), every label in one file only: two runs that
    // both say "submit" could not be told apart, and their games would be mixed.
    // (With every label in one file, no game of one file can meet a game of another: the runs'
    // records are simply put together, each file read once.)
    std::map<std::string, std::string> file_of;  // label -> the file it was first seen in
    std::vector<std::pair<int, std::string>> seen;
    for (std::size_t i = 0; i < o.files.size(); ++i) {
      harness::BenchSet one;
      if (auto note = one.add_file(o.files[i]).torn_note(o.files[i]); !note.empty())
        notes.push_back(note);
      one.check_indices();
      duplicates += one.duplicates;
      for (auto& r : one.records) {
        const auto [it, fresh] = file_of.try_emplace(r.agent, o.files[i]);
        if (!fresh && it->second != o.files[i])
          throw harness::RunError(
              harness::printable(o.files[i]) + ": agent '" + r.agent + "' is also in " +
              harness::printable(it->second) +
              ": runs compared with --runs need labels of their own (tactica bench --label)");
        // File order first, then each run's own order.
        seen.push_back({static_cast<int>(i) * 65536 + std::max(0, r.agent_index), r.agent});
        bench.records.push_back(std::move(r));
      }
    }
    report = report::bench_report(bench.records, order_agents(seen));
    if (!o.plot.empty()) report::write_bench_plot(o.plot, bench.records);
  } else if (game == "hanpang") {
    for (const auto& f : o.files)
      if (auto note = bench.add_file(f, keep).torn_note(f); !note.empty()) notes.push_back(note);
    bench.check_indices();
    std::vector<std::pair<int, std::string>> seen;
    for (const auto& r : bench.records) seen.push_back({r.agent_index, r.agent});
    report = report::bench_report(bench.records, order_agents(seen));
    if (!o.plot.empty()) report::write_bench_plot(o.plot, bench.records);
    duplicates = bench.duplicates;
    kept = &bench.lines;
  } else if (game == "icebreaking") {
    for (const auto& f : o.files)
      if (auto note = tourney.add_file(f, keep).torn_note(f); !note.empty()) notes.push_back(note);
    tourney.check_indices();
    std::vector<std::pair<int, std::string>> seen;
    for (const auto& r : tourney.records) {
      seen.push_back({r.first_index, r.first});
      seen.push_back({r.second_index, r.second});
    }
    const auto agents = order_agents(seen);
    if (sprt && agents.size() != 2)
      throw harness::RunError("--sprt needs results of exactly two agents, these have " +
                              std::to_string(agents.size()));
    report = report::tourney_report(tourney.records, agents, sprt);
    if (!o.plot.empty()) report::write_tourney_plot(o.plot, tourney.records, agents, sprt);
    duplicates = tourney.duplicates;
    kept = &tourney.lines;
  } else {
    throw harness::RunError(
        harness::printable(o.files[0]) + ": unknown game \"" + harness::printable(game) +
        "\" (expected hanpang or icebreaking): is this a tactica results file?");
  }
  for (const auto& n : notes) std::fprintf(stderr, "merge: %s\n", n.c_str());
  if (duplicates)
    std::fprintf(stderr, "merge: %zu games appeared more than once; each is counted once\n",
                 duplicates);
  if (!o.out.empty()) {
    harness::ResultsWriter w(o.out, false);
    for (const auto& l : *kept) w.append(l);
    std::fprintf(stderr, "merge: %zu games written to %s\n", kept->size(),
                 harness::printable(o.out).c_str());
  }
  std::printf("%s", report.c_str());
  return 0;
}

}  // namespace

void register_merge(CLI::App& app, Context& ctx) {
  auto [o, m] = add_command<MergeOptions>(
      app, "merge", "join results files (e.g. the shards of a job array) into one report and file");
  m->add_option("files", o->files, "results files (JSON Lines) of one game")
      ->required()
      ->check(CLI::ExistingFile);
  m->add_option("-o,--out", o->out, "also write the joined results to this new file");
  m->add_option("--plot", o->plot, "also draw the joined results as an SVG file (docs/VIEWER.md)");
  m->add_flag("--runs", o->runs,
              "Hanpang: the files are separate runs on the same seeds (a reference, then "
              "candidates benched one at a time): one report, paired by seed against the first "
              "file's first agent; each label must be in one file only (bench --label)");
  auto* sprt =
      m->add_option("--sprt", o->sprt, "show the SPRT state: elo0=0 elo1=10 alpha=0.05 beta=0.05")
          ->expected(1, 4);
  on_run(m, ctx, "merge", o,
         [sprt](const MergeOptions& opts) { return run_merge(opts, sprt->count() > 0); });
}

}  // namespace tactica::cli
