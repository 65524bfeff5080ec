// plugin_export.hpp — the one line each plugin's plugin.cpp needs to export itself.
// Boost.DLL lives here and in the host only; fuse leaves plugin.cpp out.
#pragma once

#include <boost/dll/alias.hpp>

#include "tactica/strategy.hpp"

// TACTICA_EXPORT_PLUGIN(ns): exports ns::describe, ns::make_hanpang, ns::make_icebreaking under
// the names in strategy.hpp. Functions of a game the plugin does not play may return nullptr.
#define TACTICA_EXPORT_PLUGIN(ns)                                      \
  BOOST_DLL_ALIAS(ns::describe, tactica_describe)                      \
  BOOST_DLL_ALIAS(ns::make_hanpang, tactica_make_hanpang)              \
  BOOST_DLL_ALIAS(ns::make_icebreaking, tactica_make_icebreaking)
