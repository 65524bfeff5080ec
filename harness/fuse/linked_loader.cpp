// linked_loader.cpp — tactica/loader.hpp for a static agent (cmake/TacticaStaticAgents.cmake):
// tactica-agent-<game>-<plugin> is core/host/main.cpp, config.cpp and plugin.cpp linked with
// this file in place of loader.cpp, so it takes the same flags and checks configs the same way,
// but its one plugin is linked in (no Boost.DLL, no dlopen: the binary can be linked with -static).
//
// Built once per (game, plugin) with TACTICA_LINKED_GAME (hanpang|icebreaking),
// TACTICA_LINKED_PLUGIN (the plugin's namespace), TACTICA_LINKED_HEADER ("<name>/plugin.hpp")
// and TACTICA_LINKED_EXE (the program's name) defined.
#include <string>

#include "tactica/loader.hpp"
#include TACTICA_LINKED_HEADER

namespace tactica {
namespace fs = std::filesystem;

namespace {

namespace linked = plugins::TACTICA_LINKED_PLUGIN;
constexpr const char* kExe = TACTICA_LINKED_EXE;
constexpr GameKind kGame = GameKind::TACTICA_LINKED_GAME;

std::string linked_name() { return linked::describe().name; }

}  // namespace

std::string plugin_file_name(std::string_view name) {
  return "libtactica_" + std::string(name) + ".so";
}

std::string PluginSearchPath::describe() const {
  return std::string("none: ") + kExe + " has its plugin linked in";
}

// Plugin directories mean nothing here: the one plugin is linked in.
PluginSearchPath plugin_search_path(const std::vector<fs::path>&) { return {}; }

Plugin load_plugin_file(const fs::path& file, std::string_view expected_name) {
  Plugin p;
  p.file_ = file;
  p.info_ = linked::describe();
  p.make_hanpang_ = &linked::make_hanpang;
  p.make_icebreaking_ = &linked::make_icebreaking;
  if (p.info_.abi_version != kPluginAbiVersion)
    throw PluginError(std::string(kExe) + ": its plugin reports ABI version " +
                      std::to_string(p.info_.abi_version) + ", not " +
                      std::to_string(kPluginAbiVersion) + ": rebuild");
  if (!expected_name.empty() && p.info_.name != expected_name)
    throw PluginError(std::string(kExe) + " has only the plugin '" + p.info_.name +
                      "' linked in, not '" + std::string(expected_name) +
                      "'; use tactica-agent or " + "tactica-agent-" + game_name(kGame) + "-" +
                      std::string(expected_name));
  return p;
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
  f.name = linked_name();
  f.file = "(linked in)";
  f.origin = kExe;
  f.info = linked::describe();
  return {f};
}

}  // namespace tactica
