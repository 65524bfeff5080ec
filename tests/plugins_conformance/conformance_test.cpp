// The shared conformance suite (STYLE.md: one suite run over every plugin and game). Each
// plugin's own test file keeps what is particular to its algorithm; what every strategy owes the
// host is checked here, for every plugin the build links, the same way:
//   - its descriptor: the ABI version, at least one game, every default inside its range;
//   - legal moves, and a legal published best-so-far, on whole games (both Icebreaking sides,
//     against every plugin including itself, with observe() told every move as the host does);
//   - the same moves again from fresh instances with the same seed and a node budget;
//   - an answer within a short deadline on busy positions.
// A plugin is checked on the games it says it plays. The same file is built by the scaffold test
// (tests/scaffold) over a plugin made by `tactica new-plugin` alone, hence the minimum count.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "../plugin_testing.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/static_plugins.hpp"
#include "tactica/strategy.hpp"

using namespace tactica;

#ifndef TACTICA_CONFORMANCE_MIN_PLUGINS
#define TACTICA_CONFORMANCE_MIN_PLUGINS 4  // greedy, expectimax, beam, mcts
#endif

namespace {

bool plays(const PluginEntry& p, GameKind g) { return p.describe().plays(g); }

Params defaults(const PluginEntry& p, GameKind g) { return testing::params_of(p.describe(), g); }
using testing::budget;

using testing::ms_since;

// A Hanpang game of at most `actions` actions with the plugin's defaults.
std::vector<int> hanpang_game(const PluginEntry& p, std::uint64_t seed, int actions,
                              const SearchLimits& lim) {
  auto st = p.make_hanpang(defaults(p, GameKind::hanpang));
  REQUIRE(st);
  CAPTURE(p.name);
  return testing::play_hanpang(*st, seed, actions, lim);
}

// A whole Icebreaking game, a first and b second, both with their defaults.
std::vector<int> ice_game(const PluginEntry& a, const PluginEntry& b, std::uint64_t seed,
                          const SearchLimits& lim) {
  auto first = a.make_icebreaking(defaults(a, GameKind::icebreaking));
  auto second = b.make_icebreaking(defaults(b, GameKind::icebreaking));
  REQUIRE(first);
  REQUIRE(second);
  CAPTURE(a.name);
  CAPTURE(b.name);
  return testing::play_ice(*first, *second, seed, lim);
}

}  // namespace

TEST_CASE("conformance: every plugin describes its games with in-range defaults") {
  REQUIRE(static_plugins().size() >= TACTICA_CONFORMANCE_MIN_PLUGINS);
  for (const auto& p : static_plugins()) {
    CAPTURE(p.name);
    const PluginInfo info = p.describe();
    CHECK(info.name == p.name);
    CHECK(info.abi_version == kPluginAbiVersion);
    CHECK((info.plays_hanpang || info.plays_icebreaking));
    // A game it does not play has no parameters and no strategy.
    if (!info.plays_hanpang) CHECK(info.hanpang_params.empty());
    if (!info.plays_icebreaking) CHECK(info.icebreaking_params.empty());
    for (GameKind g : {GameKind::hanpang, GameKind::icebreaking})
      for (const auto& s : info.params(g)) {
        CAPTURE(s.name);
        CHECK(s.min <= s.default_value);
        CHECK(s.default_value <= s.max);
      }
  }
}

TEST_CASE("conformance: Hanpang — legal moves, deterministic on a budget") {
  for (const auto& p : static_plugins()) {
    if (!plays(p, GameKind::hanpang)) continue;
    for (std::uint64_t seed : {3u, 17u}) {
      const auto first = hanpang_game(p, seed, 40, budget(1500));
      const auto again = hanpang_game(p, seed, 40, budget(1500));
      CAPTURE(p.name);
      CHECK(first.size() >= 20);
      CHECK(first == again);
    }
  }
}

TEST_CASE("conformance: Icebreaking — legal moves on both sides against every plugin, deterministic on a budget") {
  for (const auto& a : static_plugins())
    for (const auto& b : static_plugins()) {
      if (!plays(a, GameKind::icebreaking) || !plays(b, GameKind::icebreaking)) continue;
      const auto first = ice_game(a, b, 5, budget(1500));
      const auto again = ice_game(a, b, 5, budget(1500));
      CAPTURE(a.name);
      CAPTURE(b.name);
      CHECK(first.size() >= 20);
      CHECK(first == again);
    }
}

TEST_CASE("conformance: every plugin answers within a short deadline") {
  // 5 ms soft, 20 ms hard on busy positions; the bound allows for a loaded CI machine.
  const auto lim = [] { return testing::deadline_ms(5, 20); };
  for (const auto& p : static_plugins()) {
    CAPTURE(p.name);
    if (plays(p, GameKind::hanpang)) {
      auto st = p.make_hanpang(defaults(p, GameKind::hanpang));
      st->new_game(9);
      const hanpang::State s = testing::rows_board(9, 9);
      BestMove best;
      const auto t0 = std::chrono::steady_clock::now();
      const int c = st->choose(s, lim(), best);
      CHECK(ms_since(t0) < 250);
      CHECK(s.colour_at(c) != 0);
    }
    if (plays(p, GameKind::icebreaking)) {
      const auto board = icebreaking::Board::from_seed(9);
      auto st = p.make_icebreaking(defaults(p, GameKind::icebreaking));
      st->new_game(board, icebreaking::A, 9);
      const auto pos = icebreaking::Position::start(board);
      BestMove best;
      const auto t0 = std::chrono::steady_clock::now();
      const int c = st->choose(board, pos, lim(), best);
      CHECK(ms_since(t0) < 250);
      CHECK(pos.legal(c));
    }
  }
}
