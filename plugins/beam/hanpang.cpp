// Hanpang beam search: phantom rows, then a second opinion on sampled next rows.
//
// The beam itself is beam/search.hpp's, over HanpangGame, its world games/hanpang/rows.hpp's
// RowWorld (sampled or phantom rows, the board evaluation of games/hanpang/eval.hpp); this file
// holds the stages. Default (phantom): one beam over our own moves on a future of phantom rows
// (each action lifts the board by a row whose colours are unknown and never join a group). A root
// move's value is its best leaf. Second opinion: the op_k best root moves are played again,
// each followed by op_samples sampled next rows (the same rows for every root: the row our next
// decision will see), and each of those boards is valued by a phantom beam of op_depth moves; a
// root's final value mixes the mean over the rows with its phantom value (op_mix). With op_halve,
// the better half of the roots by that value gets op_samples more rows, op_halve times.
// phantom=false instead runs beams on `samples` sampled futures (sequences of random rows) and
// adds up each root move's best leaf over them (with sampled_end: only near the end). Searches
// stop at the soft deadline (or the node budget) and the published move is refreshed after each
// completed stage.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <vector>

#include "beam/params.hpp"
#include "beam/plugin.hpp"
#include "beam/search.hpp"
#include "games/hanpang/eval.hpp"
#include "games/hanpang/rows.hpp"

namespace tactica::plugins::beam {
// Named (not anonymous) so the plugin's files can share one translation unit (unity build, fuse).
namespace hanpang_beam {

using namespace tactica::hanpang;
using common::RowWorld;

using Config = HanpangConfig;  // beam/params.hpp

class BeamHanpang final : public HanpangStrategy {
 public:
  explicit BeamHanpang(const Config& c)
      : cfg_(c), eval_(c.w), beam_(scaled_width(std::max(c.width, c.op_width), c), kRows * kCols) {}

  void new_game(std::uint64_t seed) override {
    seed_ = seed;
    stats_ = {};
  }

  int choose(const State& s, const SearchLimits& host, BestMove& best) override {
    stats_ = {};
    // The phase's share (end_at / open_at): the end gets more nodes, a later soft time and wider
    // beams; the opening fewer nodes and earlier limits.
    const bool end = cfg_.end_at > 0 && kMaxActions - s.actions <= cfg_.end_at;
    const bool open = !end && s.actions < cfg_.open_at;
    const double scale = end ? cfg_.end_scale : open ? cfg_.open_scale : 1.0;
    SearchLimits limits = host;
    limits.deadline = scale < 1.0 ? host.deadline.shortened(scale) : host.deadline.stretched(scale);
    if (limits.node_budget)
      limits.node_budget = std::max<std::uint64_t>(
          1,
          static_cast<std::uint64_t>(std::llround(static_cast<double>(host.node_budget) * scale)));
    width_cap_ = end ? scaled_width(cfg_.width, cfg_) : cfg_.width;
    op_width_cap_ = end ? scaled_width(cfg_.op_width, cfg_) : cfg_.op_width;
    const int fallback = fallback_move(s);
    best.publish(fallback);
    GroupList roots;
    s.groups(roots);
    const int nroots = roots.size();
    if (nroots <= 1) return fallback;
    root_sum_.assign(static_cast<std::size_t>(nroots), 0.0);
    // The budget is honoured at multiples of 256 nodes, where the deadline is read too.
    const SearchLimits lim = budget_in_quanta(limits, 256);
    SearchBudget budget(lim, 256);
    RowWorld world(eval_, cfg_.lift_layers, cfg_.skip_singles);

    Rng rng(seed_ * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(s.actions) * 7919 + 1);
    const int depth = std::max(1, std::min(cfg_.depth, kMaxActions - s.actions));
    // Phantom rows, or sampled futures (always, or near the end with sampled_end).
    const bool phantom = cfg_.phantom && kMaxActions - s.actions > cfg_.sampled_end;
    // Step 1. The width: what the budget (nodes, or the soft time at the measured rate) allows
    // for the planned number of searches, each of about depth * width * branching nodes.
    double avail = 1e18;
    if (limits.node_budget)
      avail = static_cast<double>(limits.node_budget);
    else if (!limits.deadline.unlimited())
      avail = std::chrono::duration<double>(limits.deadline.soft_budget()).count() * rate_ *
              cfg_.time_gain;
    const bool opinion = phantom && cfg_.op_k > 0 && cfg_.op_samples > 0;
    if (opinion) avail *= 1.0 - cfg_.op_share;
    const int searches = phantom ? 1 : cfg_.min_samples;
    const double per_width = 1.15 * searches * depth * std::max(8, nroots);
    const int width =
        static_cast<int>(std::clamp(avail / per_width, 2.0, static_cast<double>(width_cap_)));
    const int max_samples = phantom ? 1 : cfg_.max_samples;

    // Step 2. Searches until the budget is spent; the move with the best sum is published.
    int done = 0;
    int chosen = fallback;
    for (int k = 0; k < max_samples; ++k) {
      // Another sample only while nodes are left; on the clock, if it should end before the
      // soft deadline.
      if (limits.node_budget) {
        if (budget.nodes() >= limits.node_budget) break;
      } else if (k > 0 && !limits.deadline.unlimited() &&
                 limits.deadline.soft_fraction() * (k + 1) / k > 1.0) {
        break;
      }
      Row rows[kMaxActions];
      for (int d = 0; d < depth; ++d) rows[d] = Row::random(rng);
      world.future(rows, phantom ? std::min(cfg_.main_rows, depth) : depth, 0);
      if (!beam_.pass(game_, world, s, depth, width, budget)) {
        // Nothing finished: the best line of the deepest layer the first search completed.
        if (done == 0 && beam_.judged()) {
          chosen = roots[beam_.best_line_root()].rep;
          best.publish(chosen);
        }
        break;
      }
      for (int i = 0; i < nroots; ++i) root_sum_[i] += beam_.root_values()[i];
      ++done;
      int bi = 0;
      for (int i = 1; i < nroots; ++i)
        if (root_sum_[i] > root_sum_[bi]) bi = i;
      chosen = roots[bi].rep;
      best.publish(chosen);
      stats_.value = root_sum_[bi] / done;
    }
    if (opinion && done == 1 && !budget.stopped()) {
      const int op = second_opinion(s, roots, limits, budget, world, rng);
      if (op >= 0) {
        chosen = op;
        best.publish(chosen);
      }
    }
    // The guard: a move that the search may have misjudged (cut short by the clock) into a
    // loss within cfg_.guard moves gives way to one that keeps the board, if one does.
    if (cfg_.guard > 0 && kMaxActions - s.actions > cfg_.w.late_death) {
      const int g = guarded(s, roots, chosen, done > 0);
      if (g != chosen) {
        chosen = g;
        best.publish(chosen);
      }
    }
    stats_.depth = done;
    stats_.nodes = budget.nodes();
    if (!limits.node_budget && !limits.deadline.unlimited() && budget.nodes() > 1000) {
      const double r = budget.nodes_per_second();
      if (r > 0) rate_ = 0.7 * rate_ + 0.3 * r;
    }
    return chosen;
  }

  SearchStats stats() const override { return stats_; }

 private:
  // The second opinion on the op_k best root moves by root_sum_ (see Config): each is played,
  // followed by sampled next rows (the same rows for every root), and valued by a phantom beam
  // from there. Returns the chosen cell, or -1 if no round of rows finished in time.
  int second_opinion(const State& s, const GroupList& roots, const SearchLimits& limits,
                     SearchBudget& budget, RowWorld& world, Rng& rng) {
    const int nroots = roots.size();
    const int k = std::min(cfg_.op_k, nroots);
    top_.resize(static_cast<std::size_t>(nroots));
    for (int i = 0; i < nroots; ++i) top_[i] = i;
    std::partial_sort(top_.begin(), top_.begin() + k, top_.begin() + nroots,
                      [&](int a, int b) { return root_sum_[a] > root_sum_[b]; });
    const int depth2 = std::max(0, std::min(cfg_.op_depth, kMaxActions - s.actions - 1));
    double avail = 1e18;
    if (limits.node_budget)
      avail = static_cast<double>(limits.node_budget) - static_cast<double>(budget.nodes());
    else if (!limits.deadline.unlimited())
      avail = std::chrono::duration<double>(limits.deadline.soft_budget()).count() *
              std::max(0.0, 1.0 - limits.deadline.soft_fraction()) * rate_ * cfg_.time_gain;
    // Rounds per stage: op_samples; roots per stage: k, then the better half (at least two) in
    // each of the op_halve stages after it (sequential halving: close contenders get more rows).
    const int stages = 1 + std::max(0, cfg_.op_halve);
    int planned = 0;
    for (int a = k, st = 0; st < stages; ++st, a = halved(a)) planned += a;
    const double per_width =
        1.15 * planned * cfg_.op_samples * std::max(1, depth2) * std::max(8, nroots);
    const int width =
        static_cast<int>(std::clamp(avail / per_width, 2.0, static_cast<double>(op_width_cap_)));
    op_sum_.assign(static_cast<std::size_t>(k), 0.0);
    op_val_.assign(static_cast<std::size_t>(k), 0.0);
    op_n_.assign(static_cast<std::size_t>(k), 0);
    alive_.resize(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) alive_[j] = j;
    const auto mixed = [&](int j) {
      return cfg_.op_mix * op_sum_[j] / std::max(1, op_n_[j]) +
             (1.0 - cfg_.op_mix) * root_sum_[top_[j]];
    };
    long evals = 0;  // root-row evaluations completed, for the clock's estimate of the next round
    const std::uint64_t op_start = budget.nodes();
    Row row;
    bool ok = true;
    for (int st = 0; st < stages && ok; ++st) {
      if (st > 0) {
        // The better half by the mixed value goes on (stable: ties keep the phantom order).
        std::stable_sort(alive_.begin(), alive_.end(),
                         [&](int a, int b) { return mixed(a) > mixed(b); });
        alive_.resize(static_cast<std::size_t>(halved(static_cast<int>(alive_.size()))));
      }
      const int na = static_cast<int>(alive_.size());
      // The last stage may go on for op_more rounds beyond op_samples, each only if it fits.
      const int rounds = cfg_.op_samples + (st + 1 == stages ? std::max(0, cfg_.op_more) : 0);
      for (int r = 0; r < rounds && ok; ++r) {
        // On the clock, another round only if it should end before op_over times the soft
        // deadline.
        if (evals > 0 && !limits.node_budget && !limits.deadline.unlimited() &&
            limits.deadline.soft_fraction() * static_cast<double>(evals + na) / evals >
                cfg_.op_over) {
          ok = r >= cfg_.op_samples;  // an extra round that does not fit is not a cut-off
          break;
        }
        // On a budget, an extra round only if it should fit the nodes left.
        if (r >= cfg_.op_samples && limits.node_budget &&
            static_cast<double>(budget.nodes()) +
                    static_cast<double>(budget.nodes() - op_start) * na / evals >
                static_cast<double>(limits.node_budget))
          break;
        // Stratified rows (op_cycle): a random row, then the same row with its colours cycled
        // twice, so that every cell of the new row takes each colour once in three rounds.
        if (!cfg_.op_cycle || r % 3 == 0)
          row = Row::random(rng);
        else
          common::cycle_colours(row);
        Row extra[4];
        const int nextra = std::clamp(cfg_.op_rows - 1, 0, 4);
        for (int e = 0; e < nextra; ++e) extra[e] = Row::random(rng);
        world.future(extra, nextra, 1);
        for (int j : alive_) {
          State c = s;
          c.remove(roots[top_[j]].cells);
          if (!c.over()) c.push_row(row);
          if (c.over() || depth2 == 0) {
            op_val_[j] = eval_(c);
          } else {
            ok = beam_.pass(game_, world, c, depth2, width, budget);
            if (!ok) break;
            op_val_[j] = beam_.best_lines_mean(cfg_.op_top);  // op_top 1: the best line's
          }
        }
        if (!ok) break;
        for (int j : alive_) op_sum_[j] += op_val_[j], ++op_n_[j];
        evals += na;
      }
    }
    // The choice: among the roots with the most rounds (the last stage's, all on the same rows).
    const int most = *std::max_element(op_n_.begin(), op_n_.end());
    if (most == 0) return -1;
    int bj = -1;
    double bv = -1e300;
    for (int j = 0; j < k; ++j) {
      if (op_n_[j] != most) continue;
      const double v = mixed(j);
      if (bj < 0 || v > bv) bv = v, bj = j;
    }
    stats_.value = bv;
    return roots[top_[bj]].rep;
  }

  // Whether, on phantom rows, some line of cfg_.guard of our moves starting with root g keeps
  // every tile on the board (or is not shown lost within the guard's budget of states).
  bool keeps_board(const State& s, const Group& g) {
    return common::phantom_move_survives(s, g, cfg_.guard, guard_left_);
  }
  // After how many of the guard's sampled rows root g keeps the board that way.
  int kept_rows(const State& s, const Group& g) {
    return common::sampled_survivals(s, g, cfg_.guard, guard_rows_.data(), guard_nrows_,
                                     guard_left_);
  }

  // The guard's choice: `chosen` if it keeps the board for cfg_.guard moves, or if no root
  // does; else the best root that does, by the main search's values (valued) or by size.
  // guard_rows first samples the next row guard_rows times: a chosen move that loses the board
  // after some of those rows gives way to the root that keeps it after the most (guard_cost 0;
  // ties: the search's order), or whose value plus guard_cost points a remaining action for
  // each share of rows kept is highest (guard_cost > 0). Then the phantom check as before.
  int guarded(const State& s, const GroupList& roots, int chosen, bool valued) {
    guard_left_ = kGuardStates;
    const int nroots = roots.size();
    int ci = 0;
    while (ci < nroots && !(roots[ci].cells & bit128(chosen))) ++ci;
    if (ci == nroots) return chosen;
    order_.resize(static_cast<std::size_t>(nroots));
    for (int i = 0; i < nroots; ++i) order_[i] = i;
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      return valued ? root_sum_[a] > root_sum_[b] : roots[a].size > roots[b].size;
    });
    guard_nrows_ = std::clamp(cfg_.guard_rows, 0, kMaxGuardRows);
    if (guard_nrows_ > 0) {
      // The same rows for every root, from their own stream (the search's rows stay those of
      // guard_rows 0).
      Rng rng(seed_ * 0xD1B54A32D192ED03ULL + static_cast<std::uint64_t>(s.actions) * 104729 + 3);
      for (int i = 0; i < guard_nrows_; ++i) guard_rows_[i] = Row::random(rng);
      const int kept = kept_rows(s, roots[ci]);
      if (kept < guard_nrows_) {
        // Each row kept is worth guard_cost points a remaining action (0: rows kept first, then
        // the search's order); the chosen move gives way only to a root worth more so.
        const double per_row = cfg_.guard_cost * (kMaxActions - s.actions) / guard_nrows_;
        const auto worth = [&](int i, int k) {
          return (valued ? root_sum_[i] : 0.0) + per_row * k;
        };
        int bi = ci, bk = kept;
        for (int i : order_) {
          if (i == ci) continue;
          if (cfg_.guard_cost > 0 && valued &&
              root_sum_[i] + per_row * guard_nrows_ <= worth(bi, bk))
            break;  // not even every row kept would make this root (or a later one) worth more
          const int k = kept_rows(s, roots[i]);
          if (cfg_.guard_cost > 0 ? worth(i, k) > worth(bi, bk) : k > bk) bi = i, bk = k;
          if (bk == guard_nrows_ && cfg_.guard_cost <= 0) break;
        }
        if (bi != ci) return roots[bi].rep;
      }
      guard_left_ = kGuardStates;
    }
    if (keeps_board(s, roots[ci])) return chosen;
    for (int i : order_)
      if (keeps_board(s, roots[i])) return roots[i].rep;
    return chosen;
  }

  // A widest beam w as the end's scale widens it (w itself without an end).
  static int scaled_width(int w, const Config& c) {
    return c.end_at > 0 ? static_cast<int>(std::lround(w * std::max(1.0, c.end_scale))) : w;
  }

  // Roots in the stage after one of `a` roots: the better half, at least two (or a, if fewer).
  static int halved(int a) { return std::max(std::min(a, 2), (a + 1) / 2); }

  Config cfg_;
  common::HanpangEval eval_;
  HanpangGame game_;
  Beam<HanpangGame, RowWorld> beam_;
  std::uint64_t seed_ = 0;
  std::vector<double> root_sum_, op_sum_, op_val_;
  std::vector<int> top_, op_n_, alive_, order_;
  // The guard's states a move at most (0.3-0.65 us each): where every root is lost it visits
  // every line whose moves leave no column full, thousands of states at guard 4.
  static constexpr long kGuardStates = 20000;
  long guard_left_ = 0;
  static constexpr int kMaxGuardRows = 64;
  std::array<Row, kMaxGuardRows> guard_rows_{};
  int guard_nrows_ = 0;
  int width_cap_ = 0, op_width_cap_ = 0;  // this move's widest beams (cfg_'s, or the end's)
  double rate_ = 4e5;  // nodes per second, measured on the clock (not used on a node budget)
  SearchStats stats_;
};

}  // namespace hanpang_beam

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<hanpang_beam::BeamHanpang>(hanpang_table().read(p));
}

}  // namespace tactica::plugins::beam
