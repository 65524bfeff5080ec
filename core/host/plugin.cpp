// plugin.cpp — making strategies from a loaded Plugin: the part of tactica/loader.hpp that does
// not depend on how the plugin was found. Shared by loader.cpp (Boost.DLL, tactica-agent and the
// harness) and harness/fuse/linked_loader.cpp (one plugin linked in, the static agents), which
// each define require_game().
#include <memory>
#include <string>

#include "tactica/loader.hpp"

namespace tactica {

std::shared_ptr<HanpangStrategy> Plugin::make_hanpang(const Params& params) const {
  require_game(*this, GameKind::hanpang);
  std::unique_ptr<HanpangStrategy> s;
  try {
    s = make_hanpang_(params);
  } catch (const std::exception& e) {
    throw PluginError("plugin '" + info_.name +
                      "' could not make its hanpang strategy: " + e.what());
  }
  if (!s) throw PluginError("plugin '" + info_.name + "' made no hanpang strategy (null)");
  // The deleter holds the library (if any): it is unloaded only after the strategy is destroyed.
  return std::shared_ptr<HanpangStrategy>(s.release(),
                                          [lib = lib_](HanpangStrategy* p) { delete p; });
}

std::shared_ptr<IcebreakingStrategy> Plugin::make_icebreaking(const Params& params) const {
  require_game(*this, GameKind::icebreaking);
  std::unique_ptr<IcebreakingStrategy> s;
  try {
    s = make_icebreaking_(params);
  } catch (const std::exception& e) {
    throw PluginError("plugin '" + info_.name +
                      "' could not make its icebreaking strategy: " + e.what());
  }
  if (!s) throw PluginError("plugin '" + info_.name + "' made no icebreaking strategy (null)");
  return std::shared_ptr<IcebreakingStrategy>(s.release(),
                                              [lib = lib_](IcebreakingStrategy* p) { delete p; });
}

}  // namespace tactica
