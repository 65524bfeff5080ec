#include "tactica/plugin_export.hpp"
#include "beam/plugin.hpp"

TACTICA_EXPORT_PLUGIN(tactica::plugins::beam)
