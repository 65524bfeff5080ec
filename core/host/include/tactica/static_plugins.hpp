// static_plugins.hpp — the plugins linked into this executable (no dlopen), in one
// StrategyRegistry (tactica/registry.hpp) filled by code that CMake generates
// (cmake/TacticaStaticPlugins.cmake) from the plugins/ folders.
#pragma once

#include "tactica/registry.hpp"

namespace tactica {

// Every plugin of the tree, by folder name, in the order CMake lists them.
const StrategyRegistry& static_plugins();

}  // namespace tactica
