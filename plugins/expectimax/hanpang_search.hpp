// hanpang_search.hpp — expectiminimax (search.hpp) on Hanpang: our moves, then the mean over
// sampled next rows, with the game's knowledge from games/hanpang/search_knowledge.hpp. Only the
// `width` most promising moves of a decision node (by their horizon value) are expanded deeper,
// and `root_width` at the root; iterative deepening over our moves; a node is one evaluation.
#pragma once

#include <algorithm>
#include <cstdint>

#include "expectimax/search.hpp"
#include "games/hanpang/search_knowledge.hpp"
#include "tactica/hanpang.hpp"
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
  using Knowledge = common::HanpangSearchKnowledge;
  using Search = Expectiminimax<Knowledge>;

 public:
  static constexpr int kMaxDepth = Knowledge::kMaxDepth;
  static constexpr int kMaxSamples = Knowledge::kMaxSamples;
  using Result = Search::Result;

  explicit HanpangSearch(const HanpangParams& p) : search_(settings(p), p.weights) {}
  void new_game(std::uint64_t seed) { search_.knowledge().new_game(seed); }
  Result run(const hanpang::State& s, const SearchLimits& limits, BestMove* best) {
    return search_.run(s, 0, limits, best);
  }
  // The horizon value of an afterstate.
  double leaf(const hanpang::State& after) const { return search_.knowledge().leaf(after); }

 private:
  static Search::Settings settings(const HanpangParams& p) {
    Search::Settings s;
    s.max_depth = p.max_depth;
    s.width = p.width;
    s.root_width = p.root_width;
    s.samples = std::clamp(p.samples, 1, kMaxSamples);
    s.iter_start = p.iter_start;
    return s;
  }
  Search search_;
};

}  // namespace tactica::plugins::expectimax
