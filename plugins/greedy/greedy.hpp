// greedy.hpp — the greedy move, written once over the Game concept (issue 11), and the rules as
// plain functions, so other plugins (fallbacks, move ordering, opponents in rollouts) and tests
// can use them without a strategy object.
//
// greedy_move(g, s, rank): among s's moves, the one whose rank.value is highest; among equals,
// if rank.breaks_ties(), the one whose rank.tiebreak is lowest (computed only for the tied
// moves); then the lowest cell. What "value" and "tie-break" mean is each game's
// (games/hanpang/greedy_rank.hpp, games/icebreaking/greedy_rank.hpp).
#pragma once

#include <concepts>

#include "tactica/game.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica::plugins::greedy {

template <class R, class G>
concept GreedyRank = Game<G> && requires(R& r, const typename G::State& s, const typename G::Move& m) {
  { r.value(s, m) } -> std::totally_ordered;
  { r.tiebreak(s, m) } -> std::totally_ordered;
  { r.breaks_ties() } -> std::convertible_to<bool>;
};

// The most moves a state has in the games greedy_index serves (Hanpang 120 tiles, Icebreaking
// 128 cells): the tied moves are kept on the stack.
inline constexpr int kMaxMoves = 128;

// The index in ml (s's moves, not empty) of the greedy move by rank.
template <class G, class R>
  requires GreedyRank<R, G>
int greedy_index(const G& g, const typename G::State& s, const typename G::MoveList& ml, R& rank) {
  // Step 1. The highest value and the moves that have it.
  int tied[kMaxMoves];
  int t = 1;
  tied[0] = 0;
  auto top = rank.value(s, ml[0]);
  for (int i = 1; i < ml.size(); ++i) {
    const auto v = rank.value(s, ml[i]);
    if (top < v) top = v, tied[0] = i, t = 1;
    else if (v == top) tied[t++] = i;
  }
  // Step 2. Among them the lowest tie-break (computed for these only), then the lowest cell.
  int best = tied[0];
  if (t == 1) return best;
  decltype(rank.tiebreak(s, ml[0])) least{};
  if (rank.breaks_ties()) least = rank.tiebreak(s, ml[best]);
  for (int j = 1; j < t; ++j) {
    const int i = tied[j];
    if (!rank.breaks_ties()) {
      if (g.cell(ml[i]) < g.cell(ml[best])) best = i;
      continue;
    }
    const auto x = rank.tiebreak(s, ml[i]);
    if (x < least || (x == least && g.cell(ml[i]) < g.cell(ml[best]))) least = x, best = i;
  }
  return best;
}

// The greedy move's cell, or `none` when s has no move.
template <class G, class R>
  requires GreedyRank<R, G>
int greedy_cell(const G& g, const typename G::State& s, R& rank, int none) {
  typename G::MoveList ml;
  g.moves(s, ml);
  if (ml.size() == 0) return none;
  return g.cell(ml[greedy_index(g, s, ml, rank)]);
}

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
