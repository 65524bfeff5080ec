// Icebreaking beam search: our move sequences, the opponent's replies predicted by greedy
// (games/icebreaking/model_beam.hpp has the search and how it works).
#include <algorithm>

#include "beam/params.hpp"
#include "beam/plugin.hpp"
#include "games/icebreaking/model_beam.hpp"

namespace tactica::plugins::beam {
// Named (not anonymous) so the plugin's files can share one translation unit (unity build, fuse).
namespace icebreaking_beam {

using namespace tactica::icebreaking;

// The search itself is common::ice::ModelBeam (the expectimax plugin uses it too, against an
// opponent that has shown it plays greedy); this plugin plays it from the first move.
class BeamIcebreaking final : public IcebreakingStrategy {
 public:
  explicit BeamIcebreaking(const common::ice::ModelBeamConfig& c) : beam_(c) {}
  int choose(const Board& b, const Position& pos, const SearchLimits& limits,
             BestMove& best) override {
    return beam_.choose(b, pos, limits, best);
  }
  SearchStats stats() const override { return beam_.stats(); }

 private:
  common::ice::ModelBeam beam_;
};

}  // namespace icebreaking_beam

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  using namespace icebreaking_beam;
  IcebreakingConfig c = icebreaking_table().read(p);
  c.max_width = std::max(c.width, c.max_width);
  return std::make_unique<BeamIcebreaking>(c);
}

}  // namespace tactica::plugins::beam
