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

// A uniform pick of one of `count` moves (the random games' policy).
int pick(Rng& rng, int count) {
  return static_cast<int>(rng.below(static_cast<std::uint32_t>(count)));
}

// Times `play(i)` for the moves i = 0..count-1 of one position in turn.
// Times one call per iteration: `call()` returns what must not be optimised away.
template <class Call>
void each_call(benchmark::State& st, const Call& call) {
  for (auto _ : st) benchmark::DoNotOptimize(call());
  st.SetItemsProcessed(st.iterations());
}

template <class Play>
void each_move_in_turn(benchmark::State& st, int count, const Play& play) {
  int i = 0;
  for (auto _ : st) {
    play(i);
    if (++i == count) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
}

// Times whole random games, seeds 1, 2, ...: `game(seed, rng)` plays one and returns its moves.
template <class Game>
void random_games(benchmark::State& st, const Game& game) {
  Rng rng(1);
  std::uint64_t seed = 1, moves = 0;
  for (auto _ : st) moves += game(seed++, rng);
  st.SetItemsProcessed(static_cast<std::int64_t>(moves));
}

void BM_HanpangGroups(benchmark::State& st) {
  const auto s = hanpang_midgame(7);
  hanpang::GroupList gl;
  each_call(st, [&] { return s.groups(gl), gl.count; });
}
BENCHMARK(BM_HanpangGroups);

void BM_HanpangPlay(benchmark::State& st) {
  const auto s = hanpang_midgame(7);
  hanpang::GroupList gl;
  s.groups(gl);
  each_move_in_turn(st, gl.count, [&](int i) {
    auto t = s;
    t.remove(gl[i].cells);
    benchmark::DoNotOptimize(t);
  });
}
BENCHMARK(BM_HanpangPlay);

void BM_HanpangRandomGame(benchmark::State& st) {
  hanpang::GroupList gl;
  random_games(st, [&](std::uint64_t seed, Rng& rng) {
    hanpang::RowSource rows(seed);
    hanpang::State s;
    s.push_row(rows.next());
    std::uint64_t moves = 0;
    while (!s.over()) {
      s.groups(gl);
      s.remove(gl[pick(rng, gl.count)].cells);
      ++moves;
      if (!s.over()) s.push_row(rows.next());
    }
    benchmark::DoNotOptimize(s.score);
    return moves;
  });
}
BENCHMARK(BM_HanpangRandomGame);

void BM_IcebreakingMoves(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  const auto p = icebreaking::Position::start(b);
  icebreaking::MoveList ml;
  each_call(st, [&] { return p.moves(ml), ml.count; });
}
BENCHMARK(BM_IcebreakingMoves);

void BM_IcebreakingPlay(benchmark::State& st) {
  const auto b = icebreaking::Board::from_seed(7);
  auto p = icebreaking::Position::start(b);
  Rng rng(3);
  icebreaking::MoveList ml;
  for (int i = 0; i < 30; ++i) {  // a mid-game position
    p.moves(ml);
    p.play(b, ml[pick(rng, ml.count)]);
  }
  p.moves(ml);
  each_move_in_turn(st, ml.count, [&](int i) {
    auto q = p;
    benchmark::DoNotOptimize(q.play(b, ml[i]));
  });
}
BENCHMARK(BM_IcebreakingPlay);

void BM_IcebreakingRandomGame(benchmark::State& st) {
  icebreaking::MoveList ml;
  random_games(st, [&](std::uint64_t seed, Rng& rng) {
    const auto b = icebreaking::Board::from_seed(seed);
    auto p = icebreaking::Position::start(b);
    std::uint64_t moves = 0;
    while (!p.over()) {
      p.moves(ml);
      p.play(b, ml[pick(rng, ml.count)]);
      ++moves;
    }
    benchmark::DoNotOptimize(p.total);
    return moves;
  });
}
BENCHMARK(BM_IcebreakingRandomGame);

}  // namespace
