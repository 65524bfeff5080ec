// plot.hpp — plain SVG pictures of seed runs (Hanpang) and tournaments (Icebreaking).
//
// The SVG files stand alone: no scripts, no styles or fonts from elsewhere, explicit sizes, so
// any browser, image viewer or document tool shows them. Each data point carries a <title>
// (a tooltip in browsers) with its exact values.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tactica::report {

// Bad input to a plot (a results line that is not JSON or lacks a field). One line: where,
// what, how to fix.
class PlotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One finished Hanpang game of a seed run: a line of `tactica bench --out results.jsonl`
// (docs/FORMATS.md).
struct HanpangGame {
  std::string agent;    // the agent's label
  int agent_index = 0;  // its position on the command line (series are keyed by it)
  std::int64_t seed = 0;
  std::int64_t score = 0;
  int actions = 0;
  std::string verdict;  // MAX_ACTIONS OVERFLOW TIME_LIMIT INVALID RUNTIME_ERROR
};

// Reads the Hanpang lines of a results JSONL stream. Blank lines and other games' lines are
// skipped; a line that is not JSON or lacks a field throws PlotError "<source>:<line>: ...".
// A game listed twice for the same agent and seed (a resumed run) keeps its last line.
std::vector<HanpangGame> read_hanpang_results(std::istream& in, const std::string& source);

// Per-seed scores of each agent (one coloured series per agent, seeds along x) with each
// agent's scoreSum, mean and game count in the legend and as bars. Games that ended by
// TIME_LIMIT, INVALID or RUNTIME_ERROR are marked with a red cross.
std::string hanpang_plot_svg(const std::vector<HanpangGame>& games, const std::string& title = {});

// One row of a ratings table: an agent's Elo and its confidence interval [lo, hi] (absolute
// Elo values, not half-widths). A one-sided sample (every game won or lost) has an infinite
// elo and one infinite end: the finite bound is printed (">= +197.3") and the bar runs from it
// off the axis, with an arrow; the axis spans the finite values and leaves room for the arrow.
struct EloRow {
  std::string name;
  double elo = 0;
  double lo = 0;
  double hi = 0;
  int games = 0;
};

// The generalised SPRT's log-likelihood ratio after each game (or game pair), with its bounds.
struct SprtPoint {
  double games = 0;  // games played when the LLR was computed
  double llr = 0;
};
struct SprtTrace {
  double elo0 = 0, elo1 = 0, alpha = 0.05, beta = 0.05;
  double lower = 0, upper = 0;  // log(beta / (1 - alpha)), log((1 - beta) / alpha)
  std::vector<SprtPoint> points;
  std::string result;  // e.g. "H1 accepted", "H0 accepted", "running"
};

// The ratings table with error bars (sorted by Elo) and, when `sprt` is given, the LLR over
// games between its two bounds. Either part may be empty. `interval` names the bars' level
// for the axis caption (e.g. "95% confidence interval").
std::string icebreaking_plot_svg(const std::vector<EloRow>& table, const SprtTrace* sprt,
                                 const std::string& title = {},
                                 const std::string& interval = "95% confidence interval");

}  // namespace tactica::report
