// The expectimax plugin's Hanpang strategy: a thin wrapper over HanpangSearch.
#include "expectimax/hanpang_search.hpp"
#include "expectimax/plugin.hpp"

namespace tactica::plugins::expectimax {

namespace {

HanpangParams hanpang_params(const Params& p) {
  HanpangParams q;
  q.max_depth = static_cast<int>(p.integer("depth"));
  q.width = static_cast<int>(p.integer("width"));
  q.root_width = static_cast<int>(p.integer("root_width"));
  q.samples = static_cast<int>(p.integer("samples"));
  q.iter_start = p.real("iter_start");
  q.weights.danger = p.real("danger");
  q.weights.group_sq = p.real("group_sq");
  return q;
}

class HanpangStrategyImpl final : public HanpangStrategy {
 public:
  explicit HanpangStrategyImpl(const Params& p) : search_(hanpang_params(p)) {}
  void new_game(std::uint64_t seed) override { search_.new_game(seed); }
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override {
    auto r = search_.run(s, limits, &best);
    stats_.nodes = r.nodes;
    stats_.depth = r.depth;
    stats_.value = r.value;
    return r.move != hanpang::kNoCell ? r.move : hanpang::fallback_move(s);
  }
  SearchStats stats() const override { return stats_; }

 private:
  HanpangSearch search_;
  SearchStats stats_;
};

}  // namespace

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<HanpangStrategyImpl>(p);
}

}  // namespace tactica::plugins::expectimax
