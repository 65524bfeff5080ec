// search.hpp — expectiminimax, written once for both games.
//
// A decision node is the side to move choosing a move; what follows the move depends on the
// game's world (G::kWorld, game.hpp):
//
//   World::chance    a chance node: the mean over the sampled outcomes (Hanpang: rows);
//   World::opponent  the opponent's decision node, in negamax form (its value negated).
//
// A move's value is its immediate gain plus the value of what follows, so a game may count its
// values from the whole board (Hanpang: gains are 0, the evaluation holds the score) or from the
// rest of the game only (Icebreaking: path-independent, so the table keeps them all game long).
//
// The algorithm is here: iterative deepening at the root (aspiration windows, publishing the
// best move so far), alpha-beta with PVS, a transposition table (hash move first), killers and
// history, futility at depth 1 and ProbCut (two players), and the exact win/draw/loss solve
// near the end of a two-player game. What the game's strategy knows comes from a knowledge type
// K (plugins/games/<game>/search_knowledge.hpp):
//
//   K::Game             the Game model (its kWorld picks chance or min nodes)
//   K::Node, K::Value   what the search carries per position; int or double values
//   K::Gen              a generated move: .score (ordering key), .gain (Value), .cell (int)
//   K::kInf, K::kMaxPly, K::kMaxMoves, K::kCheckEvery (nodes between clock reads, and the
//                       budget's grain: the searches always counted in these strides)
//   K::kTable           keep a transposition table: k.key, k.lock (a 96-bit proof of identity,
//                       K::kLockHiBits above 64), k.legal / k.describe for the hash move;
//                       two players with integer values: K::kUnit (the exact solve's grain)
//   K::kHistory         killer and history bonuses on top of the ordering key (k.quiet)
//   K::kFutility        two players: k.futile(node, move, alpha, bound): the move's child is a
//                       horizon node and the move is worth at most bound <= alpha
//   K::kStaticChildren  generation values every child (one node each): at depth 1 they are the
//                       node's value, and the root's first iteration is the generation itself
//   K::kPartialIterations  a move that beats the first within an unfinished iteration is kept
//   k.settle(...)       terminal, forced and horizon nodes (evaluation, quiescence); counts nodes
//   k.generate, k.play, k.before (inside the tree), k.root_before (stable, at the root),
//   k.depth_limit(root) (the deepest iteration; two players: exact there)
//   chance games also: k.terminal, k.leaf(after), k.outcome(after, level, i), k.new_search(root)
//
// The algorithm's own settings (widths, samples, depth, PVS, aspiration, solve_at, iteration
// pacing) are its Settings; the game's are the knowledge's constructor arguments.
// Every limit goes through one SearchBudget (tactica/search_budget.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "expectimax/transposition_table.hpp"
#include "tactica/game.hpp"
#include "tactica/search_budget.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::expectimax {

// SearchBudget::may_start with the soft time counted as `scale` times the host's (never past the
// hard limit, which SearchBudget::count enforces): may another iteration start?
inline bool may_deepen(const SearchBudget& b, double fraction, double scale) {
  if (scale <= 1.0) return b.may_start(fraction * scale);
  if (b.stopped() || b.deadline().stop_requested()) return false;
  if (b.budgeted()) return b.nodes() < b.budget();
  return b.deadline().unlimited() || b.deadline().soft_fraction() < fraction * scale;
}

// The table a knowledge type asks for (none without kTable).
template <class K, bool = K::kTable>
struct TableOf {
  using type = TranspositionTable<K::kLockHiBits>;
};
template <class K>
struct TableOf<K, false> {
  struct type {};
};

template <class K>
class Expectiminimax {
 public:
  using Game = typename K::Game;
  using Node = typename K::Node;
  using Value = typename K::Value;
  using Gen = typename K::Gen;
  static constexpr bool kChance = Game::kWorld == World::chance;
  static constexpr Value kInf = K::kInf;
  static constexpr int kMaxPly = K::kMaxPly;
  static_assert(kChance ? ChanceGame<Game> : TwoPlayerGame<Game>);

  struct Result {
    int move = -1;   // the cell to play (-1: no move)
    Value value{};   // the side to move's view
    int depth = 0;   // last completed iteration
    bool exact = false;
    std::uint64_t nodes = 0;
  };

  // The algorithm's own settings (the game's are the knowledge's); the defaults limit nothing.
  struct Settings {
    int tt_mb = 1;                    // transposition table size in MiB (kTable only)
    int max_depth = 1 << 20;          // iterations: at most this depth (plies or our moves)
    int width = K::kMaxMoves;         // moves searched at each decision node below the root
    int root_width = K::kMaxMoves;    // root moves searched (in the root's order)
    int samples = 1;                  // outcomes per chance node (the knowledge's sampler)
    int solve_at = 0;                 // two players: solve win/draw/loss from this depth limit
    Value aspiration{};               // half-width of the aspiration window (0: full window)
    bool pvs = false;                 // principal variation search (two players)
    double iter_start = 1.0;          // start another iteration before this soft-time fraction
    double time_scale = 1.0;          // the soft time counted as this multiple of the host's
    double solve_lead = 0.0;          // before the solve: deepen (past depth 4) while under this
                                      // fraction of the soft time (or of the node budget)
    int etc_depth = 0;                // kTable: enhanced transposition cutoffs (every child
                                      // probed before any is searched) from this depth (0: off)
    int lmr_after = 0;                // two players: late move reductions: from this move index
                                      // on, a quiet move at lmr_depth or deeper (not an exact
                                      // node) is first searched one ply shallower (0: off)
    int lmr_depth = 3;
    bool futility = false;            // two players, K::kFutility: at depth 1, a move whose child
                                      // (valued by the evaluation) cannot beat alpha whatever it
                                      // evaluates to (k.futile) is not searched: exact
    int probcut_depth = 0;            // two players: ProbCut at null-window nodes of this depth
                                      // or deeper (not exact ones; 0: off): a search
                                      // probcut_reduce plies shallower that clears beta (or
                                      // stays under alpha) by probcut_margin cuts the node
    int probcut_reduce = 2;
    Value probcut_margin{};
    bool probcut_low = true;          // ... also the alpha side (false: beta only)
    int swindle = 0;                  // two players, after the solve proves a draw or a loss:
                                      // of the moves that keep the result, the one where most of
                                      // the opponent's first `swindle` replies in the search's
                                      // order are mistakes (0: off; see swindle())
  };

  template <class... Args>
  explicit Expectiminimax(const Settings& settings, Args&&... knowledge)
      : set_(settings), k_(std::forward<Args>(knowledge)...), stack_(kMaxPly + 2) {
    if constexpr (K::kTable) tt_.resize(set_.tt_mb);
  }

  K& knowledge() { return k_; }
  const K& knowledge() const { return k_; }
  // The soft time's multiple for the next runs (Settings::time_scale).
  void set_time_scale(double scale) { set_.time_scale = scale; }

  // The table's move for `node` (-1: none stored): after a run, the reply it expects to a move.
  int table_move(const Node& node) const {
    if constexpr (K::kTable)
      if (const auto* e = tt_.probe(k_.lock(node), k_.key(node))) return e->move();
    return -1;
  }

  // Forget everything learnt (a new game).
  void clear() {
    if constexpr (K::kTable) tt_.clear();
    history_.fill(0);
    for (auto& k : killers_) k = {-1, -1};
  }

  // Iterative deepening from `root` (the side to move is ahead by `margin` points: the exact
  // endgame solve plays for the win it decides) within `limits`. Publishes the best move after
  // every completed iteration (and, with kPartialIterations, on a new best within one).
  Result run(const Node& root, int margin, const SearchLimits& limits, BestMove* publish) {
    Result r;
    // The budget is spent in whole clock-check strides (kCheckEvery nodes), as the searches
    // always counted it: the same budget plays the same moves. Between iterations the given
    // budget decides.
    SearchLimits strided = limits;
    if (strided.node_budget)
      strided.node_budget = (strided.node_budget + K::kCheckEvery - 1) / K::kCheckEvery * K::kCheckEvery;
    SearchBudget budget(strided, K::kCheckEvery);
    budget_ = &budget;
    const auto more = [&] {
      if (limits.node_budget && budget.nodes() >= limits.node_budget) return false;
      return may_deepen(budget, set_.iter_start, set_.time_scale);
    };
    if constexpr (K::kTable) tt_.next_age();
    if constexpr (kChance) k_.new_search(root);

    // Step 1. Root moves in their root order, the table's move first.
    Gen* moves = stack_[kMaxPly + 1].data();
    const int count = k_.generate(root, moves);
    if (count == 0) return finish(r);
    std::stable_sort(moves, moves + count, [&](const Gen& a, const Gen& b) { return k_.root_before(a, b); });
    std::uint64_t key = 0;
    if constexpr (K::kTable) {
      key = k_.key(root);
      if (const auto* e = tt_.probe(k_.lock(root), key)) {
        const int tm = e->move();
        for (int i = 0; i < count; ++i)
          if (moves[i].cell == tm) std::rotate(moves, moves + i, moves + i + 1);
      }
    }
    r.move = moves[0].cell;
    if constexpr (K::kStaticChildren) {
      budget.count(static_cast<std::uint64_t>(count));
      r.value = moves[0].score;
      r.depth = 1;
    }
    if (publish) publish->publish(r.move);
    if (count == 1) {
      if constexpr (!K::kStaticChildren) {
        r.value = moves[0].gain;
        r.exact = true;
      }
      r.nodes = 1;
      return finish(r);
    }

    const int limit = k_.depth_limit(root), last = std::min(set_.max_depth, limit);

    // Step 2. Iterative deepening (with aspiration windows) from `from` to `to`; false once the
    // search must stop.
    Value prev{};
    // Before the solve: deepen past `quick` only while under solve_lead of the soft time (or of
    // the budget); the solve then has the rest, up to the hard limit (or the budget).
    const int quick = std::min(last, 4);
    const auto lead = [&](int depth) {
      if (depth <= quick) return true;
      if (set_.solve_lead <= 0 || budget.stopped()) return false;
      if (budget.budgeted()) return double(budget.nodes()) < set_.solve_lead * double(budget.budget());
      return may_deepen(budget, set_.solve_lead, set_.time_scale);
    };
    auto deepen = [&](int from, int to, bool leading = false) {
      for (int depth = from; depth <= to; ++depth) {
        Value lo = -kInf, hi = kInf;
        if (set_.aspiration > 0 && depth > 1) lo = prev - set_.aspiration, hi = prev + set_.aspiration;
        int best_i = 0;
        Value best;
        for (;;) {
          best = root_iteration(root, key, moves, count, depth, lo, hi, best_i,
                                depth > 1 ? publish : nullptr);
          if (budget.stopped()) break;
          if (best <= lo && lo > -kInf) { lo = -kInf; continue; }
          if (best >= hi && hi < kInf) { hi = kInf; continue; }
          break;
        }
        if (budget.stopped()) {
          if (K::kPartialIterations && best_i > 0 && depth > 1) r.move = moves[best_i].cell;
          return false;
        }
        std::rotate(moves, moves + best_i, moves + best_i + 1);
        r.move = moves[0].cell;
        r.value = prev = best;
        r.depth = depth;
        r.exact = !kChance && depth >= limit;
        if (publish) publish->publish(r.move);
        if (r.exact || !more()) return false;
        if (leading && !lead(depth + 1)) return true;
      }
      return true;
    };

    // Step 3. Deepen. A two-player game near its end: a short search for a safe fallback, then
    // the win/draw/loss solve. The game is won if the rest is worth more than -margin to us, so
    // the window (t - 1, t + 1) around t = -margin decides it (exact values are multiples of
    // K::kUnit). A win or a draw is played at once; a loss goes on deepening, to make the
    // opponent find the refutation.
    if constexpr (K::kStaticChildren) {
      if (more()) deepen(2, last);
    } else if constexpr (!kChance) {
      if (limit > set_.solve_at) {
        deepen(1, last);
        return finish(r);
      }
      if (!deepen(1, last, true) && (budget.stopped() || r.exact)) return finish(r);
      const Value t = -margin * K::kUnit;
      int bi = 0;
      const Value v = root_iteration(root, key, moves, count, last, t - 1, t + 1, bi, nullptr);
      if (!budget.stopped() && v > t - 1) {
        r.move = moves[bi].cell;
        r.value = v;
        r.depth = last;
        r.exact = true;
        if (publish) publish->publish(r.move);
        if (set_.swindle > 0 && v < t + 1) {  // a draw: play for the opponent's mistakes
          const int si = swindle(root, key, moves, count, last, t, true);
          if (si >= 0) {
            r.move = moves[si].cell;
            if (publish) publish->publish(r.move);
          }
        }
      } else if (!budget.stopped()) {
        const int si = set_.swindle > 0 ? swindle(root, key, moves, count, last, t, false) : -1;
        if (si >= 0) {
          // A loss: the move whose likely replies most often let us draw; r.value stays the
          // heuristic's, r.exact false.
          r.move = moves[si].cell;
          if (publish) publish->publish(r.move);
        } else if (!budget.stopped()) {
          deepen(std::max(quick, r.depth) + 1, last);
        }
      }
    } else {
      deepen(1, last);
    }
    return finish(r);
  }

  // The value of `s` searched to `depth` with no limits (depth >= the moves left: exact).
  Value value(const Node& s, int depth) {
    SearchLimits none;
    SearchBudget budget(none, K::kCheckEvery);
    budget_ = &budget;
    if constexpr (K::kTable) tt_.next_age();
    if constexpr (kChance) k_.new_search(s);
    std::uint64_t key = 0;
    if constexpr (K::kTable) key = k_.key(s);
    const Value v = decide(s, key, depth, -kInf, kInf, 0);
    budget_ = nullptr;
    return v;
  }

 private:
  using Table = typename TableOf<K>::type;

  Result& finish(Result& r) {
    r.nodes = std::max<std::uint64_t>(r.nodes, budget_->nodes());
    budget_ = nullptr;
    return r;
  }

  // The value of move m from s (the side to move's view) within (alpha, beta); `full` searches
  // the full window (the first move, or PVS off), otherwise a null window first.
  // `reduce` plies less first, with a null window: a move that fails low there is not searched
  // to the full depth.
  Value child_value(const Node& s, std::uint64_t key, const Gen& m, int depth, Value alpha,
                    Value beta, int ply, bool full, int reduce = 0) {
    Node c;
    std::uint64_t ck = 0;
    k_.play(s, key, m, c, ck);
    const Value g = m.gain;
    if constexpr (kChance) {
      return g + chance(c, depth - 1, ply);
    } else {
      if (reduce > 0) {
        const Value v = g - decide(c, ck, depth - 1 - reduce, g - alpha - 1, g - alpha, ply + 1);
        if (v <= alpha || budget_->stopped()) return v;
      }
      if (full || !set_.pvs) return g - decide(c, ck, depth - 1, g - beta, g - alpha, ply + 1);
      Value v = g - decide(c, ck, depth - 1, g - alpha - 1, g - alpha, ply + 1);
      if (v > alpha && v < beta && !budget_->stopped())
        v = g - decide(c, ck, depth - 1, g - beta, g - alpha, ply + 1);
      return v;
    }
  }

  // A chance node after our move at `level` (our moves since the root): the mean of the
  // decision nodes its sampled outcomes make.
  Value chance(const Node& after, int depth, int level) {
    if (k_.terminal(after) || depth <= 0) {
      budget_->count();
      return k_.leaf(after);
    }
    Value sum{};
    const int n = set_.samples;
    for (int i = 0; i < n; ++i) {
      Node s = after;
      k_.outcome(s, level, i);
      sum += decide(s, 0, depth, -kInf, kInf, level + 1);
      if (budget_->stopped()) return Value{};
    }
    return sum / n;
  }

  // Killers (two per ply) and history for a move that cut off at `depth`.
  void reward(const Gen& m, int depth, int ply) {
    const int cell = m.cell;
    if (k_.quiet(m) && killers_[ply][0] != cell) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = static_cast<std::int8_t>(cell);
    }
    int& h = history_[cell];
    h += std::min(depth, 20) * std::min(depth, 20);
    if (h > 4000)
      for (auto& x : history_) x /= 2;
  }

  // A decision node: the best of the side to move's moves within (alpha, beta).
  Value decide(const Node& s, std::uint64_t key, int depth, Value alpha, Value beta, int ply) {
    Value settled;
    if (k_.settle(s, depth, alpha, beta, ply, *budget_, settled)) return settled;

    // Step 1. Transposition table.
    int tt_move = -1;
    if constexpr (K::kTable) {
      if (const auto* e = tt_.probe(k_.lock(s), key)) {
        tt_move = e->move();
        if (e->depth() >= depth) {
          const int v = e->value, b = e->bound();
          if (b == Table::kExact || (b == Table::kLower && v >= beta) || (b == Table::kUpper && v <= alpha))
            return v;
        }
      }
    }
    // Step 1b. ProbCut (two players, a null window, not an exact node): a shallower search
    // predicts this one; where it clears beta, or stays under alpha, by the margin the node is
    // cut (a heuristic: values change). With margin 0 both predicting searches have the node's
    // own null window, so every such node is settled by the shallower search: the full depth
    // goes to the principal variation and to the moves that the shallower search says beat it
    // (PVS searches those again with the full window).
    if constexpr (!kChance) {
      if (set_.probcut_depth > 0 && depth >= set_.probcut_depth && beta - alpha == 1 &&
          depth < k_.depth_limit(s) && beta < kInf / 2 && alpha > -kInf / 2) {
        const int d = depth - std::max(1, set_.probcut_reduce);
        const Value m = set_.probcut_margin;
        Value v = decide(s, key, d, beta + m - 1, beta + m, ply);
        if (budget_->stopped()) return Value{};
        if (v >= beta + m) return beta;
        if (set_.probcut_low) {
          v = decide(s, key, d, alpha - m, alpha - m + 1, ply);
          if (budget_->stopped()) return Value{};
          if (v <= alpha - m) return alpha;
        }
        if constexpr (K::kTable) {
          if (tt_move < 0)
            if (const auto* e = tt_.probe(k_.lock(s), key)) tt_move = e->move();
        }
      }
    }
    const Value alpha0 = alpha;
    Value best = -kInf;
    int best_move = -1;

    // Searches one move; true on a cutoff (or a stop).
    auto search = [&](const Gen& m, bool first, int reduce = 0) {
      const Value v = child_value(s, key, m, depth, alpha, beta, ply, first, reduce);
      if (budget_->stopped()) return true;
      if (v > best) {
        best = v, best_move = m.cell;
        if (v > alpha) {
          alpha = v;
          if (alpha >= beta) {
            if constexpr (K::kHistory) reward(m, depth, ply);
            return true;
          }
        }
      }
      return false;
    };

    // Step 2a. Enhanced transposition cutoffs (deep nodes only): a child whose table entry
    // already proves the move reaches beta cuts off without a search.
    Gen* moves = stack_[ply].data();
    int count = -1;
    if constexpr (K::kTable && !kChance) {
      // (The plies left: an exact node's depth says "to the end", its depth limit how far.)
      if (set_.etc_depth > 0 && std::min(depth, k_.depth_limit(s)) >= set_.etc_depth) {
        count = k_.generate(s, moves);
        for (int i = 0; i < count; ++i) {
          Node c;
          std::uint64_t ck = 0;
          k_.play(s, key, moves[i], c, ck);
          const auto* e = tt_.probe(k_.lock(c), ck);
          if (!e || e->depth() < depth - 1 || !(e->bound() & Table::kUpper)) continue;
          const Value v = moves[i].gain - e->value;  // the child is worth at most e->value
          if (v >= beta) {
            tt_.store(k_.lock(s), key, depth, v, Table::kLower, moves[i].cell);
            return v;
          }
        }
      }
    }

    // Step 2. The hash move first, before any move generation: a cutoff saves the scan.
    if constexpr (K::kTable) {
      if (tt_move >= 0 && k_.legal(s, tt_move)) {
        if (search(k_.describe(s, tt_move), true)) {
          if (budget_->stopped()) return Value{};
          tt_.store(k_.lock(s), key, depth, best, Table::kLower, best_move);
          return best;
        }
      } else {
        tt_move = -1;
      }
    }

    // Step 3. The other moves, ordered by the game's key (plus killers and history).
    if (count < 0) count = k_.generate(s, moves);
    if constexpr (K::kStaticChildren) {
      budget_->count(static_cast<std::uint64_t>(count));
      if (budget_->stopped() || count == 0) return Value{};
      if (depth <= 1) {
        Value top = moves[0].score;
        for (int i = 1; i < count; ++i) top = std::max(top, moves[i].score);
        return top;
      }
    }
    if constexpr (K::kTable || K::kHistory) {
      int k = 0;
      for (int i = 0; i < count; ++i) {
        Gen& m = moves[i];
        if (m.cell == tt_move) continue;
        if constexpr (K::kHistory) {
          m.score += history_[m.cell];
          if (m.cell == killers_[ply][0]) m.score += 3000;
          else if (m.cell == killers_[ply][1]) m.score += 2000;
        }
        moves[k++] = m;
      }
      count = k;
    }
    const auto before = [&](const Gen& a, const Gen& b) { return k_.before(a, b); };
    const int width = std::min(count, set_.width);
    for (int i = 0; i < width; ++i) {
      // Pick the best of the rest for the first few; sort the tail once if it gets that far.
      if (i < 4) {
        int j = i;
        for (int q = i + 1; q < count; ++q)
          if (before(moves[q], moves[j])) j = q;
        std::swap(moves[i], moves[j]);
      } else if (i == 4) {
        std::sort(moves + i, moves + count, before);
      }
      if constexpr (!kChance && K::kFutility) {
        // Futility at the horizon's parent: the child's value is at most the bound, so a move
        // that cannot beat alpha so is not searched (the node's fail-soft value keeps the bound).
        Value bound{};
        if (set_.futility && depth == 1 && best > -kInf && k_.futile(s, moves[i], alpha, bound)) {
          best = std::max(best, bound);
          continue;
        }
      }
      int reduce = 0;
      if constexpr (!kChance) {
        const int index = i + (tt_move >= 0);  // the hash move was the first
        if (set_.lmr_after > 0 && index >= set_.lmr_after && depth >= set_.lmr_depth &&
            depth < k_.depth_limit(s) && k_.quiet(moves[i]))
          reduce = 1;
      }
      if (search(moves[i], i == 0 && tt_move < 0, reduce)) break;
    }
    if (budget_->stopped()) return Value{};
    if constexpr (K::kTable) {
      const auto b = best <= alpha0 ? Table::kUpper : best >= beta ? Table::kLower : Table::kExact;
      tt_.store(k_.lock(s), key, depth, best, b, best_move);
    }
    return best;
  }

  // One root iteration at `depth` within (lo, hi) over the first root_width moves in their
  // current order. Returns the best value (fail-soft) and its index; on a stop the index is that
  // of a move that beat the first one outright, or 0.
  Value root_iteration(const Node& s, std::uint64_t key, const Gen* moves, int count, int depth,
                       Value lo, Value hi, int& best_i, BestMove* publish) {
    Value alpha = lo, best = -kInf;
    best_i = 0;
    const int width = std::min(count, set_.root_width);
    for (int i = 0; i < width; ++i) {
      const Value v = child_value(s, key, moves[i], depth, alpha, hi, 0, i == 0);
      if (budget_->stopped()) break;
      if (v > best) {
        best = v, best_i = i;
        if (v > alpha) {
          alpha = v;
          // A move that beats the first within the iteration is trustworthy: publish it now.
          if (K::kPartialIterations && i > 0 && publish) publish->publish(moves[i].cell);
        }
        if (alpha >= hi) break;
      }
    }
    return best;
  }

  // The swindle, after the solve proved the root a draw (`drawn`) or a loss for the side to
  // move, ahead by -t / K::kUnit points: of the root moves that keep that result (all, for a
  // loss), the one after which the most of the opponent's first set_.swindle replies, in the
  // search's own order (the likeliest for a player that searches as we do), are mistakes: they
  // give us a win from a draw, a draw from a loss. Every count is exact (a null-window search to
  // the end). Ties keep the root order (the heuristic's best first). It is optional work, so it
  // looks at another move only while an iteration could start (the soft time), and a stop keeps
  // the best move counted so far (each one keeps the result). -1: no move seen sets a trap.
  int swindle(const Node& root, std::uint64_t key, const Gen* moves, int count, int depth, Value t,
              bool drawn) {
    const Value target = drawn ? t + 1 : t;  // the least value at the root that a mistake gives
    int best_i = -1, best_traps = 0;
    std::array<Gen, K::kMaxMoves> replies;
    for (int i = 0; i < count; ++i) {
      if (!may_deepen(*budget_, set_.iter_start, set_.time_scale)) break;
      if (drawn) {
        const Value v = child_value(root, key, moves[i], depth, t - 1, t + 1, 0, true);
        if (budget_->stopped()) break;
        if (v < t) continue;  // this move loses
      }
      Node c;
      std::uint64_t ck = 0;
      k_.play(root, key, moves[i], c, ck);
      const int n = k_.generate(c, replies.data());
      const int k = std::min(n, set_.swindle);
      std::partial_sort(replies.begin(), replies.begin() + k, replies.begin() + n,
                        [&](const Gen& a, const Gen& b) { return k_.before(a, b); });
      int traps = 0;
      for (int j = 0; j < k; ++j) {
        Node d;
        std::uint64_t dk = 0;
        k_.play(c, ck, replies[j], d, dk);
        // Our value at d, x or more: the root is worth gain - reply's gain + that >= target.
        const Value x = target - moves[i].gain + replies[j].gain;
        const Value v = decide(d, dk, k_.depth_limit(d), x - 1, x, 2);
        if (budget_->stopped()) break;
        if (v >= x) ++traps;
      }
      if (traps > best_traps) best_traps = traps, best_i = i;
      if (budget_->stopped()) break;
    }
    return best_i;
  }

  Settings set_;
  K k_;
  SearchBudget* budget_ = nullptr;
  [[no_unique_address]] Table tt_;
  std::array<int, 128> history_{};
  std::array<std::array<std::int8_t, 2>, kMaxPly + 1> killers_{};
  std::vector<std::array<Gen, K::kMaxMoves>> stack_;  // move lists per ply (the root's last)
};

}  // namespace tactica::plugins::expectimax
