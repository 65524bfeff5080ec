// The expectimax plugin's Hanpang strategy: a thin wrapper over HanpangSearch.
#include "expectimax/hanpang_search.hpp"
#include "expectimax/params.hpp"
#include "expectimax/plugin.hpp"

namespace tactica::plugins::expectimax {

namespace {

class HanpangStrategyImpl final : public HanpangStrategy {
 public:
  explicit HanpangStrategyImpl(const HanpangConfig& c) : search_(c) {}
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
  return std::make_unique<HanpangStrategyImpl>(hanpang_table().read(p));
}

}  // namespace tactica::plugins::expectimax
