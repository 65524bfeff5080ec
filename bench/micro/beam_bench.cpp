// Beam plugin: search nodes per second on fixed positions (a node = one child evaluated:
// Hanpang remove + row + board evaluation; Icebreaking our move + the greedy reply), and the
// Hanpang evaluation alone. Node budgets, not the clock, bound each search.
#include <benchmark/benchmark.h>

#include "beam/plugin.hpp"
#include "games/hanpang/eval.hpp"

namespace {

using namespace tactica;
namespace beam = tactica::plugins::beam;

// A Hanpang board of `rows` random rows (seeded), as a search sees it mid-game.
hanpang::State hanpang_board(int rows, std::uint64_t seed) {
  hanpang::RowSource src(seed);
  hanpang::State s;
  for (int i = 0; i < rows; ++i) s.push_row(src.next());
  s.actions = 60;
  return s;
}

Params hanpang_params(bool phantom) {
  Params p;
  p.set("phantom", phantom ? 1 : 0);
  p.fill_defaults(beam::describe().hanpang_params);
  return p;
}

void BM_BeamHanpangChoose(benchmark::State& state) {
  const auto s = hanpang_board(static_cast<int>(state.range(0)), 7);
  auto st = beam::make_hanpang(hanpang_params(state.range(1) != 0));
  st->new_game(1);
  SearchLimits lim;
  lim.node_budget = 20000;
  BestMove best;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(st->choose(s, lim, best));
    nodes += st->stats().nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(s.tiles()) + " tiles");
}
BENCHMARK(BM_BeamHanpangChoose)->Args({9, 1})->Args({13, 1})->Args({13, 0})->Unit(benchmark::kMillisecond);

void BM_HanpangEval(benchmark::State& state) {
  const auto s = hanpang_board(static_cast<int>(state.range(0)), 7);
  auto w = plugins::common::beam_weights();
  if (!state.range(1)) w.bridge_sq = 0.0;
  if (state.range(2)) w.collapse_sq = 0.06;  // as in configs/hanpang/submit.toml
  const plugins::common::HanpangEval ev(w);
  for (auto _ : state) benchmark::DoNotOptimize(ev(s));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(s.tiles()) + " tiles" + (w.bridge_sq != 0 ? ", bridged" : "") +
                 (w.collapse_sq != 0 ? ", collapsed" : ""));
}
BENCHMARK(BM_HanpangEval)->Args({9, 0, 0})->Args({13, 0, 0})->Args({13, 1, 0})->Args({13, 1, 1});

void BM_BeamIcebreakingChoose(benchmark::State& state) {
  const auto board = icebreaking::Board::from_seed(3);
  auto pos = icebreaking::Position::start(board);
  // Advance a fixed number of plies along the lowest cells, for a mid-game position.
  for (int i = 0; i < state.range(0) && !pos.over(); ++i) pos.play(board, lowest_bit(pos.ice));
  Params p;
  p.fill_defaults(beam::describe().icebreaking_params);
  auto st = beam::make_icebreaking(p);
  st->new_game(board, pos.to_move, 1);
  SearchLimits lim;
  lim.node_budget = 20000;
  BestMove best;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(st->choose(board, pos, lim, best));
    nodes += st->stats().nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(popcount(pos.ice)) + " ice cells");
}
BENCHMARK(BM_BeamIcebreakingChoose)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);

}  // namespace
