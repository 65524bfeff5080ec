// mcts.cpp — the plugin's descriptor and factories: parameters, their defaults and ranges.
#include <memory>

#include "mcts/hanpang_mcts.hpp"
#include "mcts/icebreaking_mcts.hpp"
#include "mcts/plugin.hpp"

namespace tactica::plugins::mcts {

namespace {

using PT = ParamType;

std::vector<ParamSpec> hanpang_specs() {
  const HanConfig d;
  return {
      {"c_uct", PT::real, d.c_uct, 0.0, 10.0, "UCT exploration, in units of a node's value spread"},
      {"prior_visits", PT::real, d.prior_visits, 0.0, 1000.0, "virtual visits of a new move at its one-ply value"},
      {"chance_width", PT::integer, double(d.chance_width), 1, 64, "sampled next rows kept below each move"},
      {"horizon", PT::integer, double(d.horizon), 1, 50, "moves made (tree, then one-ply greedy) before the evaluation"},
      {"death", PT::real, d.death, 0.0, 1e5, "points lost per action left when the board overflows"},
      {"pool_nodes", PT::integer, double(d.pool_nodes), 1000, 2000000, "decision nodes preallocated per search"},
      {"group_sq", PT::real, d.weights.group_sq, 0.0, 4.0, "evaluation: weight of k^2 per group of size >= 2"},
      {"danger", PT::real, d.weights.danger, -1000.0, 0.0, "evaluation: per (height - danger_from)^2 per column"},
      {"danger_from", PT::integer, double(d.weights.danger_from), 0, 15, "evaluation: column height where danger starts"},
      {"tile", PT::real, d.weights.tile, -100.0, 100.0, "evaluation: per tile on the board"},
  };
}

std::vector<ParamSpec> icebreaking_specs() {
  const IceConfig d;
  return {
      {"c_uct", PT::real, d.c_uct, 0.0, 10.0, "UCT exploration constant (rewards in [0, 1])"},
      {"prior_w", PT::real, d.prior_w, 0.0, 10.0, "progressive-bias weight of a move's immediate gain"},
      {"net_prior_depth", PT::integer, double(d.net_prior_depth), 0, 72, "nodes this shallow get priors net of the best reply"},
      {"fpu", PT::real, d.fpu, 0.0, 2.0, "value assumed for an unvisited move"},
      {"playout_eps", PT::real, d.playout_eps, 0.0, 1.0, "playout: chance of a uniformly random move"},
      {"playout_cands", PT::integer, double(d.playout_cands), 1, 72, "playout: best gain among this many random cells"},
      {"leaf_eval", PT::boolean, d.leaf_eval ? 1.0 : 0.0, 0, 1, "value new leaves statically (margin + tempo) instead of by playout"},
      {"tempo", PT::real, d.tempo, 0.0, 2.0, "evaluation: share of the side to move's best gain"},
      {"eval_scale", PT::real, d.eval_scale, 0.1, 100.0, "evaluation: margin scale of the reward"},
      {"margin_w", PT::real, d.margin_w, 0.0, 1.0, "share of the reward from the final score margin"},
      {"solve_cells", PT::integer, double(d.solve_cells), 0, 20, "exact solve of leaves with at most this many ice cells"},
      {"solve_nodes", PT::integer, double(d.solve_nodes), 0, 10000000, "node limit of one exact solve"},
      {"pool_nodes", PT::integer, double(d.pool_nodes), 4096, 16000000, "tree nodes preallocated (per buffer)"},
      {"reuse", PT::boolean, d.reuse ? 1.0 : 0.0, 0, 1, "keep the tree between turns"},
  };
}

}  // namespace

PluginInfo describe() {
  PluginInfo info;
  info.name = "mcts";
  info.version = "1.0.0";
  info.summary = "Monte Carlo tree search: sampled-row UCT (Hanpang), UCT with MCTS-Solver (Icebreaking)";
  info.hanpang_params = hanpang_specs();
  info.icebreaking_params = icebreaking_specs();
  info.plays_hanpang = info.plays_icebreaking = true;
  return info;
}

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& given) {
  Params p = given;
  p.fill_defaults(hanpang_specs());
  HanConfig c;
  c.c_uct = p.real("c_uct");
  c.prior_visits = p.real("prior_visits");
  c.chance_width = static_cast<int>(p.integer("chance_width"));
  c.horizon = static_cast<int>(p.integer("horizon"));
  c.death = p.real("death");
  c.pool_nodes = static_cast<int>(p.integer("pool_nodes"));
  c.weights.group_sq = p.real("group_sq");
  c.weights.danger = p.real("danger");
  c.weights.danger_from = static_cast<int>(p.integer("danger_from"));
  c.weights.tile = p.real("tile");
  return std::make_unique<HanpangMcts>(c);
}

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& given) {
  Params p = given;
  p.fill_defaults(icebreaking_specs());
  IceConfig c;
  c.c_uct = p.real("c_uct");
  c.prior_w = p.real("prior_w");
  c.net_prior_depth = static_cast<int>(p.integer("net_prior_depth"));
  c.fpu = p.real("fpu");
  c.playout_eps = p.real("playout_eps");
  c.playout_cands = static_cast<int>(p.integer("playout_cands"));
  c.leaf_eval = p.boolean("leaf_eval");
  c.tempo = p.real("tempo");
  c.eval_scale = p.real("eval_scale");
  c.margin_w = p.real("margin_w");
  c.solve_cells = static_cast<int>(p.integer("solve_cells"));
  c.solve_nodes = static_cast<int>(p.integer("solve_nodes"));
  c.pool_nodes = static_cast<int>(p.integer("pool_nodes"));
  c.reuse = p.boolean("reuse");
  return std::make_unique<IcebreakingMcts>(c);
}

}  // namespace tactica::plugins::mcts
