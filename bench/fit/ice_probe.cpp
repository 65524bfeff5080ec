// tactica-ice-probe — where an Icebreaking game is decided. For analysis only; it plays nothing on
// the platform.
//
//   tactica-ice-probe --seeds 401-430 [--first-budget 400000] [--second-budget 400000]
//                     [--first-solve-at 0] [--second-solve-at 0] [--cells 26-40]
//                     [--solve-budget 8000000] [--jobs N]
//
// On every seed's board the expectimax plugin's default search (submit's parameters) plays both
// sides, each at its own node budget a move; a side with --*-solve-at K > 0 also uses the exact
// pool rules and solves from K cells (with a 256 MiB table). At every position with a number of
// ice cells in --cells, an exact win/draw/loss solve (pool rules, its own table, which keeps its
// entries all game: values depend on the ice alone) decides who wins from there with best play
// on both sides, within --solve-budget nodes, or gives up ('?').
//
// One line per seed: the totals and the winner, then each probed position as <cells><outcome>
// (A: the first player wins, D: a draw, B: the second wins, ?: not solved in the budget). Exact
// values never improve for the side that moved (each move's value is at most the position's), so
// between two solved positions the outcome moves only against the side that played in between:
// a change is that side's error. The summary counts the games whose outcome changed after it was
// first solved, and where.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "expectimax/ice_search.hpp"
#include "fit/tool.hpp"
#include "runner/runner.hpp"
#include "tactica/icebreaking.hpp"

namespace {

using namespace tactica;
using plugins::expectimax::IceParams;
using plugins::expectimax::IceSearch;

using fit::die;

struct Side {
  std::uint64_t budget = 400000;
  int solve_at = 0;  // 0: the default search (submit's parameters)
};

struct Probe {
  int ply = 0;
  int cells = 0;
  char outcome = '?';  // for the first player: A, D, B, or ? (not solved)
  icebreaking::Player mover = icebreaking::A;
};

struct Played {
  std::uint64_t seed = 0;
  int total[2] = {0, 0};
  char winner = 'D';
  int plies = 0;
  std::vector<Probe> probes;
};

IceParams side_params(const Side& s) {
  IceParams p;
  p.tt_mb = 32;
  if (s.solve_at > 0) {
    p.solve_at = s.solve_at;
    p.pool = true;
    p.tt_mb = 256;
  }
  return p;
}

// The exact outcome for the first player, or '?' when the solve did not finish.
char outcome(IceSearch& solver, const icebreaking::Position& pos, std::uint64_t budget) {
  SearchLimits lim;
  lim.node_budget = budget;
  const auto r = solver.run(pos.ice, pos.margin(), lim, nullptr);
  // A forced move (depth 0) reports only its own gain, not the rest's value.
  if (!r.exact || r.depth == 0) return '?';
  const int t = -pos.margin() * IceSearch::kUnit;  // the mover wins when the rest beats -margin
  int sign = r.value > t ? 1 : r.value == t ? 0 : -1;
  if (pos.to_move != icebreaking::A) sign = -sign;
  return sign > 0 ? 'A' : sign == 0 ? 'D' : 'B';
}

Played play(std::uint64_t seed, const Side sides[2], int lo, int hi, std::uint64_t solve_budget) {
  const auto board = icebreaking::Board::from_seed(seed);
  IceSearch first(side_params(sides[0])), second(side_params(sides[1]));
  first.new_game(board);
  second.new_game(board);
  IceParams sp;
  sp.tt_mb = 256;
  sp.solve_at = icebreaking::kIce;
  sp.pool = true;
  IceSearch solver(sp);
  solver.new_game(board);
  Played g;
  g.seed = seed;
  auto pos = icebreaking::Position::start(board);
  for (g.plies = 0; pos.ice; ++g.plies) {
    const int n = popcount(pos.ice);
    if (n >= lo && n <= hi)
      g.probes.push_back({g.plies, n, outcome(solver, pos, solve_budget), pos.to_move});
    const bool a = pos.to_move == icebreaking::A;
    SearchLimits lim;
    lim.node_budget = sides[a ? 0 : 1].budget;
    pos.play(board, (a ? first : second).run(pos.ice, pos.margin(), lim, nullptr).move);
  }
  g.total[0] = pos.total[icebreaking::A];
  g.total[1] = pos.total[icebreaking::B];
  g.winner = g.total[0] > g.total[1] ? 'A' : g.total[0] == g.total[1] ? 'D' : 'B';
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  fit::tool_name() = "tactica-ice-probe";
  std::string seeds_s;
  bool seeds_given = false;
  Side sides[2];
  std::uint64_t solve_budget = 8'000'000;
  int lo = 26, hi = 40, jobs = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) die(a + " needs a value");
      return argv[++i];
    };
    auto number = [&](const std::string& v, long long least) { return fit::whole_number(a, v, least); };
    if (a == "--seeds") seeds_s = value(), seeds_given = true;
    else if (a == "--first-budget") sides[0].budget = static_cast<std::uint64_t>(number(value(), 1));
    else if (a == "--second-budget") sides[1].budget = static_cast<std::uint64_t>(number(value(), 1));
    else if (a == "--first-solve-at") sides[0].solve_at = static_cast<int>(number(value(), 0));
    else if (a == "--second-solve-at") sides[1].solve_at = static_cast<int>(number(value(), 0));
    else if (a == "--solve-budget") solve_budget = static_cast<std::uint64_t>(number(value(), 1));
    else if (a == "--jobs") jobs = static_cast<int>(number(value(), 1));
    else if (a == "--cells") {
      const auto v = value();
      std::tie(lo, hi) = fit::whole_range(a, v, "26-40");
      if (lo < 1 || lo > hi || hi > icebreaking::kIce) die("--cells '" + v + "': expected LO-HI with 1 <= LO <= HI <= 72");
    } else if (a == "-h" || a == "--help") {
      std::puts("tactica-ice-probe --seeds SET [--first-budget N] [--second-budget N] "
                "[--first-solve-at K] [--second-solve-at K] [--cells LO-HI] [--solve-budget N] "
                "[--jobs N]");
      return 0;
    } else {
      die("unknown option " + a + " (see --help)");
    }
  }
  if (!seeds_given) die("--seeds SET is required (e.g. --seeds 401-430)");
  for (const Side& s : sides)
    if (s.solve_at > icebreaking::kIce) die("--*-solve-at: at most 72 cells");
  const std::vector<std::uint64_t> seeds = fit::seed_set("--seeds", seeds_s);

  std::vector<Played> games(seeds.size());
  std::atomic<std::size_t> next{0};
  std::vector<bool> done(seeds.size(), false);
  std::size_t printed = 0;
  std::mutex io;
  const auto print = [](const Played& g) {
    std::printf("seed %llu: %d-%d %c |", static_cast<unsigned long long>(g.seed), g.total[0],
                g.total[1], g.winner);
    for (const auto& p : g.probes) std::printf(" %d%c", p.cells, p.outcome);
    std::printf("\n");
    std::fflush(stdout);
  };
  auto work = [&] {
    for (std::size_t i; (i = next++) < seeds.size();) {
      Played g = play(seeds[i], sides, lo, hi, solve_budget);
      std::lock_guard<std::mutex> lock(io);
      games[i] = std::move(g);
      done[i] = true;
      while (printed < games.size() && done[printed]) print(games[printed++]);  // in seed order
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::max(1, jobs); ++j) pool.emplace_back(work);
  for (auto& t : pool) t.join();

  // The summary: results, and the changes of a solved outcome (the final result included).
  int wins[3] = {0, 0, 0};  // first, draw, second
  int solved = 0, changed = 0;
  std::map<int, int> at;   // cells of the later position of each change
  int by[2] = {0, 0};      // changes one ply after a move of the first / second player
  int impossible = 0;      // ... in that player's favour (exact values never allow one)
  // An outcome's worth to a player: its win 2, a draw 1, its loss 0.
  const auto worth = [](char o, icebreaking::Player p) {
    return o == 'D' ? 1 : (o == 'A') == (p == icebreaking::A) ? 2 : 0;
  };
  for (const auto& g : games) {
    ++wins[g.winner == 'A' ? 0 : g.winner == 'D' ? 1 : 2];
    std::vector<Probe> known;
    for (const auto& p : g.probes)
      if (p.outcome != '?') known.push_back(p);
    if (known.empty()) continue;
    ++solved;
    known.push_back({g.plies, 0, g.winner, icebreaking::A});
    bool any = false;
    for (std::size_t k = 1; k < known.size(); ++k) {
      if (known[k].outcome == known[k - 1].outcome) continue;
      any = true;
      ++at[known[k].cells];
      if (known[k].ply != known[k - 1].ply + 1) continue;  // more than one move in between
      const auto mover = known[k - 1].mover;
      ++by[mover == icebreaking::A ? 0 : 1];
      if (worth(known[k].outcome, mover) > worth(known[k - 1].outcome, mover)) ++impossible;
    }
    changed += any;
  }
  std::printf("games %zu: first won %d, drawn %d, second won %d\n", games.size(), wins[0], wins[1],
              wins[2]);
  std::printf("solved at some position in %d-%d cells: %d; outcome changed after that: %d", lo, hi,
              solved, changed);
  if (!at.empty()) {
    std::printf(" (at");
    for (const auto& [cells, n] : at) std::printf(" %d cells x%d", cells, n);
    std::printf("; one move after it, by the first player %d, by the second %d)", by[0], by[1]);
  }
  std::printf("\nchanges in the mover's favour (impossible with exact solves): %d\n", impossible);
  return 0;
}
