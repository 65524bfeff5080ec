// reference_icebreaking.hpp — a plain Icebreaking implementation for differential tests.
//
// Written straight from shared/spec/icebreaking.md with 2-D arrays and breadth-first search,
// sharing no code with the bitboard engine. A move follows the spec's steps literally: find the
// region of the chosen cell before the move, take the cell, split what is left of the region
// into components, keep every largest one and capture the rest.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "reference_grid.hpp"

namespace tactica::ref::icebreaking {

constexpr int kSize = 9;

enum Owner { kIce = -1, kFirst = 0, kSecond = 1, kHole = 2 };

struct Cell {
  int row;
  int col;
  friend bool operator==(const Cell&, const Cell&) = default;
  friend auto operator<=>(const Cell&, const Cell&) = default;
};

struct Result {
  int gain = 0;
  std::vector<Cell> captured;  // sorted; not including the chosen cell
};

struct Game {
  int value[kSize][kSize] = {};  // the ice scores (0 on holes)
  int owner[kSize][kSize] = {};  // an Owner
  int total[2] = {0, 0};
  int to_move = kFirst;

  // From the protocol's 9 lines: '#' or an integer -2..2 per token (input assumed valid here).
  static Game from_tokens(const std::vector<std::vector<std::string>>& rows) {
    Game g;
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c) {
        const std::string& t = rows[r][c];
        if (t == "#") {
          g.owner[r][c] = kHole;
          g.value[r][c] = 0;
        } else {
          g.owner[r][c] = kIce;
          g.value[r][c] = std::stoi(t);
        }
      }
    return g;
  }

  bool is_ice(int r, int c) const {
    return r >= 0 && r < kSize && c >= 0 && c < kSize && owner[r][c] == kIce;
  }

  std::vector<Cell> moves() const {
    std::vector<Cell> out;
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c)
        if (owner[r][c] == kIce) out.push_back({r, c});
    return out;
  }
  bool over() const {
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c)
        if (owner[r][c] == kIce) return false;
    return true;
  }

  // Breadth-first search over empty ice from (row, col), limited to cells with allowed == true.
  std::vector<Cell> component(int row, int col, const bool allowed[kSize][kSize]) const {
    return breadth_first<kSize, kSize>(Cell{row, col},
                                       [&](int r, int c) { return is_ice(r, c) && allowed[r][c]; });
  }

  Result play(int row, int col) {
    Result res;
    // Step 1: the region the cell belonged to just before the move.
    bool everywhere[kSize][kSize];
    for (auto& line : everywhere)
      for (bool& b : line) b = true;
    const std::vector<Cell> region = component(row, col, everywhere);
    // Step 2: the mover takes the cell and its score.
    owner[row][col] = to_move;
    res.gain = value[row][col];
    // Step 3: the components of the region without the chosen cell.
    bool in_region[kSize][kSize] = {};
    for (const Cell& x : region) in_region[x.row][x.col] = true;
    in_region[row][col] = false;
    bool assigned[kSize][kSize] = {};
    std::vector<std::vector<Cell>> parts;
    for (const Cell& x : region) {
      if (!in_region[x.row][x.col] || assigned[x.row][x.col]) continue;
      parts.push_back(component(x.row, x.col, in_region));
      for (const Cell& y : parts.back()) assigned[y.row][y.col] = true;
    }
    // Step 4: if it split, every component smaller than the largest is captured.
    if (parts.size() >= 2) {
      std::size_t largest = 0;
      for (const auto& p : parts) largest = std::max(largest, p.size());
      for (const auto& p : parts) {
        if (p.size() == largest) continue;
        for (const Cell& y : p) {
          owner[y.row][y.col] = to_move;
          res.gain += value[y.row][y.col];
          res.captured.push_back(y);
        }
      }
    }
    std::sort(res.captured.begin(), res.captured.end());
    total[to_move] += res.gain;
    to_move = 1 - to_move;
    return res;
  }

  // +1 first player ahead, -1 second ahead, 0 level.
  int leader() const { return total[0] > total[1] ? 1 : total[0] < total[1] ? -1 : 0; }
};

}  // namespace tactica::ref::icebreaking
