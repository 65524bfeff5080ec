// tactica-agent — the program the judge talks to: reads a TOML config, loads the named strategy
// plugin and runs the game's Session on stdin/stdout (see docs/CONFIG.md, docs/PROTOCOL.md).
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tactica/agent_main.hpp"
#include "tactica/config.hpp"
#include "tactica/loader.hpp"
#include "tactica/session.hpp"

namespace {

constexpr const char* kUsage =
    "usage: tactica-agent --config FILE [--plugin-dir DIR]... [--set key=value]... [--check] "
    "[--verbose]\n"
    "\n"
    "Plays one game of Hanpang or Icebreaking with the judge on stdin/stdout.\n"
    "  --config FILE       the agent's TOML config (configs/<game>/<strategy>.toml)\n"
    "  --plugin-dir DIR    look for libtactica_<strategy>.so here first (repeatable); then\n"
    "                      TACTICA_PLUGIN_PATH (colon-separated), then ../plugins and\n"
    "                      ../lib/tactica/plugins beside this program's folder\n"
    "  --set key=value     override a config key: game, strategy, seed, time.<key>,\n"
    "                      params.<name> (repeatable), e.g. --set params.width=300\n"
    "  --check             check the config and the plugin's parameters, print the resolved\n"
    "                      config and exit\n"
    "  --verbose           one line per move on stderr\n"
    "Exit status: 0 at the end of a game, 2 for a bad command line, config or plugin.\n";

struct Args {
  std::string config;
  std::vector<std::filesystem::path> plugin_dirs;
  std::vector<std::string> sets;
  bool check = false, verbose = false;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "tactica-agent: error: " << msg << " (see tactica-agent --help)\n";
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (arg.starts_with("--") && arg.find('=') != std::string::npos) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
      has_value = true;
    }
    const auto take = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--config") {
      a.config = take();
    } else if (arg == "--plugin-dir") {
      a.plugin_dirs.emplace_back(take());
    } else if (arg == "--set") {
      a.sets.push_back(take());
    } else if (arg == "--check" && !has_value) {
      a.check = true;
    } else if ((arg == "--verbose" || arg == "-v") && !has_value) {
      a.verbose = true;
    } else {
      usage_error("unknown argument '" + std::string(argv[i]) + "'");
    }
  }
  if (a.config.empty()) usage_error("--config FILE is required");
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  tactica::AgentConfig cfg;
  tactica::Plugin plugin;
  std::shared_ptr<tactica::HanpangStrategy> hanpang;
  std::shared_ptr<tactica::IcebreakingStrategy> icebreaking;
  try {
    cfg = tactica::load_config(args.config, args.sets);
    try {
      plugin = tactica::load_plugin(cfg.strategy, tactica::plugin_search_path(args.plugin_dirs));
      tactica::require_game(plugin, cfg.game);
    } catch (const tactica::PluginError& e) {
      throw tactica::ConfigError(cfg.location("strategy") + ": strategy: " + e.what());
    }
    tactica::resolve_params(cfg, plugin.info());
    // Build the strategy even for --check: its factory may refuse a combination of values.
    try {
      if (cfg.game == tactica::GameKind::hanpang)
        hanpang = plugin.make_hanpang(cfg.params);
      else
        icebreaking = plugin.make_icebreaking(cfg.params);
    } catch (const tactica::PluginError& e) {
      throw tactica::ConfigError(cfg.location("strategy") + ": strategy: " + e.what());
    }
  } catch (const tactica::ConfigError& e) {
    std::cerr << "tactica-agent: error: " << e.what() << "\n";
    return 2;
  }

  if (args.check) {
    const auto& info = plugin.info();
    std::cout << tactica::resolved_toml(cfg, info,
                                        {"tactica-agent --check: " + cfg.file + " is valid",
                                         "plugin " + info.name + " " + info.version + " (" +
                                             plugin.file().string() + "): " + info.summary});
    return 0;
  }

  // As a fused agent plays (tactica/agent_main.hpp).
  const tactica::SessionOptions opt = tactica::agent_options(
      cfg.time, cfg.seed, args.verbose, tactica::agent_banner("tactica-agent", cfg, plugin.info()));
  if (hanpang) return tactica::play_agent<tactica::HanpangSession>(*hanpang, opt);
  return tactica::play_agent<tactica::IcebreakingSession>(*icebreaking, opt);
}
