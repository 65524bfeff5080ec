#include "tactica/plugin_export.hpp"
#include "mcts/plugin.hpp"

TACTICA_EXPORT_PLUGIN(tactica::plugins::mcts)
