// params.hpp — the mcts plugin's parameters, declared once: each game's config struct (its
// defaults are the plugin's) and the table binding every parameter to its field (mcts.cpp).
#pragma once

#include "games/hanpang/eval.hpp"
#include "games/icebreaking/mcts_knowledge.hpp"
#include "tactica/param_table.hpp"

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

struct IceConfig {
  double c_uct = 0.3;          // UCT exploration constant (rewards in [0, 1])
  double prior_w = 0.3;        // progressive-bias weight of a move's immediate gain
  double fpu = 0.6;            // value assumed for an unvisited child
  int pool_nodes = 1 << 21;    // nodes per pool buffer (two buffers when reusing)
  bool reuse = true;           // keep the tree between turns
  common::ice::MctsKnobs leaf; // priors, leaf values and the exact leaf solve
  bool operator==(const IceConfig&) const = default;
};

using HanpangConfig = HanConfig;
using IcebreakingConfig = IceConfig;

const ParamTable<HanpangConfig>& hanpang_table();
const ParamTable<IcebreakingConfig>& icebreaking_table();

}  // namespace tactica::plugins::mcts
