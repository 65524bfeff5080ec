// ice_search.hpp — negamax alpha-beta for Icebreaking (the deterministic form of expectimax).
//
// Values are what the side to move will still gain minus what the other side will still gain,
// from the remaining ice set alone (in 1/kUnit points). That makes every value path-independent:
// the transposition table is keyed by the ice set only, verified by the full set (no false hits),
// and kept for the whole game. A node whose depth reaches the number of ice cells left is
// searched to the end (each move takes at least one cell), so its value is exact and stored as
// such; the endgame solver is the same search run at full depth.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "games/icebreaking/eval.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::expectimax {

struct IceParams {
  int tt_mb = 32;        // transposition table size in MiB (rounded down to a power of two)
  int qdepth = 0;        // plies of capture-only quiescence at the horizon (0: plain eval)
  int solve_at = 16;     // with this many ice cells or fewer, search straight to the end
  int aspiration = 0;    // half-width of the aspiration window in points (0: full window)
  bool pvs = true;       // principal variation search (null windows after the first move)
  double iter_start = 0.6;  // start another iteration only before this fraction of the soft time
  double time_scale = 1.0;  // the soft time counted as this multiple of the host's (never past
                            // the hard limit): the host expects (ice + 1) / 2 more moves of
                            // ours, but captures end games sooner, so its share is cautious
  // Evaluation weights (points per unit): see games/icebreaking/eval.hpp.
  double w_pool = 0.0;    // the alternating sum of the cells left ("pick from a pool" value)
  double w_threat = 0.0;  // the best capture now available to the side to move
  double w_plus = 0.0;    // the alternating sum of the positive cells left
  double w_tempo = 0.5;   // the best immediate gain of the side to move (odd/even smoothing)
  double w_alt = 0.0;     // the alternating sum g1 - g2 + g3 ... of the alt_k best move gains
  int alt_k = 2;          // (both sides taking the best move left in turn, interactions ignored)
  bool operator==(const IceParams&) const = default;
};

class IceSearch {
 public:
  static constexpr int kUnit = 8;  // value units per point
  static constexpr int kInf = 30000;
  static constexpr int kMaxPly = 80;

  explicit IceSearch(const IceParams& p);

  void new_game(const icebreaking::Board& b);

  struct Result {
    int move = icebreaking::kNoCell;
    int value = 0;  // in kUnit per point, for the side to move, of the rest of the game
    int depth = 0;  // last completed depth
    bool exact = false;
    std::uint64_t nodes = 0;
  };
  // Iterative deepening from the ice set `ice` (side to move = the caller, ahead by `margin`
  // points) within the limits. Publishes the best move after every completed iteration (and on
  // a new best within one). With at most solve_at cells left it first solves win/draw/loss.
  Result run(u128 ice, int margin, const SearchLimits& limits, BestMove* best);

  // The exact value of the rest of the game (for tests): a full-depth search with no limits.
  int exact_value(u128 ice);

  // The static evaluation (kUnit per point) of an ice set, side to move's view.
  int evaluate(u128 ice);

 private:
  // 16 bytes. The ice set is stored whole (bits 0..63 in lo, 64..88 in the low 25 bits of
  // hi_move), so a hit is never a collision; the empty set is never probed, so zeros mark a free
  // slot. depth_bound = depth << 2 | bound, depth 63 meaning exact to the end.
  struct TTEntry {
    std::uint64_t lo = 0;
    std::uint32_t hi_move = 0;  // bits 25..31: best move + 1 (0: none)
    std::int16_t value = 0;
    std::uint8_t depth_bound = 0;
    std::uint8_t age = 0;  // the search (root) that stored it, for replacement
  };
  struct Gen {
    int score;  // ordering key
    std::int16_t gain;  // kUnit per point
    std::int8_t cell;
    std::int8_t captured;  // cells captured (their set is found only when the move is searched)
  };
  enum Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

  int negamax(u128 ice, std::uint64_t key, int depth, int alpha, int beta, int ply);
  int qsearch(u128 ice, int alpha, int beta, int qd);
  int generate(u128 ice, Gen* out);
  int root_iteration(u128 s, std::uint64_t key, Gen* moves, int count, int depth, int lo, int hi,
                     int& best_i, BestMove* publish);
  std::uint64_t key_of(u128 s) const;
  void check_limits();

  const TTEntry* probe(u128 ice, std::uint64_t key) const;
  void store(u128 ice, std::uint64_t key, int depth, int value, Bound b, int move);
  static constexpr int kExactDepth = 63;

  IceParams p_;
  common::ice::MoveScanner scanner_;
  std::array<common::ice::MoveFacts, icebreaking::kIce> facts_{};
  icebreaking::Board board_;
  std::vector<TTEntry> tt_;
  std::uint8_t age_ = 0;
  std::uint64_t tt_mask_ = 0;
  std::array<std::uint64_t, 128> zob_{};
  std::array<int, 128> history_{};
  std::array<std::array<std::int8_t, 2>, kMaxPly + 1> killers_{};
  std::vector<std::array<Gen, icebreaking::kIce>> stack_;  // move lists per ply
  std::uint64_t nodes_ = 0, budget_ = 0;
  const Deadline* deadline_ = nullptr;
  bool stop_ = false;
  int w_pool_ = 0, w_threat_ = 0, w_plus_ = 0, w_tempo_ = 0, w_alt_ = 0;  // weights in kUnit / 8 steps
};

}  // namespace tactica::plugins::expectimax
