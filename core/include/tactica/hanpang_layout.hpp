// hanpang_layout.hpp — the Hanpang board's size and its bitboard layout (part of hanpang.hpp,
// which every user includes).
//
// Layout: column-major, 16 bits per column ("lane"): bit (col * 16 + h) is the cell of column
// `col` (0-based, left to right) at height `h` (0 = bottom row, protocol row 15; 14 = top row,
// protocol row 1). Bit 15 of each lane is a guard that is never set, so vertical shifts cannot
// leak into the next column and horizontal neighbours are 16 bits apart. Gravity keeps every
// column packed from height 0 up, so a column's occupancy is always a run of low bits.
// Protocol coordinates (1-based row from the top, 1-based column) appear only at the boundary.
#pragma once

#include <cstdint>

#include "tactica/bitboard.hpp"

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
inline constexpr u128 kGuard = kBottom << (kLane - 1);  // bit 15 of every lane: never a tile

}  // namespace tactica::hanpang
