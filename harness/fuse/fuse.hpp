// fuse.hpp — `tactica fuse`: one config in, one self-contained main.cpp out (the submission).
//
// The config is read and checked exactly as tactica-agent does (tactica::host: load_config,
// the plugin loaded from its module to read its parameters, resolve_params, the strategy built
// once). The output holds, in one translation unit:
//   * a header comment: game, plugin and version, the resolved config, the Tactica version, the
//     files inlined;
//   * NDEBUG defined (unless it is), as in the Release build: asserts cost time and an assert
//     that fires would end the game;
//   * the standard and POSIX #includes of everything below, once, sorted;
//   * core/src/*.cpp if any, the plugin's sources (plugins/<name>/*.cpp but plugin.cpp, sorted),
//     the plugin's plugin.hpp, tactica/agent_main.hpp and the game's own session_<game>.hpp
//     (not the other game's loop), each project header inlined once at its first #include
//     (Amalgamator);
//   * the config as constants (tactica::EmbeddedConfig: strategy, parameters, [time], seed,
//     banner) and a main() of four lines: a StrategyRegistry holding the one plugin
//     (TACTICA_PLUGIN_ENTRY), handed with the config to tactica::run_agent_main<Session>, the core
//     code that core/host/main.cpp plays through too.
// No Boost.DLL export (plugin.cpp is left out), no TOML. The output depends only on the file
// contents it reads, the config and --set values and the Tactica version: no time stamps, no
// absolute paths, directory listings sorted. So the same inputs give the same bytes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "fuse/amalgamate.hpp"
#include "tactica/strategy.hpp"

namespace tactica::fuse {

struct FuseOptions {
  std::string config;                              // the agent's TOML config
  std::vector<std::string> sets;                   // --set key=value, in order
  std::filesystem::path source_dir;                // the Tactica source tree (empty: built-in)
  std::vector<std::filesystem::path> plugin_dirs;  // --plugin-dir, as tactica-agent
};

struct FuseResult {
  std::string text;  // the whole main.cpp
  GameKind game = GameKind::hanpang;
  std::string plugin, plugin_version;
  std::vector<std::string> files;     // project files inlined, in order
  std::vector<std::string> warnings;  // e.g. a plugin module older than its sources
};

// The Tactica version baked into this program (CMake's PROJECT_VERSION).
const char* project_version();
// The default of --source-dir: the source tree baked into this program (CMake's
// PROJECT_SOURCE_DIR), or in an installed tree without it, <prefix>/share/tactica/source.
std::string default_source_dir();

// Reads and checks the config, then writes the main.cpp text. Throws ConfigError (a bad config,
// plugin or parameter; exit status 2) or FuseError (sources that cannot be fused).
FuseResult fuse(const FuseOptions& options);

// Writes `text` to `path` (parent folders created) through a temporary file and a rename, so a
// reader never sees half a file. Throws FuseError.
void write_output(const std::filesystem::path& path, const std::string& text);

// `s` as a C++ string literal (quotes included), escaped so it is plain ASCII.
std::string cpp_string_literal(std::string_view s);

}  // namespace tactica::fuse
