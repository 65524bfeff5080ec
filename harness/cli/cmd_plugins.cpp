// cmd_plugins.cpp — `tactica plugins`: the strategy plugins found (as tactica-agent would find
// them), the games each plays, and their parameters.
#include <cstdio>
#include <memory>

#include "cli/common.hpp"
#include "report/tables.hpp"
#include "tactica/loader.hpp"

namespace tactica::cli {
namespace {

struct PluginsOptions {
  std::vector<std::string> dirs;
  std::string game;
  bool json = false;
};

const char* type_name(ParamType t) {
  switch (t) {
    case ParamType::integer:
      return "int";
    case ParamType::real:
      return "real";
    case ParamType::boolean:
      return "bool";
  }
  return "?";
}

std::string value(ParamType t, double v) {
  if (t == ParamType::boolean) return v != 0 ? "true" : "false";
  if (t == ParamType::integer) return report::num(v, 0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

int run_plugins(const PluginsOptions& o) {
  std::vector<std::filesystem::path> dirs(o.dirs.begin(), o.dirs.end());
  const auto path = plugin_search_path(dirs);
  const auto found = list_plugins(path);
  std::vector<GameKind> games;
  if (o.game.empty() || o.game == "hanpang") games.push_back(GameKind::hanpang);
  if (o.game.empty() || o.game == "icebreaking") games.push_back(GameKind::icebreaking);

  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : found) {
      nlohmann::json p = {{"name", f.name},
                          {"file", f.file.string()},
                          {"origin", f.origin},
                          {"shadowed", f.shadowed}};
      if (!f.info) {
        p["error"] = f.error;
      } else {
        p["version"] = f.info->version;
        p["summary"] = f.info->summary;
        for (GameKind g : games) {
          if (!f.info->plays(g)) continue;
          nlohmann::json params = nlohmann::json::array();
          for (const auto& s : f.info->params(g))
            params.push_back({{"name", s.name},
                              {"type", type_name(s.type)},
                              {"default", s.default_value},
                              {"min", s.min},
                              {"max", s.max},
                              {"help", s.help}});
          p["games"][game_name(g)] = params;
        }
      }
      out.push_back(p);
    }
    std::printf("%s\n", out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return 0;
  }

  std::printf("search path: %s\n", path.describe().c_str());
  if (found.empty()) {
    std::printf(
        "no plugins found (build them: cmake --build build/release; or give --plugin-dir)\n");
    return 0;
  }
  report::Table t({"plugin", "version", "games", "summary"}, "llll");
  for (const auto& f : found) {
    if (!f.info) {
      t.add({f.name, "-", "-", "error: " + f.error});
      continue;
    }
    std::string plays;
    for (GameKind g : {GameKind::hanpang, GameKind::icebreaking})
      if (f.info->plays(g)) plays += (plays.empty() ? "" : ", ") + std::string(game_name(g));
    t.add({f.name + (f.shadowed ? " (shadowed)" : ""), f.info->version, plays, f.info->summary});
  }
  std::printf("\n%s", t.str().c_str());
  for (const auto& f : found) {
    if (!f.info || f.shadowed) continue;
    for (GameKind g : games) {
      if (!f.info->plays(g)) continue;
      std::printf("\n%s, %s (%s):\n", f.name.c_str(), game_name(g), f.file.string().c_str());
      const auto& specs = f.info->params(g);
      if (specs.empty()) {
        std::printf("  no parameters\n");
        continue;
      }
      report::Table p({"  param", "type", "default", "range", "help"}, "lllll");
      for (const auto& s : specs)
        p.add({"  " + s.name, type_name(s.type), value(s.type, s.default_value),
               s.type == ParamType::boolean ? ""
                                            : value(s.type, s.min) + " .. " + value(s.type, s.max),
               s.help});
      std::printf("%s", p.str().c_str());
    }
  }
  return 0;
}

}  // namespace

void register_plugins(CLI::App& app, Context& ctx) {
  auto [o, p] = add_command<PluginsOptions>(
      app, "plugins", "list the strategy plugins found, the games each plays and their parameters");
  p->add_option("--plugin-dir", o->dirs,
                "look here first (repeatable), as tactica-agent --plugin-dir");
  p->add_option("--game", o->game, "only this game's parameters")
      ->check(CLI::IsMember({"hanpang", "icebreaking"}));
  p->add_flag("--json", o->json, "print JSON instead of tables");
  on_run(p, ctx, "plugins", o, run_plugins);
}

}  // namespace tactica::cli
