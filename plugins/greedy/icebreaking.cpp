// GreedyIcebreaking Icebreaking: the largest immediate gain, chain captures included.
#include <climits>

#include "games/icebreaking/eval.hpp"
#include "greedy/greedy.hpp"
#include "greedy/params.hpp"
#include "greedy/plugin.hpp"

namespace tactica::plugins::greedy {

namespace {

class GreedyIcebreaking final : public IcebreakingStrategy {
 public:
  explicit GreedyIcebreaking(const IcebreakingConfig& c) : reply_ties_(c.reply_ties) {}
  int choose(const icebreaking::Board& b, const icebreaking::Position& pos, const SearchLimits&,
             BestMove& best) override {
    // The fast form of icebreaking_move() (tests check that they agree move for move).
    const int c = rule_.move(b, pos.ice, reply_ties_);
    best.publish(c);
    stats_.nodes = 1;
    return c;
  }
  SearchStats stats() const override { return stats_; }

 private:
  bool reply_ties_;
  common::ice::GreedyRule rule_;
  SearchStats stats_;
};

}  // namespace

int icebreaking_best_gain(const icebreaking::Board& b, const icebreaking::Position& pos) {
  int best = INT_MIN;
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s);
    best = std::max(best, b.score[c] + b.sum(pos.captures(c)));
  }
  return best == INT_MIN ? 0 : best;
}

int icebreaking_move(const icebreaking::Board& b, const icebreaking::Position& pos,
                     bool reply_ties) {
  int best = icebreaking::kNoCell, best_gain = INT_MIN, best_reply = INT_MAX;
  for (u128 s = pos.ice; s;) {  // ascending cells: the first of equals is the lowest
    const int c = pop_lowest(s);
    const int gain = b.score[c] + b.sum(pos.captures(c));
    if (gain < best_gain) continue;
    int reply = 0;
    if (reply_ties) {
      icebreaking::Position t = pos;
      t.play(b, c);
      reply = icebreaking_best_gain(b, t);
    }
    if (gain > best_gain || reply < best_reply) best = c, best_gain = gain, best_reply = reply;
  }
  return best;
}

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<GreedyIcebreaking>(icebreaking_table().read(p));
}

}  // namespace tactica::plugins::greedy
