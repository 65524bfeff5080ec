// loader.hpp — finding and loading strategy plugins (libtactica_<name>.so) with Boost.DLL: the
// module's exported symbols become its PluginEntry (tactica/registry.hpp). Boost stays in
// loader.cpp: this header is standard library only. A static agent links
// core/host/linked_loader.cpp in place of loader.cpp: the same API over its one linked plugin.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tactica/registry.hpp"
#include "tactica/strategy.hpp"

namespace tactica {

// Where plugins are looked for, in order. Each directory remembers why it is on the list.
struct PluginSearchPath {
  struct Dir {
    std::filesystem::path path;
    std::string origin;  // "--plugin-dir", "TACTICA_PLUGIN_PATH", "beside the executable"
  };
  std::vector<Dir> dirs;
  // "/a (--plugin-dir), /b (beside the executable, missing)"
  std::string describe() const;
};

// The standard order: each of `plugin_dirs` (--plugin-dir), then the colon-separated
// TACTICA_PLUGIN_PATH, then <exe>/../plugins (build tree) and <exe>/../lib/tactica/plugins
// (installed tree) where <exe> is the running program's folder.
PluginSearchPath plugin_search_path(const std::vector<std::filesystem::path>& plugin_dirs);

// "beam" -> "libtactica_beam.so"
std::string plugin_file_name(std::string_view name);

// A loaded plugin. Copies share the library, which stays loaded while any copy or any strategy
// made from it lives.
class Plugin {
 public:
  // A plugin from its entry, its descriptor read and checked (describe_checked, `where` naming it
  // in errors); `lib` (the module, or null) stays loaded while the plugin or a strategy lives.
  static Plugin from_entry(PluginEntry entry, std::filesystem::path file, std::shared_ptr<void> lib,
                           const std::string& where);

  const PluginInfo& info() const { return info_; }
  const PluginEntry& entry() const { return entry_; }
  const std::filesystem::path& file() const { return file_; }
  // Builds a strategy; throws PluginError if the plugin does not play the game or its factory
  // fails. The strategy keeps the library loaded.
  std::shared_ptr<HanpangStrategy> make_hanpang(const Params& params) const;
  std::shared_ptr<IcebreakingStrategy> make_icebreaking(const Params& params) const;

 private:
  std::shared_ptr<void> lib_;  // the boost::dll::shared_library, type-erased
  std::filesystem::path file_;
  PluginInfo info_;
  PluginEntry entry_;
};

// Loads one plugin file and checks it: it exports the three entry points, was built for this
// ABI version and describes itself under `name`.
Plugin load_plugin_file(const std::filesystem::path& file, std::string_view name);

// Loads libtactica_<name>.so from the first directory of `path` that holds it.
Plugin load_plugin(std::string_view name, const PluginSearchPath& path);

// Throws PluginError unless the plugin plays `game`, naming the games it does play.
void require_game(const Plugin& plugin, GameKind game);

// Every libtactica_*.so on the search path, in search order; one found earlier under the same
// name shadows later ones. Each is loaded to read its descriptor; failures are kept as errors.
struct FoundPlugin {
  std::string name;
  std::filesystem::path file;
  std::string origin;
  bool shadowed = false;           // an earlier directory has a plugin of this name
  std::optional<PluginInfo> info;  // set if it loaded and passed the checks
  std::string error;               // why not, otherwise
};
std::vector<FoundPlugin> list_plugins(const PluginSearchPath& path);

}  // namespace tactica
