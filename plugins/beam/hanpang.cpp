// Hanpang beam search: phantom rows, then a second opinion on sampled next rows.
//
// Default (phantom): one beam over our own moves on a future of phantom rows (each action lifts
// the board by a row whose colours are unknown and never join a group): every node of the beam
// is expanded by all of its groups, the children are valued by the board evaluation of
// games/hanpang/eval.hpp, duplicates removed, and the `width` best form the next layer. A root
// move's value is its best leaf. Second opinion: the op_k best root moves are played again,
// each followed by op_samples sampled next rows (the same rows for every root: the row our next
// decision will see), and each of those boards is valued by a phantom beam of op_depth moves; a
// root's final value mixes the mean over the rows with its phantom value (op_mix).
// phantom=false instead runs beams on `samples` sampled futures (sequences of random rows) and
// adds up each root move's best leaf over them. Searches stop at the soft deadline (or the node
// budget) and the published move is refreshed after each completed stage.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "beam/params.hpp"
#include "beam/plugin.hpp"
#include "games/hanpang/eval.hpp"

namespace tactica::plugins::beam {
// Named (not anonymous) so the plugin's files can share one translation unit (unity build, fuse).
namespace hanpang_beam {

using namespace tactica::hanpang;
using common::HanpangWeights;

using Config = HanpangConfig;  // beam/params.hpp

struct Node {
  State st;
  double value;
  std::uint64_t hash;
  int root;  // index of the root move this node descends from
};

std::uint64_t hash_state(const State& s) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (const u128& p : s.planes) {
    h ^= static_cast<std::uint64_t>(p) + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(p >> 64) + 0x7F4A7C159E3779B9ULL + (h << 6) + (h >> 2);
  }
  return h * 0xBF58476D1CE4E5B9ULL;
}

class BeamHanpang final : public HanpangStrategy {
 public:
  explicit BeamHanpang(const Config& c) : cfg_(c), eval_(c.w) {
    const int cap = cfg_.width * kRows * kCols + kRows * kCols;
    cur_.resize(cap);
    next_.resize(cap);
    order_.resize(cap);
    seen_.resize(table_size());
    root_best_.resize(kRows * kCols);
    root_sum_.resize(kRows * kCols);
    top_.resize(kRows * kCols);
    op_sum_.resize(kRows * kCols);
    op_val_.resize(kRows * kCols);
  }

  void new_game(std::uint64_t seed) override {
    seed_ = seed;
    stats_ = {};
  }

  int choose(const State& s, const SearchLimits& limits, BestMove& best) override {
    stats_ = {};
    const int fallback = fallback_move(s);
    best.publish(fallback);
    GroupList roots;
    s.groups(roots);
    nroots_ = roots.size();
    if (nroots_ <= 1) return fallback;
    roots_ = &roots;
    limits_ = &limits;
    nodes_ = 0;
    aborted_ = false;
    std::fill(root_sum_.begin(), root_sum_.begin() + nroots_, 0.0);

    Rng rng(seed_ * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(s.actions) * 7919 + 1);
    const int depth = std::max(1, std::min(cfg_.depth, kMaxActions - s.actions));
    const auto t0 = Deadline::Clock::now();
    // Step 1. The width: what the budget (nodes, or the soft time at the measured rate) allows
    // for the planned number of searches, each of about depth * width * branching nodes.
    double avail = 1e18;
    if (limits.node_budget)
      avail = static_cast<double>(limits.node_budget);
    else if (!limits.deadline.unlimited())
      avail = std::chrono::duration<double>(limits.deadline.soft_budget()).count() * rate_;
    const bool opinion = cfg_.phantom && cfg_.op_k > 0 && cfg_.op_samples > 0;
    if (opinion) avail *= 1.0 - cfg_.op_share;
    const int searches = cfg_.phantom ? 1 : cfg_.min_samples;
    const double per_width = 1.15 * searches * depth * std::max(8, nroots_);
    width_ = static_cast<int>(std::clamp(avail / per_width, 2.0, static_cast<double>(cfg_.width)));
    const int max_samples = cfg_.phantom ? 1 : cfg_.max_samples;

    // Step 2. Searches until the budget is spent; the move with the best sum is published.
    int done = 0;
    int chosen = fallback;
    partial_root_ = -1;
    for (int k = 0; k < max_samples; ++k) {
      // Start another sample only if it should end before the soft deadline.
      if (k > 0 && !limits.deadline.unlimited()) {
        const double f = limits.deadline.soft_fraction();
        if (f * (k + 1) / k > 1.0) break;
      }
      if (limits.node_budget && nodes_ >= limits.node_budget) break;
      Row rows[kMaxActions];
      for (int d = 0; d < depth; ++d) rows[d] = Row::random(rng);
      if (!run_sample(s, cfg_.phantom ? nullptr : rows, depth)) {
        // Nothing finished: the best line of the deepest layer the first search completed.
        if (done == 0 && partial_root_ >= 0) {
          chosen = roots[partial_root_].rep;
          best.publish(chosen);
        }
        break;
      }
      for (int i = 0; i < nroots_; ++i) root_sum_[i] += root_best_[i];
      ++done;
      int bi = 0;
      for (int i = 1; i < nroots_; ++i)
        if (root_sum_[i] > root_sum_[bi]) bi = i;
      chosen = roots[bi].rep;
      best.publish(chosen);
      stats_.value = root_sum_[bi] / done;
    }
    if (opinion && done == 1 && !aborted_) {
      const int op = second_opinion(s, roots, limits, rng);
      if (op >= 0) {
        chosen = op;
        best.publish(chosen);
      }
    }
    stats_.depth = done;
    stats_.nodes = nodes_;
    if (!limits.node_budget && !limits.deadline.unlimited() && nodes_ > 1000) {
      const double sec = std::chrono::duration<double>(Deadline::Clock::now() - t0).count();
      if (sec > 0) rate_ = 0.7 * rate_ + 0.3 * (static_cast<double>(nodes_) / sec);
    }
    roots_ = nullptr;
    limits_ = nullptr;
    return chosen;
  }

  SearchStats stats() const override { return stats_; }

 private:
  std::size_t table_size() const {
    std::size_t n = 64;
    while (n < static_cast<std::size_t>(cfg_.width) * 4) n <<= 1;
    return n;
  }

  // True once the search must stop now (hard deadline or node budget); checked every 256 nodes.
  bool must_stop() {
    if ((nodes_ & 255) != 0) return false;
    if (limits_->node_budget && nodes_ >= limits_->node_budget) return aborted_ = true;
    if (limits_->deadline.hard_expired()) return aborted_ = true;
    return false;
  }

  // Whether phantom rows lift the board in layer `layer` of a search (lift_layers; 0: always).
  bool lifts(int layer) const { return cfg_.lift_layers == 0 || layer < cfg_.lift_layers; }

  // Expands `from` (count n) into next_ with row `row`; returns the number of children.
  int expand(const Node* from, int n, const Row* row, bool first, bool lift = true) {
    int m = 0;
    GroupList gl;
    for (int i = 0; i < n; ++i) {
      const Node& par = from[i];
      if (par.st.over()) {  // finished lines stay in the beam with their exact value
        next_[m++] = par;
        continue;
      }
      const GroupList* g;
      if (first) {
        g = roots_;
      } else {
        par.st.groups(gl);
        g = &gl;
      }
      for (int j = 0; j < g->size(); ++j) {
        Node& ch = next_[m++];
        ch.st = par.st;
        ch.st.remove((*g)[j].cells);
        if (!ch.st.over()) {
          if (row) ch.st.push_row(*row);
          else if (lift) common::push_phantom_row(ch.st);
        }
        ch.value = eval_(ch.st);
        ch.root = first ? j : par.root;
        ++nodes_;
        if (must_stop()) return -1;
      }
    }
    return m;
  }

  // The second opinion on the op_k best root moves by root_sum_ (see Config): each is played,
  // followed by sampled next rows (the same rows for every root), and valued by a phantom beam
  // from there. Returns the chosen cell, or -1 if no round of rows finished in time.
  int second_opinion(const State& s, const GroupList& roots, const SearchLimits& limits, Rng& rng) {
    const int k = std::min(cfg_.op_k, nroots_);
    for (int i = 0; i < nroots_; ++i) top_[i] = i;
    std::partial_sort(top_.begin(), top_.begin() + k, top_.begin() + nroots_,
                      [&](int a, int b) { return root_sum_[a] > root_sum_[b]; });
    const int depth2 = std::max(0, std::min(cfg_.op_depth, kMaxActions - s.actions - 1));
    double avail = 1e18;
    if (limits.node_budget)
      avail = static_cast<double>(limits.node_budget) - static_cast<double>(nodes_);
    else if (!limits.deadline.unlimited())
      avail = std::chrono::duration<double>(limits.deadline.soft_budget()).count() *
              std::max(0.0, 1.0 - limits.deadline.soft_fraction()) * rate_;
    const double per_width = 1.15 * k * cfg_.op_samples * std::max(1, depth2) * std::max(8, nroots_);
    const int saved_width = width_;
    width_ = static_cast<int>(std::clamp(avail / per_width, 2.0, static_cast<double>(cfg_.op_width)));
    std::fill(op_sum_.begin(), op_sum_.begin() + k, 0.0);
    int rounds = 0;
    Row row;
    for (int r = 0; r < cfg_.op_samples; ++r) {
      if (r > 0 && !limits.deadline.unlimited()) {
        const double f = limits.deadline.soft_fraction();
        if (f * (r + 1) / r > 1.0) break;
      }
      // Stratified rows (op_cycle): a random row, then the same row with its colours cycled
      // twice, so that every cell of the new row takes each colour once in three rounds.
      if (!cfg_.op_cycle || r % 3 == 0) {
        row = Row::random(rng);
      } else {
        for (auto& c : row.colour) c = static_cast<std::uint8_t>(c % 3 + 1);
      }
      Row extra[4];
      const int nextra = std::clamp(cfg_.op_rows - 1, 0, 4);
      for (int e = 0; e < nextra; ++e) extra[e] = Row::random(rng);
      bool ok = true;
      for (int j = 0; j < k && ok; ++j) {
        State c = s;
        c.remove(roots[top_[j]].cells);
        double v;
        if (c.over()) {
          v = eval_(c);
        } else {
          c.push_row(row);
          v = c.over() ? eval_(c) : beam_value(c, depth2, extra, nextra);
          if (aborted_) ok = false;
        }
        op_val_[j] = v;
      }
      if (!ok) break;
      for (int j = 0; j < k; ++j) op_sum_[j] += op_val_[j];
      ++rounds;
    }
    width_ = saved_width;
    if (rounds == 0) return -1;
    int bj = 0;
    double bv = -1e300;
    for (int j = 0; j < k; ++j) {
      const double v =
          cfg_.op_mix * op_sum_[j] / rounds + (1.0 - cfg_.op_mix) * root_sum_[top_[j]];
      if (v > bv) bv = v, bj = j;
    }
    stats_.value = bv;
    return roots[top_[bj]].rep;
  }

  // The best leaf of a phantom beam of `depth` moves from s (a decision state), judged at the
  // last layer that still has a live line; s's own value if depth is 0.
  double beam_value(const State& s, int depth, const Row* extra, int nextra) {
    Node root{s, 0.0, 0, 0};
    root.value = eval_(s);
    if (depth <= 0) return root.value;
    const double dead = cfg_.w.overflow / 2;
    double best = -1e300;
    int n = 0;
    for (int d = 0; d < depth; ++d) {
      const Row* row = d < nextra ? &extra[d] : nullptr;
      const int m = d == 0 ? expand(&root, 1, row, false, lifts(d + 1))
                           : expand(cur_.data(), n, row, false, lifts(d + 1));
      if (m < 0) return best;
      if (m == 0) break;
      n = select(m);
      double top = -1e300;
      for (int i = 0; i < n; ++i) top = std::max(top, cur_[i].value);
      if (top < dead && d > 0) break;
      best = top;
    }
    return best;
  }

  // Keeps the best `width` distinct children of next_ in cur_; returns how many.
  int select(int m) {
    for (int i = 0; i < m; ++i) order_[i] = i;
    const int keep = std::min(m, width_ * 2);
    std::partial_sort(order_.begin(), order_.begin() + keep, order_.begin() + m,
                      [&](int a, int b) { return next_[a].value > next_[b].value; });
    std::fill(seen_.begin(), seen_.end(), 0);
    const std::size_t mask = seen_.size() - 1;
    int n = 0;
    for (int i = 0; i < keep && n < width_; ++i) {
      Node& c = next_[order_[i]];
      c.hash = hash_state(c.st) | 1;
      std::size_t slot = c.hash & mask;
      bool dup = false;
      while (seen_[slot]) {
        if (seen_[slot] == c.hash) {
          dup = true;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (dup) continue;
      seen_[slot] = c.hash;
      cur_[n++] = c;
    }
    return n;
  }

  // The root move of the best node in cur_ (the last completed layer).
  void note_partial(int n) {
    int bi = 0;
    for (int i = 1; i < n; ++i)
      if (cur_[i].value > cur_[bi].value) bi = i;
    if (n > 0) partial_root_ = cur_[bi].root;
  }

  // root_best_ from the beam in cur_: each root move's best leaf; a root move with no leaf left
  // gets the worst leaf less one.
  void score_roots(int n) {
    double worst = 1e300;
    for (int i = 0; i < n; ++i) worst = std::min(worst, cur_[i].value);
    for (int i = 0; i < nroots_; ++i) root_best_[i] = -1e300;
    for (int i = 0; i < n; ++i)
      root_best_[cur_[i].root] = std::max(root_best_[cur_[i].root], cur_[i].value);
    for (int i = 0; i < nroots_; ++i)
      if (root_best_[i] == -1e300) root_best_[i] = worst - 1.0;
  }

  // One search on one future (rows, or phantom rows if null): fills root_best_. False if
  // stopped before it finished. If every line of a layer is dead (overflow) while the layer
  // before had live ones, the search ends there and judges by that layer: phantom rows cannot be
  // removed, so a deep horizon can kill every line that real rows would let live.
  bool run_sample(const State& s, const Row* rows, int depth) {
    Node root{s, 0.0, 0, -1};
    int m = expand(&root, 1, rows ? &rows[0] : nullptr, true);
    if (m < 0) return false;
    int n = select(m);
    note_partial(n);
    score_roots(n);
    const double dead = cfg_.w.overflow / 2;
    for (int d = 1; d < depth; ++d) {
      m = expand(cur_.data(), n, rows ? &rows[d] : nullptr, false, lifts(d));
      if (m < 0) return false;
      n = select(m);
      double top = -1e300;
      for (int i = 0; i < n; ++i) top = std::max(top, cur_[i].value);
      if (top < dead) break;  // keep the previous layer's judgement
      note_partial(n);
      score_roots(n);
    }
    return true;
  }

  Config cfg_;
  common::HanpangEval eval_;
  std::uint64_t seed_ = 0;
  std::vector<Node> cur_, next_;
  std::vector<int> order_;
  std::vector<std::uint64_t> seen_;
  std::vector<double> root_best_, root_sum_, op_sum_, op_val_;
  std::vector<int> top_;
  const GroupList* roots_ = nullptr;
  const SearchLimits* limits_ = nullptr;
  int nroots_ = 0;
  int width_ = 1;
  int partial_root_ = -1;
  double rate_ = 4e5;  // nodes per second, measured on the clock (not used on a node budget)
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  SearchStats stats_;
};

}  // namespace hanpang_beam

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<hanpang_beam::BeamHanpang>(hanpang_table().read(p));
}

}  // namespace tactica::plugins::beam
