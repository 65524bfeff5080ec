// config.cpp — reading and checking agent configs with toml++ (see tactica/config.hpp).
#include "tactica/config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tactica {
namespace {

const char* kTopKeys = "game, strategy, seed, [time], [params]";

struct TimeKey {
  const char* name;
  std::int64_t min, max;
  std::int64_t TimeConfig::*field;  // one of the two is set
  std::uint64_t TimeConfig::*ufield;
};
const TimeKey kTimeKeys[] = {
    {"reserve_ms", 0, 60'000, &TimeConfig::reserve_ms, nullptr},
    {"move_overhead_ms", 0, 1'000, &TimeConfig::move_overhead_ms, nullptr},
    {"max_move_ms", 0, 60'000, &TimeConfig::max_move_ms, nullptr},
    {"node_budget", 0, 1'000'000'000'000, nullptr, &TimeConfig::node_budget},
    {"bank_ms", 1, 3'600'000, &TimeConfig::bank_ms, nullptr},
    {"cpu_cap_ms", 0, 3'600'000, &TimeConfig::cpu_cap_ms, nullptr},
};

std::string time_keys() {
  std::string s;
  for (const auto& k : kTimeKeys) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

std::string type_name(const toml::node& v) {
  switch (v.type()) {
    case toml::node_type::string:
      return "string";
    case toml::node_type::integer:
      return "integer";
    case toml::node_type::floating_point:
      return "float";
    case toml::node_type::boolean:
      return "boolean";
    case toml::node_type::table:
      return "table";
    case toml::node_type::array:
      return "array";
    case toml::node_type::date:
      return "date";
    case toml::node_type::time:
      return "time";
    case toml::node_type::date_time:
      return "date-time";
    default:
      return "nothing";
  }
}

std::string with_article(const std::string& t) {
  return (t.empty() || std::string("aeiou").find(t[0]) == std::string::npos ? "a " : "an ") + t;
}

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& what) {
  throw ConfigError(where + ": " + key + ": " + what);
}

std::string at(const std::string& file, const toml::source_region& src) {
  return src.begin.line ? file + ":" + std::to_string(src.begin.line) : file;
}

std::int64_t get_int(const toml::node& v, const std::string& where, const std::string& key,
                     std::int64_t lo, std::int64_t hi) {
  const auto range = std::to_string(lo) + ".." + std::to_string(hi);
  if (!v.is_integer())
    fail(where, key, "expected an integer " + range + ", got " + with_article(type_name(v)));
  const std::int64_t x = v.as_integer()->get();
  if (x < lo || x > hi) fail(where, key, std::to_string(x) + " is out of range; allowed: " + range);
  return x;
}

std::string get_string(const toml::node& v, const std::string& where, const std::string& key,
                       const std::string& allowed) {
  if (!v.is_string())
    fail(where, key,
         "expected a string, got " + with_article(type_name(v)) + "; allowed: " + allowed);
  return v.as_string()->get();
}

// Applies one key (dotted: "seed", "time.reserve_ms", "params.width") with its value.
void apply(AgentConfig& cfg, const std::string& key, const toml::node& v,
           const std::string& where) {
  if (key == "game") {
    const std::string g = get_string(v, where, key, "\"hanpang\", \"icebreaking\"");
    if (g == "hanpang")
      cfg.game = GameKind::hanpang;
    else if (g == "icebreaking")
      cfg.game = GameKind::icebreaking;
    else
      fail(where, key, "unknown game \"" + g + "\"; allowed: \"hanpang\", \"icebreaking\"");
  } else if (key == "strategy") {
    const std::string s = get_string(v, where, key, "a plugin name such as \"beam\"");
    const bool ok = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
    if (!ok)
      fail(where, key,
           "\"" + s + "\" is not a plugin name; allowed: lower-case letters, digits, '_'");
    cfg.strategy = s;
  } else if (key == "seed") {
    cfg.seed = static_cast<std::uint64_t>(get_int(v, where, key, 0, INT64_MAX));
  } else if (key.starts_with("time.")) {
    const std::string name = key.substr(5);
    const auto it = std::find_if(std::begin(kTimeKeys), std::end(kTimeKeys),
                                 [&](const TimeKey& k) { return name == k.name; });
    if (it == std::end(kTimeKeys))
      fail(where, key, "unknown key in [time]; allowed: " + time_keys());
    const std::int64_t x = get_int(v, where, key, it->min, it->max);
    if (it->field)
      cfg.time.*(it->field) = x;
    else
      cfg.time.*(it->ufield) = static_cast<std::uint64_t>(x);
  } else if (key.starts_with("params.") && key.size() > 7) {
    RawParam p;
    p.where = where;
    p.type_name = type_name(v);
    if (v.is_integer())
      p.type = RawParam::integer, p.value = static_cast<double>(v.as_integer()->get());
    else if (v.is_floating_point())
      p.type = RawParam::real, p.value = v.as_floating_point()->get();
    else if (v.is_boolean())
      p.type = RawParam::boolean, p.value = v.as_boolean()->get() ? 1.0 : 0.0;
    cfg.raw_params[key.substr(7)] = p;
  } else {
    fail(where, key, std::string("unknown key; allowed: ") + kTopKeys);
  }
  cfg.where[key] = where;
}

// Applies a whole [section] table of the file.
void apply_section(AgentConfig& cfg, const std::string& section, const toml::node& v,
                   const std::string& where) {
  if (!v.is_table())
    fail(where, section, "expected a table [" + section + "], got " + with_article(type_name(v)));
  for (auto&& [k, val] : *v.as_table()) {
    const std::string key = section + "." + std::string(k.str());
    const std::string w = at(cfg.file, val.source());
    if (val.is_table() || val.is_array())
      fail(w, key, "expected a number or a boolean, got " + with_article(type_name(val)));
    apply(cfg, key, val, w);
  }
}

// An override "key=value": the value is read as TOML, or taken as a string if it is not TOML
// (so --set strategy=beam needs no quotes).
void apply_set(AgentConfig& cfg, const std::string& set) {
  const std::string where = "--set " + set;
  const auto eq = set.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(where + ": expected key=value, e.g. params.width=300 or time.reserve_ms=200");
  std::string key = set.substr(0, eq);
  key.erase(key.find_last_not_of(" \t") + 1);
  std::string value = set.substr(eq + 1);
  const auto first = value.find_first_not_of(" \t");
  value = first == std::string::npos ? "" : value.substr(first);
  if (key == "time" || key == "params")
    fail(where, key, "set one key of the section, e.g. " + key + ".<name>=<value>");
  toml::table t;
  try {
    t = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    t = toml::table{};
    t.insert("v", value);
  }
  if (!t.get("v")) t.insert_or_assign("v", value);
  apply(cfg, key, *t.get("v"), where);
}

std::string shortest(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".eE") == std::string::npos && s.find_first_of("ni") == std::string::npos)
    s += ".0";  // keep it a TOML float
  return s;
}

}  // namespace

std::string AgentConfig::location(const std::string& key) const {
  const auto it = where.find(key);
  return it != where.end() ? it->second : file;
}

AgentConfig load_config(const std::string& file, const std::vector<std::string>& sets) {
  AgentConfig cfg;
  cfg.file = file;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw ConfigError(file + ": no such config file (configs are in configs/<game>/*.toml)");
  if (std::filesystem::is_directory(file, ec))
    throw ConfigError(file + ": is a directory, not a config file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  toml::table tbl;
  try {
    tbl = toml::parse(text.str(), file);
  } catch (const toml::parse_error& e) {
    throw ConfigError(at(file, e.source()) +
                      ": TOML syntax error: " + std::string(e.description()));
  }
  for (auto&& [k, v] : tbl) {
    const std::string key(k.str());
    const std::string where = at(file, k.source());
    if (key == "time" || key == "params")
      apply_section(cfg, key, v, where);
    else if (key == "game" || key == "strategy" || key == "seed")
      apply(cfg, key, v, where);
    else
      fail(where, key, std::string("unknown key; allowed: ") + kTopKeys);
  }
  for (const auto& s : sets) apply_set(cfg, s);
  if (!cfg.where.count("game"))
    fail(file, "game", "missing; allowed: \"hanpang\", \"icebreaking\"");
  if (!cfg.where.count("strategy"))
    fail(file, "strategy", "missing; name a plugin, e.g. strategy = \"greedy\"");
  return cfg;
}

std::string describe_param_type(const ParamSpec& s) {
  switch (s.type) {
    case ParamType::integer:
      return "integer " + std::to_string(static_cast<std::int64_t>(s.min)) + ".." +
             std::to_string(static_cast<std::int64_t>(s.max));
    case ParamType::real:
      return "real " + shortest(s.min) + ".." + shortest(s.max);
    case ParamType::boolean:
      return "boolean";
  }
  return "?";
}

std::string format_param(const ParamSpec& s, double v) {
  switch (s.type) {
    case ParamType::integer:
      return std::to_string(static_cast<std::int64_t>(v));
    case ParamType::real:
      return shortest(v);
    case ParamType::boolean:
      return v != 0.0 ? "true" : "false";
  }
  return "?";
}

std::string agent_banner(std::string_view program, const AgentConfig& cfg, const PluginInfo& info) {
  std::string s = std::string(program) + ": " + game_name(cfg.game) + ", plugin " + info.name +
                  " " + info.version + ", seed " + std::to_string(cfg.seed) + ", params";
  const auto& specs = info.params(cfg.game);
  if (specs.empty()) s += " (none)";
  for (const auto& p : specs) s += " " + p.name + "=" + format_param(p, cfg.params.real(p.name));
  const auto& t = cfg.time;
  return s + ", time reserve_ms=" + std::to_string(t.reserve_ms) +
         " move_overhead_ms=" + std::to_string(t.move_overhead_ms) +
         " max_move_ms=" + std::to_string(t.max_move_ms) +
         " node_budget=" + std::to_string(t.node_budget) + " bank_ms=" + std::to_string(t.bank_ms) +
         " cpu_cap_ms=" + std::to_string(t.cpu_cap_ms);
}

void resolve_params(AgentConfig& cfg, const PluginInfo& info) {
  const auto& specs = info.params(cfg.game);
  Params out;
  for (const auto& [name, raw] : cfg.raw_params) {
    const std::string key = "params." + name;
    const auto it = std::find_if(specs.begin(), specs.end(),
                                 [&](const ParamSpec& s) { return s.name == name; });
    if (it == specs.end()) {
      std::string allowed;
      for (const auto& s : specs)
        allowed += (allowed.empty() ? "" : ", ") + s.name + " (" + describe_param_type(s) + ")";
      fail(raw.where, key,
           "unknown parameter of plugin '" + info.name + "' for " + game_name(cfg.game) +
               "; allowed: " + (allowed.empty() ? "none" : allowed));
    }
    const ParamSpec& s = *it;
    const bool type_ok = (s.type == ParamType::integer && raw.type == RawParam::integer) ||
                         (s.type == ParamType::real &&
                          (raw.type == RawParam::integer || raw.type == RawParam::real)) ||
                         (s.type == ParamType::boolean && raw.type == RawParam::boolean);
    if (!type_ok)
      fail(raw.where, key,
           "expected " + describe_param_type(s) + ", got " + with_article(raw.type_name));
    if (s.type != ParamType::boolean &&
        (raw.value < s.min || raw.value > s.max || std::isnan(raw.value)))
      fail(raw.where, key,
           format_param(s, raw.value) + " is out of range; allowed: " + describe_param_type(s));
    out.set(name, raw.value);
  }
  out.fill_defaults(specs);
  cfg.params = std::move(out);
}

std::string resolved_toml(const AgentConfig& cfg, const PluginInfo& info,
                          const std::vector<std::string>& header) {
  std::ostringstream o;
  for (const auto& h : header) o << "# " << h << "\n";
  o << "game = \"" << game_name(cfg.game) << "\"\n";
  o << "strategy = \"" << cfg.strategy << "\"\n";
  o << "seed = " << cfg.seed << "\n\n[time]\n";
  for (const auto& k : kTimeKeys)
    o << k.name << " = "
      << (k.field ? cfg.time.*(k.field) : static_cast<std::int64_t>(cfg.time.*(k.ufield))) << "\n";
  o << "\n[params]\n";
  for (const auto& s : info.params(cfg.game)) {
    std::string line =
        s.name + " = " +
        format_param(s, cfg.params.has(s.name) ? cfg.params.real(s.name) : s.default_value);
    if (line.size() < 28) line.resize(28, ' ');
    o << line << " # " << describe_param_type(s) << ", default " << format_param(s, s.default_value)
      << (s.help.empty() ? "" : ": " + s.help) << "\n";
  }
  return o.str();
}

}  // namespace tactica
