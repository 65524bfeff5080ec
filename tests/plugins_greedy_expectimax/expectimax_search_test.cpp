// Tests of expectiminimax written once (plugins/expectimax/search.hpp): the chance node's mean
// over the shared sampled rows against a brute force, the transposition table's proof and
// replacement, and the limits (the node budget's strides, the scaled soft time).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>

#include "expectimax/hanpang_search.hpp"
#include "expectimax/ice_search.hpp"
#include "expectimax/search.hpp"
#include "games/hanpang/search_knowledge.hpp"
#include "greedy/greedy.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

using namespace tactica;

namespace {

hanpang::State hanpang_board(std::uint64_t seed, int rows) {
  hanpang::RowSource src(seed);
  hanpang::State s;
  for (int i = 0; i < rows; ++i) s.push_row(src.next());
  return s;
}

// max over our moves of the mean over the level-0 rows of max over the next moves of the leaf:
// expectimax at depth 2 with nothing cut, spelled out.
double depth2_truth(const hanpang::State& s, plugins::common::HanpangSearchKnowledge& k,
                    int samples) {
  hanpang::GroupList root;
  s.groups(root);
  double best = -1e300;
  for (const auto& g : root) {
    hanpang::State a = s;
    a.remove(g.cells);
    double v;
    if (a.over()) {
      v = k.leaf(a);
    } else {
      double sum = 0;
      for (int i = 0; i < samples; ++i) {
        hanpang::State t = a;
        k.outcome(t, 0, i);
        hanpang::GroupList next;
        t.groups(next);
        double top = next.size() ? -1e300 : 0.0;
        for (const auto& h : next) {
          hanpang::State u = t;
          u.remove(h.cells);
          top = std::max(top, k.leaf(u));
        }
        sum += top;
      }
      v = sum / samples;
    }
    best = std::max(best, v);
  }
  return best;
}

// One IceSearch move from `pos` with the parameters `p` (and a 1 MiB table) within `lim`; the
// move must be legal.
plugins::expectimax::IceSearch::Result ice_move(const icebreaking::Board& b,
                                                const icebreaking::Position& pos,
                                                plugins::expectimax::IceParams p,
                                                const SearchLimits& lim) {
  p.tt_mb = 1;
  plugins::expectimax::IceSearch search(p);
  search.new_game(b);
  const auto r = search.run(pos.ice, pos.margin(), lim, nullptr);
  CHECK(pos.legal(r.move));
  return r;
}

}  // namespace

TEST_CASE("expectimax hanpang: depth 2 is the best move's mean over the shared sampled rows") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    plugins::expectimax::HanpangParams p;
    p.max_depth = 2;
    p.width = 120;
    p.root_width = 120;
    p.samples = 1 + static_cast<int>(seed % 4);
    const auto s = hanpang_board(seed, 6 + static_cast<int>(seed));
    plugins::expectimax::HanpangSearch search(p);
    search.new_game(seed);
    const auto r = search.run(s, SearchLimits{}, nullptr);
    plugins::common::HanpangSearchKnowledge k(p.weights);
    k.new_game(seed);
    k.new_search(s);
    CHECK(r.depth == 2);
    CHECK(r.value == depth2_truth(s, k, p.samples));
    // The move played is one achieving it.
    hanpang::GroupList gl;
    s.groups(gl);
    const auto it = std::find_if(gl.begin(), gl.end(), [&](const auto& g) { return g.rep == r.move; });
    REQUIRE(it != gl.end());
    // Narrower root: the value can only fall (fewer moves looked at), never rise.
    p.root_width = 1;
    plugins::expectimax::HanpangSearch narrow(p);
    narrow.new_game(seed);
    CHECK(narrow.run(s, SearchLimits{}, nullptr).value <= r.value);
  }
}

TEST_CASE("expectimax: the transposition table proves positions by the whole lock") {
  using Table = plugins::expectimax::TranspositionTable<25>;
  Table t;
  t.resize(1);
  t.next_age();
  const u128 a = bit128(3) | bit128(70), b = bit128(3) | bit128(71);  // differ above bit 64
  const std::uint64_t key = 12345;  // the same slot for both
  t.store(a, key, 5, -40, Table::kExact, 17);
  const auto* e = t.probe(a, key);
  REQUIRE(e != nullptr);
  CHECK(e->value == -40);
  CHECK(e->move() == 17);
  CHECK(e->depth() == 5);
  CHECK(e->bound() == Table::kExact);
  CHECK(t.probe(b, key) == nullptr);  // same slot, another set: no false hit
  // A shallower entry of the same search does not replace a deeper one...
  t.store(b, key, 3, 8, Table::kLower, 2);
  CHECK(t.probe(b, key) == nullptr);
  CHECK(t.probe(a, key) != nullptr);
  // ...but does in a later search; storing without a move keeps the one known.
  t.next_age();
  t.store(b, key, 3, 8, Table::kLower, 2);
  REQUIRE(t.probe(b, key) != nullptr);
  t.store(b, key, 4, 16, Table::kUpper, -1);
  CHECK(t.probe(b, key)->move() == 2);
  CHECK(t.probe(b, key)->value == 16);
  CHECK(t.probe(b, key)->depth() == 4);
  CHECK(t.probe(a, key) == nullptr);
}

TEST_CASE("expectimax icebreaking: a node budget is spent in whole strides of 1024 nodes") {
  // The stride is what the search always counted in: the same budget plays the same moves.
  const auto b = icebreaking::Board::from_seed(7);
  auto pos = icebreaking::Position::start(b);
  for (int i = 0; i < 6; ++i) pos.play(b, plugins::greedy::icebreaking_move(b, pos, true));
  plugins::expectimax::IceParams p;
  p.tt_mb = 1;
  plugins::expectimax::IceSearch search(p);
  for (std::uint64_t budget : {1000u, 2000u, 2048u, 5000u}) {
    search.new_game(b);
    SearchLimits lim;
    lim.node_budget = budget;
    const auto r = search.run(pos.ice, pos.margin(), lim, nullptr);
    CHECK(r.nodes == (budget + 1023) / 1024 * 1024);
    CHECK(pos.legal(r.move));
  }
}

TEST_CASE("expectimax: a time_scale above 1 deepens past the host's soft time, never a budget") {
  using plugins::expectimax::may_deepen;
  SearchLimits lim;
  lim.deadline = Deadline::in(std::chrono::microseconds(0), std::chrono::hours(1));
  const SearchBudget clock(lim);
  CHECK_FALSE(may_deepen(clock, 0.6, 1.0));  // the soft time is spent
  CHECK(may_deepen(clock, 0.6, 2.0));        // counted double: 1.0 of it is under 0.6 * 2
  CHECK_FALSE(may_deepen(clock, 0.4, 2.0));  // 1.0 is past 0.4 * 2
  SearchLimits budgeted;
  budgeted.node_budget = 10;
  SearchBudget nodes(budgeted);
  CHECK(may_deepen(nodes, 0.6, 2.0));
  nodes.count(10);
  CHECK_FALSE(may_deepen(nodes, 0.6, 2.0));
  CHECK_FALSE(may_deepen(nodes, 0.6, 1.0));
}

TEST_CASE("expectimax icebreaking: late_scale replaces time_scale from late_at cells down") {
  // The host's soft time is already spent: time_scale 1 stops after the first iteration, a
  // scale of 3 deepens (0.6 * 3 of a spent soft time is still ahead) to the exact end.
  const auto b = icebreaking::Board::from_seed(7);
  auto pos = icebreaking::Position::start(b);
  while (popcount(pos.ice) > 14) pos.play(b, plugins::greedy::icebreaking_move(b, pos, true));
  const int cells = popcount(pos.ice);
  const auto depth_with = [&](int late_at) {
    plugins::expectimax::IceParams p;
    p.solve_at = 0;
    p.late_at = late_at;
    p.late_scale = 3.0;
    SearchLimits lim;
    lim.deadline = Deadline::in(std::chrono::microseconds(0), std::chrono::hours(1));
    return ice_move(b, pos, p, lim);
  };
  const auto early = depth_with(cells - 1);  // more cells than late_at: time_scale (1)
  CHECK(early.depth == 1);
  CHECK_FALSE(early.exact);
  const auto late = depth_with(cells);
  CHECK(late.exact);
  CHECK(late.depth > 1);
}

TEST_CASE("Deadline::shortened draws both limits in, never out") {
  using std::chrono::milliseconds;
  const auto d = Deadline::in(milliseconds(200), milliseconds(600));
  const auto h = d.shortened(0.25);
  CHECK(h.start() == d.start());
  CHECK(h.soft_budget() == std::chrono::microseconds(50000));
  CHECK(h.hard_budget() == std::chrono::microseconds(150000));
  const auto same = d.shortened(1.5);  // at or above 1: the host's limits
  CHECK(same.soft() == d.soft());
  CHECK(same.hard() == d.hard());
  CHECK(Deadline::never().shortened(0.1).unlimited());
  std::atomic<bool> stop{false};
  auto flagged = d;
  flagged.attach_stop_flag(&stop);
  const auto f = flagged.shortened(0.5);
  CHECK_FALSE(f.stop_requested());
  stop = true;
  CHECK(f.stop_requested());  // the Session's stop flag still reaches the shortened deadline
}

TEST_CASE("Deadline::stretched moves the soft limit out, never past the hard one") {
  using std::chrono::milliseconds;
  const auto d = Deadline::in(milliseconds(200), milliseconds(600));
  const auto s = d.stretched(2.0);
  CHECK(s.start() == d.start());
  CHECK(s.soft_budget() == std::chrono::microseconds(400000));
  CHECK(s.hard() == d.hard());
  CHECK(d.stretched(5.0).soft() == d.hard());  // capped at the hard limit
  const auto same = d.stretched(0.5);          // at or below 1: the host's limits
  CHECK(same.soft() == d.soft());
  CHECK(same.hard() == d.hard());
  CHECK(Deadline::never().stretched(3).unlimited());
}

TEST_CASE("expectimax icebreaking: open_scale scales the opening's budget, and only the opening") {
  const auto b = icebreaking::Board::from_seed(11);
  const auto pos = icebreaking::Position::start(b);
  const int cells = popcount(pos.ice);
  const auto nodes_with = [&](int open_at, double open_scale, std::uint64_t budget) {
    plugins::expectimax::IceParams p;
    p.open_at = open_at;
    p.open_scale = open_scale;
    SearchLimits lim;
    lim.node_budget = budget;
    return ice_move(b, pos, p, lim).nodes;
  };
  const std::uint64_t budget = 64 * 1024;
  const auto plain = nodes_with(0, 1.0, budget);
  CHECK(plain >= budget);
  // The opening (cells >= open_at): a quarter of the budget, in whole strides of 1024.
  const auto quarter = nodes_with(cells, 0.25, budget);
  CHECK(quarter >= budget / 4);
  CHECK(quarter < budget / 4 + 1024);
  // One cell more than the position has: not the opening, the whole budget.
  CHECK(nodes_with(cells + 1, 0.25, budget) == plain);
  // Below 1, a shortened move on the clock: a 4 s move drawn in to 2% ends long before 1 s.
  plugins::expectimax::IceParams p;
  p.open_at = cells;
  p.open_scale = 0.02;
  SearchLimits lim;
  lim.deadline = Deadline::in(std::chrono::seconds(2), std::chrono::seconds(4));
  ice_move(b, pos, p, lim);
  CHECK(std::chrono::steady_clock::now() - lim.deadline.start() < std::chrono::seconds(1));
}
