// greedy — the one-move-deep baseline for both games, and the host's fallback.
#pragma once

#include "tactica/registry.hpp"

TACTICA_PLUGIN_API(greedy)
