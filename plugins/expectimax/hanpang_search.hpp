// hanpang_search.hpp — expectimax for Hanpang over the unknown next rows.
//
// A decision node is a board after this turn's row was added: its value is the best over our
// moves. A move leads to an afterstate (group removed, columns fallen); its value is the mean,
// over sampled next rows, of the decision node that row makes. At the horizon an afterstate is
// valued by the board-potential evaluation (games/hanpang/eval.hpp) with every column lifted
// by one (the coming row's height, its colours unknown). Only the `width` most promising moves
// of a decision node (by that horizon value) are expanded deeper, and every chance node at one
// level uses the same sampled rows (common random numbers: siblings are compared on equal
// futures). Iterative deepening over depth; a node is one evaluation.
#pragma once

#include <array>
#include <cstdint>

#include "games/hanpang/eval.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/rng.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::expectimax {

struct HanpangParams {
  int max_depth = 3;        // our moves looked at, the root's included
  int width = 3;            // moves expanded below the root at each decision node
  int root_width = 12;     // root moves expanded at depth >= 2
  int samples = 3;          // sampled rows per chance node
  double iter_start = 0.5;  // start another depth only before this fraction of the soft time
  // The shared evaluation with a gentler danger and a larger group weight: the values the plugin
  // has always played (its describe() once said -20 and 2 while this struct said -40 and 0.6,
  // which only the micro-benchmark ran).
  common::HanpangWeights weights = [] {
    common::HanpangWeights w;
    w.danger = -20.0;
    w.group_sq = 2.0;
    return w;
  }();
  bool operator==(const HanpangParams&) const = default;
};

class HanpangSearch {
 public:
  static constexpr int kMaxDepth = 6;
  static constexpr int kMaxSamples = 32;

  explicit HanpangSearch(const HanpangParams& p) : p_(p) {}
  void new_game(std::uint64_t seed) { seed_ = seed; }

  struct Result {
    int move = hanpang::kNoCell;
    double value = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
  };
  Result run(const hanpang::State& s, const SearchLimits& limits, BestMove* best);

  // The horizon value of an afterstate (see above).
  double leaf(const hanpang::State& after) const;

 private:
  double decision(const hanpang::State& s, int depth);  // s: after a row was added
  double chance(const hanpang::State& after, int depth);
  void tick();

  HanpangParams p_;
  std::uint64_t seed_ = 0;
  // rows_[level][i]: the i-th sampled row of every chance node `level` moves below the root.
  std::array<std::array<hanpang::Row, kMaxSamples>, kMaxDepth> rows_{};
  int samples_ = 1;
  int root_depth_ = 1;
  std::uint64_t nodes_ = 0, budget_ = 0;
  const Deadline* deadline_ = nullptr;
  bool stop_ = false;
};

}  // namespace tactica::plugins::expectimax
