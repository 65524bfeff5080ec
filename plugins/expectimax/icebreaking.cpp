// The expectimax plugin's Icebreaking strategy: a thin wrapper over IceSearch.
#include "expectimax/ice_search.hpp"
#include "expectimax/plugin.hpp"

namespace tactica::plugins::expectimax {

namespace {

IceParams ice_params(const Params& p) {
  IceParams q;
  q.tt_mb = static_cast<int>(p.integer("tt_mb"));
  q.qdepth = static_cast<int>(p.integer("qdepth"));
  q.solve_at = static_cast<int>(p.integer("solve_at"));
  q.aspiration = static_cast<int>(p.integer("aspiration"));
  q.pvs = p.boolean("pvs");
  q.iter_start = p.real("iter_start");
  q.w_pool = p.real("w_pool");
  q.w_threat = p.real("w_threat");
  q.w_plus = p.real("w_plus");
  q.w_tempo = p.real("w_tempo");
  return q;
}

class IceStrategy final : public IcebreakingStrategy {
 public:
  explicit IceStrategy(const Params& p) : search_(ice_params(p)) {}
  void new_game(const icebreaking::Board& b, icebreaking::Player, std::uint64_t) override {
    board_ = b;
    search_.new_game(b);
  }
  int choose(const icebreaking::Board& b, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override {
    if (!(b == board_)) {  // a caller that skipped new_game: start a fresh table for this board
      board_ = b;
      search_.new_game(b);
    }
    const auto r = search_.run(pos.ice, pos.margin(), limits, &best);
    stats_.nodes = r.nodes;
    stats_.depth = r.depth;
    stats_.value = static_cast<double>(r.value) / IceSearch::kUnit;
    return r.move;
  }
  SearchStats stats() const override { return stats_; }

 private:
  IceSearch search_;
  icebreaking::Board board_;
  SearchStats stats_;
};

}  // namespace

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<IceStrategy>(p);
}

}  // namespace tactica::plugins::expectimax
