// icebreaking_mcts.hpp — UCT with an MCTS-Solver for Icebreaking.
//
// Nodes live in a preallocated pool; a node's children are one contiguous block, created the
// second time the node is reached. A node's statistics are from the view of the player who made
// the move into it. Proofs (win/draw/loss for that player) come from finished games, from an
// exact alpha-beta solve once few ice cells remain, or from the children (MCTS-Solver with
// pessimistic/optimistic bounds, so draws are proven too), and are backed up as exact values;
// a child whose optimistic bound cannot beat a sibling's pessimistic one is no longer searched. The tree is kept across turns: observe() walks the root down
// the moves both players made, and the pool is compacted (root subtree copied to the spare
// buffer) when it fills past half.
#pragma once

#include <cstdint>
#include <vector>

#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::mcts {

struct IceConfig {
  double c_uct = 0.3;          // UCT exploration constant (rewards in [0, 1])
  double prior_w = 0.3;        // progressive-bias weight of a move's immediate gain
  int net_prior_depth = 2;     // nodes this shallow: prior = gain minus the best reply's gain
  double fpu = 0.6;            // value assumed for an unvisited child
  double playout_eps = 0.15;   // playout: chance of a uniformly random move
  int playout_cands = 6;       // playout: otherwise the best gain among this many random cells
  bool leaf_eval = true;       // value new leaves by a static evaluation instead of a playout
  double tempo = 0.5;          // evaluation: share of the side to move's best gain counted
  double eval_scale = 3.0;     // evaluation: margin scale of the reward's tanh
  double margin_w = 0.1;       // share of the reward given by the final score margin
  int solve_cells = 0;         // exact alpha-beta solve of leaves with at most this many ice cells
  int solve_nodes = 5000;      // node limit of one exact solve (deterministic)
  int pool_nodes = 1 << 21;    // nodes per pool buffer (two buffers when reusing)
  bool reuse = true;           // keep the tree between turns
  bool operator==(const IceConfig&) const = default;
};

// Position::captures / Position::play with a cheap local test first (the same results): taking a
// cell whose empty 4-neighbours stay linked through its 8-ring cannot split the region.
u128 fast_captures(const icebreaking::Position& p, int c);
void play_fast(const icebreaking::Board& b, icebreaking::Position& p, int c);

enum Proof : std::uint8_t { kUnknown = 0, kWin = 1, kDraw = 2, kLoss = 3 };

class IcebreakingMcts final : public IcebreakingStrategy {
 public:
  explicit IcebreakingMcts(const IceConfig& cfg);
  void new_game(const icebreaking::Board& board, icebreaking::Player me, std::uint64_t seed) override;
  int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override;
  void observe(const icebreaking::Position& after, int cell) override;
  SearchStats stats() const override { return stats_; }

  // The proof of the current root from the side to move's view (kWin: the side to move wins
  // with best play), for tests and logs.
  Proof root_proof_for_mover() const;
  std::uint32_t root_visits() const;

  // Exact result of `pos` with best play (sign of the final margin from the side to move's
  // view: +1 win, 0 draw, -1 loss), or 2 if the node limit was hit first.
  int solve_exact(const icebreaking::Position& pos, int node_limit);

 private:
  struct Node {
    std::int32_t first = -1;  // first child in the pool; -1: not expanded
    std::uint32_t visits = 0;
    float wins = 0;           // rewards summed from the view of the player who moved into it
    float prior = 0;          // immediate gain of the move, scaled to about [-1, 1]
    std::int8_t move = -1;
    std::uint8_t nchild = 0;
    // Score bounds for the player who moved into it, in half points (0 loss, 1 draw, 2 win):
    // proven once they meet (score-bounded MCTS, so draws get proven too).
    std::uint8_t pess = 0, opt = 2;
  };

  void reset_tree(const icebreaking::Position& pos);
  void compact();
  bool expand(std::int32_t n, const icebreaking::Position& pos, int depth);
  int best_gain(const icebreaking::Position& p) const;
  std::int32_t select(const Node& n) const;
  double playout(icebreaking::Position p);
  double evaluate(const icebreaking::Position& p) const;
  void propagate_bounds(int depth);
  std::int32_t best_child() const;
  int gain(const icebreaking::Position& p, int c) const;
  int solve(icebreaking::Position& p, int alpha, int beta);

  IceConfig cfg_;
  const icebreaking::Board* board_ = nullptr;
  icebreaking::Board board_copy_;
  Rng rng_;
  std::uint64_t seed_ = 0;
  std::vector<Node> pool_, spare_;
  std::int32_t used_ = 0;
  std::int32_t root_ = -1;
  icebreaking::Position root_pos_;
  bool tree_valid_ = false;
  std::int32_t path_[80];
  std::int64_t solve_nodes_ = 0;
  int solve_limit_ = 0;
  bool solve_aborted_ = false;
  SearchStats stats_;
};

}  // namespace tactica::plugins::mcts
