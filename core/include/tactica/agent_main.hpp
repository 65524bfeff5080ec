// agent_main.hpp — how an agent program plays once its config is resolved. tactica-agent
// (core/host/main.cpp: TOML config, plugin loaded) and every fused main.cpp (config baked in,
// run_agent_main) end here, so the two cannot drift. Templates over the game's Session
// (session_hanpang.hpp, session_icebreaking.hpp): a fused file inlines only its game's loop.
// Standard library only (it goes into fused submissions).
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "tactica/registry.hpp"
#include "tactica/session_core.hpp"
#include "tactica/strategy.hpp"
#include "tactica/timebank.hpp"

namespace tactica {

// An agent program's Session options: its config's [time] and seed, --verbose, and the banner
// it prints first; the rest as the Session defaults them (worker thread, stdin/stdout/stderr).
inline SessionOptions agent_options(const TimeConfig& time, std::uint64_t seed, bool verbose,
                                    std::string banner) {
  SessionOptions o;
  o.time = time;
  o.seed = seed;
  o.verbose = verbose;
  o.banner = std::move(banner);
  return o;
}

// Plays one game of Session's game with `strategy`; returns the exit status.
template <class Session>
int play_agent(typename Session::Strategy& strategy, const SessionOptions& options) {
  Session session(strategy, options);
  return session.run();
}

// A fused main.cpp's config, resolved by `tactica fuse` as tactica-agent resolves it.
struct EmbeddedConfig {
  std::string strategy;  // the plugin's name in the registry
  Params params;         // every parameter
  TimeConfig time;
  std::uint64_t seed = 1;
  std::string banner;
};

// main() of a fused agent for Session's game. Its one flag is --verbose (-v); other arguments
// are named on stderr and ignored. The strategy is the registry's `config.strategy`, made with the
// baked parameters (and the defaults of any its sources declare beyond them); if it cannot be
// made, fallback moves are played to the end, as a submission must finish its game.
template <class Session>
int run_agent_main(int argc, char** argv, const StrategyRegistry& registry,
                   const EmbeddedConfig& config) {
  using Strategy = typename Session::Strategy;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--verbose" || arg == "-v")
      verbose = true;
    else
      std::fprintf(stderr, "tactica: ignoring argument '%s' (a fused agent takes only --verbose)\n",
                   argv[i]);
  }
  std::unique_ptr<Strategy> strategy;
  try {
    const PluginEntry& entry = registry.get(config.strategy);
    Params params = config.params;
    params.fill_defaults(entry.describe().params(Session::kGame));
    strategy = make_strategy<Strategy>(entry, params);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tactica: %s; playing fallback moves\n", e.what());
  }
  if (!strategy) strategy = std::make_unique<typename Session::FallbackStrategy>();
  return play_agent<Session>(*strategy,
                             agent_options(config.time, config.seed, verbose, config.banner));
}

}  // namespace tactica
