// linked_loader.cpp — tactica/loader.hpp for a static agent (cmake/TacticaStaticAgents.cmake):
// tactica-agent-<game>-<plugin> is core/host/main.cpp, config.cpp and plugin.cpp linked with
// this file in place of loader.cpp, so it takes the same flags and checks configs the same way,
// but its registry holds the one plugin linked in (no Boost.DLL, no dlopen: the binary can be
// linked with -static).
//
// Built once per (game, plugin) with TACTICA_LINKED_GAME (hanpang|icebreaking),
// TACTICA_LINKED_PLUGIN (the plugin's namespace), TACTICA_LINKED_HEADER ("<name>/plugin.hpp")
// and TACTICA_LINKED_EXE (the program's name) defined.
#include <string>

#include "tactica/loader.hpp"
#include "tactica/registry.hpp"
#include TACTICA_LINKED_HEADER

namespace tactica {
namespace fs = std::filesystem;

namespace {

constexpr const char* kExe = TACTICA_LINKED_EXE;
constexpr GameKind kGame = GameKind::TACTICA_LINKED_GAME;

const StrategyRegistry& linked() {
  static const StrategyRegistry registry = [] {
    StrategyRegistry r(std::string("linked into ") + kExe);
    r.add(TACTICA_PLUGIN_ENTRY(TACTICA_LINKED_PLUGIN));
    return r;
  }();
  return registry;
}

const PluginEntry& linked_entry() { return *linked().begin(); }

}  // namespace

std::string plugin_file_name(std::string_view name) {
  return "libtactica_" + std::string(name) + ".so";
}

std::string PluginSearchPath::describe() const {
  return std::string("none: ") + kExe + " has its plugin linked in";
}

// Plugin directories mean nothing here: the one plugin is linked in.
PluginSearchPath plugin_search_path(const std::vector<fs::path>&) { return {}; }

Plugin load_plugin_file(const fs::path& file, std::string_view name) {
  const PluginEntry* entry = linked().find(name);
  if (!entry)
    throw PluginError(std::string(kExe) + " has only the plugin '" + linked_entry().name +
                      "' linked in, not '" + std::string(name) + "'; use tactica-agent or " +
                      "tactica-agent-" + game_name(kGame) + "-" + std::string(name));
  return Plugin::from_entry(*entry, file, nullptr,
                            "the plugin '" + entry->name + "' linked into " + kExe);
}

Plugin load_plugin(std::string_view name, const PluginSearchPath&) {
  return load_plugin_file(fs::path("(linked into " + std::string(kExe) + ")"), name);
}

void require_game(const Plugin& plugin, GameKind game) {
  if (game != kGame)
    throw PluginError(std::string(kExe) + " plays " + game_name(kGame) + " only, not " +
                      game_name(game) + "; use tactica-agent or tactica-agent-" + game_name(game) +
                      "-" + plugin.info().name);
  if (!plugin.info().plays(game))
    throw PluginError("plugin '" + plugin.info().name + "' does not play " + game_name(game));
}

std::vector<FoundPlugin> list_plugins(const PluginSearchPath&) {
  FoundPlugin f;
  f.name = linked_entry().name;
  f.file = "(linked in)";
  f.origin = kExe;
  try {
    f.info = load_plugin_file(f.file, f.name).info();
  } catch (const PluginError& e) {
    f.error = e.what();
  }
  return {f};
}

}  // namespace tactica
