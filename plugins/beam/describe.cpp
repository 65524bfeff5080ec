// The beam plugin's descriptor: parameters and their defaults (the best values measured, see
// docs/STRATEGIES.md).
#include "beam/plugin.hpp"
#include "common/hanpang_eval.hpp"

namespace tactica::plugins::beam {

PluginInfo describe() {
  const common::HanpangWeights w = common::beam_weights();
  PluginInfo info;
  info.name = "beam";
  info.version = "1.0.0";
  info.summary =
      "beam search on sampled future rows (Hanpang); beam over our moves vs greedy replies "
      "(Icebreaking)";
  info.plays_hanpang = info.plays_icebreaking = true;
  info.hanpang_params = {
      {"width", ParamType::integer, 64, 1, 2000, "beam width per depth"},
      {"depth", ParamType::integer, 8, 1, 50, "our moves searched ahead on each sampled future"},
      {"samples", ParamType::integer, 32, 1, 1000,
       "most sampled futures per move (fewer when time runs out)"},
      {"min_samples", ParamType::integer, 2, 1, 100,
       "the width is cut so that about this many sampled futures fit the time or budget"},
      {"phantom", ParamType::boolean, 1, 0, 1,
       "one search with phantom rows (never joining a group) instead of sampled rows"},
      {"op_k", ParamType::integer, 6, 0, 120,
       "second opinion: the best root moves re-searched on sampled next rows (0: off)"},
      {"op_samples", ParamType::integer, 4, 1, 256, "second opinion: sampled next rows"},
      {"op_width", ParamType::integer, 32, 1, 2000, "second opinion: widest beam after each row"},
      {"op_depth", ParamType::integer, 6, 0, 50, "second opinion: our moves after the first"},
      {"op_mix", ParamType::real, 0.5, 0, 1,
       "second opinion: its weight against the phantom search's value"},
      {"op_share", ParamType::real, 0.8, 0, 0.99,
       "second opinion: share of the move's budget or time planned for it"},
      {"op_rows", ParamType::integer, 1, 1, 5,
       "second opinion: sampled rows ahead (the first is seen before our next move; later ones "
       "are clairvoyant), phantom rows after them"},
      {"op_cycle", ParamType::boolean, 0, 0, 1,
       "second opinion: rows in threes, a random row and its two colour cycles (stratified)"},
      {"lift_layers", ParamType::integer, 0, 0, 50,
       "phantom rows lift the board only in the first this many layers of a search (0: all)"},
      {"w_group_sq", ParamType::real, w.group_sq, -10, 10, "eval: per k^2 of each group, k >= 2"},
      {"w_group_lin", ParamType::real, w.group_lin, -100, 100, "eval: per tile in groups, k >= 2"},
      {"w_singleton", ParamType::real, w.singleton, -100, 100, "eval: per isolated tile"},
      {"w_group", ParamType::real, w.group, -100, 100, "eval: per group"},
      {"w_vgap", ParamType::real, w.vgap, -100, 100,
       "eval: same colour two apart vertically, another between"},
      {"w_hgap", ParamType::real, w.hgap, -100, 100,
       "eval: same colour two apart horizontally, another between"},
      {"w_tile", ParamType::real, w.tile, -100, 100, "eval: per tile on the board"},
      {"w_danger", ParamType::real, w.danger, -10000, 0,
       "eval: per squared height above danger_from, per column"},
      {"danger_from", ParamType::integer, double(w.danger_from), 0, 15, "eval: where danger starts"},
      {"endgame", ParamType::integer, double(w.endgame), 0, 200,
       "eval: with this many actions left or fewer, only the largest groups still count"},
      {"group_pow", ParamType::real, w.group_pow, 1, 4,
       "eval: a group of k tiles has potential w_group_sq * k^group_pow"},
      {"w_max_sq", ParamType::real, w.max_sq, -10, 10, "eval: extra per k^2 of the largest group"},
      {"w_colour_sq", ParamType::real, w.colour_sq, -10, 10,
       "eval: per n^2 of each colour's tile count (rewards one dominant colour)"},
      {"w_collapse_sq", ParamType::real, w.collapse_sq, -10, 10,
       "eval: per n^2 of each colour's tiles in runs of adjacent columns holding it"},
      {"w_bridge_sq", ParamType::real, w.bridge_sq, -10, 10,
       "eval: per m^2 of each colour's mass bridged through single other tiles"},
      {"w_reserve_sq", ParamType::real, w.reserve_sq, -1, 1,
       "eval: per n^2 of the most numerous colour's tiles (a reserve colour for one giant group)"},
      {"w_bump", ParamType::real, w.bump, -100, 0,
       "eval: per (h_c - h_c+1)^2 over adjacent columns (an uneven skyline)"}};
  info.icebreaking_params = {
      {"width", ParamType::integer, 64, 1, 20000, "first beam width (doubled while time allows)"},
      {"max_width", ParamType::integer, 4096, 1, 20000, "widest beam"},
      {"depth", ParamType::integer, 40, 1, 40, "our moves searched ahead"},
      {"residual", ParamType::boolean, 0, 0, 1,
       "value leaves by the score difference plus the alternating sum of the ice left"},
      {"reply_ties", ParamType::boolean, 1, 0, 1,
       "predicted replies break equal gains towards our smallest next gain (as greedy does)"}};
  return info;
}

}  // namespace tactica::plugins::beam
