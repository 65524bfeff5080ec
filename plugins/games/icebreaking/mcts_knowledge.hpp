// games/icebreaking/mcts_knowledge.hpp — what Monte Carlo tree search (plugins/mcts/mcts.hpp)
// knows about Icebreaking: a move's prior is its immediate gain (captures included; near the
// root net of the best reply's gain), squashed by tanh; a new leaf is solved exactly by
// alpha-beta when few ice cells remain, else valued statically (the margin plus `tempo` x the
// side to move's best immediate gain, squashed) or by a gain-informed playout. Rewards are
// player A's, in [0, 1]. Moves are played with the local "cannot split" test of eval.hpp.
// Header-only, standard library + core only (it goes into fused submissions).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "games/icebreaking/eval.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"

namespace tactica::plugins::common::ice {

// The index of the k-th set bit (0-based) of s; s has more than k bits.
inline int nth_set_bit(u128 s, int k) {
  auto lo = static_cast<std::uint64_t>(s);
  const int pc = std::popcount(lo);
  if (k >= pc) {
    lo = static_cast<std::uint64_t>(s >> 64);
    k -= pc;
    for (; k > 0; --k) lo &= lo - 1;
    return 64 + std::countr_zero(lo);
  }
  for (; k > 0; --k) lo &= lo - 1;
  return std::countr_zero(lo);
}

struct MctsKnobs {
  int net_prior_depth = 2;    // nodes this shallow: prior = gain minus the best reply's gain
  double playout_eps = 0.15;  // playout: chance of a uniformly random move
  int playout_cands = 6;      // playout: otherwise the best gain among this many random cells
  bool leaf_eval = true;      // value new leaves statically instead of by a playout
  double tempo = 0.5;         // evaluation: share of the side to move's best gain counted
  double eval_scale = 3.0;    // evaluation: margin scale of the reward's tanh
  double margin_w = 0.1;      // share of the playout reward given by the final score margin
  int solve_cells = 0;        // exact solve of leaves with at most this many ice cells
  int solve_nodes = 5000;     // node limit of one exact solve
  bool operator==(const MctsKnobs&) const = default;
};

class MctsKnowledge {
 public:
  using Ref = std::int8_t;
  using Stat = float;
  struct LeafValue {
    double value = 0;     // player A's reward
    bool proven = false;  // else: sign is the exact result for the side to move
    int sign = 0;
  };

  MctsKnowledge(const Board& b, const MctsKnobs& k) : b_(&b), k_(k) {}

  Ref ref(int c) const { return static_cast<Ref>(c); }
  // Position::play with the fast capture test of captures() (the same result).
  void play(icebreaking::Position& p, Ref c) const { play_fast(*b_, p, c); }
  int cell(Ref c) const { return c; }

  int gain(const icebreaking::Position& p, int c) const {
    const u128 cap = captures(p.ice, c);
    return b_->score[c] + (cap ? b_->sum(cap) : 0);
  }
  // The best immediate gain of the side to move in p (what a greedy reply would take).
  int best_gain(const icebreaking::Position& p) const {
    int best = -1000;
    for (u128 s = p.ice; s;) best = std::max(best, gain(p, pop_lowest(s)));
    return best;
  }

  // Progressive-bias priors: the immediate gain, near the root net of the greedy reply (a move
  // that opens a capture is bad), squashed to about [-1, 1].
  template <class N>
  float priors(const icebreaking::Position& pos, const icebreaking::MoveList& ml, int depth, N* out) const {
    for (int i = 0; i < ml.size(); ++i) {
      const int c = ml[i];
      int g = gain(pos, c);
      if (depth < k_.net_prior_depth) {
        icebreaking::Position q = pos;
        play(q, static_cast<Ref>(c));
        if (!q.over()) g -= best_gain(q);
      }
      out[i].prior = static_cast<float>(std::tanh(g / 3.0));
    }
    return 1.0f;
  }

  // A new leaf: solved exactly if small, else valued statically or played out.
  LeafValue leaf(const icebreaking::Position& p, int, Rng& rng) {
    if (popcount(p.ice) <= k_.solve_cells) {
      const int v = solve_exact(p, k_.solve_nodes);
      if (v != 2) return LeafValue{0, true, v};
    }
    return LeafValue{k_.leaf_eval ? evaluate(p) : playout(p, rng)};
  }
  double rollout(const icebreaking::Position& p, int, Rng& rng) const { return playout(p, rng); }

  // A game to the end: mostly the best immediate gain (captures included) among a few random
  // cells, sometimes a uniformly random cell. Returns the reward of player A.
  double playout(icebreaking::Position p, Rng& rng) const {
    while (!p.over()) {
      const int n = popcount(p.ice);
      int c;
      if (n == 1) {
        c = lowest_bit(p.ice);
      } else if (rng.uniform() < k_.playout_eps) {
        c = nth_set_bit(p.ice, static_cast<int>(rng.below(n)));
      } else {
        c = -1;
        int best = -1000;
        const int m = std::min(k_.playout_cands, n);
        for (int i = 0; i < m; ++i) {
          const int x = nth_set_bit(p.ice, static_cast<int>(rng.below(n)));
          const int g = gain(p, x);
          if (g > best) best = g, c = x;
        }
      }
      play(p, static_cast<Ref>(c));
    }
    const int margin = p.total[icebreaking::A] - p.total[icebreaking::B];
    const double outcome = margin > 0 ? 1.0 : margin < 0 ? 0.0 : 0.5;
    return (1 - k_.margin_w) * outcome + k_.margin_w * (0.5 + 0.5 * std::tanh(margin / 10.0));
  }

  // A static value instead of a playout: the margin, plus the gain the side to move can take at
  // once (weighted by `tempo`), squashed to a reward of player A.
  double evaluate(const icebreaking::Position& p) const {
    const int bg = best_gain(p);
    const double m = (p.total[icebreaking::A] - p.total[icebreaking::B]) +
                     (p.to_move == icebreaking::A ? 1 : -1) * k_.tempo * bg;
    return 0.5 + 0.5 * std::tanh(m / k_.eval_scale);
  }

  // Exact result of `pos` with best play (sign of the final margin from the side to move's
  // view: +1 win, 0 draw, -1 loss), or 2 if the node limit was hit first.
  int solve_exact(const icebreaking::Position& pos, int node_limit) {
    icebreaking::Position p = pos;
    solve_count_ = 0;
    solve_limit_ = node_limit;
    solve_aborted_ = false;
    const int v = solve(p, -1, 1);
    if (solve_aborted_) return 2;
    return v > 0 ? 1 : v < 0 ? -1 : 0;
  }

 private:
  // The sum of |score| over the cells of s: no sequence of moves can swing the margin by more.
  int abs_sum(u128 s) const {
    return popcount(s & (b_->plus1 | b_->minus1)) + 2 * popcount(s & (b_->plus2 | b_->minus2));
  }

  int solve(icebreaking::Position& p, int alpha, int beta) {
    if (p.over()) return p.margin();
    const int m = p.margin(), sw = abs_sum(p.ice);
    if (m - sw >= beta) return m - sw;
    if (m + sw <= alpha) return m + sw;
    if (++solve_count_ > solve_limit_) {
      solve_aborted_ = true;
      return 0;
    }
    // Moves ordered by immediate gain, best first.
    int cells[icebreaking::kIce], gains[icebreaking::kIce], n = 0;
    for (u128 s = p.ice; s;) {
      const int c = pop_lowest(s), g = gain(p, c);
      int j = n++;
      for (; j > 0 && gains[j - 1] < g; --j) cells[j] = cells[j - 1], gains[j] = gains[j - 1];
      cells[j] = c, gains[j] = g;
    }
    int best = -1000;
    for (int i = 0; i < n; ++i) {
      icebreaking::Position q = p;
      play(q, static_cast<Ref>(cells[i]));
      const int v = -solve(q, -beta, -alpha);
      if (solve_aborted_) return 0;
      best = std::max(best, v);
      alpha = std::max(alpha, v);
      if (alpha >= beta) break;
    }
    return best;
  }

  const Board* b_;
  MctsKnobs k_;
  std::int64_t solve_count_ = 0;
  int solve_limit_ = 0;
  bool solve_aborted_ = false;
};

}  // namespace tactica::plugins::common::ice
