// icebreaking_beam.hpp — beam search over our move sequences against a greedy opponent model.
// Header-only, standard library + core only (fused into submissions). Used by the beam plugin (its
// Icebreaking strategy) and by the expectimax plugin (once the opponent has shown it plays greedy).
//
// A node is the position after one of our moves and the opponent's predicted reply (GreedyRule:
// exactly the greedy plugin's move). Every node is expanded by all of our moves, and the `width`
// best children by the score difference (our view) form the next beam, until the game ends or
// `depth` of our moves; lines that reach the same ice set by another order are one line. A root
// move's value is its best leaf. Iterative widening: the search runs again with a doubled width
// while the soft deadline allows, and publishes its move after each complete pass.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

#include "games/icebreaking/eval.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/strategy.hpp"

namespace tactica::plugins::common::ice {

using icebreaking::kNoCell;
using icebreaking::MoveList;
using icebreaking::Position;

// Position::play with the cheap local split test before any flood fill.
inline void play_fast(const Board& b, Position& p, int c) {
  const u128 taken = captures(p.ice, c) | bit128(c);
  p.ice &= ~taken;
  p.owned[p.to_move] |= taken;
  p.total[p.to_move] += b.sum(taken);
  p.to_move = icebreaking::other(p.to_move);
  ++p.ply;
}

struct ModelBeamConfig {
  int width = 64;
  int max_width = 4096;
  int depth = 40;
  bool residual = false;  // leaves valued with the alternating sum of the ice left
  bool reply_ties = true;  // the predicted reply breaks ties as the greedy plugin does
  bool operator==(const ModelBeamConfig&) const = default;
};

struct ModelBeamNode {
  Position pos;
  int value;
  int root;
};

// A child before selection: which parent, our move, the predicted reply and the value. Only the
// selected children are turned into Nodes, so a layer costs 16 bytes per candidate, not a
// Position, and the reply (the costly part: a scan per tied candidate) is not predicted again.
struct ModelBeamChild {
  std::uint64_t key;    // hash of the ice left after the move and its reply (transpositions)
  std::int32_t parent;  // index into the current beam
  std::int8_t move;     // -1: the parent's game was over (the line competes as it is)
  std::int8_t reply;    // kNoCell: our move ended the game
  std::int16_t value;
};

// A hash of an ice set (the state of an Icebreaking game apart from the running scores).
inline std::uint64_t ice_hash(u128 ice) {
  std::uint64_t x = static_cast<std::uint64_t>(ice) ^ (static_cast<std::uint64_t>(ice >> 64) * 0x9E3779B97F4A7C15ULL);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ULL;
  return x ^ (x >> 29);
}

class ModelBeam {
 public:
  // Everything the widest pass needs is allocated here, none of it during a search.
  explicit ModelBeam(const ModelBeamConfig& c) : cfg_(c) { ensure_capacity(cfg_.max_width); }

  // The best move for pos.to_move against the model (kNoCell if no ice is left); publishes the
  // greedy move at once and the beam's move after every complete pass.
  int choose(const Board& b, const Position& pos, const SearchLimits& limits, BestMove& best) {
    stats_ = {};
    me_ = pos.to_move;
    MoveList ml;
    pos.moves(ml);
    if (ml.size() == 0) return kNoCell;
    int chosen = rule_.move(b, pos.ice, false);
    best.publish(chosen);
    if (ml.size() == 1) return chosen;
    limits_ = &limits;
    nodes_ = 0;
    const auto t0 = Deadline::Clock::now();
    // Step 1. The first width: what the budget (nodes, or the soft time at the measured rate)
    // allows for one pass; a pass over n cells with width w costs about w * n^2 / 4 nodes
    // (each layer takes two cells).
    const int n = ml.size();
    double avail = 1e18;
    if (limits.node_budget)
      avail = static_cast<double>(limits.node_budget);
    else if (!limits.deadline.unlimited())
      avail = std::chrono::duration<double>(limits.deadline.soft_budget()).count() * rate_;
    const double per_width = 1.3 * std::min(cfg_.depth, (n + 1) / 2) * n / 2.0 + 1;
    int width = static_cast<int>(std::clamp(avail / per_width, 1.0, static_cast<double>(cfg_.width)));
    // Step 2. Passes with a doubling width while the budget allows another.
    std::uint64_t last_pass = 0;
    for (; width <= cfg_.max_width; width *= 2) {
      int move = kNoCell, value = 0;
      const std::uint64_t before = nodes_;
      if (!search(b, pos, width, move, value)) break;
      const std::uint64_t pass = nodes_ - before;
      chosen = move;
      best.publish(chosen);
      stats_.value = value;
      stats_.depth = width;
      // The next pass costs about twice this one: start it only if that fits.
      if (limits.node_budget && nodes_ + 2 * pass > limits.node_budget) break;
      if (!limits.deadline.unlimited() && limits.deadline.soft_fraction() * 3 > 1.0) break;
      if (limits.deadline.unlimited() && !limits.node_budget && width >= cfg_.width) break;
      if (pass == last_pass) break;  // the beam held every line: a wider one changes nothing
      last_pass = pass;
    }
    if (!limits.node_budget && !limits.deadline.unlimited() && nodes_ > 1000) {
      const double sec = std::chrono::duration<double>(Deadline::Clock::now() - t0).count();
      if (sec > 0) rate_ = 0.7 * rate_ + 0.3 * (static_cast<double>(nodes_) / sec);
    }
    stats_.nodes = nodes_;
    return chosen;
  }

  SearchStats stats() const { return stats_; }

 private:
  void ensure_capacity(int width) {
    const std::size_t cap = static_cast<std::size_t>(width) * icebreaking::kIce + icebreaking::kIce;
    if (kids_.size() < cap) {
      kids_.resize(cap);
      order_.resize(cap);
    }
    if (cur_.size() < static_cast<std::size_t>(width) + 1) {
      cur_.resize(width + 1);
      next_.resize(width + 1);
    }
    if (seen_.size() < table_slots(width)) seen_.assign(table_slots(width), 0);
  }

  // Slots of the table of kept ice sets for a width: a power of two, at most a quarter full.
  static std::size_t table_slots(int width) {
    std::size_t slots = 64;
    while (slots < 4 * static_cast<std::size_t>(width)) slots *= 2;
    return slots;
  }

  // Inserts key into the layer's table of kept ice sets; false if it was there already.
  bool first_time(std::uint64_t key, std::size_t mask) {
    key |= 1;  // 0 marks a free slot
    for (std::size_t i = key & mask;; i = (i + 1) & mask) {
      if (seen_[i] == key) return false;
      if (seen_[i] == 0) {
        seen_[i] = key;
        return true;
      }
    }
  }

  // Checked every 16 children: a child costs up to ~100 us (a reply with tied gains scans the
  // board once per tie), so coarser checks could overrun a short hard limit.
  bool must_stop() {
    if ((nodes_ & 15) != 0) return false;
    if (limits_->node_budget && nodes_ >= limits_->node_budget) return true;
    return limits_->deadline.hard_expired();
  }

  // The score difference, plus (with `residual`) the value of the ice left if both sides took
  // the best cell in turn (games/icebreaking/eval.hpp), from our side.
  int value_of(const Board& b, const Position& p) const {
    int v = p.total[me_] - p.total[icebreaking::other(me_)];
    if (cfg_.residual && !p.over()) {
      const int r = alternating_sum(b, p.ice);
      v += p.to_move == me_ ? r : -r;
    }
    return v;
  }

  // One pass with the given width; false if stopped before it finished.
  bool search(const Board& b, const Position& pos, int width, int& move, int& value) {
    int n = 1;
    cur_[0] = ModelBeamNode{pos, value_of(b, pos), -1};
    bool first = true;
    for (int d = 0; d < cfg_.depth; ++d) {
      // Step 1. Every child of every open node, as (parent, move, value); finished lines
      // compete as they are (move -1).
      int m = 0;
      bool any_open = false;
      for (int i = 0; i < n; ++i) {
        const ModelBeamNode& par = cur_[i];
        if (par.pos.over()) {
          kids_[m++] = ModelBeamChild{0, i, -1, kNoCell, static_cast<std::int16_t>(par.value)};
          continue;
        }
        any_open = true;
        for (u128 s = par.pos.ice; s;) {
          const int c = pop_lowest(s);
          Position q = par.pos;
          play_fast(b, q, c);
          const int reply = q.over() ? kNoCell : rule_.move(b, q.ice, cfg_.reply_ties);
          if (reply != kNoCell) play_fast(b, q, reply);
          kids_[m++] = ModelBeamChild{ice_hash(q.ice), i, static_cast<std::int8_t>(c),
                                      static_cast<std::int8_t>(reply),
                                      static_cast<std::int16_t>(value_of(b, q))};
          ++nodes_;
          if (must_stop()) return false;
        }
      }
      if (!any_open) break;
      // Step 2. The best `width` (ties by index keep the pass deterministic), replayed into
      // full nodes. Lines that reach the same ice set (moves in another order) are one line: only
      // the best of them is kept, so the width holds distinct positions.
      for (int i = 0; i < m; ++i) order_[i] = i;
      auto better = [&](int x, int y) {
        return kids_[x].value != kids_[y].value ? kids_[x].value > kids_[y].value : x < y;
      };
      int sorted = std::min(m, 2 * width);
      std::partial_sort(order_.begin(), order_.begin() + sorted, order_.begin() + m, better);
      const std::size_t mask = table_slots(width) - 1;
      std::fill(seen_.begin(), seen_.begin() + static_cast<std::ptrdiff_t>(mask + 1), 0);
      int keep = 0;
      for (int i = 0; i < m && keep < width; ++i) {
        if (i == sorted) {
          std::sort(order_.begin() + sorted, order_.begin() + m, better);
          sorted = m;
        }
        const ModelBeamChild& k = kids_[order_[i]];
        if (!first_time(k.key, mask)) continue;
        const ModelBeamNode& par = cur_[k.parent];
        ModelBeamNode& nd = next_[keep++];
        nd = par;
        if (k.move >= 0) {
          play_fast(b, nd.pos, k.move);
          if (k.reply != kNoCell) play_fast(b, nd.pos, k.reply);
          nd.value = k.value;
          if (first) nd.root = k.move;
        }
      }
      std::swap(cur_, next_);
      n = keep;
      first = false;
    }
    // The best leaf; ties to the lowest root cell.
    int bi = 0;
    for (int i = 1; i < n; ++i)
      if (cur_[i].value > cur_[bi].value ||
          (cur_[i].value == cur_[bi].value && cur_[i].root < cur_[bi].root))
        bi = i;
    move = cur_[bi].root;
    value = cur_[bi].value;
    return move != kNoCell;
  }

  ModelBeamConfig cfg_;
  GreedyRule rule_;  // the predicted replies: exactly the greedy plugin's rule
  icebreaking::Player me_ = icebreaking::A;
  std::vector<ModelBeamNode> cur_, next_;
  std::vector<ModelBeamChild> kids_;
  std::vector<int> order_;
  std::vector<std::uint64_t> seen_;  // open-addressing set of the ice sets kept in a layer
  const SearchLimits* limits_ = nullptr;
  std::uint64_t nodes_ = 0;
  double rate_ = 5e4;  // nodes per second, measured on the clock (not used on a node budget)
  SearchStats stats_;
};

}  // namespace tactica::plugins::common::ice
