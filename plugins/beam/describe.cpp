// The beam plugin's descriptor and its parameter tables (beam/params.hpp).
#include "beam/params.hpp"
#include "beam/plugin.hpp"

namespace tactica::plugins::beam {

const ParamTable<HanpangConfig>& hanpang_table() {
  using C = HanpangConfig;
  using W = common::HanpangWeights;
  static const ParamTable<C> table{
      {"width", &C::width, 1, 2000, "beam width per depth"},
      {"depth", &C::depth, 1, 50, "our moves searched ahead on each sampled future"},
      {"samples", &C::max_samples, 1, 1000, "most sampled futures per move (fewer when time runs out)"},
      {"min_samples", &C::min_samples, 1, 100,
       "the width is cut so that about this many sampled futures fit the time or budget"},
      {"phantom", &C::phantom, 0, 1,
       "one search with phantom rows (never joining a group) instead of sampled rows"},
      {"op_k", &C::op_k, 0, 120,
       "second opinion: the best root moves re-searched on sampled next rows (0: off)"},
      {"op_samples", &C::op_samples, 1, 256, "second opinion: sampled next rows"},
      {"op_width", &C::op_width, 1, 2000, "second opinion: widest beam after each row"},
      {"op_depth", &C::op_depth, 0, 50, "second opinion: our moves after the first"},
      {"op_mix", &C::op_mix, 0, 1, "second opinion: its weight against the phantom search's value"},
      {"op_share", &C::op_share, 0, 0.99,
       "second opinion: share of the move's budget or time planned for it"},
      {"op_halve", &C::op_halve, 0, 6,
       "second opinion: stages after the first, each giving op_samples more rows to the better "
       "half of the roots (at least two) by their value so far (sequential halving; 0: off)"},
      {"op_rows", &C::op_rows, 1, 5,
       "second opinion: sampled rows ahead (the first is seen before our next move; later ones "
       "are clairvoyant), phantom rows after them"},
      {"op_cycle", &C::op_cycle, 0, 1,
       "second opinion: rows in threes, a random row and its two colour cycles (stratified)"},
      {"op_top", &C::op_top, 1, 64,
       "second opinion: a sampled row's value is the mean of its beam's best this many lines "
       "(fewer if fewer are left; 1: the best line's)"},
      {"op_more", &C::op_more, 0, 256,
       "second opinion: rounds of rows beyond op_samples in its last stage, each only if it "
       "should fit the soft time or the nodes left (0: off)"},
      {"op_over", &C::op_over, 0.5, 2.5,
       "second opinion, on the clock: a round of rows starts only if it should end before this "
       "many times the soft time (the hard limit cuts a round that overruns)"},
      {"main_rows", &C::main_rows, 0, 50,
       "phantom mode: the main search's first this many rows are sampled (one future), phantom "
       "rows after them"},
      {"lift_layers", &C::lift_layers, 0, 50,
       "phantom rows lift the board only in the first this many layers of a search (0: all)"},
      {"skip_singles", &C::skip_singles, 0, 50,
       "from our this-many-th move after the decision on (1: the second), searches leave out "
       "single tiles whose removal adds no same-coloured neighbour pair, unless their column is "
       "above danger_from (0: off)"},
      {"sampled_end", &C::sampled_end, 0, 200,
       "phantom mode: with this many actions left or fewer, search sampled futures instead (as "
       "phantom = 0; 0: never)"},
      {"time_gain", &C::time_gain, 0.25, 8,
       "on the clock: the soft time is worth this many times the measured node rate in the width "
       "estimates (more: wider beams, more of the bank used)"},
      {"guard", &C::guard, 0, 4,
       "a chosen move that loses a tile over the top within this many of our moves on phantom "
       "rows (this one included) gives way to the best root move that does not (0: off)"},
      {"guard_rows", &C::guard_rows, 0, 64,
       "the guard's next row sampled this many times: a chosen move that loses the board after "
       "some gives way to the root that keeps it after the most (or, with guard_cost, is worth "
       "the most with them) (0: off)"},
      {"guard_cost", &C::guard_cost, 0, 10000,
       "guard_rows: a root's value plus this many points a remaining action times the share of "
       "sampled rows it keeps the board after (0: the most rows kept first)"},
      {"end_at", &C::end_at, 0, 200,
       "the end: with this many actions left or fewer, end_scale times the node budget, the soft "
       "time (up to the hard limit) and the widest beams (0: never)"},
      {"end_scale", &C::end_scale, 1, 8, "the end's multiple of budget, soft time and widths"},
      {"open_at", &C::open_at, 0, 200,
       "the opening: before this many actions, open_scale times the node budget and both time "
       "limits (0: never)"},
      {"open_scale", &C::open_scale, 0.1, 1, "the opening's share of budget and time limits"},
      {"w_group_sq", &C::w, &W::group_sq, -10, 10, "eval: per k^2 of each group, k >= 2"},
      {"w_group_lin", &C::w, &W::group_lin, -100, 100, "eval: per tile in groups, k >= 2"},
      {"w_singleton", &C::w, &W::singleton, -100, 100, "eval: per isolated tile"},
      {"w_group", &C::w, &W::group, -100, 100, "eval: per group"},
      {"w_vgap", &C::w, &W::vgap, -100, 100, "eval: same colour two apart vertically, another between"},
      {"w_hgap", &C::w, &W::hgap, -100, 100,
       "eval: same colour two apart horizontally, another between"},
      {"w_tile", &C::w, &W::tile, -100, 100, "eval: per tile on the board"},
      {"w_danger", &C::w, &W::danger, -10000, 0,
       "eval: per squared height above danger_from, per column"},
      {"danger_from", &C::w, &W::danger_from, 0, 15, "eval: where danger starts"},
      {"endgame", &C::w, &W::endgame, 0, 200,
       "eval: with this many actions left or fewer, only the largest groups still count"},
      {"endgame_mix", &C::w, &W::endgame_mix, 0, 1,
       "eval: inside the endgame, this much (times the share of it left) of the general "
       "evaluation is mixed into the largest groups' value (0: none; 1: smooth at its start)"},
      {"late_death", &C::w, &W::late_death, 0, 200,
       "eval: an overflow with this many actions left or fewer is worth its points (kept by the "
       "rules) instead of the overflow penalty (0: every overflow before action 200 is penalised)"},
      {"group_pow", &C::w, &W::group_pow, 1, 4,
       "eval: a group of k tiles has potential w_group_sq * k^group_pow"},
      {"w_max_sq", &C::w, &W::max_sq, -10, 10, "eval: extra per k^2 of the largest group"},
      {"w_colour_sq", &C::w, &W::colour_sq, -10, 10,
       "eval: per n^2 of each colour's tile count (rewards one dominant colour)"},
      {"w_collapse_sq", &C::w, &W::collapse_sq, -10, 10,
       "eval: per n^2 of each colour's tiles in runs of adjacent columns holding it"},
      {"w_bridge_sq", &C::w, &W::bridge_sq, -10, 10,
       "eval: per m^2 of each colour's mass bridged through single other tiles"},
      {"bridge_pairs", &C::w, &W::bridge_pairs, 0, 1,
       "eval: bridged masses also join through two other tiles stacked between the colour's"},
      {"bridge_exact", &C::w, &W::bridge_exact, 0, 1,
       "eval: a horizontal bridge only where the tile above it is the colour's (it drops between)"},
      {"fill_sq", &C::w, &W::fill_sq, -2, 2,
       "eval: the masses' terms (w_group_sq, w_bridge_sq, w_collapse_sq) weigh 1 + fill_sq * "
       "(tiles - fill_mid) / 24 times as much, at least 0 (0: off)"},
      {"fill_mid", &C::w, &W::fill_mid, 0, 120,
       "eval: the tile count where fill_sq changes nothing"},
      {"w_reserve_sq", &C::w, &W::reserve_sq, -1, 1,
       "eval: per n^2 of the most numerous colour's tiles (a reserve colour for one giant group)"},
      {"w_bump", &C::w, &W::bump, -100, 0,
       "eval: per (h_c - h_c+1)^2 over adjacent columns (an uneven skyline)"},
      {"w_danger3", &C::w, &W::danger3, -1000, 0,
       "eval: per cubed height above danger_from, per column (steeper near the top)"},
      {"w_feed", &C::w, &W::feed, -10, 10,
       "eval: per k * e over groups of k >= 6 tiles with e of them the lowest of their column "
       "(where the rows to come join; phantom rows never do)"}};
  return table;
}

const ParamTable<IcebreakingConfig>& icebreaking_table() {
  using C = IcebreakingConfig;
  static const ParamTable<C> table{
      {"width", &C::width, 1, 20000, "first beam width (doubled while time allows)"},
      {"max_width", &C::max_width, 1, 20000, "widest beam"},
      {"depth", &C::depth, 1, 40, "our moves searched ahead"},
      {"residual", &C::residual, 0, 1,
       "value leaves by the score difference plus the alternating sum of the ice left"},
      {"reply_ties", &C::reply_ties, 0, 1,
       "predicted replies break equal gains towards our smallest next gain (as greedy does)"}};
  return table;
}

PluginInfo describe() {
  return describe_plugin("beam", "1.0.0",
                         "beam search on sampled future rows (Hanpang); beam over our moves vs "
                         "greedy replies (Icebreaking)",
                         hanpang_table(), icebreaking_table());
}

}  // namespace tactica::plugins::beam
