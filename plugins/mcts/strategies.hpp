// strategies.hpp — the mcts plugin's two strategies: the one search (mcts/mcts.hpp) over each
// game's model (tactica/game.hpp) and knowledge (games/<game>/mcts_knowledge.hpp), with what is
// the platform's per game: the answer published at once, the seed of each move's search.
//   Hanpang: chance nodes (sampled rows), values in points, prior_visits at the one-ply value;
//   Icebreaking: MCTS-Solver, progressive bias and first-play urgency, tree reuse.
#pragma once

#include <cstdint>

#include "games/hanpang/mcts_knowledge.hpp"
#include "games/icebreaking/mcts_knowledge.hpp"
#include "mcts/mcts.hpp"
#include "mcts/params.hpp"
#include "tactica/game.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::mcts {

class HanpangMcts final : public HanpangStrategy {
 public:
  explicit HanpangMcts(const HanConfig& cfg);
  void new_game(std::uint64_t seed) override { seed_ = seed; }
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override;
  SearchStats stats() const override { return stats_; }

 private:
  HanpangGame game_;
  common::HanpangMctsKnowledge kn_;
  Mcts<HanpangGame, common::HanpangMctsKnowledge> search_;
  std::uint64_t seed_ = 0;
  SearchStats stats_;
};

class IcebreakingMcts final : public IcebreakingStrategy {
 public:
  explicit IcebreakingMcts(const IceConfig& cfg);
  void new_game(const icebreaking::Board& board, icebreaking::Player me, std::uint64_t seed) override;
  int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override;
  void observe(const icebreaking::Position& after, int cell) override { search_.observe(after, cell); }
  SearchStats stats() const override { return stats_; }

  // The proof of the current root from the side to move's view (kWin: the side to move wins
  // with best play), for tests and logs.
  Proof root_proof_for_mover() const { return search_.root_proof_for_mover(); }
  std::uint32_t root_visits() const { return search_.root_visits(); }
  // Exact result of `pos` with best play (+1 / 0 / -1 for the side to move), or 2 if the node
  // limit was hit first.
  int solve_exact(const icebreaking::Position& pos, int node_limit) { return kn_.solve_exact(pos, node_limit); }

 private:
  icebreaking::Board board_;  // the game and the knowledge point to it
  bool have_board_ = false;
  IcebreakingGame game_;
  common::ice::MctsKnowledge kn_;
  Mcts<IcebreakingGame, common::ice::MctsKnowledge> search_;
  std::uint64_t seed_ = 0;
  SearchStats stats_;
};

}  // namespace tactica::plugins::mcts
