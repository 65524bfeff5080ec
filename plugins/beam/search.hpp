// beam/search.hpp — the beam search, written once over the Game concept (issue 11).
// Header-only, standard library + core only (fused into submissions; the expectimax plugin uses
// it too, through games/icebreaking/model_beam.hpp).
//
// One pass: from a root state, layer by layer, every open line is extended by each of our moves,
// followed by the world's step as the game's model foresees it (Icebreaking: the greedy reply it
// predicts; Hanpang: a sampled row, or a phantom row whose colours never join); each child is
// valued by the model, lines that reach the same state (by the model's key) are one line, and the
// best `width` form the next layer. Finished lines stay in the beam with their value. After each
// layer the pass judges the root moves: each root move's value is its best line's. A layer in
// which every line is lost (the model's `hopeless`) is not judged and ends the pass: the layer
// before decides. What differs between the games is the model's (plugins/games/<game>/); the
// stages around passes (sampled futures, iterative widening, a second opinion) are the callers'.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <vector>

#include "tactica/game.hpp"
#include "tactica/search_budget.hpp"

namespace tactica::plugins::beam {

// What one game's beam knows. `world(s, layer)` plays the world's step after our move in layer
// `layer` of a pass (predicted or sampled) on s and returns what `replay` needs to play it again
// on an equal state; `value` is a line's value from our side; `key` identifies a line's future;
// `hopeless(top)` says a layer whose best line has value top has only lost lines. kIndexTies:
// children of equal value rank by the order they were made (and the whole layer is ranked when
// its best 2 * width hold too many duplicates); otherwise only the best 2 * width are ranked, in
// std::partial_sort's order (what the tuned Hanpang configs were measured with). A model may also
// have `skip(s, move, layer)`: the moves of s in that layer the pass does not make (a state whose
// moves it would all leave out keeps them all).
template <class M, class G>
concept BeamModel = Game<G> && requires(M& m, const M& cm, typename G::State& s,
                                        const typename G::State& cs, const typename M::Reply& r,
                                        const typename M::Value& v, int layer) {
  { m.world(s, layer) } -> std::same_as<typename M::Reply>;
  { cm.replay(s, r, layer) } -> std::same_as<void>;
  { cm.value(cs) } -> std::convertible_to<typename M::Value>;
  { cm.key(cs) } -> std::same_as<std::uint64_t>;
  { cm.hopeless(v) } -> std::same_as<bool>;
  { M::kIndexTies } -> std::convertible_to<bool>;
};

// The node budget as a search that checks it every `quantum` nodes honours it: the first multiple
// of quantum at or past it. The hand-written beams checked so (Hanpang every 256 nodes,
// Icebreaking every 16); SearchBudget counts exactly, so they pass it this budget to stop where
// they always stopped (the same moves on a node budget).
inline SearchLimits budget_in_quanta(const SearchLimits& limits, std::uint64_t quantum) {
  SearchLimits l = limits;
  if (l.node_budget) l.node_budget = (l.node_budget + quantum - 1) / quantum * quantum;
  return l;
}

template <class G, class M>
  requires BeamModel<M, G>
class Beam {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Value = typename M::Value;

  // Everything a pass of up to max_width lines with up to max_moves moves a state needs is
  // allocated here, none of it during a search.
  Beam(int max_width, int max_moves) : max_moves_(max_moves) { reserve(max_width); }

  void reserve(int width) {
    const std::size_t cap = static_cast<std::size_t>(width) * max_moves_ + max_moves_;
    if (kids_.size() < cap) kids_.resize(cap), order_.resize(cap);
    if (cur_.size() < static_cast<std::size_t>(width) + 1) cur_.resize(width + 1), next_.resize(width + 1);
    if (seen_.size() < table_slots(width)) seen_.assign(table_slots(width), 0);
  }

  // One pass of at most `depth` layers of `width` lines from root (not over). False if the budget
  // stopped it first (the root moves are then judged by the last complete layer, if any).
  bool pass(const G& g, M& model, const State& root, int depth, int width, SearchBudget& budget) {
    g.moves(root, roots_);
    root_best_.assign(static_cast<std::size_t>(roots_.size()), Value{});
    judged_values_.clear();
    judged_ = false;
    int n = 1;
    cur_[0] = Node{root, model.value(root), -1};
    for (int d = 0; d < depth; ++d) {
      const int m = expand(g, model, n, d, budget);
      if (m < 0) return false;
      if (m == 0) break;  // every line was finished: the last judgement stands
      n = select(g, model, m, width, d);
      Value top = cur_[0].value;
      for (int i = 1; i < n; ++i) top = std::max(top, cur_[i].value);
      if (d > 0 && model.hopeless(top)) break;
      judge(n);
    }
    return true;
  }

  // The root's moves (as G::moves lists them) and, after a pass, each one's value: its best
  // line's, or (a root move whose lines all left the beam) the worst line's less one.
  const typename G::MoveList& roots() const { return roots_; }
  const std::vector<Value>& root_values() const { return root_best_; }
  bool judged() const { return judged_; }
  // The root move of the best line of the last judged layer (the first of equals in the beam).
  int best_line_root() const { return best_line_root_; }
  // The mean of the best k lines of the last judged layer (of all there are, if fewer; 0 if the
  // pass judged none, as root_values() then are). Reorders the layer's values, nothing else.
  double best_lines_mean(int k) {
    std::vector<Value>& v = judged_values_;
    const int n = std::min(std::max(1, k), static_cast<int>(v.size()));
    if (n == 0) return 0.0;
    std::partial_sort(v.begin(), v.begin() + n, v.end(), std::greater<Value>());
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += static_cast<double>(v[i]);
    return sum / n;
  }
  // The first root move (in roots() order) of the highest value.
  int best_root() const {
    int bi = 0;
    for (int i = 1; i < static_cast<int>(root_best_.size()); ++i)
      if (root_best_[i] > root_best_[bi]) bi = i;
    return bi;
  }

 private:
  struct Node {
    State st;
    Value value;
    int root;  // index into roots_ of the root move this line descends from
  };
  // A child before selection: its parent, our move, the world's reply and the value. Only the
  // selected children become Nodes (replayed), so a layer costs this per candidate, not a State.
  struct Child {
    std::uint64_t key;
    std::int32_t parent;
    bool carried;  // the parent's game was over: the line competes as it is
    Value value;
    Move move;
    typename M::Reply reply;
  };

  // Children of cur_[0..n) into kids_ for layer d; -1 if the budget stopped it, else the count
  // (0 when no line was open).
  int expand(const G& g, M& model, int n, int d, SearchBudget& budget) {
    int m = 0;
    bool any_open = false;
    typename G::MoveList ml;
    for (int i = 0; i < n; ++i) {
      const Node& par = cur_[i];
      if (g.terminal(par.st)) {
        kids_[m++] = Child{model.key(par.st), i, true, par.value, Move{}, typename M::Reply{}};
        continue;
      }
      any_open = true;
      g.moves(par.st, ml);
      const int first = m;
      for (int pass = 0; pass < 2 && m == first; ++pass) {
        // Pass 0 leaves out the moves the model skips; pass 1 (all of them were) takes every one.
        for (int j = 0; j < ml.size(); ++j) {
          if constexpr (requires { model.skip(par.st, ml[j], d); })
            if (pass == 0 && model.skip(par.st, ml[j], d)) continue;
          State q = par.st;
          g.apply(q, ml[j]);
          const auto reply = model.world(q, d);
          kids_[m++] =
              Child{model.key(q), i, false, static_cast<Value>(model.value(q)), ml[j], reply};
          if (budget.count()) return -1;
        }
      }
    }
    return any_open ? m : 0;
  }

  // The best `width` distinct children of kids_ into cur_ (replayed); returns how many.
  int select(const G& g, const M& model, int m, int width, int d) {
    for (int i = 0; i < m; ++i) order_[i] = i;
    int sorted = std::min(m, 2 * width);
    auto by_value = [&](int x, int y) { return kids_[x].value > kids_[y].value; };
    auto by_value_index = [&](int x, int y) {
      return kids_[x].value != kids_[y].value ? kids_[x].value > kids_[y].value : x < y;
    };
    if constexpr (M::kIndexTies)
      std::partial_sort(order_.begin(), order_.begin() + sorted, order_.begin() + m, by_value_index);
    else
      std::partial_sort(order_.begin(), order_.begin() + sorted, order_.begin() + m, by_value);
    const int ranked = M::kIndexTies ? m : sorted;
    const std::size_t mask = table_slots(width) - 1;
    std::fill(seen_.begin(), seen_.begin() + static_cast<std::ptrdiff_t>(mask + 1), 0);
    int keep = 0;
    for (int i = 0; i < ranked && keep < width; ++i) {
      if (i == sorted) {  // kIndexTies only: rank the rest of the layer
        std::sort(order_.begin() + sorted, order_.begin() + m, by_value_index);
        sorted = m;
      }
      const Child& k = kids_[order_[i]];
      if (!first_time(k.key, mask)) continue;
      const Node& par = cur_[k.parent];
      Node& nd = next_[keep++];
      nd = par;
      if (!k.carried) {
        g.apply(nd.st, k.move);
        model.replay(nd.st, k.reply, d);
        nd.value = k.value;
        if (par.root < 0) nd.root = order_[i];  // the root's children are made in roots_ order
      }
    }
    std::swap(cur_, next_);
    return keep;
  }

  // root_best_ and best_line_root_ from the beam in cur_[0..n).
  void judge(int n) {
    int bi = 0;
    Value worst = cur_[0].value;
    for (int i = 1; i < n; ++i) {
      if (cur_[i].value > cur_[bi].value) bi = i;
      worst = std::min(worst, cur_[i].value);
    }
    best_line_root_ = cur_[bi].root;
    judged_values_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) judged_values_[i] = cur_[i].value;
    std::vector<bool>& has = has_;
    has.assign(static_cast<std::size_t>(roots_.size()), false);
    for (int i = 0; i < n; ++i) {
      const int r = cur_[i].root;
      if (!has[r] || cur_[i].value > root_best_[r]) root_best_[r] = cur_[i].value, has[r] = true;
    }
    for (int r = 0; r < roots_.size(); ++r)
      if (!has[r]) root_best_[r] = worst - 1;
    judged_ = true;
  }

  static std::size_t table_slots(int width) {  // a power of two, at most a quarter full
    std::size_t slots = 64;
    while (slots < 4 * static_cast<std::size_t>(width)) slots *= 2;
    return slots;
  }
  // Inserts key into the layer's table of kept lines; false if it was there already.
  bool first_time(std::uint64_t key, std::size_t mask) {
    key |= 1;  // 0 marks a free slot
    for (std::size_t i = key & mask;; i = (i + 1) & mask) {
      if (seen_[i] == key) return false;
      if (seen_[i] == 0) return seen_[i] = key, true;
    }
  }

  int max_moves_;
  typename G::MoveList roots_{};
  std::vector<Value> root_best_;
  std::vector<bool> has_;
  std::vector<Value> judged_values_;  // the last judged layer's line values (in any order)
  std::vector<Node> cur_, next_;
  std::vector<Child> kids_;
  std::vector<int> order_;
  std::vector<std::uint64_t> seen_;
  int best_line_root_ = -1;
  bool judged_ = false;
};

}  // namespace tactica::plugins::beam
