// plugin_testing.hpp — what every plugin test needs, once: parameters from a descriptor, a node
// budget, and whole games played through the Strategy interface the way the host plays them
// (every move and every published best-so-far checked legal, observe() told every Icebreaking
// move). Used by tests/plugins_conformance (over every linked plugin) and by each plugin's own
// tests. Include it from a doctest test file.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <initializer_list>
#include <utility>
#include <vector>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/strategy.hpp"

namespace tactica::testing {

// The descriptor's defaults for game g, with `set` applied first.
inline Params params_of(const PluginInfo& info, GameKind g,
                        std::initializer_list<std::pair<const char*, double>> set = {}) {
  Params p;
  for (const auto& [k, v] : set) p.set(k, v);
  p.fill_defaults(info.params(g));
  return p;
}

inline SearchLimits budget(std::uint64_t nodes) {
  SearchLimits l;
  l.node_budget = nodes;
  return l;
}

// Limits with a soft and a hard deadline, in milliseconds from now.
inline SearchLimits deadline_ms(int soft, int hard) {
  SearchLimits l;
  l.deadline = Deadline::in(std::chrono::milliseconds(soft), std::chrono::milliseconds(hard));
  return l;
}

// Milliseconds of wall time since t0.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A busy Hanpang board: the first `rows` rows of `seed`, no move made.
inline hanpang::State rows_board(std::uint64_t seed, int rows) {
  hanpang::RowSource source(seed);
  hanpang::State s;
  for (int i = 0; i < rows; ++i) s.push_row(source.next());
  return s;
}

// One Hanpang game of at most `actions` actions on the rows of `seed`; returns the moves (and the
// final state in *out).
inline std::vector<int> play_hanpang(HanpangStrategy& st, std::uint64_t seed, int actions,
                                     const SearchLimits& lim, hanpang::State* out = nullptr) {
  st.new_game(seed);
  hanpang::RowSource rows(seed);
  hanpang::State s;
  s.push_row(rows.next());
  std::vector<int> moves;
  while (!s.over() && s.actions < actions) {
    BestMove best;
    const int c = st.choose(s, lim, best);
    CAPTURE(s.actions);
    REQUIRE(c >= 0);
    REQUIRE(c < 128);
    REQUIRE(s.colour_at(c) != 0);
    REQUIRE(best.get() >= 0);
    REQUIRE(best.get() < 128);
    REQUIRE(s.colour_at(best.get()) != 0);
    moves.push_back(c);
    s.play(c);
    if (!s.over()) s.push_row(rows.next());
  }
  if (out) *out = s;
  return moves;
}

// A whole Icebreaking game on the board of `seed`, a first and b second; returns the moves.
inline std::vector<int> play_ice(IcebreakingStrategy& a, IcebreakingStrategy& b, std::uint64_t seed,
                                 const SearchLimits& lim) {
  const auto board = icebreaking::Board::from_seed(seed);
  a.new_game(board, icebreaking::A, seed);
  b.new_game(board, icebreaking::B, seed + 1);
  auto pos = icebreaking::Position::start(board);
  std::vector<int> moves;
  while (!pos.over()) {
    BestMove best;
    IcebreakingStrategy& st = pos.to_move == icebreaking::A ? a : b;
    const int c = st.choose(board, pos, lim, best);
    CAPTURE(pos.ply);
    REQUIRE(pos.legal(c));
    REQUIRE(pos.legal(best.get()));
    moves.push_back(c);
    pos.play(board, c);
    a.observe(pos, c);
    b.observe(pos, c);
  }
  return moves;
}

}  // namespace tactica::testing
