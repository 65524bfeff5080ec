// icebreaking_mcts.cpp — UCT with an MCTS-Solver, exact endgame solves and tree reuse.
#include "mcts/icebreaking_mcts.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tactica::plugins::mcts {

using namespace icebreaking;

namespace {

// The index of the k-th set bit (0-based) of s; s has more than k bits.
int nth_bit(u128 s, int k) {
  auto lo = static_cast<std::uint64_t>(s);
  const int pc = std::popcount(lo);
  if (k >= pc) {
    lo = static_cast<std::uint64_t>(s >> 64);
    k -= pc;
    for (; k > 0; --k) lo &= lo - 1;
    return 64 + std::countr_zero(lo);
  }
  for (; k > 0; --k) lo &= lo - 1;
  return std::countr_zero(lo);
}

// The sum of |score| over the cells of s: no sequence of moves can swing the margin by more.
int abs_sum(const Board& b, u128 s) {
  return popcount(s & (b.plus1 | b.minus1)) + 2 * popcount(s & (b.plus2 | b.minus2));
}

template <class N>
bool proven(const N& n) { return n.pess == n.opt; }
template <class N>
Proof proof_of(const N& n) {
  return !proven(n) ? kUnknown : n.pess == 2 ? kWin : n.pess == 1 ? kDraw : kLoss;
}
template <class N>
void set_result(N& n, int sign) { n.pess = n.opt = static_cast<std::uint8_t>(sign + 1); }
template <class N>
double result_reward(const N& n) { return 0.5 * n.pess; }

}  // namespace

// For each 8-bit ring around a cell (N, NE, E, SE, S, SW, W, NW; bit set = empty ice): the number
// of cyclic runs of ice in the ring that touch a 4-neighbour. One run or none: the 4-neighbours
// stay connected through the ring, so taking the cell cannot split its region.
static constexpr std::array<std::uint8_t, 256> kRingRuns = [] {
  std::array<std::uint8_t, 256> t{};
  for (int m = 0; m < 256; ++m) {
    if (m == 255) {
      t[m] = 1;
      continue;
    }
    int runs = 0;
    for (int i = 0; i < 8; ++i) {
      const bool on = m >> i & 1, prev_on = m >> ((i + 7) % 8) & 1;
      if (!on || prev_on) continue;  // not the start of a run
      bool touches = false;
      for (int j = i; m >> (j % 8) & 1; ++j) touches |= (j % 2 == 0);
      runs += touches;
    }
    t[m] = static_cast<std::uint8_t>(runs);
  }
  return t;
}();

// Position::captures with a cheap local test first: most cells cannot split their region.
u128 fast_captures(const Position& p, int c) {
  const auto w = static_cast<std::uint32_t>((p.ice << 11) >> c);  // bit 11 is the cell itself
  const unsigned ring = (w >> 1 & 1) | (w >> 2 & 1) << 1 | (w >> 12 & 1) << 2 | (w >> 22 & 1) << 3 |
                        (w >> 21 & 1) << 4 | (w >> 20 & 1) << 5 | (w >> 10 & 1) << 6 |
                        (w & 1) << 7;
  return kRingRuns[ring] <= 1 ? u128{0} : p.captures(c);
}

// Position::play with fast_captures (same result).
void play_fast(const Board& b, Position& p, int c) {
  const u128 cap = fast_captures(p, c), taken = cap | bit128(c);
  p.ice &= ~taken;
  p.owned[p.to_move] |= taken;
  p.total[p.to_move] += b.score[c] + (cap ? b.sum(cap) : 0);
  p.to_move = other(p.to_move);
  ++p.ply;
}


IcebreakingMcts::IcebreakingMcts(const IceConfig& cfg)
    : cfg_(cfg),
      pool_(static_cast<std::size_t>(std::max(1024, cfg.pool_nodes))),
      spare_(cfg.reuse ? pool_.size() : 0) {}

void IcebreakingMcts::new_game(const Board& board, Player, std::uint64_t seed) {
  board_copy_ = board;
  board_ = &board_copy_;
  seed_ = seed;
  tree_valid_ = false;
}

int IcebreakingMcts::gain(const Position& p, int c) const {
  const u128 cap = fast_captures(p, c);
  return board_->score[c] + (cap ? board_->sum(cap) : 0);
}

void IcebreakingMcts::reset_tree(const Position& pos) {
  used_ = 1;
  root_ = 0;
  pool_[0] = Node{};
  root_pos_ = pos;
  tree_valid_ = true;
}

// Copies the root's subtree to the front of the spare buffer (breadth first, so every child
// block stays contiguous) and swaps the buffers.
void IcebreakingMcts::compact() {
  spare_[0] = pool_[root_];
  std::int32_t head = 0, tail = 1;
  for (; head < tail; ++head) {
    Node& n = spare_[head];
    if (n.first < 0) continue;
    std::copy_n(pool_.begin() + n.first, n.nchild, spare_.begin() + tail);
    n.first = tail;
    tail += n.nchild;
  }
  pool_.swap(spare_);
  used_ = tail;
  root_ = 0;
}

void IcebreakingMcts::observe(const Position& after, int cell) {
  if (!tree_valid_) return;
  const Node& r = pool_[root_];
  Position expect = root_pos_;
  if (r.first < 0 || !expect.legal(cell)) {
    tree_valid_ = false;
    return;
  }
  expect.play(*board_, cell);
  if (!(expect == after)) {
    tree_valid_ = false;
    return;
  }
  for (int i = 0; i < r.nchild; ++i)
    if (pool_[r.first + i].move == cell) {
      root_ = r.first + i;
      root_pos_ = after;
      return;
    }
  tree_valid_ = false;
}

// The best immediate gain of the side to move in p (what a greedy reply would take).
int IcebreakingMcts::best_gain(const Position& p) const {
  int best = -1000;
  for (u128 s = p.ice; s;) best = std::max(best, gain(p, pop_lowest(s)));
  return best;
}

bool IcebreakingMcts::expand(std::int32_t n, const Position& pos, int depth) {
  const int count = popcount(pos.ice);
  if (used_ + count > static_cast<std::int32_t>(pool_.size())) return false;
  Node& node = pool_[n];
  node.first = used_;
  node.nchild = static_cast<std::uint8_t>(count);
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s);
    Node& ch = pool_[used_++];
    ch = Node{};
    ch.move = static_cast<std::int8_t>(c);
    int g = gain(pos, c);
    if (depth < cfg_.net_prior_depth) {
      // Near the root, the gain net of the greedy reply (a move that opens a capture is bad).
      Position q = pos;
      play_fast(*board_, q, c);
      if (!q.over()) g -= best_gain(q);
    }
    ch.prior = static_cast<float>(std::tanh(g / 3.0));
  }
  return true;
}

std::int32_t IcebreakingMcts::select(const Node& n) const {
  const double log_n = std::log(static_cast<double>(n.visits) + 1.0);
  // A child that cannot do better than what a sibling already guarantees is not searched.
  int lb = 0;
  for (std::int32_t i = n.first; i < n.first + n.nchild; ++i) lb = std::max<int>(lb, pool_[i].pess);
  std::int32_t best = -1;
  double best_score = -1e300;
  for (std::int32_t i = n.first; i < n.first + n.nchild; ++i) {
    const Node& ch = pool_[i];
    if (ch.opt <= lb && !(ch.opt == 2)) continue;
    if (proven(ch)) return i;  // a proven win
    double s;
    if (ch.visits == 0) {
      s = cfg_.fpu + cfg_.prior_w * ch.prior;
    } else {
      const double q = ch.wins / ch.visits;
      s = q + cfg_.c_uct * std::sqrt(log_n / ch.visits) + cfg_.prior_w * ch.prior / (ch.visits + 1);
    }
    if (s > best_score) best_score = s, best = i;
  }
  return best >= 0 ? best : n.first;
}

// A game to the end: mostly the best immediate gain (captures included) among a few random
// cells, sometimes a uniformly random cell. Returns the reward of player A.
double IcebreakingMcts::playout(Position p) {
  while (!p.over()) {
    const int n = popcount(p.ice);
    int c;
    if (n == 1) {
      c = lowest_bit(p.ice);
    } else if (rng_.uniform() < cfg_.playout_eps) {
      c = nth_bit(p.ice, static_cast<int>(rng_.below(n)));
    } else {
      c = -1;
      int best = -1000;
      const int k = std::min(cfg_.playout_cands, n);
      for (int i = 0; i < k; ++i) {
        const int x = nth_bit(p.ice, static_cast<int>(rng_.below(n)));
        const int g = gain(p, x);
        if (g > best) best = g, c = x;
      }
    }
    play_fast(*board_, p, c);
  }
  const int margin = p.total[A] - p.total[B];
  const double outcome = margin > 0 ? 1.0 : margin < 0 ? 0.0 : 0.5;
  return (1 - cfg_.margin_w) * outcome + cfg_.margin_w * (0.5 + 0.5 * std::tanh(margin / 10.0));
}

// A static value instead of a playout: the margin, plus the gain the side to move can take at
// once (weighted by `tempo`), squashed to a reward of player A.
double IcebreakingMcts::evaluate(const Position& p) const {
  const int bg = best_gain(p);
  const double m = (p.total[A] - p.total[B]) + (p.to_move == A ? 1 : -1) * cfg_.tempo * bg;
  return 0.5 + 0.5 * std::tanh(m / cfg_.eval_scale);
}

// MCTS-Solver with bounds: after the leaf at path_[depth] got an exact result, re-derive the
// bounds of its ancestors while they change. The side to move at a parent gets the best of its
// children, so the parent's mover gets 2 minus that, for both bounds.
void IcebreakingMcts::propagate_bounds(int depth) {
  for (int d = depth - 1; d >= 0; --d) {
    Node& p = pool_[path_[d]];
    int best_pess = 0, best_opt = 0;
    for (std::int32_t i = p.first; i < p.first + p.nchild; ++i) {
      best_pess = std::max<int>(best_pess, pool_[i].pess);
      best_opt = std::max<int>(best_opt, pool_[i].opt);
    }
    const auto np = static_cast<std::uint8_t>(2 - best_opt), no = static_cast<std::uint8_t>(2 - best_pess);
    if (np == p.pess && no == p.opt) return;
    p.pess = np, p.opt = no;
  }
}

int IcebreakingMcts::solve(Position& p, int alpha, int beta) {
  if (p.over()) return p.margin();
  const int m = p.margin(), sw = abs_sum(*board_, p.ice);
  if (m - sw >= beta) return m - sw;
  if (m + sw <= alpha) return m + sw;
  if (++solve_nodes_ > solve_limit_) {
    solve_aborted_ = true;
    return 0;
  }
  // Moves ordered by immediate gain, best first.
  int cells[kIce], gains[kIce], n = 0;
  for (u128 s = p.ice; s;) {
    const int c = pop_lowest(s), g = gain(p, c);
    int j = n++;
    for (; j > 0 && gains[j - 1] < g; --j) cells[j] = cells[j - 1], gains[j] = gains[j - 1];
    cells[j] = c, gains[j] = g;
  }
  int best = -1000;
  for (int i = 0; i < n; ++i) {
    Position q = p;
    play_fast(*board_, q, cells[i]);
    const int v = -solve(q, -beta, -alpha);
    if (solve_aborted_) return 0;
    best = std::max(best, v);
    alpha = std::max(alpha, v);
    if (alpha >= beta) break;
  }
  return best;
}

int IcebreakingMcts::solve_exact(const Position& pos, int node_limit) {
  Position p = pos;
  solve_nodes_ = 0;
  solve_limit_ = node_limit;
  solve_aborted_ = false;
  const int v = solve(p, -1, 1);
  if (solve_aborted_) return 2;
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

std::int32_t IcebreakingMcts::best_child() const {
  const Node& r = pool_[root_];
  if (r.first < 0) return -1;
  // A proven win if there is one; else the most visited move not proven lost, unless a proven
  // draw beats its estimate; else (all lost) the most visited move.
  std::int32_t win = -1, draw = -1, open = -1, any = r.first;
  for (std::int32_t i = r.first; i < r.first + r.nchild; ++i) {
    const Node& ch = pool_[i];
    if (ch.visits > pool_[any].visits) any = i;
    if (ch.pess == 2) {
      if (win < 0 || ch.visits > pool_[win].visits) win = i;
    } else if (proven(ch) && ch.pess == 1) {
      if (draw < 0 || ch.visits > pool_[draw].visits) draw = i;
    } else if (ch.opt > 0) {
      if (open < 0 || ch.visits > pool_[open].visits ||
          (ch.visits == pool_[open].visits && ch.visits && ch.wins / ch.visits > pool_[open].wins / pool_[open].visits))
        open = i;
    }
  }
  if (win >= 0) return win;
  if (draw >= 0 && (open < 0 || pool_[open].visits == 0 || pool_[open].wins / pool_[open].visits < 0.5 || pool_[open].opt < 2))
    return draw;
  if (open >= 0) return open;
  return any;
}

Proof IcebreakingMcts::root_proof_for_mover() const {
  if (!tree_valid_) return kUnknown;
  const Proof p = proof_of(pool_[root_]);  // for the player who moved into the root
  return p == kWin ? kLoss : p == kLoss ? kWin : p;
}

std::uint32_t IcebreakingMcts::root_visits() const { return tree_valid_ ? pool_[root_].visits : 0; }

int IcebreakingMcts::choose(const Board& board, const Position& pos, const SearchLimits& limits,
                            BestMove& best) {
  if (!board_ || !(board == board_copy_)) {
    board_copy_ = board;
    board_ = &board_copy_;
    tree_valid_ = false;
  }
  stats_ = {};
  if (pos.over()) return icebreaking::kNoCell;
  // A safe answer at once: the best immediate gain.
  int fallback = lowest_bit(pos.ice), fallback_gain = -1000;
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s), g = gain(pos, c);
    if (g > fallback_gain) fallback_gain = g, fallback = c;
  }
  best.publish(fallback);
  if (popcount(pos.ice) == 1) return fallback;

  if (!cfg_.reuse || !tree_valid_ || !(root_pos_ == pos))
    reset_tree(pos);
  else if (used_ > static_cast<std::int32_t>(pool_.size() / 2))
    compact();
  rng_.reseed(seed_ * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(pos.ply) + 1);

  const Player root_mover = other(pos.to_move);
  const std::uint64_t budget = limits.node_budget;
  std::uint64_t it = 0;
  for (;; ++it) {
    if (proven(pool_[root_])) break;
    if (budget && it >= budget) break;
    if (it) {  // the clock costs far less than an iteration (and an exact solve can be long)
      if (!budget && limits.deadline.soft_expired()) break;
      if ((it & 1023) == 0) {
        const auto b = best_child();
        if (b >= 0) best.publish(pool_[b].move);
      }
    }
    if (limits.deadline.stop_requested()) break;

    // Step 1. Selection and expansion.
    Position p = pos;
    int depth = 0;
    path_[0] = root_;
    double reward_a;
    bool proven_leaf = false;
    for (;;) {
      Node& n = pool_[path_[depth]];
      const Player mover = depth % 2 ? pos.to_move : root_mover;
      if (proven(n)) {
        const double r = result_reward(n);
        reward_a = mover == A ? r : 1 - r;
        break;
      }
      if (p.over()) {
        const int sign = p.leader() * (mover == A ? 1 : -1);
        set_result(n, sign);
        const double r = result_reward(n);
        reward_a = mover == A ? r : 1 - r;
        proven_leaf = true;
        break;
      }
      if (n.first < 0) {
        if (depth > 0 && n.visits == 0) {
          // Step 2. A new leaf: solve it exactly if small, else play it out.
          if (popcount(p.ice) <= cfg_.solve_cells) {
            const int v = solve_exact(p, cfg_.solve_nodes);  // for p.to_move, not the mover
            if (v != 2) {
              set_result(n, -v);
              const double r = result_reward(n);
              reward_a = mover == A ? r : 1 - r;
              proven_leaf = true;
              break;
            }
          }
          reward_a = cfg_.leaf_eval ? evaluate(p) : playout(p);
          break;
        }
        if (!expand(path_[depth], p, depth)) {
          reward_a = playout(p);
          break;
        }
      }
      const std::int32_t c = select(pool_[path_[depth]]);
      play_fast(board, p, pool_[c].move);
      path_[++depth] = c;
    }
    // Step 3. Backup.
    for (int d = depth; d >= 0; --d) {
      Node& n = pool_[path_[d]];
      const Player mover = d % 2 ? pos.to_move : root_mover;
      ++n.visits;
      n.wins += static_cast<float>(mover == A ? reward_a : 1 - reward_a);
    }
    if (proven_leaf) propagate_bounds(depth);
  }

  const auto b = best_child();
  const int move = b >= 0 ? pool_[b].move : fallback;
  best.publish(move);
  stats_.nodes = it;
  stats_.depth = static_cast<int>(root_proof_for_mover());
  stats_.value = b >= 0 && pool_[b].visits ? pool_[b].wins / pool_[b].visits : 0.5;
  if (b >= 0 && proven(pool_[b])) stats_.value = result_reward(pool_[b]);
  return move;
}

}  // namespace tactica::plugins::mcts
