// Hanpang over many seeded games: the bitboard engine against the reference game at every move
// (differential), and the conservation invariants over 10,000 random games.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "rules_helpers.hpp"
#include "tactica/hanpang.hpp"

// The portable-build variant of this test (TACTICA_NO_SIMD) runs fewer games.
#ifndef TACTICA_RULES_TEST_SCALE
#define TACTICA_RULES_TEST_SCALE 1
#endif

namespace {

constexpr int kScale = TACTICA_RULES_TEST_SCALE;

using namespace tactica;
using namespace tactica::hanpang;

// How a test game picks its move among the listed groups.
enum class Policy {
  uniform,    // a group uniformly at random
  greedy,     // mostly the largest group that does not overflow, sometimes a random one
  lookahead,  // two plies deep, peeking at the next row: survives to the 200-action end
};

// Lowest (tiles, height) two plies ahead, knowing the next row. A test device only: a real
// agent does not see the next row. Returns an index into `gl`.
int lookahead_choice(const State& s, const GroupList& gl, const Row& next) {
  int best = 0;
  long best_value = 0;
  GroupList second;
  for (int i = 0; i < gl.size(); ++i) {
    State t = s;
    t.remove(gl[i].cells);
    long value;
    if (t.end == End::overflow) {
      value = 1L << 40;
    } else if (t.over()) {
      value = 0;
    } else {
      t.push_row(next);
      t.groups(second);
      value = 1L << 39;
      for (const Group& h : second) {
        State u = t;
        u.remove(h.cells);
        const long v = u.end == End::overflow
                           ? (1L << 38)
                           : u.tiles() * 4L + u.max_height() * 8L - h.size * h.size / 8;
        value = std::min(value, v);
      }
    }
    if (i == 0 || value < best_value) best = i, best_value = value;
  }
  return best;
}

int choose(Policy policy, const State& s, const GroupList& gl, const RowSource& rows, Rng& rng) {
  const auto n = static_cast<std::uint32_t>(gl.size());
  switch (policy) {
    case Policy::uniform: return static_cast<int>(rng.below(n));
    case Policy::greedy: {
      if (rng.below(10) < 3) return static_cast<int>(rng.below(n));
      const int c = fallback_move(s);
      for (int i = 0; i < gl.size(); ++i)
        if (gl[i].cells & bit128(c)) return i;
      FAIL("fallback_move chose a cell of no listed group");
      return 0;
    }
    case Policy::lookahead: {
      RowSource peek = rows;
      return lookahead_choice(s, gl, peek.next());
    }
  }
  return 0;
}

void check_same(const State& s, const ref::hanpang::Game& g) {
  RULES_ENSURE(s.planes == test::planes_of(g));
  RULES_ENSURE(s.score == g.score);
  RULES_ENSURE(s.actions == g.actions);
  RULES_ENSURE(s.end == test::to_engine_end(g.ending));
  RULES_ENSURE(s.tiles() == g.tiles());
}

// The engine's groups against the reference's numbering of the tiles: each group consistent
// (size, lowest cell, colour), all tiles of a group under one reference number, each number
// used by exactly one group of the same size, and as many groups as numbers. That makes the two
// partitions of the tiles into groups identical.
void check_groups(const State& s, const GroupList& gl, const ref::hanpang::Game& g) {
  int label[ref::hanpang::kRows][ref::hanpang::kCols];
  const int n = g.label(label);
  RULES_ENSURE(gl.size() == n);
  RULES_ENSURE(s.group_count() == n);
  int count[ref::hanpang::kRows * ref::hanpang::kCols] = {};
  for (int r = 0; r < ref::hanpang::kRows; ++r)
    for (int c = 0; c < ref::hanpang::kCols; ++c)
      if (label[r][c] >= 0) ++count[label[r][c]];
  bool used[ref::hanpang::kRows * ref::hanpang::kCols] = {};
  u128 covered = 0;
  for (const Group& grp : gl) {
    RULES_ENSURE(grp.cells != 0);
    RULES_ENSURE((grp.cells & covered) == 0);
    covered |= grp.cells;
    RULES_ENSURE(grp.size == popcount(grp.cells));
    RULES_ENSURE(grp.rep == lowest_bit(grp.cells));
    RULES_ENSURE(grp.colour >= 1 && grp.colour <= 3);
    RULES_ENSURE((grp.cells & ~s.planes[grp.colour - 1]) == 0);
    const auto rep = test::to_ref_cell(grp.rep);
    const int l = label[rep.row][rep.col];
    RULES_ENSURE(l >= 0);
    RULES_ENSURE(!used[l]);
    used[l] = true;
    RULES_ENSURE(count[l] == grp.size);
    for (int x : bits{grp.cells}) {
      const auto rc = test::to_ref_cell(x);
      RULES_ENSURE(label[rc.row][rc.col] == l);
    }
  }
  RULES_ENSURE(covered == s.occupied());
}

struct Tally {
  int games = 0, moves = 0, overflow = 0, max_actions = 0;
};

void differential_game(std::uint64_t seed, Policy policy, Rng& rng, Tally& tally) {
  CAPTURE(seed);
  RowSource rows(seed);
  State s;
  ref::hanpang::Game g;
  const Row first = rows.next();
  s.push_row(first);
  g.push_row(test::colours_of(first));
  check_same(s, g);
  GroupList gl;
  while (!s.over()) {
    CAPTURE(s.actions);
    // The legal moves: the same set of groups.
    s.groups(gl);
    check_groups(s, gl, g);
    // The chosen move, on both; alternately through play(cell) and remove(cells).
    const Group& grp = gl[choose(policy, s, gl, rows, rng)];
    const bool predicted = s.overflows(grp.cells) && s.actions + 1 < kMaxActions;
    // Any cell of a group selects it: alternately its representative and another member.
    const u128 others = grp.cells & (grp.cells - 1);
    const int chosen = (s.actions % 2 && others) ? lowest_bit(others) : grp.rep;
    RULES_ENSURE(s.group_at(chosen) == grp.cells);
    const int points = (s.actions % 3 == 0) ? s.remove(grp.cells) : s.play(chosen);
    const auto rc = test::to_ref_cell(chosen);
    RULES_ENSURE(g.play(rc.row, rc.col) == points);
    RULES_ENSURE(points == grp.size * grp.size);
    RULES_ENSURE(predicted == (s.end == End::overflow));
    check_same(s, g);
    ++tally.moves;
    if (s.over()) break;
    const Row next = rows.next();
    RULES_ENSURE(s.push_row(next));
    g.push_row(test::colours_of(next));
    check_same(s, g);
  }
  RULES_ENSURE(g.over());
  RULES_ENSURE(s.to_text() == g.text());
  ++tally.games;
  tally.overflow += s.end == End::overflow;
  tally.max_actions += s.end == End::max_actions;
  if (s.end == End::max_actions) RULES_ENSURE(s.actions == kMaxActions);
}

TEST_CASE("hanpang differential: 2,000 uniformly random games") {
  constexpr int kGames = 2000 / kScale;
  Rng rng(101);
  Tally t;
  for (std::uint64_t seed = 1; seed <= kGames; ++seed)
    differential_game(seed, Policy::uniform, rng, t);
  CHECK(t.games == kGames);
  CHECK(t.overflow == kGames);  // random play never survives 200 actions
  MESSAGE("uniform: ", t.games, " games, ", t.moves, " moves");
}

TEST_CASE("hanpang differential: games biased toward large groups") {
  Rng rng(202);
  Tally t;
  for (std::uint64_t seed = 10001; seed <= 10000 + 200 / kScale; ++seed)
    differential_game(seed, Policy::greedy, rng, t);
  CHECK(t.moves > t.games * 25);  // these games are longer than random ones
  MESSAGE("greedy: ", t.games, " games, ", t.moves, " moves");
}

TEST_CASE("hanpang differential: long games that reach the 200-action end") {
  Rng rng(303);
  Tally t;
  constexpr int kGames = 16 / kScale;
  for (std::uint64_t seed = 20001; seed <= 20000 + kGames; ++seed)
    differential_game(seed, Policy::lookahead, rng, t);
  CHECK(t.max_actions >= kGames / 4);  // about two thirds do; the 200-action end is exercised
  MESSAGE("lookahead: ", t.games, " games, ", t.moves, " moves, ", t.max_actions,
          " reached 200 actions");
}

// Tiles in (8 per row) = tiles removed + tiles on the board; columns packed from the bottom;
// no bit outside the board; colour planes disjoint; score = sum of k^2.
void check_invariants(const State& s, long tiles_in, long tiles_removed, std::int64_t squares) {
  RULES_ENSURE(tiles_in == tiles_removed + s.tiles());
  RULES_ENSURE(s.score == squares);
  RULES_ENSURE((s.occupied() & ~kValid) == 0);
  RULES_ENSURE((s.planes[0] & s.planes[1]) == 0);
  RULES_ENSURE((s.planes[0] & s.planes[2]) == 0);
  RULES_ENSURE((s.planes[1] & s.planes[2]) == 0);
  bool floating = false;  // a tile above an empty cell
  for (int col = 0; col < kCols; ++col) {
    bool gap = false;
    for (int h = 0; h < kRows; ++h) {
      const bool tile = s.colour_at(cell(col, h)) != 0;
      floating = floating || (tile && gap);
      gap = gap || !tile;
    }
  }
  RULES_ENSURE(!floating);
}

TEST_CASE("hanpang invariants: 10,000 random games") {
  Rng rng(404);
  GroupList gl;
  long moves = 0;
  for (std::uint64_t seed = 1; seed <= 10000 / kScale; ++seed) {
    CAPTURE(seed);
    RowSource rows(seed * 7919);
    State s;
    long in = 0, removed = 0;
    std::int64_t squares = 0;
    s.push_row(rows.next());
    in += kCols;
    check_invariants(s, in, removed, squares);
    const bool biased = seed % 10 == 0;  // some longer games: mostly the largest safe group
    while (!s.over()) {
      s.groups(gl);
      RULES_ENSURE(gl.size() > 0);
      const int c = biased && rng.below(4) != 0
                        ? fallback_move(s)
                        : gl[static_cast<int>(rng.below(static_cast<std::uint32_t>(gl.size())))].rep;
      const int k = popcount(s.group_at(c));
      RULES_ENSURE(s.play(c) == k * k);
      removed += k;
      squares += static_cast<std::int64_t>(k) * k;
      ++moves;
      check_invariants(s, in, removed, squares);
      if (s.over()) break;
      RULES_ENSURE(s.push_row(rows.next()));
      in += kCols;
      check_invariants(s, in, removed, squares);
    }
    // The game ended for a reason the rules give.
    if (s.end == End::overflow) RULES_ENSURE(s.max_height() == kRows);
    else RULES_ENSURE(s.actions == kMaxActions);
  }
  MESSAGE("invariants: ", 10000 / kScale, " games, ", moves, " moves");
}

}  // namespace
