// plugin.hpp — the mcts plugin: Monte Carlo tree search for both games.
//   Hanpang: UCT over our moves with sampled chance outcomes (afterstate edges, a few sampled
//            rows per edge), value = points gained + a board evaluation at the leaf.
//   Icebreaking: UCT with an MCTS-Solver (proven wins/draws/losses backed up), an exact
//            alpha-beta solve of small endgames, gain-informed playouts, tree reuse across turns.
#pragma once

#include "tactica/registry.hpp"

TACTICA_PLUGIN_API(mcts)
