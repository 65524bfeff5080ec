// games/hanpang/greedy_rank.hpp — what greedy means in Hanpang, for greedy/greedy.hpp's
// greedy_move: the largest group among the moves that do not overflow; with flat_ties, equal
// sizes to the lower, then flatter board after the move. Header-only, standard library + core.
#pragma once

#include <algorithm>
#include <utility>

#include "tactica/hanpang.hpp"

namespace tactica::plugins::common {

// (max column height, sum of squared column heights) of a board: lower is better.
inline std::pair<int, int> board_shape(const hanpang::State& s) {
  int mx = 0, sq = 0;
  for (int c = 0; c < hanpang::kCols; ++c) {
    const int h = s.height(c);
    mx = std::max(mx, h);
    sq += h * h;
  }
  return {mx, sq};
}

class LargestSafeGroup {
 public:
  explicit LargestSafeGroup(bool flat_ties) : flat_ties_(flat_ties) {}
  // Safe first (the move does not end the game by overflow), then the size.
  std::pair<bool, int> value(const hanpang::State& s, const hanpang::Group& g) const {
    return {!s.overflows(g.cells), g.size};
  }
  std::pair<int, int> tiebreak(const hanpang::State& s, const hanpang::Group& g) const {
    hanpang::State t = s;
    t.remove(g.cells);
    return board_shape(t);
  }
  bool breaks_ties() const { return flat_ties_; }

 private:
  bool flat_ties_;
};

}  // namespace tactica::plugins::common
