// Negamax alpha-beta for Icebreaking: iterative deepening, PVS, whole-game transposition table,
// capture quiescence, and an exact search once few cells remain. See ice_search.hpp.
#include "expectimax/ice_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "games/icebreaking/eval.hpp"

namespace tactica::plugins::expectimax {

namespace ice = tactica::plugins::common::ice;
using icebreaking::kNoCell;

IceSearch::IceSearch(const IceParams& p) : p_(p), stack_(kMaxPly + 2) {
  std::uint64_t entries = (static_cast<std::uint64_t>(std::max(1, p.tt_mb)) << 20) / sizeof(TTEntry);
  std::uint64_t pow2 = 1;
  while (pow2 * 2 <= entries) pow2 *= 2;
  tt_.assign(pow2, TTEntry{});
  tt_mask_ = pow2 - 1;
  std::uint64_t x = 0x1CEB4EA4ULL;
  for (auto& z : zob_) z = splitmix64(x);
  w_pool_ = static_cast<int>(std::lround(p.w_pool * kUnit));
  w_threat_ = static_cast<int>(std::lround(p.w_threat * kUnit));
  w_plus_ = static_cast<int>(std::lround(p.w_plus * kUnit));
  w_tempo_ = static_cast<int>(std::lround(p.w_tempo * kUnit));
  w_alt_ = static_cast<int>(std::lround(p.w_alt * kUnit));
}

void IceSearch::new_game(const icebreaking::Board& b) {
  board_ = b;
  std::fill(tt_.begin(), tt_.end(), TTEntry{});
  history_.fill(0);
  for (auto& k : killers_) k = {-1, -1};
  age_ = 0;
}

std::uint64_t IceSearch::key_of(u128 s) const {
  std::uint64_t k = 0;
  for (u128 t = s; t;) k ^= zob_[pop_lowest(t)];
  return k;
}

const IceSearch::TTEntry* IceSearch::probe(u128 ice, std::uint64_t key) const {
  const TTEntry& e = tt_[key & tt_mask_];
  const auto lo = static_cast<std::uint64_t>(ice);
  const auto hi = static_cast<std::uint32_t>(ice >> 64);
  return (e.lo == lo && (e.hi_move & 0x1FFFFFFu) == hi) ? &e : nullptr;
}

void IceSearch::store(u128 ice, std::uint64_t key, int depth, int value, Bound b, int move) {
  TTEntry& e = tt_[key & tt_mask_];
  const auto lo = static_cast<std::uint64_t>(ice);
  const auto hi = static_cast<std::uint32_t>(ice >> 64);
  const bool same = e.lo == lo && (e.hi_move & 0x1FFFFFFu) == hi;
  // Keep a deeper entry of the current search unless this one is for the same set.
  if (!same && e.age == age_ && (e.depth_bound >> 2) > depth) return;
  if (same && move < 0) move = static_cast<int>(e.hi_move >> 25) - 1;  // keep the old best move
  e.lo = lo;
  e.hi_move = hi | (static_cast<std::uint32_t>(move + 1) << 25);
  e.value = static_cast<std::int16_t>(value);
  e.depth_bound = static_cast<std::uint8_t>(std::min(depth, kExactDepth) << 2 | b);
  e.age = age_;
}

void IceSearch::check_limits() {
  if (budget_ && nodes_ >= budget_) stop_ = true;
  if (deadline_ && deadline_->hard_expired()) stop_ = true;
}

int IceSearch::evaluate(u128 s) {
  int v = 0;
  if (w_pool_) v += w_pool_ * ice::alternating_sum(board_, s);
  if (w_plus_) v += w_plus_ * ice::alternating_plus(board_, s);
  if (w_tempo_ || w_alt_) {
    const int n = scanner_.scan(board_, s, facts_.data());
    int best = 0;
    for (int i = 0; i < n; ++i) best = std::max(best, static_cast<int>(facts_[i].gain));
    v += w_tempo_ * best;
    if (w_alt_) {
      // The alt_k largest gains, best first (a partial selection sort: k is small).
      std::array<int, icebreaking::kIce> g;
      for (int i = 0; i < n; ++i) g[i] = facts_[i].gain;
      const int k = std::min(n, p_.alt_k);
      int alt = 0;
      for (int i = 0; i < k; ++i) {
        int j = i;
        for (int q = i + 1; q < n; ++q)
          if (g[q] > g[j]) j = q;
        std::swap(g[i], g[j]);
        alt += (i & 1) ? -g[i] : g[i];
      }
      v += w_alt_ * alt;
    }
  }
  if (w_threat_) {
    int best = 0;
    for (u128 t = s; t;) {
      const int c = pop_lowest(t);
      if (ice::cannot_split(s, c)) continue;
      const u128 cap = ice::captures(s, c);
      if (cap) best = std::max(best, board_.sum(cap));
    }
    v += w_threat_ * best;
  }
  return v;
}

// All moves of `ice` with their captures and gains; ordering keys are filled in by the caller.
int IceSearch::generate(u128 s, Gen* out) {
  const int n = scanner_.scan(board_, s, facts_.data());
  for (int i = 0; i < n; ++i) {
    const auto& f = facts_[i];
    out[i] = Gen{0, static_cast<std::int16_t>(f.gain * kUnit), f.cell, f.captured};
  }
  return n;
}

int IceSearch::qsearch(u128 s, int alpha, int beta, int qd) {
  if (!s) return 0;
  if ((++nodes_ & 1023) == 0) check_limits();
  if (stop_) return 0;
  const int stand = evaluate(s);
  if (qd <= 0 || stand >= beta) return stand;
  int best = stand;
  if (stand > alpha) alpha = stand;
  for (u128 t = s; t;) {
    const int c = pop_lowest(t);
    if (ice::cannot_split(s, c)) continue;
    const u128 cap = ice::captures(s, c);
    if (!cap) continue;
    const int g = (board_.score[c] + board_.sum(cap)) * kUnit;
    const int v = g - qsearch(s & ~(cap | bit128(c)), g - beta, g - alpha, qd - 1);
    if (stop_) return 0;
    if (v > best) {
      best = v;
      if (v > alpha) alpha = v;
      if (alpha >= beta) break;
    }
  }
  return best;
}

int IceSearch::negamax(u128 s, std::uint64_t key, int depth, int alpha, int beta, int ply) {
  if (!s) return 0;
  if ((++nodes_ & 1023) == 0) check_limits();
  if (stop_) return 0;
  const int n = popcount(s);
  if (n == 1) return board_.score[lowest_bit(s)] * kUnit;
  if (depth >= n) depth = kExactDepth;
  if (depth <= 0 || ply >= kMaxPly) return qsearch(s, alpha, beta, p_.qdepth);

  // Step 1. Transposition table.
  int tt_move = -1;
  if (const TTEntry* e = probe(s, key)) {
    tt_move = static_cast<int>(e->hi_move >> 25) - 1;
    const int d = e->depth_bound >> 2, b = e->depth_bound & 3;
    if (d >= depth) {
      const int v = e->value;
      if (b == kExact || (b == kLower && v >= beta) || (b == kUpper && v <= alpha)) return v;
    }
  }

  const int alpha0 = alpha;
  int best = -kInf, best_move = -1;

  // Searches one move (PVS: null window unless first); true on a cutoff.
  auto search_move = [&](int cell, int gain_units, bool captures, bool first) {
    const u128 cap = captures ? ice::captures(s, cell) : 0;
    const u128 child = s & ~(cap | bit128(cell));
    const std::uint64_t ck = key ^ zob_[cell] ^ (cap ? key_of(cap) : 0);
    const int g = gain_units;
    int v;
    if (first || !p_.pvs) {
      v = g - negamax(child, ck, depth - 1, g - beta, g - alpha, ply + 1);
    } else {
      v = g - negamax(child, ck, depth - 1, g - alpha - 1, g - alpha, ply + 1);
      if (v > alpha && v < beta && !stop_) v = g - negamax(child, ck, depth - 1, g - beta, g - alpha, ply + 1);
    }
    if (stop_) return true;
    if (v > best) {
      best = v, best_move = cell;
      if (v > alpha) {
        alpha = v;
        if (alpha >= beta) {
          if (!cap && killers_[ply][0] != cell) {
            killers_[ply][1] = killers_[ply][0];
            killers_[ply][0] = static_cast<std::int8_t>(cell);
          }
          int& h = history_[cell];
          h += std::min(depth, 20) * std::min(depth, 20);
          if (h > 4000)
            for (auto& x : history_) x /= 2;
          return true;
        }
      }
    }
    return false;
  };

  // Step 2. The hash move first, before any move generation: a cutoff saves the scan.
  if (tt_move >= 0 && ((s >> tt_move) & 1)) {
    const u128 cap = ice::captures(s, tt_move);
    const int g = (board_.score[tt_move] + (cap ? board_.sum(cap) : 0)) * kUnit;
    if (search_move(tt_move, g, cap != 0, true)) {
      if (stop_) return 0;
      store(s, key, depth, best, kLower, best_move);
      return best;
    }
  } else {
    tt_move = -1;
  }

  // Step 3. The other moves, ordered: gain (captures and big swings), killers, history.
  Gen* moves = stack_[ply].data();
  int count = generate(s, moves);
  int k = 0;
  for (int i = 0; i < count; ++i) {
    Gen& m = moves[i];
    if (m.cell == tt_move) continue;
    int key_i = m.gain * 4096 + history_[m.cell];
    if (m.cell == killers_[ply][0]) key_i += 3000;
    else if (m.cell == killers_[ply][1]) key_i += 2000;
    m.score = key_i;
    moves[k++] = m;
  }
  count = k;
  for (int i = 0; i < count; ++i) {
    // Pick the best of the rest for the first few; sort the tail once if it gets that far.
    if (i < 4) {
      int j = i;
      for (int q = i + 1; q < count; ++q)
        if (moves[q].score > moves[j].score) j = q;
      std::swap(moves[i], moves[j]);
    } else if (i == 4) {
      std::sort(moves + i, moves + count, [](const Gen& a, const Gen& b) { return a.score > b.score; });
    }
    const Gen& m = moves[i];
    if (search_move(m.cell, m.gain, m.captured != 0, i == 0 && tt_move < 0)) break;
  }
  if (stop_) return 0;
  const Bound b = best <= alpha0 ? kUpper : best >= beta ? kLower : kExact;
  store(s, key, depth, best, b, best_move);
  return best;
}

// One root iteration at `depth` within (lo, hi): PVS over the root moves in their current order.
// Returns the best value (fail-soft) and its index; on a stop the index is that of a move that
// beat the first one outright, or 0.
int IceSearch::root_iteration(u128 s, std::uint64_t key, Gen* moves, int count, int depth, int lo,
                              int hi, int& best_i, BestMove* publish) {
  int alpha = lo, best = -kInf;
  best_i = 0;
  for (int i = 0; i < count; ++i) {
    const Gen& m = moves[i];
    const u128 cap = m.captured ? ice::captures(s, m.cell) : 0;
    const u128 child = s & ~(cap | bit128(m.cell));
    const std::uint64_t ck = key ^ zob_[m.cell] ^ (cap ? key_of(cap) : 0);
    const int g = m.gain;
    int v;
    if (i == 0 || !p_.pvs) {
      v = g - negamax(child, ck, depth - 1, g - hi, g - alpha, 1);
    } else {
      v = g - negamax(child, ck, depth - 1, g - alpha - 1, g - alpha, 1);
      if (v > alpha && v < hi && !stop_) v = g - negamax(child, ck, depth - 1, g - hi, g - alpha, 1);
    }
    if (stop_) break;
    if (v > best) {
      best = v, best_i = i;
      if (v > alpha) {
        alpha = v;
        // A move that beats the first within the iteration is trustworthy: publish it now.
        if (i > 0 && publish) publish->publish(m.cell);
      }
      if (alpha >= hi) break;
    }
  }
  return best;
}

IceSearch::Result IceSearch::run(u128 s, int margin, const SearchLimits& limits, BestMove* publish) {
  Result r;
  nodes_ = 0;
  budget_ = limits.node_budget;
  deadline_ = &limits.deadline;
  stop_ = false;
  ++age_;
  const int n = popcount(s);
  if (!n) return r;

  // Step 1. Root moves, ordered by gain, the table's move first.
  Gen* moves = stack_[kMaxPly + 1].data();
  const int count = generate(s, moves);
  std::stable_sort(moves, moves + count, [](const Gen& a, const Gen& b) { return a.gain > b.gain; });
  const std::uint64_t key = key_of(s);
  if (const TTEntry* e = probe(s, key)) {
    const int tm = static_cast<int>(e->hi_move >> 25) - 1;
    for (int i = 0; i < count; ++i)
      if (moves[i].cell == tm) std::rotate(moves, moves + i, moves + i + 1);
  }
  r.move = moves[0].cell;
  if (publish) publish->publish(r.move);
  if (count == 1) {
    r.value = moves[0].gain;
    r.exact = true;
    r.nodes = 1;
    return r;
  }

  // Step 2. Iterative deepening (with optional aspiration windows) from `from` to `to`;
  // false once the search must stop.
  int prev = 0;
  auto deepen = [&](int from, int to) {
    for (int depth = from; depth <= to; ++depth) {
      int lo = -kInf, hi = kInf;
      if (p_.aspiration > 0 && depth > 1) {
        lo = prev - p_.aspiration * kUnit;
        hi = prev + p_.aspiration * kUnit;
      }
      int best_i = 0, best;
      for (;;) {
        best = root_iteration(s, key, moves, count, depth, lo, hi, best_i, depth > 1 ? publish : nullptr);
        if (stop_) break;
        if (best <= lo && lo > -kInf) { lo = -kInf; continue; }
        if (best >= hi && hi < kInf) { hi = kInf; continue; }
        break;
      }
      if (stop_) {
        if (best_i > 0 && depth > 1) r.move = moves[best_i].cell;
        return false;
      }
      std::rotate(moves, moves + best_i, moves + best_i + 1);
      r.move = moves[0].cell;
      r.value = prev = best;
      r.depth = depth;
      r.exact = depth >= n;
      if (publish) publish->publish(r.move);
      if (r.exact) return false;
      if (budget_ && nodes_ >= budget_) return false;
      if (!limits.deadline.unlimited() &&
          limits.deadline.soft_fraction() >= p_.iter_start * p_.time_scale)
        return false;
      if (limits.deadline.soft_fraction() >= p_.time_scale || limits.deadline.stop_requested())
        return false;
    }
    return true;
  };

  // Step 3. Few cells left: a short search for a safe fallback, then solve win/draw/loss
  // exactly. The game is won if the rest is worth more than -margin to us, so the window
  // (t - 1, t + 1) around t = -margin decides it (exact values are multiples of kUnit). A win or
  // a draw is played at once; a loss goes on deepening, to make the opponent find the refutation.
  if (n <= p_.solve_at) {
    const int quick = std::min(n, 4);
    if (!deepen(1, quick) && (stop_ || r.exact)) {
      r.nodes = nodes_;
      deadline_ = nullptr;
      return r;
    }
    const int t = -margin * kUnit;
    int bi = 0;
    const int v = root_iteration(s, key, moves, count, n, t - 1, t + 1, bi, nullptr);
    if (!stop_ && v > t - 1) {
      r.move = moves[bi].cell;
      r.value = v;
      r.depth = n;
      r.exact = true;
      if (publish) publish->publish(r.move);
    } else if (!stop_) {
      deepen(quick + 1, n);
    }
  } else {
    deepen(1, n);
  }
  r.nodes = nodes_;
  deadline_ = nullptr;
  return r;
}

int IceSearch::exact_value(u128 s) {
  nodes_ = 0;
  budget_ = 0;
  deadline_ = nullptr;
  stop_ = false;
  ++age_;
  return negamax(s, key_of(s), kExactDepth, -kInf, kInf, 0);
}

}  // namespace tactica::plugins::expectimax
