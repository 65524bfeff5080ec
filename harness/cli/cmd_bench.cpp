// cmd_bench.cpp — `tactica bench`: Hanpang seed runs of one or more agents on the same seeds.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "bound/bound.hpp"
#include "cli/common.hpp"
#include "stats/stats.hpp"
#include "report/run_plots.hpp"
#include "report/tables.hpp"
#include "runner/records.hpp"

namespace tactica::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> agents, labels;
  std::string seeds, plot, bound;
  int early_stop = 0;  // >0: stop once every paired difference's 95% CI excludes 0 (min seeds)
  RunOptions run;
  LimitOptions limits;
  AgentSetOptions sets;
};

// --early-stop: on the seeds every agent has finished, each agent's paired difference against the
// first has a 95% interval that excludes 0, over at least `min_seeds` seeds.
bool decided(const std::vector<harness::BenchRecord>& records, const std::vector<std::string>& names,
             int min_seeds) {
  if (names.size() < 2) return false;
  std::map<std::uint64_t, std::map<std::string, double>> by_seed;
  for (const auto& r : records) by_seed[r.seed][r.agent] = static_cast<double>(r.score);
  std::vector<std::vector<double>> cols(names.size());
  for (const auto& [seed, scores] : by_seed) {
    if (scores.size() < names.size()) continue;
    for (std::size_t a = 0; a < names.size(); ++a) cols[a].push_back(scores.at(names[a]));
  }
  if (cols[0].size() < static_cast<std::size_t>(std::max(2, min_seeds))) return false;
  for (std::size_t a = 1; a < names.size(); ++a) {
    const auto p = stats::paired_difference(cols[0], cols[a]);
    if (std::abs(p.diff.mean) <= p.diff.ci95) return false;
  }
  return true;
}

int run_bench(const BenchOptions& o, const std::vector<std::string>& argv) {
  const auto agents = resolve_agents(o.agents, o.labels, "hanpang", o.sets);
  std::vector<std::string> names;
  for (const auto& a : agents) names.push_back(a.label);
  const auto seeds = seeds_or(o.seeds, "1-30");
  const auto shard = o.run.parsed_shard();
  const auto limits = o.limits.limits();
  o.run.prepare_log_dir();
  std::map<std::uint64_t, bound::Reference> refs;  // read before any game: a bad file stops here
  if (!o.bound.empty()) {
    try {
      refs = bound::read_bound_file(o.bound);
    } catch (const std::runtime_error& e) {
      throw harness::RunError(std::string("--bound ") + e.what());
    }
  }
  const bool resume = o.run.resuming();
  const std::string path = o.run.results_path("bench");

  // Step 1. The results file, locked for this run; what it already holds (with --resume),
  // every line checked before anything is written.
  harness::ResultsWriter writer(path, resume);
  std::vector<harness::BenchRecord> records;
  std::set<std::pair<std::string, std::uint64_t>> done;
  if (resume) {
    auto set = read_resumed<harness::BenchSet>("bench", path, names, writer);
    for (auto& r : set.records) {
      r.agent = names[static_cast<std::size_t>(r.agent_index)];  // this run's spelling
      done.insert({r.agent, r.seed});
      records.push_back(std::move(r));
    }
  }

  // Step 2. The games: seed-major, so an interrupted run has every agent on the same seeds.
  struct Job {
    std::size_t agent;
    std::uint64_t seed;
  };
  std::vector<Job> jobs;
  for (std::size_t si = 0; si < seeds.size(); ++si) {
    if (!shard.takes(si)) continue;
    for (std::size_t a = 0; a < agents.size(); ++a)
      if (!done.count({names[a], seeds[si]})) jobs.push_back({a, seeds[si]});
  }
  auto progress = o.run.start(jobs.size());
  std::fprintf(stderr, "bench: %zu games (%zu agents, %zu seeds%s) on %d workers, results in %s\n",
               jobs.size(), agents.size(), seeds.size(),
               o.run.shard_and_done(shard, done.size()).c_str(), o.run.workers, path.c_str());

  // Step 3. Play.
  const harness::LoadMeter load;  // other work while the games are played
  const auto status = harness::run_jobs(
      jobs.size(), o.run.workers,
      [&](std::size_t j, const std::atomic<bool>& abort) {
        const Job& job = jobs[j];
        const auto r =
            harness::judge_hanpang(agents[job.agent], job.seed, limits, o.run.control(abort));
        o.run.keep_replay(
            "hanpang-" + file_safe(names[job.agent]) + "-seed" + std::to_string(job.seed) + ".json",
            r.replay);
        return harness::to_json(
            result_record(r, names[job.agent], static_cast<int>(job.agent), job.seed));
      },
      [&](std::size_t, const nlohmann::json& line) {
        writer.append(line);
        records.push_back(harness::bench_record(line, "result"));
        return !(o.early_stop > 0 && decided(records, names, o.early_stop));
      },
      progress.get());
  if (o.early_stop > 0 && decided(records, names, o.early_stop))
    std::fprintf(stderr, "bench: stopped early: every paired difference against %s excludes 0 "
                 "(95%%) after at least %d seeds\n", names[0].c_str(), o.early_stop);

  std::printf("%s", report::bench_report(records, names).c_str());
  if (!o.bound.empty())
    std::printf("%s", bound::efficiency_report(records, names, refs, o.bound).c_str());
  if (!o.plot.empty()) report::write_bench_plot(o.plot, records);
  o.run.warn_if_busy(load, jobs.size());
  return finish_run(status, records.size(), path, argv);
}

}  // namespace

void register_bench(CLI::App& app, Context& ctx) {
  auto [o, b] = add_command<BenchOptions>(
      app, "bench",
      "Hanpang seed runs: every agent on the same seeds; scores with confidence intervals "
      "and paired differences against the first agent");
  add_agent_options(b, o->agents, o->labels, "repeat");
  b->add_option("-s,--seeds", o->seeds,
                "seeds, e.g. 1-30 or 1,5,9 (default 1-30, as on the platform)");
  b->add_option("--plot", o->plot,
                "also draw each agent's score per seed and its scoreSum as an SVG file");
  b->add_option("--early-stop", o->early_stop,
                "stop launching games once, after at least N common seeds, every agent's paired "
                "difference against the first has a 95% interval that excludes 0")
      ->check(CLI::Range(2, 100000000));
  b->add_option("--bound", o->bound,
                "also print each agent's efficiency (score / reference) per seed and overall, "
                "against a reference file from tactica bound");
  b->fallthrough();  // --suite FILE (see main.cpp) may follow the subcommand
  o->sets.add(b);
  o->run.add(b, "bench");
  o->limits.add(b);
  on_run(b, ctx, "bench", o,
         [&ctx](const BenchOptions& opts) { return run_bench(opts, ctx.argv); });
}

}  // namespace tactica::cli
