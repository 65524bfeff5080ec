// strategy.hpp — the interface between the Session (protocol, time) and a strategy (search).
// Plugins implement these classes; the host loads them with Boost.DLL, fuse links them directly.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tactica/deadline.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica {

// Bumped whenever anything in this header changes layout or meaning; the loader refuses a
// plugin built against another version.
inline constexpr int kPluginAbiVersion = 1;

enum class GameKind { hanpang, icebreaking };
inline const char* game_name(GameKind g) { return g == GameKind::hanpang ? "hanpang" : "icebreaking"; }

// ---- parameters -------------------------------------------------------------------------------

enum class ParamType { integer, real, boolean };

struct ParamSpec {
  std::string name;
  ParamType type;
  double default_value;
  double min;
  double max;
  std::string help;  // one line
};

// Checked values by name. Every declared parameter is present once resolved (defaults filled).
class Params {
 public:
  void set(const std::string& name, double v) { values_[name] = v; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  double real(const std::string& name) const { return at(name); }
  std::int64_t integer(const std::string& name) const { return static_cast<std::int64_t>(at(name)); }
  bool boolean(const std::string& name) const { return at(name) != 0.0; }
  const std::map<std::string, double>& values() const { return values_; }

  // Fills every declared parameter that is not set with its default.
  void fill_defaults(const std::vector<ParamSpec>& specs) {
    for (const auto& s : specs)
      if (!has(s.name)) set(s.name, s.default_value);
  }

 private:
  double at(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw std::out_of_range("parameter '" + name + "' is not set");
    return it->second;
  }
  std::map<std::string, double> values_;
};

// ---- search limits and the best move so far -----------------------------------------------

struct SearchLimits {
  Deadline deadline = Deadline::never();
  // 0: no budget. Otherwise the search stops after about this many nodes (or iterations /
  // playouts, as the plugin defines a "node"), whatever the clock says: with a fixed seed and
  // a budget instead of a clock, the same position always gives the same move.
  std::uint64_t node_budget = 0;
  // What is left of the bank, for strategies that plan over the game (informational).
  std::int64_t bank_ms = 5000;
};

// A move the search publishes while it runs; the Session may answer with it if the search
// overruns. Written by the search thread, read by the Session: hence atomic.
class BestMove {
 public:
  void publish(int cell) { cell_.store(cell, std::memory_order_release); }
  int get() const { return cell_.load(std::memory_order_acquire); }
  void reset() { cell_.store(-1, std::memory_order_relaxed); }

 private:
  std::atomic<int> cell_{-1};
};

struct SearchStats {
  std::uint64_t nodes = 0;
  int depth = 0;       // completed depth or iterations, as the plugin defines it
  double value = 0.0;  // its estimate of the chosen move
};

// ---- strategies -------------------------------------------------------------------------------

class HanpangStrategy {
 public:
  virtual ~HanpangStrategy() = default;
  virtual void new_game(std::uint64_t /*seed*/) {}
  // `s` is the board after this turn's new row; returns a cell holding a tile (hanpang::cell).
  virtual int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) = 0;
  virtual SearchStats stats() const { return {}; }
};

class IcebreakingStrategy {
 public:
  virtual ~IcebreakingStrategy() = default;
  virtual void new_game(const icebreaking::Board& /*board*/, icebreaking::Player /*me*/,
                        std::uint64_t /*seed*/) {}
  // Returns an empty ice cell of `pos` (icebreaking::cell); pos.to_move is this player.
  virtual int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
                     const SearchLimits& limits, BestMove& best) = 0;
  // Told after every move of either player (for tree reuse); `after` is the position after it.
  virtual void observe(const icebreaking::Position& /*after*/, int /*cell*/) {}
  virtual SearchStats stats() const { return {}; }
};

// ---- the plugin descriptor -----------------------------------------------------------------

struct PluginInfo {
  int abi_version = kPluginAbiVersion;
  std::string name;     // "beam": the library is libtactica_beam.so
  std::string version;  // the plugin's own version, e.g. "1.0.0"
  std::string summary;  // one line
  std::vector<ParamSpec> hanpang_params;       // empty vector and plays_hanpang=false: not played
  std::vector<ParamSpec> icebreaking_params;
  bool plays_hanpang = false;
  bool plays_icebreaking = false;

  const std::vector<ParamSpec>& params(GameKind g) const {
    return g == GameKind::hanpang ? hanpang_params : icebreaking_params;
  }
  bool plays(GameKind g) const { return g == GameKind::hanpang ? plays_hanpang : plays_icebreaking; }
};

// The three functions every plugin defines (in namespace tactica::plugins::<name>) and exports
// under these names with Boost.DLL (see core/host/include/tactica/plugin_export.hpp).
using DescribeFn = PluginInfo();
using MakeHanpangFn = std::unique_ptr<HanpangStrategy>(const Params&);
using MakeIcebreakingFn = std::unique_ptr<IcebreakingStrategy>(const Params&);
inline constexpr const char* kDescribeSymbol = "tactica_describe";
inline constexpr const char* kMakeHanpangSymbol = "tactica_make_hanpang";
inline constexpr const char* kMakeIcebreakingSymbol = "tactica_make_icebreaking";

}  // namespace tactica
