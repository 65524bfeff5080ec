// tactica-hanpang-fit — what a Hanpang board is worth to the player that plays it: the points a
// config's strategy still makes from each position of its own games, regressed on board terms.
// For analysis and tuning only; it plays nothing on the platform.
//
//   tactica-hanpang-fit --seeds 2001-2400 [--config configs/hanpang/submit.toml]
//                       [--play-budget 40000] [--holdout 2371-2400] [--jobs N] [--out FILE.csv]
//   tactica-hanpang-fit --from FILE.csv [--holdout SET] [--terms a,b,x@late,...] [--left LO-HI]
//
// Step 1 (unless --from): the config's strategy plays every seed's rows (hanpang::RowSource, as
// the judge draws them) in-process at --play-budget nodes a move: the games `tactica bench`
// plays with that node budget, move for move (its test checks it). Every decision position
// (the row of the turn pushed, as the strategy sees it) is kept with every board term below and,
// as the target, the points the game went on to make from there (final score - score so far).
// Rows go to --out as CSV.
// Step 2: least squares of the target on the chosen terms and one intercept per ten actions
// left (the points the time left is worth, whatever the board: they do not rank boards of one
// search, which all have the same actions left), over positions with --left actions left,
// fitted on the seeds outside --holdout. It prints the weights and the held-out error beside the
// config's own evaluation (the term `eval`, its value less the score, with the intercepts):
// a term that lowers the held-out error knows something about the board's future that the
// evaluation does not.
//
// A term `x@late` is x times max(0, 1 - left / 100): x's weight changing through the game.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "beam/params.hpp"
#include "fit/ols.hpp"
#include "fit/tool.hpp"
#include "games/hanpang/eval.hpp"
#include "runner/runner.hpp"
#include "tactica/config.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/static_plugins.hpp"

namespace {

using namespace tactica;
namespace common = tactica::plugins::common;

constexpr const char* kTermNames[] = {
    "eval",     "tiles",     "groups",    "singletons", "sum_sq",     "in_groups", "vgaps",
    "hgaps",    "danger",    "danger3",   "bridge_sq",  "colour_sq",  "collapse_sq",
    "reserve_sq", "bump",    "feed",      "max_sq",     "second_sq",  "loose",     "loose_sq",
    "max_height", "high_cols", "low_big", "top_big"};
constexpr int kTerms = static_cast<int>(std::size(kTermNames));
constexpr int kBuckets = 20;  // intercepts: actions left 1-10, 11-20, ..., 191-200

struct Row {
  std::uint64_t seed = 0;
  int actions = 0, left = 0;
  double target = 0;
  std::array<double, kTerms> x{};
};

using fit::die;

// Every term of a decision position (see kTermNames). `eval` is the evaluation with weights w
// (the config's, for the beam plugin; the defaults for another) less the score; the rest are
// the evaluation's features (games/hanpang/eval.hpp) and these:
//   second_sq: k^2 of the second largest group;
//   loose / loose_sq: tiles of the most numerous colour outside its largest group (and squared):
//     the part of the reserve mass not yet joined;
//   max_height, high_cols: the tallest column, and the columns of 13 tiles or more;
//   low_big / top_big: tiles of the largest group in the bottom row / its highest height.
std::array<double, kTerms> terms(const hanpang::State& s, const common::HanpangWeights& w) {
  using namespace hanpang;
  std::array<int, kRows * kCols> sizes{};
  int n = 0;
  const common::HanpangFeatures f =
      common::features(s, w.danger_from, sizes.data(), &n, true, nullptr, true, true);
  std::sort(sizes.begin(), sizes.begin() + n, std::greater<>());
  const double second = n > 1 ? sizes[1] : 0;
  GroupList gl;
  s.groups(gl);
  int top_colour = 0, top_count = -1;
  for (int k = 0; k < kColours; ++k)
    if (popcount(s.planes[k]) > top_count) top_count = popcount(s.planes[k]), top_colour = k;
  int top_group = 0;
  const Group* big = nullptr;
  for (const auto& g : gl) {
    if ((s.planes[top_colour] & g.cells) && g.size > top_group) top_group = g.size;
    if (!big || g.size > big->size) big = &g;
  }
  std::array<int, kCols> h{};
  common::column_heights(s, h);
  int high = 0, tallest = 0;
  for (int c : h) high += c >= 13, tallest = std::max(tallest, c);
  double low_big = 0, top_big = 0;
  if (big) {
    for (int c = 0; c < kCols; ++c) {
      low_big += static_cast<double>((big->cells >> (c * kLane)) & 1u);
      top_big = std::max<double>(top_big, common::column_top(big->cells, c));
    }
  }
  const double loose = std::max(0, top_count - top_group);
  const double eval = common::evaluate(s, w) - static_cast<double>(s.score);
  return {eval,
          double(f.tiles),
          double(f.groups),
          double(f.singletons),
          double(f.sum_sq),
          double(f.in_groups),
          double(f.vgaps),
          double(f.hgaps),
          double(f.danger),
          double(f.danger3),
          double(f.bridge_sq),
          double(f.colour_sq),
          double(f.collapse_sq),
          double(f.reserve_sq),
          double(f.bump),
          double(f.feed),
          double(f.max_group) * f.max_group,
          second * second,
          loose,
          loose * loose,
          double(tallest),
          double(high),
          low_big,
          top_big};
}

struct Player {
  AgentConfig cfg;
  const PluginEntry* plugin = nullptr;
  common::HanpangWeights weights;
};

// One seed: the config's strategy plays it; every decision position with its terms and the
// points made from there on.
std::vector<Row> play_seed(const Player& p, std::uint64_t seed, std::uint64_t budget) {
  auto strat = p.plugin->make_hanpang(p.cfg.params);
  strat->new_game(p.cfg.seed);
  hanpang::RowSource rows(seed);
  hanpang::State s;
  s.push_row(rows.next());
  std::vector<Row> out;
  std::vector<std::int64_t> score_then;
  BestMove best;
  while (!s.over()) {
    Row r;
    r.seed = seed;
    r.actions = s.actions;
    r.left = hanpang::kMaxActions - s.actions;
    r.x = terms(s, p.weights);
    out.push_back(r);
    score_then.push_back(s.score);
    best.reset();
    SearchLimits lim;
    lim.node_budget = budget;
    int c = strat->choose(s, lim, best);
    if (c < 0 || c >= 128 || !s.colour_at(c)) c = hanpang::fallback_move(s);
    s.play(c);
    if (!s.over()) s.push_row(rows.next());
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].target = double(s.score - score_then[i]);
  return out;
}

std::vector<Row> read_csv(const std::string& path) {
  std::vector<Row> rows;
  for (const auto& v : fit::read_csv(path, 4 + kTerms)) {
    Row r;
    r.seed = static_cast<std::uint64_t>(v[0]);
    r.actions = static_cast<int>(v[1]);
    r.left = static_cast<int>(v[2]);
    r.target = v[3];
    for (int i = 0; i < kTerms; ++i) r.x[i] = v[4 + i];
    rows.push_back(r);
  }
  return rows;
}

// A regressor of the fit: a term, or a term times the late factor (x@late).
struct Col {
  int term = 0;
  bool late = false;
  std::string name() const { return std::string(kTermNames[term]) + (late ? "@late" : ""); }
};

double late_factor(int left) { return std::max(0.0, 1.0 - left / 100.0); }

// The design: the columns, then the kBuckets intercepts.
struct Design {
  std::vector<Col> cols;
  int size() const { return static_cast<int>(cols.size()) + kBuckets; }
  double x(const Row* r, int i) const {
    const int nc = static_cast<int>(cols.size());
    if (i >= nc) return (std::clamp(r->left, 1, 200) - 1) / 10 == i - nc ? 1.0 : 0.0;
    const Col& c = cols[i];
    return r->x[c.term] * (c.late ? late_factor(r->left) : 1.0);
  }
};

std::vector<Col> parse_terms(const std::string& text) {
  std::vector<Col> out;
  std::stringstream s(text);
  std::string t;
  while (std::getline(s, t, ',')) {
    Col c;
    const auto at = t.find('@');
    if (at != std::string::npos) {
      if (t.substr(at) != "@late") die("--terms: '" + t + "': the only suffix is @late (x@late)");
      c.late = true;
      t = t.substr(0, at);
    }
    c.term = -1;
    for (int i = 0; i < kTerms; ++i)
      if (t == kTermNames[i]) c.term = i;
    if (c.term < 0) {
      std::string all;
      for (const char* n : kTermNames) all += std::string(all.empty() ? "" : " ") + n;
      die("--terms: unknown term '" + t + "' (" + all + ")");
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  fit::tool_name() = "tactica-hanpang-fit";
  std::string seeds_s, from, out, holdout_s, config = "configs/hanpang/submit.toml";
  std::string terms_s = "eval,tiles,sum_sq,max_sq,second_sq,loose,loose_sq,danger,high_cols";
  bool seeds_given = false;
  std::uint64_t play_budget = 40000;
  int lo = 21, hi = 200, jobs = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) die(a + " needs a value");
      return argv[++i];
    };
    auto number = [&](const std::string& v) { return fit::whole_number(a, v); };
    if (a == "--seeds") seeds_s = value(), seeds_given = true;
    else if (a == "--from") from = value();
    else if (a == "--out") out = value();
    else if (a == "--holdout") holdout_s = value();
    else if (a == "--terms") terms_s = value();
    else if (a == "--config") config = value();
    else if (a == "--play-budget") play_budget = static_cast<std::uint64_t>(number(value()));
    else if (a == "--jobs") jobs = std::max(1, static_cast<int>(number(value())));
    else if (a == "--left") {
      const auto v = value();
      std::tie(lo, hi) = fit::whole_range(a, v, "21-200");
      if (lo < 1 || lo > hi || hi > hanpang::kMaxActions)
        die("--left '" + v + "': expected LO-HI with 1 <= LO <= HI <= 200");
    } else if (a == "-h" || a == "--help") {
      std::puts("tactica-hanpang-fit --seeds SET [--config FILE] [--play-budget N] [--holdout SET] "
                "[--jobs N] [--out FILE.csv] | --from FILE.csv [--holdout SET] [--terms a,b@late,...] "
                "[--left LO-HI]");
      return 0;
    } else {
      die("unknown option " + a + " (see --help)");
    }
  }
  Design design;
  design.cols = parse_terms(terms_s);
  if (from.empty() == !seeds_given) die("give either --seeds SET (play and fit) or --from FILE.csv (fit)");
  if (seeds_given && play_budget == 0) die("--play-budget must be at least 1 (nodes a move)");
  std::vector<std::uint64_t> holdout;
  if (!holdout_s.empty()) holdout = fit::seed_set("--holdout", holdout_s);
  std::vector<std::uint64_t> seeds;
  Player player;
  if (seeds_given) {
    seeds = fit::seed_set("--seeds", seeds_s);
    try {
      player.cfg = load_config(config);
      if (player.cfg.game != GameKind::hanpang) die("--config " + config + ": a config for icebreaking; give a hanpang one");
      player.plugin = &static_plugins().get(player.cfg.strategy);
      resolve_params(player.cfg, player.plugin->describe());
    } catch (const ConfigError& e) {
      die(std::string("--config ") + e.what());
    } catch (const PluginError& e) {
      die("--config " + config + ": " + e.what());
    }
    // The evaluation of the term `eval`: the beam's weights if it is the beam, else the defaults.
    if (player.cfg.strategy == "beam") player.weights = plugins::beam::hanpang_table().read(player.cfg.params).w;
  }
  std::ofstream csv = fit::open_out(out, !from.empty());
  std::vector<Row> rows;
  if (!from.empty()) {
    rows = read_csv(from);
  } else {
    std::vector<std::vector<Row>> per(seeds.size());
    fit::play_seeds(seeds.size(), jobs, [&](std::size_t i) { per[i] = play_seed(player, seeds[i], play_budget); });
    for (auto& p : per) rows.insert(rows.end(), p.begin(), p.end());
    csv.precision(10);
    if (!out.empty())
      fit::write_csv(csv, out, "seed,actions,left", kTermNames, rows,
                     [](std::ofstream& f, const Row& r) { f << r.seed << ',' << r.actions << ',' << r.left; });
  }
  std::vector<const Row*> train, test;
  fit::split_holdout(rows, holdout, [&](const Row& r) { return r.left >= lo && r.left <= hi; }, train, test);
  if (train.empty()) die("no positions to fit on (every seed is held out, or --left keeps none)");
  const auto x = [&](const Design& d) { return [&d](const Row* r, int i) { return d.x(r, i); }; };
  const auto y = [](const Row* r) { return r->target; };
  const auto w = fit::least_squares(train, design.size(), x(design), y);
  Design base;  // the config's evaluation alone, with the intercepts
  base.cols = {Col{0, false}};
  const auto wb = fit::least_squares(train, base.size(), x(base), y);
  Design none;  // the intercepts alone: what the time left is worth
  const auto wn = fit::least_squares(train, none.size(), x(none), y);
  std::printf("positions: %zu to fit, %zu held out (actions left %d-%d)\n", train.size(), test.size(), lo, hi);
  std::printf("fitted weights (points per unit):\n");
  for (std::size_t i = 0; i < design.cols.size(); ++i)
    std::printf("  %-14s %+.5f\n", design.cols[i].name().c_str(), w[i]);
  std::printf("rmse (points), fit / held out: fitted %.1f / %.1f, eval %.1f / %.1f (eval weight %.4f), "
              "intercepts only %.1f / %.1f\n",
              fit::rmse(train, w, x(design), y), fit::rmse(test, w, x(design), y),
              fit::rmse(train, wb, x(base), y), fit::rmse(test, wb, x(base), y), wb[0],
              fit::rmse(train, wn, x(none), y), fit::rmse(test, wn, x(none), y));
  return 0;
}
