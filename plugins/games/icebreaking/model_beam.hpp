// games/icebreaking/model_beam.hpp — the beam search (beam/search.hpp) against the greedy
// opponent model (games/icebreaking/opponent.hpp), with iterative widening. Header-only, standard
// library + core only. The beam plugin plays it from the first move; the expectimax plugin once
// the opponent has shown it plays greedy.
//
// A line is our move and the predicted reply, layer after layer until the game ends or `depth`
// of our moves; lines that reach the same ice set by another order are one line. Iterative
// widening: the search runs again with a doubled width while the budget allows, and publishes
// its move after each complete pass.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "beam/search.hpp"
#include "games/icebreaking/opponent.hpp"
#include "tactica/search_budget.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::common::ice {

struct ModelBeamConfig {
  int width = 64;
  int max_width = 4096;
  int depth = 40;
  bool residual = false;  // leaves valued with the alternating sum of the ice left
  bool reply_ties = true;  // the predicted reply breaks ties as the greedy plugin does
  bool operator==(const ModelBeamConfig&) const = default;
};

class ModelBeam {
 public:
  // Everything the widest pass needs is allocated here, none of it during a search.
  explicit ModelBeam(const ModelBeamConfig& c) : cfg_(c), beam_(c.max_width, icebreaking::kIce) {}

  // The best move for pos.to_move against the model (kNoCell if no ice is left); publishes the
  // greedy move at once and the beam's move after every complete pass.
  int choose(const Board& b, const icebreaking::Position& pos, const SearchLimits& limits,
             BestMove& best) {
    stats_ = {};
    icebreaking::MoveList ml;
    pos.moves(ml);
    if (ml.size() == 0) return icebreaking::kNoCell;
    int chosen = rule_.move(b, pos.ice, false);
    best.publish(chosen);
    if (ml.size() == 1) return chosen;
    // A child costs up to ~100 us (a reply with tied gains scans the board once per tie), so the
    // deadline is read every 16 children, and the budget honoured at multiples of 16.
    const SearchLimits lim = beam::budget_in_quanta(limits, 16);
    SearchBudget budget(lim, 16);
    const FastIcebreakingGame game(b);
    GreedyReply model(b, pos.to_move, cfg_.reply_ties, cfg_.residual);
    // Step 1. The first width: what the budget (nodes, or the soft time at the measured rate)
    // allows for one pass; a pass over n cells with width w costs about w * n^2 / 4 nodes (each
    // layer takes two cells).
    const int n = ml.size();
    double avail = 1e18;
    if (limits.node_budget)
      avail = static_cast<double>(limits.node_budget);
    else if (!limits.deadline.unlimited())
      avail = std::chrono::duration<double>(limits.deadline.soft_budget()).count() * rate_;
    const double per_width = 1.3 * std::min(cfg_.depth, (n + 1) / 2) * n / 2.0 + 1;
    int width = static_cast<int>(std::clamp(avail / per_width, 1.0, static_cast<double>(cfg_.width)));
    // Step 2. Passes with a doubling width while the budget allows another: on a node budget
    // the nodes alone decide (never the clock), on the clock a third of the soft time.
    std::uint64_t last_pass = 0;
    for (; width <= cfg_.max_width; width *= 2) {
      const std::uint64_t before = budget.nodes();
      if (!beam_.pass(game, model, pos, cfg_.depth, width, budget)) break;
      const std::uint64_t pass = budget.nodes() - before;
      const int bi = beam_.best_root();
      chosen = beam_.roots()[bi];
      best.publish(chosen);
      stats_.value = beam_.root_values()[bi];
      stats_.depth = width;
      // The next pass costs about twice this one: start it only if that fits.
      if (limits.node_budget) {
        if (budget.nodes() + 2 * pass > limits.node_budget) break;
      } else if (limits.deadline.unlimited()) {
        if (width >= cfg_.width) break;
      } else if (limits.deadline.soft_fraction() * 3 > 1.0) {
        break;
      }
      if (pass == last_pass) break;  // the beam held every line: a wider one changes nothing
      last_pass = pass;
    }
    if (!limits.node_budget && !limits.deadline.unlimited() && budget.nodes() > 1000) {
      const double r = budget.nodes_per_second();
      if (r > 0) rate_ = 0.7 * rate_ + 0.3 * r;
    }
    stats_.nodes = budget.nodes();
    return chosen;
  }

  SearchStats stats() const { return stats_; }

 private:
  ModelBeamConfig cfg_;
  beam::Beam<FastIcebreakingGame, GreedyReply> beam_;
  GreedyRule rule_;
  double rate_ = 5e4;  // nodes per second, measured on the clock (not used on a node budget)
  SearchStats stats_;
};

}  // namespace tactica::plugins::common::ice
