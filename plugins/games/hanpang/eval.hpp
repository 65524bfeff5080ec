// games/hanpang/eval.hpp — board potential for Hanpang, shared by the beam, expectimax and mcts plugins.
//
// What makes points: k^2 rewards huge groups, but every action adds a row of 8 tiles, so the board
// only stays level if moves remove 8 tiles on average. The plan the evaluation rewards: keep the
// board safe but not empty, grow one or two giant same-coloured masses, cash them when big, and
// cash everything before action 200 (unplayed mass is then worth nothing). Hence the terms:
//   - score so far (exact points);
//   - group potential: sum of k^2 over groups of size >= 2 (what cashing could pay), scaled;
//   - near-connections: same colour two cells apart vertically or horizontally with one other
//     tile between (one removal would join them);
//   - fragmentation: the number of groups and of single tiles (each costs a move to clear);
//   - height: tiles on the board, and a steep danger term for columns near the top;
//   - the horizon: with few actions left, only the r largest groups can still be cashed.
// Everything works on hanpang::State bitboards; no allocation. Header-only, standard library only.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "tactica/hanpang.hpp"
#include "tactica/rng.hpp"

namespace tactica::plugins::common {

// Weights of the board evaluation; every field is a weight in points (k^2 units) per unit of its
// feature. The defaults are the first version's (other plugins tuned against them); the beam
// plugin's best values are beam_weights() below (see docs/STRATEGIES.md, "beam").
struct HanpangWeights {
  double group_sq = 0.6;        // per k^2 of every group with k >= 2
  double group_lin = 0.0;       // per tile in groups with k >= 2
  double singleton = -1.5;      // per isolated tile
  double group = -1.0;          // per group (any size)
  double vgap = 2.0;            // same colour at heights h and h+2, another colour at h+1
  double hgap = 1.0;            // same colour in columns c and c+2 at one height, other between
  double tile = -0.5;           // per tile on the board
  double danger = -40.0;        // per (height - danger_from)^2, summed over columns
  int danger_from = 10;         // column height where danger starts
  double overflow = -1.0e6;     // a board that ended by overflow (dead before action 200)
  int endgame = 12;             // with r <= endgame actions left, only the r largest groups count
  double group_pow = 2.0;       // the group potential is group_sq * k^group_pow (2: k^2)
  double max_sq = 0.0;          // extra per k^2 of the largest group (one giant mass, not many)
  double colour_sq = 0.0;       // per n^2 of each colour's tile count (one dominant colour)
  double bridge_sq = 0.0;       // per m^2 of each colour's "bridged" mass: its tiles joined
                                // through single other-coloured tiles between two of them
  bool bridge_pairs = false;    // bridged masses also join through two other-coloured tiles
                                // stacked between two of the colour's (removing them, one
                                // move or two, drops the upper tile onto the lower)
  bool bridge_exact = false;    // a horizontal bridge only where the tile above it is the
                                // colour's too (removing the bridge drops that tile between
                                // the two; without it they stay apart)
  double collapse_sq = 0.0;     // per n^2 of each colour's "collapsed" masses: its tiles in a
                                // run of adjacent columns that all hold it (what would join if
                                // every other colour's tile were removed)
  double reserve_sq = 0.0;      // per n^2 of the most numerous colour's tiles: the "reserve"
                                // colour saved for one giant group (SameGame's tabu colour)
  double bump = 0.0;            // per (h_c - h_c+1)^2 over adjacent columns (an uneven skyline
                                // puts the danger in few columns)
  double danger3 = 0.0;         // per (height - danger_from)^3, summed over columns: a penalty
                                // steeper than `danger` near the top of the column profile
  double feed = 0.0;            // per k * e over groups of k >= kFeedMin tiles, e of them on the
                                // feeding edge (each column's lowest tile: the rows to come rise
                                // under it, and the phantom rows a search foresees never join)
  double endgame_mix = 0.0;     // with r <= endgame actions left, this much times r/(endgame+1)
                                // of the general evaluation is mixed into the horizon's (1: the
                                // value goes over smoothly at the horizon; 0: the horizon only)
  int late_death = 0;           // an overflow with this many actions left or fewer is worth its
                                // points (they are kept; only the actions left are lost) instead
                                // of the overflow penalty (0: off, every overflow before
                                // action 200 is penalised)
  double fill_sq = 0.0;         // the masses' terms (group_sq, bridge_sq, collapse_sq) weigh
                                // 1 + fill_sq * (tiles - fill_mid) / 24 times as much (at least
                                // 0): what a mass is worth against how full the board is
  int fill_mid = 96;            // the tile count where fill_sq changes nothing
  bool operator==(const HanpangWeights&) const = default;
};

// The best weights measured with the beam plugin's phantom-row search (docs/STRATEGIES.md): hold
// groups (k^2 above its cash value), reward tiles while safe, punish fragments.
inline HanpangWeights beam_weights() {
  HanpangWeights w;
  w.group_sq = 1.2;
  w.singleton = -4.0;
  w.group = -4.0;
  w.tile = 3.0;
  w.danger = -40.0;
  w.danger_from = 11;
  w.bridge_sq = 0.5;
  return w;
}

// Features of one board, computed in one pass over its groups.
struct HanpangFeatures {
  int tiles = 0;
  int groups = 0;
  int singletons = 0;
  int max_group = 0;
  int max_height = 0;
  std::int64_t sum_sq = 0;  // sum of k^2 over groups with k >= 2
  double sum_pot = 0;       // sum of pot[k] over groups with k >= 2 (if a table was given)
  int in_groups = 0;        // tiles in groups with k >= 2
  int vgaps = 0;
  int hgaps = 0;
  int danger = 0;           // sum over columns of max(0, h - danger_from)^2
  int danger3 = 0;          // sum over columns of max(0, h - danger_from)^3
  std::int64_t bridge_sq = 0;  // sum of m^2 over bridged masses (computed only on request)
  std::int64_t colour_sq = 0;  // sum over colours of (tiles of that colour)^2
  std::int64_t collapse_sq = 0;  // sum of n^2 over each colour's collapsed masses (on request)
  std::int64_t reserve_sq = 0;   // (tiles of the most numerous colour)^2
  int bump = 0;                  // sum over adjacent columns of (h_c - h_c+1)^2
  std::int64_t feed = 0;         // sum of k * e over groups of k >= kFeedMin, e = its tiles that
                                 // are the lowest of their column (feeding_edge; on request)
};

// Groups of fewer tiles have no feeding term (small groups are cashed or lost, not grown; and
// no star or pair, the shapes features() counts without a flood fill, is this large).
inline constexpr int kFeedMin = 6;

namespace detail {

inline constexpr u128 kHeightsBelow(int top) {  // heights 0..top-1 of every column
  u128 m = 0;
  for (int c = 0; c < hanpang::kCols; ++c) m |= (u128{(1u << top) - 1}) << (c * hanpang::kLane);
  return m;
}
inline constexpr u128 kLow13 = kHeightsBelow(hanpang::kRows - 2);  // a cell two above exists

// Bit i (i < 4) set where 16-bit lane i of x holds a tile. Bit 15 of every lane is empty (the
// guard), so adding 0x7FFF to a lane carries into its bit 15 exactly when the lane is non-zero,
// and never out of it; the multiply then gathers the four bits 0, 16, 32, 48 at 48..51 (the
// other products land at bits 3-35 or beyond 63, each alone, so nothing carries into them).
inline constexpr unsigned lanes_held(std::uint64_t x) {
  const std::uint64_t nz = ((x + 0x7FFF'7FFF'7FFF'7FFFULL) & 0x8000'8000'8000'8000ULL) >> 15;
  return static_cast<unsigned>((nz * ((1ULL << 48) | (1ULL << 33) | (1ULL << 18) | (1ULL << 3))) >>
                               48) &
         0xFu;
}
static_assert(lanes_held(0x0000'0001'7FFF'0000ULL) == 0b0110);
static_assert(lanes_held(0x4000'0000'0000'0001ULL) == 0b1001 && lanes_held(0) == 0);

// The columns (bit c: column c) where the set p holds a tile.
inline constexpr unsigned columns_held(u128 p) {
  return lanes_held(static_cast<std::uint64_t>(p)) |
         (lanes_held(static_cast<std::uint64_t>(p >> 64)) << 4);
}

}  // namespace detail

// The height of column c of the occupied cells occ: its highest tile (on a board with phantom
// rows, the gaps below it count).
inline int column_top(u128 occ, int c) {
  return 32 - std::countl_zero(static_cast<std::uint32_t>(occ >> (c * hanpang::kLane)) & 0x7FFFu);
}

// Column heights of a state (gravity keeps each column a run of low bits).
inline void column_heights(const hanpang::State& s, std::array<int, hanpang::kCols>& h) {
  const u128 occ = s.occupied();
  for (int c = 0; c < hanpang::kCols; ++c) h[c] = column_top(occ, c);
}

// Same-coloured neighbour pairs on the board (vertical and horizontal). Bit 15 of every lane is
// empty, so a shift by one pairs no cell with the next column's.
inline int neighbour_pairs(const hanpang::State& s) {
  int n = 0;
  for (const u128 p : s.planes) n += popcount(p & (p >> 1)) + popcount(p & (p >> hanpang::kLane));
  return n;
}

// Whether removing the single tile at `cell` of s joins nothing: after it, the board has no more
// same-coloured neighbour pairs than before (the tiles above it drop one cell; where they gain a
// pair they lose as many or more). A tile in a column higher than danger_from is never useless
// (its removal lowers a column in danger).
inline bool useless_single(const hanpang::State& s, int cell, int danger_from) {
  if (column_top(s.occupied(), hanpang::col_of(cell)) > danger_from) return false;
  hanpang::State t = s;
  t.remove(u128{1} << cell);
  return neighbour_pairs(t) <= neighbour_pairs(s);
}

// The lowest tile of every column: the cells under which the rows to come rise. On a board with
// phantom rows (empty cells at the bottom) it is the lowest real tile, above the gap. The 16th
// bit of every lane is empty, so the shift carries nothing across columns.
inline u128 feeding_edge(const hanpang::State& s) {
  const u128 occ = s.occupied();
  return occ & ~(occ << 1);
}

// Lifts every column by one as a new row would, leaving the bottom row empty: a "phantom" row
// whose colours are unknown and never join a group. hanpang::State::remove keeps such gaps, and
// the overflow rule (a tile in the top row) still holds, so searches can plan without sampling.
inline void push_phantom_row(hanpang::State& s) {
  const bool out = (s.occupied() & hanpang::kTop) != 0;
  for (auto& p : s.planes) p = (p << 1) & hanpang::kValid;
  if (out) s.end = hanpang::End::overflow;
}

// Whether some line of `plies` of our moves from s, each followed by a phantom row, keeps every
// tile on the board (or reaches the last action); plies <= 0: true. With one ply it is exact
// (whether a move leaves a column full does not depend on colours); with more it is pessimistic
// where the rows to come would join a group (phantom cells never do). It stops at the first line
// found, so it costs a few group scans where one exists; where none does it visits every line
// whose moves leave no column full, each state visited taking one of `budget` (left at 0 it
// answers true: not shown lost).
inline bool phantom_survives(const hanpang::State& s, int plies, long& budget);

// Whether the move g on s (not over), followed by a phantom row, keeps every tile on the board,
// and phantom_survives for plies - 1 more moves after it (plies <= 1: the move alone).
inline bool phantom_move_survives(const hanpang::State& s, const hanpang::Group& g, int plies,
                                  long& budget) {
  if (s.actions + 1 >= hanpang::kMaxActions) return true;  // the last action: no row follows it
  if (s.overflows(g.cells)) return false;  // a column this move leaves full: the row pushes it out
  if (plies <= 1) return true;
  hanpang::State c = s;
  c.remove(g.cells);
  push_phantom_row(c);
  return phantom_survives(c, plies - 1, budget);
}

inline bool phantom_survives(const hanpang::State& s, int plies, long& budget) {
  using namespace hanpang;
  if (s.end == End::overflow) return false;
  if (plies <= 0 || s.end == End::max_actions || budget <= 0) return true;
  --budget;
  GroupList gl;
  s.groups(gl);
  if (gl.size() == 0) return true;  // phantom cells only: no column can be full
  for (const Group& g : gl)
    if (phantom_move_survives(s, g, plies, budget)) return true;
  return false;
}

// Of the `nrows` rows given (each in turn the row the next decision will see), after how many
// the move g on s (not over) keeps every tile on the board with phantom_survives for plies - 1
// more moves (all of them where the game ends first or plies <= 1; none if g leaves a column
// full). Phantom rows are not pessimistic about where tiles land: a group that takes tiles of a
// real row lowers its columns further than the same group on a phantom row, so two masses that
// a phantom line rejoins can stay apart on a real row (report seed 22 lost its board so at
// action 162; 2 of 64 sampled rows split the mass as its real row did). Sampling the next row
// makes the first lift real.
inline int sampled_survivals(const hanpang::State& s, const hanpang::Group& g, int plies,
                             const hanpang::Row* rows, int nrows, long& budget) {
  if (s.actions + 1 >= hanpang::kMaxActions) return nrows;
  if (s.overflows(g.cells)) return 0;
  if (plies <= 1) return nrows;
  hanpang::State after = s;
  after.remove(g.cells);
  int kept = 0;
  for (int i = 0; i < nrows; ++i) {
    hanpang::State c = after;
    c.push_row(rows[i]);
    kept += phantom_survives(c, plies - 1, budget);
  }
  return kept;
}

// All features of s. `sizes` (optional, capacity 120) receives every group size, for the horizon.
// The groups are found the way hanpang::State::groups finds them (the hot loop of every search):
// single tiles, isolated pairs and stars are counted off same-colour neighbour masks, only the
// other groups are flood-filled (two at a time, in SSE2 registers). The obvious version, one
// flood fill per group, is the reference twin in tests/plugins_beam/hanpang_eval_test.cpp.
inline HanpangFeatures features(const hanpang::State& s, int danger_from, int* sizes = nullptr,
                                int* nsizes = nullptr, bool bridged = false,
                                const double* pot = nullptr, bool collapsed = false,
                                bool fed = false, bool bridge_pairs = false,
                                bool bridge_exact = false) {
  using namespace hanpang;
  HanpangFeatures f;
  const u128 occ = s.occupied();
  f.tiles = popcount(occ);
  int ns = 0;
  // Step 1. Per colour: counts, near-connections, collapsed masses, and the bridged masses that
  // hold a bridge (the others are the colour's groups of two or more: step 2 adds them).
  u128 in_bridged = 0;  // the tiles of every mass counted here
  for (int k = 0; k < kColours; ++k) {
    const u128 p = s.planes[k];
    const u128 others = occ & ~p;
    const int np = popcount(p);
    f.colour_sq += np * np;
    f.reserve_sq = std::max<std::int64_t>(f.reserve_sq, np * np);
    // Same colour two apart with another colour's tile between (occupied, so gravity-stable).
    f.vgaps += popcount(p & (p >> 2) & (others >> 1) & detail::kLow13);
    f.hgaps += popcount(p & (p >> (2 * kLane)) & (others >> kLane));
    if (collapsed) {
      // Runs of adjacent columns that hold this colour: with every other colour removed, their
      // tiles would fall to the bottom and form one group. Usually every column holds it: one
      // run of all its tiles; else a popcount of the colour's tiles in each run's columns.
      const unsigned held = detail::columns_held(p);
      if (held == (1u << kCols) - 1) {
        f.collapse_sq += static_cast<std::int64_t>(np) * np;
      } else {
        for (unsigned rest = held; rest;) {
          const int first = std::countr_zero(rest);
          const int len = std::countr_one(rest >> first);
          const u128 lanes = (~u128{0} >> (128 - kLane * len)) << (kLane * first);
          const int n = popcount(p & lanes);
          f.collapse_sq += static_cast<std::int64_t>(n) * n;
          rest &= ~(((1u << len) - 1) << first);
        }
      }
    }
    if (bridged) {
      // Other-coloured tiles with this colour on both sides (vertically or horizontally; with
      // bridge_exact, horizontally only under a tile of this colour), and the masses through
      // them: this colour's tiles joined by them (two at least each).
      const u128 across = (p << kLane) & (p >> kLane) & (bridge_exact ? p >> 1 : ~u128{0});
      u128 bridges = others & (((p << 1) & (p >> 1)) | across);
      u128 within = p | bridges;
      if (bridge_pairs) {
        // The lower of two other-coloured tiles stacked between two of this colour's: heights
        // h-1 and h+2 of the colour, h and h+1 not (h + 2 within the column: kLow13).
        const u128 low = others & (others >> 1) & (p << 1) & (p >> 2) & detail::kLow13;
        within |= low | (low << 1);
        bridges |= low;
      }
      for (u128 todo = bridges; todo;) {
        const u128 g = hanpang::detail::fill(todo & (~todo + 1), within);
        todo &= ~g;
        in_bridged |= g & p;
        const int m = popcount(g & p);
        f.bridge_sq += m * m;
      }
    }
  }
  // Step 2. The groups. Each group of n >= 2 adds to these (and, outside the masses of step 1,
  // to the bridged masses: a group with no bridge is a mass of its own).
  const auto add_group = [&](int n, int count, int unbridged) {
    f.groups += count;
    f.sum_sq += static_cast<std::int64_t>(count) * n * n;
    if (pot)
      for (int i = 0; i < count; ++i) f.sum_pot += pot[n];
    f.in_groups += count * n;
    f.max_group = std::max(f.max_group, n);
    if (sizes)
      for (int i = 0; i < count; ++i) sizes[ns++] = n;
    f.bridge_sq += static_cast<std::int64_t>(unbridged) * n * n;
  };
  const hanpang::detail::Shapes sh = hanpang::detail::shapes(s.planes);
  f.singletons = popcount(sh.single);
  f.groups += f.singletons;
  if (sizes)
    for (int i = 0; i < f.singletons; ++i) sizes[ns++] = 1;
  // A pair or star of m same-coloured neighbours (degree m, bit-sliced d0 + 2 d1 + 4 d2) is a
  // group of m + 1, in a bridged mass if its centre is.
  const u128 d0 = sh.deg0 & sh.multi, d1 = sh.deg1 & sh.multi, d2 = sh.deg2 & sh.multi;
  const u128 by_degree[4] = {d0 & ~d1 & ~d2, d1 & ~d0 & ~d2, d0 & d1, d2};
  for (int m = 1; m <= 4; ++m) {
    const u128 centres = by_degree[m - 1];
    if (centres)
      add_group(m + 1, popcount(centres), bridged ? popcount(centres & ~in_bridged) : 0);
  }
  // The rest by flood fills, two groups at a time (as State::groups finds them); only these can
  // be large enough to feed. The feeding term only on request, decided outside the loop (a test
  // per group costs about 1% of a search's instructions; computing it always, 3%).
  if (fed) {
    const u128 edge = feeding_edge(s);
    hanpang::detail::for_each_rest_group(sh.rest, s.planes, [&](u128 g, int) {
      const int n = popcount(g);
      add_group(n, 1, bridged && !(g & in_bridged));
      if (n >= kFeedMin) f.feed += static_cast<std::int64_t>(n) * popcount(g & edge);
    });
  } else {
    hanpang::detail::for_each_rest_group(sh.rest, s.planes, [&](u128 g, int) {
      add_group(popcount(g), 1, bridged && !(g & in_bridged));
    });
  }
  if (f.max_group == 0 && f.tiles) f.max_group = 1;
  int prev_h = -1;
  for (int c = 0; c < kCols; ++c) {
    // The highest occupied height, not the tile count: boards searched with phantom rows
    // (empty bottom rows standing for rows of unknown colour) have gaps below their tiles.
    const int h = column_top(occ, c);
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

// The value of a decision state (after the row of this turn was pushed, as the strategy sees it):
// points so far plus the board's potential. Over states get their exact score (overflow before
// action 200 is penalised so that dying is never preferred to living, unless late_death says the
// end was near enough that the points kept may beat the actions lost).
inline double evaluate_with(const hanpang::State& s, const HanpangWeights& w, const double* pot) {
  using namespace hanpang;
  const double score = static_cast<double>(s.score);
  if (s.end == End::max_actions) return score;
  const int left = kMaxActions - s.actions;
  if (s.end == End::overflow) {
    // Late in the game an overflow only forfeits the last few actions: its points are final.
    if (left <= w.late_death) return score;
    // Dying later is better than dying sooner: a search whose horizon sees only dead lines keeps
    // the one that lives longest (real rows may still open a way out).
    return score + w.overflow + 1000.0 * s.actions;
  }
  // The general evaluation of f (features with every term the weights ask for).
  const auto general = [&](const HanpangFeatures& f) {
    const double group_pot = pot ? f.sum_pot : w.group_sq * static_cast<double>(f.sum_sq);
    // (m is exactly 1 with fill_sq 0: the same sums, rounded the same, as without the term.)
    const double m =
        w.fill_sq == 0.0 ? 1.0 : std::max(0.0, 1.0 + w.fill_sq * (f.tiles - w.fill_mid) / 24.0);
    return score + m * group_pot + w.colour_sq * static_cast<double>(f.colour_sq) +
           m * w.bridge_sq * static_cast<double>(f.bridge_sq) +
           m * w.collapse_sq * static_cast<double>(f.collapse_sq) +
           w.max_sq * static_cast<double>(f.max_group) * f.max_group + w.group_lin * f.in_groups +
           w.singleton * f.singletons + w.group * f.groups + w.vgap * f.vgaps + w.hgap * f.hgaps +
           w.tile * f.tiles + w.danger * f.danger + w.reserve_sq * static_cast<double>(f.reserve_sq) +
           w.bump * f.bump + w.danger3 * f.danger3 + w.feed * static_cast<double>(f.feed);
  };
  if (left <= w.endgame) {
    // Step 1. Few actions left: at most `left` more groups can be cashed, and a cashed group
    // can still grow by merging, so count the largest `left` groups at full value.
    std::array<int, kRows * kCols> sizes;
    int n = 0;
    // One pass gives the sizes and, with endgame_mix, the general evaluation's features too.
    const bool mix = w.endgame_mix != 0.0;
    const HanpangFeatures f =
        features(s, w.danger_from, sizes.data(), &n, mix && w.bridge_sq != 0.0, mix ? pot : nullptr,
                 mix && w.collapse_sq != 0.0, mix && w.feed != 0.0, w.bridge_pairs, w.bridge_exact);
    const int take = std::min(n, left);
    // The largest `take` first, in any order (a sum of whole numbers: the order changes nothing).
    if (take < n)
      std::nth_element(sizes.begin(), sizes.begin() + take, sizes.begin() + n, std::greater<>());
    double largest = 0;  // (not `pot`: that is the group potential table)
    for (int i = 0; i < take; ++i) largest += static_cast<double>(sizes[i]) * sizes[i];
    // The closer the end, the surer the potential: blend from the general weight to 1.
    const double t = static_cast<double>(left) / (w.endgame + 1);
    const double gw = 1.0 * (1 - t) + w.group_sq * t;
    const double horizon = score + gw * largest + (w.danger * f.danger + w.danger3 * f.danger3) * t;
    // Step 2 (endgame_mix > 0): part of the general value, most of it just inside the horizon.
    if (!mix) return horizon;
    const double lambda = w.endgame_mix * t;
    return (1.0 - lambda) * horizon + lambda * general(f);
  }
  return general(features(s, w.danger_from, nullptr, nullptr, w.bridge_sq != 0.0, pot,
                          w.collapse_sq != 0.0, w.feed != 0.0, w.bridge_pairs, w.bridge_exact));
}

// A board evaluator with the group potential tabulated (any group_pow at the cost of k^2).
class HanpangEval {
 public:
  explicit HanpangEval(const HanpangWeights& w = {}) : w_(w) {
    pot_[0] = pot_[1] = 0;
    for (int k = 2; k <= hanpang::kRows * hanpang::kCols; ++k)
      pot_[k] = w.group_sq * std::pow(static_cast<double>(k), w.group_pow);
  }
  // With k^2 (group_pow 2) the potential is group_sq times the features' exact sum of k^2: one
  // rounding, the same whatever order the groups were found in.
  double operator()(const hanpang::State& s) const {
    return evaluate_with(s, w_, w_.group_pow == 2.0 ? nullptr : pot_.data());
  }
  const HanpangWeights& weights() const { return w_; }

 private:
  HanpangWeights w_;
  std::array<double, hanpang::kRows * hanpang::kCols + 1> pot_{};
};

// The evaluation with plain weights (tabulates nothing: group_pow other than 2 is slow here,
// prefer HanpangEval in searches).
inline double evaluate(const hanpang::State& s, const HanpangWeights& w) {
  if (w.group_pow == 2.0) return evaluate_with(s, w, nullptr);
  return HanpangEval(w)(s);
}

// ---- fast playout policies (for MCTS / rollouts) ----------------------------------------------

// Uniformly random among the groups of size >= min_size that do not overflow; failing that any
// non-overflowing group, failing that the fallback move. kNoCell on an empty board.
inline int random_safe_move(const hanpang::State& s, Rng& rng, int min_size = 2) {
  hanpang::GroupList gl;
  s.groups(gl);
  int pick[hanpang::kRows * hanpang::kCols];
  int n = 0, n_safe = 0;
  int safe[hanpang::kRows * hanpang::kCols];
  for (const auto& g : gl) {
    if (s.overflows(g.cells)) continue;
    safe[n_safe++] = g.rep;
    if (g.size >= min_size) pick[n++] = g.rep;
  }
  if (n) return pick[rng.below(static_cast<std::uint32_t>(n))];
  if (n_safe) return safe[rng.below(static_cast<std::uint32_t>(n_safe))];
  return hanpang::fallback_move(s);
}

// One-ply greedy on the evaluation, without knowing the next row: each candidate is scored on
// the board after removal with every column lifted by one (the row to come, colour unknown, is
// left out; its height is counted by `danger` through the lift). Deterministic.
inline int eval_greedy_move(const hanpang::State& s, const HanpangWeights& w) {
  using namespace hanpang;
  GroupList gl;
  s.groups(gl);
  int best = fallback_move(s);
  double best_v = -1e300;
  for (const auto& g : gl) {
    State t = s;
    t.remove(g.cells);
    if (!t.over()) push_phantom_row(t);
    const double v = evaluate(t, w);
    if (v > best_v) best_v = v, best = g.rep;
  }
  return best;
}

}  // namespace tactica::plugins::common
