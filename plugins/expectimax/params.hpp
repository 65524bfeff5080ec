// params.hpp — the expectimax plugin's parameters, declared once: each game's config struct (its
// defaults are the plugin's) and the table binding every parameter to its field.
#pragma once

#include "games/icebreaking/model_beam.hpp"
#include "expectimax/hanpang_search.hpp"
#include "expectimax/ice_search.hpp"
#include "tactica/param_table.hpp"

namespace tactica::plugins::expectimax {

// Hanpang: the search's own parameters (expectimax/hanpang_search.hpp).
using HanpangConfig = HanpangParams;

// Icebreaking: the alpha-beta search's parameters and the opponent model's (see icebreaking.cpp).
struct IcebreakingConfig {
  IceParams search;
  bool model = true;    // play a beam against greedy once the opponent has shown it plays greedy
  int model_after = 2;  // opponent moves that must all match greedy first
  int model_evidence = 0;  // of them, telling ones: our search expected another reply (0: none)
  common::ice::ModelBeamConfig model_beam;  // width and max_width are parameters
  bool operator==(const IcebreakingConfig&) const = default;
};

const ParamTable<HanpangConfig>& hanpang_table();
const ParamTable<IcebreakingConfig>& icebreaking_table();

}  // namespace tactica::plugins::expectimax
