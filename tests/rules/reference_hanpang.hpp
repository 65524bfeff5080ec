// reference_hanpang.hpp — a plain Hanpang implementation for differential tests.
//
// Written straight from shared/spec/hanpang.md with a 2-D array and breadth-first search, in
// protocol orientation (row 0 = protocol row 1 = the top), sharing no code with the bitboard
// engine. Slow on purpose: every step is the obvious one.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reference_grid.hpp"

namespace tactica::ref::hanpang {

constexpr int kRows = 15;
constexpr int kCols = 8;
constexpr int kMaxActions = 200;

// A cell in protocol orientation, 0-based: row 0 is the top row.
struct Cell {
  int row;
  int col;
  friend bool operator==(const Cell&, const Cell&) = default;
  friend auto operator<=>(const Cell&, const Cell&) = default;
};

enum class Ending { none, overflow, max_actions };

struct Game {
  int grid[kRows][kCols] = {};  // 0 empty, 1..3 colour
  std::int64_t score = 0;
  int actions = 0;
  Ending ending = Ending::none;

  bool over() const { return ending != Ending::none; }

  int tiles() const {
    int n = 0;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) n += grid[r][c] != 0;
    return n;
  }

  // Adds a row of 8 colours at the bottom; everything moves up one row. If a tile was in the
  // top row it is pushed out and the game ends.
  void push_row(const std::array<int, kCols>& colours) {
    bool pushed_out = false;
    for (int c = 0; c < kCols; ++c)
      if (grid[0][c] != 0) pushed_out = true;
    for (int r = 0; r + 1 < kRows; ++r)
      for (int c = 0; c < kCols; ++c) grid[r][c] = grid[r + 1][c];
    for (int c = 0; c < kCols; ++c) grid[kRows - 1][c] = colours[c];
    if (pushed_out) ending = Ending::overflow;
  }

  // Breadth-first search: every tile of the same colour 4-connected to (row, col), sorted.
  std::vector<Cell> group_at(int row, int col) const {
    const int colour = grid[row][col];
    if (colour == 0) return {};
    auto out = breadth_first<kRows, kCols>(Cell{row, col},
                                           [&](int r, int c) { return grid[r][c] == colour; });
    std::sort(out.begin(), out.end());
    return out;
  }

  // Every group exactly once (each a sorted list of cells), in scan order.
  std::vector<std::vector<Cell>> groups() const {
    std::vector<std::vector<Cell>> out;
    bool done[kRows][kCols] = {};
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        if (grid[r][c] == 0 || done[r][c]) continue;
        out.push_back(group_at(r, c));
        for (const Cell& x : out.back()) done[x.row][x.col] = true;
      }
    return out;
  }

  // Numbers the groups 0..n-1 in scan order (breadth-first search from each unnumbered tile)
  // and writes each tile's number into `label` (-1 for an empty cell); returns n.
  int label(int out[kRows][kCols]) const {
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) out[r][c] = -1;
    int n = 0;
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        if (grid[r][c] == 0 || out[r][c] != -1) continue;
        Cell queue[kRows * kCols];
        int head = 0, tail = 0;
        queue[tail++] = {r, c};
        out[r][c] = n;
        while (head < tail) {
          const Cell x = queue[head++];
          const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
          for (int d = 0; d < 4; ++d) {
            const int y = x.row + dr[d], z = x.col + dc[d];
            if (y < 0 || y >= kRows || z < 0 || z >= kCols) continue;
            if (out[y][z] != -1 || grid[y][z] != grid[r][c]) continue;
            out[y][z] = n;
            queue[tail++] = {y, z};
          }
        }
        ++n;
      }
    return n;
  }

  // The turn: remove the group at (row, col), let each column fall, score k^2, count the action,
  // then the end rules (the 200th action; a full column that the next row would push out).
  int play(int row, int col) {
    const std::vector<Cell> g = group_at(row, col);
    for (const Cell& x : g) grid[x.row][x.col] = 0;
    for (int c = 0; c < kCols; ++c) {
      std::vector<int> column;  // bottom to top
      for (int r = kRows - 1; r >= 0; --r)
        if (grid[r][c] != 0) column.push_back(grid[r][c]);
      for (int r = kRows - 1, i = 0; r >= 0; --r, ++i)
        grid[r][c] = i < static_cast<int>(column.size()) ? column[i] : 0;
    }
    const int k = static_cast<int>(g.size());
    score += static_cast<std::int64_t>(k) * k;
    ++actions;
    if (actions == kMaxActions) {
      ending = Ending::max_actions;
    } else {
      for (int c = 0; c < kCols; ++c) {
        int height = 0;
        for (int r = 0; r < kRows; ++r) height += grid[r][c] != 0;
        if (height == kRows) ending = Ending::overflow;
      }
    }
    return k * k;
  }

  // 15 lines of 8 digits, top row first.
  std::string text() const {
    std::string s;
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) s += static_cast<char>('0' + grid[r][c]);
      s += '\n';
    }
    return s;
  }
};

}  // namespace tactica::ref::hanpang
