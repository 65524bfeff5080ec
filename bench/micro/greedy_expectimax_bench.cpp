// Search speed of the greedy and expectimax plugins on fixed positions (nodes per second; a node
// is one searched position for Icebreaking, one board evaluation for Hanpang). Node budgets keep
// the work per iteration fixed, so items/s is a speed signature independent of the clock.
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "expectimax/hanpang_search.hpp"
#include "expectimax/ice_search.hpp"
#include "games/icebreaking/eval.hpp"
#include "games/icebreaking/search_knowledge.hpp"
#include "greedy/greedy.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace {

using namespace tactica;

// The Icebreaking position after `plies` greedy moves on the board of `seed`.
icebreaking::Position ice_position(const icebreaking::Board& b, int plies) {
  auto pos = icebreaking::Position::start(b);
  for (int i = 0; i < plies && !pos.over(); ++i)
    pos.play(b, plugins::greedy::icebreaking_move(b, pos, true));
  return pos;
}

// A Hanpang board of `rows` seeded rows.
hanpang::State hanpang_board(std::uint64_t seed, int rows) {
  hanpang::RowSource src(seed);
  hanpang::State s;
  for (int i = 0; i < rows; ++i) s.push_row(src.next());
  return s;
}

// Alpha-beta with params p from a fresh table, 200k nodes, after `plies` greedy moves on the board
// of seed 7: items/s is nodes a second, the counter the depth reached.
void ice_search_bench(benchmark::State& st, const plugins::expectimax::IceParams& p, int plies) {
  const auto b = icebreaking::Board::from_seed(7);
  const auto pos = ice_position(b, plies);
  plugins::expectimax::IceSearch search(p);
  std::uint64_t nodes = 0;
  int depth = 0;
  for (auto _ : st) {
    st.PauseTiming();
    search.new_game(b);
    st.ResumeTiming();
    SearchLimits lim;
    lim.node_budget = 200000;
    const auto r = search.run(pos.ice, pos.margin(), lim, nullptr);
    nodes += r.nodes;
    depth = r.depth;
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(nodes));
  st.counters["depth"] = depth;
}

// The plugin's defaults on the opening (ply 0) or a middle game (ply 20).
void BM_ExpectimaxIceSearch(benchmark::State& st) {
  plugins::expectimax::IceParams p;
  p.tt_mb = 16;
  ice_search_bench(st, p, static_cast<int>(st.range(0)));
}
BENCHMARK(BM_ExpectimaxIceSearch)->Arg(0)->Arg(20)->Unit(benchmark::kMillisecond);

// The submit's search parameters (pool rules, a 16 MiB table) with the evaluation weights of
// three submits (session 20: w_tempo and w_safe; session 22 without and with its two
// alternating sums w_pool and w_plus), for what each costs in speed.
plugins::expectimax::IceParams ice_submit_params(int which) {
  plugins::expectimax::IceParams p;
  p.tt_mb = 16;
  p.pool = true;
  p.w_tempo = 0.5, p.w_safe = 0.5;
  if (which >= 1) p.w_tempo = 0.497, p.w_safe = 0.41, p.w_parity = 0.017, p.w_odd = 0.025;
  if (which >= 2) p.w_pool = -0.053, p.w_plus = -0.015;
  return p;
}

// The static evaluation alone, over 64 middle-game positions (greedy play to 16-44 plies on
// eight boards), with the weights of ice_submit_params(arg): items/s is evaluations a second.
void BM_IceEvalWeights(benchmark::State& st) {
  const auto w =
      plugins::expectimax::IceSearch::weights(ice_submit_params(static_cast<int>(st.range(0))));
  std::vector<plugins::common::ice::SearchKnowledge> know;  // one per board
  std::vector<std::vector<u128>> positions;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    know.emplace_back(w, 0, true);
    know.back().new_game(b);
    positions.emplace_back();
    for (int plies = 16; plies < 48; plies += 4)
      positions.back().push_back(ice_position(b, plies).ice);
  }
  for (auto _ : st) {
    int sum = 0;
    for (std::size_t i = 0; i < know.size(); ++i)
      for (const u128 ice : positions[i]) sum += know[i].evaluate(ice);
    benchmark::DoNotOptimize(sum);
  }
  st.SetItemsProcessed(st.iterations() * 64);
}
BENCHMARK(BM_IceEvalWeights)->ArgName("submit")->Arg(0)->Arg(1)->Arg(2);

// The submit's search (pool rules) in the middle game (20 greedy plies, 200k nodes, fresh table)
// with the weights of ice_submit_params(arg): the node rate each evaluation allows.
void BM_ExpectimaxIceWeights(benchmark::State& st) {
  ice_search_bench(st, ice_submit_params(static_cast<int>(st.range(0))), 20);
}
BENCHMARK(BM_ExpectimaxIceWeights)
    ->ArgName("submit")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond);

// The submit's search (today's weights, pool rules, PVS) with `set` from a fresh table on the
// board of seed 7 after st.range(1) greedy plies, to the depth st.range(2): the time a depth
// takes (items/s: nodes a second; the counter: nodes a search).
void ice_fixed_depth_bench(
    benchmark::State& st,
    plugins::expectimax::Expectiminimax<plugins::common::ice::SearchKnowledge>::Settings set) {
  using Search = plugins::expectimax::Expectiminimax<plugins::common::ice::SearchKnowledge>;
  const auto b = icebreaking::Board::from_seed(7);
  const auto pos = ice_position(b, static_cast<int>(st.range(1)));
  set.tt_mb = 16, set.pvs = true, set.max_depth = static_cast<int>(st.range(2));
  Search search(set, plugins::expectimax::IceSearch::weights(ice_submit_params(2)), 0, true);
  std::uint64_t nodes = 0;
  for (auto _ : st) {
    st.PauseTiming();
    search.clear();
    search.knowledge().new_game(b);
    st.ResumeTiming();
    const auto r = search.run(pos.ice, pos.margin(), SearchLimits{}, nullptr);
    nodes += r.nodes;
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(nodes));
  st.counters["nodes"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
}

// Futility at depth 1 off / on.
void BM_ExpectimaxIceFutility(benchmark::State& st) {
  plugins::expectimax::Expectiminimax<plugins::common::ice::SearchKnowledge>::Settings set;
  set.futility = st.range(0) != 0;
  ice_fixed_depth_bench(st, set);
}
BENCHMARK(BM_ExpectimaxIceFutility)
    ->ArgNames({"futility", "plies", "depth"})
    ->Args({0, 20, 5})
    ->Args({1, 20, 5})
    ->Args({0, 20, 6})
    ->Args({1, 20, 6})
    ->Args({0, 36, 7})
    ->Args({1, 36, 7})
    ->Unit(benchmark::kMillisecond);

// ProbCut (session 32: depth 3, reduce 2, margin 0) off / on, futility on.
void BM_ExpectimaxIceProbCut(benchmark::State& st) {
  plugins::expectimax::Expectiminimax<plugins::common::ice::SearchKnowledge>::Settings set;
  set.futility = true;
  if (st.range(0) != 0) set.probcut_depth = 3, set.probcut_reduce = 2, set.probcut_margin = 0;
  ice_fixed_depth_bench(st, set);
}
BENCHMARK(BM_ExpectimaxIceProbCut)
    ->ArgNames({"probcut", "plies", "depth"})
    ->Args({0, 20, 6})
    ->Args({1, 20, 6})
    ->Args({1, 20, 8})
    ->Args({0, 36, 7})
    ->Args({1, 36, 7})
    ->Args({1, 36, 9})
    ->Unit(benchmark::kMillisecond);

// The exact win/draw/loss endgame solve from 16 cells (greedy play down to there).
void BM_ExpectimaxIceSolve16(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(11);
  auto pos = icebreaking::Position::start(b);
  while (popcount(pos.ice) > 16) pos.play(b, plugins::greedy::icebreaking_move(b, pos, true));
  plugins::expectimax::IceParams p;
  p.tt_mb = 16;
  plugins::expectimax::IceSearch search(p);
  std::uint64_t nodes = 0;
  for (auto _ : st) {
    st.PauseTiming();
    search.new_game(b);
    st.ResumeTiming();
    const auto r = search.run(pos.ice, pos.margin(), SearchLimits{}, nullptr);
    nodes += r.nodes;
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(nodes));
}
BENCHMARK(BM_ExpectimaxIceSolve16)->Unit(benchmark::kMillisecond);

// One articulation scan: every move's gain and capture count of a middle-game position.
void BM_IceMoveScan(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  const auto pos = ice_position(b, 20);
  plugins::common::ice::MoveScanner scanner;
  std::array<plugins::common::ice::MoveFacts, icebreaking::kIce> facts;
  for (auto _ : st) benchmark::DoNotOptimize(scanner.scan(b, pos.ice, facts.data()));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_IceMoveScan);

void BM_GreedyIceMove(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  const auto pos = ice_position(b, 20);
  for (auto _ : st) benchmark::DoNotOptimize(plugins::greedy::icebreaking_move(b, pos, true));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_GreedyIceMove);

// The same rule, fast (what the greedy plugin plays and what searches use to predict it).
void BM_GreedyIceRule(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  const auto pos = ice_position(b, 20);
  plugins::common::ice::GreedyRule rule;
  for (auto _ : st) benchmark::DoNotOptimize(rule.move(b, pos.ice, true));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_GreedyIceRule);

void BM_GreedyHanpangMove(benchmark::State& st) {
  const auto s = hanpang_board(7, 10);
  for (auto _ : st) benchmark::DoNotOptimize(plugins::greedy::hanpang_move(s, true));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_GreedyHanpangMove);

// Expectimax at depth 3 (the plugin's defaults: HanpangParams{} is what it plays, danger -20 and
// group_sq 2 included) on a 10-row board, 20k evaluations per move.
void BM_ExpectimaxHanpang(benchmark::State& st) {
  const auto s = hanpang_board(7, 10);
  const plugins::expectimax::HanpangParams p;
  plugins::expectimax::HanpangSearch search(p);
  search.new_game(1);
  std::uint64_t nodes = 0;
  int depth = 0;
  for (auto _ : st) {
    SearchLimits lim;
    lim.node_budget = 20000;
    const auto r = search.run(s, lim, nullptr);
    nodes += r.nodes;
    depth = r.depth;
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(nodes));
  st.counters["depth"] = depth;
}
BENCHMARK(BM_ExpectimaxHanpang)->Unit(benchmark::kMillisecond);

}  // namespace
