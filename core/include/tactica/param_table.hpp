// param_table.hpp — each plugin parameter declared once: one table per plugin and game binds a
// parameter's name, range and help to the field of the plugin's config struct it sets. The type
// (integer, real, boolean) is the field's, the default is the field's value in a
// default-constructed Config, so the ParamSpec list a plugin describes, the reading of Params
// into its Config and the Config's defaults cannot disagree.
//
//   struct Config { int width = 64; double mix = 0.5; Weights w; };
//   const ParamTable<Config> table{
//       {"width", &Config::width, 1, 2000, "beam width"},
//       {"mix", &Config::mix, 0, 1, "weight of the second opinion"},
//       {"w_tile", &Config::w, &Weights::tile, -100, 100, "eval: per tile"}};  // a nested field
//   info.hanpang_params = table.specs();   // describe(), or describe_plugin(...) below
//   const Config c = table.read(params);   // make_hanpang()
//
// Standard library only: this header goes into fused submissions.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tactica/strategy.hpp"

namespace tactica {

// The ParamType of a config field of type M: bool is boolean, other integers integer, floating
// point real.
template <class M>
constexpr ParamType param_type_of() {
  static_assert(std::is_arithmetic_v<M>, "a parameter's field must be bool, an integer or floating point");
  if constexpr (std::is_same_v<M, bool>)
    return ParamType::boolean;
  else if constexpr (std::is_integral_v<M>)
    return ParamType::integer;
  else
    return ParamType::real;
}

// Stores a parameter's value into a field as Params' own accessors read it: an integer through
// Params::integer's truncation to int64, a boolean as "not zero".
template <class M>
M param_field_value(double v) {
  if constexpr (std::is_same_v<M, bool>)
    return v != 0.0;
  else if constexpr (std::is_integral_v<M>)
    return static_cast<M>(static_cast<std::int64_t>(v));
  else
    return static_cast<M>(v);
}

template <class Config>
class ParamTable {
 public:
  struct Entry {
    std::string name;
    ParamType type;
    double min;
    double max;
    std::string help;
    std::function<void(Config&, double)> set;
    std::function<double(const Config&)> get;

    // A field of Config.
    template <class M>
    Entry(std::string n, M Config::*field, double lo, double hi, std::string h)
        : name(std::move(n)), type(param_type_of<M>()), min(lo), max(hi), help(std::move(h)),
          set([field](Config& c, double v) { c.*field = param_field_value<M>(v); }),
          get([field](const Config& c) { return static_cast<double>(c.*field); }) {}

    // A field of a struct held in Config (e.g. the evaluation weights).
    template <class S, class M>
    Entry(std::string n, S Config::*outer, M S::*field, double lo, double hi, std::string h)
        : name(std::move(n)), type(param_type_of<M>()), min(lo), max(hi), help(std::move(h)),
          set([outer, field](Config& c, double v) { (c.*outer).*field = param_field_value<M>(v); }),
          get([outer, field](const Config& c) { return static_cast<double>((c.*outer).*field); }) {}
  };

  ParamTable(std::initializer_list<Entry> entries) : entries_(entries) {}

  const std::vector<Entry>& entries() const { return entries_; }

  // The declared parameters, in table order, each defaulting to its field in Config{}.
  std::vector<ParamSpec> specs() const {
    const Config d{};
    std::vector<ParamSpec> out;
    out.reserve(entries_.size());
    for (const auto& e : entries_) out.push_back({e.name, e.type, e.get(d), e.min, e.max, e.help});
    return out;
  }

  // Config{} with every parameter set in `p` stored into its field; a parameter `p` lacks keeps
  // its default (which is what the resolved Params would hold for it anyway).
  Config read(const Params& p) const {
    Config c{};
    for (const auto& e : entries_)
      if (p.has(e.name)) e.set(c, p.real(e.name));
    return c;
  }

  // The Params that read() turns into `c` (every declared parameter set).
  Params params(const Config& c) const {
    Params p;
    for (const auto& e : entries_) p.set(e.name, e.get(c));
    return p;
  }

 private:
  std::vector<Entry> entries_;
};

// The descriptor of a plugin that plays both games, its parameters those of its two tables.
template <class HanpangConfig, class IcebreakingConfig>
PluginInfo describe_plugin(std::string name, std::string version, std::string summary,
                           const ParamTable<HanpangConfig>& hanpang,
                           const ParamTable<IcebreakingConfig>& icebreaking) {
  PluginInfo info;
  info.name = std::move(name);
  info.version = std::move(version);
  info.summary = std::move(summary);
  info.plays_hanpang = info.plays_icebreaking = true;
  info.hanpang_params = hanpang.specs();
  info.icebreaking_params = icebreaking.specs();
  return info;
}

}  // namespace tactica
