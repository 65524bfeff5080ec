// beam — beam search for both games (issue 4).
//   Hanpang: beam search over our own moves on phantom rows (colours unknown, never joining),
//   the best root moves then re-valued on sampled next rows, each followed by a phantom beam.
//   Icebreaking: beam search over our move sequences, the opponent's replies predicted by the
//   greedy policy, re-searched every turn.
#pragma once

#include <memory>

#include "tactica/strategy.hpp"

namespace tactica::plugins::beam {

PluginInfo describe();
std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p);
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p);

}  // namespace tactica::plugins::beam
