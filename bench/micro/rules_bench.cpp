// Engine primitives and whole random games for both games. A random game: list the legal moves,
// pick one uniformly, play it (Hanpang: then push the next row), until the game ends. The
// listing is the full one search uses (Hanpang: every group with its cells, size, lowest cell
// and colour); the seeded rows and boards are generated inside the timed loop too.
// Figures and the commands that produced them: docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace {

using namespace tactica;

// A mid-game Hanpang board: 12 random rows.
hanpang::State hanpang_midgame(std::uint64_t seed) {
  hanpang::RowSource rows(seed);
  hanpang::State s;
  for (int i = 0; i < 12; ++i) s.push_row(rows.next());
  return s;
}

void BM_HanpangGroups(benchmark::State& st) {
  const auto s = hanpang_midgame(7);
  hanpang::GroupList gl;
  for (auto _ : st) {
    s.groups(gl);
    benchmark::DoNotOptimize(gl.count);
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_HanpangGroups);

void BM_HanpangPlay(benchmark::State& st) {
  const auto s = hanpang_midgame(7);
  hanpang::GroupList gl;
  s.groups(gl);
  int i = 0;
  for (auto _ : st) {
    auto t = s;
    t.remove(gl[i].cells);
    benchmark::DoNotOptimize(t);
    if (++i == gl.count) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_HanpangPlay);

void BM_HanpangRandomGame(benchmark::State& st) {
  Rng rng(1);
  std::uint64_t seed = 1, moves = 0;
  hanpang::GroupList gl;
  for (auto _ : st) {
    hanpang::RowSource rows(seed++);
    hanpang::State s;
    s.push_row(rows.next());
    while (!s.over()) {
      s.groups(gl);
      s.remove(gl[static_cast<int>(rng.below(static_cast<std::uint32_t>(gl.count)))].cells);
      ++moves;
      if (!s.over()) s.push_row(rows.next());
    }
    benchmark::DoNotOptimize(s.score);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(moves));
}
BENCHMARK(BM_HanpangRandomGame);

void BM_IcebreakingMoves(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  const auto p = icebreaking::Position::start(b);
  icebreaking::MoveList ml;
  for (auto _ : st) {
    p.moves(ml);
    benchmark::DoNotOptimize(ml.count);
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_IcebreakingMoves);

void BM_IcebreakingPlay(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  auto p = icebreaking::Position::start(b);
  Rng rng(3);
  icebreaking::MoveList ml;
  for (int i = 0; i < 30; ++i) {  // a mid-game position
    p.moves(ml);
    p.play(b, ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.count)))]);
  }
  p.moves(ml);
  int i = 0;
  for (auto _ : st) {
    auto q = p;
    benchmark::DoNotOptimize(q.play(b, ml[i]));
    if (++i == ml.count) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_IcebreakingPlay);

void BM_IcebreakingRandomGame(benchmark::State& st) {
  Rng rng(1);
  std::uint64_t seed = 1, moves = 0;
  icebreaking::MoveList ml;
  for (auto _ : st) {
    const auto b = icebreaking::Board::from_seed(seed++);
    auto p = icebreaking::Position::start(b);
    while (!p.over()) {
      p.moves(ml);
      p.play(b, ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.count)))]);
      ++moves;
    }
    benchmark::DoNotOptimize(p.total);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(moves));
}
BENCHMARK(BM_IcebreakingRandomGame);

}  // namespace
