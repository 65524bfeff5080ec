// tune.hpp — `tactica tune`: SPSA (written here, as fishtest and OpenBench run it) and CMA-ES
// (pagmo's, driven one generation at a time) over any declared parameters of a config, with
// every candidate played by the judge (docs/TUNING.md).
//
// A run lives in one directory:
//   run.json       what was asked (config, parameters and ranges, method, seeds, schedule, limits)
//   games.jsonl    one line per finished game, keyed: a resumed run replays none of them
//   history.jsonl  one line per SPSA step or CMA-ES generation (values, results, seeds, time)
//   cmaes.state    CMA-ES only: the algorithm after the last generation (Boost archive)
//   best.toml      the config with the values recommended so far (after every step)
//   lock           held while a run uses the directory; a second run is refused
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "judge/judge.hpp"
#include "runner/runner.hpp"
#include "tactica/strategy.hpp"

namespace tactica::tune {

// Bad input: one line naming the problem; `tactica tune` exits 2 before any game.
class TuneError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct TunedParam {
  std::string name;
  ParamType type = ParamType::real;
  double lo = 0, hi = 1;        // the range tuned over (inside the declared one)
  double start = 0;             // the config's value (clamped into lo..hi)
  double decl_min = 0, decl_max = 1;
  bool integer() const { return type == ParamType::integer; }
  double range() const { return hi - lo; }
  // A value as played: clamped, integers rounded, reals to 6 significant digits.
  double played(double v) const;
  // A played value as `--set` and TOML write it: 64, 0.25.
  std::string text(double v) const;
};

struct TuneSpec {
  std::string config;  // absolute path of the config tuned
  std::string config_text;  // its contents when the run began: a resumed run needs the same
  std::vector<std::string> plugin_dirs;
  std::string game, strategy;
  std::vector<TunedParam> params;
  std::string method = "spsa";  // spsa | cmaes
  std::string seeds_text = "101-400";
  std::vector<std::uint64_t> seeds;
  std::size_t batch = 8;  // seeds per step (a step: an SPSA iteration or a CMA-ES generation)
  std::vector<std::string> opponents;  // AGENT words (Icebreaking); configs made absolute
  int iterations = 100;
  std::uint64_t node_budget = 0;  // 0: candidates play on the clock
  std::uint64_t rng_seed = 1;
  // SPSA: c_k = c * range / (k+1)^gamma, a_k = a0 * ((A+1) / (A+k+1))^alpha; theta moves by
  // a_k * range * result * delta (see docs/TUNING.md for what a "result" is).
  double spsa_a = 0.02, spsa_c = 0.1, spsa_A = 0.1, alpha = 0.602, gamma = 0.101;
  double scale = 0;  // Hanpang SPSA: points of score difference that make a result of 1 (0: auto)
  // CMA-ES, over each parameter's range mapped to 0..1.
  int population = 0;  // 0: 4 + 3 ln(n), at least 5
  double sigma0 = 0.3;
  harness::Limits limits;

  nlohmann::json to_json() const;
  static TuneSpec from_json(const nlohmann::json& j);  // throws TuneError
  // Games played per step.
  std::size_t games_per_step() const;
  int population_size() const;
};

// A file's whole contents ("" if it cannot be read).
std::string read_text(const std::string& path);

// What the command line asked for, before it is checked.
struct TuneRequest {
  std::string config;
  std::vector<std::string> params;  // NAME or NAME=LO:HI
  std::vector<std::string> plugin_dirs;
  TuneSpec base;  // method, seeds_text, batch, iterations, budget, schedule, limits
  std::vector<std::string> opponents;
};

// Checks everything (config, plugin, parameters and ranges, seeds, opponents, method) and
// returns the run's spec; throws TuneError with one line on the first problem.
TuneSpec make_spec(const TuneRequest& request);

struct RunnerOptions {
  std::string dir;
  bool resume = false;
  int workers = harness::core_count();  // games at once (-j): the cores, as bench's RunOptions
  std::string sshlogin;  // non-empty: play through GNU parallel
  std::string plot;      // SVG written at the end (and after every step)
  bool progress = true;
};

// Runs (or continues) a tuning run; returns the exit status (0 done, 130 interrupted).
// Throws TuneError on bad input (a DIR in use or holding another run, a broken run.json, ...).
int run_tune(const TuneSpec* fresh, const RunnerOptions& options);

// The SVG of a run's history: the objective and each parameter (as a share of its range) over
// the steps.
std::string history_svg(const TuneSpec& spec, const std::vector<nlohmann::json>& history);

}  // namespace tactica::tune
