// GreedyIcebreaking Icebreaking: the largest immediate gain, chain captures included
// (greedy/greedy.hpp's greedy_move with games/icebreaking/greedy_rank.hpp's ranks).
#include "games/icebreaking/greedy_rank.hpp"
#include "greedy/greedy.hpp"
#include "greedy/params.hpp"
#include "greedy/plugin.hpp"

namespace tactica::plugins::greedy {

namespace {

class GreedyIcebreaking final : public IcebreakingStrategy {
 public:
  explicit GreedyIcebreaking(const IcebreakingConfig& c) : rank_(c.reply_ties) {}
  int choose(const icebreaking::Board& b, const icebreaking::Position& pos, const SearchLimits&,
             BestMove& best) override {
    // The fast rank (tests check that it plays icebreaking_move() move for move).
    rank_.prepare(b, pos);
    const int c = greedy_cell(IcebreakingGame(b), pos, rank_, icebreaking::kNoCell);
    best.publish(c);
    stats_.nodes = 1;
    return c;
  }
  SearchStats stats() const override { return stats_; }

 private:
  common::ice::ScannedGain rank_;
  SearchStats stats_;
};

}  // namespace

int icebreaking_best_gain(const icebreaking::Board& b, const icebreaking::Position& pos) {
  return common::ice::LargestGain(b, false).best_value(pos);
}

int icebreaking_move(const icebreaking::Board& b, const icebreaking::Position& pos,
                     bool reply_ties) {
  common::ice::LargestGain rank(b, reply_ties);
  return greedy_cell(IcebreakingGame(b), pos, rank, icebreaking::kNoCell);
}

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<GreedyIcebreaking>(icebreaking_table().read(p));
}

}  // namespace tactica::plugins::greedy
