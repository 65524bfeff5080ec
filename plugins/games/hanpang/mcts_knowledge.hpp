// games/hanpang/mcts_knowledge.hpp — what Monte Carlo tree search (plugins/mcts/mcts.hpp) knows
// about Hanpang: a move's prior is its one-ply value (the shared evaluation of the board after
// the removal, columns lifted for the coming row), moves are tried best prior first, a leaf is
// valued at a fixed horizon (one-ply greedy moves over sampled rows, then the evaluation), an
// overflow costs `death` points per action left, and rows are sampled as one uniform draw among
// all rows. Values are in points: the score so far plus the evaluation.
// Header-only, standard library + core only (it goes into fused submissions).
#pragma once

#include <algorithm>
#include <cstdint>

#include "games/hanpang/eval.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/rng.hpp"

namespace tactica::plugins::common {

class HanpangMctsKnowledge {
 public:
  struct Ref {  // the group's cells, so playing it needs no flood fill
    u128 cells = 0;
    std::int16_t rep = 0;
  };
  using Stat = double;

  // horizon: moves (root move included) made before the evaluation.
  HanpangMctsKnowledge(const HanpangWeights& w, int horizon, double death)
      : w_(w), horizon_(horizon), death_(death) {}

  Ref ref(const hanpang::Group& g) const { return Ref{g.cells, static_cast<std::int16_t>(g.rep)}; }
  void play(hanpang::State& s, const Ref& r) const { s.remove(r.cells); }
  int cell(const Ref& r) const { return r.rep; }
  hanpang::Row sample(const hanpang::State&, Rng& rng) const { return hanpang::Row::random(rng); }

  double terminal_value(const hanpang::State& s) const {
    const double score = static_cast<double>(s.score);
    if (s.end == hanpang::End::overflow) return score - death_ * (hanpang::kMaxActions - s.actions);
    return score;
  }

  // Each move's prior: the one-ply evaluation of its afterstate; the moves sorted best first.
  // Returns the exploration scale: how far the best living move is above the mean one.
  template <class N>
  float priors(const hanpang::State& s, const hanpang::GroupList& ml, int, N* out) const {
    double hi = -1e300, sum = 0;
    int alive = 0;
    const int n = ml.size();
    for (int i = 0; i < n; ++i) {
      hanpang::State t = s;
      t.remove(out[i].move.cells);
      double v;
      if (t.over()) {
        v = terminal_value(t);
      } else {
        for (auto& p : t.planes) p = (p << 1) & hanpang::kValid;
        v = evaluate(t, w_);
        hi = std::max(hi, v);
        sum += v;
        ++alive;
      }
      out[i].prior = static_cast<float>(v);
    }
    std::sort(out, out + n, [](const N& a, const N& b) { return a.prior > b.prior; });
    return alive ? static_cast<float>(std::max(1.0, hi - sum / alive)) : 1.0f;
  }

  // The value of a fresh decision state `depth` moves below the root: one-ply greedy moves on
  // the evaluation (over sampled rows) until `horizon` moves were made, then the evaluation.
  // Every value is thus taken the same number of rows ahead, which keeps siblings comparable
  // (the evaluation drifts with every row pushed: more tiles, more danger).
  double leaf(hanpang::State& s, int depth, Rng& rng) const {
    for (; depth < horizon_ && !s.over(); ++depth) {
      const int c = eval_greedy_move(s, w_);
      if (c < 0) break;
      s.play(c);
      if (!s.over()) s.push_row(sample(s, rng));
    }
    return s.over() ? terminal_value(s) : evaluate(s, w_);
  }
  // No room to expand: the same value.
  double rollout(hanpang::State& s, int depth, Rng& rng) const { return leaf(s, depth, rng); }

  int horizon() const { return horizon_; }

 private:
  HanpangWeights w_;
  int horizon_;
  double death_;
};

}  // namespace tactica::plugins::common
