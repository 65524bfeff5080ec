// expectimax — depth-limited search for both games: expectimax over sampled new rows for
// Hanpang; negamax alpha-beta with a transposition table and an exact endgame for Icebreaking.
#pragma once

#include "tactica/registry.hpp"

TACTICA_PLUGIN_API(expectimax)
