// reference_grid.hpp — what both reference games (reference_*.hpp) search with: the plain
// breadth-first search over a 2-D grid, sharing no code with the bitboard engines.
#pragma once

#include <vector>

namespace tactica::ref {

// Every cell 4-connected to `start` through cells of the Rows x Cols grid that `enter(row, col)`
// accepts (`start` itself is always taken), in the order the search reaches them. `Cell` is an
// aggregate {row, col}.
template <int Rows, int Cols, class Cell, class Enter>
std::vector<Cell> breadth_first(Cell start, const Enter& enter) {
  std::vector<Cell> out;
  bool seen[Rows][Cols] = {};
  Cell queue[Rows * Cols];  // each cell enters at most once
  int head = 0, tail = 0;
  queue[tail++] = start;
  seen[start.row][start.col] = true;
  while (head < tail) {
    const Cell x = queue[head++];
    out.push_back(x);
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; ++d) {
      const int r = x.row + dr[d], c = x.col + dc[d];
      if (r < 0 || r >= Rows || c < 0 || c >= Cols) continue;
      if (seen[r][c] || !enter(r, c)) continue;
      seen[r][c] = true;
      queue[tail++] = {r, c};
    }
  }
  return out;
}

}  // namespace tactica::ref
