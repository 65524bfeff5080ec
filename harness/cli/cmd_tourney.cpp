// cmd_tourney.cpp — `tactica tourney`: Icebreaking game pairs (each seed twice, sides swapped)
// between every two agents; Elo, pentanomial statistics and an optional SPRT that stops early.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <set>

#include "cli/common.hpp"
#include "cli/sprt_option.hpp"
#include "report/run_plots.hpp"
#include "report/tables.hpp"
#include "runner/records.hpp"

namespace tactica::cli {
namespace {

struct TourneyOptions {
  std::vector<std::string> agents, labels, sprt;
  std::string seeds, plot;
  bool gauntlet = false;  // the first agent against each of the others only
  int rating_interval = 0;  // >0: the standings on stderr every this many finished games
  RunOptions run;
  LimitOptions limits;
  AgentSetOptions sets;
};

int run_tourney(const TourneyOptions& o, bool sprt_given, const std::vector<std::string>& argv) {
  const auto agents = resolve_agents(o.agents, o.labels, "icebreaking", o.sets);
  if (agents.size() < 2) throw harness::AgentError("a tournament needs at least two --agent");
  std::vector<std::string> names;
  for (const auto& a : agents) names.push_back(a.label);
  std::optional<stats::SprtSpec> sprt;
  if (sprt_given) {
    sprt = parse_sprt(o.sprt);
    if (agents.size() != 2)
      throw harness::AgentError("--sprt needs exactly two agents (the first is the one tested)");
  }
  const auto seeds = seeds_or(o.seeds, sprt ? "1-5000" : "1-50");
  const auto shard = o.run.parsed_shard();
  const auto limits = o.limits.limits();
  o.run.prepare_log_dir();
  const bool resume = o.run.resuming();
  const std::string path = o.run.results_path("tourney");

  // Step 1. What the results file already holds (with --resume).
  // The results file is locked for this run and every line checked before anything is written.
  harness::ResultsWriter writer(path, resume);
  std::vector<harness::TourneyRecord> records;
  std::set<std::tuple<std::uint64_t, std::string, std::string>> done;
  harness::PairTracker tracker(names[0], names[1]);
  if (resume) {
    auto set = read_resumed<harness::TourneySet>("tourney", path, names, writer);
    // Keys in this run's spelling of the labels (the file's are made printable).
    std::map<std::string, std::string> label;
    for (const auto& n : names) label[harness::printable(n)] = n;
    for (auto& r : set.records) {
      r.first = label[r.first];
      r.second = label[r.second];
      done.insert({r.seed, r.first, r.second});
      tracker.add(r);
      records.push_back(std::move(r));
    }
  }
  if (sprt) {
    const double llr = stats::sprt_llr(tracker.pentanomial(), sprt->elo0, sprt->elo1);
    if (stats::sprt_decide(llr, *sprt) != stats::SprtDecision::none) {
      std::printf("%s", report::tourney_report(records, names, sprt).c_str());
      if (!o.plot.empty()) report::write_tourney_plot(o.plot, records, names, sprt);
      std::fprintf(stderr, "the SPRT in %s has already ended; nothing to play\n", path.c_str());
      return 0;
    }
  }

  // Step 2. The games: for each seed and each two agents i < j a pair (i first, then j first);
  // with --gauntlet only the pairs of the first agent (i = 0).
  struct Job {
    std::uint64_t seed;
    long pair;
    std::size_t first, second;
  };
  std::vector<Job> jobs;
  const std::size_t n = agents.size(), per_seed = o.gauntlet ? n - 1 : n * (n - 1) / 2;
  for (std::size_t si = 0; si < seeds.size(); ++si) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < (o.gauntlet ? 1 : n); ++i)
      for (std::size_t j = i + 1; j < n; ++j, ++k) {
        const std::size_t unit = si * per_seed + k;
        if (!shard.takes(unit)) continue;
        const long pair = static_cast<long>(unit) + 1;
        if (!done.count({seeds[si], names[i], names[j]})) jobs.push_back({seeds[si], pair, i, j});
        if (!done.count({seeds[si], names[j], names[i]})) jobs.push_back({seeds[si], pair, j, i});
      }
  }
  auto progress = o.run.start(jobs.size());
  std::fprintf(stderr,
               "tourney: %zu games (%zu agents%s, %zu seeds, sides swapped%s%s) on %d workers, "
               "results in %s\n",
               jobs.size(), n, o.gauntlet ? ", a gauntlet of the first" : "", seeds.size(),
               o.run.shard_and_done(shard, done.size()).c_str(),
               sprt ? ", stopping when the SPRT decides" : "", o.run.workers, path.c_str());

  // Step 3. Play; with --sprt, stop launching games once a completed pair decides it.
  bool decided = false;
  const harness::LoadMeter load;  // other work while the games are played
  const auto status = harness::run_jobs(
      jobs.size(), o.run.workers,
      [&](std::size_t j, const std::atomic<bool>& abort) {
        const Job& job = jobs[j];
        const auto r = harness::judge_icebreaking(agents[job.first], agents[job.second], job.seed,
                                                  limits, o.run.control(abort));
        o.run.keep_replay("icebreaking-seed" + std::to_string(job.seed) + "-" +
                              file_safe(names[job.first]) + "-vs-" + file_safe(names[job.second]) +
                              ".json",
                          r.replay);
        return harness::to_json(result_record(r, job.seed, job.pair, names[job.first],
                                              names[job.second], static_cast<int>(job.first),
                                              static_cast<int>(job.second)));
      },
      [&](std::size_t, const nlohmann::json& line) {
        writer.append(line);
        auto rec = harness::tourney_record(line, "result");
        const bool pair_done = tracker.add(rec);
        records.push_back(std::move(rec));
        if (o.rating_interval > 0 && records.size() % static_cast<std::size_t>(o.rating_interval) == 0)
          std::fprintf(stderr, "\nstandings after %zu games:\n%s\n", records.size(),
                       report::tourney_report(records, names, sprt).c_str());
        if (sprt && pair_done && !decided) {
          const double llr = stats::sprt_llr(tracker.pentanomial(), sprt->elo0, sprt->elo1);
          if (progress) {
            char note[48];
            std::snprintf(note, sizeof note, "LLR %.2f", llr);
            progress->update(records.size(), note);
          }
          if (stats::sprt_decide(llr, *sprt) != stats::SprtDecision::none) decided = true;
        }
        return !decided;
      },
      progress.get());

  std::printf("%s", report::tourney_report(records, names, sprt).c_str());
  if (!o.plot.empty()) report::write_tourney_plot(o.plot, records, names, sprt);
  if (status != harness::RunStatus::interrupted && sprt && !decided)
    std::fprintf(stderr, "the SPRT did not decide within %zu seeds: give more with --seeds\n",
                 seeds.size());
  o.run.warn_if_busy(load, jobs.size());
  return finish_run(status, records.size(), path, argv);
}

}  // namespace

void register_tourney(CLI::App& app, Context& ctx) {
  auto [o, t] = add_command<TourneyOptions>(
      app, "tourney",
      "Icebreaking tournament: each seed played twice with sides swapped between every "
      "two agents; Elo, pentanomial pairs, LOS, optional SPRT");
  add_agent_options(t, o->agents, o->labels, "repeat, at least two");
  t->add_option("-s,--seeds", o->seeds, "seeds, e.g. 1-50 (default 1-50; with --sprt 1-5000)");
  auto* sprt =
      t->add_option(
           "--sprt", o->sprt,
           "stop when the SPRT decides: elo0=0 elo1=10 alpha=0.05 beta=0.05 "
           "(normalised Elo of the first agent over the second; keys left out keep these values)")
          ->expected(1, 4);
  t->add_option("--rating-interval", o->rating_interval,
                "print the standings (the whole report so far) on stderr every N finished games")
      ->check(CLI::Range(1, 100000000));
  t->add_flag("--gauntlet", o->gauntlet,
              "play only the first agent against each of the others (not every two agents)");
  t->add_option("--plot", o->plot,
                "also draw the Elo table with error bars (and with --sprt the LLR over games) as "
                "an SVG file");
  t->fallthrough();  // --suite FILE (see main.cpp) may follow the subcommand
  o->sets.add(t);
  o->run.add(t, "tourney");
  o->limits.add(t);
  on_run(t, ctx, "tourney", o, [sprt, &ctx](const TourneyOptions& opts) {
    return run_tourney(opts, sprt->count() > 0, ctx.argv);
  });
}

}  // namespace tactica::cli
