// Each plugin's parameters are declared once (tactica/param_table.hpp): this checks, for every
// plugin and game, that what describe() declares is what the plugin plays.
//   - describe() lists exactly the table's parameters, with the table's defaults and ranges;
//   - every default lies in its range and suits its type (integers whole, booleans 0 or 1);
//   - the Params the host resolves from the declared defaults read back to the config struct's
//     defaults, compared as whole structs (fields without a parameter included): what a
//     benchmark or a test gets from Config{} is what the agent plays on its defaults;
//   - every parameter moves its own field and no other.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "beam/params.hpp"
#include "beam/plugin.hpp"
#include "expectimax/params.hpp"
#include "expectimax/plugin.hpp"
#include "greedy/params.hpp"
#include "greedy/plugin.hpp"
#include "mcts/params.hpp"
#include "mcts/plugin.hpp"
#include "../plugin_testing.hpp"

using namespace tactica;

namespace {

template <class Config>
void check_table(const PluginInfo& info, GameKind g, const ParamTable<Config>& table) {
  const std::string where = info.name + "/" + game_name(g);
  CAPTURE(where);
  REQUIRE(info.plays(g));
  const auto& declared = info.params(g);
  const auto& entries = table.entries();
  REQUIRE(declared.size() == entries.size());
  const Config defaults{};

  for (std::size_t i = 0; i < declared.size(); ++i) {
    const ParamSpec& s = declared[i];
    CAPTURE(s.name);
    CHECK(s.name == entries[i].name);
    CHECK(s.type == entries[i].type);
    CHECK(s.min == entries[i].min);
    CHECK(s.max == entries[i].max);
    CHECK(s.default_value == entries[i].get(defaults));
    CHECK(s.min <= s.default_value);
    CHECK(s.default_value <= s.max);
    if (s.type != ParamType::real) CHECK(s.default_value == std::floor(s.default_value));
    if (s.type == ParamType::boolean) CHECK((s.default_value == 0 || s.default_value == 1));
    for (std::size_t j = 0; j < i; ++j) CHECK(declared[j].name != s.name);
  }

  // The agent's path: Params resolved from the declaration, then read by the plugin.
  const Params resolved = testing::params_of(info, g);
  CHECK(table.read(resolved) == defaults);
  CHECK(table.read(Params{}) == defaults);

  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    CAPTURE(e.name);
    const double d = e.get(defaults);
    const double v = d != e.max ? e.max : e.min;
    REQUIRE(v != d);
    Params p = resolved;
    p.set(e.name, v);
    const Config c = table.read(p);
    CHECK(e.get(c) == doctest::Approx(v));
    CHECK_FALSE(c == defaults);
    for (std::size_t j = 0; j < entries.size(); ++j)
      if (j != i) CHECK(entries[j].get(c) == entries[j].get(defaults));
  }
}

}  // namespace

TEST_CASE("greedy: declared defaults are what it plays") {
  const PluginInfo info = plugins::greedy::describe();
  check_table(info, GameKind::hanpang, plugins::greedy::hanpang_table());
  check_table(info, GameKind::icebreaking, plugins::greedy::icebreaking_table());
}

TEST_CASE("beam: declared defaults are what it plays") {
  const PluginInfo info = plugins::beam::describe();
  check_table(info, GameKind::hanpang, plugins::beam::hanpang_table());
  check_table(info, GameKind::icebreaking, plugins::beam::icebreaking_table());
}

TEST_CASE("expectimax: declared defaults are what it plays") {
  const PluginInfo info = plugins::expectimax::describe();
  check_table(info, GameKind::hanpang, plugins::expectimax::hanpang_table());
  check_table(info, GameKind::icebreaking, plugins::expectimax::icebreaking_table());
  // The values the plugin has always played (describe.cpp's); HanpangParams{} once held -40
  // and 0.6, which only the micro-benchmark ran.
  CHECK(plugins::expectimax::HanpangParams{}.weights.danger == -20.0);
  CHECK(plugins::expectimax::HanpangParams{}.weights.group_sq == 2.0);
}

TEST_CASE("mcts: declared defaults are what it plays") {
  const PluginInfo info = plugins::mcts::describe();
  check_table(info, GameKind::hanpang, plugins::mcts::hanpang_table());
  check_table(info, GameKind::icebreaking, plugins::mcts::icebreaking_table());
}

TEST_CASE("ParamTable: types from the fields, integers truncated as Params::integer does") {
  struct Inner {
    double x = 0.25;
    bool operator==(const Inner&) const = default;
  };
  struct Cfg {
    int n = 3;
    bool on = true;
    double r = 1.5;
    Inner in;
    bool operator==(const Cfg&) const = default;
  };
  const ParamTable<Cfg> t{{"n", &Cfg::n, 0, 10, "an integer"},
                          {"on", &Cfg::on, 0, 1, "a switch"},
                          {"r", &Cfg::r, 0, 2, "a real"},
                          {"x", &Cfg::in, &Inner::x, -1, 1, "a nested real"}};
  const auto specs = t.specs();
  REQUIRE(specs.size() == 4);
  CHECK(specs[0].type == ParamType::integer);
  CHECK(specs[0].default_value == 3);
  CHECK(specs[1].type == ParamType::boolean);
  CHECK(specs[1].default_value == 1);
  CHECK(specs[2].type == ParamType::real);
  CHECK(specs[3].type == ParamType::real);
  CHECK(specs[3].default_value == 0.25);
  Params p;
  p.set("n", 7.9);
  p.set("on", 0);
  p.set("x", -0.5);
  const Cfg c = t.read(p);
  CHECK(c.n == 7);
  CHECK_FALSE(c.on);
  CHECK(c.r == 1.5);  // not set: the default
  CHECK(c.in.x == -0.5);
  CHECK(t.read(t.params(c)) == c);
}
