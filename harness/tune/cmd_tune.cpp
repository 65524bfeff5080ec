// cmd_tune.cpp — `tactica tune`: SPSA or CMA-ES over a config's parameters (docs/TUNING.md).
#include <cstdio>
#include <memory>
#include <vector>

#include "cli/common.hpp"
#include "tune/tune.hpp"

namespace tactica::cli {
namespace {

struct TuneOptions {
  tune::TuneRequest request;
  tune::RunnerOptions runner;
  std::string out, resume;
  LimitOptions limits;
  int batch = 0;
};

std::string default_dir(const std::string& config) {
  return "tune/" + file_safe(std::filesystem::path(config).stem().string()) + "-" + run_stamp();
}

// A run from the options, or with --resume the run in that directory (which refuses the options
// in `run_options`: they come from its run.json). A TuneError is bad input: exit 2.
int run(TuneOptions& o, const std::vector<const CLI::Option*>& run_options) {
  try {
    auto& rq = o.request;
    if (!o.resume.empty()) {
      for (const auto* opt : run_options)
        if (opt->count())
          throw tune::TuneError("--resume takes the run's options from " + o.resume +
                                "/run.json: drop " + opt->get_name());
      o.runner.dir = o.resume;
      o.runner.resume = true;
      return tune::run_tune(nullptr, o.runner);
    }
    if (rq.config.empty()) throw tune::TuneError("--agent CONFIG is required (or --resume DIR)");
    rq.base.batch = static_cast<std::size_t>(std::max(0, o.batch));
    if (o.batch < 0) throw tune::TuneError("--batch must be at least 1");
    rq.base.limits = o.limits.limits();
    const auto spec = tune::make_spec(rq);
    o.runner.dir = o.out.empty() ? default_dir(rq.config) : o.out;
    return tune::run_tune(&spec, o.runner);
  } catch (const tune::TuneError& e) {
    std::fprintf(stderr, "tactica tune: %s\n", e.what());
    return 2;
  }
}

}  // namespace

void register_tune(CLI::App& app, Context& ctx) {
  auto [o, t] = add_command<TuneOptions>(
      app, "tune",
      "tune a config's parameters with SPSA or CMA-ES, every candidate played by the judge "
      "(docs/TUNING.md)");
  auto& rq = o->request;
  // The options that define a new run: --resume takes them from the run's run.json instead.
  std::vector<const CLI::Option*> run_options;
  const auto run_option = [&run_options, sub = t](const std::string& name, auto& value,
                                                  const std::string& help) {
    run_options.push_back(sub->add_option(name, value, help));
  };
  run_option("-a,--agent", rq.config, "CONFIG (.toml) whose [params] are tuned");
  run_option("-p,--param", rq.params,
             "NAME=LO:HI (repeat), a declared integer or real parameter and the "
             "range to tune it in (inside its declared range); NAME alone: all "
             "of the declared range");
  run_option("--method", rq.base.method, "spsa (default) or cmaes (pagmo's CMA-ES)");
  run_option("-s,--seeds", rq.base.seeds_text,
             "training seeds, e.g. 101-400 (default); never report on them");
  run_option("--batch", o->batch,
             "seeds a step plays, taken in turn from --seeds (default 8, or all "
             "if fewer); every candidate of a step plays the same ones");
  run_option("--opponent", rq.opponents,
             "Icebreaking: AGENT (repeat) that every candidate plays instead of "
             "the other candidate (a gauntlet), e.g. a baseline");
  run_option("-n,--iterations", rq.base.iterations,
             "SPSA steps or CMA-ES generations (default 100)");
  run_option("--node-budget", rq.base.node_budget,
             "every candidate plays with time.node_budget = N (deterministic "
             "and fast); default: on the clock under the 5,000 ms bank");
  run_option("--seed", rq.base.rng_seed,
             "seed of the run's own randomness (SPSA's signs, CMA-ES's samples)");
  run_option("--spsa-a", rq.base.spsa_a,
             "SPSA: first move of a parameter for a result of 1, as a share of its "
             "range (default 0.02)");
  run_option("--spsa-c", rq.base.spsa_c,
             "SPSA: first perturbation, as a share of the range (default 0.1)");
  run_option("--spsa-A", rq.base.spsa_A,
             "SPSA: stability constant A, as a share of --iterations (default 0.1)");
  run_option("--scale", rq.base.scale,
             "Hanpang SPSA: score difference (points per game) that counts as a "
             "result of 1 (default: 1% of the first step's mean score)");
  run_option("--population", rq.base.population,
             "CMA-ES: candidates per generation (default 4 + 3 ln n, at least 5)");
  run_option("--sigma0", rq.base.sigma0,
             "CMA-ES: first step size, as a share of each range (default 0.3)");
  run_option("--plugin-dir", rq.plugin_dirs,
             "look for plugins here first (repeat), for the check and the games");
  t->add_option("-j,--workers", o->runner.workers,
                "games played at once (default: the number of cores)")
      ->check(CLI::Range(1, 4096));
  auto* out = t->add_option("-o,--out", o->out, "the run's directory (default tune/<config>-<date>-<time>)");
  t->add_option("--resume", o->resume,
                "continue the run in this directory where it stopped (its options come from "
                "its run.json)")
      ->excludes(out);
  t->add_option("--sshlogin", o->runner.sshlogin,
                "play the games through GNU parallel on these hosts (its -S: ':' is this machine, "
                "'4/node1,4/node2' ...); -j is then the jobs per host");
  t->add_option("--plot", o->runner.plot, "draw the objective and the parameters over the run (SVG)");
  t->add_flag("--no-progress", [o](std::int64_t) { o->runner.progress = false; },
              "no progress bar or progress lines");
  o->limits.add(t);

  on_run(t, ctx, "tune", o, [run_options](TuneOptions& opts) { return run(opts, run_options); });
}

}  // namespace tactica::cli
