// hanpang_mcts.hpp — UCT for Hanpang with sampled chance outcomes.
//
// The tree alternates decision nodes (a board we must act on) and edges (our move: the board
// right after the removal, an "afterstate"). Below an edge, the unknown next row is a chance
// event: each edge keeps at most `chance_width` sampled rows, each with its own decision node;
// once that many exist, a visit picks one of them uniformly (sparse sampling). Values are in
// points: the score so far plus the shared board evaluation (games/hanpang/eval.hpp) at the
// leaf, after an optional short playout. A new edge starts with `prior_visits` virtual visits at
// its one-ply value, so the search begins where a one-ply evaluator would and improves on it.
// All nodes come from pools sized at construction; nothing is allocated while searching.
#pragma once

#include <cstdint>
#include <vector>

#include "games/hanpang/eval.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/rng.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::mcts {

struct HanConfig {
  double c_uct = 1.0;          // exploration, in units of the spread of a node's one-ply values
  double prior_visits = 2.0;   // virtual visits of a new edge at its one-ply value
  int chance_width = 4;        // sampled rows kept below each edge
  int horizon = 3;             // moves (root move included) made before the leaf evaluation
  double death = 400.0;        // points lost per action left when the board overflows
  int pool_nodes = 30000;      // decision nodes per search (room for 32 edges per node)
  // The shared evaluation with a larger group weight: a leaf a few rows ahead must still value
  // held masses above cashing them (measured best for this search, docs/STRATEGIES.md).
  common::HanpangWeights weights = [] {
    common::HanpangWeights w;
    w.group_sq = 2.0;
    return w;
  }();
  bool operator==(const HanConfig&) const = default;
};

class HanpangMcts final : public HanpangStrategy {
 public:
  explicit HanpangMcts(const HanConfig& cfg);
  void new_game(std::uint64_t seed) override;
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override;
  SearchStats stats() const override { return stats_; }

 private:
  struct DNode {
    std::int32_t first_edge = -1;
    std::int16_t nedges = 0;
    bool expanded = false;
    float spread = 1.0f;  // scale of the exploration term
    std::int32_t visits = 0;
  };
  struct Edge {
    u128 cells = 0;
    double w = 0;  // summed leaf values
    float prior = 0;
    std::int32_t n = 0;
    std::int32_t first_out = -1;
    std::int16_t nout = 0;
    std::int16_t rep = 0;
  };
  struct Outcome {
    std::int32_t node;
    std::int32_t next;
    std::uint16_t row;
  };

  bool expand(std::int32_t node, const hanpang::State& s);
  std::int32_t select(const DNode& d) const;
  double leaf_value(hanpang::State& s, int depth);
  double terminal_value(const hanpang::State& s) const;
  std::int32_t best_edge() const;

  HanConfig cfg_;
  Rng rng_;
  std::uint64_t seed_ = 0;
  std::vector<DNode> nodes_;
  std::vector<Edge> edges_;
  std::vector<Outcome> outs_;
  std::int32_t used_nodes_ = 0, used_edges_ = 0, used_outs_ = 0;
  hanpang::GroupList groups_;
  std::int32_t path_edges_[hanpang::kMaxActions + 1];
  std::int32_t path_nodes_[hanpang::kMaxActions + 1];
  SearchStats stats_;
};

}  // namespace tactica::plugins::mcts
