// The expectimax plugin's Icebreaking strategy: alpha-beta (IceSearch) against an opponent we
// know nothing about, and a beam search against the greedy model (common::ice::ModelBeam) once
// the opponent has shown it plays greedy.
//
// Opponent modelling: every opponent move is compared with the greedy rule's move in the position
// it was made from (common::ice::GreedyRule, both tie rules). While every one of at least
// `model_after` moves matched a rule, the opponent is taken to be that deterministic policy, and
// the best plan against it is found by searching our own move sequences with its replies
// predicted (a minimax search would assume a stronger opponent than the one we face and settle
// for draws it could win). One move that does not match switches to alpha-beta for the rest of
// the game; so does any doubt about our record of the game.
//
// A strong opponent plays greedy's move too wherever it is plainly best, and early in the game
// it mostly is: a searching opponent can match greedy for ten moves. So a match is telling only
// where our own search expected another reply (the table's move after ours); `model_evidence`
// of the matches must be telling ones before the model is trusted.
#include <algorithm>
#include <memory>

#include "games/icebreaking/model_beam.hpp"
#include "expectimax/ice_search.hpp"
#include "expectimax/params.hpp"
#include "expectimax/plugin.hpp"

namespace tactica::plugins::expectimax {

namespace {

// The model beam's config: max_width raised to width when it is smaller.
common::ice::ModelBeamConfig beam_config(const IcebreakingConfig& c) {
  common::ice::ModelBeamConfig b = c.model_beam;
  b.max_width = std::max(b.width, b.max_width);
  return b;
}

class IceStrategy final : public IcebreakingStrategy {
 public:
  explicit IceStrategy(const IcebreakingConfig& c)
      : search_(c.search),
        model_after_(c.model ? c.model_after : -1),
        model_evidence_(c.model_evidence),
        beam_cfg_(beam_config(c)) {}

  void new_game(const icebreaking::Board& b, icebreaking::Player me, std::uint64_t) override {
    board_ = b;
    search_.new_game(b);
    reset_model(b);
    me_ = me;
  }

  void observe(const icebreaking::Position& after, int cell) override {
    if (model_after_ < 0) return;
    if (tracking_ && record_.to_move != me_ && record_.legal(cell)) {
      ++opp_moves_;
      if (greedy_[0] && rule_.move(board_, record_.ice, false) != cell) greedy_[0] = false;
      if (greedy_[1] && rule_.move(board_, record_.ice, true) != cell) greedy_[1] = false;
      if ((greedy_[0] || greedy_[1]) && record_.ice == expected_ice_ && expected_ >= 0 &&
          expected_ != cell)
        ++telling_;
    }
    record_ = after;
  }

  int choose(const icebreaking::Board& b, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override {
    if (!(b == board_)) {  // a caller that skipped new_game: start a fresh table for this board
      board_ = b;
      search_.new_game(b);
      reset_model(b);
      tracking_ = false;
    }
    me_ = pos.to_move;
    if (!(pos == record_)) tracking_ = false;  // observe() missed a move: no model from here on
    if (model_after_ >= 0 && tracking_ && opp_moves_ >= model_after_ &&
        telling_ >= model_evidence_ && (greedy_[0] || greedy_[1])) {
      // Both rules agree on every move so far: the default greedy (reply ties) is the likelier.
      beam_cfg_.reply_ties = greedy_[1];
      if (!beam_ || beam_ties_ != beam_cfg_.reply_ties) {
        beam_ = std::make_unique<common::ice::ModelBeam>(beam_cfg_);
        beam_ties_ = beam_cfg_.reply_ties;
      }
      const int c = beam_->choose(b, pos, limits, best);
      stats_ = beam_->stats();
      return c;
    }
    const auto r = search_.run(pos.ice, pos.margin(), limits, &best);
    stats_.nodes = r.nodes;
    stats_.depth = r.depth;
    stats_.value = static_cast<double>(r.value) / IceSearch::kUnit;
    if (model_evidence_ > 0 && model_after_ >= 0 && r.move >= 0 && pos.legal(r.move)) {
      // The reply our search expects to this move, for observe() to weigh the opponent's.
      icebreaking::Position next = pos;
      next.play(b, r.move);
      expected_ice_ = next.ice;
      expected_ = next.over() ? -1 : search_.expected_move(next.ice);
    }
    return r.move;
  }
  SearchStats stats() const override { return stats_; }

 private:
  void reset_model(const icebreaking::Board& b) {
    record_ = icebreaking::Position::start(b);
    tracking_ = true;
    opp_moves_ = 0;
    telling_ = 0;
    expected_ = -1;
    expected_ice_ = 0;
    greedy_[0] = greedy_[1] = true;
  }

  IceSearch search_;
  icebreaking::Board board_;
  SearchStats stats_;
  // The opponent model.
  int model_after_;                      // opponent moves to see before trusting it (-1: off)
  int model_evidence_;                   // of them, telling ones (see the top of this file)
  common::ice::ModelBeamConfig beam_cfg_;
  std::unique_ptr<common::ice::ModelBeam> beam_;  // made on first use (it preallocates)
  bool beam_ties_ = false;
  common::ice::GreedyRule rule_;
  icebreaking::Position record_;         // the game as observe() told it
  icebreaking::Player me_ = icebreaking::A;
  bool tracking_ = false;                // record_ is the real game since its start
  int opp_moves_ = 0;                    // opponent moves compared with the rules
  int telling_ = 0;                      // of them, matches where we expected another reply
  int expected_ = -1;                    // the reply our last search expected (-1: none) ...
  u128 expected_ice_ = 0;                // ... on this ice set
  bool greedy_[2] = {true, true};        // every one matched greedy without / with reply ties
};

}  // namespace

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<IceStrategy>(icebreaking_table().read(p));
}

}  // namespace tactica::plugins::expectimax
