// GreedyHanpang Hanpang: the largest safe group now (greedy/greedy.hpp's greedy_move with
// games/hanpang/greedy_rank.hpp's rank).
#include "games/hanpang/greedy_rank.hpp"
#include "greedy/greedy.hpp"
#include "greedy/params.hpp"
#include "greedy/plugin.hpp"

namespace tactica::plugins::greedy {

namespace {

class GreedyHanpang final : public HanpangStrategy {
 public:
  explicit GreedyHanpang(const HanpangConfig& c) : flat_ties_(c.flat_ties) {}
  int choose(const hanpang::State& s, const SearchLimits&, BestMove& best) override {
    const int c = hanpang_move(s, flat_ties_);
    best.publish(c);
    stats_.nodes = 1;
    return c;
  }
  SearchStats stats() const override { return stats_; }

 private:
  bool flat_ties_;
  SearchStats stats_;
};

}  // namespace

int hanpang_move(const hanpang::State& s, bool flat_ties) {
  common::LargestSafeGroup rank(flat_ties);
  return greedy_cell(HanpangGame{}, s, rank, hanpang::kNoCell);
}

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<GreedyHanpang>(hanpang_table().read(p));
}

}  // namespace tactica::plugins::greedy
