// synthplug.cpp — a test-only plugin whose strength is a known function of its parameters, for
// the tune tests: q = max(0, 1 - d), d the distance of (x, y, n) to the optimum (7, -1, 12) in
// units of each declared range. On every turn it plays the best move of a one-ply greedy with
// probability q and the worst otherwise (the coin is a hash of the position, so two candidates
// that reach the same position toss the same coin). So the closer a candidate is to the optimum,
// the more it scores (Hanpang) and the more it wins (Icebreaking): SPSA and CMA-ES must find
// x = 7, y = -1, n = 12 through the real judge and tactica-agent.
#include <algorithm>
#include <cmath>

#include "tactica/plugin_export.hpp"
#include "tactica/rng.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::synth {
namespace {

std::vector<ParamSpec> specs() {
  return {
      {"x", ParamType::real, 2, 0, 10, "a real parameter; best at 7"},
      {"y", ParamType::real, 3, -5, 5, "a real parameter; best at -1"},
      {"n", ParamType::integer, 30, 0, 40, "an integer parameter; best at 12"},
      {"flag", ParamType::boolean, 0, 0, 1, "a boolean (tune refuses it)"},
  };
}

double quality(const Params& p) {
  const double dx = (p.real("x") - 7) / 10, dy = (p.real("y") + 1) / 10,
               dn = (static_cast<double>(p.integer("n")) - 12) / 40;
  return std::max(0.0, 1.0 - std::sqrt(dx * dx + dy * dy + dn * dn));
}

std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }  // x: a copy, advanced
std::uint64_t hash(u128 v, std::uint64_t h) {
  return mix(h ^ mix(static_cast<std::uint64_t>(v) ^ mix(static_cast<std::uint64_t>(v >> 64))));
}
double coin(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

class Hanpang final : public HanpangStrategy {
 public:
  explicit Hanpang(const Params& p) : q_(quality(p)) {}
  int choose(const hanpang::State& s, const SearchLimits&, BestMove& best) override {
    hanpang::GroupList groups;
    s.groups(groups);
    if (groups.size() == 0) return -1;
    std::uint64_t h = static_cast<std::uint64_t>(s.actions);
    for (const auto& plane : s.planes) h = hash(plane, h);
    const bool good = coin(h) < q_;
    const hanpang::Group* pick = &groups[0];
    for (const auto& g : groups)
      if (good ? g.size > pick->size : g.size < pick->size) pick = &g;
    best.publish(pick->rep);
    return pick->rep;
  }

 private:
  double q_;
};

class Icebreaking final : public IcebreakingStrategy {
 public:
  explicit Icebreaking(const Params& p) : q_(quality(p)) {}
  int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
             const SearchLimits&, BestMove& best) override {
    icebreaking::MoveList moves;
    pos.moves(moves);
    if (moves.size() == 0) return -1;
    const bool good = coin(hash(pos.ice, static_cast<std::uint64_t>(pos.ply))) < q_;
    int pick = moves[0], pick_gain = 0;
    for (int i = 0; i < moves.size(); ++i) {
      icebreaking::Position after = pos;
      const int gain = after.play(board, moves[i]).gain;
      if (i == 0 || (good ? gain > pick_gain : gain < pick_gain)) pick = moves[i], pick_gain = gain;
    }
    best.publish(pick);
    return pick;
  }

 private:
  double q_;
};

}  // namespace

PluginInfo describe() {
  PluginInfo info;
  info.name = "synth";
  info.version = "0.0.1";
  info.summary = "test-only: strength a known function of x, y, n (best at 7, -1, 12)";
  info.plays_hanpang = info.plays_icebreaking = true;
  info.hanpang_params = info.icebreaking_params = specs();
  return info;
}
std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) { return std::make_unique<Hanpang>(p); }
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<Icebreaking>(p);
}

}  // namespace tactica::plugins::synth

TACTICA_EXPORT_PLUGIN(tactica::plugins::synth)
