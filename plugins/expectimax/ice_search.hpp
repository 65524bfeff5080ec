// ice_search.hpp — expectiminimax (search.hpp) on Icebreaking: negamax alpha-beta over the ice
// set, with the game's knowledge from games/icebreaking/search_knowledge.hpp. Values are what
// the side to move will still gain minus what the other side will still gain (in 1/kUnit
// points); the table lasts the whole game; with solve_at cells or fewer the root solves
// win/draw/loss exactly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "expectimax/search.hpp"
#include "games/icebreaking/search_knowledge.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::expectimax {

struct IceParams {
  int tt_mb = 32;        // transposition table size in MiB (rounded down to a power of two)
  int qdepth = 0;        // plies of capture-only quiescence at the horizon (0: plain eval)
  int solve_at = 16;     // with this many ice cells or fewer, search straight to the end
  int aspiration = 0;    // half-width of the aspiration window in points (0: full window)
  bool pvs = true;       // principal variation search (null windows after the first move)
  int etc_depth = 0;     // enhanced transposition cutoffs from this depth (0: off)
  int lmr_after = 0;     // late move reductions of quiet moves from this move index (0: off)
  int lmr_depth = 3;     // ... at this depth or deeper
  bool futility = false;  // at depth 1, skip the moves that cannot beat alpha whatever their
                          // child evaluates to (exact: the evaluation's floor, search.hpp)
  // ProbCut (search.hpp) at the null-window nodes of probcut_depth plies or more (0: off): a
  // search probcut_reduce plies shallower that clears beta (or, with probcut_low, stays under
  // alpha) by probcut_margin points cuts the node.
  int probcut_depth = 0;
  int probcut_reduce = 2;
  double probcut_margin = 0;
  bool probcut_low = true;
  int swindle = 0;       // after a solved draw or loss: the move that sets the most traps among
                         // the opponent's first `swindle` replies (0: off; search.hpp)
  double iter_start = 0.6;  // start another iteration only before this fraction of the soft time
  double solve_lead = 0.0;  // with solve_at cells or fewer: deepen (past depth 4) only while
                            // under this fraction of the soft time, then solve up to the hard limit
  double time_scale = 1.0;  // the soft time counted as this multiple of the host's (never past
                            // the hard limit): the host expects (ice + 1) / 2 more moves of
                            // ours, but captures end games sooner, so its share is cautious
  int late_at = 0;          // with this many ice cells or fewer, late_scale instead of
  double late_scale = 1.0;  // time_scale (0: never): time moved between middle game and end
  int open_at = 0;          // with this many ice cells or more, the opening (0: never): the
  double open_scale = 1.0;  // move's soft and hard limits drawn in to open_scale of the host's
                            // (below 1; at or above 1 the soft time's multiple, as time_scale),
                            // and on a node budget open_scale times the budget: time moved from
                            // the opening's obvious grabs to the middle game
  // Evaluation weights (points per unit): see games/icebreaking/search_knowledge.hpp.
  double w_pool = 0.0;    // the alternating sum of the cells left ("pick from a pool" value)
  double w_threat = 0.0;  // the best capture now available to the side to move
  double w_plus = 0.0;    // the alternating sum of the positive cells left
  double w_tempo = 0.5;   // the best immediate gain of the side to move (odd/even smoothing)
  double w_alt = 0.0;     // the alternating sum g1 - g2 + g3 ... of the alt_k best move gains
  int alt_k = 2;          // (both sides taking the best move left in turn, interactions ignored)
  double w_parity = 0.0;  // +1 / -1 as the side to move's quiet (non-capturing) moves are odd / even
  double w_gain2 = 0.0;   // the second largest move gain
  double w_gain3 = 0.0;   // the third largest move gain
  double w_ncap = 0.0;    // the number of capturing moves
  double w_odd = 0.0;     // +1 / -1 as the number of ice cells left is odd / even
  double w_reply = 0.0;   // the other side's best gain after the side to move's best-gain move
  double w_safe = 0.0;    // +1 / -1 as the side to move's safe moves (gain >= 0) are odd / even
  int safe_max = 0;       // ... counted only with at most this many safe moves (0: always)
  double w_forced = 0.0;  // the safe parity times the cost of the cheapest losing move
  double w_hot = 0.0;     // g1 - g2 + g3 ... over the move gains above 0 (the hot moves)
  int taper_at = 0;       // tapered: w_tempo and w_safe from this many cells up (0: at any count),
  int taper_to = 26;      // w_tempo_end and w_safe_end from this many down, linear between
  double w_tempo_end = 0.5;
  double w_safe_end = 0.0;
  bool pool = false;      // pool rules: of the cells in regions of 1-3 cells only the best is a
                          // move; only such regions left: the exact pool value (exact pruning)
  bool operator==(const IceParams&) const = default;
};

class IceSearch {
  using Knowledge = common::ice::SearchKnowledge;
  using Search = Expectiminimax<Knowledge>;

 public:
  static constexpr int kUnit = Knowledge::kUnit;  // value units per point
  using Result = Search::Result;

  explicit IceSearch(const IceParams& p)
      : search_(settings(p), weights(p), p.qdepth, p.pool),
        time_scale_(p.time_scale),
        late_at_(p.late_at),
        late_scale_(p.late_scale),
        open_at_(p.open_at),
        open_scale_(p.open_scale) {}

  void new_game(const icebreaking::Board& b) {
    search_.knowledge().new_game(b);
    search_.clear();
  }
  // Iterative deepening from the ice set `ice` (side to move = the caller, ahead by `margin`
  // points) within the limits; publishes the best move as it goes.
  Result run(u128 ice, int margin, const SearchLimits& limits, BestMove* best) {
    const int cells = popcount(ice);
    if (open_at_ > 0 && cells >= open_at_) {
      // The opening: a shorter move (both limits) or, on a node budget, a scaled budget.
      SearchLimits opening = limits;
      if (limits.node_budget) {
        const double n = std::round(static_cast<double>(limits.node_budget) * open_scale_);
        opening.node_budget = static_cast<std::uint64_t>(std::max(1.0, n));
      } else {
        opening.deadline = limits.deadline.shortened(open_scale_);
      }
      search_.set_time_scale(std::max(1.0, open_scale_));
      return search_.run(ice, margin, opening, best);
    }
    search_.set_time_scale(cells <= late_at_ ? late_scale_ : time_scale_);
    return search_.run(ice, margin, limits, best);
  }
  // The reply the last runs expect on ice set `ice` (the table's move; -1: none stored).
  int expected_move(u128 ice) const { return search_.table_move(ice); }
  // The exact value of the rest of the game (for tests): a full-depth search with no limits.
  int exact_value(u128 ice) { return search_.value(ice, Knowledge::depth_limit(ice)); }
  // The static evaluation (kUnit per point) of an ice set, side to move's view.
  int evaluate(u128 ice) { return search_.knowledge().evaluate(ice); }
  // The evaluation weights of the parameters (for searches built outside this class).
  static common::ice::EvalWeights weights(const IceParams& p) {
    return {p.w_pool,   p.w_threat, p.w_plus,   p.w_tempo,  p.w_alt,       p.alt_k,     p.w_parity,
            p.w_gain2,  p.w_gain3,  p.w_ncap,   p.w_odd,    p.w_reply,     p.w_safe,    p.safe_max,
            p.w_forced, p.w_hot,    p.taper_at, p.taper_to, p.w_tempo_end, p.w_safe_end};
  }

 private:
  static Search::Settings settings(const IceParams& p) {
    Search::Settings s;
    s.tt_mb = p.tt_mb;
    s.solve_at = p.solve_at;
    s.aspiration = p.aspiration * kUnit;
    s.pvs = p.pvs;
    s.iter_start = p.iter_start;
    s.solve_lead = p.solve_lead;
    s.etc_depth = p.etc_depth;
    s.lmr_after = p.lmr_after;
    s.lmr_depth = p.lmr_depth;
    s.swindle = p.swindle;
    s.probcut_depth = p.probcut_depth;
    s.probcut_reduce = p.probcut_reduce;
    s.probcut_margin = static_cast<int>(std::lround(p.probcut_margin * kUnit));
    s.probcut_low = p.probcut_low;
    s.futility = p.futility;
    s.time_scale = p.time_scale;
    return s;
  }
  Search search_;
  double time_scale_;
  int late_at_;
  double late_scale_;
  int open_at_;
  double open_scale_;
};

}  // namespace tactica::plugins::expectimax
