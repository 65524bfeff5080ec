// tactica-ice-fit — fits the weights of the Icebreaking evaluation's terms to deeper searches
// (games/icebreaking/search_knowledge.hpp, EvalTerms). For analysis and tuning only; it plays
// nothing on the platform.
//
//   tactica-ice-fit --seeds 101-400 [--play-budget 20000] [--depth 6] [--cells 22-64]
//                   [--random-plies 10] [--holdout 371-400] [--jobs N] [--out FILE.csv]
//   tactica-ice-fit --from FILE.csv [--holdout 371-400] [--terms tempo,gain2,...] [--cells LO-HI]
//
// Step 1 (unless --from): on every seed's board, the expectimax plugin's default search plays
// itself at --play-budget nodes a move (a random move instead at each of the first
// --random-plies plies with probability 1/2, for variety); every position with a number of ice
// cells in --cells is kept, with every evaluation term and, as the target, the value of a
// fixed-depth (--depth plies) alpha-beta search with the default evaluation at its leaves:
// what the side to move will still gain minus what the other side will (points). Rows go to
// --out as CSV.
// Step 2: ordinary least squares of the target on the chosen terms (over the positions with
// --cells ice cells, with --from too) (no intercept: a leaf's
// value is the side to move's), fitted on the seeds outside --holdout; prints the weights (the
// plugin's w_* parameters) and the error on the held-out seeds, beside the default evaluation's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "expectimax/ice_search.hpp"
#include "fit/ols.hpp"
#include "fit/tool.hpp"
#include "games/icebreaking/search_knowledge.hpp"
#include "runner/runner.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"

namespace {

using namespace tactica;
using Knowledge = plugins::common::ice::SearchKnowledge;
using Terms = plugins::common::ice::EvalTerms;

constexpr const char* kTermNames[] = {"pool",  "threat", "plus", "tempo", "alt",  "parity", "gain2",
                                      "gain3", "ncap",   "odd",  "reply", "safe", "forced", "hot"};
constexpr int kTerms = 14;

std::array<double, kTerms> as_array(const Terms& t) {
  return {double(t.pool),  double(t.threat), double(t.plus), double(t.tempo),
          double(t.alt),   double(t.parity), double(t.gain2), double(t.gain3),
          double(t.ncap),  double(t.odd),    double(t.reply), double(t.safe),
          double(t.forced), double(t.hot)};
}

struct Row {
  std::uint64_t seed = 0;
  int ply = 0, cells = 0;
  double target = 0;
  std::array<double, kTerms> x{};
};

using fit::die;

// One seed: self-play, then every kept position's terms and deep value.
std::vector<Row> play_seed(std::uint64_t seed, std::uint64_t play_budget, int depth, int lo, int hi,
                           int random_plies) {
  const auto board = icebreaking::Board::from_seed(seed);
  plugins::expectimax::IceParams play_params;
  play_params.tt_mb = 16;
  plugins::expectimax::IceSearch player(play_params);
  player.new_game(board);

  // The target: the default evaluation at the leaves of a fixed-depth search (no solve).
  plugins::expectimax::Expectiminimax<Knowledge>::Settings set;
  set.tt_mb = 32;
  set.max_depth = depth;
  set.pvs = true;
  const plugins::expectimax::IceParams d;
  plugins::expectimax::Expectiminimax<Knowledge> deep(set, plugins::expectimax::IceSearch::weights(d),
                                                      d.qdepth, true);
  deep.knowledge().new_game(board);
  Knowledge terms_of(plugins::common::ice::EvalWeights{0, 0, 0, 0, 0, 3}, 0);
  terms_of.new_game(board);

  Rng rng(seed * 0x9E3779B97F4A7C15ULL + 17);
  auto pos = icebreaking::Position::start(board);
  std::vector<Row> rows;
  for (int ply = 0; pos.ice; ++ply) {
    const int n = popcount(pos.ice);
    if (n >= lo && n <= hi) {
      SearchLimits lim;
      lim.node_budget = 20'000'000;
      const auto r = deep.run(pos.ice, pos.margin(), lim, nullptr);
      if (r.depth == std::min(depth, n)) {
        Row row;
        row.seed = seed;
        row.ply = ply;
        row.cells = n;
        row.target = double(r.value) / Knowledge::kUnit;
        row.x = as_array(terms_of.terms(pos.ice));
        rows.push_back(row);
      }
    }
    int move = -1;
    if (ply < random_plies && rng.below(2) == 0) {
      const int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
      u128 t = pos.ice;
      for (int i = 0; i < k; ++i) t &= t - 1;
      move = lowest_bit(t);
    } else {
      SearchLimits lim;
      lim.node_budget = play_budget;
      move = player.run(pos.ice, pos.margin(), lim, nullptr).move;
    }
    pos.play(board, move);
  }
  return rows;
}

// Least squares of the target on the terms `cols` (bench/fit/ols.hpp), and its error.
std::vector<double> least_squares(const std::vector<const Row*>& rows, const std::vector<int>& cols) {
  return fit::least_squares(rows, static_cast<int>(cols.size()),
                            [&](const Row* r, int i) { return r->x[cols[i]]; },
                            [](const Row* r) { return r->target; });
}

double rmse(const std::vector<const Row*>& rows, const std::vector<int>& cols, const std::vector<double>& w) {
  return fit::rmse(rows, w, [&](const Row* r, int i) { return r->x[cols[i]]; },
                   [](const Row* r) { return r->target; });
}

std::vector<Row> read_csv(const std::string& path) {
  std::vector<Row> rows;
  for (const auto& v : fit::read_csv(path, 4 + kTerms)) {
    Row r;
    r.seed = static_cast<std::uint64_t>(v[0]);
    r.ply = static_cast<int>(v[1]);
    r.cells = static_cast<int>(v[2]);
    r.target = v[3];
    for (int i = 0; i < kTerms; ++i) r.x[i] = v[4 + i];
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  fit::tool_name() = "tactica-ice-fit";
  std::string seeds_s, from, out, holdout_s, terms_s = "tempo,gain2,gain3,threat,ncap,parity,odd,pool,plus,reply,safe,forced,hot";
  bool seeds_given = false;
  std::uint64_t play_budget = 20000;
  int depth = 6, lo = 22, hi = 64, random_plies = 10, jobs = 1;
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
    else if (a == "--play-budget") play_budget = static_cast<std::uint64_t>(number(value()));
    else if (a == "--depth") depth = static_cast<int>(number(value()));
    else if (a == "--random-plies") random_plies = static_cast<int>(number(value()));
    else if (a == "--jobs") jobs = std::max(1, static_cast<int>(number(value())));
    else if (a == "--cells") {
      const auto v = value();
      std::tie(lo, hi) = fit::whole_range(a, v, "22-64");
      if (lo > hi || hi > icebreaking::kIce) die("--cells '" + v + "': expected LO-HI with LO <= HI <= 72");
    } else if (a == "-h" || a == "--help") {
      std::puts("tactica-ice-fit --seeds SET [--play-budget N] [--depth D] [--cells LO-HI] "
                "[--random-plies N] [--holdout SET] [--jobs N] [--out FILE.csv] | --from FILE.csv "
                "[--holdout SET] [--terms a,b,...]");
      return 0;
    } else {
      die("unknown option " + a + " (see --help)");
    }
  }
  std::vector<int> cols;
  {
    std::stringstream s(terms_s);
    std::string t;
    while (std::getline(s, t, ',')) {
      int k = -1;
      for (int i = 0; i < kTerms; ++i)
        if (t == kTermNames[i]) k = i;
      if (k < 0) die("--terms: unknown term '" + t + "' (pool threat plus tempo alt parity gain2 gain3 ncap odd reply safe forced hot)");
      cols.push_back(k);
    }
  }
  if (from.empty() == !seeds_given) die("give either --seeds SET (play and fit) or --from FILE.csv (fit)");
  if (depth < 1) die("--depth must be at least 1");
  std::vector<std::uint64_t> holdout;
  if (!holdout_s.empty()) holdout = fit::seed_set("--holdout", holdout_s);

  std::vector<std::uint64_t> seeds;
  if (seeds_given) seeds = fit::seed_set("--seeds", seeds_s);
  std::ofstream csv = fit::open_out(out, !from.empty());
  std::vector<Row> rows;
  if (!from.empty()) {
    rows = read_csv(from);
  } else {
    std::vector<std::vector<Row>> per(seeds.size());
    fit::play_seeds(seeds.size(), jobs, [&](std::size_t i) {
      per[i] = play_seed(seeds[i], play_budget, depth, lo, hi, random_plies);
    });
    for (auto& p : per) rows.insert(rows.end(), p.begin(), p.end());
    if (!out.empty())
      fit::write_csv(csv, out, "seed,ply,cells", kTermNames, rows,
                     [](std::ofstream& f, const Row& r) { f << r.seed << ',' << r.ply << ',' << r.cells; });
  }
  std::vector<const Row*> train, test;
  fit::split_holdout(rows, holdout, [&](const Row& r) { return r.cells >= lo && r.cells <= hi; }, train, test);
  if (train.empty()) die("no positions to fit on (every seed is held out, or --cells keeps none)");
  const auto w = least_squares(train, cols);
  const std::vector<int> tempo_only{3};
  const std::vector<double> half{0.5};
  std::printf("positions: %zu to fit, %zu held out\n", train.size(), test.size());
  std::printf("fitted weights (points per unit):\n");
  for (std::size_t i = 0; i < cols.size(); ++i) std::printf("  w_%-7s = %+.4f\n", kTermNames[cols[i]], w[i]);
  std::printf("rmse (points), fit / held out: fitted %.3f / %.3f, default (0.5 tempo) %.3f / %.3f, "
              "zero %.3f / %.3f\n",
              rmse(train, cols, w), rmse(test, cols, w), rmse(train, tempo_only, half),
              rmse(test, tempo_only, half), rmse(train, {}, {}), rmse(test, {}, {}));
  return 0;
}
