// config.hpp — the TOML config of an agent (docs/CONFIG.md): game, strategy, seed, [time],
// [params], plus --set overrides. toml++ stays in config.cpp: this header is standard library
// only. Every error is a ConfigError whose message reads "<where>: <key>: <what>; allowed: ...",
// <where> being "file:line" or "--set key=value".
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tactica/strategy.hpp"
#include "tactica/timebank.hpp"

namespace tactica {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A [params] value as written, before the plugin's ParamSpec checks it.
struct RawParam {
  enum Type { integer, real, boolean, other } type = other;
  double value = 0;
  std::string type_name;  // as TOML calls it: "integer", "float", "boolean", "string", ...
  std::string where;      // "file:line" or "--set params.x=..."
};

struct AgentConfig {
  std::string file;
  GameKind game = GameKind::hanpang;
  std::string strategy;
  std::uint64_t seed = 1;
  TimeConfig time;
  std::map<std::string, RawParam> raw_params;  // as written (file, then --set)
  Params params;                               // checked and complete, after resolve_params
  std::map<std::string, std::string> where;    // key ("game", "time.reserve_ms", ...) -> where

  // Where a key was set ("file:line", "--set ..."), or the file name if it was not.
  std::string location(const std::string& key) const;
};

// Reads `file` and applies `sets` ("key=value", e.g. "params.width=300", "time.reserve_ms=200",
// "seed=3") in order. Checks every key except [params] (that needs the plugin). Throws
// ConfigError.
AgentConfig load_config(const std::string& file, const std::vector<std::string>& sets = {});

// Checks [params] against the plugin's declared parameters (name, type, range) and fills
// cfg.params with every declared parameter, defaults included. Throws ConfigError.
void resolve_params(AgentConfig& cfg, const PluginInfo& info);

// The resolved config as TOML (a valid config itself), every key present, parameters annotated
// with their type, range and help; `header` lines are written first as comments.
std::string resolved_toml(const AgentConfig& cfg, const PluginInfo& info,
                          const std::vector<std::string>& header = {});

// The line an agent prints on stderr when it starts: "<program>: <game>, plugin <name> <version>,
// seed <seed>, params <name>=<value>..., time <key>=<value>..." (tactica-agent's, and the one
// `tactica fuse` bakes into a fused file).
std::string agent_banner(std::string_view program, const AgentConfig& cfg, const PluginInfo& info);

// "integer 1..1000" / "real 0..1" / "boolean"
std::string describe_param_type(const ParamSpec& spec);
// A parameter value as TOML writes it: 200, 0.25, true.
std::string format_param(const ParamSpec& spec, double value);

}  // namespace tactica
