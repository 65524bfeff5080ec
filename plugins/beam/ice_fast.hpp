// ice_fast.hpp — Icebreaking moves with a cheap local test before the flood fill: taking a cell
// can only split its region if its ice neighbours are not all joined around it. Used by the beam
// search for our moves (the predicted greedy replies use common::ice::GreedyRule).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "tactica/icebreaking.hpp"

namespace tactica::plugins::beam::ice_fast {

using icebreaking::Board;
using icebreaking::kNoCell;
using icebreaking::kStride;
using icebreaking::Position;

// Whether taking a cell can split its region, from the 8 cells around it (bits N, NE, E, SE,
// S, SW, W, NW): not if its ice 4-neighbours are at most one, or all lie on one run of ice
// around the ring (they stay joined through it). Otherwise a flood fill decides.
constexpr std::array<bool, 256> kMaySplit = [] {
  std::array<bool, 256> t{};
  for (int m = 0; m < 256; ++m) {
    int orth = 0;
    for (int i = 0; i < 8; i += 2) orth += (m >> i) & 1;
    if (orth <= 1) continue;
    // Count the runs of ring cells that hold an orthogonal neighbour.
    int runs_with_orth = 0;
    for (int i = 0; i < 8; ++i) {
      const bool on = (m >> i) & 1, prev = (m >> ((i + 7) % 8)) & 1;
      if (!on || prev) continue;  // not the start of a run
      bool has = false;
      for (int j = i; (m >> (j % 8)) & 1; ++j) {
        if (j % 2 == 0) has = true;
        if (j - i >= 7) break;
      }
      runs_with_orth += has;
    }
    if (m == 255) runs_with_orth = 1;  // the whole ring: one run with no start
    t[m] = runs_with_orth > 1;
  }
  return t;
}();

inline bool bit_at(u128 s, int i) { return i >= 0 && ((s >> i) & 1) != 0; }

// The 8-cell ring of c within `ice` as a kMaySplit index.
inline int ring(u128 ice, int c) {
  return bit_at(ice, c - kStride) | bit_at(ice, c - kStride + 1) << 1 | bit_at(ice, c + 1) << 2 |
         bit_at(ice, c + kStride + 1) << 3 | bit_at(ice, c + kStride) << 4 |
         bit_at(ice, c + kStride - 1) << 5 | bit_at(ice, c - 1) << 6 |
         bit_at(ice, c - kStride - 1) << 7;
}

// What taking c captures (Position::captures with a cheap local test first).
inline u128 fast_captures(const Position& p, int c) {
  return kMaySplit[ring(p.ice, c)] ? p.captures(c) : 0;
}

// Position::play, with the local test before the flood fill.
inline void fast_play(const Board& b, Position& p, int c) {
  const u128 taken = fast_captures(p, c) | bit128(c);
  p.ice &= ~taken;
  p.owned[p.to_move] |= taken;
  p.total[p.to_move] += b.sum(taken);
  p.to_move = other(p.to_move);
  ++p.ply;
}

}  // namespace tactica::plugins::beam::ice_fast
