// params.hpp — the mcts plugin's parameters, declared once: each game's config struct (HanConfig,
// IceConfig: their defaults are the plugin's) and the table binding every parameter to its field.
#pragma once

#include "mcts/hanpang_mcts.hpp"
#include "mcts/icebreaking_mcts.hpp"
#include "tactica/param_table.hpp"

namespace tactica::plugins::mcts {

using HanpangConfig = HanConfig;
using IcebreakingConfig = IceConfig;

const ParamTable<HanpangConfig>& hanpang_table();
const ParamTable<IcebreakingConfig>& icebreaking_table();

}  // namespace tactica::plugins::mcts
