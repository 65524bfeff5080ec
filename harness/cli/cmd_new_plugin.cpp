// cmd_new_plugin.cpp — `tactica new-plugin NAME [--dir DIR] [--game hanpang|icebreaking|both]`:
// writes the skeleton of a strategy plugin (docs/PLUGINS.md) that builds, passes the conformance
// suite, fuses and plays as it is: plugins/NAME/ and configs/<game>/NAME.toml under DIR.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "cli/common.hpp"

namespace tactica::cli {
namespace {

namespace fs = std::filesystem;

struct NewPluginOptions {
  std::string name, dir = ".", game = "both";
  bool force = false;
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// ---- the templates (@NAME@ is the plugin's name) ----------------------------------------------

const char* kCMake = R"(# The @NAME@ strategy plugin (docs/PLUGINS.md): libtactica_@NAME@.so, and tactica_@NAME@_impl for
# static links and fuse. Every .cpp but plugin.cpp is the strategy; plugin.cpp only exports it.
tactica_add_plugin(@NAME@ SOURCES @SOURCES@ EXPORT plugin.cpp)
)";

const char* kPluginHpp = R"(// @NAME@ — a strategy plugin made by `tactica new-plugin` (docs/PLUGINS.md).
#pragma once

#include "tactica/registry.hpp"

// The three entry points every plugin defines in tactica::plugins::<name>: describe,
// make_hanpang and make_icebreaking (their signatures: DescribeFn, MakeHanpangFn and
// MakeIcebreakingFn in tactica/strategy.hpp).
TACTICA_PLUGIN_API(@NAME@)
)";

const char* kPluginCpp = R"(// Exports the @NAME@ plugin's entry points (Boost.DLL). fuse leaves this file out.
#include "tactica/plugin_export.hpp"
#include "@NAME@/plugin.hpp"

TACTICA_EXPORT_PLUGIN(tactica::plugins::@NAME@)
)";

const char* kDescribeHead = R"(// The @NAME@ plugin's descriptor: its name, version, games and parameters.
#include "@NAME@/plugin.hpp"

namespace tactica::plugins::@NAME@ {

PluginInfo describe() {
  PluginInfo info;
  info.name = "@NAME@";  // must match the folder and libtactica_@NAME@.so
  info.version = "0.1.0";
  info.summary = "@SUMMARY@";
)";

const char* kDescribeHanpang = R"(  info.plays_hanpang = true;
  // {name, type, default, min, max, help}: tactica-agent checks a config's [params] against these.
  info.hanpang_params = {
      {"safe_first", ParamType::boolean, 1, 0, 1,
       "prefer a group whose removal does not overflow a column"}};
)";

const char* kDescribeIcebreaking = R"(  info.plays_icebreaking = true;
  info.icebreaking_params = {
      {"capture_weight", ParamType::integer, 1, 0, 10,
       "weight of the captured cells' points against the cell's own"}};
)";

const char* kDescribeTail = R"(  return info;
}
@STUBS@
}  // namespace tactica::plugins::@NAME@
)";

const char* kNoHanpang = R"(
// This plugin does not play Hanpang (plays_hanpang is false): the host never calls this.
std::unique_ptr<HanpangStrategy> make_hanpang(const Params&) { return nullptr; }
)";

const char* kNoIcebreaking = R"(
// This plugin does not play Icebreaking (plays_icebreaking is false): the host never calls this.
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params&) { return nullptr; }
)";

const char* kHanpang = R"(// @NAME@, Hanpang: the largest group to remove now (safe ones first). Replace choose() with
// your search; keep its contract (docs/PLUGINS.md, "The Strategy interface").
#include "@NAME@/plugin.hpp"

namespace tactica::plugins::@NAME@ {

namespace {

class @CLASS@Hanpang final : public HanpangStrategy {
 public:
  explicit @CLASS@Hanpang(const Params& p) : safe_first_(p.boolean("safe_first")) {}

  void new_game(std::uint64_t /*seed*/) override { stats_ = {}; }

  // `s` is the board after this turn's row; return a cell that holds a tile. Publish the best
  // move found so far (the Session answers with it if the search overruns), stop at the hard
  // deadline, and count nodes against limits.node_budget when it is not 0.
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override {
    hanpang::GroupList groups;
    s.groups(groups);
    int best_cell = hanpang::kNoCell, best_size = -1;
    bool best_safe = false;
    std::uint64_t nodes = 0;
    for (const auto& g : groups) {
      if (best_cell != hanpang::kNoCell &&
          (limits.deadline.hard_expired() ||
           (limits.node_budget > 0 && nodes >= limits.node_budget)))
        break;
      ++nodes;
      const bool safe = !safe_first_ || !s.overflows(g.cells);
      if (best_cell == hanpang::kNoCell || (safe && !best_safe) ||
          (safe == best_safe && g.size > best_size)) {
        best_cell = g.rep, best_size = g.size, best_safe = safe;
        best.publish(best_cell);
      }
    }
    stats_.nodes = nodes;
    stats_.depth = 1;
    stats_.value = best_size;
    return best_cell;
  }

  SearchStats stats() const override { return stats_; }

 private:
  bool safe_first_;
  SearchStats stats_;
};

}  // namespace

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<@CLASS@Hanpang>(p);
}

}  // namespace tactica::plugins::@NAME@
)";

const char* kIcebreaking = R"(// @NAME@, Icebreaking: the move with the largest immediate gain. Replace choose() with your
// search; keep its contract (docs/PLUGINS.md, "The Strategy interface").
#include <climits>

#include "@NAME@/plugin.hpp"

namespace tactica::plugins::@NAME@ {

namespace {

class @CLASS@Icebreaking final : public IcebreakingStrategy {
 public:
  explicit @CLASS@Icebreaking(const Params& p)
      : capture_weight_(static_cast<int>(p.integer("capture_weight"))) {}

  void new_game(const icebreaking::Board& /*board*/, icebreaking::Player /*me*/,
                std::uint64_t /*seed*/) override {
    stats_ = {};
  }

  // Return an empty ice cell of `pos` (pos.to_move is this player), with the same duties as in
  // Hanpang: publish the best so far, honour the hard deadline and the node budget.
  int choose(const icebreaking::Board& b, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override {
    int best_cell = icebreaking::kNoCell, best_gain = INT_MIN;
    std::uint64_t nodes = 0;
    for (u128 ice = pos.ice; ice;) {
      if (best_cell != icebreaking::kNoCell &&
          (limits.deadline.hard_expired() ||
           (limits.node_budget > 0 && nodes >= limits.node_budget)))
        break;
      const int c = pop_lowest(ice);  // ascending cells: the first of equals is the lowest
      ++nodes;
      const int gain = b.score[c] + capture_weight_ * b.sum(pos.captures(c));
      if (gain > best_gain) {
        best_cell = c, best_gain = gain;
        best.publish(best_cell);
      }
    }
    stats_.nodes = nodes;
    stats_.depth = 1;
    stats_.value = best_gain;
    return best_cell;
  }

  // Every move of either side, with the position after it (for reusing a search tree).
  void observe(const icebreaking::Position& /*after*/, int /*cell*/) override {}

  SearchStats stats() const override { return stats_; }

 private:
  int capture_weight_;
  SearchStats stats_;
};

}  // namespace

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<@CLASS@Icebreaking>(p);
}

}  // namespace tactica::plugins::@NAME@
)";

const char* kConfig = R"(# @GAME@ / @NAME@: made by `tactica new-plugin` (docs/PLUGINS.md).
# Every key is documented in docs/CONFIG.md; check with: tactica-agent --config <this file> --check
game     = "@GAME@"
strategy = "@NAME@"      # plugin: libtactica_@NAME@.so
seed     = 1

[time]                    # how the 5,000 ms bank is spent (see docs/CONFIG.md, "Time manager")
reserve_ms       = 300
move_overhead_ms = 2
max_move_ms      = 0
node_budget      = 0      # 0: play on the clock

[params]                  # the plugin's own (tactica-agent --check lists them with their ranges)
@PARAM@
)";

// "my_plugin" -> "MyPlugin"
std::string class_name(const std::string& name) {
  std::string out;
  bool up = true;
  for (char ch : name) {
    if (ch == '_') {
      up = true;
      continue;
    }
    out += up && ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
    up = false;
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out = "P" + out;
  return out;
}

int run_new_plugin(const NewPluginOptions& o) {
  const std::string& name = o.name;
  const bool ok = !name.empty() && name.size() <= 40 && name[0] >= 'a' && name[0] <= 'z' &&
                  name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") ==
                      std::string::npos;
  if (!ok)
    throw harness::AgentError("'" + name +
                              "' is not a plugin name; allowed: a lower-case letter, then "
                              "lower-case letters, digits and '_' (at most 40)");
  const bool hanpang = o.game != "icebreaking", icebreaking = o.game != "hanpang";
  const fs::path root(o.dir);
  std::error_code ec;
  if (!fs::is_directory(root / "plugins", ec))
    throw harness::RunError(root.string() +
                            " has no plugins/ folder: run it at the top of a Tactica checkout "
                            "or give it with --dir DIR");
  const fs::path pdir = root / "plugins" / name;
  if (fs::exists(pdir, ec) && !o.force)
    throw harness::RunError(pdir.string() +
                            " already exists; choose another name (or --force to overwrite)");

  std::vector<std::pair<fs::path, std::string>> files;
  std::string sources = "describe.cpp";
  if (hanpang) sources += " hanpang.cpp";
  if (icebreaking) sources += " icebreaking.cpp";
  std::string summary = hanpang && icebreaking ? "largest safe group (Hanpang); largest immediate "
                                                 "gain (Icebreaking)"
                        : hanpang              ? "largest safe group now (Hanpang)"
                                               : "largest immediate gain (Icebreaking)";
  files.push_back({pdir / "CMakeLists.txt", replace_all(kCMake, "@SOURCES@", sources)});
  files.push_back({pdir / "plugin.hpp", kPluginHpp});
  files.push_back({pdir / "plugin.cpp", kPluginCpp});
  std::string describe = replace_all(kDescribeHead, "@SUMMARY@", summary);
  if (hanpang) describe += kDescribeHanpang;
  if (icebreaking) describe += kDescribeIcebreaking;
  describe += replace_all(kDescribeTail, "@STUBS@",
                          !hanpang ? kNoHanpang : !icebreaking ? kNoIcebreaking : "");
  files.push_back({pdir / "describe.cpp", describe});
  if (hanpang) files.push_back({pdir / "hanpang.cpp", kHanpang});
  if (icebreaking) files.push_back({pdir / "icebreaking.cpp", kIcebreaking});
  for (const char* g : {"hanpang", "icebreaking"}) {
    if ((g[0] == 'h' && !hanpang) || (g[0] == 'i' && !icebreaking)) continue;
    const fs::path cfg = root / "configs" / g / (name + ".toml");
    if (fs::exists(cfg, ec) && !o.force)
      throw harness::RunError(cfg.string() + " already exists (--force to overwrite)");
    std::string text = replace_all(kConfig, "@GAME@", g);
    text = replace_all(text, "@PARAM@",
                       g[0] == 'h' ? "safe_first = true" : "capture_weight = 1");
    files.push_back({cfg, text});
  }
  const std::string cls = class_name(name);
  for (auto& [path, text] : files) {
    text = replace_all(replace_all(text, "@NAME@", name), "@CLASS@", cls);
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw harness::RunError("cannot write " + path.string());
    std::printf("wrote %s\n", path.string().c_str());
  }
  std::printf(
      "next: cmake --build build/release (the plugins/ folders are found when CMake re-runs), "
      "then\n  build/release/bin/tactica-agent --config %s --check\n"
      "  ctest --preset release -R conformance\n"
      "docs/PLUGINS.md tells the rest: the Strategy interface, benching, fusing, submitting.\n",
      (root / "configs" / (hanpang ? "hanpang" : "icebreaking") / (name + ".toml"))
          .string()
          .c_str());
  return 0;
}

}  // namespace

void register_new_plugin(CLI::App& app, Context& ctx) {
  auto [o, n] = add_command<NewPluginOptions>(
      app, "new-plugin",
      "write the skeleton of a strategy plugin (plugins/NAME/ and configs/<game>/NAME.toml) that "
      "builds, passes the conformance suite, fuses and plays (docs/PLUGINS.md)");
  n->add_option("name", o->name, "the plugin's name: lower-case letters, digits, '_'")
      ->required();
  n->add_option("--dir", o->dir, "the Tactica checkout to write into (default: .)");
  n->add_option("--game", o->game, "the games it plays (default: both)")
      ->check(CLI::IsMember({"hanpang", "icebreaking", "both"}));
  n->add_flag("--force", o->force, "overwrite existing files");
  on_run(n, ctx, "new-plugin", o, run_new_plugin);
}

}  // namespace tactica::cli
