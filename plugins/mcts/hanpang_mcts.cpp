// hanpang_mcts.cpp — UCT with sampled rows and a leaf evaluation (see hanpang_mcts.hpp).
#include "mcts/hanpang_mcts.hpp"

#include <algorithm>
#include <cmath>

namespace tactica::plugins::mcts {

using namespace hanpang;

HanpangMcts::HanpangMcts(const HanConfig& cfg)
    : cfg_(cfg),
      nodes_(static_cast<std::size_t>(std::max(1000, cfg.pool_nodes))),
      edges_(nodes_.size() * 32),
      outs_(nodes_.size()) {}

void HanpangMcts::new_game(std::uint64_t seed) { seed_ = seed; }

double HanpangMcts::terminal_value(const State& s) const {
  const double score = static_cast<double>(s.score);
  if (s.end == End::overflow) return score - cfg_.death * (kMaxActions - s.actions);
  return score;
}

// The value of a fresh decision state `depth` moves below the root: one-ply greedy moves on the
// evaluation (over sampled rows) until `horizon` moves were made, then the board evaluation.
// Every value is thus taken the same number of rows ahead, which keeps siblings comparable
// (the evaluation drifts with every row pushed: more tiles, more danger).
double HanpangMcts::leaf_value(State& s, int depth) {
  for (; depth < cfg_.horizon && !s.over(); ++depth) {
    const int c = common::eval_greedy_move(s, cfg_.weights);
    if (c < 0) break;
    s.play(c);
    if (!s.over()) s.push_row(Row::random(rng_));
  }
  if (s.over()) return terminal_value(s);
  return common::evaluate(s, cfg_.weights);
}

// Creates the edges of a decision node, each valued by the one-ply evaluation of its
// afterstate (columns lifted by one for the coming row, whose colours are unknown).
bool HanpangMcts::expand(std::int32_t node, const State& s) {
  s.groups(groups_);
  if (used_edges_ + groups_.count > static_cast<std::int32_t>(edges_.size())) return false;
  DNode& d = nodes_[node];
  d.first_edge = used_edges_;
  d.nedges = static_cast<std::int16_t>(groups_.count);
  d.expanded = true;
  double hi = -1e300, sum = 0;
  int alive = 0;
  for (const Group& g : groups_) {
    Edge& e = edges_[used_edges_++];
    e = Edge{};
    e.cells = g.cells;
    e.rep = static_cast<std::int16_t>(g.rep);
    State t = s;
    t.remove(g.cells);
    double v;
    if (t.over()) {
      v = terminal_value(t);
    } else {
      for (auto& p : t.planes) p = (p << 1) & kValid;
      v = common::evaluate(t, cfg_.weights);
      hi = std::max(hi, v);
      sum += v;
      ++alive;
    }
    e.prior = static_cast<float>(v);
  }
  std::sort(edges_.begin() + d.first_edge, edges_.begin() + used_edges_,
            [](const Edge& a, const Edge& b) { return a.prior > b.prior; });
  d.spread = alive ? static_cast<float>(std::max(1.0, hi - sum / alive)) : 1.0f;
  return true;
}

std::int32_t HanpangMcts::select(const DNode& d) const {
  const double log_n = std::log(static_cast<double>(d.visits) + 1.0);
  const double c = cfg_.c_uct * d.spread, n0 = cfg_.prior_visits;
  std::int32_t best = d.first_edge;
  double best_s = -1e300;
  for (std::int32_t i = d.first_edge; i < d.first_edge + d.nedges; ++i) {
    const Edge& e = edges_[i];
    // Without virtual visits every edge is tried once first, best one-ply value first.
    if (n0 <= 0 && e.n == 0) return i;
    const double q = (e.w + n0 * e.prior) / (e.n + n0);
    const double s = q + c * std::sqrt(log_n / (e.n + 1));
    if (s > best_s) best_s = s, best = i;
  }
  return best;
}

std::int32_t HanpangMcts::best_edge() const {
  const DNode& r = nodes_[0];
  std::int32_t best = -1;
  for (std::int32_t i = r.first_edge; i < r.first_edge + r.nedges; ++i) {
    if (best < 0) {
      best = i;
      continue;
    }
    const Edge &a = edges_[i], &b = edges_[best];
    const double n0 = cfg_.prior_visits;
    if (a.n > b.n || (a.n == b.n && (a.w + n0 * a.prior) / (a.n + n0) > (b.w + n0 * b.prior) / (b.n + n0)))
      best = i;
  }
  return best;
}

int HanpangMcts::choose(const State& root, const SearchLimits& limits, BestMove& best) {
  stats_ = {};
  if (root.over() || root.occupied() == 0) return fallback_move(root);
  best.publish(fallback_move(root));
  rng_.reseed(seed_ * 0x9E3779B97F4A7C15ULL ^ (0xD1B54A32D192ED03ULL + root.actions));
  used_nodes_ = 1, used_edges_ = 0, used_outs_ = 0;
  nodes_[0] = DNode{};
  expand(0, root);
  if (nodes_[0].nedges == 1) return edges_[nodes_[0].first_edge].rep;
  best.publish(edges_[best_edge()].rep);

  const std::uint64_t budget = limits.node_budget;
  std::uint64_t it = 0;
  for (;; ++it) {
    if (budget && it >= budget) break;
    // An iteration costs tens of microseconds (one-ply moves to the horizon): check the clock
    // every time, so a slow or loaded machine never overruns the per-move budget by much.
    if (it) {
      if (!budget && limits.deadline.soft_expired()) break;
      if ((it & 255) == 0) best.publish(edges_[best_edge()].rep);
    }
    if (limits.deadline.stop_requested()) break;

    // Step 1. Descend: UCT at decision nodes, a sampled row below each edge.
    State s = root;
    std::int32_t node = 0, leaf = -1;
    int depth = 0;
    double value;
    for (;;) {
      const DNode& d = nodes_[node];
      if (!d.expanded &&
          ((node != 0 && (d.visits == 0 || depth >= cfg_.horizon)) || !expand(node, s))) {
        leaf = node;
        value = leaf_value(s, depth);
        break;
      }
      const std::int32_t e = select(nodes_[node]);
      path_nodes_[depth] = node;
      path_edges_[depth++] = e;
      s.remove(edges_[e].cells);
      if (s.over()) {
        value = terminal_value(s);
        break;
      }
      // Step 2. Chance: a new sampled row while the edge has room, else one of its rows.
      Edge& ed = edges_[e];
      if (ed.nout < cfg_.chance_width && used_nodes_ < static_cast<std::int32_t>(nodes_.size()) &&
          used_outs_ < static_cast<std::int32_t>(outs_.size())) {
        const Row row = Row::random(rng_);
        const std::int32_t child = used_nodes_++;
        nodes_[child] = DNode{};
        outs_[used_outs_] = Outcome{child, ed.first_out, static_cast<std::uint16_t>(row.index())};
        ed.first_out = used_outs_++;
        ++ed.nout;
        s.push_row(row);
        node = child;
      } else if (ed.nout > 0) {
        std::int32_t o = ed.first_out;
        for (auto k = rng_.below(static_cast<std::uint32_t>(ed.nout)); k > 0; --k) o = outs_[o].next;
        s.push_row(Row::from_index(outs_[o].row));
        node = outs_[o].node;
      } else {
        s.push_row(Row::random(rng_));
        value = leaf_value(s, depth);
        break;
      }
    }
    // Step 3. Backup: every edge on the path gets the same leaf value (it includes the score).
    if (leaf >= 0) ++nodes_[leaf].visits;
    for (int i = 0; i < depth; ++i) {
      Edge& e = edges_[path_edges_[i]];
      ++e.n;
      e.w += value;
      ++nodes_[path_nodes_[i]].visits;
    }
  }

  const Edge& e = edges_[best_edge()];
  best.publish(e.rep);
  stats_.nodes = it;
  stats_.value = e.n ? e.w / e.n : e.prior;
  return e.rep;
}

}  // namespace tactica::plugins::mcts
