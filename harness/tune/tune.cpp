// tune.cpp — running a tuning run (tune.hpp): the run directory, SPSA, CMA-ES through pagmo,
// best.toml and the report at the end.
#include "tune/tune.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/s11n.hpp>
#include <sstream>

#include "judge/agent.hpp"
#include "runner/runner.hpp"
#include "tactica/config.hpp"
#include "tactica/loader.hpp"
#include "tactica/rng.hpp"
#include "tune/backend.hpp"

namespace tactica::tune {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Values = std::vector<double>;  // one per tuned parameter, in spec order

// Ctrl-C / SIGTERM between games (while games run, the runner's own handler stops them): the
// run ends cleanly at the next step boundary.
std::atomic<bool> g_stop{false};
extern "C" void on_tune_stop(int sig) {
  g_stop.store(true);
  ::signal(sig, SIG_DFL);  // a second one ends tactica at once
}

json values_json(const TuneSpec& s, const Values& v) {
  json j = json::object();
  for (std::size_t i = 0; i < s.params.size(); ++i) j[s.params[i].name] = v[i];
  return j;
}

Values values_from(const TuneSpec& s, const json& j, const std::string& where) {
  Values v;
  for (const auto& p : s.params) {
    if (!j.is_object() || !j.contains(p.name) || !j[p.name].is_number())
      throw TuneError(where + ": no value of " + p.name);
    v.push_back(j[p.name].get<double>());
  }
  return v;
}

std::string values_text(const TuneSpec& s, const Values& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out += (i ? " " : "") + s.params[i].name + "=" + s.params[i].text(s.params[i].played(v[i]));
  return out;
}

bool is_fault(const std::string& verdict) {
  return verdict == "TIME_LIMIT" || verdict == "INVALID" || verdict == "RUNTIME_ERROR" ||
         verdict == "CPU_LIMIT";
}

std::string fmt(double v, int digits = 1) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

// ---- the run directory ---------------------------------------------------------------------

class RunDir {
 public:
  RunDir(const std::string& dir, bool resume) : dir_(dir) {
    std::error_code ec;
    if (resume) {
      if (!fs::is_directory(dir, ec))
        throw TuneError("--resume " + dir + ": no such directory (paths are relative to the "
                        "current directory)");
      if (!fs::exists(file("run.json"), ec))
        throw TuneError("--resume " + dir + ": holds no run.json, so no tune run to continue");
    } else if (fs::exists(dir, ec)) {
      if (fs::exists(file("run.json"), ec))
        throw TuneError("--out " + dir + " holds another tune run: continue it with --resume " +
                        dir + ", or choose another --out");
      if (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec))
        throw TuneError("--out " + dir + " exists and is not an empty directory: choose another");
    } else {
      fs::create_directories(dir, ec);
      if (ec) throw TuneError("--out " + dir + ": cannot create it: " + ec.message());
    }
    lock_ = ::open(file("lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_ < 0 || ::flock(lock_, LOCK_EX | LOCK_NB) != 0)
      throw TuneError(dir + " is in use by another tactica tune (its lock is held): wait for it "
                      "to end, or use another directory");
  }
  ~RunDir() {
    if (lock_ >= 0) ::close(lock_);
  }
  std::string file(const std::string& name) const { return (fs::path(dir_) / name).string(); }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  int lock_ = -1;
};

void write_atomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
  }
  fs::rename(tmp, path);
}

// JSON Lines read back: every complete line; a torn last line (no '\n') is named and cut off.
std::vector<json> read_lines(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    ++line_no;
    if (nl == std::string::npos) {
      std::fprintf(stderr, "tactica tune: %s:%zu: dropping a torn last line (a run stopped while "
                   "writing it)\n", path.c_str(), line_no);
      fs::resize_file(path, pos);
      break;
    }
    try {
      out.push_back(json::parse(text.substr(pos, nl - pos)));
    } catch (const std::exception& e) {
      throw TuneError(path + ":" + std::to_string(line_no) + ": not JSON (" + e.what() +
                      "); the run directory is damaged");
    }
    pos = nl + 1;
  }
  return out;
}

class LineWriter {
 public:
  explicit LineWriter(const std::string& path) : f_(std::fopen(path.c_str(), "ab")) {
    if (!f_) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  }
  ~LineWriter() { std::fclose(f_); }
  void append(const json& j) {
    const auto s = j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    if (std::fwrite(s.data(), 1, s.size(), f_) != s.size() || std::fflush(f_) != 0)
      throw std::runtime_error(std::string("cannot append a line: ") + std::strerror(errno));
  }

 private:
  std::FILE* f_;
};

// ---- the tuner ----------------------------------------------------------------------------

struct Objective {
  double value = 0;  // Hanpang: mean score; Icebreaking: mean points
  std::size_t games = 0, faults = 0;
};

class Tuner {
 public:
  Tuner(const TuneSpec& spec, const RunnerOptions& opt, RunDir& dir)
      : s_(spec), opt_(opt), dir_(dir) {
    const auto tactica_dir = harness::self_dir();
    base_ = harness::resolve_agent(s_.config, tactica_dir, s_.game);
    for (std::size_t i = 0; i < s_.opponents.size(); ++i) {
      opponents_.push_back(harness::resolve_agent(s_.opponents[i], tactica_dir, s_.game));
      opponents_.back().label = "opponent" + std::to_string(i + 1);
    }
    for (const auto& g : read_lines(dir_.file("games.jsonl"))) {
      auto o = GameOutcome::from_json(g, dir_.file("games.jsonl"));
      cache_[o.key] = o;
    }
    history_ = read_lines(dir_.file("history.jsonl"));
    if (opt_.sshlogin.empty())
      backend_ = local_backend(opt_.workers, s_.limits);
    else
      backend_ = parallel_backend(opt_.sshlogin, opt_.workers, s_.limits,
                                  tactica_dir / "tactica");
    // The plugin, for best.toml.
    std::vector<fs::path> dirs(s_.plugin_dirs.begin(), s_.plugin_dirs.end());
    info_ = load_plugin(load_config(s_.config).strategy, plugin_search_path(dirs)).info();
  }

  int run() {
    games_ = std::make_unique<LineWriter>(dir_.file("games.jsonl"));
    const std::size_t total = static_cast<std::size_t>(s_.iterations) * s_.games_per_step();
    if (opt_.progress) progress_ = std::make_unique<harness::Progress>(total, ::isatty(2));
    std::fprintf(stderr,
                 "tune: %s of %zu parameter%s of %s (%s), %d steps of %zu games on %s%s; run in %s\n",
                 s_.method == "spsa" ? "SPSA" : "CMA-ES", s_.params.size(),
                 s_.params.size() == 1 ? "" : "s", s_.config.c_str(), s_.game.c_str(),
                 s_.iterations, s_.games_per_step(), backend_->describe().c_str(),
                 s_.node_budget ? (", node budget " + std::to_string(s_.node_budget)).c_str()
                                : ", on the clock",
                 dir_.dir().c_str());
    // On the clock and on this machine: say so if other work will slow the candidates down.
    if (!s_.node_budget && opt_.sshlogin.empty())
      if (auto w = harness::busy_warning(opt_.workers); !w.empty())
        std::fprintf(stderr, "%s\n", w.c_str());
    const bool done = s_.method == "spsa" ? run_spsa() : run_cmaes();
    if (progress_) progress_->finish();
    write_plot();
    if (!done) {
      std::fprintf(stderr,
                   "interrupted after %zu of %d steps (%zu games kept); continue with: tactica "
                   "tune --resume %s\n",
                   history_.size(), s_.iterations, cache_.size(), dir_.dir().c_str());
      return 130;
    }
    report();
    return 0;
  }

 private:
  // ---- games ----
  harness::AgentSpec candidate(const Values& v, const std::string& label) const {
    harness::AgentSpec a = base_;
    a.label = label;
    std::vector<std::string> extra;
    for (const auto& d : s_.plugin_dirs) extra.insert(extra.end(), {"--plugin-dir", d});
    for (std::size_t i = 0; i < v.size(); ++i)
      extra.insert(extra.end(),
                   {"--set", "params." + s_.params[i].name + "=" + s_.params[i].text(v[i])});
    if (s_.node_budget)
      extra.insert(extra.end(), {"--set", "time.node_budget=" + std::to_string(s_.node_budget)});
    a.argv.insert(a.argv.end(), extra.begin(), extra.end());
    return a;
  }

  std::vector<std::uint64_t> step_seeds(std::size_t k) const {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < s_.batch; ++i)
      out.push_back(s_.seeds[(k * s_.batch + i) % s_.seeds.size()]);
    return out;
  }

  // Plays the jobs not in the cache. False when interrupted.
  bool play(const std::vector<GameJob>& jobs) {
    std::vector<GameJob> todo;
    for (const auto& j : jobs)
      if (!cache_.count(j.key)) todo.push_back(j);
    played_before_ += jobs.size() - todo.size();
    const bool ok = backend_->play(
        todo,
        [&](const GameOutcome& g) {
          games_->append(g.to_json());
          cache_[g.key] = g;
          ++played_before_;
          if (progress_) progress_->update(played_before_, note_);
        },
        nullptr);
    return ok;
  }

  // Candidate `label`'s objective over its games in `jobs` (the keys say which side it was).
  Objective objective_of(const std::vector<GameJob>& jobs, const std::string& label) const {
    Objective o;
    double sum = 0;
    for (const auto& j : jobs) {
      const auto& g = cache_.at(j.key);
      if (!j.icebreaking) {
        if (j.agents[0].label != label) continue;
        sum += static_cast<double>(g.score);
        ++o.games;
        o.faults += is_fault(g.verdict);
      } else {
        const int side = j.agents[0].label == label ? 0 : j.agents[1].label == label ? 1 : -1;
        if (side < 0) continue;
        sum += side == 0 ? g.first_points() : 1.0 - g.first_points();
        ++o.games;
        // A fault is this candidate's when it lost the game by it.
        const bool lost = (side == 0 && g.winner == "second") || (side == 1 && g.winner == "first");
        o.faults += lost && is_fault(g.verdict);
      }
    }
    o.value = o.games ? sum / static_cast<double>(o.games) : 0;
    return o;
  }

  // Every game of `a` against `b` on each seed, both sides.
  void add_pairs(std::vector<GameJob>& jobs, const std::string& prefix,
                 const harness::AgentSpec& a, const harness::AgentSpec& b,
                 const std::vector<std::uint64_t>& seeds) const {
    for (auto seed : seeds) {
      jobs.push_back({prefix + "/" + a.label + "-" + b.label + "/s" + std::to_string(seed), true,
                      {a, b}, seed});
      jobs.push_back({prefix + "/" + b.label + "-" + a.label + "/s" + std::to_string(seed), true,
                      {b, a}, seed});
    }
  }

  void warn_faults(std::size_t step, std::size_t faults) const {
    if (faults)
      std::fprintf(stderr,
                   "\ntune: step %zu: %zu game%s lost to a fault (time, invalid move, crash): "
                   "see %s\n",
                   step, faults, faults == 1 ? "" : "s", dir_.file("games.jsonl").c_str());
  }

  // ---- SPSA ----
  bool run_spsa() {
    Values theta;
    for (const auto& p : s_.params) theta.push_back(p.start);
    if (!history_.empty()) theta = values_from(s_, history_.back().at("theta_after"), "history.jsonl");
    const double N = s_.iterations;
    const double A = s_.spsa_A * N;
    played_before_ = history_.size() * s_.games_per_step();
    for (std::size_t k = history_.size(); k < static_cast<std::size_t>(s_.iterations); ++k) {
      if (g_stop.load()) return false;
      const auto t0 = std::chrono::steady_clock::now();
      Values c(theta.size()), a(theta.size()), delta(theta.size()), plus(theta.size()),
          minus(theta.size());
      const double ck = 1.0 / std::pow(static_cast<double>(k) + 1, s_.gamma);
      const double ak = std::pow((A + 1) / (A + static_cast<double>(k) + 1), s_.alpha);
      for (std::size_t i = 0; i < theta.size(); ++i) {
        const auto& p = s_.params[i];
        c[i] = s_.spsa_c * p.range() * ck;
        if (p.integer()) c[i] = std::max(c[i], 1.0);  // else rounding could erase the perturbation
        // a[i]: how far theta moves for a result of 1 (standard SPSA's a_k / c_k).
        a[i] = s_.spsa_a * p.range() * ak / ck;
        std::uint64_t sign_seed = s_.rng_seed * 1000003ULL + k * 7919ULL + i;
        delta[i] = (splitmix64(sign_seed) & 1) ? 1.0 : -1.0;
        plus[i] = p.played(theta[i] + c[i] * delta[i]);
        minus[i] = p.played(theta[i] - c[i] * delta[i]);
      }
      const auto seeds = step_seeds(k);
      note_ = "step " + std::to_string(k + 1) + "/" + std::to_string(s_.iterations) + " " +
              values_text(s_, theta);
      const std::string prefix = "k" + std::to_string(k);
      const auto ap = candidate(plus, "plus"), am = candidate(minus, "minus");
      std::vector<GameJob> jobs;
      if (s_.game == "hanpang") {
        for (auto seed : seeds)
          for (const auto* cand : {&ap, &am})
            jobs.push_back({prefix + "/" + cand->label + "/s" + std::to_string(seed), false,
                            {*cand}, seed});
      } else if (opponents_.empty()) {
        add_pairs(jobs, prefix, ap, am, seeds);
      } else {
        for (const auto* cand : {&ap, &am})
          for (const auto& opp : opponents_) add_pairs(jobs, prefix, *cand, opp, seeds);
      }
      const harness::LoadMeter load;  // other work while this step's games are played
      if (!play(jobs)) return false;
      const auto others = step_load(load, k + 1);

      const auto fp = objective_of(jobs, "plus"), fm = objective_of(jobs, "minus");
      double scale = 1, result;
      if (s_.game == "hanpang") {
        scale = s_.scale > 0 ? s_.scale
                : k == 0     ? std::max(1.0, 0.01 * (fp.value + fm.value) / 2)
                             : history_.front().at("scale").get<double>();
        result = std::clamp((fp.value - fm.value) / scale, -3.0, 3.0);
      } else {
        result = fp.value - fm.value;  // self-play: 2 * (plus's score) - 1
      }
      Values after(theta.size());
      for (std::size_t i = 0; i < theta.size(); ++i) {
        const auto& p = s_.params[i];
        after[i] = std::clamp(theta[i] + a[i] * result * delta[i], p.lo, p.hi);
      }
      json line{{"step", k + 1},
                {"method", "spsa"},
                {"seeds", seeds},
                {"theta", values_json(s_, theta)},
                {"c", values_json(s_, c)},
                {"a", values_json(s_, a)},
                {"delta", values_json(s_, delta)},
                {"plus", values_json(s_, plus)},
                {"minus", values_json(s_, minus)},
                {"f_plus", fp.value},
                {"f_minus", fm.value},
                {"result", result},
                {"theta_after", values_json(s_, after)},
                {"games", fp.games + (s_.game == "hanpang" || !opponents_.empty() ? fm.games : 0)},
                {"faults", fp.faults + fm.faults},
                {"time_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
      if (s_.game == "hanpang") line["scale"] = scale;
      if (others) line["others_load"] = *others;
      warn_faults(k + 1, fp.faults + fm.faults);
      append_history(line);
      theta = after;
      write_best(theta, "SPSA", k + 1);
    }
    return true;
  }

  // ---- CMA-ES (pagmo) ----
  // The problem pagmo sees: 0..1 in every dimension. It either records the points asked for (a
  // dry run on a copy of the algorithm, to learn the generation's candidates before playing
  // them all at once) or answers with the fitness computed for them, in the same order.
  struct Table {
    bool record = true;
    std::vector<pagmo::vector_double> asked;
    std::vector<double> fitness;
    std::size_t next = 0;
  };
  struct Udp {
    std::shared_ptr<Table> table;
    std::size_t dim = 1;
    pagmo::vector_double fitness(const pagmo::vector_double& x) const {
      if (table->record) {
        table->asked.push_back(x);
        return {0.0};
      }
      const std::size_t i = table->next++;
      if (i >= table->fitness.size() || table->asked[i] != x)
        throw std::logic_error("CMA-ES asked for other points than in its dry run");
      return {table->fitness[i]};
    }
    std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
      return {pagmo::vector_double(dim, 0.0), pagmo::vector_double(dim, 1.0)};
    }
  };

  Values denorm(const pagmo::vector_double& x) const {
    Values v;
    for (std::size_t i = 0; i < x.size(); ++i)
      v.push_back(s_.params[i].played(s_.params[i].lo + x[i] * s_.params[i].range()));
    return v;
  }

  struct CmaState {
    std::size_t generation = 0;
    pagmo::algorithm algo;
    std::vector<pagmo::vector_double> x;
    std::vector<double> f;
  };

  void save_state(const CmaState& st) const {
    std::ostringstream os;
    {
      boost::archive::text_oarchive oa(os);
      oa << st.algo;
    }
    json j{{"generation", st.generation}, {"algorithm", os.str()}, {"x", st.x}, {"f", st.f}};
    write_atomic(dir_.file("cmaes.state"), j.dump() + "\n");
  }

  CmaState load_state() const {
    CmaState st;
    std::ifstream in(dir_.file("cmaes.state"), std::ios::binary);
    if (!in) {  // a new run: pagmo's CMA-ES, one generation per evolve(), remembering its state
      st.algo = pagmo::algorithm{pagmo::cmaes(1u, -1, -1, -1, -1, s_.sigma0, 0.0, 0.0, true, true,
                                              static_cast<unsigned>(s_.rng_seed))};
      pagmo::vector_double x0;
      for (const auto& p : s_.params) x0.push_back((p.start - p.lo) / p.range());
      st.x.assign(static_cast<std::size_t>(s_.population_size()), x0);
      st.f.assign(st.x.size(), 0.0);
      return st;
    }
    try {
      const auto j = json::parse(in);
      st.generation = j.at("generation");
      std::istringstream is(j.at("algorithm").get<std::string>());
      boost::archive::text_iarchive ia(is);
      ia >> st.algo;
      st.x = j.at("x").get<std::vector<pagmo::vector_double>>();
      st.f = j.at("f").get<std::vector<double>>();
    } catch (const std::exception& e) {
      throw TuneError(dir_.file("cmaes.state") + " cannot be read (" + e.what() +
                      "); the run directory is damaged");
    }
    return st;
  }

  pagmo::population make_pop(const std::shared_ptr<Table>& t, const CmaState& st) const {
    pagmo::population pop(pagmo::problem{Udp{t, s_.params.size()}}, 0u, 1u);
    for (std::size_t i = 0; i < st.x.size(); ++i) pop.push_back(st.x[i], {st.f[i]});
    return pop;
  }

  bool run_cmaes() {
    CmaState st = load_state();
    // history.jsonl may hold a generation the state does not (stopped between the two writes):
    // it is played again from the games kept, giving the same line.
    if (history_.size() > st.generation) {
      history_.resize(st.generation);
      std::string text;
      for (const auto& h : history_) text += h.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
      write_atomic(dir_.file("history.jsonl"), text);
    }
    if (history_.size() < st.generation)
      throw TuneError(dir_.file("history.jsonl") + " has fewer generations than cmaes.state; the "
                      "run directory is damaged");
    played_before_ = st.generation * s_.games_per_step();
    Values mean;
    for (const auto& p : s_.params) mean.push_back(p.start);
    if (!history_.empty()) mean = values_from(s_, history_.back().at("mean"), "history.jsonl");
    const int lam = s_.population_size();
    for (std::size_t g = st.generation; g < static_cast<std::size_t>(s_.iterations); ++g) {
      if (g_stop.load()) return false;
      const auto t0 = std::chrono::steady_clock::now();
      auto table = std::make_shared<Table>();
      {
        pagmo::algorithm dry = st.algo;
        dry.evolve(make_pop(table, st));
      }
      if (table->asked.size() != static_cast<std::size_t>(lam))
        throw std::logic_error("CMA-ES asked for " + std::to_string(table->asked.size()) +
                               " points, not " + std::to_string(lam));
      const auto seeds = step_seeds(g);
      note_ = "gen " + std::to_string(g + 1) + "/" + std::to_string(s_.iterations) + " mean " +
              values_text(s_, mean);
      const std::string prefix = "g" + std::to_string(g);
      std::vector<harness::AgentSpec> cands;
      std::vector<Values> vals;
      for (int i = 0; i < lam; ++i) {
        vals.push_back(denorm(table->asked[static_cast<std::size_t>(i)]));
        cands.push_back(candidate(vals.back(), "c" + std::to_string(i)));
      }
      // Icebreaking without --opponent: against the config as it started.
      std::vector<harness::AgentSpec> opps = opponents_;
      if (s_.game == "icebreaking" && opps.empty()) {
        Values start;
        for (const auto& p : s_.params) start.push_back(p.played(p.start));
        opps.push_back(candidate(start, "start"));
      }
      std::vector<GameJob> jobs;
      for (const auto& c : cands) {
        if (s_.game == "hanpang") {
          for (auto seed : seeds)
            jobs.push_back({prefix + "/" + c.label + "/s" + std::to_string(seed), false, {c}, seed});
        } else {
          for (const auto& o : opps) add_pairs(jobs, prefix, c, o, seeds);
        }
      }
      const harness::LoadMeter load;  // other work while this generation's games are played
      if (!play(jobs)) return false;
      const auto others = step_load(load, g + 1);

      json cand_lines = json::array();
      std::size_t faults = 0, games = 0;
      table->record = false;
      table->fitness.clear();
      std::size_t best = 0;
      std::vector<double> obj;
      for (int i = 0; i < lam; ++i) {
        const auto o = objective_of(jobs, cands[static_cast<std::size_t>(i)].label);
        obj.push_back(o.value);
        faults += o.faults;
        games += o.games;
        // pagmo minimises; the tiny index term makes every fitness distinct, so the elite's
        // order (and the mean computed below) is the one pagmo uses.
        table->fitness.push_back(-o.value + 1e-9 * i);
        if (o.value > obj[best]) best = static_cast<std::size_t>(i);
        cand_lines.push_back({{"values", values_json(s_, vals[static_cast<std::size_t>(i)])},
                              {"x", table->asked[static_cast<std::size_t>(i)]},
                              {"objective", o.value},
                              {"games", o.games},
                              {"faults", o.faults}});
      }
      auto pop = st.algo.evolve(make_pop(table, st));
      // The distribution's new mean: CMA-ES's weighted recombination of the best half.
      std::vector<std::size_t> idx(static_cast<std::size_t>(lam));
      std::iota(idx.begin(), idx.end(), 0);
      std::sort(idx.begin(), idx.end(),
                [&](std::size_t x, std::size_t y) { return table->fitness[x] < table->fitness[y]; });
      const std::size_t mu = static_cast<std::size_t>(lam) / 2;
      std::vector<double> w(mu);
      for (std::size_t i = 0; i < mu; ++i)
        w[i] = std::log(static_cast<double>(mu) + 0.5) - std::log(static_cast<double>(i) + 1);
      const double wsum = std::accumulate(w.begin(), w.end(), 0.0);
      pagmo::vector_double m(s_.params.size(), 0.0);
      for (std::size_t i = 0; i < mu; ++i)
        for (std::size_t d = 0; d < m.size(); ++d) m[d] += w[i] / wsum * table->asked[idx[i]][d];
      mean = denorm(m);

      st.generation = g + 1;
      st.x = pop.get_x();
      st.f.clear();
      for (const auto& f : pop.get_f()) st.f.push_back(f[0]);
      json line{{"step", g + 1},
                {"method", "cmaes"},
                {"seeds", seeds},
                {"candidates", cand_lines},
                {"best", {{"values", values_json(s_, vals[best])}, {"objective", obj[best]}}},
                {"mean_objective", std::accumulate(obj.begin(), obj.end(), 0.0) / lam},
                {"mean", values_json(s_, mean)},
                {"games", games},
                {"faults", faults},
                {"time_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
      if (others) line["others_load"] = *others;
      warn_faults(g + 1, faults);
      append_history(line);
      save_state(st);
      write_best(mean, "CMA-ES (pagmo)", g + 1);
    }
    return true;
  }

  // On the clock and on this machine: the cores other processes used on average while a step's
  // games were played (history.jsonl's others_load), with a warning when that would have slowed
  // its candidates down. nullopt on a node budget, through GNU parallel, or unmeasured.
  std::optional<double> step_load(const harness::LoadMeter& load, std::size_t step) const {
    if (s_.node_budget || !opt_.sshlogin.empty()) return std::nullopt;
    const auto others = load.others();
    if (!others) return std::nullopt;
    const std::string w = harness::busy_message(*others, harness::core_count(), opt_.workers, 0.5,
                                                "step " + std::to_string(step));
    if (!w.empty()) std::fprintf(stderr, "\ntune: %s\n", w.c_str());
    return std::round(*others * 1000) / 1000;
  }

  // ---- outputs ----
  void append_history(const json& line) {
    LineWriter(dir_.file("history.jsonl")).append(line);
    history_.push_back(line);
    write_plot();
  }

  // Seeds above the training ones and clear of the ones this project reports on (1-30, 501-600),
  // so a user who checks after every tune does not pick a config by the report seeds. Hanpang:
  // 300 seeds, since a paired difference of a few hundred points a game needs hundreds of games.
  std::string check_command() const {
    std::uint64_t top = 0;
    for (auto x : s_.seeds) top = std::max(top, x);
    const std::uint64_t from = std::max<std::uint64_t>(1001, (top / 100 + 1) * 100 + 1);
    if (s_.game == "hanpang")
      return "tactica bench --agent " + s_.config + " --agent " + dir_.file("best.toml") +
             " --seeds " + std::to_string(from) + "-" + std::to_string(from + 299);
    return "tactica tourney --agent " + dir_.file("best.toml") + " --agent " + s_.config +
           " --seeds " + std::to_string(from) + "-" + std::to_string(from + 99) +
           " --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05";
  }

  void write_best(const Values& v, const std::string& how, std::size_t steps) const {
    std::vector<std::string> sets;
    for (std::size_t i = 0; i < v.size(); ++i)
      sets.push_back("params." + s_.params[i].name + "=" + s_.params[i].text(s_.params[i].played(v[i])));
    auto cfg = load_config(s_.config, sets);
    resolve_params(cfg, info_);
    std::string ranges;
    for (const auto& p : s_.params)
      ranges += (ranges.empty() ? "" : ", ") + p.name + " " + p.text(p.lo) + ".." + p.text(p.hi);
    const std::vector<std::string> header{
        "Made by tactica tune (" + how + ") from " + s_.config + ":",
        std::to_string(steps) + " of " + std::to_string(s_.iterations) + " steps, " +
            std::to_string(s_.batch) + " seeds a step from " + s_.seeds_text +
            (s_.node_budget ? ", node budget " + std::to_string(s_.node_budget) : ", on the clock") +
            (s_.opponents.empty() ? "" : ", against --opponent"),
        "tuned: " + ranges,
        "values: " + values_text(s_, v),
        "Check it on seeds it was not tuned on: " + check_command()};
    write_atomic(dir_.file("best.toml"), resolved_toml(cfg, info_, header));
  }

  void write_plot() const {
    if (opt_.plot.empty() || history_.empty()) return;
    if (const auto dir = fs::path(opt_.plot).parent_path(); !dir.empty()) {
      std::error_code ec;
      fs::create_directories(dir, ec);
    }
    write_atomic(opt_.plot, history_svg(s_, history_));
  }

  void report() const {
    const auto& last = history_.back();
    const Values end = values_from(s_, last.at(s_.method == "spsa" ? "theta_after" : "mean"), "history");
    std::printf("tune: %s, %zu steps, %zu games (%s)\n", s_.method == "spsa" ? "SPSA" : "CMA-ES",
                history_.size(), cache_.size(), s_.config.c_str());
    std::printf("  %-20s %12s %12s %20s\n", "parameter", "start", "tuned", "range");
    for (std::size_t i = 0; i < s_.params.size(); ++i) {
      const auto& p = s_.params[i];
      std::printf("  %-20s %12s %12s %20s\n", p.name.c_str(), p.text(p.played(p.start)).c_str(),
                  p.text(p.played(end[i])).c_str(), (p.text(p.lo) + ".." + p.text(p.hi)).c_str());
    }
    // The objective over the last tenth of the run against the first tenth.
    const std::size_t n = history_.size(), tenth = std::max<std::size_t>(1, n / 10);
    auto level = [&](std::size_t from, std::size_t to) {
      double sum = 0;
      for (std::size_t i = from; i < to; ++i) sum += step_objective(s_, history_[i]);
      return sum / static_cast<double>(to - from);
    };
    const char* what = s_.game == "hanpang" ? "mean score" : s_.method == "spsa" && s_.opponents.empty()
                                                                 ? "plus-minus result"
                                                                 : "mean points";
    std::printf("  %s: first %zu steps %s, last %zu steps %s\n", what, tenth,
                fmt(level(0, tenth), s_.game == "hanpang" ? 0 : 3).c_str(), tenth,
                fmt(level(n - tenth, n), s_.game == "hanpang" ? 0 : 3).c_str());
    std::printf("best config: %s\n", dir_.file("best.toml").c_str());
    std::printf("check it on other seeds: %s\n", check_command().c_str());
  }

 public:
  static double step_objective(const TuneSpec& s, const json& h) {
    if (h.at("method") == "spsa")
      return s.game == "icebreaking" && s.opponents.empty()
                 ? h.at("result").get<double>()
                 : (h.at("f_plus").get<double>() + h.at("f_minus").get<double>()) / 2;
    return h.at("mean_objective").get<double>();
  }

 private:
  const TuneSpec& s_;
  const RunnerOptions& opt_;
  RunDir& dir_;
  harness::AgentSpec base_;
  std::vector<harness::AgentSpec> opponents_;
  std::map<std::string, GameOutcome> cache_;
  std::vector<json> history_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<LineWriter> games_;
  std::unique_ptr<harness::Progress> progress_;
  PluginInfo info_;
  std::size_t played_before_ = 0;
  std::string note_;
};

}  // namespace

double history_objective(const TuneSpec& s, const json& h) { return Tuner::step_objective(s, h); }

int run_tune(const TuneSpec* fresh, const RunnerOptions& opt) {
  RunDir dir(opt.dir, opt.resume);
  TuneSpec spec;
  if (opt.resume) {
    std::ifstream in(dir.file("run.json"));
    json j;
    try {
      j = json::parse(in);
    } catch (const std::exception& e) {
      throw TuneError(dir.file("run.json") + ": not JSON (" + e.what() + ")");
    }
    spec = TuneSpec::from_json(j);
    if (!fs::exists(spec.config))
      throw TuneError(dir.file("run.json") + " tunes " + spec.config + ", which no longer exists");
    if (read_text(spec.config) != spec.config_text)
      throw TuneError(spec.config + " changed since this run began (its text is in " +
                      dir.file("run.json") + "): restore it to continue, or start a new run");
  } else {
    spec = *fresh;
    write_atomic(dir.file("run.json"), spec.to_json().dump(2) + "\n");
  }
  Tuner t(spec, opt, dir);
  g_stop.store(false);
  harness::StopSignals stop(on_tune_stop);
  return t.run();
}

}  // namespace tactica::tune
