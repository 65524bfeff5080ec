// sprt_option.hpp — the --sprt key=value list of tourney and merge.
#pragma once

#include <string>
#include <vector>

#include "stats/stats.hpp"

namespace tactica::cli {

// "elo0=0 elo1=10 alpha=0.05 beta=0.05" (any subset, any order, as separate tokens or in one
// string; the rest keep their defaults).
// Throws harness::RunError naming the bad token and the accepted form.
stats::SprtSpec parse_sprt(const std::vector<std::string>& tokens);

}  // namespace tactica::cli
