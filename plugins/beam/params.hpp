// params.hpp — the beam plugin's parameters, declared once: each game's config struct (its
// defaults are the plugin's, the best values measured: docs/STRATEGIES.md) and the table binding
// every parameter to its field.
#pragma once

#include "games/hanpang/eval.hpp"
#include "games/icebreaking/model_beam.hpp"
#include "tactica/param_table.hpp"

namespace tactica::plugins::beam {

// Hanpang (beam/hanpang.cpp has how the search uses them).
struct HanpangConfig {
  int width = 64;        // widest beam; narrower when the time or budget would not allow
  int depth = 8;         // our moves ahead
  int max_samples = 32;  // sampled futures per move at most
  int min_samples = 2;   // the width is cut so that about this many samples fit the budget
  bool phantom = true;   // one search with phantom rows (unknown colours) instead of samples
  // Second opinion (phantom mode): the op_k best root moves are searched again on op_samples
  // sampled next rows (the row the next decision will see), each followed by a phantom beam of
  // op_depth moves; a root's value becomes op_mix * (mean over the rows) + (1 - op_mix) * phantom.
  int op_k = 6;
  int op_samples = 4;
  int op_width = 32;
  int op_depth = 6;
  double op_mix = 0.5;
  double op_share = 0.8;  // share of the budget/time planned for the second opinion
  int op_halve = 0;     // second opinion: stages after the first, each on the better half of the
                        // roots (at least two) with op_samples more rows (sequential halving)
  int op_rows = 1;      // sampled rows in the second opinion (beyond them: phantom rows), 1..5
  bool op_cycle = false;  // second opinion: rows in threes, colours cycled (stratified)
  int op_top = 1;         // second opinion: a row's value is the mean of its beam's best this many
                          // lines (1: the best line's)
  int op_more = 0;      // second opinion: rounds beyond op_samples in its last stage, each only
                        // if it fits the soft time (or the nodes left)
  double op_over = 1.0;  // on the clock: a round starts only if it should end before this many
                         // times the soft time
  int main_rows = 0;    // phantom mode: sampled rows (one future) after the first moves of the
                        // main search, phantom rows after them
  int lift_layers = 0;  // phantom rows lift the board only in the first this many layers (0: all)
  int skip_singles = 0;  // from our this-many-th move after the decision on (1: the second), the
                         // searches leave out single tiles whose removal joins nothing (0: off)
  int sampled_end = 0;  // phantom mode: with this many actions left or fewer, sampled futures
                        // instead (as phantom = false; 0: never)
  // On the clock: the soft time is turned into nodes at the measured rate times this, for both
  // stages' widths (the width estimates are conservative: at 1 a move ends at about half its
  // soft time). Node-budget runs ignore it.
  double time_gain = 1.0;
  // The guard: a chosen move after which, on phantom rows, every line of `guard` of our moves
  // (this one included) loses a tile over the top gives way to the best root move that has such
  // a line, if one does (0: off; 1: only the next row).
  int guard = 0;
  // The guard's next row sampled this many times (0: off; hanpang.cpp's guarded() has the rule).
  int guard_rows = 0;
  double guard_cost = 0;  // guard_rows: points a remaining action per share of rows kept (0:
                          // the most rows kept first)
  // The end: with end_at actions left or fewer (0: never), a move's node budget, soft time (up
  // to the hard limit) and both widest beams are end_scale times the rest of the game's. The
  // bank the search leaves unused (its widths are capped) goes to the moves whose horizon
  // reaches the end of the game.
  int end_at = 0;
  double end_scale = 1.0;
  // The opening: before open_at actions (0: never; the end wins where both hold), the node
  // budget and both time limits are open_scale times the host's (the beams' caps unchanged).
  int open_at = 0;
  double open_scale = 1.0;
  common::HanpangWeights w = common::beam_weights();
  bool operator==(const HanpangConfig&) const = default;
};

// Icebreaking: the model beam's own config (games/icebreaking/model_beam.hpp); max_width is raised to
// width when it is smaller.
using IcebreakingConfig = common::ice::ModelBeamConfig;

const ParamTable<HanpangConfig>& hanpang_table();
const ParamTable<IcebreakingConfig>& icebreaking_table();

}  // namespace tactica::plugins::beam
