// params.hpp — the greedy plugin's parameters, declared once: each game's config struct (its
// defaults are the plugin's) and the table binding every parameter to its field.
#pragma once

#include "tactica/param_table.hpp"

namespace tactica::plugins::greedy {

struct HanpangConfig {
  bool flat_ties = true;  // equal sizes: the lower, flatter board after the move (off: lowest cell)
  bool operator==(const HanpangConfig&) const = default;
};

struct IcebreakingConfig {
  bool reply_ties = true;  // equal gains: the move leaving the opponent the smallest best gain
  bool operator==(const IcebreakingConfig&) const = default;
};

const ParamTable<HanpangConfig>& hanpang_table();
const ParamTable<IcebreakingConfig>& icebreaking_table();

}  // namespace tactica::plugins::greedy
