// Icebreaking over many seeded games: the bitboard engine against the reference game at every
// move (differential), and the ownership invariants over 10,000 random games.
#include <doctest/doctest.h>

#include <vector>

#include "rules_helpers.hpp"
#include "tactica/icebreaking.hpp"

namespace {

using namespace tactica;
using namespace tactica::icebreaking;

enum class Policy {
  uniform,  // an empty cell uniformly at random
  greedy,   // mostly the move that gains most (so big captures happen often), sometimes random
};

int choose(Policy policy, const Board& b, const Position& p, const MoveList& ml, Rng& rng) {
  const auto n = static_cast<std::uint32_t>(ml.size());
  if (policy == Policy::uniform || rng.below(4) == 0) return ml[static_cast<int>(rng.below(n))];
  int best = ml[0], best_gain = -1000;
  for (int c : ml) {
    Position q = p;
    const MoveResult r = q.play(b, c);
    const int gain = r.gain + popcount(r.captured);  // prefers captures
    if (gain > best_gain) best = c, best_gain = gain;
  }
  return best;
}

void check_same(const Position& p, const ref::icebreaking::Game& g) {
  const auto sets = test::sets_of(g);
  RULES_ENSURE(p.ice == sets.ice);
  RULES_ENSURE(p.owned[A] == sets.first);
  RULES_ENSURE(p.owned[B] == sets.second);
  RULES_ENSURE(p.total[A] == g.total[0]);
  RULES_ENSURE(p.total[B] == g.total[1]);
  RULES_ENSURE(static_cast<int>(p.to_move) == g.to_move);
  RULES_ENSURE(p.over() == g.over());
}

struct Tally {
  int games = 0, moves = 0, captures = 0, captured_cells = 0;
};

void differential_game(std::uint64_t seed, Policy policy, Rng& rng, Tally& t) {
  CAPTURE(seed);
  const Board b = Board::from_seed(seed);
  Position p = Position::start(b);
  auto g = test::reference_of(b);
  check_same(p, g);
  MoveList ml;
  while (!p.over()) {
    CAPTURE(p.ply);
    // The legal moves: the same empty cells (both in row-major order).
    p.moves(ml);
    const auto theirs = g.moves();
    RULES_ENSURE(ml.size() == static_cast<int>(theirs.size()));
    for (int i = 0; i < ml.size(); ++i) RULES_ENSURE(test::to_ref_cell_ib(ml[i]) == theirs[i]);
    const int c = choose(policy, b, p, ml, rng);
    const u128 predicted = p.captures(c);
    const MoveResult mine = p.play(b, c);
    const auto theirs_result = g.play(row_of(c), col_of(c));
    RULES_ENSURE(mine.captured == predicted);
    RULES_ENSURE(mine.gain == theirs_result.gain);
    RULES_ENSURE(test::ref_cells_ib(mine.captured) == theirs_result.captured);
    check_same(p, g);
    ++t.moves;
    t.captures += mine.captured != 0;
    t.captured_cells += popcount(mine.captured);
  }
  RULES_ENSURE(p.leader() == g.leader());
  ++t.games;
}

TEST_CASE("icebreaking differential: 2,000 uniformly random games") {
  Rng rng(505);
  Tally t;
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) differential_game(seed, Policy::uniform, rng, t);
  CHECK(t.captures > 2000);  // captures are common, so they are well exercised
  MESSAGE("uniform: ", t.games, " games, ", t.moves, " moves, ", t.captures, " captures of ",
          t.captured_cells, " cells");
}

TEST_CASE("icebreaking differential: games biased toward captures") {
  Rng rng(606);
  Tally t;
  for (std::uint64_t seed = 50001; seed <= 50500; ++seed)
    differential_game(seed, Policy::greedy, rng, t);
  CHECK(t.captures > 500);
  MESSAGE("greedy: ", t.games, " games, ", t.moves, " moves, ", t.captures, " captures of ",
          t.captured_cells, " cells");
}

// Every cell is exactly one of hole, empty ice, A's, B's; each total is the sum of the scores
// of the cells that side owns (summed cell by cell, not with the engine's score masks).
void check_invariants(const Board& b, const Position& p) {
  RULES_ENSURE((p.ice | p.owned[A] | p.owned[B] | b.holes) == kAll);
  RULES_ENSURE((p.ice & p.owned[A]) == 0);
  RULES_ENSURE((p.ice & p.owned[B]) == 0);
  RULES_ENSURE((p.owned[A] & p.owned[B]) == 0);
  RULES_ENSURE(((p.ice | p.owned[A] | p.owned[B]) & b.holes) == 0);
  for (int side : {0, 1}) {
    int sum = 0;
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c)
        if (p.owned[side] & bit128(cell(r, c))) sum += b.score[cell(r, c)];
    RULES_ENSURE(p.total[side] == sum);
  }
}

TEST_CASE("icebreaking invariants: 10,000 random games") {
  Rng rng(707);
  MoveList ml;
  long moves = 0;
  int a_wins = 0, b_wins = 0, draws = 0;
  for (std::uint64_t seed = 1; seed <= 10000; ++seed) {
    CAPTURE(seed);
    const Board b = Board::from_seed(seed * 104729);
    Position p = Position::start(b);
    check_invariants(b, p);
    int ply = 0;
    while (!p.over()) {
      p.moves(ml);
      RULES_ENSURE(ml.size() == popcount(p.ice));
      const int c = ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.size())))];
      const int before = popcount(p.ice);
      const MoveResult res = p.play(b, c);
      // A move takes the chosen cell and the captured cells, nothing else.
      RULES_ENSURE(popcount(p.ice) == before - 1 - popcount(res.captured));
      ++ply;
      ++moves;
      if (seed % 16 == 0) check_invariants(b, p);
    }
    RULES_ENSURE(p.ply == ply);
    RULES_ENSURE(p.ice == 0);
    check_invariants(b, p);
    (p.leader() > 0 ? a_wins : p.leader() < 0 ? b_wins : draws)++;
  }
  CHECK(a_wins > 0);
  CHECK(b_wins > 0);
  CHECK(draws > 0);
  MESSAGE("invariants: 10000 games, ", moves, " moves; A ", a_wins, ", B ", b_wins, ", draws ",
          draws);
}

}  // namespace
