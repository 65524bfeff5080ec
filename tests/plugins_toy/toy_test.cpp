// A toy algorithm added once and played on both games (issue 11's last measure): flat_mc.hpp is
// written once over the Game concept; the only per-game lines are the two Strategy wrappers
// below, which build the game's model (HanpangGame, IcebreakingGame) for toy_choose. Played
// through tests/plugin_testing.hpp as the conformance suite plays every
// plugin: legal moves (and legal published moves) only, the node budget honoured, the same
// moves again from fresh instances on a budget, both Icebreaking sides, against greedy too.
#include <doctest/doctest.h>

#include <memory>

#include "../plugin_testing.hpp"
#include "flat_mc.hpp"
#include "greedy/plugin.hpp"
#include "tactica/game.hpp"
#include "tactica/search_budget.hpp"

using namespace tactica;

namespace {

std::uint64_t position_seed(std::uint64_t game_seed, int ply) {
  return game_seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(ply) * 7919 + 1;
}

// Both wrappers' choose: flat MC on game g from s, seeded by the game's seed and the ply.
template <class G>
int toy_choose(toy::FlatMc<G>& mc, const G& g, const typename G::State& s, std::uint64_t seed,
               int ply, const SearchLimits& limits, BestMove& best, SearchStats& stats) {
  SearchBudget budget(limits);
  Rng rng(position_seed(seed, ply));
  typename G::MoveList ml;
  g.moves(s, ml);
  const int c = g.cell(ml[mc.choose(g, s, rng, budget)]);
  best.publish(c);
  stats.nodes = budget.nodes();
  stats.depth = mc.rounds();
  return c;
}

class ToyHanpang final : public HanpangStrategy {
 public:
  explicit ToyHanpang(const toy::FlatMcConfig& c) : mc_(c) {}
  void new_game(std::uint64_t seed) override { seed_ = seed; }
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override {
    return toy_choose(mc_, HanpangGame{}, s, seed_, s.actions, limits, best, stats_);
  }
  SearchStats stats() const override { return stats_; }

 private:
  toy::FlatMc<HanpangGame> mc_;
  std::uint64_t seed_ = 0;
  SearchStats stats_;
};

class ToyIcebreaking final : public IcebreakingStrategy {
 public:
  explicit ToyIcebreaking(const toy::FlatMcConfig& c) : mc_(c) {}
  void new_game(const icebreaking::Board&, icebreaking::Player, std::uint64_t seed) override {
    seed_ = seed;
  }
  int choose(const icebreaking::Board& b, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override {
    return toy_choose(mc_, IcebreakingGame(b), pos, seed_, pos.ply, limits, best, stats_);
  }
  SearchStats stats() const override { return stats_; }

 private:
  toy::FlatMc<IcebreakingGame> mc_;
  std::uint64_t seed_ = 0;
  SearchStats stats_;
};

std::unique_ptr<IcebreakingStrategy> greedy_ice() {
  namespace g = plugins::greedy;
  return g::make_icebreaking(testing::params_of(g::describe(), GameKind::icebreaking));
}

}  // namespace

TEST_CASE("toy flat Monte Carlo, written once: Hanpang — legal moves, deterministic on a budget") {
  for (std::uint64_t seed : {3u, 17u}) {
    ToyHanpang a({}), b({});
    const auto first = testing::play_hanpang(a, seed, 40, testing::budget(1500));
    const auto again = testing::play_hanpang(b, seed, 40, testing::budget(1500));
    CHECK(first.size() >= 20);
    CHECK(first == again);
    ToyHanpang c({});
    const auto other = testing::play_hanpang(c, seed, 40, testing::budget(3000));
    CHECK(other != first);  // the budget is what decides how far it looks
  }
}

TEST_CASE("toy flat Monte Carlo, written once: Icebreaking — both sides, against itself and greedy") {
  ToyIcebreaking a({}), b({}), c({}), d({});
  const auto first = testing::play_ice(a, b, 5, testing::budget(1500));
  const auto again = testing::play_ice(c, d, 5, testing::budget(1500));
  CHECK(first.size() >= 20);
  CHECK(first == again);
  for (bool toy_first : {true, false}) {
    ToyIcebreaking t1({}), t2({});
    auto g1 = greedy_ice(), g2 = greedy_ice();
    const auto m1 = toy_first ? testing::play_ice(t1, *g1, 8, testing::budget(2000))
                              : testing::play_ice(*g1, t1, 8, testing::budget(2000));
    const auto m2 = toy_first ? testing::play_ice(t2, *g2, 8, testing::budget(2000))
                              : testing::play_ice(*g2, t2, 8, testing::budget(2000));
    CHECK(m1 == m2);
  }
}

TEST_CASE("toy flat Monte Carlo: the node budget is honoured, and rounds fill it") {
  const hanpang::State s = testing::rows_board(9, 9);
  const auto board = icebreaking::Board::from_seed(9);
  const auto pos = icebreaking::Position::start(board);
  for (std::uint64_t nodes : {300u, 5000u}) {
    CAPTURE(nodes);
    ToyHanpang h({});
    h.new_game(1);
    BestMove best;
    h.choose(s, testing::budget(nodes), best);
    CHECK(h.stats().nodes <= nodes);
    CHECK(h.stats().nodes > nodes / 2);
    ToyIcebreaking ice({});
    ice.new_game(board, icebreaking::A, 1);
    ice.choose(board, pos, testing::budget(nodes), best);
    CHECK(ice.stats().nodes <= nodes);
    CHECK(ice.stats().nodes > nodes / 2);
  }
  // Many rounds on a large budget; none on one too small for a single round (the first move).
  ToyHanpang h({});
  h.new_game(1);
  BestMove best;
  h.choose(s, testing::budget(200000), best);
  CHECK(h.stats().depth == 64);
  h.choose(s, testing::budget(10), best);
  CHECK(h.stats().depth == 0);
}
