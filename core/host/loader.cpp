// loader.cpp — Boost.DLL plugin loading (see tactica/loader.hpp).
#include "tactica/loader.hpp"

#include <algorithm>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <cstdlib>
#include <system_error>
#include <utility>

namespace tactica {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPrefix = "libtactica_";
constexpr std::string_view kSuffix = ".so";

std::string games_played(const PluginInfo& info) {
  std::string s;
  if (info.plays_hanpang) s = "hanpang";
  if (info.plays_icebreaking) s += s.empty() ? "icebreaking" : ", icebreaking";
  return s.empty() ? "no game" : s;
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// The plugin names (libtactica_<name>.so) present in a directory, sorted.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string f = it->path().filename().string();
    if (f.size() > kPrefix.size() + kSuffix.size() && f.starts_with(kPrefix) &&
        f.ends_with(kSuffix))
      names.push_back(f.substr(kPrefix.size(), f.size() - kPrefix.size() - kSuffix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string plugin_file_name(std::string_view name) {
  return std::string(kPrefix) + std::string(name) + std::string(kSuffix);
}

std::string PluginSearchPath::describe() const {
  std::string s;
  for (const auto& d : dirs) {
    if (!s.empty()) s += ", ";
    s += d.path.string() + " (" + d.origin + (is_dir(d.path) ? "" : ", missing") + ")";
  }
  return s.empty() ? "no directory" : s;
}

PluginSearchPath plugin_search_path(const std::vector<fs::path>& plugin_dirs) {
  PluginSearchPath p;
  for (const auto& d : plugin_dirs) p.dirs.push_back({d, "--plugin-dir"});
  if (const char* env = std::getenv("TACTICA_PLUGIN_PATH")) {
    std::string_view rest(env);
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      const std::string_view part = rest.substr(0, colon);
      if (!part.empty()) p.dirs.push_back({fs::path(std::string(part)), "TACTICA_PLUGIN_PATH"});
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  std::error_code ec;
  const fs::path exe = boost::dll::program_location(ec);
  if (!ec) {
    const fs::path prefix = exe.parent_path().parent_path();
    p.dirs.push_back({prefix / "plugins", "beside the executable"});
    p.dirs.push_back({prefix / "lib" / "tactica" / "plugins", "installed tree"});
  }
  return p;
}

Plugin load_plugin_file(const fs::path& file, std::string_view name) {
  const std::string where = file.string();
  std::shared_ptr<boost::dll::shared_library> lib;
  try {
    lib = std::make_shared<boost::dll::shared_library>(
        file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    throw PluginError("cannot load " + where + ": " + e.what());
  }
  for (const char* sym : {kDescribeSymbol, kMakeHanpangSymbol, kMakeIcebreakingSymbol})
    if (!lib->has(sym))
      throw PluginError(where + " is not a Tactica plugin: it exports no '" + sym +
                        "' (is TACTICA_EXPORT_PLUGIN in its plugin.cpp?)");
  PluginEntry entry{std::string(name), &lib->get_alias<DescribeFn>(kDescribeSymbol),
                    &lib->get_alias<MakeHanpangFn>(kMakeHanpangSymbol),
                    &lib->get_alias<MakeIcebreakingFn>(kMakeIcebreakingSymbol)};
  return Plugin::from_entry(std::move(entry), file, std::move(lib), where);
}

Plugin load_plugin(std::string_view name, const PluginSearchPath& path) {
  const std::string file = plugin_file_name(name);
  for (const auto& d : path.dirs) {
    std::error_code ec;
    const fs::path candidate = d.path / file;
    if (fs::exists(candidate, ec)) return load_plugin_file(candidate, name);
  }
  std::vector<std::string> found;
  for (const auto& d : path.dirs)
    for (auto& n : names_in(d.path))
      if (std::find(found.begin(), found.end(), n) == found.end()) found.push_back(std::move(n));
  std::string msg =
      "no plugin '" + std::string(name) + "': looked for " + file + " in " + path.describe() + "; ";
  if (found.empty()) {
    msg += "found no plugins there (build them, or pass --plugin-dir / set TACTICA_PLUGIN_PATH)";
  } else {
    msg += "found: ";
    for (std::size_t i = 0; i < found.size(); ++i) msg += (i ? ", " : "") + found[i];
  }
  throw PluginError(msg);
}

void require_game(const Plugin& plugin, GameKind game) {
  if (!plugin.info().plays(game))
    throw PluginError("plugin '" + plugin.info().name + "' (" + plugin.file().string() +
                      ") does not play " + game_name(game) +
                      "; it plays: " + games_played(plugin.info()));
}

std::vector<FoundPlugin> list_plugins(const PluginSearchPath& path) {
  std::vector<FoundPlugin> out;
  for (const auto& d : path.dirs) {
    for (const auto& name : names_in(d.path)) {
      FoundPlugin f;
      f.name = name;
      f.file = d.path / plugin_file_name(name);
      f.origin = d.origin;
      f.shadowed =
          std::any_of(out.begin(), out.end(), [&](const FoundPlugin& o) { return o.name == name; });
      try {
        f.info = load_plugin_file(f.file, name).info();
      } catch (const PluginError& e) {
        f.error = e.what();
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace tactica
