#include "tactica/plugin_export.hpp"
#include "expectimax/plugin.hpp"

TACTICA_EXPORT_PLUGIN(tactica::plugins::expectimax)
