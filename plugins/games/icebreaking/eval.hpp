// games/icebreaking/eval.hpp — fast move facts and a static evaluation for Icebreaking searches.
// Header-only, standard library + core only (it goes into fused submissions).
//
// Everything here is a function of the remaining ice set alone: the future of an Icebreaking
// game depends only on which ice is left (and who moves), so values are "what the side to move
// will still gain minus what the other side will still gain" — path-independent, which lets a
// transposition table keep them across moves and games positions.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "tactica/icebreaking.hpp"

namespace tactica::plugins::common::ice {

using icebreaking::Board;
using icebreaking::kStride;

namespace detail {

// For each pattern of the 8 cells around a cell (bit i = ring position i, clockwise from north:
// N NE E SE S SW W NW), whether the orthogonal neighbours that are ice are all connected to each
// other through the ring (a diagonal cell joins two orthogonals next to it). If they are, taking
// the centre cannot split its region: every path through the centre has a detour around it.
inline constexpr std::array<bool, 256> kLocallyConnected = [] {
  std::array<bool, 256> t{};
  for (int m = 0; m < 256; ++m) {
    const bool orth[4] = {(m & 1) != 0, (m & 4) != 0, (m & 16) != 0, (m & 64) != 0};
    const bool diag[4] = {(m & 2) != 0, (m & 8) != 0, (m & 32) != 0, (m & 128) != 0};  // NE SE SW NW
    int present = 0, joins = 0;
    for (int i = 0; i < 4; ++i) {
      present += orth[i];
      joins += orth[i] && orth[(i + 1) % 4] && diag[i];
    }
    const int parts = present == 4 && joins == 4 ? 1 : present - joins;
    t[m] = parts <= 1;
  }
  return t;
}();

}  // namespace detail

// The 8-cell ring pattern around cell c in ice (see kLocallyConnected for the bit order).
inline unsigned ring(u128 ice, int c) {
  // Shift so that bit (c - 11) lands at bit 0: then NW=0 N=1 NE=2 W=10 E=12 SW=20 S=21 SE=22.
  const auto w = static_cast<std::uint32_t>((ice << 11) >> c);
  return ((w >> 1) & 1) | (((w >> 2) & 1) << 1) | (((w >> 12) & 1) << 2) | (((w >> 22) & 1) << 3) |
         (((w >> 21) & 1) << 4) | (((w >> 20) & 1) << 5) | (((w >> 10) & 1) << 6) | ((w & 1) << 7);
}

// True if every region of ice has at most 3 cells: then no move can ever capture (a region of
// 1-3 cells loses one cell and leaves one component or equal singletons), and the rest of the
// game is the "pick from a pool" game of alternating_sum. Bitwise: a region of 4 or more cells
// has a cell of degree 3 or more, or (a path or a cycle) two adjacent cells of degree 2.
inline bool all_small_regions(u128 ice) {
  const u128 a = (ice << 1) & ice, b = (ice >> 1) & ice;
  const u128 c = (ice << kStride) & ice, d = (ice >> kStride) & ice;
  const u128 s1 = a ^ b, c1 = a & b, s2 = c ^ d, c2 = c & d;
  if ((c1 & (s2 | c2)) | (c2 & s1)) return false;  // degree 3 or 4
  const u128 two = c1 | c2 | (s1 & s2);
  return (neighbours<kStride>(two) & two) == 0;
}

// True if taking c cannot split its region (a cheap local test; false means "maybe").
inline bool cannot_split(u128 ice, int c) { return detail::kLocallyConnected[ring(ice, c)]; }

// What taking c (an ice cell) captures: the same set as Position::captures, but skipping the
// flood fills whenever the local ring test proves no split.
inline u128 captures(u128 ice, int c) {
  if (cannot_split(ice, c)) return 0;
  const u128 after = ice & ~bit128(c);
  u128 nb = neighbours<kStride>(bit128(c)) & after;
  u128 comp[4];
  int size[4], n = 0, largest = 0;
  while (nb) {
    const u128 g = flood_fill<kStride>(nb & (~nb + 1), after);  // from the lowest neighbour
    nb &= ~g;
    if (n == 0 && !nb) return 0;  // the first part reached every neighbour: no split
    comp[n] = g;
    size[n] = popcount(g);
    largest = size[n] > largest ? size[n] : largest;
    ++n;
  }
  u128 cap = 0;
  for (int i = 0; i < n; ++i)
    if (size[i] < largest) cap |= comp[i];
  return cap;
}

// What every move of an ice set does, computed together in one depth-first search per region
// (Hopcroft-Tarjan articulation points): removing a cell v splits its region into the DFS
// subtrees below v that have no back edge above v, plus the rest of the region. Component sizes
// and score sums come from subtree counts, so no flood fill is needed to know every move's gain;
// the captured cells themselves (needed only for the move actually played) come from captures().
struct MoveFacts {
  std::int16_t gain;      // the cell's score plus the captured cells' scores
  std::int8_t cell;
  std::int8_t captured;   // number of captured cells (0: no capture)
};

class MoveScanner {
 public:
  // Fills out[] with one entry per ice cell (region by region, regions in the order of their
  // lowest cell, cells ascending within each); returns the count. Also records the cells of
  // regions of at most 3 cells (small()).
  //
  // Tarjan's articulation points on a byte map of the board (region_ below): no 128-bit
  // variable shift in the inner loops (the earlier bitset version's scan took 1.3x as long for
  // the same facts in the same order: docs/PERFORMANCE.md, session 28).
  int scan(const Board& b, u128 ice, MoveFacts* out) {
    constexpr int kOff[4] = {1, -1, kStride, -kStride};
    std::uint8_t* const rid = region_.data() + kPad;  // rid[c] for c in [-kPad, kCells + kPad)
    std::uint64_t left[2] = {static_cast<std::uint64_t>(ice),
                             static_cast<std::uint64_t>(ice >> 64)};
    region_.fill(0);
    for (int h = 0; h < 2; ++h)
      for (std::uint64_t t = left[h]; t; t &= t - 1) rid[h * 64 + std::countr_zero(t)] = kUnseen;
    small_ = 0;
    int n = 0, timer = 0, id = 0;
    for (int h = 0; h < 2; ++h) {
      while (left[h]) {
        // Step 1. Iterative DFS of the region of the lowest unvisited cell.
        const int root = h * 64 + std::countr_zero(left[h]);
        ++id;
        std::uint64_t region[2] = {0, 0};
        int sp = 0;
        const auto enter = [&](int w, int parent) {
          rid[w] = static_cast<std::uint8_t>(id);
          left[w >> 6] &= ~(std::uint64_t{1} << (w & 63));
          region[w >> 6] |= std::uint64_t{1} << (w & 63);
          parent_[w] = static_cast<std::int8_t>(parent);
          disc_[w] = low_[w] = static_cast<std::uint8_t>(timer++);
          size_[w] = 1;
          sum_[w] = b.score[w];
          stack_[sp] = static_cast<std::int8_t>(w);
          dir_[sp++] = 0;
        };
        enter(root, -1);
        while (sp) {
          const int v = stack_[sp - 1];
          if (dir_[sp - 1] < 4) {
            const int w = v + kOff[dir_[sp - 1]++];
            const std::uint8_t r = rid[w];
            if (r == 0) continue;  // not ice (or off the board)
            if (r == kUnseen)
              enter(w, v);
            else if (w != parent_[v] && disc_[w] < low_[v])
              low_[v] = disc_[w];
          } else {
            --sp;
            const int p = parent_[v];
            if (p >= 0) {
              if (low_[v] < low_[p]) low_[p] = low_[v];
              size_[p] = static_cast<std::uint8_t>(size_[p] + size_[v]);
              sum_[p] = static_cast<std::int16_t>(sum_[p] + sum_[v]);
            }
          }
        }
        // Step 2. Every cell of the region: its components once removed.
        const int rsize = size_[root], rsum = sum_[root];
        if (rsize <= 3) small_ |= (u128{region[1]} << 64) | region[0];
        for (int rh = 0; rh < 2; ++rh)
          for (std::uint64_t t = region[rh]; t; t &= t - 1) {
            const int v = rh * 64 + std::countr_zero(t);
            int cs[4], cv[4], k = 0, tot = 0, totsum = 0;
            for (int d = 0; d < 4; ++d) {
              const int w = v + kOff[d];
              if (rid[w] != id || parent_[w] != v || low_[w] < disc_[v]) continue;
              cs[k] = size_[w], cv[k++] = sum_[w];
              tot += size_[w], totsum += sum_[w];
            }
            if (parent_[v] >= 0 && rsize - 1 - tot > 0)
              cs[k] = rsize - 1 - tot, cv[k++] = rsum - b.score[v] - totsum;
            int gain = b.score[v], captured = 0;
            if (k >= 2) {
              int largest = 0;
              for (int i = 0; i < k; ++i) largest = cs[i] > largest ? cs[i] : largest;
              for (int i = 0; i < k; ++i)
                if (cs[i] < largest) gain += cv[i], captured += cs[i];
            }
            out[n++] = MoveFacts{static_cast<std::int16_t>(gain), static_cast<std::int8_t>(v),
                                 static_cast<std::int8_t>(captured)};
          }
      }
    }
    return n;
  }
  // The cells of the last scan's regions of at most 3 cells: "pool" cells, never captured and
  // never capturing, each taken by a move of its own for exactly its score.
  u128 small() const { return small_; }

 private:
  static constexpr int kCells = icebreaking::kSize * kStride;  // cell indices [0, kCells)
  static constexpr int kPad = kStride;                         // a neighbour is >= -kStride
  static constexpr std::uint8_t kUnseen = 255;                 // ice not yet visited
  static_assert(icebreaking::kIce < kUnseen, "region ids fit below kUnseen");
  u128 small_ = 0;
  // Per cell: 0 off the ice, kUnseen, or the id of the region the scan found it in.
  std::array<std::uint8_t, kCells + 2 * kPad> region_{};
  std::array<std::int8_t, 128> parent_{}, stack_{}, dir_{};
  std::array<std::uint8_t, 128> disc_{}, low_{}, size_{};
  std::array<std::int16_t, 128> sum_{};
};

// The greedy plugin's rule, fast enough to model the greedy opponent inside a search (one
// articulation scan per position, one more per candidate tied on gain): the largest immediate
// gain (chain captures included); with reply_ties, among equal gains the move after which the
// other side's best immediate gain is smallest (0 when no ice is left); then the lowest cell.
// plugins/greedy plays exactly this rule (a test checks it against a plain flood-fill version),
// so a search that predicts greedy with it predicts it exactly.
class GreedyRule {
 public:
  // The largest immediate gain the side to move has on ice set s (0 if s is empty).
  int best_gain(const Board& b, u128 s) {
    if (!s) return 0;
    const int n = scanner_.scan(b, s, reply_.data());
    int best = reply_[0].gain;
    for (int i = 1; i < n; ++i) best = reply_[i].gain > best ? reply_[i].gain : best;
    return best;
  }

  // The greedy move on ice set s (icebreaking::kNoCell if s is empty); `gain` receives its gain.
  int move(const Board& b, u128 s, bool reply_ties, int* gain = nullptr) {
    if (!s) return icebreaking::kNoCell;
    const int n = scanner_.scan(b, s, facts_.data());
    int top = facts_[0].gain;
    for (int i = 1; i < n; ++i) top = facts_[i].gain > top ? facts_[i].gain : top;
    if (gain) *gain = top;
    // Tied cells in ascending order (the scan lists them region by region).
    int tied[icebreaking::kIce] = {};
    int captured[icebreaking::kIce] = {};
    int t = 0;
    for (int i = 0; i < n; ++i)
      if (facts_[i].gain == top) {
        int j = t++;
        for (; j > 0 && tied[j - 1] > facts_[i].cell; --j) tied[j] = tied[j - 1], captured[j] = captured[j - 1];
        tied[j] = facts_[i].cell;
        captured[j] = facts_[i].captured;
      }
    if (!reply_ties || t == 1) return tied[0];
    int best = tied[0], least = 1 << 20;
    for (int i = 0; i < t; ++i) {
      const int c = tied[i];
      const u128 cap = captured[i] ? captures(s, c) : 0;
      const int r = best_gain(b, s & ~(cap | bit128(c)));
      if (r < least) least = r, best = c;
    }
    return best;
  }

 private:
  MoveScanner scanner_;
  std::array<MoveFacts, icebreaking::kIce> facts_{}, reply_{};
};

// The value of the "pick from a pool" game over the cells of s: both players take the best cell
// left in turn (optimal when nothing is ever captured), seen from the side to move. With the
// cells sorted best first that is v0 - v1 + v2 - ...; only the counts per score are needed.
inline int alternating_sum(const Board& b, u128 s) {
  const int n2 = popcount(s & b.plus2), n1 = popcount(s & b.plus1);
  const int m1 = popcount(s & b.minus1), m2 = popcount(s & b.minus2);
  const int n0 = popcount(s) - n2 - n1 - m1 - m2;
  // Each class adds its value once if its count is odd, with the sign of the position where it
  // starts (even position: the side to move takes it).
  int v = 0, idx = 0;
  const int counts[5] = {n2, n1, n0, m1, m2}, values[5] = {2, 1, 0, -1, -2};
  for (int k = 0; k < 5; ++k) {
    if (counts[k] & 1) v += (idx & 1) ? -values[k] : values[k];
    idx += counts[k];
  }
  return v;
}

// The same game over the cells worth something (score > 0) only: both players grab those first,
// the rest is taken late and mostly in captures, so its parity is too uncertain to count.
inline int alternating_plus(const Board& b, u128 s) {
  const int n2 = popcount(s & b.plus2), n1 = popcount(s & b.plus1);
  return (n2 & 1) * 2 + (n1 & 1) * ((n2 & 1) ? -1 : 1);
}

// Position::play with the cheap local split test before any flood fill.
inline void play_fast(const Board& b, icebreaking::Position& p, int c) {
  const u128 taken = captures(p.ice, c) | bit128(c);
  p.ice &= ~taken;
  p.owned[p.to_move] |= taken;
  p.total[p.to_move] += b.sum(taken);
  p.to_move = icebreaking::other(p.to_move);
  ++p.ply;
}

}  // namespace tactica::plugins::common::ice
