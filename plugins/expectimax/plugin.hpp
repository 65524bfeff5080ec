// expectimax — depth-limited search for both games: expectimax over sampled new rows for
// Hanpang; negamax alpha-beta with a transposition table and an exact endgame for Icebreaking.
#pragma once

#include <memory>

#include "tactica/strategy.hpp"

namespace tactica::plugins::expectimax {

PluginInfo describe();
std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p);
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p);

}  // namespace tactica::plugins::expectimax
