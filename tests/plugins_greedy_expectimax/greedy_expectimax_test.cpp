// Tests of the greedy and expectimax plugins: conformance over both games (legal moves on random
// positions, deterministic replay on a node budget, returning within a deadline) and known values
// (the fast capture test against the engine, the endgame solver against plain minimax, greedy's
// safety rule in Hanpang, a forced capture found by alpha-beta).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include "../plugin_testing.hpp"
#include "games/icebreaking/model_beam.hpp"
#include "games/icebreaking/eval.hpp"
#include "expectimax/hanpang_search.hpp"
#include "expectimax/ice_search.hpp"
#include "expectimax/params.hpp"
#include "expectimax/plugin.hpp"
#include "greedy/greedy.hpp"
#include "greedy/plugin.hpp"

using namespace tactica;

namespace {

struct PluginFns {
  const char* name;
  PluginInfo (*describe)();
  std::unique_ptr<HanpangStrategy> (*hanpang)(const Params&);
  std::unique_ptr<IcebreakingStrategy> (*icebreaking)(const Params&);
};

const PluginFns kPlugins[] = {
    {"greedy", &plugins::greedy::describe, &plugins::greedy::make_hanpang,
     &plugins::greedy::make_icebreaking},
    {"expectimax", &plugins::expectimax::describe, &plugins::expectimax::make_hanpang,
     &plugins::expectimax::make_icebreaking},
};

Params defaults(const PluginFns& p, GameKind g) { return testing::params_of(p.describe(), g); }

// An Icebreaking position after `plies` random moves on the board of `seed`.
icebreaking::Position random_ice_position(const icebreaking::Board& b, Rng& rng, int plies) {
  auto pos = icebreaking::Position::start(b);
  icebreaking::MoveList ml;
  for (int i = 0; i < plies && !pos.over(); ++i) {
    pos.moves(ml);
    pos.play(b, ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.size())))]);
  }
  return pos;
}

// Random moves until at most `left` ice cells remain (the game may end first).
icebreaking::Position random_ice_endgame(const icebreaking::Board& b, Rng& rng, int left) {
  auto pos = icebreaking::Position::start(b);
  icebreaking::MoveList ml;
  while (popcount(pos.ice) > left) {
    pos.moves(ml);
    pos.play(b, ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.size())))]);
  }
  return pos;
}

// Plain minimax over Position::play: the rest-of-game value for the side to move.
int brute_force(const icebreaking::Board& b, const icebreaking::Position& pos) {
  if (pos.over()) return 0;
  int best = -1000;
  icebreaking::MoveList ml;
  pos.moves(ml);
  for (int c : ml) {
    auto t = pos;
    const int g = t.play(b, c).gain;
    best = std::max(best, g - brute_force(b, t));
  }
  return best;
}

std::vector<int> hanpang_game(HanpangStrategy& st, std::uint64_t seed, std::uint64_t nodes,
                              int max_actions) {
  return testing::play_hanpang(st, seed, max_actions, testing::budget(nodes));
}

std::vector<int> ice_game(IcebreakingStrategy& a, IcebreakingStrategy& b, std::uint64_t seed,
                          std::uint64_t nodes) {
  return testing::play_ice(a, b, seed, testing::budget(nodes));
}

}  // namespace

TEST_CASE("icebreaking_eval: fast captures equal the engine's on random positions") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed);
    for (int plies = 0; plies < 70; plies += 3) {
      const auto pos = random_ice_position(b, rng, plies);
      for (u128 s = pos.ice; s;) {
        const int c = pop_lowest(s);
        const u128 fast = plugins::common::ice::captures(pos.ice, c);
        CHECK(fast == pos.captures(c));
        if (plugins::common::ice::cannot_split(pos.ice, c)) CHECK(pos.captures(c) == 0);
      }
    }
  }
}

TEST_CASE("icebreaking_eval: the articulation scan gives every move's gain and capture count") {
  plugins::common::ice::MoveScanner scanner;
  std::array<plugins::common::ice::MoveFacts, icebreaking::kIce> facts;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed + 100);
    for (int plies = 0; plies < 70; plies += 2) {
      const auto pos = random_ice_position(b, rng, plies);
      const int n = scanner.scan(b, pos.ice, facts.data());
      CHECK(n == popcount(pos.ice));
      u128 seen = 0;
      for (int i = 0; i < n; ++i) {
        const int c = facts[i].cell;
        seen |= bit128(c);
        auto t = pos;
        const auto r = t.play(b, c);
        CHECK(facts[i].gain == r.gain);
        CHECK(facts[i].captured == popcount(r.captured));
      }
      CHECK(seen == pos.ice);
      // The order the search's ties depend on: regions in the order of their lowest cell,
      // cells ascending within each (flood fills say which region a cell is in).
      std::vector<int> order;
      for (u128 rest = pos.ice; rest;) {
        u128 g = flood_fill<icebreaking::kStride>(bit128(lowest_bit(rest)), pos.ice);
        rest &= ~g;
        while (g) order.push_back(pop_lowest(g));
      }
      bool same_order = static_cast<int>(order.size()) == n;
      for (int i = 0; same_order && i < n; ++i) same_order = facts[i].cell == order[i];
      CHECK(same_order);
    }
  }
}

TEST_CASE("icebreaking_eval: the evaluation's terms are the plain ones, and evaluate their weighted sum") {
  using plugins::common::ice::EvalWeights;
  using plugins::common::ice::SearchKnowledge;
  // Every weight a multiple of 1/8 point (evaluate is then exact), and a set that is not (it
  // rounds the weighted sum in 1/256 points to the nearest 1/8, halves up).
  const EvalWeights exact{0.25, -0.5, 0.75, 0.5, 0.375, 3, -0.125, -0.25, 0.625, 0.125, 1.5, -0.875, 0.375};
  const EvalWeights odd{0.3, -0.41, 0.07, 0.53, 0.21, 2, -0.19, -0.33, 0.61, 0.011, 1.3, -0.77, -0.29};
  // Only the shipped terms (evaluate's light pass) and the parity-free cheap ones.
  const EvalWeights light{-0.5, 0, 0.25, 0.625, 0, 2, -0.375, 0, 0, 0, 0.75, 0, -0.625};
  // The safe parity only with at most 9 safe moves, the forced and hot terms (safe_max leaves
  // them be).
  const EvalWeights capped{0, 0, 0, 0.5, 0, 2, 0, 0, 0, 0, 0, 0, 0.75, 9, -0.375, 0.625};
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    SearchKnowledge plain(EvalWeights{0, 0, 0, 0, 0, 3}, 0), ke(exact, 0), ko(odd, 0), kl(light, 0),
        kc(capped, 0);
    plain.new_game(b), ke.new_game(b), ko.new_game(b), kl.new_game(b), kc.new_game(b);
    Rng rng(seed + 300);
    for (int plies = 0; plies < 75; plies += 3) {
      const auto pos = random_ice_position(b, rng, plies);
      // The plain terms: every move played by Position::play (flood fills).
      std::vector<int> gains;
      int quiet = 0, safe = 0, ncap = 0, threat = 0, best_cell = -1, best_gain = -1000, lose = 0;
      icebreaking::MoveList ml;
      pos.moves(ml);
      for (int c : ml) {
        auto t = pos;
        const auto r = t.play(b, c);
        gains.push_back(r.gain);
        safe += r.gain >= 0;
        if (r.gain < 0 && (lose == 0 || r.gain > lose)) lose = r.gain;  // the cheapest loss
        if (r.captured) ++ncap, threat = std::max(threat, b.sum(r.captured));
        else ++quiet;
        if (r.gain > best_gain) best_gain = r.gain, best_cell = c;  // the first in cell order
      }
      std::sort(gains.rbegin(), gains.rend());
      const int n = static_cast<int>(gains.size());
      int reply = 0;
      if (best_cell >= 0) {
        auto t = pos;
        t.play(b, best_cell);
        icebreaking::MoveList ml2;
        t.moves(ml2);
        if (ml2.size()) reply = -1000;  // the best gain, negative or not (0: no ice left)
        for (int c : ml2) {
          auto u = t;
          reply = std::max(reply, u.play(b, c).gain);
        }
      }
      const auto tm = plain.terms(pos.ice);
      CHECK(tm.tempo == std::max(n ? gains[0] : 0, 0));
      CHECK(tm.gain2 == (n >= 2 ? gains[1] : 0));
      CHECK(tm.gain3 == (n >= 3 ? gains[2] : 0));
      CHECK(tm.alt == (n >= 1 ? gains[0] : 0) - (n >= 2 ? gains[1] : 0) + (n >= 3 ? gains[2] : 0));
      CHECK(tm.parity == ((quiet & 1) ? 1 : -1));
      CHECK(tm.safe == ((safe & 1) ? 1 : -1));
      CHECK(tm.nsafe == safe);
      CHECK(tm.forced == -lose * ((safe & 1) ? 1 : -1));
      // The hot term: the gains above 0, best first, in turn (gains is sorted best first).
      int hot = 0;
      for (int i = 0; i < n && gains[i] > 0; ++i) hot += (i & 1) ? -gains[i] : gains[i];
      CHECK(tm.hot == hot);
      CHECK(tm.ncap == ncap);
      CHECK(tm.threat == threat);
      CHECK(tm.odd == ((n & 1) ? 1 : -1));
      CHECK(tm.reply == reply);
      CHECK(tm.pool == plugins::common::ice::alternating_sum(b, pos.ice));
      CHECK(tm.plus == plugins::common::ice::alternating_plus(b, pos.ice));
      const auto weighted = [&](const EvalWeights& w, const plugins::common::ice::EvalTerms& t) {
        auto f = [](double x) { return static_cast<int>(std::lround(x * 256)); };
        return f(w.pool) * t.pool + f(w.threat) * t.threat + f(w.plus) * t.plus + f(w.tempo) * t.tempo +
               f(w.alt) * t.alt + f(w.parity) * t.parity + f(w.gain2) * t.gain2 + f(w.gain3) * t.gain3 +
               f(w.ncap) * t.ncap + f(w.odd) * t.odd + f(w.reply) * t.reply + f(w.safe) * t.safe +
               f(w.forced) * t.forced + f(w.hot) * t.hot;
      };
      const auto te = ke.terms(pos.ice);
      CHECK(ke.evaluate(pos.ice) * 32 == weighted(exact, te));
      CHECK(kl.evaluate(pos.ice) * 32 == weighted(light, kl.terms(pos.ice)));
      auto tc = kc.terms(pos.ice);
      if (safe > 9) tc.safe = 0;  // beyond safe_max the parity is not counted
      CHECK(kc.evaluate(pos.ice) * 32 == weighted(capped, tc));
      const int wo = weighted(odd, ko.terms(pos.ice));
      CHECK(ko.evaluate(pos.ice) == static_cast<int>(std::floor((wo + 16) / 32.0)));
    }
  }
}

TEST_CASE("icebreaking_eval: the evaluation cache gives the uncached value, board by board") {
  using plugins::common::ice::EvalWeights;
  using plugins::common::ice::SearchKnowledge;
  // One knowledge through many boards (new_game between them), as an agent playing game after
  // game uses it. Each board is followed by its mirror in value (the same holes, every score
  // negated), so the same ice sets come back on a board where they are worth something else: a
  // cache that outlived its board would answer with the last board's values.
  const EvalWeights w{-0.053, 0, -0.015, 0.497, 0, 2, 0.017, 0, 0, 0, 0.025, 0, 0.41};
  SearchKnowledge cached(w, 0), fresh(w, 0);
  int revisits = 0, differ = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    auto mirror = b;
    for (int c = 0; c < icebreaking::kSize * icebreaking::kStride; ++c)
      if ((b.ice() >> c) & 1) mirror.set(c, false, -b.score[c]);
    SearchKnowledge first(w, 0);  // the board itself, for the mirror's values to differ from
    first.new_game(b);
    const icebreaking::Board* boards[] = {&b, &mirror};
    for (const auto* board : boards) {
      cached.new_game(*board), fresh.new_game(*board);
      for (int round = 0; round < 2; ++round) {  // the second round's sets are all in the cache
        Rng rng(seed * 31 + 7);
        for (int plies = 0; plies < 70; plies += 2) {
          const auto pos = random_ice_position(b, rng, plies);
          if (!pos.ice) continue;
          const int v = cached.evaluate(pos.ice);
          CHECK(v == fresh.evaluate_uncached(pos.ice));
          revisits += round;
          if (board == &mirror && round == 0) differ += first.evaluate_uncached(pos.ice) != v;
        }
      }
    }
  }
  CHECK(revisits > 300);
  CHECK(differ > 100);
}

TEST_CASE("icebreaking_eval: a tapered evaluation weighs tempo and safe by the cells left") {
  using plugins::common::ice::EvalWeights;
  using plugins::common::ice::SearchKnowledge;
  // The submit's weights, tapered from 50 cells (0.497, 0.41) to 30 (0.25, 0.75).
  EvalWeights w{-0.053, 0, -0.015, 0.497, 0, 2, 0.017, 0, 0, 0, 0.025, 0, 0.41};
  EvalWeights tapered = w;
  tapered.taper_at = 50, tapered.taper_to = 30, tapered.tempo_end = 0.25, tapered.safe_end = 0.75;
  // Not tapered (taper_at 0): the _end weights change nothing.
  EvalWeights ignored = w;
  ignored.tempo_end = 1.5, ignored.safe_end = -1;
  SearchKnowledge plain(w, 0), kt(tapered, 0), ki(ignored, 0);
  const auto f = [](double x) { return static_cast<int>(std::lround(x * 256)); };
  int middle = 0, end = 0, between = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    plain.new_game(b), kt.new_game(b), ki.new_game(b);
    Rng rng(seed * 5 + 1);
    for (int plies = 0; plies < 72; plies += 3) {
      const auto pos = random_ice_position(b, rng, plies);
      if (!pos.ice) continue;
      const int n = popcount(pos.ice);
      const double t = n >= 50 ? 1.0 : n <= 30 ? 0.0 : (n - 30) / 20.0;
      const auto tm = kt.terms(pos.ice);
      const int fine = f(w.pool) * tm.pool + f(w.plus) * tm.plus + f(w.parity) * tm.parity +
                       f(w.odd) * tm.odd + f(t * 0.497 + (1 - t) * 0.25) * tm.tempo +
                       f(t * 0.41 + (1 - t) * 0.75) * tm.safe;
      CHECK(kt.evaluate(pos.ice) == static_cast<int>(std::floor((fine + 16) / 32.0)));
      CHECK(ki.evaluate(pos.ice) == plain.evaluate(pos.ice));
      if (n >= 50) CHECK(kt.evaluate(pos.ice) == plain.evaluate(pos.ice));
      middle += n >= 50, end += n <= 30, between += n > 30 && n < 50;
    }
  }
  CHECK(middle > 20);
  CHECK(end > 20);
  CHECK(between > 20);
}

TEST_CASE("icebreaking_eval: alternating sum of a hand-made pool") {
  icebreaking::Board b;
  for (int c = 0; c < 81; ++c) b.set(icebreaking::cell(c / 9, c % 9), true, 0);
  // Cells 2, 2, 1, -1, -2: mover takes 2 and 1 and -2; the other 2 and -1 -> 2+1-2 - (2-1) = 0.
  const int vals[5] = {2, 2, 1, -1, -2};
  u128 s = 0;
  for (int i = 0; i < 5; ++i) {
    b.set(icebreaking::cell(i, 0), false, vals[i]);
    s |= bit128(icebreaking::cell(i, 0));
  }
  CHECK(plugins::common::ice::alternating_sum(b, s) == 0);
  s &= ~bit128(icebreaking::cell(4, 0));  // 2 2 1 -1: 2 + 1 - 2 + 1 = 2
  CHECK(plugins::common::ice::alternating_sum(b, s) == 2);
}

TEST_CASE("icebreaking_eval: all_small_regions and the scan's pool cells agree with flood fills") {
  plugins::common::ice::MoveScanner scanner;
  std::array<plugins::common::ice::MoveFacts, icebreaking::kIce> facts;
  int all_small = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed * 13);
    for (int left : {40, 30, 20, 14, 10, 6}) {
      const auto pos = random_ice_endgame(b, rng, left);
      u128 small = 0, rest = pos.ice;
      bool every = true;
      while (rest) {
        const u128 g = flood_fill<icebreaking::kStride>(bit128(lowest_bit(rest)), pos.ice);
        rest &= ~g;
        if (popcount(g) <= 3) small |= g;
        else every = false;
      }
      scanner.scan(b, pos.ice, facts.data());
      CHECK(scanner.small() == small);
      CHECK(plugins::common::ice::all_small_regions(pos.ice) == every);
      all_small += every;
    }
  }
  CHECK(all_small >= 8);
}

TEST_CASE("expectimax icebreaking: the pool rules, ETC and LMR change no exact value") {
  plugins::expectimax::IceParams off, on, etc;
  off.tt_mb = on.tt_mb = etc.tt_mb = 1;
  on.pool = etc.pool = true;
  etc.etc_depth = 3;
  etc.lmr_after = 2;  // late move reductions never touch an exact node
  plugins::expectimax::IceSearch plain(off), pooled(on), cutoffs(etc);
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    plain.new_game(b);
    pooled.new_game(b);
    cutoffs.new_game(b);
    Rng rng(seed * 11);
    const auto pos = random_ice_endgame(b, rng, 12 + static_cast<int>(seed % 6));
    if (pos.over()) continue;
    const int truth = plain.exact_value(pos.ice);
    CHECK(pooled.exact_value(pos.ice) == truth);
    // ETC after a shallower search filled the table with bounds, then to the end.
    SearchLimits shallow;
    shallow.node_budget = 3000;
    cutoffs.run(pos.ice, 0, shallow, nullptr);
    CHECK(cutoffs.exact_value(pos.ice) == truth);
    if (popcount(pos.ice) <= 9) CHECK(truth == brute_force(b, pos) * plugins::expectimax::IceSearch::kUnit);
    // The root search with the pool rules plays a move that keeps the value.
    SearchLimits lim;
    const auto r = pooled.run(pos.ice, -1000, lim, nullptr);
    CHECK(r.exact);
    CHECK(r.value == truth);
    const auto e = cutoffs.run(pos.ice, -1000, lim, nullptr);
    CHECK(e.exact);
    CHECK(e.value == truth);
    ++checked;
  }
  CHECK(checked >= 30);
}

TEST_CASE("expectimax icebreaking: futility at depth 1 changes no value, and prunes") {
  using plugins::common::ice::EvalWeights;
  using plugins::common::ice::SearchKnowledge;
  using Search = plugins::expectimax::Expectiminimax<SearchKnowledge>;
  // The submit's evaluation (configs/icebreaking/submit.toml).
  plugins::expectimax::IceParams submit;
  submit.w_tempo = 0.497, submit.w_safe = 0.41, submit.w_parity = 0.017, submit.w_odd = 0.025;
  submit.w_pool = -0.053, submit.w_plus = -0.015;
  const EvalWeights w = plugins::expectimax::IceSearch::weights(submit);
  // A weight without a floor (the best gain weighed below 0): no move is ever futile.
  EvalWeights unbounded = w;
  unbounded.tempo = -0.25;
  std::uint64_t nodes_on = 0, nodes_off = 0;
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed * 17 + 5);
    for (int left : {50, 36, 24, 12}) {
      const auto pos = random_ice_endgame(b, rng, left);
      if (pos.over()) continue;
      const int cells = popcount(pos.ice);
      for (int depth : {1, 2, 3, 4, cells <= 14 ? cells : 5}) {
        Search::Settings off;
        off.tt_mb = 1, off.pvs = true, off.max_depth = depth;
        Search::Settings on = off;
        on.futility = true;
        Search a(off, w, 0, true), c(on, w, 0, true);
        Search u(on, unbounded, 0, true), v(off, unbounded, 0, true);
        for (Search* x : {&a, &c, &u, &v}) x->knowledge().new_game(b);
        SearchLimits none;
        const auto ra = a.run(pos.ice, -1000, none, nullptr);
        const auto rc = c.run(pos.ice, -1000, none, nullptr);
        CHECK(ra.depth == rc.depth);
        CHECK(ra.value == rc.value);
        // The same tree where no floor is known.
        const auto ru = u.run(pos.ice, -1000, none, nullptr);
        const auto rv = v.run(pos.ice, -1000, none, nullptr);
        CHECK(ru.value == rv.value);
        CHECK(ru.nodes == rv.nodes);
        CHECK(ru.move == rv.move);
        if (depth >= 2 && depth < cells) nodes_on += rc.nodes, nodes_off += ra.nodes;
        ++checked;
      }
    }
  }
  CHECK(checked >= 200);
  // It prunes: the same depths in clearly fewer nodes.
  CHECK(nodes_on * 10 < nodes_off * 9);
  MESSAGE("futility: " << nodes_on << " nodes against " << nodes_off);
}

TEST_CASE("expectimax icebreaking: ProbCut keeps exact values exact, and prunes heuristic ones") {
  plugins::expectimax::IceParams plain;
  plain.tt_mb = 1, plain.pool = true, plain.futility = true;
  plain.w_tempo = 0.497, plain.w_safe = 0.41, plain.w_parity = 0.017, plain.w_odd = 0.025;
  plain.w_pool = -0.053, plain.w_plus = -0.015;
  plugins::expectimax::IceParams cut = plain;
  cut.probcut_depth = 3, cut.probcut_reduce = 2, cut.probcut_margin = 0;
  // To the end: ProbCut never acts at an exact node, so the values to the end stay exact (the
  // shallower iterations before them may differ).
  {
    plugins::expectimax::IceSearch a(plain), c(cut);
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      const auto b = icebreaking::Board::from_seed(seed);
      a.new_game(b);
      c.new_game(b);
      Rng rng(seed * 13 + 1);
      const auto pos = random_ice_endgame(b, rng, 12 + static_cast<int>(seed % 8));
      if (pos.over()) continue;
      CHECK(c.exact_value(pos.ice) == a.exact_value(pos.ice));
      SearchLimits lim;
      const auto ra = a.run(pos.ice, pos.margin(), lim, nullptr);
      const auto rc = c.run(pos.ice, pos.margin(), lim, nullptr);
      CHECK(rc.exact);
      // The same result: a win, a draw or a loss (the solve's window bounds the values only).
      const int t = -pos.margin() * plugins::expectimax::IceSearch::kUnit;
      CHECK((rc.value > t) == (ra.value > t));
      CHECK((rc.value < t) == (ra.value < t));
      ++checked;
    }
    CHECK(checked >= 25);
  }
  // To a fixed depth in the middle game: far fewer nodes, mostly the same move.
  using Search = plugins::expectimax::Expectiminimax<plugins::common::ice::SearchKnowledge>;
  const auto w = plugins::expectimax::IceSearch::weights(plain);
  std::uint64_t nodes_plain = 0, nodes_cut = 0;
  int same = 0, n = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed * 7 + 3);
    for (int left : {56, 44}) {
      const auto pos = random_ice_endgame(b, rng, left);
      if (pos.over()) continue;
      Search::Settings off;
      off.tt_mb = 4, off.pvs = true, off.futility = true, off.max_depth = 5;
      Search::Settings on = off;
      on.probcut_depth = 3, on.probcut_reduce = 2, on.probcut_margin = 0;
      Search a(off, w, 0, true), c(on, w, 0, true);
      a.knowledge().new_game(b);
      c.knowledge().new_game(b);
      const auto ra = a.run(pos.ice, pos.margin(), SearchLimits{}, nullptr);
      const auto rc = c.run(pos.ice, pos.margin(), SearchLimits{}, nullptr);
      CHECK(rc.depth == ra.depth);
      nodes_plain += ra.nodes, nodes_cut += rc.nodes;
      same += ra.move == rc.move;
      ++n;
    }
  }
  CHECK(n >= 20);
  CHECK(nodes_cut * 3 < nodes_plain);
  CHECK(same * 4 >= n * 3);
  MESSAGE("ProbCut: " << nodes_cut << " nodes against " << nodes_plain << ", the same move in "
                      << same << " of " << n);
}

TEST_CASE("expectimax icebreaking: the exact solver equals plain minimax on small endgames") {
  plugins::expectimax::IceParams p;
  p.tt_mb = 1;
  plugins::expectimax::IceSearch search(p);
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    search.new_game(b);
    Rng rng(seed * 7);
    const auto pos = random_ice_endgame(b, rng, 7 + static_cast<int>(seed % 4));
    if (pos.over()) continue;
    const int truth = brute_force(b, pos);
    CHECK(search.exact_value(pos.ice) == truth * plugins::expectimax::IceSearch::kUnit);
    // And the root search at full depth agrees and plays a move achieving it.
    SearchLimits lim;
    const auto r = search.run(pos.ice, -1000, lim, nullptr);
    CHECK(r.exact);
    CHECK(r.value == truth * plugins::expectimax::IceSearch::kUnit);
    auto t = pos;
    const int g = t.play(b, r.move).gain;
    CHECK(g - brute_force(b, t) == truth);
    // The win/draw/loss solve (margins around the truth) keeps the best achievable outcome.
    for (int margin : {-truth - 1, -truth, -truth + 1}) {
      const auto w = search.run(pos.ice, margin, lim, nullptr);
      auto u = pos;
      const int after = u.play(b, w.move).gain - brute_force(b, u) + margin;
      const int best_outcome = (truth + margin > 0) - (truth + margin < 0);
      CHECK((after > 0) - (after < 0) == best_outcome);
    }
    ++checked;
  }
  CHECK(checked >= 20);
}

TEST_CASE("conformance: every plugin plays only legal Icebreaking moves on random positions") {
  for (const auto& p : kPlugins) {
    CAPTURE(p.name);
    auto st = p.icebreaking(defaults(p, GameKind::icebreaking));
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const auto b = icebreaking::Board::from_seed(seed);
      st->new_game(b, icebreaking::A, seed);
      Rng rng(seed * 3);
      for (int plies = 0; plies < 72; plies += 7) {
        const auto pos = random_ice_position(b, rng, plies);
        if (pos.over()) break;
        SearchLimits lim;
        lim.node_budget = 3000;
        BestMove best;
        const int c = st->choose(b, pos, lim, best);
        CHECK(pos.legal(c));
        CHECK(pos.legal(best.get()));
      }
    }
  }
}

TEST_CASE("conformance: every plugin plays only legal Hanpang moves on random boards") {
  for (const auto& p : kPlugins) {
    CAPTURE(p.name);
    auto st = p.hanpang(defaults(p, GameKind::hanpang));
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      st->new_game(seed);
      hanpang::RowSource rows(seed);
      Rng rng(seed);
      hanpang::State s;
      const int height = 1 + static_cast<int>(seed % 14);
      for (int i = 0; i < height; ++i) s.push_row(rows.next());
      for (int k = 0; k < 5 && !s.over(); ++k) {
        SearchLimits lim;
        lim.node_budget = 2000;
        BestMove best;
        const int c = st->choose(s, lim, best);
        REQUIRE(c >= 0);
        CHECK(s.colour_at(c) != 0);
        CHECK(s.colour_at(best.get()) != 0);
        s.play(c);
        if (!s.over()) s.push_row(rows.next());
      }
    }
  }
}

TEST_CASE("conformance: the same seed and node budget replay the same game") {
  for (const auto& p : kPlugins) {
    CAPTURE(p.name);
    {
      auto a = p.hanpang(defaults(p, GameKind::hanpang));
      auto b = p.hanpang(defaults(p, GameKind::hanpang));
      CHECK(hanpang_game(*a, 5, 3000, 40) == hanpang_game(*b, 5, 3000, 40));
    }
    {
      auto a1 = p.icebreaking(defaults(p, GameKind::icebreaking));
      auto b1 = p.icebreaking(defaults(p, GameKind::icebreaking));
      auto a2 = p.icebreaking(defaults(p, GameKind::icebreaking));
      auto b2 = p.icebreaking(defaults(p, GameKind::icebreaking));
      CHECK(ice_game(*a1, *b1, 9, 20000) == ice_game(*a2, *b2, 9, 20000));
    }
  }
}

TEST_CASE("conformance: searches return within their deadline") {
  using namespace std::chrono;
  for (const auto& p : kPlugins) {
    CAPTURE(p.name);
    auto ice = p.icebreaking(defaults(p, GameKind::icebreaking));
    const auto b = icebreaking::Board::from_seed(3);
    ice->new_game(b, icebreaking::A, 3);
    const auto pos = icebreaking::Position::start(b);
    SearchLimits lim;
    lim.deadline = Deadline::in(milliseconds(30), milliseconds(60));
    BestMove best;
    auto t0 = steady_clock::now();
    CHECK(pos.legal(ice->choose(b, pos, lim, best)));
    CHECK(duration_cast<milliseconds>(steady_clock::now() - t0).count() < 60 + 40);

    auto han = p.hanpang(defaults(p, GameKind::hanpang));
    han->new_game(3);
    hanpang::RowSource rows(3);
    hanpang::State s;
    for (int i = 0; i < 12; ++i) s.push_row(rows.next());
    lim.deadline = Deadline::in(milliseconds(20), milliseconds(40));
    t0 = steady_clock::now();
    CHECK(s.colour_at(han->choose(s, lim, best)) != 0);
    CHECK(duration_cast<milliseconds>(steady_clock::now() - t0).count() < 40 + 40);
  }
}

TEST_CASE("greedy hanpang: never an overflowing move when a safe one exists") {
  int tested = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    hanpang::RowSource rows(seed);
    hanpang::State s;
    for (int i = 0; i < 15; ++i) s.push_row(rows.next());  // full board: most moves overflow
    hanpang::GroupList gl;
    s.groups(gl);
    bool any_safe = false, any_unsafe = false;
    int largest_safe = 0;
    for (const auto& g : gl) {
      const bool safe = !s.overflows(g.cells);
      any_safe |= safe;
      any_unsafe |= !safe;
      if (safe) largest_safe = std::max(largest_safe, g.size);
    }
    for (bool flat : {true, false}) {
      const int c = plugins::greedy::hanpang_move(s, flat);
      REQUIRE(c >= 0);
      const u128 g = s.group_at(c);
      if (any_safe) {
        CHECK_FALSE(s.overflows(g));
        CHECK(popcount(g) == largest_safe);
      }
    }
    tested += any_safe && any_unsafe;
  }
  CHECK(tested >= 10);
}

TEST_CASE("greedy icebreaking: takes the largest immediate gain") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed);
    const auto pos = random_ice_position(b, rng, static_cast<int>(seed % 40));
    if (pos.over()) continue;
    const int best_gain = plugins::greedy::icebreaking_best_gain(b, pos);
    for (bool ties : {true, false}) {
      const int c = plugins::greedy::icebreaking_move(b, pos, ties);
      REQUIRE(pos.legal(c));
      auto t = pos;
      CHECK(t.play(b, c).gain == best_gain);
    }
  }
}

TEST_CASE("greedy icebreaking: the fast rule (common::ice::GreedyRule) is the plain one, move for move") {
  // The plugin plays GreedyRule; searches that model a greedy opponent use it too. The plain
  // icebreaking_move() (a flood fill per cell, a replay per tie) is the reference.
  plugins::common::ice::GreedyRule rule;
  int positions = 0, tie_decided = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed * 7 + 3);
    auto pos = icebreaking::Position::start(b);
    // Whole games: half the plies random, half greedy (the endgame has the odd ties).
    while (!pos.over()) {
      for (bool ties : {true, false}) {
        int gain = 0;
        const int fast = rule.move(b, pos.ice, ties, &gain);
        const int plain = plugins::greedy::icebreaking_move(b, pos, ties);
        CAPTURE(seed);
        CAPTURE(pos.ply);
        REQUIRE(fast == plain);
        CHECK(gain == plugins::greedy::icebreaking_best_gain(b, pos));
      }
      tie_decided += rule.move(b, pos.ice, true) != rule.move(b, pos.ice, false);
      CHECK(rule.best_gain(b, pos.ice) == plugins::greedy::icebreaking_best_gain(b, pos));
      ++positions;
      icebreaking::MoveList ml;
      pos.moves(ml);
      const int c = rng.below(2) ? rule.move(b, pos.ice, true) : ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.size())))];
      pos.play(b, c);
    }
  }
  CHECK(positions > 4000);
  CHECK(tie_decided > 300);  // the reply rule really was exercised
}

TEST_CASE("expectimax icebreaking: the opponent model — greedy opponents get the model beam, others alpha-beta") {
  // Plays B against an A that moves `a_moves` (greedy's, or the last cell), then asks B for a
  // move on a node budget with the given params; returns it.
  const auto b = icebreaking::Board::from_seed(11);
  const PluginFns& ex = kPlugins[1];
  auto play_b = [&](bool a_greedy, bool model) {
    Params p = defaults(ex, GameKind::icebreaking);
    p.set("model", model ? 1.0 : 0.0);
    auto st = ex.icebreaking(p);
    st->new_game(b, icebreaking::B, 1);
    plugins::common::ice::GreedyRule rule;
    auto pos = icebreaking::Position::start(b);
    SearchLimits lim;
    lim.node_budget = 5000;
    for (int turn = 0; turn < 3; ++turn) {
      int highest = 0;  // not what greedy plays at the start (it breaks ties to the lowest cell)
      for (u128 t = pos.ice; t;) highest = pop_lowest(t);
      const int a = a_greedy ? rule.move(b, pos.ice, true) : highest;
      pos.play(b, a);
      st->observe(pos, a);
      if (turn == 2) break;
      BestMove best;
      const int c = st->choose(b, pos, lim, best);
      pos.play(b, c);
      st->observe(pos, c);
    }
    BestMove best;
    return std::pair{st->choose(b, pos, lim, best), pos};
  };
  // A greedy opponent (3 moves seen, model_after = 2): the move is the model beam's.
  {
    const auto [c, pos] = play_b(true, true);
    plugins::common::ice::ModelBeam beam(plugins::common::ice::ModelBeamConfig{});
    SearchLimits lim;
    lim.node_budget = 5000;
    BestMove best;
    CHECK(c == beam.choose(b, pos, lim, best));
  }
  // An opponent that is not greedy: the same move as with the model switched off (alpha-beta).
  {
    const auto [c, pos] = play_b(false, true);
    const auto [c_off, pos_off] = play_b(false, false);
    CHECK(pos == pos_off);
    CHECK(c == c_off);
  }
  // And against greedy the model plays differently from alpha-beta on this board, so the checks
  // above tell the two apart (if they did not, this test could not fail).
  const auto [c_model, p1] = play_b(true, true);
  const auto [c_ab, p2] = play_b(true, false);
  CHECK((c_model != c_ab || !(p1 == p2)));
}

TEST_CASE("expectimax icebreaking: model_evidence — only telling greedy matches earn the model") {
  // B plays against a greedy A on a node budget. A match is telling where B's search expected
  // another reply. Counted here outside the plugin (an IceSearch with the plugin's parameters,
  // the same moves, so the same table): the A move at which the second telling match comes.
  const auto b = icebreaking::Board::from_seed(23);
  const PluginFns& ex = kPlugins[1];
  SearchLimits lim;
  lim.node_budget = 4000;
  plugins::common::ice::GreedyRule rule;
  int second = -1, matches = 0;  // A's moves up to the second telling one; all of them
  {
    const auto cfg =
        plugins::expectimax::icebreaking_table().read(defaults(ex, GameKind::icebreaking));
    plugins::expectimax::IceSearch search(cfg.search);
    search.new_game(b);
    auto pos = icebreaking::Position::start(b);
    int told = 0, expected = -1;
    while (!pos.over() && second < 0) {
      const int a = rule.move(b, pos.ice, true);
      ++matches;
      if (expected >= 0 && expected != a && ++told == 2) second = matches;
      pos.play(b, a);
      if (pos.over()) break;
      const auto r = search.run(pos.ice, pos.margin(), lim, nullptr);
      pos.play(b, r.move);
      expected = search.expected_move(pos.ice);
    }
  }
  INFO("A's second telling move is its move " << second);
  REQUIRE(second > 2);  // some plain matches came first (else the checks below prove nothing)
  // B's moves after A's first `turns` moves with the given parameters, and the last position.
  auto play_b = [&](int turns, bool model, int evidence) {
    Params p = defaults(ex, GameKind::icebreaking);
    p.set("model", model ? 1.0 : 0.0);
    p.set("model_evidence", static_cast<double>(evidence));
    auto st = ex.icebreaking(p);
    st->new_game(b, icebreaking::B, 1);
    auto pos = icebreaking::Position::start(b);
    std::vector<int> moves;
    for (int turn = 0; turn < turns; ++turn) {
      const int a = rule.move(b, pos.ice, true);
      pos.play(b, a);
      st->observe(pos, a);
      BestMove best;
      const int c = st->choose(b, pos, lim, best);
      moves.push_back(c);
      if (turn + 1 == turns) break;
      pos.play(b, c);
      st->observe(pos, c);
    }
    return std::pair{moves, pos};
  };
  const auto [off, pos_off] = play_b(second, false, 0);
  // One telling match short: alpha-beta all along, move for move as with the model off.
  const auto [short_of, pos_short] = play_b(second, true, 3);
  CHECK(short_of == off);
  // Two asked: alpha-beta until the second telling match, then the model beam.
  const auto [enough, pos_enough] = play_b(second, true, 2);
  CHECK(pos_enough == pos_off);
  CHECK(std::equal(off.begin(), off.end() - 1, enough.begin()));
  plugins::common::ice::ModelBeam beam(plugins::common::ice::ModelBeamConfig{});
  BestMove best;
  const int beam_move = beam.choose(b, pos_enough, lim, best);
  CHECK(enough.back() == beam_move);
  CHECK(beam_move != off.back());  // the two are told apart here (else this could not fail)
}

TEST_CASE("expectimax icebreaking: swindle — a solved draw or loss is kept, with traps set") {
  // Random endgames of 14-19 cells, each played from a margin that makes it an exact draw and
  // one point worse (a loss). The swindle's move must keep the result; where it differs from the
  // plain solve's move, some reply to it must be a mistake (checked here by exact values alone).
  constexpr int kU = plugins::expectimax::IceSearch::kUnit;
  plugins::expectimax::IceParams p;
  p.tt_mb = 4;
  p.solve_at = 72;
  plugins::expectimax::IceParams q = p;
  q.swindle = 4;
  plugins::expectimax::IceSearch plain(p), swindler(q), judge(p);
  int checked = 0, differed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    Rng rng(seed * 13);
    const auto pos = random_ice_endgame(b, rng, 14 + static_cast<int>(seed % 6));
    if (pos.over() || popcount(pos.ice) < 4) continue;
    judge.new_game(b);
    const int truth = judge.exact_value(pos.ice) / kU;  // the rest, side to move's view
    for (const int margin : {-truth, -truth - 1}) {     // an exact draw, then a loss by one
      plain.new_game(b);
      swindler.new_game(b);
      SearchLimits lim;
      const auto a = plain.run(pos.ice, margin, lim, nullptr);
      const auto s = swindler.run(pos.ice, margin, lim, nullptr);
      REQUIRE(pos.legal(s.move));
      // The final margin with perfect play after `move` from `at` (the mover `ahead`).
      auto final_after = [&](const icebreaking::Position& at, int ahead, int move) {
        auto next = at;
        const int g = next.play(b, move).gain;
        return ahead + g - (next.over() ? 0 : judge.exact_value(next.ice) / kU);
      };
      const int best = final_after(pos, margin, a.move);
      CHECK(best == (margin == -truth ? 0 : -1));
      // The swindle keeps the result: the draw, or a loss (by any margin: only the result counts).
      const int kept = final_after(pos, margin, s.move);
      CHECK((best == 0 ? kept == 0 : kept < 0));
      ++checked;
      if (s.move == a.move) continue;
      ++differed;
      // A trap: some reply after the swindle's move gives us a better result (a win, a draw).
      auto next = pos;
      const int g = next.play(b, s.move).gain;
      bool trap = false;
      for (int r = 0; r < icebreaking::kSize * icebreaking::kStride && !trap; ++r)
        if (next.legal(r)) trap = -final_after(next, -(margin + g), r) >= (best == 0 ? 1 : 0);
      CHECK(trap);
    }
  }
  CHECK(checked >= 60);
  CHECK(differed >= 5);  // it changes moves (else the checks above could not fail)
}

TEST_CASE("expectimax icebreaking: a hand-solved strip (a capture that loses, a cell that wins)") {
  // A 1x4 strip of ice x0..x3 scored 2 0 0 -2, every other cell a hole. Worked by hand:
  //   x1 captures x0 (+2) but leaves {x2, x3}, worth 2 to the opponent: 0 in all;
  //   x0 (+2) leaves {x1, x2, x3}, worth -2 to the opponent: 4 in all, the unique best;
  //   x2 captures x3 (-2); x3 is -2 at once: both worse.
  icebreaking::Board b;
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) b.set(icebreaking::cell(r, c), true, 0);
  const int vals[4] = {2, 0, 0, -2};
  u128 s = 0;
  for (int i = 0; i < 4; ++i) {
    b.set(icebreaking::cell(4, i), false, vals[i]);
    s |= bit128(icebreaking::cell(4, i));
  }
  plugins::expectimax::IceParams p;
  p.tt_mb = 1;
  plugins::expectimax::IceSearch search(p);
  search.new_game(b);
  const auto r = search.run(s, -1000, SearchLimits{}, nullptr);
  CHECK(r.exact);
  CHECK(r.move == icebreaking::cell(4, 0));
  CHECK(r.value == 4 * plugins::expectimax::IceSearch::kUnit);
  CHECK(search.exact_value(s & ~bit128(icebreaking::cell(4, 0))) ==
        -2 * plugins::expectimax::IceSearch::kUnit);
}
