// The mcts plugin: conformance for both games (legal moves on many random positions,
// deterministic replay on an iteration budget, answers within the deadline), the fast capture
// test against the rules engine, and MCTS-Solver proofs on small endgames.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <vector>

#include "../plugin_testing.hpp"
#include "mcts/strategies.hpp"
#include "mcts/plugin.hpp"

using namespace tactica;
namespace mcts = tactica::plugins::mcts;

namespace {

Params params(GameKind g, std::initializer_list<std::pair<const char*, double>> set = {}) {
  return testing::params_of(mcts::describe(), g, set);
}
using testing::budget;
using testing::play_hanpang;
using testing::play_ice;

// Exact result (+1 / 0 / -1 for the side to move) by plain minimax over the rules engine.
int reference_result(const icebreaking::Board& b, const icebreaking::Position& p) {
  std::function<int(const icebreaking::Position&)> value = [&](const icebreaking::Position& q) {
    if (q.over()) return q.margin();
    int best = -1000;
    icebreaking::MoveList ml;
    q.moves(ml);
    for (int c : ml) {
      auto r = q;
      r.play(b, c);
      best = std::max(best, -value(r));
    }
    return best;
  };
  const int v = value(p);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

// Random moves from the start of b's game until at most `cells` ice cells are left.
icebreaking::Position random_endgame(const icebreaking::Board& b, Rng& rng, int cells) {
  auto p = icebreaking::Position::start(b);
  while (popcount(p.ice) > cells) {
    icebreaking::MoveList ml;
    p.moves(ml);
    p.play(b, ml[static_cast<int>(rng.below(ml.count))]);
  }
  return p;
}

}  // namespace

TEST_CASE("mcts describes both games with in-range defaults") {
  const auto info = mcts::describe();
  CHECK(info.name == "mcts");
  CHECK(info.plays_hanpang);
  CHECK(info.plays_icebreaking);
  for (auto g : {GameKind::hanpang, GameKind::icebreaking})
    for (const auto& s : info.params(g)) {
      CHECK(s.default_value >= s.min);
      CHECK(s.default_value <= s.max);
    }
}

TEST_CASE("mcts hanpang: legal moves on many random positions") {
  auto st = mcts::make_hanpang(params(GameKind::hanpang));
  Rng rng(11);
  BestMove best;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    // A random position: random removals for a random number of actions.
    hanpang::RowSource rows(seed);
    hanpang::State s;
    s.push_row(rows.next());
    const int n = static_cast<int>(rng.below(25));
    for (int i = 0; i < n && !s.over(); ++i) {
      hanpang::GroupList gl;
      s.groups(gl);
      s.remove(gl[static_cast<int>(rng.below(gl.count))].cells);
      if (!s.over()) s.push_row(rows.next());
    }
    if (s.over()) continue;
    st->new_game(seed);
    const int c = st->choose(s, budget(60), best);
    REQUIRE(s.colour_at(c) != 0);
    CHECK(best.get() == c);
  }
}

TEST_CASE("mcts hanpang: never overflows when a safe move exists") {
  // Column 0 full to the top (15 tiles), the other columns low: only groups touching column 0
  // keep the game alive.
  hanpang::State s;
  for (int h = 0; h < hanpang::kRows; ++h) s.planes[h % 2] |= bit128(hanpang::cell(0, h));
  for (int c = 1; c < hanpang::kCols; ++c) s.planes[2] |= bit128(hanpang::cell(c, 0));
  auto st = mcts::make_hanpang(params(GameKind::hanpang));
  st->new_game(3);
  BestMove best;
  const int c = st->choose(s, budget(200), best);
  CHECK_FALSE(s.overflows(s.group_at(c)));
}

TEST_CASE("mcts hanpang: deterministic with a seed and an iteration budget") {
  auto a = mcts::make_hanpang(params(GameKind::hanpang));
  auto b = mcts::make_hanpang(params(GameKind::hanpang));
  CHECK(play_hanpang(*a, 5, 25, budget(80)) == play_hanpang(*b, 5, 25, budget(80)));
  // The same object replays the same game after new_game.
  CHECK(play_hanpang(*a, 6, 15, budget(80)) == play_hanpang(*a, 6, 15, budget(80)));
}

TEST_CASE("mcts hanpang: returns within the deadline") {
  auto st = mcts::make_hanpang(params(GameKind::hanpang));
  st->new_game(9);
  const hanpang::State s = testing::rows_board(9, 10);
  BestMove best;
  const auto t0 = std::chrono::steady_clock::now();
  const int c = st->choose(s, testing::deadline_ms(10, 20), best);
  const double ms = testing::ms_since(t0);
  CHECK(s.colour_at(c) != 0);
  CHECK(ms < 300);  // soft 10 ms: the bound only catches a search that ignores its deadline
  CHECK(st->stats().nodes > 0);
}

TEST_CASE("mcts icebreaking: fast captures agree with the rules engine") {
  Rng rng(3);
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    auto p = icebreaking::Position::start(b);
    while (!p.over()) {
      for (int c : bits{p.ice}) REQUIRE(tactica::plugins::common::ice::captures(p.ice, c) == p.captures(c));
      icebreaking::MoveList ml;
      p.moves(ml);
      const int c = ml[static_cast<int>(rng.below(ml.count))];
      auto q = p;
      tactica::plugins::common::ice::MctsKnowledge(b, {}).play(q, static_cast<std::int8_t>(c));
      p.play(b, c);
      REQUIRE(q == p);
    }
  }
}

TEST_CASE("mcts icebreaking: legal moves on many random positions") {
  auto st = mcts::make_icebreaking(params(GameKind::icebreaking));
  Rng rng(17);
  BestMove best;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    auto p = icebreaking::Position::start(b);
    const int n = static_cast<int>(rng.below(70));
    for (int i = 0; i < n && !p.over(); ++i) {
      icebreaking::MoveList ml;
      p.moves(ml);
      p.play(b, ml[static_cast<int>(rng.below(ml.count))]);
    }
    if (p.over()) continue;
    st->new_game(b, p.to_move, seed);
    const int c = st->choose(b, p, budget(150), best);
    REQUIRE(p.legal(c));
    CHECK(best.get() == c);
  }
}

TEST_CASE("mcts icebreaking: deterministic replay with tree reuse") {
  auto a1 = mcts::make_icebreaking(params(GameKind::icebreaking));
  auto b1 = mcts::make_icebreaking(params(GameKind::icebreaking, {{"reuse", 0}}));
  auto a2 = mcts::make_icebreaking(params(GameKind::icebreaking));
  auto b2 = mcts::make_icebreaking(params(GameKind::icebreaking, {{"reuse", 0}}));
  const auto m1 = play_ice(*a1, *b1, 4, budget(300));
  CHECK(m1 == play_ice(*a2, *b2, 4, budget(300)));
  CHECK(m1 == play_ice(*a1, *b1, 4, budget(300)));  // same objects, a new game
}

TEST_CASE("mcts icebreaking: returns within the deadline") {
  auto st = mcts::make_icebreaking(params(GameKind::icebreaking));
  const auto b = icebreaking::Board::from_seed(8);
  const auto p = icebreaking::Position::start(b);
  st->new_game(b, icebreaking::A, 8);
  BestMove best;
  const auto t0 = std::chrono::steady_clock::now();
  const int c = st->choose(b, p, testing::deadline_ms(20, 40), best);
  const double ms = testing::ms_since(t0);
  CHECK(p.legal(c));
  CHECK(ms < 300);  // soft 20 ms: the bound only catches a search that ignores its deadline
  CHECK(st->stats().nodes > 0);
}

TEST_CASE("mcts icebreaking: the exact solver agrees with plain minimax") {
  mcts::IcebreakingMcts st(mcts::IceConfig{});
  Rng rng(23);
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    const auto p = random_endgame(b, rng, 7);
    st.new_game(b, p.to_move, seed);
    CHECK(st.solve_exact(p, 1 << 30) == reference_result(b, p));
    ++checked;
  }
  CHECK(checked == 30);
}

TEST_CASE("mcts icebreaking: MCTS-Solver proves a won endgame and plays a winning move") {
  // Small endgames (8 ice cells) where the side to move wins, but not with every move. The
  // alpha-beta leaf solver is off, so the proof must come from the tree's backups.
  mcts::IceConfig cfg;
  cfg.leaf.solve_cells = 0;
  cfg.pool_nodes = 1 << 18;
  mcts::IcebreakingMcts st(cfg);
  Rng rng(31);
  int proved = 0;
  for (std::uint64_t seed = 1; seed <= 400 && proved < 3; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    const auto p = random_endgame(b, rng, 8);
    if (reference_result(b, p) != 1) continue;
    int losing = 0;
    for (int c : bits{p.ice}) {
      auto q = p;
      q.play(b, c);
      losing += reference_result(b, q) >= 0;  // the opponent does not lose after c
    }
    if (losing == 0) continue;
    st.new_game(b, p.to_move, seed);
    BestMove best;
    const int c = st.choose(b, p, budget(200000), best);
    INFO("visits " << st.root_visits() << " nodes " << st.stats().nodes);
    REQUIRE(st.root_proof_for_mover() == mcts::kWin);
    auto q = p;
    q.play(b, c);
    CHECK(reference_result(b, q) == -1);  // the opponent is lost after our move
    ++proved;
  }
  CHECK(proved == 3);
}
