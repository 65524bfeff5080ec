// plugins/games/hanpang/eval.hpp: features on hand-built boards, and the evaluation's order.
#include <algorithm>
#include <array>

#include <doctest/doctest.h>

#include "games/hanpang/eval.hpp"
#include "seed22_board.hpp"

using namespace tactica;
using namespace tactica::hanpang;
namespace common = tactica::plugins::common;

namespace {

State board(const char* text) {
  auto s = State::from_text(text);
  REQUIRE(s.has_value());
  return *s;
}

// 15 lines, top first; the bottom lines carry the tiles.
const char* kSmall =
    "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
    "00000000\n00000000\n00000000\n00000000\n"
    "10000000\n"
    "21300000\n"
    "11322000\n";

// The reference twin of common::features: one plain flood fill per group, colour by colour
// (the first version; the fast one reads small groups off neighbour masks instead).
common::HanpangFeatures features_reference(const State& s, int danger_from, int* sizes, int* nsizes,
                                           bool bridged, const double* pot, bool collapsed,
                                           bool fed, bool bridge_pairs = false,
                                           bool bridge_exact = false) {
  common::HanpangFeatures f;
  const u128 occ = s.occupied();
  f.tiles = popcount(occ);
  int ns = 0;
  for (int k = 0; k < kColours; ++k) {
    const u128 p = s.planes[k];
    const u128 others = occ & ~p;
    const int np = popcount(p);
    f.colour_sq += np * np;
    f.reserve_sq = std::max<std::int64_t>(f.reserve_sq, np * np);
    u128 rest = p & neighbours<kLane>(p);
    const int singles = popcount(p & ~rest);
    f.singletons += singles;
    f.groups += singles;
    if (sizes)
      for (int i = 0; i < singles; ++i) sizes[ns++] = 1;
    while (rest) {
      const u128 g = flood_fill<kLane>(bit128(lowest_bit(rest)), rest);
      rest &= ~g;
      const int n = popcount(g);
      ++f.groups;
      f.sum_sq += n * n;
      if (pot) f.sum_pot += pot[n];
      f.in_groups += n;
      f.max_group = std::max(f.max_group, n);
      if (sizes) sizes[ns++] = n;
      if (fed && n >= common::kFeedMin) {
        // Its tiles with no tile of any colour under them (the lowest of their column).
        for (int c = 0; c < kCols; ++c) {
          int lowest = -1;
          for (int h = 0; h < kRows && lowest < 0; ++h)
            if (occ & bit128(cell(c, h))) lowest = h;
          if (lowest >= 0 && (g & bit128(cell(c, lowest)))) f.feed += n;
        }
      }
    }
    // Same colour two apart with another colour's tile between (occupied, so gravity-stable).
    f.vgaps += popcount(p & (p >> 2) & (others >> 1) & common::detail::kLow13);
    f.hgaps += popcount(p & (p >> (2 * kLane)) & (others >> kLane));
    if (collapsed) {
      // Runs of adjacent columns that hold this colour: with every other colour removed, their
      // tiles would fall to the bottom and form one group.
      int run = 0;
      for (int c = 0; c < kCols; ++c) {
        const int n = popcount(p & lane_mask(c));
        if (n) {
          run += n;
        } else {
          f.collapse_sq += static_cast<std::int64_t>(run) * run;
          run = 0;
        }
      }
      f.collapse_sq += static_cast<std::int64_t>(run) * run;
    }
    if (bridged) {
      // Other-coloured tiles with this colour on both sides (vertically or horizontally).
      u128 bridges = others & (((p << 1) & (p >> 1)) | ((p << kLane) & (p >> kLane)));
      if (bridge_exact) {
        // A bridge needs a tile of the colour above it (a vertical one has it anyway).
        for (int c = 0; c < kCols; ++c)
          for (int h = 0; h < kRows; ++h) {
            const u128 above = h + 1 < kRows ? bit128(cell(c, h + 1)) : 0;
            if (!(p & above)) bridges &= ~bit128(cell(c, h));
          }
      }
      u128 within = p | bridges;
      if (bridge_pairs) {
        // Two other-coloured tiles stacked between two of this colour's, cell by cell.
        for (int c = 0; c < kCols; ++c)
          for (int h = 1; h + 2 < kRows; ++h) {
            const auto at = [&](u128 m, int hh) { return (m & bit128(cell(c, hh))) != 0; };
            if (at(p, h - 1) && at(others, h) && at(others, h + 1) && at(p, h + 2))
              within |= bit128(cell(c, h)) | bit128(cell(c, h + 1));
          }
      }
      u128 todo = p & (neighbours<kLane>(within) & within);
      while (todo) {
        const u128 g = flood_fill<kLane>(bit128(lowest_bit(todo)), within);
        todo &= ~g;
        within &= ~g;
        const int m = popcount(g & p);
        f.bridge_sq += m * m;
      }
    }
  }
  if (f.max_group == 0 && f.tiles) f.max_group = 1;
  int prev_h = -1;
  for (int c = 0; c < kCols; ++c) {
    // The highest occupied height, not the tile count: boards searched with phantom rows
    // (empty bottom rows standing for rows of unknown colour) have gaps below their tiles.
    const int h = 32 - std::countl_zero(static_cast<std::uint32_t>(occ >> (c * kLane)) & 0x7FFFu);
    f.max_height = std::max(f.max_height, h);
    if (h > danger_from) {
      const int e = h - danger_from;
      f.danger += e * e;
      f.danger3 += e * e * e;
    }
    if (prev_h >= 0) f.bump += (h - prev_h) * (h - prev_h);
    prev_h = h;
  }
  if (nsizes) *nsizes = ns;
  return f;
}

// A random board as searches see them: random columns under gravity, sometimes lifted by
// phantom rows (empty bottom cells), sometimes with a group removed over such a gap.
State random_board(Rng& rng) {
  State s;
  const int rows = 1 + static_cast<int>(rng.below(15));
  for (int i = 0; i < rows; ++i) s.push_row(Row::random(rng));
  const int lifts = static_cast<int>(rng.below(4));
  for (int i = 0; i < lifts && !s.over(); ++i) common::push_phantom_row(s);
  if (rng.below(2) && s.tiles()) {
    GroupList gl;
    s.groups(gl);
    s.remove(gl[static_cast<int>(rng.below(static_cast<std::uint32_t>(gl.size())))].cells);
  }
  s.end = End::none;
  return s;
}

}  // namespace

TEST_CASE("hanpang_eval: features of a small board") {
  const State s = board(kSmall);
  // Column 0 bottom-up: 1,2,1; column 1: 1,1; column 2: 3,3; columns 3,4: 2.
  const auto f = common::features(s, 10);
  CHECK(f.tiles == 9);
  // Colour 1: (c0,h0),(c1,h0),(c1,h1) joined = 3; (c0,h2) alone. Colour 2: (c0,h1) alone,
  // (c3,h0),(c4,h0) = 2. Colour 3: (c2,h0),(c2,h1) = 2.
  CHECK(f.groups == 5);
  CHECK(f.singletons == 2);
  CHECK(f.sum_sq == 9 + 4 + 4);
  CHECK(f.max_group == 3);
  CHECK(f.max_height == 3);
  CHECK(f.vgaps == 1);  // colour 1 at heights 0 and 2 of column 0, colour 2 between
  CHECK(f.danger == 0);
}

TEST_CASE("hanpang_eval: collapsed masses (runs of adjacent columns holding a colour)") {
  const State s = board(kSmall);
  // Colour 1: columns 0-1 hold 2 + 2 = 4. Colour 2: column 0 (1), columns 3-4 (1 + 1).
  // Colour 3: column 2 (2). Not computed unless asked for.
  CHECK(common::features(s, 10).collapse_sq == 0);
  const auto f = common::features(s, 10, nullptr, nullptr, false, nullptr, true);
  CHECK(f.collapse_sq == 16 + 1 + 4 + 4);
  common::HanpangWeights w;
  const double base = common::evaluate(s, w);
  w.collapse_sq = 0.5;
  CHECK(common::evaluate(s, w) == doctest::Approx(base + 0.5 * 25));
}

TEST_CASE("hanpang_eval: bridged masses through two stacked tiles (bridge_pairs)") {
  // Column 0 bottom-up: 1,2,2,1 (a pair between); column 2: 1,3,2,1 (two singles between).
  const State s = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n"
      "10100000\n"
      "20200000\n"
      "20300000\n"
      "10100000\n");
  // Without: no colour-1 tile is bridged, so only the colour-2 pair is a mass (2^2).
  CHECK(common::features(s, 10, nullptr, nullptr, true).bridge_sq == 4);
  // With: the two 1s of each column are one mass of 2 besides.
  const auto f = common::features(s, 10, nullptr, nullptr, true, nullptr, false, false, true);
  CHECK(f.bridge_sq == 4 + 4 + 4);
  common::HanpangWeights w;
  w.bridge_sq = 0.5;
  const double base = common::evaluate(s, w);
  w.bridge_pairs = true;
  CHECK(common::evaluate(s, w) == doctest::Approx(base + 0.5 * 8));
}

TEST_CASE("hanpang_eval: horizontal bridges that join when removed (bridge_exact)") {
  // Colour 1 on both sides of a 2 twice at the bottom; only the right one has a 1 above it.
  const State s = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000100\n"
      "12101210\n");
  // Without: both bridge, masses of 2 (columns 0, 2) and 3 (columns 4, 6 and the 1 above).
  CHECK(common::features(s, 10, nullptr, nullptr, true).bridge_sq == 4 + 9);
  // With: removing the left 2 leaves a gap between its 1s, so only the right mass counts.
  CHECK(common::features(s, 10, nullptr, nullptr, true, nullptr, false, false, false, true)
            .bridge_sq == 9);
}

TEST_CASE("hanpang_eval: heights with phantom rows count the gaps") {
  State s = board(kSmall);
  common::push_phantom_row(s);
  common::push_phantom_row(s);
  std::array<int, kCols> h{};
  common::column_heights(s, h);
  CHECK(h[0] == 5);
  CHECK(h[7] == 0);
  CHECK(common::features(s, 10).tiles == 9);
  // Removal still lets the tiles above fall over the phantom gap: play the top tile of column 0.
  const int top = cell(0, 4);
  CHECK(s.colour_at(top) == 1);
  s.play(top);
  common::column_heights(s, h);
  CHECK(h[0] == 4);
}

TEST_CASE("hanpang_eval: ordering of values") {
 for (const auto& w : {common::HanpangWeights{}, common::beam_weights()}) {
  const common::HanpangEval ev(w);
  // A merged group is worth more than the same tiles split (k^2 is convex).
  const State merged = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n11112222\n");
  const State split = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n11221122\n");
  CHECK(ev(merged) > ev(split));
  CHECK(ev(merged) == doctest::Approx(common::evaluate(merged, w)));
  // Overflow before the last action is worse than any living board.
  State dead = merged;
  dead.end = End::overflow;
  CHECK(ev(dead) < ev(split) - 1e5);
  // The game over by the action limit is worth its score exactly.
  State done = merged;
  done.end = End::max_actions;
  done.score = 1234;
  CHECK(ev(done) == 1234.0);
  // A tall column is dangerous.
  State tall = split;
  for (int i = 0; i < 12; ++i) tall.push_row(Row::from_index(i * 7 % kNumRows));
  const auto ft = common::features(tall, w.danger_from);
  CHECK(ft.max_height == 13);
  CHECK(ft.danger > 0);
 }
}

TEST_CASE("hanpang_eval: fill_sq scales the masses' terms by how full the board is") {
  common::HanpangWeights w = common::beam_weights();
  w.collapse_sq = 0.05;
  State s = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n11221122\n");
  for (int i = 0; i < 11; ++i) s.push_row(Row::from_index(i * 7 % kNumRows));
  const auto f = common::features(s, w.danger_from, nullptr, nullptr, true, nullptr, true);
  REQUIRE(f.tiles == 96);
  const double masses = w.group_sq * static_cast<double>(f.sum_sq) +
                        w.bridge_sq * static_cast<double>(f.bridge_sq) +
                        w.collapse_sq * static_cast<double>(f.collapse_sq);
  REQUIRE(masses > 0);
  const double off = common::evaluate(s, w);
  // fill_mid at the board's 96 tiles: no change, whatever fill_sq.
  w.fill_sq = 0.5;
  CHECK(common::evaluate(s, w) == doctest::Approx(off));
  // 12 tiles above the mid: (1 + 0.5 * 12 / 24) = 1.25 times the masses.
  w.fill_mid = 84;
  CHECK(common::evaluate(s, w) == doctest::Approx(off + 0.25 * masses));
  // Below it, less; never below nothing.
  w.fill_mid = 108;
  CHECK(common::evaluate(s, w) == doctest::Approx(off - 0.25 * masses));
  w.fill_sq = 2.0;
  w.fill_mid = 120;
  CHECK(common::evaluate(s, w) == doctest::Approx(off - masses));
}

TEST_CASE("hanpang_eval: playout policies return tiles and avoid overflow") {
  Rng rng(7);
  RowSource rows(3);
  State s;
  s.push_row(rows.next());
  const common::HanpangWeights w;
  for (int i = 0; i < 60 && !s.over(); ++i) {
    const int a = common::random_safe_move(s, rng);
    const int b = common::eval_greedy_move(s, w);
    REQUIRE(s.colour_at(a) != 0);
    REQUIRE(s.colour_at(b) != 0);
    s.play(i % 2 ? a : b);
    if (!s.over()) s.push_row(rows.next());
  }
  CHECK(s.actions > 20);
}

TEST_CASE("hanpang_eval: the cubic danger term (steeper near the top)") {
  // Column 0 holds 13 tiles, column 1 holds 11, the others 1 (top line first).
  const State s = board(
      "00000000\n00000000\n"
      "10000000\n"
      "20000000\n"
      "31000000\n"
      "12000000\n"
      "23000000\n"
      "31000000\n"
      "12000000\n"
      "23000000\n"
      "31000000\n"
      "12000000\n"
      "23000000\n"
      "31000000\n"
      "12123123\n");
  const auto f = common::features(s, 10);
  CHECK(f.max_height == 13);
  CHECK(f.danger == 9 + 1);     // (13 - 10)^2 + (11 - 10)^2
  CHECK(f.danger3 == 27 + 1);   // (13 - 10)^3 + (11 - 10)^3
  common::HanpangWeights w;
  w.danger_from = 10;
  const double base = common::evaluate(s, w);
  w.danger3 = -2.0;
  CHECK(common::evaluate(s, w) == doctest::Approx(base - 2.0 * 28));
  // Off by default, so every measured config plays as before.
  CHECK(common::HanpangWeights{}.danger3 == 0.0);
  CHECK(common::beam_weights().danger3 == 0.0);
}

TEST_CASE("hanpang_eval: the feeding term (big groups on the lowest tiles of their columns)") {
  // Colour 1: a group of 7 (columns 0-4 bottom, columns 0-1 one up) with 5 tiles on the bottom
  // row; colour 2: a group of 6 in columns 5-7 resting on colour 3 (no tile on the edge); the
  // colour-3 tiles of the bottom row are a group of 3 (too small to count).
  const State base = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n"
      "00000222\n"
      "11000222\n"
      "11111333\n");
  State s = base;
  CHECK(common::features(s, 10).feed == 0);  // not computed unless asked for
  const auto f = common::features(s, 10, nullptr, nullptr, false, nullptr, false, true);
  CHECK(f.max_group == 7);
  CHECK(f.feed == 7 * 5);
  // Phantom rows under the board move the edge with the tiles: the same tiles, the same term.
  common::push_phantom_row(s);
  common::push_phantom_row(s);
  CHECK(common::features(s, 10, nullptr, nullptr, false, nullptr, false, true).feed == 7 * 5);
  // Taking the colour-3 group lets colour 2 fall onto the edge: 3 of its 6 tiles.
  State t = base;
  t.play(cell(7, 0));
  CHECK(common::features(t, 10, nullptr, nullptr, false, nullptr, false, true).feed == 7 * 5 + 6 * 3);
  common::HanpangWeights w;
  const double before = common::evaluate(t, w);
  w.feed = 0.25;
  CHECK(common::evaluate(t, w) == doctest::Approx(before + 0.25 * (35 + 18)));
  // Off by default, so every measured config plays as before.
  CHECK(common::HanpangWeights{}.feed == 0.0);
  CHECK(common::beam_weights().feed == 0.0);
}

TEST_CASE("hanpang_eval: endgame_mix blends the general value into the horizon's") {
  State s = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n"
      "11000000\n"
      "21300000\n"
      "31120000\n"
      "12233100\n"
      "12123123\n");
  common::HanpangWeights w;  // endgame 12, endgame_mix 0
  w.endgame = 12;
  // Outside the horizon the mix changes nothing.
  s.actions = kMaxActions - 13;
  const double general = common::evaluate(s, w);
  w.endgame_mix = 1.0;
  CHECK(common::evaluate(s, w) == general);
  // Inside it: mix 0 is the horizon's value alone (the largest `left` groups at full value).
  w.endgame_mix = 0.0;
  s.actions = kMaxActions - 4;  // 4 actions left: t = 4/13
  const double horizon = common::evaluate(s, w);
  w.endgame = 0;  // the same board valued by the general evaluation
  const double general4 = common::evaluate(s, w);
  w.endgame = 12;
  CHECK(horizon != doctest::Approx(general4));
  const double t = 4.0 / 13.0;
  w.endgame_mix = 1.0;
  CHECK(common::evaluate(s, w) == doctest::Approx((1 - t) * horizon + t * general4));
  w.endgame_mix = 0.5;
  CHECK(common::evaluate(s, w) == doctest::Approx((1 - 0.5 * t) * horizon + 0.5 * t * general4));
  // The tabulated evaluator agrees with the plain one (group_pow 2).
  CHECK(common::HanpangEval(w)(s) == doctest::Approx(common::evaluate(s, w)));
  // Off by default, so every measured config plays as before.
  CHECK(common::HanpangWeights{}.endgame_mix == 0.0);
  CHECK(common::beam_weights().endgame_mix == 0.0);
}

TEST_CASE("hanpang_eval: late_death values a late overflow at its points") {
  // Column 0 is full (15 tiles): taking the colour-3 group of columns 2-7 leaves it full, so the
  // removal ends the game by overflow, its 36 points kept.
  State s = board(
      "10000000\n10000000\n10000000\n10000000\n10000000\n10000000\n10000000\n10000000\n"
      "10000000\n10000000\n10000000\n10000000\n10000000\n10000000\n22333333\n");
  s.score = 5000;
  s.actions = kMaxActions - 4;
  const int c = cell(7, 0);
  REQUIRE(s.overflows(s.group_at(c)));
  State dead = s;
  dead.play(c);
  REQUIRE(dead.end == End::overflow);
  CHECK(dead.score == 5036);
  common::HanpangWeights w;
  // Off (the default): the penalty, far below any living board.
  CHECK(common::HanpangWeights{}.late_death == 0);
  CHECK(common::beam_weights().late_death == 0);
  CHECK(common::evaluate(dead, w) < -500000);
  // 3 actions were left after it: worth its points once late_death is 3 or more, not at 2.
  w.late_death = 2;
  CHECK(common::evaluate(dead, w) < -500000);
  w.late_death = 3;
  CHECK(common::evaluate(dead, w) == 5036.0);
  CHECK(common::HanpangEval(w)(dead) == 5036.0);
  // A living board keeps its value whatever late_death says.
  State alive = s;
  alive.play(cell(0, 0));  // the tall column's group: no overflow
  REQUIRE(alive.end == End::none);
  w.late_death = 0;
  const double v = common::evaluate(alive, w);
  w.late_death = 200;
  CHECK(common::evaluate(alive, w) == v);
}

TEST_CASE("hanpang_eval: the fast features equal the reference twin's on random boards") {
  Rng rng(20261202);
  std::array<double, kRows * kCols + 1> pot{};
  for (int k = 2; k <= kRows * kCols; ++k) pot[k] = 0.6 * k * k;
  for (int trial = 0; trial < 4000; ++trial) {
    const State s = random_board(rng);
    const bool bridged = trial % 2, collapsed = trial % 3 == 0, fed = trial % 5 < 3;
    const bool pairs = trial % 4 < 2, exact = trial % 7 < 4;
    const int from = 9 + trial % 4;
    std::array<int, kRows * kCols> sa{}, sb{};
    int na = -1, nb = -1;
    const auto a = common::features(s, from, sa.data(), &na, bridged, pot.data(), collapsed, fed,
                                    pairs, exact);
    const auto b = features_reference(s, from, sb.data(), &nb, bridged, pot.data(), collapsed, fed,
                                      pairs, exact);
    INFO(s.to_text());
    CHECK(a.tiles == b.tiles);
    CHECK(a.groups == b.groups);
    CHECK(a.singletons == b.singletons);
    CHECK(a.max_group == b.max_group);
    CHECK(a.max_height == b.max_height);
    CHECK(a.sum_sq == b.sum_sq);
    CHECK(a.sum_pot == doctest::Approx(b.sum_pot).epsilon(1e-12));
    CHECK(a.in_groups == b.in_groups);
    CHECK(a.vgaps == b.vgaps);
    CHECK(a.hgaps == b.hgaps);
    CHECK(a.danger == b.danger);
    CHECK(a.danger3 == b.danger3);
    CHECK(a.bridge_sq == b.bridge_sq);
    CHECK(a.colour_sq == b.colour_sq);
    CHECK(a.collapse_sq == b.collapse_sq);
    CHECK(a.reserve_sq == b.reserve_sq);
    CHECK(a.bump == b.bump);
    CHECK(a.feed == b.feed);
    // The same multiset of group sizes (the order differs).
    REQUIRE(na == nb);
    std::sort(sa.begin(), sa.begin() + na);
    std::sort(sb.begin(), sb.begin() + nb);
    CHECK(std::equal(sa.begin(), sa.begin() + na, sb.begin()));
    // Without the optional outputs the counts are the same.
    const auto c = common::features(s, from);
    CHECK(c.groups == b.groups);
    CHECK(c.sum_sq == b.sum_sq);
  }
}

namespace {

// Same-coloured neighbour pairs counted cell by cell (the twin of common::neighbour_pairs).
int pairs_reference(const State& s) {
  int n = 0;
  for (int c = 0; c < kCols; ++c)
    for (int h = 0; h < kRows; ++h) {
      const int a = s.colour_at(cell(c, h));
      if (a == 0) continue;
      n += h + 1 < kRows && s.colour_at(cell(c, h + 1)) == a;
      n += c + 1 < kCols && s.colour_at(cell(c + 1, h)) == a;
    }
  return n;
}

}  // namespace

TEST_CASE("hanpang_eval: useless single tiles (their removal adds no neighbour pair)") {
  // Column 0 bottom-up 1, 2, 3: taking the 2 drops the 3 beside nothing of its colour.
  const State a = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n30000000\n20000000\n10000000\n");
  CHECK(common::useless_single(a, cell(0, 1), 10));
  // Column 0 bottom-up 1, 2, 1: taking the 2 joins the two 1s.
  const State b = board(
      "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
      "00000000\n00000000\n00000000\n00000000\n10000000\n20000000\n10000000\n");
  CHECK_FALSE(common::useless_single(b, cell(0, 1), 10));
  // A column higher than danger_from: its single tiles are never useless.
  CHECK_FALSE(common::useless_single(a, cell(0, 1), 2));
  CHECK(common::useless_single(a, cell(0, 1), 3));
  // On random boards: the pairs as counted cell by cell, and useless exactly where the removal
  // adds none.
  Rng rng(20261207);
  int useless = 0, useful = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const State s = random_board(rng);
    INFO(s.to_text());
    REQUIRE(common::neighbour_pairs(s) == pairs_reference(s));
    GroupList gl;
    s.groups(gl);
    const int from = 8 + trial % 5;
    for (const Group& g : gl) {
      if (g.size != 1) continue;
      State t = s;
      t.remove(g.cells);
      int top = 0;  // the column's highest tile (boards with phantom rows have gaps below)
      for (int h = 0; h < kRows; ++h)
        if (s.colour_at(cell(col_of(g.rep), h))) top = h + 1;
      const bool tall = top > from;
      const bool expect = !tall && pairs_reference(t) <= pairs_reference(s);
      CHECK(common::useless_single(s, g.rep, from) == expect);
      (expect ? useless : useful) += 1;
    }
  }
  CHECK(useless > 100);
  CHECK(useful > 100);
}

namespace {

// The reference twin of common::phantom_survives: every tiled cell's group played with
// State::remove (which flags a column left full itself), no budget.
bool survives_reference(const State& s, int plies) {
  if (s.end == End::overflow) return false;
  if (plies <= 0 || s.end == End::max_actions) return true;
  if (!s.occupied()) return true;
  for (u128 m = s.occupied(); m;) {
    State t = s;
    t.remove(t.group_at(pop_lowest(m)));
    if (t.end == End::max_actions) return true;
    if (t.end == End::overflow) continue;
    if (plies == 1) return true;
    common::push_phantom_row(t);
    if (survives_reference(t, plies - 1)) return true;
  }
  return false;
}

// A board near the top: rows rise and small groups go until a column holds `top` tiles or more
// (a phantom row now and then), as a hoarding player leaves it.
State crowded_board(Rng& rng, int top) {
  for (;;) {
    State s;
    s.actions = static_cast<int>(rng.below(190));
    while (!s.over() && s.max_height() < top) {
      if (rng.below(6) == 0)
        common::push_phantom_row(s);
      else
        s.push_row(Row::random(rng));
      GroupList gl;
      s.groups(gl);
      if (s.over() || gl.size() == 0) break;
      const Group& g = gl[static_cast<int>(rng.below(static_cast<std::uint32_t>(gl.size())))];
      if (g.size <= 2) s.remove(g.cells);
      s.actions = std::min(s.actions, kMaxActions - 1);
    }
    if (!s.over() && s.max_height() >= top) return s;
  }
}

}  // namespace

TEST_CASE("hanpang_eval: phantom_survives equals its reference twin on crowded boards") {
  Rng rng(20261206);
  int lost[4] = {0, 0, 0, 0};
  for (int trial = 0; trial < 600; ++trial) {
    const State s = crowded_board(rng, 13 + trial % 3);
    const int plies = 1 + trial % 3;
    if (plies == 3 && trial % 2) continue;  // the twin is slow where every line is lost
    long budget = 1L << 40;
    const bool fast = common::phantom_survives(s, plies, budget);
    INFO(s.to_text());
    INFO("plies " << plies);
    CHECK(fast == survives_reference(s, plies));
    lost[plies] += !fast;
  }
  // Lost boards were met at every depth (the test compares both answers).
  CHECK(lost[1] > 0);
  CHECK(lost[2] > lost[1] / 4);
  CHECK(lost[3] > 0);
}

TEST_CASE("hanpang_eval: phantom_survives on two full columns no group joins") {
  // Columns 0 and 7 full (colours 1 and 2), colour 3 between at the bottom: every move leaves a
  // column full, so the next row pushes a tile out.
  const State s = board(
      "10000002\n10000002\n10000002\n10000002\n10000002\n10000002\n10000002\n10000002\n"
      "10000002\n10000002\n10000002\n10000002\n13333332\n13333332\n13333332\n");
  long budget = 1000;
  CHECK_FALSE(common::phantom_survives(s, 1, budget));
  CHECK(budget == 999);  // one state visited
  // With its budget spent it does not call the board lost.
  budget = 0;
  CHECK(common::phantom_survives(s, 1, budget));
  // Column 7 full, column 0 one short: taking column 7 keeps the board; after the next row
  // column 0 is full, and taking it keeps the board again.
  const State t = board(
      "00000002\n10000002\n10000002\n10000002\n10000002\n10000002\n10000002\n10000002\n"
      "10000002\n10000002\n10000002\n10000002\n13333332\n13333332\n13333332\n");
  budget = 1000;
  CHECK(common::phantom_survives(t, 1, budget));
  budget = 1000;
  CHECK(common::phantom_survives(t, 2, budget));
  CHECK(survives_reference(t, 2));
}

TEST_CASE("hanpang_eval: sampled_survivals sees a real row split what a phantom row rejoins") {
  State s = board(beam_testing::kSeed22Board);
  s.actions = beam_testing::kSeed22Actions;
  const Group pair{s.group_at(cell(5, 0)), 2, cell(5, 0), 1};
  REQUIRE(popcount(pair.cells) == 2);
  long budget = 1L << 30;
  CHECK(common::phantom_move_survives(s, pair, 4, budget));
  const Row real = *Row::parse(beam_testing::kSeed22Row);
  budget = 1L << 30;
  CHECK(common::sampled_survivals(s, pair, 4, &real, 1, budget) == 0);
  // Taking the whole mass keeps the board on that row, and on every row of a sample.
  const Group mass{s.group_at(cell(0, 10)), 53, cell(0, 10), 1};
  REQUIRE(popcount(mass.cells) == 53);
  Rng rng(22);
  std::array<Row, 16> rows;
  for (auto& r : rows) r = Row::random(rng);
  budget = 1L << 30;
  CHECK(common::sampled_survivals(s, mass, 4, &real, 1, budget) == 1);
  CHECK(common::sampled_survivals(s, mass, 4, rows.data(), 16, budget) == 16);
  // The counts agree with the phantom check after each row, one row at a time.
  for (const Row& r : rows) {
    State c = s;
    c.remove(pair.cells);
    c.push_row(r);
    long b1 = 1L << 30, b2 = 1L << 30;
    CHECK(common::sampled_survivals(s, pair, 4, &r, 1, b1) ==
          (common::phantom_survives(c, 3, b2) ? 1 : 0));
  }
  // With one action to go (no row follows it) every row is kept.
  budget = 1L << 30;
  State last = s;
  last.actions = kMaxActions - 1;
  CHECK(common::sampled_survivals(last, pair, 4, rows.data(), 16, budget) == 16);
}
