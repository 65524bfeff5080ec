#include "tactica/plugin_export.hpp"
#include "greedy/plugin.hpp"

TACTICA_EXPORT_PLUGIN(tactica::plugins::greedy)
