// The expectimax plugin's descriptor and its parameter tables (expectimax/params.hpp).
#include "expectimax/params.hpp"
#include "expectimax/plugin.hpp"

namespace tactica::plugins::expectimax {

const ParamTable<HanpangConfig>& hanpang_table() {
  using C = HanpangConfig;
  using W = common::HanpangWeights;
  static const ParamTable<C> table{
      {"depth", &C::max_depth, 1, 6, "our moves searched, the root's included"},
      {"width", &C::width, 1, 120, "moves expanded below the root at each decision node"},
      {"root_width", &C::root_width, 1, 120, "root moves expanded beyond depth 1"},
      {"samples", &C::samples, 1, 32, "sampled next rows per chance node"},
      {"iter_start", &C::iter_start, 0.05, 1,
       "start another depth only before this fraction of the move's soft time"},
      {"danger", &C::weights, &W::danger, -1000, 0,
       "evaluation: per squared height above the danger line, per column"},
      {"group_sq", &C::weights, &W::group_sq, 0, 8,
       "evaluation: per k^2 of every group of two or more"},
  };
  return table;
}

const ParamTable<IcebreakingConfig>& icebreaking_table() {
  using C = IcebreakingConfig;
  using S = IceParams;
  using B = common::ice::ModelBeamConfig;
  static const ParamTable<C> table{
      {"tt_mb", &C::search, &S::tt_mb, 1, 1024, "transposition table size in MiB"},
      {"qdepth", &C::search, &S::qdepth, 0, 16, "plies of capture-only quiescence at the horizon"},
      {"solve_at", &C::search, &S::solve_at, 0, 72,
       "search straight to the end with this many ice cells or fewer"},
      {"aspiration", &C::search, &S::aspiration, 0, 50,
       "aspiration window half-width in points (0: full window)"},
      {"pvs", &C::search, &S::pvs, 0, 1,
       "principal variation search (null windows after the first move)"},
      {"etc_depth", &C::search, &S::etc_depth, 0, 64,
       "enhanced transposition cutoffs (children probed before any is searched) from this depth "
       "(0: off)"},
      {"lmr_after", &C::search, &S::lmr_after, 0, 72,
       "late move reductions: quiet moves from this index on are first searched a ply shallower "
       "(0: off)"},
      {"lmr_depth", &C::search, &S::lmr_depth, 2, 64, "late move reductions: from this depth"},
      {"futility", &C::search, &S::futility, 0, 1,
       "futility pruning at depth 1: a move that cannot beat alpha whatever its child evaluates to "
       "(the evaluation's floor from the weights) is not searched; the same values"},
      {"probcut_depth", &C::search, &S::probcut_depth, 0, 64,
       "ProbCut: at null-window nodes of this depth or deeper (not exact ones) a shallower search "
       "that clears beta or stays under alpha by probcut_margin cuts the node (0: off)"},
      {"probcut_reduce", &C::search, &S::probcut_reduce, 1, 8,
       "ProbCut: the predicting search is this many plies shallower"},
      {"probcut_margin", &C::search, &S::probcut_margin, 0, 10, "ProbCut: the margin in points"},
      {"probcut_low", &C::search, &S::probcut_low, 0, 1, "ProbCut: cut on the alpha side too"},
      {"swindle", &C::search, &S::swindle, 0, 72,
       "after the solve proves a draw or a loss: the move that keeps it and makes the most of the "
       "opponent's first N replies mistakes (0: off)"},
      {"iter_start", &C::search, &S::iter_start, 0.05, 1,
       "start another iteration only before this fraction of the move's soft time"},
      {"solve_lead", &C::search, &S::solve_lead, 0, 1,
       "before the exact solve: deepen past depth 4 only while under this fraction of the soft "
       "time (or of the node budget)"},
      {"time_scale", &C::search, &S::time_scale, 0.25, 3,
       "use this multiple of the host's soft time per move (the hard limit still holds)"},
      {"late_at", &C::search, &S::late_at, 0, 72,
       "with this many ice cells or fewer, late_scale replaces time_scale (0: never)"},
      {"late_scale", &C::search, &S::late_scale, 0.25, 3,
       "the soft time's multiple from late_at cells down (the hard limit still holds)"},
      {"open_at", &C::search, &S::open_at, 0, 72,
       "with this many ice cells or more, the opening: open_scale replaces time_scale (0: never)"},
      {"open_scale", &C::search, &S::open_scale, 0.05, 3,
       "the opening's multiple: below 1 of the move's soft and hard limits both (on a node "
       "budget, of the budget); at or above 1 of the soft time only"},
      {"w_pool", &C::search, &S::w_pool, -4, 4,
       "evaluation: weight of the alternating sum of the cells left"},
      {"w_threat", &C::search, &S::w_threat, -2, 2,
       "evaluation: weight of the best capture open to the side to move"},
      {"w_plus", &C::search, &S::w_plus, -4, 4,
       "evaluation: weight of the alternating sum of the positive cells left"},
      {"w_tempo", &C::search, &S::w_tempo, 0, 2,
       "evaluation: weight of the side to move's best immediate gain"},
      {"w_alt", &C::search, &S::w_alt, -2, 2,
       "evaluation: weight of g1 - g2 + g3 ... over the alt_k best move gains"},
      {"alt_k", &C::search, &S::alt_k, 1, 72, "evaluation: move gains in w_alt's alternating sum"},
      {"w_parity", &C::search, &S::w_parity, -2, 2,
       "evaluation: +w / -w as the count of quiet (non-capturing) moves is odd / even"},
      {"w_gain2", &C::search, &S::w_gain2, -2, 2, "evaluation: weight of the second largest move gain"},
      {"w_gain3", &C::search, &S::w_gain3, -2, 2, "evaluation: weight of the third largest move gain"},
      {"w_ncap", &C::search, &S::w_ncap, -2, 2, "evaluation: weight of the number of capturing moves"},
      {"w_odd", &C::search, &S::w_odd, -4, 4,
       "evaluation: +w / -w as the number of ice cells left is odd / even"},
      {"w_reply", &C::search, &S::w_reply, -2, 2,
       "evaluation: weight of the other side's best gain after the side to move's best-gain move"},
      {"w_safe", &C::search, &S::w_safe, -2, 2,
       "evaluation: +w / -w as the count of safe moves (gain >= 0, captures included) is odd / even"},
      {"safe_max", &C::search, &S::safe_max, 0, 72,
       "evaluation: w_safe counts only with at most this many safe moves (0: always)"},
      {"w_forced", &C::search, &S::w_forced, -2, 2,
       "evaluation: +w / -w times the cheapest losing move's cost as the safe moves are odd / even"},
      {"w_hot", &C::search, &S::w_hot, -2, 2,
       "evaluation: weight of g1 - g2 + g3 ... over the move gains above 0 (the hot moves taken in "
       "turn, best first)"},
      {"taper_at", &C::search, &S::taper_at, 0, 72,
       "evaluation, tapered: w_tempo and w_safe weigh sets of this many ice cells or more; "
       "w_tempo_end and w_safe_end those of taper_to or fewer; linear between (0: not tapered)"},
      {"taper_to", &C::search, &S::taper_to, 0, 71,
       "evaluation, tapered: from this many ice cells down, the _end weights alone"},
      {"w_tempo_end", &C::search, &S::w_tempo_end, 0, 2,
       "evaluation, tapered: w_tempo's weight from taper_to cells down"},
      {"w_safe_end", &C::search, &S::w_safe_end, -2, 2,
       "evaluation, tapered: w_safe's weight from taper_to cells down"},
      {"pool", &C::search, &S::pool, 0, 1,
       "pool rules: only the best cell of the regions of 1-3 cells is a move; only such regions "
       "left: their exact value (exact pruning)"},
      {"model", &C::model, 0, 1,
       "opponent modelling: an opponent whose every move was greedy's is played by a beam against "
       "greedy"},
      {"model_after", &C::model_after, 1, 36,
       "opponent moves that must all match greedy before the model is trusted"},
      {"model_evidence", &C::model_evidence, 0, 36,
       "of those, how many must be telling: moves where our search expected another reply than "
       "greedy's (a strong opponent plays greedy's move too where it is plainly best); 0: none"},
      {"model_width", &C::model_beam, &B::width, 1, 4096, "model beam: first width (cut to the time)"},
      {"model_max_width", &C::model_beam, &B::max_width, 1, 65536, "model beam: widest pass"},
  };
  return table;
}

PluginInfo describe() {
  return describe_plugin("expectimax", "1.0.0",
                         "expectimax over sampled rows (Hanpang); alpha-beta with TT and exact "
                         "endgame (Icebreaking)",
                         hanpang_table(), icebreaking_table());
}

}  // namespace tactica::plugins::expectimax
