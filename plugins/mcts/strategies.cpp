// strategies.cpp — the two games' mcts strategies (see strategies.hpp).
#include "mcts/strategies.hpp"

#include <algorithm>

namespace tactica::plugins::mcts {

namespace {

UctParams hanpang_uct(const HanConfig& c) {
  UctParams p;
  p.c_uct = c.c_uct;
  p.prior_visits = c.prior_visits;  // no fpu: without virtual visits new moves go first
  p.explore_plus = 1;
  p.chance_width = c.chance_width;
  p.max_depth = c.horizon;  // deeper, the leaf evaluation would mix depths
  return p;
}

UctParams icebreaking_uct(const IceConfig& c) {
  UctParams p;
  p.c_uct = c.c_uct;
  p.prior_bias = c.prior_w;
  p.fpu = c.fpu;
  return p;
}

}  // namespace

HanpangMcts::HanpangMcts(const HanConfig& cfg)
    : kn_(cfg.weights, cfg.horizon, cfg.death),
      search_(game_, kn_, hanpang_uct(cfg), static_cast<std::size_t>(std::max(1000, cfg.pool_nodes)) * 32,
              static_cast<std::size_t>(std::max(1000, cfg.pool_nodes)), false) {}

int HanpangMcts::choose(const hanpang::State& root, const SearchLimits& limits, BestMove& best) {
  stats_ = {};
  if (root.over() || root.occupied() == 0) return hanpang::fallback_move(root);
  best.publish(hanpang::fallback_move(root));
  const std::uint64_t seed = seed_ * 0x9E3779B97F4A7C15ULL ^ (0xD1B54A32D192ED03ULL + root.actions);
  const std::int32_t b = search_.search(root, limits, best, seed);
  if (b < 0) return hanpang::fallback_move(root);
  const auto& e = search_.node(b);
  best.publish(e.move.rep);
  stats_.nodes = search_.iterations();
  stats_.value = e.visits ? e.w / e.visits : e.prior;
  return e.move.rep;
}

IcebreakingMcts::IcebreakingMcts(const IceConfig& cfg)
    : game_(board_),
      kn_(board_, cfg.leaf),
      search_(game_, kn_, icebreaking_uct(cfg), static_cast<std::size_t>(std::max(1024, cfg.pool_nodes)), 0,
              cfg.reuse) {}

void IcebreakingMcts::new_game(const icebreaking::Board& board, icebreaking::Player, std::uint64_t seed) {
  board_ = board;
  have_board_ = true;
  seed_ = seed;
  search_.invalidate();
}

int IcebreakingMcts::choose(const icebreaking::Board& board, const icebreaking::Position& pos,
                            const SearchLimits& limits, BestMove& best) {
  if (!have_board_ || !(board == board_)) {
    board_ = board;
    have_board_ = true;
    search_.invalidate();
  }
  stats_ = {};
  if (pos.over()) return icebreaking::kNoCell;
  // A safe answer at once: the best immediate gain.
  int fallback = lowest_bit(pos.ice), fallback_gain = -1000;
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s), g = kn_.gain(pos, c);
    if (g > fallback_gain) fallback_gain = g, fallback = c;
  }
  best.publish(fallback);
  if (popcount(pos.ice) == 1) return fallback;

  const std::int32_t b = search_.search(pos, limits, best, seed_ * 0x9E3779B97F4A7C15ULL + pos.ply + 1);
  const int move = b >= 0 ? search_.cell(b) : fallback;
  best.publish(move);
  stats_.nodes = search_.iterations();
  stats_.depth = static_cast<int>(search_.root_proof_for_mover());
  if (b >= 0) {
    const auto& n = search_.node(b);
    stats_.value = n.visits ? n.w / n.visits : 0.5;
    if (search_.proven(n)) stats_.value = 0.5 * n.pess;
  } else {
    stats_.value = 0.5;
  }
  return move;
}

}  // namespace tactica::plugins::mcts
