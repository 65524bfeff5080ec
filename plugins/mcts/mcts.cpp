// mcts.cpp — the plugin's descriptor and factories, and its parameter tables (mcts/params.hpp):
// names, ranges and help; the defaults are HanConfig's and IceConfig's.
#include <memory>

#include "mcts/params.hpp"
#include "mcts/plugin.hpp"
#include "mcts/strategies.hpp"

namespace tactica::plugins::mcts {

const ParamTable<HanpangConfig>& hanpang_table() {
  using C = HanpangConfig;
  using W = common::HanpangWeights;
  static const ParamTable<C> table{
      {"c_uct", &C::c_uct, 0.0, 10.0, "UCT exploration, in units of a node's value spread"},
      {"prior_visits", &C::prior_visits, 0.0, 1000.0, "virtual visits of a new move at its one-ply value"},
      {"chance_width", &C::chance_width, 1, 64, "sampled next rows kept below each move"},
      {"horizon", &C::horizon, 1, 50, "moves made (tree, then one-ply greedy) before the evaluation"},
      {"death", &C::death, 0.0, 1e5, "points lost per action left when the board overflows"},
      {"pool_nodes", &C::pool_nodes, 1000, 2000000, "decision nodes preallocated per search"},
      {"group_sq", &C::weights, &W::group_sq, 0.0, 4.0, "evaluation: weight of k^2 per group of size >= 2"},
      {"danger", &C::weights, &W::danger, -1000.0, 0.0, "evaluation: per (height - danger_from)^2 per column"},
      {"danger_from", &C::weights, &W::danger_from, 0, 15, "evaluation: column height where danger starts"},
      {"tile", &C::weights, &W::tile, -100.0, 100.0, "evaluation: per tile on the board"},
  };
  return table;
}

const ParamTable<IcebreakingConfig>& icebreaking_table() {
  using C = IcebreakingConfig;
  using L = common::ice::MctsKnobs;
  static const ParamTable<C> table{
      {"c_uct", &C::c_uct, 0.0, 10.0, "UCT exploration constant (rewards in [0, 1])"},
      {"prior_w", &C::prior_w, 0.0, 10.0, "progressive-bias weight of a move's immediate gain"},
      {"net_prior_depth", &C::leaf, &L::net_prior_depth, 0, 72, "nodes this shallow get priors net of the best reply"},
      {"fpu", &C::fpu, 0.0, 2.0, "value assumed for an unvisited move"},
      {"playout_eps", &C::leaf, &L::playout_eps, 0.0, 1.0, "playout: chance of a uniformly random move"},
      {"playout_cands", &C::leaf, &L::playout_cands, 1, 72, "playout: best gain among this many random cells"},
      {"leaf_eval", &C::leaf, &L::leaf_eval, 0, 1, "value new leaves statically (margin + tempo) instead of by playout"},
      {"tempo", &C::leaf, &L::tempo, 0.0, 2.0, "evaluation: share of the side to move's best gain"},
      {"eval_scale", &C::leaf, &L::eval_scale, 0.1, 100.0, "evaluation: margin scale of the reward"},
      {"margin_w", &C::leaf, &L::margin_w, 0.0, 1.0, "share of the reward from the final score margin"},
      {"solve_cells", &C::leaf, &L::solve_cells, 0, 20, "exact solve of leaves with at most this many ice cells"},
      {"solve_nodes", &C::leaf, &L::solve_nodes, 0, 10000000, "node limit of one exact solve"},
      {"pool_nodes", &C::pool_nodes, 4096, 16000000, "tree nodes preallocated (per buffer)"},
      {"reuse", &C::reuse, 0, 1, "keep the tree between turns"},
  };
  return table;
}

PluginInfo describe() {
  return describe_plugin("mcts", "1.0.0",
                         "Monte Carlo tree search: sampled-row UCT (Hanpang), UCT with MCTS-Solver "
                         "(Icebreaking)",
                         hanpang_table(), icebreaking_table());
}

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<HanpangMcts>(hanpang_table().read(p));
}

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<IcebreakingMcts>(icebreaking_table().read(p));
}

}  // namespace tactica::plugins::mcts
