// greedy.hpp — the greedy move rules as plain functions, so other plugins (fallbacks, move
// ordering, opponents in rollouts) and tests can use them without a strategy object.
#pragma once

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica::plugins::greedy {

// Hanpang: the largest group (largest k^2 now) among the moves that do not end the game by
// overflow (any group if every move overflows). With flat_ties, equal sizes go to the move that
// leaves the lower board (max column height), then the flatter one (sum of squared heights),
// then the lowest cell; without, straight to the lowest cell. Returns kNoCell on an empty board.
int hanpang_move(const hanpang::State& s, bool flat_ties);

// Icebreaking: the move with the largest immediate gain (the cell plus its chain captures).
// With reply_ties, equal gains go to the move after which the opponent's best immediate gain is
// smallest, then the lowest cell; without, straight to the lowest cell.
int icebreaking_move(const icebreaking::Board& b, const icebreaking::Position& pos,
                     bool reply_ties);

// The largest immediate gain the side to move has in pos (0 if the game is over).
int icebreaking_best_gain(const icebreaking::Board& b, const icebreaking::Position& pos);

}  // namespace tactica::plugins::greedy
