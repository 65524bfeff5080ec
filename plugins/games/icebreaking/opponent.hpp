// games/icebreaking/opponent.hpp — the greedy opponent model a search plays against, and the
// game with the fast move it plays with. Header-only, standard library + core only.
//
// GreedyReply is the world of an Icebreaking beam (beam/search.hpp's BeamModel): after each of
// our moves the opponent's reply is predicted by the greedy plugin's rule (GreedyRule,
// games/icebreaking/eval.hpp), and a line is valued by the score difference from our side
// (with `residual`, plus the alternating sum of the ice left).
#pragma once

#include <cstdint>

#include "games/icebreaking/eval.hpp"
#include "tactica/game.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica::plugins::common::ice {

// IcebreakingGame whose apply is play_fast (the same position, fewer flood fills).
class FastIcebreakingGame : public IcebreakingGame {
 public:
  using IcebreakingGame::IcebreakingGame;
  int apply(State& s, Move c) const {
    const int before = s.total[s.to_move];
    play_fast(board(), s, c);
    return s.total[icebreaking::other(s.to_move)] - before;
  }
};
static_assert(TwoPlayerGame<FastIcebreakingGame>);

// The beam's world against a greedy opponent, for player `me`.
class GreedyReply {
 public:
  using Value = int;
  using Reply = int;  // the predicted reply's cell; kNoCell when our move ended the game
  static constexpr bool kIndexTies = true;

  GreedyReply(const Board& b, icebreaking::Player me, bool reply_ties, bool residual)
      : board_(&b), me_(me), reply_ties_(reply_ties), residual_(residual) {}

  int world(icebreaking::Position& q, int) {
    const int reply = q.over() ? icebreaking::kNoCell : rule_.move(*board_, q.ice, reply_ties_);
    if (reply != icebreaking::kNoCell) play_fast(*board_, q, reply);
    return reply;
  }
  void replay(icebreaking::Position& q, int reply, int) const {
    if (reply != icebreaking::kNoCell) play_fast(*board_, q, reply);
  }
  // The score difference, plus (with `residual`) the value of the ice left if both sides took
  // the best cell in turn, from our side.
  int value(const icebreaking::Position& p) const {
    int v = p.total[me_] - p.total[icebreaking::other(me_)];
    if (residual_ && !p.over()) {
      const int r = alternating_sum(*board_, p.ice);
      v += p.to_move == me_ ? r : -r;
    }
    return v;
  }
  // The ice left decides: within a layer it is always our move, or the game is over (the game's
  // own key, IcebreakingGame::key, less the side to move).
  std::uint64_t key(const icebreaking::Position& p) const { return tactica::detail::hash128(p.ice, 1); }
  bool hopeless(int) const { return false; }

 private:
  const Board* board_;
  icebreaking::Player me_;
  bool reply_ties_;
  bool residual_;
  GreedyRule rule_;
};

}  // namespace tactica::plugins::common::ice
