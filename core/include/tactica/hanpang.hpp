// hanpang.hpp — Hanpang rules as a bitboard engine (see shared/spec/hanpang.md).
//
// Layout: column-major, 16 bits per column ("lane"): bit (col * 16 + h) is the cell of column
// `col` (0-based, left to right) at height `h` (0 = bottom row, protocol row 15; 14 = top row,
// protocol row 1). Bit 15 of each lane is a guard that is never set, so vertical shifts cannot
// leak into the next column and horizontal neighbours are 16 bits apart. Gravity keeps every
// column packed from height 0 up, so a column's occupancy is always a run of low bits.
// Protocol coordinates (1-based row from the top, 1-based column) appear only at the boundary.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tactica/bitboard.hpp"
#include "tactica/rng.hpp"

namespace tactica::hanpang {

inline constexpr int kRows = 15;
inline constexpr int kCols = 8;
inline constexpr int kColours = 3;
inline constexpr int kMaxActions = 200;
inline constexpr int kLane = 16;
inline constexpr int kNumRows = 6561;  // 3^8 possible new rows
inline constexpr int kNoCell = -1;

constexpr int cell(int col, int height) { return col * kLane + height; }
constexpr int col_of(int cell) { return cell / kLane; }
constexpr int height_of(int cell) { return cell % kLane; }

// Protocol coordinates (1-based; row 1 is the top) <-> cell index.
constexpr int from_protocol(int row, int col) { return cell(col - 1, kRows - row); }
constexpr int protocol_row(int cell) { return kRows - height_of(cell); }
constexpr int protocol_col(int cell) { return col_of(cell) + 1; }

constexpr u128 lane_mask(int col) { return u128{0x7FFF} << (col * kLane); }
inline constexpr u128 kValid = [] {
  u128 m = 0;
  for (int c = 0; c < kCols; ++c) m |= lane_mask(c);
  return m;
}();
inline constexpr u128 kBottom = [] {
  u128 m = 0;
  for (int c = 0; c < kCols; ++c) m |= bit128(cell(c, 0));
  return m;
}();
inline constexpr u128 kTop = kBottom << (kRows - 1);

// A new row: the colour (1..3) of each column, left to right.
struct Row {
  std::array<std::uint8_t, kCols> colour{};

  // "12312312" -> Row; nullopt unless exactly 8 characters from '1'..'3'.
  static std::optional<Row> parse(std::string_view s) {
    if (s.size() != kCols) return std::nullopt;
    Row r;
    for (int c = 0; c < kCols; ++c) {
      if (s[c] < '1' || s[c] > '3') return std::nullopt;
      r.colour[c] = static_cast<std::uint8_t>(s[c] - '0');
    }
    return r;
  }
  std::string str() const {
    std::string s(kCols, '0');
    for (int c = 0; c < kCols; ++c) s[c] = static_cast<char>('0' + colour[c]);
    return s;
  }
  // Rows are numbered 0..6560 in base 3 (column 0 least significant) for chance nodes.
  int index() const {
    int x = 0;
    for (int c = kCols - 1; c >= 0; --c) x = x * 3 + (colour[c] - 1);
    return x;
  }
  static Row from_index(int x) {
    Row r;
    for (int c = 0; c < kCols; ++c, x /= 3) r.colour[c] = static_cast<std::uint8_t>(1 + x % 3);
    return r;
  }
  static Row random(Rng& rng) { return from_index(static_cast<int>(rng.below(kNumRows))); }
  friend bool operator==(const Row&, const Row&) = default;
};

// The rows of a seeded game, in order: the first is the initial bottom row.
class RowSource {
 public:
  explicit RowSource(std::uint64_t seed) : rng_(seed) {}
  Row next() {
    Row r;
    for (auto& c : r.colour) c = static_cast<std::uint8_t>(1 + rng_.below(3));
    return r;
  }

 private:
  Rng rng_;
};

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
  int height(int col) const {
    const auto lane = static_cast<std::uint32_t>(occupied() >> (col * kLane)) & 0xFFFF;
    return std::popcount(lane);
  }
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
    for (int k = 0; k < kColours; ++k) planes[k] = (planes[k] << 1) & kValid;
    for (int c = 0; c < kCols; ++c) planes[row.colour[c] - 1] |= bit128(cell(c, 0));
    if (out) end = End::overflow;
    return !out;
  }

  // The group of same-coloured tiles 4-connected to cell c (empty set if c is empty).
  u128 group_at(int c) const {
    const int k = colour_at(c);
    return k ? flood_fill<kLane>(bit128(c), planes[k - 1]) : 0;
  }

  // Lists every group once. Isolated tiles are found in bulk and need no flood fill.
  void groups(GroupList& out) const {
    out.count = 0;
    for (int k = 0; k < kColours; ++k) {
      const u128 p = planes[k];
      u128 rest = p & neighbours<kLane>(p);
      for (u128 single = p & ~rest; single;) {
        const int c = pop_lowest(single);
        out.items[out.count++] = Group{bit128(c), 1, c, k + 1};
      }
      while (rest) {
        const int c = lowest_bit(rest);
        const u128 g = flood_fill<kLane>(bit128(c), rest);
        rest &= ~g;
        out.items[out.count++] = Group{g, popcount(g), c, k + 1};
      }
    }
  }

  // Number of groups, without listing them.
  int group_count() const {
    int n = 0;
    for (int k = 0; k < kColours; ++k) {
      const u128 p = planes[k];
      u128 rest = p & neighbours<kLane>(p);
      n += popcount(p & ~rest);
      while (rest) {
        rest &= ~flood_fill<kLane>(bit128(lowest_bit(rest)), rest);
        ++n;
      }
    }
    return n;
  }

  // Removes the given group (all of one colour, as from group_at or groups()), lets every
  // column fall, scores k^2 and applies the end rules. Returns the points scored.
  int remove(u128 g) {
    const int k = popcount(g);
    for (int col = 0; col < kCols; ++col) {
      auto r = static_cast<std::uint32_t>(g >> (col * kLane)) & 0x7FFF;
      if (!r) continue;
      std::uint32_t lanes[kColours];
      for (int p = 0; p < kColours; ++p)
        lanes[p] = static_cast<std::uint32_t>(planes[p] >> (col * kLane)) & 0x7FFF;
      // Close each removed bit from the highest down, so lower positions stay valid.
      while (r) {
        const int i = 31 - std::countl_zero(r);
        r &= ~(1u << i);
        const std::uint32_t low = (1u << i) - 1;
        for (auto& l : lanes) l = (l & low) | ((l >> 1) & ~low);
      }
      for (int p = 0; p < kColours; ++p)
        planes[p] = (planes[p] & ~lane_mask(col)) | (u128{lanes[p]} << (col * kLane));
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
    const u128 occ = occupied();
    for (int col = 0; col < kCols; ++col)
      if ((occ & bit128(cell(col, kRows - 1))) && !(g & lane_mask(col))) return true;
    return false;
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
