// greedy — the one-move-deep baseline for both games, and the host's fallback.
#pragma once

#include <memory>

#include "tactica/strategy.hpp"

namespace tactica::plugins::greedy {

PluginInfo describe();
std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p);
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p);

}  // namespace tactica::plugins::greedy
