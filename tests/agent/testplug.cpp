// testplug.cpp — a test-only strategy plugin for the agent tests (never shipped, never in the
// static plugin table). Its `mode` parameter makes it behave well or badly on purpose:
//   0 good       answers at once: the highest-index legal cell (so it differs from the fallback)
//   1 slow       publishes the good move, then sleeps sleep_ms ignoring its deadline
//   2 throwing   publishes the good move if `publish`, then throws
//   3 illegal    publishes the good move if `publish`, then returns an illegal cell
//   4 spin       publishes the good move, then burns CPU for sleep_ms ignoring its deadline
//   5 budget     lowest-index legal cell if it got a node budget and no clock, else the highest
//                legal cell once its soft deadline passed (it waits for it, sleeping in slices)
//   6 slow_init  new_game sleeps sleep_ms; choose is good
// Only the first `bad_calls` choose() calls misbehave; later ones are good.
// Built several times with different TESTPLUG_* definitions to test the loader's refusals.
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "tactica/strategy.hpp"
#ifndef TESTPLUG_NO_EXPORT
#include "tactica/plugin_export.hpp"
#endif

#ifndef TESTPLUG_NAME
#define TESTPLUG_NAME "testplug"
#endif
#ifndef TESTPLUG_ABI
#define TESTPLUG_ABI tactica::kPluginAbiVersion
#endif
#ifndef TESTPLUG_GAMES
#define TESTPLUG_GAMES 3  // 1: hanpang, 2: icebreaking, 3: both
#endif

namespace tactica::plugins::testplug {

namespace {

enum Mode { good, slow, throwing, illegal, spin, budget, slow_init };

struct Config {
  int mode;
  int sleep_ms;
  int bad_calls;
  bool publish;
  explicit Config(const Params& p)
      : mode(int(p.integer("mode"))),
        sleep_ms(int(p.integer("sleep_ms"))),
        bad_calls(int(p.integer("bad_calls"))),
        publish(p.boolean("publish")) {}
};

std::vector<ParamSpec> specs() {
  return {
      {"mode", ParamType::integer, 0, 0, 6,
       "0 good, 1 slow, 2 throwing, 3 illegal, 4 spin, 5 budget, 6 slow_init"},
      {"sleep_ms", ParamType::integer, 2000, 0, 60000, "how long slow/spin/slow_init take"},
      {"bad_calls", ParamType::integer, 1000000, 0, 1000000, "how many choose() calls misbehave"},
      {"publish", ParamType::boolean, 1, 0, 1, "publish the good move before misbehaving"},
      {"ratio", ParamType::real, 0.5, 0, 1, "unused; a real parameter for the config tests"},
  };
}

int highest_bit(u128 s) {
  const auto hi = static_cast<std::uint64_t>(s >> 64);
  return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<std::uint64_t>(s));
}

void burn(int ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  volatile std::uint64_t x = 0;
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 10000; ++i) x = x + i;
}

// The shared misbehaviour; `good` is the good answer, `bad_cell` an illegal one.
int act(const Config& c, int& calls, const SearchLimits& limits, BestMove& best, int good_cell,
        int low_cell, int bad_cell) {
  const bool bad = calls++ < c.bad_calls;
  if (!bad || c.mode == good || c.mode == slow_init) {
    best.publish(good_cell);
    return good_cell;
  }
  switch (c.mode) {
    case slow:
      best.publish(good_cell);
      std::this_thread::sleep_for(std::chrono::milliseconds(c.sleep_ms));
      return good_cell;
    case throwing:
      if (c.publish) best.publish(good_cell);
      throw std::runtime_error("testplug: deliberate failure");
    case illegal:
      if (c.publish) best.publish(good_cell);
      return bad_cell;
    case spin:
      best.publish(good_cell);
      burn(c.sleep_ms);
      return good_cell;
    case budget:
      if (limits.node_budget > 0 && limits.deadline.unlimited()) return low_cell;
      while (!limits.deadline.soft_expired())
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      return good_cell;
    default:
      return good_cell;
  }
}

class Hanpang final : public HanpangStrategy {
 public:
  explicit Hanpang(const Params& p) : c_(p) {}
  void new_game(std::uint64_t) override {
    if (c_.mode == slow_init) std::this_thread::sleep_for(std::chrono::milliseconds(c_.sleep_ms));
  }
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override {
    const u128 occ = s.occupied();
    if (!occ) return -1;
    return act(c_, calls_, limits, best, highest_bit(occ), lowest_bit(occ),
               hanpang::cell(0, 15));  // height 15: a guard bit, never a tile
  }
  SearchStats stats() const override { return {std::uint64_t(calls_), 1, 0.0}; }

 private:
  Config c_;
  int calls_ = 0;
};

class Icebreaking final : public IcebreakingStrategy {
 public:
  explicit Icebreaking(const Params& p) : c_(p) {}
  void new_game(const icebreaking::Board& board, icebreaking::Player me, std::uint64_t) override {
    if (c_.mode == slow_init) std::this_thread::sleep_for(std::chrono::milliseconds(c_.sleep_ms));
    board_ = &board;
    me_ = me;
    mine_ = icebreaking::Position::start(board);
  }
  int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override {
    // Checks the Session's observe() calls kept our copy in step with the game.
    if (!board_ || !(mine_.ice == pos.ice) || mine_.to_move != pos.to_move || pos.to_move != me_ ||
        &board != board_)
      std::fprintf(stderr, "testplug: observe mismatch at ply %d\n", pos.ply);
    if (!pos.ice) return -1;
    return act(c_, calls_, limits, best, highest_bit(pos.ice), lowest_bit(pos.ice),
               icebreaking::cell(0, 9));  // the guard column: never a cell
  }
  void observe(const icebreaking::Position& after, int) override { mine_ = after; }
  SearchStats stats() const override { return {std::uint64_t(calls_), 1, 0.0}; }

 private:
  Config c_;
  int calls_ = 0;
  const icebreaking::Board* board_ = nullptr;
  icebreaking::Player me_ = icebreaking::A;
  icebreaking::Position mine_;
};

}  // namespace

PluginInfo describe() {
  PluginInfo info;
  info.abi_version = TESTPLUG_ABI;
  info.name = TESTPLUG_NAME;
  info.version = "0.0.1";
  info.summary = "test-only strategy that misbehaves on purpose";
  info.plays_hanpang = (TESTPLUG_GAMES & 1) != 0;
  info.plays_icebreaking = (TESTPLUG_GAMES & 2) != 0;
  if (info.plays_hanpang) info.hanpang_params = specs();
  if (info.plays_icebreaking) info.icebreaking_params = specs();
  return info;
}

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  if (!(TESTPLUG_GAMES & 1)) return nullptr;
  return std::make_unique<Hanpang>(p);
}
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  if (!(TESTPLUG_GAMES & 2)) return nullptr;
  return std::make_unique<Icebreaking>(p);
}

}  // namespace tactica::plugins::testplug

#ifndef TESTPLUG_NO_EXPORT
TACTICA_EXPORT_PLUGIN(tactica::plugins::testplug)
#endif
