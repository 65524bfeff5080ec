// Expectimax for Hanpang. See hanpang_search.hpp.
#include "expectimax/hanpang_search.hpp"

#include <algorithm>

namespace tactica::plugins::expectimax {

using namespace tactica::hanpang;

namespace {

// The afterstate with every column lifted by one and an empty bottom row: the height the coming
// row will add, without guessing its colours.
State lifted(const State& a) {
  State t = a;
  for (auto& p : t.planes) p = (p << 1) & kValid;
  return t;
}

struct Cand {
  u128 cells;
  double v;
  int rep;
};
using Cands = std::array<Cand, kRows * kCols>;

// Higher value first, then the lower representative cell (a function object: inlined in sorts).
constexpr auto better_cand = [](const Cand& x, const Cand& y) {
  return x.v > y.v || (x.v == y.v && x.rep < y.rep);
};

// Every move of `s` into `c`, each valued by value(afterstate); returns how many.
template <class Value>
int valued_moves(const State& s, Cands& c, Value value) {
  GroupList gl;
  s.groups(gl);
  int n = 0;
  for (const auto& g : gl) {
    State a = s;
    a.remove(g.cells);
    c[n++] = Cand{g.cells, value(a), g.rep};
  }
  return n;
}

}  // namespace

double HanpangSearch::leaf(const State& a) const {
  return a.over() ? common::evaluate(a, p_.weights) : common::evaluate(lifted(a), p_.weights);
}

void HanpangSearch::tick() {
  ++nodes_;
  if ((nodes_ & 63) == 0) {
    if (budget_ && nodes_ >= budget_) stop_ = true;
    if (deadline_ && deadline_->hard_expired()) stop_ = true;
  }
}

double HanpangSearch::chance(const State& a, int depth) {
  if (a.over() || depth <= 0) {
    tick();
    return leaf(a);
  }
  const int level = root_depth_ - depth;  // which shared sample set
  double sum = 0;
  for (int i = 0; i < samples_; ++i) {
    State s = a;
    s.push_row(rows_[level][i]);
    sum += decision(s, depth);
    if (stop_) return 0;
  }
  return sum / samples_;
}

double HanpangSearch::decision(const State& s, int depth) {
  Cands c;
  const int n = valued_moves(s, c, [&](const State& a) {
    tick();
    return leaf(a);
  });
  if (stop_ || n == 0) return 0;
  if (depth <= 1) {
    double best = c[0].v;
    for (int i = 1; i < n; ++i) best = std::max(best, c[i].v);
    return best;
  }
  const int w = std::min(n, p_.width);
  std::partial_sort(c.begin(), c.begin() + w, c.begin() + n, better_cand);
  double best = -1e300;
  for (int i = 0; i < w; ++i) {
    State a = s;
    a.remove(c[i].cells);
    best = std::max(best, chance(a, depth - 1));
    if (stop_) return 0;
  }
  return best;
}

HanpangSearch::Result HanpangSearch::run(const State& s, const SearchLimits& limits, BestMove* publish) {
  Result r;
  nodes_ = 0;
  budget_ = limits.node_budget;
  deadline_ = &limits.deadline;
  stop_ = false;
  samples_ = std::clamp(p_.samples, 1, kMaxSamples);

  // Step 1. The same rows for every sibling: drawn once per turn from (seed, action number).
  Rng rng(seed_ * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(s.actions) + 1);
  for (auto& level : rows_)
    for (auto& row : level) row = Row::random(rng);

  // Step 2. Depth 1: every move valued by its afterstate.
  Cands c;
  const int n = valued_moves(s, c, [&](const State& a) {
    ++nodes_;
    return leaf(a);
  });
  if (n == 0) return r;
  std::stable_sort(c.begin(), c.begin() + n, better_cand);
  r.move = c[0].rep, r.value = c[0].v, r.depth = 1;
  if (publish) publish->publish(r.move);

  // Step 3. Deeper: the best root_width moves, each an expectation over sampled rows.
  const int last = std::min({p_.max_depth, kMaxDepth, kMaxActions - s.actions});
  for (int depth = 2; depth <= last; ++depth) {
    if (budget_ && nodes_ >= budget_) break;
    if (!limits.deadline.unlimited() && limits.deadline.soft_fraction() >= p_.iter_start) break;
    root_depth_ = depth - 1;
    const int w = std::min(n, p_.root_width);
    double best = -1e300;
    int best_i = -1;
    for (int i = 0; i < w; ++i) {
      State a = s;
      a.remove(c[i].cells);
      const double v = chance(a, depth - 1);
      if (stop_) break;
      if (v > best) best = v, best_i = i;
    }
    if (stop_) break;
    r.move = c[best_i].rep, r.value = best, r.depth = depth;
    if (publish) publish->publish(r.move);
    std::rotate(c.begin(), c.begin() + best_i, c.begin() + best_i + 1);
  }
  r.nodes = nodes_;
  deadline_ = nullptr;
  return r;
}

}  // namespace tactica::plugins::expectimax
