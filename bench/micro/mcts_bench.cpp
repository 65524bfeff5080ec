// The mcts plugin: search iterations per second on fixed positions (one iteration = one
// selection, expansion, leaf value and backup; a playout in the playout mode).
#include <benchmark/benchmark.h>

#include "mcts/strategies.hpp"

namespace {

using namespace tactica;
namespace mcts = tactica::plugins::mcts;

// A mid-game Hanpang board: 9 rows of seed 7.
hanpang::State hanpang_position() {
  hanpang::RowSource rows(7);
  hanpang::State s;
  for (int i = 0; i < 9; ++i) s.push_row(rows.next());
  return s;
}

void BM_MctsHanpangSearch(benchmark::State& st) {
  mcts::HanConfig cfg;
  cfg.horizon = static_cast<int>(st.range(0));
  mcts::HanpangMcts m(cfg);
  m.new_game(1);
  const auto s = hanpang_position();
  SearchLimits l;
  l.node_budget = 500;
  BestMove best;
  std::uint64_t iters = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(m.choose(s, l, best));
    iters += m.stats().nodes;
  }
  st.counters["iterations/s"] = benchmark::Counter(static_cast<double>(iters), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MctsHanpangSearch)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond);

// Icebreaking from the opening (72 empty cells), tree reset every search (no reuse).
void BM_MctsIcebreakingSearch(benchmark::State& st) {
  mcts::IceConfig cfg;
  cfg.leaf.leaf_eval = st.range(0) != 0;
  cfg.reuse = false;
  cfg.pool_nodes = 1 << 20;
  mcts::IcebreakingMcts m(cfg);
  const auto b = icebreaking::Board::from_seed(3);
  const auto p = icebreaking::Position::start(b);
  m.new_game(b, icebreaking::A, 1);
  SearchLimits l;
  l.node_budget = 5000;
  BestMove best;
  std::uint64_t iters = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(m.choose(b, p, l, best));
    iters += m.stats().nodes;
  }
  st.counters["iterations/s"] = benchmark::Counter(static_cast<double>(iters), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MctsIcebreakingSearch)->ArgName("leaf_eval")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The fast capture test against the engine's flood fills, over every cell of a mid-game board.
void BM_MctsIceFastCaptures(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(3);
  auto p = icebreaking::Position::start(b);
  Rng rng(2);
  for (int i = 0; i < 20; ++i) {
    icebreaking::MoveList ml;
    p.moves(ml);
    p.play(b, ml[static_cast<int>(rng.below(ml.count))]);
  }
  const bool fast = st.range(0) != 0;
  for (auto _ : st)
    for (int c : bits{p.ice}) benchmark::DoNotOptimize(fast ? tactica::plugins::common::ice::captures(p.ice, c) : p.captures(c));
  st.SetItemsProcessed(st.iterations() * popcount(p.ice));
}
BENCHMARK(BM_MctsIceFastCaptures)->ArgName("fast")->Arg(0)->Arg(1);

}  // namespace
