// plugin.cpp — making strategies from a loaded Plugin: the part of tactica/loader.hpp that does
// not depend on how the plugin was found. Shared by loader.cpp (Boost.DLL, tactica-agent and the
// harness) and harness/fuse/linked_loader.cpp (one plugin linked in, the static agents), which
// each define require_game().
#include <memory>
#include <string>

#include "tactica/loader.hpp"

namespace tactica {

namespace {

// Calls a plugin's factory: its exceptions and a null result become PluginError naming the
// plugin; the deleter holds the library (if any), so it is unloaded only after the strategy.
template <class Strategy, class Factory>
std::shared_ptr<Strategy> make_strategy(Factory* make, const Params& params, const PluginInfo& info,
                                        const std::shared_ptr<void>& lib, const char* game) {
  std::unique_ptr<Strategy> s;
  try {
    s = make(params);
  } catch (const std::exception& e) {
    throw PluginError("plugin '" + info.name + "' could not make its " + game +
                      " strategy: " + e.what());
  }
  if (!s) throw PluginError("plugin '" + info.name + "' made no " + game + " strategy (null)");
  return std::shared_ptr<Strategy>(s.release(), [lib](Strategy* p) { delete p; });
}

}  // namespace

std::shared_ptr<HanpangStrategy> Plugin::make_hanpang(const Params& params) const {
  require_game(*this, GameKind::hanpang);
  return make_strategy<HanpangStrategy>(make_hanpang_, params, info_, lib_, "hanpang");
}

std::shared_ptr<IcebreakingStrategy> Plugin::make_icebreaking(const Params& params) const {
  require_game(*this, GameKind::icebreaking);
  return make_strategy<IcebreakingStrategy>(make_icebreaking_, params, info_, lib_, "icebreaking");
}

}  // namespace tactica
