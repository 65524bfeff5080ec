// spec.cpp — the checked definition of a tuning run (tune.hpp): from the command line, to and
// from run.json.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "judge/agent.hpp"
#include "runner/runner.hpp"
#include "tactica/config.hpp"
#include "tactica/loader.hpp"
#include "tune/tune.hpp"

namespace tactica::tune {
namespace fs = std::filesystem;
using nlohmann::json;

double TunedParam::played(double v) const {
  v = std::clamp(v, lo, hi);
  if (integer()) return std::round(v);
  if (v == 0) return 0;
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return std::clamp(std::stod(b), lo, hi);
}

std::size_t TuneSpec::games_per_step() const {
  if (game == "hanpang") return batch * (method == "spsa" ? 2 : population_size());
  const std::size_t opp = opponents.size();
  if (method == "spsa") return opp ? 2 * 2 * opp * batch : 2 * batch;
  return population_size() * 2 * std::max<std::size_t>(opp, 1) * batch;
}

int TuneSpec::population_size() const {
  if (population > 0) return population;
  const int n = static_cast<int>(params.size());
  return std::max(5, 4 + static_cast<int>(std::floor(3 * std::log(std::max(1, n)))));
}

std::string TunedParam::text(double v) const {
  char b[40];
  if (integer())
    std::snprintf(b, sizeof b, "%lld", static_cast<long long>(std::llround(v)));
  else
    std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

json TuneSpec::to_json() const {
  json ps = json::array();
  for (const auto& p : params)
    ps.push_back({{"name", p.name},
                  {"type", p.integer() ? "integer" : "real"},
                  {"lo", p.lo},
                  {"hi", p.hi},
                  {"start", p.start},
                  {"declared", {p.decl_min, p.decl_max}}});
  return {{"format", "tactica-tune-1"},
          {"config", config},
          {"config_text", config_text},
          {"plugin_dirs", plugin_dirs},
          {"game", game},
          {"strategy", strategy},
          {"params", ps},
          {"method", method},
          {"seeds", seeds_text},
          {"batch", batch},
          {"opponents", opponents},
          {"iterations", iterations},
          {"node_budget", node_budget},
          {"rng_seed", rng_seed},
          {"spsa", {{"a", spsa_a}, {"c", spsa_c}, {"A", spsa_A}, {"alpha", alpha}, {"gamma", gamma},
                    {"scale", scale}}},
          {"cmaes", {{"population", population}, {"sigma0", sigma0}}},
          {"limits", {{"bank_ms", limits.bank_ms},
                      {"cpu_ms", limits.cpu_ms},
                      {"grace_ms", limits.grace_ms},
                      {"memory_mb", limits.process.memory_bytes >> 20},
                      {"max_procs", limits.process.max_processes},
                      {"rlimit_data", limits.process.hard_data_limit}}}};
}

TuneSpec TuneSpec::from_json(const json& j) {
  try {
    if (j.at("format") != "tactica-tune-1")
      throw TuneError("run.json: format is not tactica-tune-1");
    TuneSpec s;
    s.config = j.at("config");
    s.config_text = j.at("config_text");
    s.plugin_dirs = j.at("plugin_dirs").get<std::vector<std::string>>();
    s.game = j.at("game");
    s.strategy = j.at("strategy");
    for (const auto& p : j.at("params")) {
      TunedParam t;
      t.name = p.at("name");
      t.type = p.at("type") == "integer" ? ParamType::integer : ParamType::real;
      t.lo = p.at("lo");
      t.hi = p.at("hi");
      t.start = p.at("start");
      t.decl_min = p.at("declared").at(0);
      t.decl_max = p.at("declared").at(1);
      s.params.push_back(t);
    }
    s.method = j.at("method");
    s.seeds_text = j.at("seeds");
    s.seeds = harness::parse_seeds(s.seeds_text);
    s.batch = j.at("batch");
    s.opponents = j.at("opponents").get<std::vector<std::string>>();
    s.iterations = j.at("iterations");
    s.node_budget = j.at("node_budget");
    s.rng_seed = j.at("rng_seed");
    const auto& sp = j.at("spsa");
    s.spsa_a = sp.at("a");
    s.spsa_c = sp.at("c");
    s.spsa_A = sp.at("A");
    s.alpha = sp.at("alpha");
    s.gamma = sp.at("gamma");
    s.scale = sp.at("scale");
    s.population = j.at("cmaes").at("population");
    s.sigma0 = j.at("cmaes").at("sigma0");
    const auto& l = j.at("limits");
    s.limits.bank_ms = l.at("bank_ms");
    s.limits.cpu_ms = l.at("cpu_ms");
    s.limits.grace_ms = l.at("grace_ms");
    s.limits.process.memory_bytes = l.at("memory_mb").get<std::uint64_t>() << 20;
    s.limits.process.max_processes = l.at("max_procs");
    s.limits.process.hard_data_limit = l.at("rlimit_data");
    if (s.params.empty() || s.batch == 0 || s.batch > s.seeds.size() || s.iterations < 1 ||
        (s.method != "spsa" && s.method != "cmaes"))
      throw TuneError("run.json: inconsistent values");
    return s;
  } catch (const TuneError&) {
    throw;
  } catch (const std::exception& e) {
    throw TuneError(std::string("run.json is not a tune run's: ") + e.what());
  }
}

namespace {

std::string shortest(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

bool parse_number(const std::string& s, double& out) {
  if (s.empty()) return false;
  try {
    std::size_t used = 0;
    out = std::stod(s, &used);
    return used == s.size() && std::isfinite(out);
  } catch (...) {
    return false;
  }
}

}  // namespace

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

namespace {

// Loads a config and its plugin, checks [params]: the check `tactica-agent --check` makes.
struct Checked {
  AgentConfig cfg;
  PluginInfo info;
};
Checked check_config(const std::string& file, const std::vector<std::string>& sets,
                     const std::vector<std::string>& plugin_dirs) {
  try {
    Checked c{load_config(file, sets), {}};
    std::vector<fs::path> dirs(plugin_dirs.begin(), plugin_dirs.end());
    const auto plugin = load_plugin(c.cfg.strategy, plugin_search_path(dirs));
    require_game(plugin, c.cfg.game);
    c.info = plugin.info();
    resolve_params(c.cfg, c.info);
    return c;
  } catch (const ConfigError& e) {
    throw TuneError(e.what());
  } catch (const PluginError& e) {
    throw TuneError(file + ": " + e.what());
  }
}

}  // namespace

TuneSpec make_spec(const TuneRequest& rq) {
  TuneSpec s = rq.base;
  if (rq.config.empty()) throw TuneError("--agent CONFIG is required (a .toml config)");
  std::error_code ec;
  if (!fs::exists(rq.config, ec))
    throw TuneError("--agent " + rq.config +
                    ": no such file (paths are relative to the current directory)");
  if (fs::path(rq.config).extension() != ".toml")
    throw TuneError("--agent " + rq.config +
                    ": tune needs a config (.toml) whose [params] it can set, not a program");
  s.config = fs::absolute(rq.config).lexically_normal().string();
  s.config_text = read_text(s.config);
  for (const auto& d : rq.plugin_dirs) s.plugin_dirs.push_back(fs::absolute(d).string());
  const auto base = check_config(s.config, {}, s.plugin_dirs);
  s.game = game_name(base.cfg.game);
  s.strategy = base.cfg.strategy;
  const auto& specs = base.info.params(base.cfg.game);

  if (s.method != "spsa" && s.method != "cmaes")
    throw TuneError("--method " + s.method + ": unknown; allowed: spsa, cmaes");
  if (rq.params.empty())
    throw TuneError("no --param: name at least one parameter to tune (NAME or NAME=LO:HI)");
  std::set<std::string> seen;
  for (const auto& word : rq.params) {
    const auto eq = word.find('=');
    const std::string name = word.substr(0, eq);
    const ParamSpec* spec = nullptr;
    for (const auto& p : specs)
      if (p.name == name) spec = &p;
    if (!spec) {
      std::string names;
      for (const auto& p : specs)
        if (p.type != ParamType::boolean) names += (names.empty() ? "" : ", ") + p.name;
      throw TuneError("--param " + word + ": " + s.strategy + " has no " + s.game +
                      " parameter '" + name + "'; its numeric parameters: " + names);
    }
    if (spec->type == ParamType::boolean)
      throw TuneError("--param " + word + ": '" + name +
                      "' is a boolean; tune only integer and real parameters (compare both "
                      "settings with tactica bench or tourney instead)");
    if (!seen.insert(name).second) throw TuneError("--param " + name + " is given twice");
    TunedParam t;
    t.name = name;
    t.type = spec->type;
    t.decl_min = spec->min;
    t.decl_max = spec->max;
    t.lo = spec->min;
    t.hi = spec->max;
    const std::string allowed = describe_param_type(*spec);
    if (eq != std::string::npos) {
      const std::string range = word.substr(eq + 1);
      const auto colon = range.find(':');
      if (colon == std::string::npos || !parse_number(range.substr(0, colon), t.lo) ||
          !parse_number(range.substr(colon + 1), t.hi))
        throw TuneError("--param " + word + ": expected NAME=LO:HI with numbers, e.g. " + name +
                        "=" + shortest(spec->min) + ":" + shortest(spec->max));
      if (t.integer() && (t.lo != std::floor(t.lo) || t.hi != std::floor(t.hi)))
        throw TuneError("--param " + word + ": '" + name + "' is an integer; give whole bounds");
      if (t.lo >= t.hi)
        throw TuneError("--param " + word + ": LO must be below HI");
      if (t.lo < spec->min || t.hi > spec->max)
        throw TuneError("--param " + word + ": " + shortest(t.lo) + ".." + shortest(t.hi) +
                        " is outside the declared range; allowed: " + allowed);
    }
    if (t.hi <= t.lo) throw TuneError("--param " + word + ": the declared range is a single value");
    const double v = base.cfg.params.real(name);
    t.start = std::clamp(v, t.lo, t.hi);
    if (t.start != v)
      std::fprintf(stderr, "tactica tune: %s = %s in %s is outside %s..%s; starting at %s\n",
                   name.c_str(), shortest(v).c_str(), rq.config.c_str(), shortest(t.lo).c_str(),
                   shortest(t.hi).c_str(), shortest(t.start).c_str());
    s.params.push_back(t);
  }

  try {
    s.seeds = harness::parse_seeds(s.seeds_text);
  } catch (const harness::RunError& e) {
    throw TuneError(std::string("--seeds: ") + e.what());
  }
  if (s.batch == 0) s.batch = std::min<std::size_t>(8, s.seeds.size());
  if (s.batch > s.seeds.size())
    throw TuneError("--batch " + std::to_string(s.batch) + " is more than the " +
                    std::to_string(s.seeds.size()) + " seeds of --seeds " + s.seeds_text);
  if (s.iterations < 1) throw TuneError("--iterations must be at least 1");
  if (s.method == "cmaes" && s.population != 0 && s.population < 5)
    throw TuneError("--population " + std::to_string(s.population) +
                    ": CMA-ES (pagmo) needs at least 5");
  if (!(s.spsa_a > 0) || !(s.spsa_c > 0) || s.spsa_c > 0.5 || s.spsa_A < 0 || !(s.sigma0 > 0) ||
      s.sigma0 > 1 || s.scale < 0)
    throw TuneError(
        "schedule out of range: need --spsa-a > 0, 0 < --spsa-c <= 0.5, --spsa-A >= 0, "
        "0 < --sigma0 <= 1, --scale >= 0");

  if (s.game == "hanpang" && !rq.opponents.empty())
    throw TuneError("--opponent is for Icebreaking; a Hanpang candidate plays alone");
  for (const auto& o : rq.opponents) {
    std::string word = o;
    if (fs::path(o).extension() == ".toml") {
      if (!fs::exists(o, ec))
        throw TuneError("--opponent " + o +
                        ": no such file (paths are relative to the current directory)");
      word = fs::absolute(o).lexically_normal().string();
      const auto c = check_config(word, {}, s.plugin_dirs);
      if (game_name(c.cfg.game) != s.game)
        throw TuneError("--opponent " + o + " is a " + game_name(c.cfg.game) + " config; " +
                        rq.config + " is " + s.game);
    }
    try {
      harness::resolve_agent(word, harness::self_dir(), s.game);
    } catch (const harness::AgentError& e) {
      throw TuneError("--opponent " + o + ": " + e.what());
    }
    s.opponents.push_back(word);
  }
  // The candidates' own check: the start values and the node budget set as the run sets them.
  std::vector<std::string> sets;
  for (const auto& p : s.params) sets.push_back("params." + p.name + "=" + p.text(p.played(p.start)));
  if (s.node_budget) sets.push_back("time.node_budget=" + std::to_string(s.node_budget));
  check_config(s.config, sets, s.plugin_dirs);
  return s;
}

}  // namespace tactica::tune
