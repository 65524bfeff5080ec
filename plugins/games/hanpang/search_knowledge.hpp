// games/hanpang/search_knowledge.hpp — what a depth-first search over sampled rows knows about
// Hanpang (the knowledge type of plugins/expectimax/search.hpp): the horizon value of an
// afterstate, the moves valued by it, and the row sampler.
//
// A decision node is a board after this turn's row was added. A move leads to an afterstate
// (group removed, columns fallen), valued at the horizon by the board evaluation (eval.hpp)
// with every column lifted by one (the coming row's height, its colours unknown); the same value
// orders the moves. Every chance node at one level below the root uses the same sampled rows
// (common random numbers: siblings are compared on equal futures), drawn once per turn from
// the game's seed and the action number.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "games/hanpang/eval.hpp"
#include "tactica/game.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/rng.hpp"
#include "tactica/search_budget.hpp"

namespace tactica::plugins::common {

class HanpangSearchKnowledge {
 public:
  using Game = HanpangGame;
  using Node = hanpang::State;
  using Value = double;
  struct Gen {
    double score;  // the horizon value of the afterstate (the ordering key)
    double gain;   // 0: values count the whole board, score included
    u128 cells;
    int cell;      // the group's representative (what is played)
  };
  static constexpr Value kInf = 1e300;
  static constexpr int kMaxDepth = 6;      // our moves below the root that have sampled rows
  static constexpr int kMaxSamples = 32;   // rows per level
  static constexpr int kMaxPly = kMaxDepth;
  static constexpr int kMaxMoves = hanpang::kRows * hanpang::kCols;
  static constexpr int kCheckEvery = 64;
  static constexpr bool kTable = false;            // boards seldom repeat within a turn
  static constexpr bool kHistory = false;
  static constexpr bool kStaticChildren = true;    // a node is one evaluation
  static constexpr bool kPartialIterations = false;
  static constexpr bool kFutility = false;

  explicit HanpangSearchKnowledge(const HanpangWeights& w) : w_(w) {}

  void new_game(std::uint64_t seed) { seed_ = seed; }

  // The rows of this turn's search: the same for every sibling.
  void new_search(const hanpang::State& root) {
    Rng rng(seed_ * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(root.actions) + 1);
    for (auto& level : rows_)
      for (auto& row : level) row = hanpang::Row::random(rng);
  }

  // The horizon value of an afterstate: its evaluation with the coming row's height added.
  double leaf(const hanpang::State& a) const {
    if (a.over()) return common::evaluate(a, w_);
    hanpang::State t = a;
    for (auto& p : t.planes) p = (p << 1) & hanpang::kValid;
    return common::evaluate(t, w_);
  }

  // Every group of s, valued by its afterstate's leaf value.
  int generate(const hanpang::State& s, Gen* out) const {
    hanpang::GroupList gl;
    game_.moves(s, gl);
    int n = 0;
    for (const auto& g : gl) {
      hanpang::State a = s;
      game_.apply(a, g);
      out[n++] = Gen{leaf(a), 0.0, g.cells, g.rep};
    }
    return n;
  }
  // Higher value first, then the lower representative cell: a total order, so any sort of the
  // moves gives the same list.
  static bool before(const Gen& x, const Gen& y) {
    return x.score > y.score || (x.score == y.score && x.cell < y.cell);
  }
  static bool root_before(const Gen& x, const Gen& y) { return before(x, y); }

  // Nothing settles a decision node before its moves are valued.
  bool settle(const hanpang::State&, int&, double, double, int, SearchBudget&, double&) const {
    return false;
  }
  void play(const hanpang::State& s, std::uint64_t, const Gen& m, hanpang::State& child,
            std::uint64_t&) const {
    child = s;
    child.remove(m.cells);
  }
  bool terminal(const hanpang::State& a) const { return game_.terminal(a); }
  // The i-th sampled row of `level` (our moves since the root) rises.
  void outcome(hanpang::State& a, int level, int i) const { game_.step(a, rows_[level][i]); }
  // Our moves left, at most kMaxDepth.
  static int depth_limit(const hanpang::State& s) {
    return std::min(kMaxDepth, hanpang::kMaxActions - s.actions);
  }

 private:
  HanpangGame game_;
  HanpangWeights w_;
  std::uint64_t seed_ = 0;
  std::array<std::array<hanpang::Row, kMaxSamples>, kMaxDepth> rows_{};
};

}  // namespace tactica::plugins::common
