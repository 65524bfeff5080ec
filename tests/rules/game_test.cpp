// The Game concept's two models (core/game.hpp) and the search-limits helper
// (core/search_budget.hpp): random games played through the models equal the same games played
// on the rules directly, the row sampler is the platform's, keys identify futures, and the budget
// stops exactly where it says.
#include <doctest/doctest.h>

#include <thread>

#include "tactica/game.hpp"
#include "tactica/search_budget.hpp"

namespace {

using namespace tactica;

// One random game through any Game, with the world's step taken by chance or by the same random
// policy for the opponent; returns the moves' protocol cells.
template <Game G>
std::vector<int> random_game(const G& g, typename G::State s, Rng& rng, int limit = 1000) {
  std::vector<int> cells;
  typename G::MoveList ml;
  while (!g.terminal(s) && static_cast<int>(cells.size()) < limit) {
    g.moves(s, ml);
    REQUIRE(ml.size() > 0);
    const typename G::Move m = ml[static_cast<int>(rng.below(static_cast<std::uint32_t>(ml.size())))];
    cells.push_back(g.cell(m));
    g.apply(s, m);
    if constexpr (ChanceGame<G>) g.step(s, g.sample(s, rng));
  }
  return cells;
}

}  // namespace

TEST_CASE("HanpangGame: a random game equals the rules' own, and sample is the platform's row") {
  const HanpangGame g;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    // The model's sampler draws exactly what RowSource draws from the same generator.
    Rng a(seed);
    hanpang::RowSource src(seed);
    for (int i = 0; i < 20; ++i) CHECK(g.sample(hanpang::State{}, a) == src.next());

    hanpang::RowSource rows(seed);
    hanpang::State start;
    start.push_row(rows.next());
    Rng pick(seed * 7 + 1), pick2(seed * 7 + 1);
    hanpang::RowSource rows2(seed);
    (void)rows2.next();
    // Through the model, with the rows of the seed as the world's steps.
    hanpang::State s = start;
    hanpang::GroupList gl;
    std::int64_t score = 0;
    while (!g.terminal(s)) {
      g.moves(s, gl);
      const auto& m = gl[static_cast<int>(pick.below(static_cast<std::uint32_t>(gl.size())))];
      score += g.apply(s, m);
      g.step(s, rows.next());
    }
    // Directly on the rules.
    hanpang::State t = start;
    while (!t.over()) {
      t.groups(gl);
      const int c = gl[static_cast<int>(pick2.below(static_cast<std::uint32_t>(gl.size())))].rep;
      t.play(c);
      if (!t.over()) t.push_row(rows2.next());
    }
    CHECK(s == t);
    CHECK(g.returns(s, 0) == static_cast<double>(score));
    CHECK(g.returns(s, 0) == static_cast<double>(t.score));
  }
}

TEST_CASE("HanpangGame: key tells boards and actions apart") {
  const HanpangGame g;
  hanpang::State s;
  hanpang::RowSource rows(3);
  for (int i = 0; i < 4; ++i) s.push_row(rows.next());
  hanpang::State t = s;
  CHECK(g.key(s) == g.key(t));
  t.score += 100;  // the score so far does not change the future
  CHECK(g.key(s) == g.key(t));
  t.actions += 1;  // the actions left do
  CHECK(g.key(s) != g.key(t));
  hanpang::GroupList gl;
  s.groups(gl);
  hanpang::State u = s;
  g.apply(u, gl[0]);
  CHECK(g.key(u) != g.key(s));
}

TEST_CASE("IcebreakingGame: a random game equals the rules' own; returns and keys") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const icebreaking::Board b = icebreaking::Board::from_seed(seed);
    const IcebreakingGame g(b);
    Rng rng(seed);
    const std::vector<int> cells = random_game(g, icebreaking::Position::start(b), rng);
    icebreaking::Position p = icebreaking::Position::start(b);
    for (int c : cells) {
      REQUIRE(p.legal(c));
      p.play(b, c);
    }
    CHECK(p.over());
    CHECK(g.returns(p, icebreaking::A) == p.total[0] - p.total[1]);
    CHECK(g.returns(p, icebreaking::B) == -(p.total[0] - p.total[1]));
  }
  // Two move orders reaching the same ice with the same side to move share a key (the rest of
  // the game is the same); the other side to move does not.
  const icebreaking::Board b = icebreaking::Board::from_seed(9);
  const IcebreakingGame g(b);
  icebreaking::Position s = icebreaking::Position::start(b);
  icebreaking::MoveList ml;
  s.moves(ml);
  // Pick two corner-ish cells whose taking captures nothing, in both orders.
  int x = -1, y = -1;
  for (int c : ml)
    if (!s.captures(c)) {
      if (x < 0) x = c;
      else if (y < 0 && !(neighbours<icebreaking::kStride>(bit128(x)) & bit128(c))) y = c;
    }
  REQUIRE(y >= 0);
  icebreaking::Position p1 = s, p2 = s;
  g.apply(p1, x), g.apply(p1, y);
  g.apply(p2, y), g.apply(p2, x);
  REQUIRE(p1.ice == p2.ice);  // neither order captured anything
  CHECK(p1.to_move == p2.to_move);
  CHECK(g.key(p1) == g.key(p2));
  icebreaking::Position p3 = p1;
  p3.to_move = icebreaking::other(p3.to_move);
  CHECK(g.key(p3) != g.key(p1));
}

TEST_CASE("SearchBudget: a node budget stops exactly and never reads the clock for decisions") {
  SearchLimits lim;
  lim.node_budget = 1000;
  SearchBudget b(lim, 300);  // checks the clock every 256 nodes
  int counted = 0;
  while (!b.count()) ++counted;
  CHECK(counted == 999);
  CHECK(b.nodes() == 1000);
  CHECK(b.stopped());
  CHECK_FALSE(b.may_start());
  CHECK(b.affordable(5.0) == 0.0);

  SearchBudget c(lim);
  c.count(400);
  CHECK(c.may_start());
  CHECK(c.affordable(5.0) == 600.0);
  CHECK_FALSE(c.count(599));
  CHECK(c.count(1));
}

TEST_CASE("SearchBudget: unlimited, soft and hard deadlines, the stop flag") {
  SearchLimits none;  // no budget, no deadline
  SearchBudget u(none);
  CHECK_FALSE(u.count(1'000'000));
  CHECK(u.may_start());
  CHECK(u.affordable(42.0) == 42.0);

  SearchLimits past;
  past.deadline = Deadline::in(std::chrono::microseconds(0), std::chrono::microseconds(0));
  SearchBudget h(past, 64);
  bool stopped = false;
  for (int i = 0; i < 63 && !stopped; ++i) stopped = h.count();
  CHECK_FALSE(stopped);  // the clock is read only every 64 nodes
  CHECK(h.count());      // ... and on the 64th it is past the hard limit
  CHECK_FALSE(h.may_start());

  SearchLimits soft;
  soft.deadline = Deadline::in(std::chrono::milliseconds(20), std::chrono::seconds(60));
  SearchBudget s(soft);
  CHECK(s.may_start());
  CHECK_FALSE(s.may_start(0.0));  // nothing may start once 0% of the soft time is reached
  s.count(2000);
  CHECK(s.affordable(1.0) >= 0.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(25));
  CHECK_FALSE(s.may_start());  // past the soft limit
  CHECK_FALSE(s.check());      // not past the hard one
  CHECK(s.affordable(1.0) == 0.0);

  std::atomic<bool> flag{false};
  SearchLimits flagged;
  flagged.deadline = Deadline::in(std::chrono::seconds(60), std::chrono::seconds(60));
  flagged.deadline.attach_stop_flag(&flag);
  SearchBudget f(flagged, 1);
  CHECK_FALSE(f.count());
  flag = true;
  CHECK(f.count());
}
