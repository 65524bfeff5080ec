// session_fallback.hpp — the cheap moves the Session answers with when the strategy cannot:
// computed before the strategy is asked, legal in the Session's own record of the game.
// (Hanpang's usual fallback, hanpang::fallback_move, is part of its rules in hanpang.hpp.) And
// strategies that play them, for an agent whose strategy cannot be built.
// Part of session.hpp; standard library only (it goes into fused submissions).
#pragma once

#include "tactica/bitboard.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/strategy.hpp"

namespace tactica {

// The Icebreaking fallback: the empty ice cell with the best immediate gain (its score plus
// what it captures), ties to the lowest cell; kNoCell when no ice is left.
inline int icebreaking_fallback_move(const icebreaking::Board& board,
                                     const icebreaking::Position& pos) {
  int best = icebreaking::kNoCell, best_gain = 0;
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s);
    const int gain = board.score[c] + board.sum(pos.captures(c));
    if (best == icebreaking::kNoCell || gain > best_gain) best = c, best_gain = gain;
  }
  return best;
}

// A Hanpang move that is legal on the judge's board even if our record of the colours is wrong:
// right after a row is pushed the bottom row is full, so a bottom cell always holds a tile.
// Takes the bottom cell whose group (in our record) is largest.
inline int hanpang_bottom_move(const hanpang::State& s) {
  int best = hanpang::cell(0, 0), best_size = -1;
  for (int col = 0; col < hanpang::kCols; ++col) {
    const int size = popcount(s.group_at(hanpang::cell(col, 0)));
    if (size > best_size) best = hanpang::cell(col, 0), best_size = size;
  }
  return best;
}

// Strategies that play these moves.
struct FallbackHanpangStrategy final : HanpangStrategy {
  int choose(const hanpang::State& s, const SearchLimits&, BestMove&) override {
    return hanpang::fallback_move(s);
  }
};
struct FallbackIcebreakingStrategy final : IcebreakingStrategy {
  int choose(const icebreaking::Board& board, const icebreaking::Position& pos, const SearchLimits&,
             BestMove&) override {
    return icebreaking_fallback_move(board, pos);
  }
};

}  // namespace tactica
