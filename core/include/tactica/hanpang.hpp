// hanpang.hpp — Hanpang rules as a bitboard engine (see shared/spec/hanpang.md).
//
// The rules' parts, each in its own header, all included here: the board's size and bitboard
// layout (hanpang_layout.hpp), the group search's flood fills (hanpang_fill.hpp), new rows and the
// seeded row sequence (hanpang_row.hpp); this file holds the groups and the State.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tactica/bitboard.hpp"
#include "tactica/hanpang_fill.hpp"
#include "tactica/hanpang_layout.hpp"
#include "tactica/hanpang_row.hpp"

namespace tactica::hanpang {

struct Group {
  u128 cells;
  int size;
  int rep;  // a representative cell (the lowest index of the group)
  int colour;
};

// Fixed capacity: a board has at most 120 tiles, so at most 120 groups.
struct GroupList {
  std::array<Group, kRows * kCols> items;
  int count = 0;
  const Group* begin() const { return items.data(); }
  const Group* end() const { return items.data() + count; }
  const Group& operator[](int i) const { return items[i]; }
  int size() const { return count; }
};

enum class End : std::uint8_t { none, overflow, max_actions };

class State {
 public:
  // planes[k] holds the tiles of colour k + 1.
  std::array<u128, kColours> planes{};
  std::int64_t score = 0;
  int actions = 0;
  End end = End::none;

  bool over() const { return end != End::none; }
  u128 occupied() const { return planes[0] | planes[1] | planes[2]; }
  int tiles() const { return popcount(occupied()); }
  int colour_at(int c) const {
    const u128 b = bit128(c);
    return (planes[0] & b) ? 1 : (planes[1] & b) ? 2 : (planes[2] & b) ? 3 : 0;
  }
  int height(int col) const { return popcount((occupied() >> (col * kLane)) & 0xFFFF); }
  int max_height() const {
    int h = 0;
    for (int c = 0; c < kCols; ++c) h = std::max(h, height(c));
    return h;
  }

  // Adds a row at the bottom, moving every column up one. Returns false (and ends the game by
  // overflow) if that pushed a tile out over the top; the rules end the game before that can
  // happen, so this is a guard for hand-built states.
  bool push_row(const Row& row) {
    const bool out = (occupied() & kTop) != 0;
    const std::array<u128, kColours> add = row_planes(row);
    for (int k = 0; k < kColours; ++k) planes[k] = ((planes[k] << 1) & kValid) | add[k];
    if (out) end = End::overflow;
    return !out;
  }

  // The bottom-row cells of each colour of `row`, as three sets (colours outside 1..3: none).
  static std::array<u128, kColours> row_planes(const Row& row) {
    if constexpr (std::endian::native == std::endian::little) {
      // One byte per column, spread from bit 8c to bit 16c of the low (columns 0-3) or high
      // (columns 4-7) half; then the colour's two bits pick the plane.
      std::uint64_t w;
      std::memcpy(&w, row.colour.data(), sizeof w);
      w &= 0x0303030303030303ULL;
      auto spread = [](std::uint64_t x) {
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
        return (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
      };
      const u128 lanes = (u128{spread(w >> 32)} << 64) | spread(w & 0xFFFFFFFFULL);
      const u128 b0 = lanes & kBottom, b1 = (lanes >> 1) & kBottom;
      return {b0 & ~b1, b1 & ~b0, b0 & b1};
    } else {
      std::array<u128, kColours> m{};
      for (int c = 0; c < kCols; ++c)
        if (row.colour[c] >= 1 && row.colour[c] <= 3) m[row.colour[c] - 1] |= bit128(cell(c, 0));
      return m;
    }
  }

  // The group of same-coloured tiles 4-connected to cell c (empty set if c is empty).
  u128 group_at(int c) const {
    const int k = colour_at(c);
    return k ? detail::fill(bit128(c), planes[k - 1]) : 0;
  }

  // Lists every group once, in no particular order. Most groups of a playing board are tiny,
  // so they are found in bulk from same-colour neighbour masks (see detail::Shapes): single
  // tiles, isolated pairs and stars are read off the masks; only the rest needs a flood fill.
  void groups(GroupList& out) const {
    const detail::Shapes sh = detail::shapes(planes);
    Group* items = out.items.data();
    int n = 0;
    n = add_singles<0>(items, n, sh);
    n = add_singles<1>(items, n, sh);
    n = add_multis<0>(items, n, sh);
    n = add_multis<1>(items, n, sh);
    // The rest by flood fills, two groups at a time.
    detail::for_each_rest_group(sh.rest, planes, [&](u128 g, int colour) {
      items[n++] = Group{g, popcount(g), lowest_bit(g), colour};
    });
    out.count = n;
  }

  // Number of groups, without listing them.
  int group_count() const {
    const detail::Shapes sh = detail::shapes(planes);
    int n = popcount(sh.single) + popcount(sh.multi);
    for (u128 rest = sh.rest; rest; ++n) {
      const u128 seed = rest & (~rest + 1);
      rest ^= detail::fill(seed, rest & planes[colour_of(seed) - 1]);
    }
    return n;
  }

  // Removes the given group (all of one colour, as from group_at or groups()), lets every
  // column fall, scores k^2 and applies the end rules. Returns the points scored.
  int remove(u128 g) {
    const int k = popcount(g);
    g &= kValid;
    // Each pass closes the lowest removed cell of every column at once: the part of the
    // column above it moves down one. Passes = the most cells removed from one column.
    while (g) {
      const u128 t = g | kGuard;                // a column with nothing removed stops at its guard
      const u128 lowest = t & ~(t - kBottom);   // lowest set bit of each lane (no borrow across)
      const u128 below = lowest - kBottom;      // the cells under it
      const u128 upper = kValid & ~below;       // the cells from it up (none if only the guard)
      for (auto& p : planes) p = (p & below) | ((p >> 1) & upper);
      g = ((g & ~lowest) >> 1) & upper;
    }
    score += static_cast<std::int64_t>(k) * k;
    ++actions;
    if (actions >= kMaxActions)
      end = End::max_actions;
    else if (occupied() & kTop)
      end = End::overflow;  // the next row would push a tile out: its points still count
    return k * k;
  }

  // Plays the group at cell c (which must hold a tile). Returns the points scored.
  int play(int c) { return remove(group_at(c)); }

  // True if playing this group would end the game by overflow.
  bool overflows(u128 g) const {
    // Bit 15 of a lane is set iff g has a cell in that column (15-bit sums cannot carry out).
    const u128 touched = ((g & kValid) + kValid) & kGuard;
    return (occupied() & kTop & ~(touched >> 1)) != 0;
  }

  // Text form: 15 lines (top row first) of 8 digits 0-3, each ending in '\n'.
  std::string to_text() const {
    std::string s;
    s.reserve(kRows * (kCols + 1));
    for (int h = kRows - 1; h >= 0; --h) {
      for (int c = 0; c < kCols; ++c) s += static_cast<char>('0' + colour_at(cell(c, h)));
      s += '\n';
    }
    return s;
  }
  // Parses the text form (lines may be separated by any whitespace); nullopt unless it is
  // 15 rows of 8 digits 0-3 with no tile floating above an empty cell.
  static std::optional<State> from_text(std::string_view text) {
    State st;
    int h = kRows - 1, c = 0;
    for (char ch : text) {
      if (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t') {
        if (c == kCols) c = 0, --h;
        else if (c != 0) return std::nullopt;
        continue;
      }
      if (ch < '0' || ch > '3' || h < 0 || c >= kCols) return std::nullopt;
      if (ch != '0') st.planes[ch - '1'] |= bit128(cell(c, h));
      ++c;
    }
    if (c == kCols) c = 0, --h;
    if (h != -1 || c != 0) return std::nullopt;
    for (int col = 0; col < kCols; ++col) {
      const auto lane = static_cast<std::uint32_t>(st.occupied() >> (col * kLane)) & 0x7FFF;
      if (lane & (lane + 1)) return std::nullopt;  // not a run of low bits: a floating tile
    }
    return st;
  }

  friend bool operator==(const State&, const State&) = default;

 private:
  // The colour (1..3) of the tile `b` (one cell, holding a tile), without branches.
  int colour_of(u128 b) const { return detail::colour_of(planes, b); }

  // Appends the single tiles of one 64-bit half of the board to items[n..]; returns the count.
  template <int Half>
  int add_singles(Group* items, int n, const detail::Shapes& sh) const {
    auto half = [](u128 x) { return static_cast<std::uint64_t>(x >> (64 * Half)); };
    const std::uint64_t p1 = half(planes[1]), p2 = half(planes[2]);
    for (std::uint64_t m = half(sh.single); m; m &= m - 1) {
      const int i = std::countr_zero(m);
      const auto colour = static_cast<int>(1 + ((p1 >> i) & 1) + 2 * ((p2 >> i) & 1));
      items[n++] = Group{u128{m & (~m + 1)} << (64 * Half), 1, 64 * Half + i, colour};
    }
    return n;
  }

  // Appends the pairs and stars centred in one 64-bit half: the centre and its same-coloured
  // neighbours (which may lie in the other half: columns 3 and 4 meet there).
  template <int Half>
  int add_multis(Group* items, int n, const detail::Shapes& sh) const {
    using std::uint64_t;
    auto half = [](u128 x) { return static_cast<uint64_t>(x >> (64 * Half)); };
    const uint64_t up = half(sh.up), dn = half(sh.dn), rt = half(sh.rt), lf = half(sh.lf);
    const uint64_t d0 = half(sh.deg0), d1 = half(sh.deg1), d2 = half(sh.deg2);
    const uint64_t p1 = half(planes[1]), p2 = half(planes[2]);
    for (uint64_t m = half(sh.multi); m; m &= m - 1) {
      const int i = std::countr_zero(m);
      const uint64_t b = m & (~m + 1);
      const uint64_t here =
          b | ((b & up) << 1) | ((b & dn) >> 1) | ((b & rt) << kLane) | ((b & lf) >> kLane);
      const u128 g = Half == 0 ? (u128{(b & rt) >> (64 - kLane)} << 64) | here
                               : (u128{here} << 64) | ((b & lf) << (64 - kLane));
      const auto size = static_cast<int>(1 + ((d0 >> i) & 1) + 2 * ((d1 >> i) & 1) + 4 * ((d2 >> i) & 1));
      const auto colour = static_cast<int>(1 + ((p1 >> i) & 1) + 2 * ((p2 >> i) & 1));
      items[n++] = Group{g, size, lowest_bit(g), colour};
    }
    return n;
  }
};

// The cheap move the agent falls back on: the largest group that does not end the game by
// overflow (any group if all do), ties to the lowest cell. Needs only the rules.
inline int fallback_move(const State& s) {
  GroupList gl;
  s.groups(gl);
  int best = kNoCell, best_size = -1;
  bool best_safe = false;
  for (const Group& g : gl) {
    const bool safe = !s.overflows(g.cells);
    if ((safe && !best_safe) ||
        (safe == best_safe && (g.size > best_size || (g.size == best_size && g.rep < best)))) {
      best = g.rep, best_size = g.size, best_safe = safe;
    }
  }
  return best;
}

}  // namespace tactica::hanpang
