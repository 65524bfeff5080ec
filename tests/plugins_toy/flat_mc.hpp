// flat_mc.hpp — a toy algorithm written once over the Game concept (issue 11's last measure):
// flat Monte Carlo. Every legal move of the side to act is scored by random playouts: the move,
// then the world's step (a sampled outcome for a chance game, a random reply for a two-player
// one), then random moves and world steps until the game ends or `horizon` of our moves; a
// move's score is its mean return for us. Rounds go over every move in turn, so all moves have
// the same number of playouts; limits through SearchBudget (a node = one move played in a
// playout). Nothing here names a game: the same lines play Hanpang and Icebreaking.
#pragma once

#include <cstdint>
#include <vector>

#include "tactica/game.hpp"
#include "tactica/rng.hpp"
#include "tactica/search_budget.hpp"

namespace tactica::toy {

struct FlatMcConfig {
  int rounds = 64;   // playouts per move at most
  int horizon = 12;  // our moves in a playout after the first
};

template <Game G>
  requires(ChanceGame<G> || TwoPlayerGame<G>)
class FlatMc {
 public:
  using State = typename G::State;

  explicit FlatMc(const FlatMcConfig& c) : cfg_(c) {}

  // The index among g.moves(s) of the best-scored move (s not terminal).
  int choose(const G& g, const State& s, Rng& rng, SearchBudget& budget) {
    typename G::MoveList ml;
    g.moves(s, ml);
    const int n = ml.size();
    sum_.assign(static_cast<std::size_t>(n), 0.0);
    round_.assign(static_cast<std::size_t>(n), 0.0);
    rounds_ = 0;
    if (n == 1) return 0;
    const int me = g.to_move(s);
    for (int r = 0; r < cfg_.rounds && budget.may_start(); ++r) {
      for (int i = 0; i < n; ++i) {
        State t = s;
        g.apply(t, ml[i]);
        budget.count();
        world(g, t, me, rng, budget);
        for (int k = 0; k < cfg_.horizon && !g.terminal(t) && !budget.stopped(); ++k) {
          random_move(g, t, rng, budget);
          world(g, t, me, rng, budget);
        }
        if (budget.stopped()) return best();  // an unfinished round does not count
        round_[i] = g.returns(t, me);
      }
      for (int i = 0; i < n; ++i) sum_[i] += round_[i];
      ++rounds_;
    }
    return best();
  }

  // Complete rounds of the last choose (every move had as many playouts).
  int rounds() const { return rounds_; }

 private:
  // The world's step after our move: chance, or the other player's random replies.
  void world(const G& g, State& t, int me, Rng& rng, SearchBudget& budget) {
    if constexpr (G::kWorld == World::chance) {
      if (!g.terminal(t)) g.step(t, g.sample(t, rng));
    } else {
      while (!g.terminal(t) && g.to_move(t) != me && !budget.stopped()) random_move(g, t, rng, budget);
    }
  }
  // A uniformly random legal move for the side to act (t not terminal); one node.
  void random_move(const G& g, State& t, Rng& rng, SearchBudget& budget) {
    typename G::MoveList ml;
    g.moves(t, ml);
    g.apply(t, ml[rng.below(static_cast<std::uint32_t>(ml.size()))]);
    budget.count();
  }
  // The move of the highest sum over the complete rounds, the first of equals.
  int best() const {
    int bi = 0;
    for (int i = 1; i < static_cast<int>(sum_.size()); ++i)
      if (sum_[i] > sum_[bi]) bi = i;
    return bi;
  }

  FlatMcConfig cfg_;
  std::vector<double> sum_, round_;
  int rounds_ = 0;
};

}  // namespace tactica::toy
