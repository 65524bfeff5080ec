// mcts.hpp — Monte Carlo tree search written once over the Game concept (tactica/game.hpp).
//
// A tree of our decisions. A node is a move with its statistics (visits, summed rewards from
// the view of the player who made it, a prior); a decision's children are one contiguous block
// of move nodes. What follows a move is the world's step (G::kWorld):
//   chance   (Hanpang): a chance layer; each move keeps at most `chance_width` sampled outcomes,
//            each with its own decision (a ChanceNode); once that many exist a visit picks one
//            of them uniformly (sparse sampling). Values are the game's returns (points).
//   opponent (Icebreaking): the move node is the opponent's decision. Rewards are in [0, 1] for
//            player 0 (the other player gets 1 - r), and results are proven (MCTS-Solver with
//            score bounds, so draws are proven too) and backed up; the tree is kept across
//            turns (observe() walks the root down the moves played; the pool is compacted into
//            a spare buffer when it fills past half).
// Selection is UCT with the prior as virtual visits (prior_visits) and/or as progressive bias
// (prior_bias), first-play urgency for unvisited moves; a node is expanded the second time it
// is reached. Budget and deadline go through SearchBudget (a node = one iteration).
//
// What the game knows comes from K (plugins/games/<game>/mcts_knowledge.hpp):
//   Ref, Stat          a move as a node stores it, and the type rewards are summed in;
//   ref, play, cell    a Move to a Ref, a Ref played on a State (fast), the cell sent;
//   priors(s, ml, depth, out)  the prior of every move of ml into out[i] (may reorder them);
//                      returns the decision's exploration spread;
//   leaf(s, depth, rng)        a new leaf's value: chance, the returns (a double); opponent,
//                              {value: player 0's reward, proven, sign: the side to move's
//                              exact result}, a struct of the game's;
//   rollout(s, depth, rng)     the value when the pool has no room to expand;
//   chance only: sample(s, rng) the outcome the search draws; terminal_value(s) after a move
//                that ended the game.
// All nodes come from pools sized at construction; nothing is allocated while searching.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "tactica/game.hpp"
#include "tactica/rng.hpp"
#include "tactica/search_budget.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::mcts {

// The search's own constants (each game's adapter sets them from its parameters).
struct UctParams {
  double c_uct = 1.0;         // exploration, times the decision's spread
  double prior_visits = 0.0;  // virtual visits of a move at its prior (0: none)
  double prior_bias = 0.0;    // progressive bias: + prior_bias * prior / (visits + 1)
  double fpu = std::numeric_limits<double>::quiet_NaN();  // unvisited move without virtual
                              // visits: this value (+ bias); NaN: try them first, in order
  int explore_plus = 0;       // the exploration term's divisor is visits + explore_plus
  int chance_width = 4;       // chance: sampled outcomes kept below each move
  int max_depth = INT_MAX;    // nodes this deep (moves below the root) are leaves
};

enum Proof : std::uint8_t { kUnknown = 0, kWin = 1, kDraw = 2, kLoss = 3 };

template <class Ref, class Stat>
struct Node {
  Ref move{};               // the move into this node
  Stat w = 0;               // rewards summed from the view of the player who made it
  float prior = 0;
  std::int32_t first = -1;  // opponent: first child (-1: not expanded); chance: first outcome
  std::uint32_t visits = 0;
  std::uint8_t nchild = 0;
  // Score bounds for the player who made the move, in half points (0 loss, 1 draw, 2 win):
  // proven once they meet.
  std::uint8_t pess = 0, opt = 2;
};

template <class Outcome>
struct ChanceNode {
  Outcome outcome{};
  std::int32_t first = -1;  // first move node (-1: not expanded)
  std::int32_t next = -1;   // the next sampled outcome of the same move
  std::uint32_t visits = 0;
  float spread = 1.0f;      // scale of the exploration term
  std::uint8_t nchild = 0;
};

namespace detail {
template <class G, bool = G::kWorld == World::chance>
struct OutcomeOf {
  struct type {};
};
template <class G>
struct OutcomeOf<G, true> {
  using type = typename G::Outcome;
};
}  // namespace detail

template <Game G, class K>
class Mcts {
 public:
  using State = typename G::State;
  using N = Node<typename K::Ref, typename K::Stat>;
  using Stat = typename K::Stat;
  using Chance = ChanceNode<typename detail::OutcomeOf<G>::type>;
  static constexpr bool kChance = G::kWorld == World::chance;
  static constexpr bool kSolver = TwoPlayerGame<G>;  // deterministic two-player: proofs
  static_assert(kChance || kSolver, "the opponent world needs a two-player game");

  // pool: move nodes; chance_pool: chance nodes (chance worlds); reuse: keep the tree between
  // turns (opponent worlds: a spare buffer as large as the pool).
  Mcts(const G& game, K& knowledge, const UctParams& p, std::size_t pool, std::size_t chance_pool,
       bool reuse)
      : game_(game),
        kn_(knowledge),
        p_(p),
        pool_(pool),
        spare_(!kChance && reuse ? pool : 0),
        chance_(kChance ? chance_pool : 0),
        reuse_(!kChance && reuse) {}

  // Searches from root; returns the root child to play (-1 if the root could not be expanded).
  // With one legal move it is returned at once.
  std::int32_t search(const State& root, const SearchLimits& limits, BestMove& best,
                      std::uint64_t seed) {
    iterations_ = 0;
    if (!reuse_ || !valid_ || !(root_state_ == root))
      reset(root);
    else if (used_ > static_cast<std::int32_t>(pool_.size() / 2))
      compact();
    rng_.reseed(seed);
    if constexpr (kSolver) {
      mover_[0] = 1 - game_.to_move(root);
      // A kept root proven without children (a solved leaf): no tree to choose in, the caller
      // plays its fallback.
      if (proven(pool_[root_]) && pool_[root_].first < 0) return -1;
    }
    if (!expanded_root() && !expand_root()) {
      reset(root);
      if (!expand_root()) return -1;
    }
    if (root_count() == 1) return root_first();
    best.publish(cell(best_child()));

    SearchBudget sb(limits);
    for (;;) {
      if constexpr (kSolver)
        if (proven(pool_[root_])) break;
      iterate();
      if (sb.count() || !sb.may_start()) break;
      if ((sb.nodes() & 255) == 0) best.publish(cell(best_child()));
    }
    iterations_ = sb.nodes();
    return best_child();
  }

  // The opponent world: the tree follows a move played from the root (ours or the other's).
  void observe(const State& after, int move_cell) {
    if constexpr (!kChance) {
      if (!valid_) return;
      const N& r = pool_[root_];
      valid_ = false;
      if (r.first < 0) return;
      for (std::int32_t i = r.first; i < r.first + r.nchild; ++i) {
        if (kn_.cell(pool_[i].move) != move_cell) continue;
        State expect = root_state_;
        kn_.play(expect, pool_[i].move);
        if (expect == after) root_ = i, root_state_ = after, valid_ = true;
        return;
      }
    }
  }
  void invalidate() { valid_ = false; }

  const N& node(std::int32_t i) const { return pool_[i]; }
  int cell(std::int32_t i) const { return kn_.cell(pool_[i].move); }
  std::uint64_t iterations() const { return iterations_; }
  std::uint32_t root_visits() const { return valid_ ? pool_[root_].visits : 0; }
  static bool proven(const N& n) { return n.pess == n.opt; }
  // The root's proof from the side to move's view (kWin: it wins with best play).
  Proof root_proof_for_mover() const {
    if (!valid_) return kUnknown;
    const N& r = pool_[root_];  // bounds for the player who moved into the root
    return !proven(r) ? kUnknown : r.pess == 2 ? kLoss : r.pess == 1 ? kDraw : kWin;
  }
  // The mean reward of a move, its prior counted as prior_visits visits.
  double mean(const N& n) const {
    const double n0 = p_.prior_visits;
    if (n0 > 0) return (n.w + n0 * n.prior) / (n.visits + n0);
    return static_cast<double>(n.w / static_cast<Stat>(n.visits));
  }

 private:
  static void set_result(N& n, int sign) { n.pess = n.opt = static_cast<std::uint8_t>(sign + 1); }
  // A reward of player 0 seen by player p.
  static double view(int p, double r0) { return p == 0 ? r0 : 1 - r0; }

  void reset(const State& root) {
    root_state_ = root;
    valid_ = true;
    if constexpr (kChance) {
      used_ = 0, used_chance_ = 1;
      chance_[0] = Chance{};
    } else {
      used_ = 1, root_ = 0;
      pool_[0] = N{};
    }
  }

  // Copies the root's subtree to the front of the spare buffer (breadth first, so every child
  // block stays contiguous) and swaps the buffers.
  void compact() {
    spare_[0] = pool_[root_];
    std::int32_t head = 0, tail = 1;
    for (; head < tail; ++head) {
      N& n = spare_[head];
      if (n.first < 0) continue;
      std::copy_n(pool_.begin() + n.first, n.nchild, spare_.begin() + tail);
      n.first = tail;
      tail += n.nchild;
    }
    pool_.swap(spare_);
    used_ = tail;
    root_ = 0;
  }

  std::int32_t root_first() const { return kChance ? chance_[0].first : pool_[root_].first; }
  int root_count() const { return kChance ? chance_[0].nchild : pool_[root_].nchild; }
  bool expanded_root() const { return root_first() >= 0; }
  bool expand_root() {
    if constexpr (kChance)
      return expand(root_state_, 0, chance_[0].first, chance_[0].nchild, &chance_[0].spread);
    else
      return expand(root_state_, 0, pool_[root_].first, pool_[root_].nchild, nullptr);
  }

  // Creates the move nodes of a decision, with their priors.
  bool expand(const State& s, int depth, std::int32_t& first, std::uint8_t& nchild, float* spread) {
    game_.moves(s, moves_);
    const int count = moves_.size();
    if (used_ + count > static_cast<std::int32_t>(pool_.size())) return false;
    first = used_;
    nchild = static_cast<std::uint8_t>(count);
    N* out = &pool_[used_];
    used_ += count;
    for (int i = 0; i < count; ++i) {
      out[i] = N{};
      out[i].move = kn_.ref(moves_[i]);
    }
    const float sp = kn_.priors(s, moves_, depth, out);
    if (spread) *spread = sp;
    return true;
  }

  // The child to descend into. The parameters fixed for the search (virtual visits, progressive
  // bias) are branched on once here, not once per child: this is the search's inner loop.
  std::int32_t select(std::int32_t first, int count, std::uint32_t visits, float spread) const {
    const bool virt = p_.prior_visits > 0, bias = p_.prior_bias != 0;
    if (virt)
      return bias ? select_as<true, true>(first, count, visits, spread)
                  : select_as<true, false>(first, count, visits, spread);
    return bias ? select_as<false, true>(first, count, visits, spread)
                : select_as<false, false>(first, count, visits, spread);
  }

  template <bool kVirtual, bool kBias>
  std::int32_t select_as(std::int32_t first, int count, std::uint32_t visits, float spread) const {
    const double log_n = std::log(static_cast<double>(visits) + 1.0);
    const double c = p_.c_uct * spread, n0 = p_.prior_visits, fpu = p_.fpu, pb = p_.prior_bias;
    const bool fpu_first = std::isnan(fpu);
    const int plus = p_.explore_plus;
    const N* pool = pool_.data();
    // Solver: a move that cannot do better than what a sibling already guarantees is skipped.
    int lb = 0;
    if constexpr (kSolver)
      for (std::int32_t i = first; i < first + count; ++i) lb = std::max<int>(lb, pool[i].pess);
    std::int32_t best = -1;
    double best_s = -1e300;
    for (std::int32_t i = first; i < first + count; ++i) {
      const N& ch = pool[i];
      if constexpr (kSolver) {
        if (ch.opt <= lb && ch.opt != 2) continue;
        if (proven(ch)) return i;
      }
      double s;
      if (!kVirtual && ch.visits == 0) {
        if (fpu_first) return i;
        s = fpu + pb * ch.prior;
      } else {
        const double m = kVirtual ? (ch.w + n0 * ch.prior) / (ch.visits + n0)
                                  : static_cast<double>(ch.w / static_cast<Stat>(ch.visits));
        s = m + c * std::sqrt(log_n / (ch.visits + plus));
        if (kBias) s += pb * ch.prior / (ch.visits + 1);
      }
      if (s > best_s) best_s = s, best = i;
    }
    return best >= 0 ? best : first;
  }

  // A proven win if there is one; else the most visited move not proven lost (ties: the better
  // mean), unless a proven draw beats its estimate; else (all lost) the most visited move.
  std::int32_t best_child() const {
    const std::int32_t first = root_first(), end = first + root_count();
    if (first < 0) return -1;
    std::int32_t win = -1, draw = -1, open = -1, any = first;
    const bool prior_mean = p_.prior_visits > 0;  // then unvisited moves have a mean too
    for (std::int32_t i = first; i < end; ++i) {
      const N& ch = pool_[i];
      if (ch.visits > pool_[any].visits) any = i;
      if constexpr (kSolver) {
        if (ch.pess == 2) {
          if (win < 0 || ch.visits > pool_[win].visits) win = i;
          continue;
        }
        if (proven(ch) && ch.pess == 1) {
          if (draw < 0 || ch.visits > pool_[draw].visits) draw = i;
          continue;
        }
        if (ch.opt == 0) continue;
      }
      if (open < 0 || ch.visits > pool_[open].visits ||
          (ch.visits == pool_[open].visits && (ch.visits || prior_mean) && mean(ch) > mean(pool_[open])))
        open = i;
    }
    if (win >= 0) return win;
    if (draw >= 0 && (open < 0 || pool_[open].visits == 0 || mean(pool_[open]) < 0.5 || pool_[open].opt < 2))
      return draw;
    if (open >= 0) return open;
    return any;
  }

  void iterate() {
    if constexpr (kChance)
      iterate_chance();
    else
      iterate_opponent();
  }

  // Chance world: UCT at decisions, a sampled outcome below each move; every move on the path
  // gets the same value (the game's returns at the leaf, evaluation included).
  void iterate_chance() {
    State s = root_state_;
    std::int32_t d = 0, leaf = -1;
    int depth = 0;
    double value;
    for (;;) {
      Chance& c = chance_[d];
      if (depth > 0 && game_.terminal(s)) {  // the world's step ended the game
        leaf = d;
        value = kn_.terminal_value(s);
        break;
      }
      if (c.first < 0) {
        if (depth > 0 && (c.visits == 0 || depth >= p_.max_depth)) {
          leaf = d;
          value = kn_.leaf(s, depth, rng_);
          break;
        }
        if (!expand(s, depth, c.first, c.nchild, &c.spread)) {
          leaf = d;
          value = kn_.rollout(s, depth, rng_);
          break;
        }
      }
      const std::int32_t e = select(c.first, c.nchild, c.visits, c.spread);
      cpath_[depth] = d;
      path_[depth++] = e;
      kn_.play(s, pool_[e].move);
      if (game_.terminal(s)) {
        value = kn_.terminal_value(s);
        break;
      }
      // A new sampled outcome while the move has room, else one of its outcomes.
      N& ed = pool_[e];
      if (ed.nchild < p_.chance_width && used_chance_ < static_cast<std::int32_t>(chance_.size())) {
        const std::int32_t child = used_chance_++;
        chance_[child] = Chance{};
        chance_[child].outcome = kn_.sample(s, rng_);
        chance_[child].next = ed.first;
        ed.first = child;
        ++ed.nchild;
        game_.step(s, chance_[child].outcome);
        d = child;
      } else if (ed.nchild > 0) {
        std::int32_t o = ed.first;
        for (auto k = rng_.below(static_cast<std::uint32_t>(ed.nchild)); k > 0; --k) o = chance_[o].next;
        game_.step(s, chance_[o].outcome);
        d = o;
      } else {
        game_.step(s, kn_.sample(s, rng_));
        value = kn_.leaf(s, depth, rng_);
        break;
      }
    }
    if (leaf >= 0) ++chance_[leaf].visits;
    for (int i = 0; i < depth; ++i) {
      N& e = pool_[path_[i]];
      ++e.visits;
      e.w += static_cast<Stat>(value);
      ++chance_[cpath_[i]].visits;
    }
  }

  // Opponent world: the players alternate down the tree; finished games and solved leaves are
  // proven and their bounds backed up.
  void iterate_opponent() {
    State s = root_state_;
    int depth = 0;
    path_[0] = root_;
    double r0;  // player 0's reward
    bool proven_leaf = false;
    for (;;) {
      N& n = pool_[path_[depth]];
      const int mover = mover_[depth];
      if (proven(n)) {
        r0 = view(mover, 0.5 * n.pess);
        break;
      }
      if (game_.terminal(s)) {
        const double ret = game_.returns(s, mover);
        set_result(n, ret > 0 ? 1 : ret < 0 ? -1 : 0);
        r0 = view(mover, 0.5 * n.pess);
        proven_leaf = true;
        break;
      }
      if (n.first < 0) {
        if (depth > 0 && (n.visits == 0 || depth >= p_.max_depth)) {
          const auto l = kn_.leaf(s, depth, rng_);
          if (l.proven) {
            set_result(n, -l.sign);  // the leaf's sign is for the side to move, not the mover
            r0 = view(mover, 0.5 * n.pess);
            proven_leaf = true;
          } else {
            r0 = l.value;
          }
          break;
        }
        if (!expand(s, depth, n.first, n.nchild, nullptr)) {
          r0 = kn_.rollout(s, depth, rng_);
          break;
        }
      }
      const std::int32_t c = select(n.first, n.nchild, n.visits, 1.0f);
      mover_[depth + 1] = game_.to_move(s);
      kn_.play(s, pool_[c].move);
      path_[++depth] = c;
    }
    for (int d = depth; d >= 0; --d) {
      N& n = pool_[path_[d]];
      ++n.visits;
      n.w += static_cast<Stat>(view(mover_[d], r0));
    }
    if (proven_leaf) propagate_bounds(depth);
  }

  // MCTS-Solver with bounds: after the leaf at path_[depth] got an exact result, re-derive the
  // bounds of its ancestors while they change. The side to move at a parent gets the best of its
  // children, so the parent's mover gets 2 minus that, for both bounds.
  void propagate_bounds(int depth) {
    for (int d = depth - 1; d >= 0; --d) {
      N& p = pool_[path_[d]];
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

  static constexpr int kMaxPath = 256;

  const G& game_;
  K& kn_;
  UctParams p_;
  Rng rng_;
  std::vector<N> pool_, spare_;
  std::vector<Chance> chance_;
  std::int32_t used_ = 0, used_chance_ = 0, root_ = 0;
  State root_state_{};
  bool reuse_ = false, valid_ = false;
  std::uint64_t iterations_ = 0;
  typename G::MoveList moves_;
  std::int32_t path_[kMaxPath];
  std::int32_t cpath_[kChance ? kMaxPath : 1];
  int mover_[kSolver ? kMaxPath : 1];
};

}  // namespace tactica::plugins::mcts
