// plugin.cpp — a Plugin from its entry, and strategies made from it: the part of
// tactica/loader.hpp that does not depend on how the plugin was found. Shared by loader.cpp
// (Boost.DLL, tactica-agent and the harness) and linked_loader.cpp (one plugin linked in, the
// static agents), which each define require_game().
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "tactica/loader.hpp"

namespace tactica {

namespace {

// Reads an entry's descriptor and checks it: built for this ABI version, and describing itself
// under the entry's name. `where` names the plugin in errors (its file, or where it is linked).
PluginInfo describe_checked(const PluginEntry& entry, const std::string& where) {
  PluginInfo info;
  try {
    info = entry.describe();
  } catch (const std::exception& e) {
    throw PluginError(where + ": its describe() threw: " + e.what());
  }
  if (info.abi_version != kPluginAbiVersion)
    throw PluginError(where + " was built for plugin ABI version " +
                      std::to_string(info.abi_version) + ", this program needs version " +
                      std::to_string(kPluginAbiVersion) + ": rebuild the plugin");
  if (info.name != entry.name)
    throw PluginError(where + " describes itself as '" + info.name + "', not '" + entry.name + "'");
  return info;
}

// The deleter holds the library (if any), so it is unloaded only after the strategy.
template <class Strategy>
std::shared_ptr<Strategy> holding(std::unique_ptr<Strategy> s, const std::shared_ptr<void>& lib) {
  return std::shared_ptr<Strategy>(s.release(), [lib](Strategy* p) { delete p; });
}

}  // namespace

Plugin Plugin::from_entry(PluginEntry entry, std::filesystem::path file, std::shared_ptr<void> lib,
                          const std::string& where) {
  Plugin p;
  p.info_ = describe_checked(entry, where);
  p.entry_ = std::move(entry);
  p.file_ = std::move(file);
  p.lib_ = std::move(lib);
  return p;
}

std::shared_ptr<HanpangStrategy> Plugin::make_hanpang(const Params& params) const {
  require_game(*this, GameKind::hanpang);
  return holding(make_strategy<HanpangStrategy>(entry_, params), lib_);
}

std::shared_ptr<IcebreakingStrategy> Plugin::make_icebreaking(const Params& params) const {
  require_game(*this, GameKind::icebreaking);
  return holding(make_strategy<IcebreakingStrategy>(entry_, params), lib_);
}

}  // namespace tactica
