// game.hpp — the Game concept: what an algorithm written once needs from a game, and the two
// games' models of it.
//
// An algorithm (plugins/<algorithm>/) is a template over a type G modelling `Game`; it holds a
// `const G&` and calls its members, which are inline and non-virtual, so a search loop costs what
// the hand-written one did. What differs between the games is said by two compile-time facts:
//
//   G::kPlayers  1 or 2: who acts (G::to_move) and whose returns an algorithm maximises;
//   G::kWorld    what happens after our move: World::chance (Hanpang: a random row rises; the
//                game offers `sample` and `step`) or World::opponent (Icebreaking: the other
//                player moves, through the same `moves`/`apply` as ours).
//
// Algorithms branch on these with `if constexpr`. What a game's *strategy* knows (evaluation,
// move ordering, an opponent model, the row sampler a search prefers) is not here: it lives in
// plugins/games/<game>/, beside the algorithms that use it, so core keeps only the rules.
//
// Following OpenSpiel's Game/State split: the Game object is immutable and shared (Icebreaking's
// holds the board's cell values), the State is a small value type copied freely.
#pragma once

#include <concepts>
#include <cstdint>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"

namespace tactica {

enum class World { chance, opponent };

// Every game. `moves` fills a fixed-capacity list (no allocation); `apply` plays one of them for
// the side to act and returns the points it scored; `returns(s, p)` is player p's result so far
// (Hanpang: the score; Icebreaking: p's points minus the other's), final once `terminal(s)`;
// `key(s)` identifies everything the rest of the game depends on (equal keys: equal futures, up
// to 64-bit hash collisions); `cell(m)` is the move as the protocol sends it.
template <class G>
concept Game = requires(const G& g, typename G::State& s, const typename G::State& cs,
                        typename G::MoveList& ml, const typename G::Move& m, int p) {
  requires std::copyable<typename G::State>;
  requires std::copyable<typename G::Move>;
  { G::kPlayers } -> std::convertible_to<int>;
  { G::kWorld } -> std::convertible_to<World>;
  { g.moves(cs, ml) } -> std::same_as<void>;
  { ml.size() } -> std::convertible_to<int>;
  { ml[0] } -> std::convertible_to<typename G::Move>;
  { g.apply(s, m) } -> std::convertible_to<int>;
  { g.terminal(cs) } -> std::same_as<bool>;
  { g.to_move(cs) } -> std::convertible_to<int>;
  { g.returns(cs, p) } -> std::convertible_to<double>;
  { g.key(cs) } -> std::same_as<std::uint64_t>;
  { g.cell(m) } -> std::convertible_to<int>;
};

// A game whose world step is chance: `sample` draws an outcome as the platform would, `step`
// applies one (our next decision comes after it).
template <class G>
concept ChanceGame = Game<G> && (G::kWorld == World::chance) &&
                     requires(const G& g, typename G::State& s, const typename G::State& cs,
                              const typename G::Outcome& o, Rng& rng) {
                       { g.sample(cs, rng) } -> std::same_as<typename G::Outcome>;
                       { g.step(s, o) } -> std::same_as<void>;
                     };

// A two-player game whose world step is the opponent's move.
template <class G>
concept TwoPlayerGame = Game<G> && (G::kWorld == World::opponent) && (G::kPlayers == 2);

namespace detail {
inline constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline constexpr std::uint64_t hash128(u128 v, std::uint64_t salt) {
  return mix64(static_cast<std::uint64_t>(v) ^ mix64(static_cast<std::uint64_t>(v >> 64) ^ salt));
}
}  // namespace detail

// ---- Hanpang: one player, a random row after each move ----------------------------------------

class HanpangGame {
 public:
  using State = hanpang::State;
  using Move = hanpang::Group;  // the whole group, so apply needs no flood fill
  using MoveList = hanpang::GroupList;
  using Outcome = hanpang::Row;
  static constexpr int kPlayers = 1;
  static constexpr World kWorld = World::chance;

  void moves(const State& s, MoveList& out) const { s.groups(out); }
  int apply(State& s, const Move& m) const { return s.remove(m.cells); }
  bool terminal(const State& s) const { return s.over(); }
  int to_move(const State&) const { return 0; }
  double returns(const State& s, int) const { return static_cast<double>(s.score); }
  // The board and the actions left decide the future (the score so far does not).
  std::uint64_t key(const State& s) const {
    std::uint64_t h = static_cast<std::uint64_t>(s.actions) * 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < hanpang::kColours; ++k) h = detail::hash128(s.planes[k], h + k);
    return h;
  }
  int cell(const Move& m) const { return m.rep; }

  // A row as the platform draws it: each colour uniform and independent (RowSource's draws).
  Outcome sample(const State&, Rng& rng) const {
    Outcome r;
    for (auto& c : r.colour) c = static_cast<std::uint8_t>(1 + rng.below(hanpang::kColours));
    return r;
  }
  // The row rises unless the move ended the game.
  void step(State& s, const Outcome& r) const {
    if (!s.over()) s.push_row(r);
  }
};

// ---- Icebreaking: two players; the world's step is the opponent's move ------------------------

class IcebreakingGame {
 public:
  using State = icebreaking::Position;
  using Move = int;  // an empty ice cell
  using MoveList = icebreaking::MoveList;
  static constexpr int kPlayers = 2;
  static constexpr World kWorld = World::opponent;

  explicit IcebreakingGame(const icebreaking::Board& b) : board_(&b) {}
  const icebreaking::Board& board() const { return *board_; }

  void moves(const State& s, MoveList& out) const { s.moves(out); }
  int apply(State& s, Move c) const { return s.play(*board_, c).gain; }
  bool terminal(const State& s) const { return s.over(); }
  int to_move(const State& s) const { return s.to_move; }
  double returns(const State& s, int p) const {
    return s.total[p] - s.total[icebreaking::other(static_cast<icebreaking::Player>(p))];
  }
  // What each side will still gain depends on the ice left and who moves, nothing else.
  std::uint64_t key(const State& s) const {
    return detail::hash128(s.ice, static_cast<std::uint64_t>(s.to_move) + 1);
  }
  int cell(Move c) const { return c; }

 private:
  const icebreaking::Board* board_;
};

static_assert(ChanceGame<HanpangGame>);
static_assert(TwoPlayerGame<IcebreakingGame>);

}  // namespace tactica
