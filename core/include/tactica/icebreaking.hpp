// icebreaking.hpp — Icebreaking rules as a bitboard engine (see shared/spec/icebreaking.md).
//
// Layout: row-major with a guard column, bit (r * 10 + c) for row r and column c (0-based, as in
// the protocol). Column 9 of every row is never part of any set, so horizontal shifts cannot wrap
// and vertical neighbours are 10 bits apart. The Board (holes, scores) never changes during a
// game; a Position (ice left, owners, totals, side to move) is a small value, cheap to copy.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tactica/bitboard.hpp"
#include "tactica/rng.hpp"

namespace tactica::icebreaking {

inline constexpr int kSize = 9;
inline constexpr int kStride = 10;
inline constexpr int kHoles = 9;
inline constexpr int kIce = kSize * kSize - kHoles;  // 72
inline constexpr int kNoCell = -1;

constexpr int cell(int r, int c) { return r * kStride + c; }
constexpr int row_of(int cell) { return cell / kStride; }
constexpr int col_of(int cell) { return cell % kStride; }

inline constexpr u128 kAll = [] {
  u128 m = 0;
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c) m |= bit128(cell(r, c));
  return m;
}();

enum Player : std::uint8_t { A = 0, B = 1 };
constexpr Player other(Player p) { return p == A ? B : A; }

class Board {
 public:
  u128 holes = 0;
  std::array<std::int8_t, kSize * kStride> score{};  // 0 on holes and guards
  // Cells by score, for summing a set's scores with popcounts.
  u128 plus1 = 0, plus2 = 0, minus1 = 0, minus2 = 0;

  u128 ice() const { return kAll & ~holes; }

  int sum(u128 s) const {
    return popcount(s & plus1) + 2 * popcount(s & plus2) - popcount(s & minus1) -
           2 * popcount(s & minus2);
  }

  void set(int c, bool hole, int value) {
    const u128 b = bit128(c);
    for (u128* m : {&holes, &plus1, &plus2, &minus1, &minus2}) *m &= ~b;
    score[c] = 0;
    if (hole) {
      holes |= b;
      return;
    }
    score[c] = static_cast<std::int8_t>(value);
    if (value == 1) plus1 |= b;
    if (value == 2) plus2 |= b;
    if (value == -1) minus1 |= b;
    if (value == -2) minus2 |= b;
  }

  // The board of a seed: 9 distinct holes uniformly at random (a partial Fisher-Yates shuffle
  // of the 81 cells in row-major order), then each other cell's score uniform in -2..2, in
  // row-major order.
  static Board from_seed(std::uint64_t seed) {
    Rng rng(seed);
    std::array<std::uint8_t, kSize * kSize> order;
    for (int i = 0; i < kSize * kSize; ++i) order[i] = static_cast<std::uint8_t>(i);
    Board b;
    for (int i = 0; i < kHoles; ++i) {
      const int j = i + static_cast<int>(rng.below(kSize * kSize - i));
      std::swap(order[i], order[j]);
      b.holes |= bit128(cell(order[i] / kSize, order[i] % kSize));
    }
    std::array<u128, 5> by_score{};  // the cells of score -2..2
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c) {
        const int x = cell(r, c);
        if (b.holes & bit128(x)) continue;
        const int v = static_cast<int>(rng.below(5));
        b.score[x] = static_cast<std::int8_t>(v - 2);
        by_score[v] |= bit128(x);
      }
    b.minus2 = by_score[0], b.minus1 = by_score[1], b.plus1 = by_score[3], b.plus2 = by_score[4];
    return b;
  }

  // One protocol line of row r: 9 space-separated tokens, '#' or -2..2.
  std::string line(int r) const {
    std::string s;
    for (int c = 0; c < kSize; ++c) {
      if (c) s += ' ';
      s += (holes & bit128(cell(r, c))) ? std::string("#") : std::to_string(score[cell(r, c)]);
    }
    return s;
  }
  std::string to_text() const {
    std::string s;
    for (int r = 0; r < kSize; ++r) s += line(r) + '\n';
    return s;
  }

  // Parses one protocol board line into row r. Returns an error message, empty on success.
  std::string parse_line(int r, std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string tok;
    int c = 0;
    while (in >> tok) {
      if (c >= kSize) return "more than 9 tokens";
      if (tok == "#") {
        set(cell(r, c), true, 0);
      } else if (tok.size() <= 2 && (tok == "-2" || tok == "-1" || tok == "0" || tok == "1" ||
                                     tok == "2" || tok == "+1" || tok == "+2")) {
        set(cell(r, c), false, std::stoi(tok));
      } else {
        return "token '" + tok.substr(0, 16) + "' is neither '#' nor an integer -2..2";
      }
      ++c;
    }
    if (c != kSize) return "expected 9 tokens, found " + std::to_string(c);
    return {};
  }

  // Parses the 9-line text form; nullopt unless every line is valid and there are 9 holes.
  static std::optional<Board> from_text(std::string_view text) {
    Board b;
    std::istringstream in{std::string(text)};
    std::string line;
    int r = 0;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (r >= kSize || !b.parse_line(r, line).empty()) return std::nullopt;
      ++r;
    }
    if (r != kSize || popcount(b.holes) != kHoles) return std::nullopt;
    return b;
  }

  friend bool operator==(const Board&, const Board&) = default;
};

struct MoveResult {
  int gain = 0;      // the cell's score plus the captured cells' scores
  u128 captured = 0;  // chain-captured cells (not including the chosen cell)
};

// Fixed-capacity move list: at most 72 empty ice cells.
struct MoveList {
  std::array<std::int8_t, kIce> items;
  int count = 0;
  const std::int8_t* begin() const { return items.data(); }
  const std::int8_t* end() const { return items.data() + count; }
  int operator[](int i) const { return items[i]; }
  int size() const { return count; }
};

class Position {
 public:
  u128 ice = 0;                     // empty ice cells
  std::array<u128, 2> owned{};      // cells taken by A and by B
  std::array<int, 2> total{};       // the players' scores
  Player to_move = A;
  int ply = 0;

  static Position start(const Board& b) {
    Position p;
    p.ice = b.ice();
    return p;
  }

  bool over() const { return ice == 0; }
  bool legal(int c) const { return c >= 0 && c < kSize * kStride && (ice & bit128(c)); }

  void moves(MoveList& out) const {
    int n = 0;
    for (auto lo = static_cast<std::uint64_t>(ice); lo; lo &= lo - 1)
      out.items[n++] = static_cast<std::int8_t>(std::countr_zero(lo));
    for (auto hi = static_cast<std::uint64_t>(ice >> 64); hi; hi &= hi - 1)
      out.items[n++] = static_cast<std::int8_t>(64 + std::countr_zero(hi));
    out.count = n;
  }

  // What taking cell c would capture, without playing it.
  u128 captures(int c) const {
    const u128 after = ice & ~bit128(c);
    // Step 1: the 3x3 window around c (bits 0-2 the row above, 10-12 this row, 20-22 the row
    // below). If the ice neighbours of c are joined to each other through the ice corners of
    // the window, the region stays connected without any flood fill; this decides most moves.
    const auto w = static_cast<std::uint32_t>((after << (kStride + 1)) >> c);
    const std::uint32_t n = (w >> 1) & 1, wst = (w >> 10) & 1, e = (w >> 12) & 1,
                        s = (w >> 21) & 1;
    const std::uint32_t links = (n & (w >> 2) & e) + (e & (w >> 22) & s) +
                                (s & (w >> 20) & wst) + (wst & w & n);
    if (n + wst + e + s <= links + 1) return 0;  // at most one group of neighbours around c
    // Step 2: flood fill from one neighbour; the region is whole if it reaches all the others.
    const u128 nb = neighbours<kStride>(bit128(c)) & after;
    u128 comp[4];
    int size[4], count = 0, largest = 0;
    for (u128 left = nb; left;) {
      const u128 g = flood_fill<kStride>(left & (~left + 1), after);
      left &= ~g;
      if (count == 0 && !left) return 0;
      comp[count] = g;
      size[count] = popcount(g);
      largest = std::max(largest, size[count]);
      ++count;
    }
    // Step 3: every part smaller than the largest is captured.
    u128 cap = 0;
    for (int i = 0; i < count; ++i)
      if (size[i] < largest) cap |= comp[i];
    return cap;
  }

  // The side to move takes empty ice cell c, with chain capture; returns what it gained.
  MoveResult play(const Board& b, int c) {
    const u128 cap = captures(c);
    const u128 taken = cap | bit128(c);
    const int gain = b.score[c] + (cap ? b.sum(cap) : 0);
    ice &= ~taken;
    owned[to_move] |= taken;
    total[to_move] += gain;
    to_move = other(to_move);
    ++ply;
    return {gain, cap};
  }

  // +1 if A leads, -1 if B leads, 0 if level (the result once the game is over).
  int leader() const { return total[A] > total[B] ? 1 : total[A] < total[B] ? -1 : 0; }
  // The score difference from the side to move's point of view.
  int margin() const { return total[to_move] - total[other(to_move)]; }

  friend bool operator==(const Position&, const Position&) = default;
};

}  // namespace tactica::icebreaking
