// The one MCTS (plugins/mcts/mcts.hpp) over two toy games that model the Game concept, so the
// algorithm is checked apart from Hanpang's and Icebreaking's knowledge: a chance world (a
// gamble whose expected value beats the safe move) and an opponent world (Nim: the solver's
// proofs, early stop and tree reuse).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "../plugin_testing.hpp"
#include "mcts/mcts.hpp"

using namespace tactica;
namespace mcts = tactica::plugins::mcts;

namespace {

struct SmallMoves {
  int items[3];
  int count = 0;
  int size() const { return count; }
  int operator[](int i) const { return items[i]; }
};

// What both toy games declare alike: a move is a small int, and is its own cell.
struct ToyGame {
  using Move = int;
  using MoveList = SmallMoves;
  int cell(Move m) const { return m; }
};

// What both toy games' knowledge declares alike: moves as refs, played through the game, flat
// priors.
template <class G>
struct ToyKnowledge {
  using Ref = std::int8_t;
  G g;
  Ref ref(int m) const { return static_cast<Ref>(m); }
  void play(typename G::State& s, Ref r) const { g.apply(s, r); }
  int cell(Ref r) const { return r; }
  template <class N>
  float priors(const typename G::State&, const SmallMoves&, int, N*) const { return 1.0f; }
};

// One player, `left` decisions: move 0 takes 1 point at once, move 1 a coin flip worth 0 or 5
// (the chance step after the move). Gambling every time is best (2.5 a decision on average).
struct Gamble : ToyGame {
  struct State {
    int left = 3, score = 0;
    bool pending = false;
    bool operator==(const State&) const = default;
  };
  using Outcome = int;
  static constexpr int kPlayers = 1;
  static constexpr World kWorld = World::chance;
  void moves(const State& s, MoveList& ml) const {
    ml.count = 0;
    if (s.left > 0) ml.items[ml.count++] = 0, ml.items[ml.count++] = 1;
  }
  int apply(State& s, Move m) const {
    --s.left;
    s.pending = m == 1;
    s.score += m == 0;
    return m == 0;
  }
  bool terminal(const State& s) const { return s.left == 0 && !s.pending; }
  int to_move(const State&) const { return 0; }
  double returns(const State& s, int) const { return s.score; }
  std::uint64_t key(const State& s) const { return static_cast<std::uint64_t>(s.left * 64 + s.score); }
  Outcome sample(const State&, Rng& rng) const { return 5 * static_cast<int>(rng.below(2)); }
  void step(State& s, Outcome o) const {
    if (s.pending) s.score += o, s.pending = false;
  }
};
static_assert(ChanceGame<Gamble>);

struct GambleKnowledge : ToyKnowledge<Gamble> {
  using Stat = double;
  int sample(const Gamble::State& s, Rng& rng) const { return g.sample(s, rng); }
  double terminal_value(const Gamble::State& s) const { return s.score; }
  // A pessimistic leaf: the safe move from here on, so the gamble must be found by sampling.
  double leaf(Gamble::State& s, int, Rng&) const { return s.score + s.left; }
  double rollout(Gamble::State& s, int d, Rng& r) const { return leaf(s, d, r); }
};

// Nim: take 1-3 stones, who takes the last one wins. The side to move wins iff stones % 4 != 0,
// by leaving a multiple of 4.
struct Nim : ToyGame {
  struct State {
    int stones = 0, to_move = 0, winner = -1;
    bool operator==(const State&) const = default;
  };
  static constexpr int kPlayers = 2;
  static constexpr World kWorld = World::opponent;
  void moves(const State& s, MoveList& ml) const {
    ml.count = 0;
    for (int k = 1; k <= 3 && k <= s.stones; ++k) ml.items[ml.count++] = k;
  }
  int apply(State& s, Move m) const {
    s.stones -= m;
    if (s.stones == 0) s.winner = s.to_move;
    s.to_move ^= 1;
    return 0;
  }
  bool terminal(const State& s) const { return s.stones == 0; }
  int to_move(const State& s) const { return s.to_move; }
  double returns(const State& s, int p) const { return s.winner < 0 ? 0 : s.winner == p ? 1 : -1; }
  std::uint64_t key(const State& s) const { return static_cast<std::uint64_t>(s.stones * 2 + s.to_move); }
};
static_assert(TwoPlayerGame<Nim>);

struct NimKnowledge : ToyKnowledge<Nim> {
  using Stat = float;
  struct LeafValue {
    double value = 0;
    bool proven = false;
    int sign = 0;
  };
  LeafValue leaf(const Nim::State&, int, Rng&) const { return LeafValue{0.5}; }
  double rollout(const Nim::State&, int, Rng&) const { return 0.5; }
};

mcts::UctParams uct(double fpu) {
  mcts::UctParams p;
  p.fpu = fpu;
  p.explore_plus = 1;
  p.chance_width = 32;
  return p;
}

}  // namespace

TEST_CASE("generic mcts, chance world: sampled outcomes find the better gamble") {
  const Gamble game;
  GambleKnowledge kn;
  mcts::Mcts<Gamble, GambleKnowledge> m(game, kn, uct(std::numeric_limits<double>::quiet_NaN()), 1 << 12, 1 << 12,
                                        false);
  BestMove best;
  const Gamble::State root;
  const std::int32_t b = m.search(root, testing::budget(4000), best, 7);
  REQUIRE(b >= 0);
  CHECK(m.cell(b) == 1);
  CHECK(best.get() == 1);
  CHECK(m.iterations() == 4000);
  // Each move keeps exactly chance_width sampled outcomes once visited often enough.
  CHECK(m.node(b).nchild == 32);
  // Its value is the gamble's three times over (7.5) up to the sampling of 32 coins per move.
  CHECK(m.mean(m.node(b)) > 4.5);
  CHECK(m.mean(m.node(b)) < 10.5);
  // The same seed searches the same tree.
  mcts::Mcts<Gamble, GambleKnowledge> again(game, kn, uct(std::numeric_limits<double>::quiet_NaN()), 1 << 12,
                                            1 << 12, false);
  const std::int32_t b2 = again.search(root, testing::budget(4000), best, 7);
  CHECK(again.node(b2).w == m.node(b).w);
}

TEST_CASE("generic mcts, opponent world: the solver proves Nim and stops early") {
  const Nim game;
  NimKnowledge kn;
  for (int stones = 2; stones <= 14; ++stones) {
    mcts::Mcts<Nim, NimKnowledge> m(game, kn, uct(0.5), 1 << 16, 0, true);
    BestMove best;
    const Nim::State root{stones, 0, -1};
    const std::int32_t b = m.search(root, testing::budget(200000), best, 3);
    REQUIRE(b >= 0);
    INFO("stones " << stones << " iterations " << m.iterations());
    CHECK(m.iterations() < 200000);  // the proof ends the search
    if (stones % 4) {
      CHECK(m.root_proof_for_mover() == mcts::kWin);
      CHECK(m.cell(b) == stones % 4);
    } else {
      CHECK(m.root_proof_for_mover() == mcts::kLoss);
    }
  }
}

TEST_CASE("generic mcts, opponent world: the tree follows the moves played") {
  const Nim game;
  NimKnowledge kn;
  mcts::Mcts<Nim, NimKnowledge> m(game, kn, uct(0.5), 1 << 16, 0, true);
  BestMove best;
  Nim::State s{21, 0, -1};
  const std::int32_t b = m.search(s, testing::budget(3000), best, 5);
  REQUIRE(b >= 0);
  const int ours = m.cell(b);
  game.apply(s, ours);
  m.observe(s, ours);
  const std::uint32_t kept = m.root_visits();
  CHECK(kept > 0);
  game.apply(s, 1);
  m.observe(s, 1);
  CHECK(m.root_visits() > 0);
  CHECK(m.root_visits() < kept);
  // A search from there grows the kept subtree.
  const std::uint32_t before = m.root_visits();
  m.search(s, testing::budget(100), best, 5);
  CHECK(m.root_visits() >= before + 100);
  // A move that does not lead to the state given drops the tree.
  Nim::State t = s;
  game.apply(t, 2);
  m.observe(s, 2);
  CHECK(m.root_visits() == 0);
}
