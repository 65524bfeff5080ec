// games/icebreaking/greedy_rank.hpp — what greedy means in Icebreaking, for greedy/greedy.hpp's
// greedy_move: the largest immediate gain (the cell plus its chain captures); with reply_ties,
// equal gains to the move after which the opponent's best immediate gain is smallest. Two ranks
// of the same rule: LargestGain plainly (Position's flood fills, the reference the tests hold
// the others to) and ScannedGain fast (one articulation scan per position, as GreedyRule in
// games/icebreaking/eval.hpp, which searches use to predict a greedy opponent). Header-only.
#pragma once

#include <array>

#include "games/icebreaking/eval.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica::plugins::common::ice {

class LargestGain {
 public:
  LargestGain(const Board& b, bool reply_ties) : board_(&b), reply_ties_(reply_ties) {}
  int value(const icebreaking::Position& p, int c) const {
    return board_->score[c] + board_->sum(p.captures(c));
  }
  // The largest value the side to move has in p (0 if the game is over).
  int best_value(const icebreaking::Position& p) const {
    int best = 0;
    bool any = false;
    for (u128 s = p.ice; s;) {
      const int v = value(p, pop_lowest(s));
      if (!any || v > best) best = v, any = true;
    }
    return best;
  }
  int tiebreak(const icebreaking::Position& p, int c) const {
    icebreaking::Position t = p;
    t.play(*board_, c);
    return best_value(t);
  }
  bool breaks_ties() const { return reply_ties_; }

 private:
  const Board* board_;
  bool reply_ties_;
};

class ScannedGain {
 public:
  explicit ScannedGain(bool reply_ties) : reply_ties_(reply_ties) {}
  // Scans p's ice once: every cell's gain, before value() is asked about p.
  void prepare(const Board& b, const icebreaking::Position& p) {
    board_ = &b;
    const int n = p.ice ? scanner_.scan(b, p.ice, facts_.data()) : 0;
    for (int i = 0; i < n; ++i) gain_[facts_[i].cell] = facts_[i].gain, captured_[facts_[i].cell] = facts_[i].captured;
  }
  int value(const icebreaking::Position&, int c) const { return gain_[c]; }
  int tiebreak(const icebreaking::Position& p, int c) {
    const u128 cap = captured_[c] ? captures(p.ice, c) : 0;
    return rule_.best_gain(*board_, p.ice & ~(cap | bit128(c)));
  }
  bool breaks_ties() const { return reply_ties_; }

 private:
  bool reply_ties_;
  const Board* board_ = nullptr;
  MoveScanner scanner_;
  GreedyRule rule_;
  std::array<MoveFacts, icebreaking::kIce> facts_{};
  std::array<std::int16_t, 128> gain_{};
  std::array<std::int8_t, 128> captured_{};
};

}  // namespace tactica::plugins::common::ice
