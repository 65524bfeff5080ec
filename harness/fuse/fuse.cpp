// fuse.cpp — see fuse.hpp.
#include "fuse/fuse.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>

#include "tactica/agent_main.hpp"
#include "tactica/config.hpp"
#include "tactica/loader.hpp"

#ifndef TACTICA_VERSION
#error "TACTICA_VERSION (CMake's PROJECT_VERSION) must be defined"
#endif
#ifndef TACTICA_SOURCE_DIR
#error "TACTICA_SOURCE_DIR (CMake's PROJECT_SOURCE_DIR) must be defined"
#endif

namespace tactica::fuse {
namespace fs = std::filesystem;

// The generated config() sets every EmbeddedConfig field and bakes every TimeConfig field. These
// bindings stop compiling when either struct gains or loses a field: then set or bake the new
// field in main_code() and list it here.
[[maybe_unused]] inline void check_fields_known(const EmbeddedConfig& c, const TimeConfig& t) {
  [[maybe_unused]] const auto& [strategy, params, time, seed, banner] = c;
  [[maybe_unused]] const auto& [reserve_ms, move_overhead_ms, max_move_ms, node_budget, bank_ms,
                                cpu_cap_ms] = t;
}

const char* project_version() { return TACTICA_VERSION; }
std::string default_source_dir() {
  // The tree tactica was built from; in an installed tree (cmake --install, the .deb) whose
  // build tree is gone, the sources installed beside it: <prefix>/share/tactica/source.
  std::error_code ec;
  if (fs::is_regular_file(fs::path(TACTICA_SOURCE_DIR) / "core/include/tactica/session.hpp", ec))
    return TACTICA_SOURCE_DIR;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share/tactica/source";
    if (fs::is_regular_file(installed / "core/include/tactica/session.hpp", ec))
      return installed.string();
  }
  return TACTICA_SOURCE_DIR;
}

namespace {

// The config and plugin, checked as core/host/main.cpp checks them before it plays.
struct Loaded {
  AgentConfig cfg;
  Plugin plugin;
};

Loaded load(const FuseOptions& o) {
  Loaded l;
  l.cfg = load_config(o.config, o.sets);
  try {
    l.plugin = load_plugin(l.cfg.strategy, plugin_search_path(o.plugin_dirs));
    require_game(l.plugin, l.cfg.game);
  } catch (const PluginError& e) {
    throw ConfigError(l.cfg.location("strategy") + ": strategy: " + e.what());
  }
  resolve_params(l.cfg, l.plugin.info());
  // Built once, as tactica-agent does even for --check: its factory may refuse a combination.
  try {
    if (l.cfg.game == GameKind::hanpang)
      (void)l.plugin.make_hanpang(l.cfg.params);
    else
      (void)l.plugin.make_icebreaking(l.cfg.params);
  } catch (const PluginError& e) {
    throw ConfigError(l.cfg.location("strategy") + ": strategy: " + e.what());
  }
  return l;
}

// The *.cpp files of a folder, sorted by name, except `skip`.
std::vector<std::string> sources_in(const fs::path& dir, const std::string& skip) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string f = it->path().filename().string();
    if (f.ends_with(".cpp") && f != skip && it->is_regular_file()) names.push_back(f);
  }
  if (ec) throw FuseError(dir.string() + ": cannot list: " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

// Printable ASCII only (for comments): control characters become spaces.
std::string comment_safe(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

std::string comment_block(const std::string& text, const std::string& indent) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = "//" + indent + comment_safe(std::string_view(text).substr(pos, nl - pos));
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
    pos = nl + 1;
  }
  return out;
}

// The config as the user names it: relative to the source tree when inside it, else its file
// name (no absolute path goes into the output).
std::string config_label(const std::string& file, const fs::path& root) {
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(file), ec);
  const fs::path r = fs::weakly_canonical(root, ec);
  const std::string rel = abs.lexically_relative(r).generic_string();
  if (!rel.empty() && !rel.starts_with("..")) return rel;
  return fs::path(file).filename().string();
}

// A double as a C++ literal that reads back to the same value.
std::string double_literal(double v) {
  if (!std::isfinite(v)) throw FuseError("parameter value " + std::to_string(v) + " is not finite");
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string header_code(const Loaded& l, const FuseOptions& o, const fs::path& root,
                        const std::vector<std::string>& files) {
  const auto& info = l.plugin.info();
  const char* game = game_name(l.cfg.game);
  std::string sets;
  for (const auto& s : o.sets) sets += " --set " + s;
  std::string s;
  s += "// main.cpp: a Tactica agent for " + std::string(game) +
       " in one file, made by `tactica fuse`\n";
  s += "// (Tactica " + std::string(project_version()) + ") from " +
       comment_safe(config_label(o.config, root) + sets) + ".\n";
  s += "// Plugin: " + comment_safe(info.name + " " + info.version + ": " + info.summary) + "\n";
  s += "// Build:  g++ -std=c++20 -O2 -o agent main.cpp   (standard library and POSIX only)\n";
  s += "// Generated: edit the sources or the config and fuse again rather than this file.\n";
  s += "//\n// The resolved config (every parameter, defaults included):\n//\n";
  s += comment_block(resolved_toml(l.cfg, info), "   ");
  s += "//\n// Inlined, in order:\n";
  std::string line = "//  ";
  for (const auto& f : files) {
    if (line.size() + f.size() + 1 > 100) s += line + "\n", line = "//  ";
    line += " " + f;
  }
  s += line + "\n\n";
  s += "// Asserts off, as in tactica-agent's Release build: the same speed, and no abort "
       "mid-game.\n"
       "#ifndef NDEBUG\n#define NDEBUG\n#endif\n\n";
  return s;
}

const char* session_class(GameKind g) {
  return g == GameKind::hanpang ? "HanpangSession" : "IcebreakingSession";
}

// The config as constants (EmbeddedConfig, tactica/agent_main.hpp) and a main() that hands it,
// with a registry of the one plugin, to tactica::run_agent_main: the rest is core code.
std::string main_code(const Loaded& l) {
  const auto& cfg = l.cfg;
  const auto& t = cfg.time;
  const std::string game = game_name(cfg.game);
  const std::string banner = agent_banner(
      "tactica (fused by Tactica " + std::string(project_version()) + ")", cfg, l.plugin.info());
  std::string s;
  s += "\n// ===== generated by tactica fuse: the config as constants, and main() =====\n";
  s += "namespace tactica::fused {\n\n";
  s += "// The config, resolved: every parameter of " + l.plugin.info().name + " for " + game +
       ", [time], seed.\n";
  s += "inline EmbeddedConfig config() {\n  EmbeddedConfig c;\n";
  s += "  c.strategy = " + cpp_string_literal(cfg.strategy) + ";\n";
  for (const auto& [name, value] : cfg.params.values())
    s += "  c.params.set(" + cpp_string_literal(name) + ", " + double_literal(value) + ");\n";
  s += "  c.time.reserve_ms = " + std::to_string(t.reserve_ms) + ";\n";
  s += "  c.time.move_overhead_ms = " + std::to_string(t.move_overhead_ms) + ";\n";
  s += "  c.time.max_move_ms = " + std::to_string(t.max_move_ms) + ";\n";
  s += "  c.time.node_budget = " + std::to_string(t.node_budget) + "ULL;\n";
  s += "  c.time.bank_ms = " + std::to_string(t.bank_ms) + ";\n";
  s += "  c.time.cpu_cap_ms = " + std::to_string(t.cpu_cap_ms) + ";\n";
  s += "  c.seed = " + std::to_string(cfg.seed) + "ULL;\n";
  s += "  c.banner =\n      " + cpp_string_literal(banner) + ";\n";
  s += "  return c;\n}\n\n";
  s += "}  // namespace tactica::fused\n\n";
  s += "// Its one plugin, played as tactica-agent plays (tactica/agent_main.hpp).\n";
  s += "int main(int argc, char** argv) {\n";
  s += "  tactica::StrategyRegistry registry;\n";
  s += "  registry.add(TACTICA_PLUGIN_ENTRY(" + cfg.strategy + "));\n";
  s += "  const tactica::EmbeddedConfig config = tactica::fused::config();\n";
  s += std::string("  return tactica::run_agent_main<tactica::") + session_class(cfg.game) +
       ">(argc, argv, registry, config);\n";
  s += "}\n";
  return s;
}

// The first inlined plugin file newer than the plugin module: its parameters may not be those of
// the sources being fused. Only files under plugins/ count: they declare the parameters, while a
// newer core file (the Session, the agent's main) changes nothing the module was asked, and the
// module is not rebuilt for it.
std::string staleness_warning(const Loaded& l, const fs::path& root,
                              const std::vector<std::string>& files) {
  std::error_code ec;
  const auto module_time = fs::last_write_time(l.plugin.file(), ec);
  if (ec) return {};
  for (const auto& f : files) {
    if (!f.starts_with("plugins/")) continue;
    const auto t = fs::last_write_time(root / f, ec);
    if (!ec && t > module_time)
      return f + " is newer than " + l.plugin.file().filename().string() +
             ": rebuild (cmake --build ...) so that the parameters checked here are the sources' "
             "own";
  }
  return {};
}

}  // namespace

std::string cpp_string_literal(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    }
  }
  return out + "\"";
}

FuseResult fuse(const FuseOptions& o) {
  const fs::path root =
      fs::absolute(o.source_dir.empty() ? fs::path(default_source_dir()) : o.source_dir)
          .lexically_normal();
  std::error_code ec;
  if (!fs::is_regular_file(root / "core/include/tactica/session.hpp", ec))
    throw FuseError(root.string() +
                    ": not a Tactica source tree (no core/include/tactica/session.hpp); "
                    "pass --source-dir DIR");

  const Loaded l = load(o);
  const std::string name = l.cfg.strategy;
  const fs::path plugin_dir = root / "plugins" / name;
  if (!fs::is_regular_file(plugin_dir / "plugin.hpp", ec))
    throw FuseError(plugin_dir.string() + ": no sources of plugin '" + name +
                    "' (plugin.hpp missing); pass --source-dir with the tree it was built from");

  Amalgamator am(root, {"core/include", "plugins"});
  if (fs::is_directory(root / "core/src", ec))
    for (const auto& f : sources_in(root / "core/src", "")) am.add_file("core/src/" + f);
  const auto sources = sources_in(plugin_dir, "plugin.cpp");
  if (sources.empty())
    throw FuseError(plugin_dir.string() + ": no .cpp sources besides plugin.cpp");
  for (const auto& f : sources) am.add_file("plugins/" + name + "/" + f);
  am.add_include(name + "/plugin.hpp");
  // Of the Session, only this game's loop (session.hpp would bring both).
  am.add_include("tactica/agent_main.hpp");
  am.add_include("tactica/session_" + std::string(game_name(l.cfg.game)) + ".hpp");
  am.add_text(main_code(l));

  FuseResult r;
  r.game = l.cfg.game;
  r.plugin = l.plugin.info().name;
  r.plugin_version = l.plugin.info().version;
  r.files = am.files();
  r.text = header_code(l, o, root, r.files) + am.text();
  if (auto w = staleness_warning(l, root, r.files); !w.empty()) r.warnings.push_back(w);
  return r;
}

void write_output(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (const auto dir = path.parent_path(); !dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec) throw FuseError(dir.string() + ": cannot create the folder: " + ec.message());
  }
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw FuseError(tmp.string() + ": cannot write: " + std::strerror(errno));
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw FuseError(path.string() + ": cannot write: " + ec.message());
  }
}

}  // namespace tactica::fuse
