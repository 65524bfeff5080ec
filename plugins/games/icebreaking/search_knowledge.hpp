// games/icebreaking/search_knowledge.hpp — what a depth-first search knows about Icebreaking
// (the knowledge type of plugins/expectimax/search.hpp): the static evaluation, move generation
// with ordering keys, the table key and lock, capture quiescence and the forced endings.
//
// A search node is the ice set alone: values are what the side to move will still gain minus
// what the other side will still gain (in 1/kUnit points), path-independent (eval.hpp), so the
// table's lock is the whole set (no false hits) and its entries last the whole game. A node
// whose depth reaches the number of ice cells left is searched to the end (each move takes at
// least one cell), so its value is exact.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "games/icebreaking/eval.hpp"
#include "tactica/game.hpp"
#include "tactica/rng.hpp"
#include "tactica/search_budget.hpp"

namespace tactica::plugins::common::ice {

// The evaluation's weights, points per unit of each term (the expectimax plugin's w_* and alt_k).
struct EvalWeights {
  double pool, threat, plus, tempo, alt;
  int alt_k;
  double parity = 0;  // +1 / -1 as the count of quiet (non-capturing) moves is odd / even
  double gain2 = 0;   // the second largest move gain
  double gain3 = 0;   // the third largest move gain
  double ncap = 0;    // the number of capturing moves
  double odd = 0;     // +1 / -1 as the number of ice cells left is odd / even
  double reply = 0;   // the other side's best gain once the side to move took its best gain
  double safe = 0;    // +1 / -1 as the count of safe moves (gain >= 0, captures included) is
                      // odd / even: who takes the last safe move, leaving the other the losses
  int safe_max = 0;   // the safe term counts only while there are at most this many (0: always)
  double forced = 0;  // the safe parity times the cost of the cheapest losing move (gain < 0):
                      // what the side that runs out of safe moves first must give up
  double hot = 0;     // the positive move gains taken in turn, best first: g1 - g2 + g3 ... over
                      // the gains above 0 only (the hot moves; interactions ignored)
  // A tapered evaluation (taper_at > 0): tempo and safe are the weights of sets of taper_at
  // cells or more; tempo_end and safe_end those of taper_to cells or fewer; linear between
  // (taper_at <= taper_to: a step at taper_at).
  int taper_at = 0;  // 0: tempo and safe whatever the cells left
  int taper_to = 26;
  double tempo_end = 0;
  double safe_end = 0;
};

// The evaluation's terms in points, from the side to move's view (what EvalWeights weighs).
struct EvalTerms {
  int pool = 0, threat = 0, plus = 0, tempo = 0, alt = 0, parity = 0, gain2 = 0, gain3 = 0,
      ncap = 0, odd = 0, reply = 0, safe = 0, forced = 0, hot = 0;
  int nsafe = 0;  // the safe moves' count (what safe_max compares)
};

class SearchKnowledge {
 public:
  using Game = IcebreakingGame;
  using Node = u128;  // the ice left
  using Value = int;  // kUnit per point
  struct Gen {
    int score;             // ordering key
    std::int16_t gain;     // kUnit per point
    std::int8_t cell;
    std::int8_t captured;  // cells captured (their set is found only when the move is searched)
  };
  static constexpr int kUnit = 8;
  static constexpr Value kInf = 30000;
  static constexpr int kMaxPly = 80;
  static constexpr int kMaxMoves = icebreaking::kIce;
  static constexpr int kCheckEvery = 1024;
  static constexpr bool kTable = true;
  static constexpr int kLockHiBits = 25;  // an ice set is 89 bits
  static constexpr bool kHistory = true;
  static constexpr bool kStaticChildren = false;
  static constexpr bool kPartialIterations = true;
  static constexpr bool kFutility = true;

  // pool: the pool rules (see generate and settle), exact, so they change no exact value.
  SearchKnowledge(const EvalWeights& w, int qdepth, bool pool = false)
      : alt_k_(w.alt_k),
        qdepth_(qdepth),
        pool_(pool),
        w_pool_(fine(w.pool)),
        w_threat_(fine(w.threat)),
        w_plus_(fine(w.plus)),
        w_alt_(fine(w.alt)),
        w_parity_(fine(w.parity)),
        w_gain2_(fine(w.gain2)),
        w_gain3_(fine(w.gain3)),
        w_ncap_(fine(w.ncap)),
        w_odd_(fine(w.odd)),
        w_reply_(fine(w.reply)),
        w_tempo_(by_cells(w, w.tempo, w.tempo_end)),
        w_safe_(by_cells(w, w.safe, w.safe_end)),
        safe_max_(w.safe_max),
        w_forced_(fine(w.forced)),
        w_hot_(fine(w.hot)),
        full_scan_(w_alt_ || w_threat_ || w_gain2_ || w_gain3_ || w_ncap_ || w_reply_),
        eval_floor_(eval_floor()) {
    std::uint64_t x = 0x1CEB4EA4ULL;
    for (auto& z : zob_) z = splitmix64(x);
  }

  // A new board: its evaluations are not the last board's.
  void new_game(const Board& b) {
    board_ = b;
    std::fill(cache_.begin(), cache_.end(), CacheSlot{});
  }
  const Board& board() const { return board_; }

  // Every term of the evaluation of an ice set (points, side to move's view), all of them
  // computed whatever the weights (for fitting the weights; evaluate() computes only the
  // weighted ones, and a test checks that it is their weighted sum).
  EvalTerms terms(u128 s) {
    EvalTerms t;
    t.pool = alternating_sum(board_, s);
    t.plus = alternating_plus(board_, s);
    t.odd = (popcount(s) & 1) ? 1 : -1;
    scan_terms<true>(s, t, alt_k_, true, true);
    return t;
  }

  // The static evaluation (kUnit per point) of an ice set, side to move's view: the terms
  // weighted in 1/kFine points, rounded to kUnit once (so weights in multiples of 1/kUnit give
  // exactly the values of the earlier per-term kUnit sums).
  //
  // Search trees reach the same ice set at their horizon by many move orders (cells taken in
  // another order), and the table keeps no horizon nodes, so the values are kept in a small
  // direct-mapped cache keyed by the whole set: a hit is the same set on the same board, the
  // same value (new_game empties it).
  int evaluate(u128 s) {
    CacheSlot& slot = cache_[cache_index(s)];
    if (slot.ice == s && s) return slot.value;
    const int v = evaluate_uncached(s);
    slot = CacheSlot{s, v};
    return v;
  }

  // evaluate() without the cache (what the cache must give: the tests compare the two).
  int evaluate_uncached(u128 s) {
    const int cells = popcount(s);
    const int w_tempo = w_tempo_[cells], w_safe = w_safe_[cells];
    int v = 0;
    if (w_pool_) v += w_pool_ * alternating_sum(board_, s);
    if (w_plus_) v += w_plus_ * alternating_plus(board_, s);
    if (w_odd_) v += (cells & 1) ? w_odd_ : -w_odd_;
    if (full_scan_) {
      EvalTerms t;
      scan_terms<true>(s, t, w_alt_ ? alt_k_ : 0, w_reply_ != 0, w_hot_ != 0);
      v += w_tempo * t.tempo + w_alt_ * t.alt + w_parity_ * t.parity + w_threat_ * t.threat +
           w_gain2_ * t.gain2 + w_gain3_ * t.gain3 + w_ncap_ * t.ncap + w_reply_ * t.reply +
           w_safe * safe_term(t) + w_forced_ * t.forced + w_hot_ * t.hot;
    } else if (w_tempo || w_parity_ || w_safe || w_forced_ || w_hot_) {
      // The shipped evaluation (the best gain, the quiet and safe moves' parities; forced, hot):
      // the light pass.
      EvalTerms t;
      scan_terms<false>(s, t, 0, false, w_hot_ != 0);
      v += w_tempo * t.tempo + w_parity_ * t.parity + w_safe * safe_term(t) + w_forced_ * t.forced +
           w_hot_ * t.hot;
    }
    return (v + kFine / kUnit / 2) >> kFineShift;
  }

  // Settles a node without a move loop: the empty set, a stop, the last cell, the horizon
  // (quiescence). A depth reaching the cells left becomes exact. Counts the node.
  bool settle(u128 s, int& depth, int alpha, int beta, int ply, SearchBudget& b, int& v) {
    v = 0;
    if (!s || b.count()) return true;
    const int n = popcount(s);
    if (n == 1) {
      v = board_.score[lowest_bit(s)] * kUnit;
      return true;
    }
    // Only regions of 1-3 cells left: nothing can be captured any more, and the rest of the
    // game is the pool game, exactly. (futile() must know every exact case here: it skips them.)
    if (pool_ && all_small_regions(s)) {
      v = alternating_sum(board_, s) * kUnit;
      depth = kExactDepth;
      return true;
    }
    if (depth >= n) depth = kExactDepth;
    if (depth <= 0 || ply >= kMaxPly) {
      v = quiesce(s, alpha, beta, qdepth_, b);
      return true;
    }
    return false;
  }

  // Every move of s with its gain and capture count, keyed by gain.
  //
  // With the pool rules, of the cells in regions of 1-3 cells ("pool" cells: never captured,
  // never capturing, each taken by its own move for its score) only the best is generated. It
  // dominates the others: taking pool cell a instead of b (score a >= b) leaves a position that
  // differs from the other only in one pool cell's score (b where the other has a), and changing
  // one cell's score by d changes the outcome of every line of play, hence the minimax value,
  // by at most d; so a - value(rest with b) >= b - value(rest with a).
  int generate(u128 s, Gen* out) {
    const int n = scanner_.scan(board_, s, facts_.data());
    const u128 pool = pool_ ? scanner_.small() : 0;
    int k = 0, best_pool = -1;
    for (int i = 0; i < n; ++i) {
      const auto& f = facts_[i];
      const auto gain = static_cast<std::int16_t>(f.gain * kUnit);
      if ((pool >> f.cell) & 1) {
        if (best_pool >= 0 && out[best_pool].gain >= gain) continue;
        if (best_pool < 0) best_pool = k++;
        out[best_pool] = Gen{gain * 4096, gain, f.cell, f.captured};
        continue;
      }
      out[k++] = Gen{gain * 4096, gain, f.cell, f.captured};
    }
    return k;
  }
  // Futility (search.hpp): whether move m at s cannot beat alpha because its child is valued by
  // evaluate() (the move is then worth m.gain - evaluate(child), and evaluate is never below
  // eval_floor_); `bound` is then the most it is worth. Never when that is not known: the weights
  // have a term without a floor, or the child is an exact ending (one cell left, or with the pool
  // rules only small regions: settle values those exactly, beyond any evaluation's floor).
  bool futile(u128 s, const Gen& m, int alpha, int& bound) const {
    if (eval_floor_ <= -kInf || m.gain - eval_floor_ > alpha) return false;
    const u128 child = s & ~(bit128(m.cell) | (m.captured ? captures(s, m.cell) : 0));
    if (popcount(child) == 1 || (pool_ && child && all_small_regions(child))) return false;
    bound = m.gain - eval_floor_;
    return true;
  }

  // Inside the tree: the key (gain, then killers and history); at the root: gain, stably.
  static bool before(const Gen& a, const Gen& b) { return a.score > b.score; }
  static bool root_before(const Gen& a, const Gen& b) { return a.gain > b.gain; }
  static bool quiet(const Gen& m) { return m.captured == 0; }

  // The hash move: legal while its cell is ice.
  static bool legal(u128 s, int cell) { return ((s >> cell) & 1) != 0; }
  Gen describe(u128 s, int cell) const {
    const u128 cap = captures(s, cell);
    const auto gain = static_cast<std::int16_t>((board_.score[cell] + (cap ? board_.sum(cap) : 0)) * kUnit);
    return Gen{0, gain, static_cast<std::int8_t>(cell), static_cast<std::int8_t>(cap ? popcount(cap) : 0)};
  }

  // The set after m and its key (Zobrist over the cells left: the captured cells leave too).
  void play(u128 s, std::uint64_t key, const Gen& m, u128& child, std::uint64_t& child_key) const {
    const u128 cap = m.captured ? captures(s, m.cell) : 0;
    child = s & ~(cap | bit128(m.cell));
    child_key = key ^ zob_[m.cell] ^ (cap ? key_of(cap) : 0);
  }
  std::uint64_t key(u128 s) const { return key_of(s); }
  static u128 lock(u128 s) { return s; }
  // No search goes deeper than the cells left; there it is exact.
  static int depth_limit(u128 s) { return popcount(s); }

 private:
  // The evaluation cache: kCacheBits bits of index, the empty set marks a free slot (evaluate
  // never stores it).
  static constexpr int kCacheBits = 15;
  struct CacheSlot {
    u128 ice = 0;
    int value = 0;
  };
  static std::size_t cache_index(u128 s) {
    const auto lo = static_cast<std::uint64_t>(s), hi = static_cast<std::uint64_t>(s >> 64);
    return static_cast<std::size_t>(((lo ^ (hi * 0x9E3779B97F4A7C15ULL)) * 0xD6E8FEB86659FD93ULL) >>
                                    (64 - kCacheBits));
  }
  std::vector<CacheSlot> cache_ = std::vector<CacheSlot>(std::size_t{1} << kCacheBits);

  static constexpr int kExactDepth = 63;  // the table's "to the end"
  static constexpr int kFine = 256;         // evaluation weights: 1/kFine points
  static constexpr int kFineShift = 5;      // kFine / kUnit = 2^5
  static_assert(kFine / kUnit == (1 << kFineShift));
  static int fine(double w) { return static_cast<int>(std::lround(w * kFine)); }
  using ByCells = std::array<int, icebreaking::kIce + 1>;  // a weight per count of cells left
  // A tapered weight (EvalWeights::taper_at) per count of cells left, middle game's `mid`, the
  // end's `end`; untapered, `mid` at every count (t is then exactly 1, so the plain weight).
  static ByCells by_cells(const EvalWeights& w, double mid, double end) {
    ByCells out{};
    for (int n = 0; n <= icebreaking::kIce; ++n) {
      double t = 1;  // the middle game's share
      if (w.taper_at > 0 && n < w.taper_at)
        t = n <= w.taper_to ? 0 : static_cast<double>(n - w.taper_to) / (w.taper_at - w.taper_to);
      out[n] = fine(t * mid + (1 - t) * end);
    }
    return out;
  }

  // The terms that come from one articulation scan of s: the best gains (tempo,
  // gain2, gain3), the alternating sum of the alt_k best (0: not computed), the quiet and the
  // safe moves' parities, the forced term, the capturing moves and the best capture; with hot,
  // the alternating sum of the positive gains; with reply, the other side's best gain after the
  // move of the best gain (the lowest such cell; a second scan). kFull false: the light pass,
  // tempo, the two parities, forced and hot only (the others stay 0).
  template <bool kFull>
  void scan_terms(u128 s, EvalTerms& t, int alt_k, bool reply, bool hot) {
    const int n = scanner_.scan(board_, s, facts_.data());
    int g1 = -1000, g2 = -1000, g3 = -1000, quiet = 0, safe = 0, ncap = 0, threat = 0, best_i = 0;
    int lose = -1000;  // the cheapest losing move's gain (-1000: none)
    int npos = 0;      // hot: the positive gains, in pos_[0, npos)
    for (int i = 0; i < n; ++i) {
      const auto& f = facts_[i];
      const int g = f.gain;
      safe += g >= 0;
      if (g < 0) lose = std::max(lose, g);
      if (hot && g > 0) pos_[npos++] = g;
      if constexpr (!kFull) {
        g1 = std::max(g1, g);
        quiet += f.captured == 0;
        continue;
      }
      if (g > g1) {
        g3 = g2, g2 = g1, g1 = g, best_i = i;
      } else {
        if (g == g1 && f.cell < facts_[best_i].cell) best_i = i;  // ties: the lowest cell
        if (g > g2) g3 = g2, g2 = g;
        else if (g > g3) g3 = g;
      }
      if (f.captured == 0) {
        ++quiet;
      } else {
        ++ncap;
        threat = std::max(threat, g - board_.score[f.cell]);
      }
    }
    // As the earlier single terms counted them: the best gain floored at 0, missing gains 0.
    t.tempo = std::max(g1, 0);
    t.parity = (quiet & 1) ? 1 : -1;
    t.safe = (safe & 1) ? 1 : -1;
    t.nsafe = safe;
    t.forced = lose > -1000 ? -lose * t.safe : 0;
    // The hot moves taken in turn, best first. Over all the gains (w_alt with a large alt_k) it
    // is far weaker: a capture of a large losing region, never played, sits last and flips
    // sign with the count; so it stops where the gains do.
    if (npos) {
      std::sort(pos_.begin(), pos_.begin() + npos, std::greater<>());
      int h = 0;
      for (int i = 0; i < npos; ++i) h += (i & 1) ? -pos_[i] : pos_[i];
      t.hot = h;
    }
    if constexpr (!kFull) return;
    t.gain2 = n >= 2 ? g2 : 0;
    t.gain3 = n >= 3 ? g3 : 0;
    t.ncap = ncap;
    t.threat = threat;
    if (alt_k > 0) {
      // The alt_k largest gains, best first (a partial selection sort: k is small).
      std::array<int, icebreaking::kIce> g;
      for (int i = 0; i < n; ++i) g[i] = facts_[i].gain;
      const int k = std::min(n, alt_k);
      int alt = 0;
      for (int i = 0; i < k; ++i) {
        int j = i;
        for (int q = i + 1; q < n; ++q)
          if (g[q] > g[j]) j = q;
        std::swap(g[i], g[j]);
        alt += (i & 1) ? -g[i] : g[i];
      }
      t.alt = alt;
    }
    if (reply && n > 0) {
      const int c = facts_[best_i].cell;
      const u128 cap = facts_[best_i].captured ? captures(s, c) : 0;
      t.reply = greedy_.best_gain(board_, s & ~(cap | bit128(c)));
    }
  }

  // The least evaluate() can return (kUnit per point), from the weights: every term it weighs
  // has a known range (the parities +-1, the alternating sum of the cells -2..4 and of the
  // positive ones 0..2, the best gain floored at 0); -kInf when a weighted term is not bounded
  // here (tempo weighted below 0, or a term of the full scan).
  int eval_floor() const {
    const int tempo_min = *std::min_element(w_tempo_.begin(), w_tempo_.end());
    if (full_scan_ || tempo_min < 0 || w_forced_ || w_hot_) return -kInf;
    int safe_most = 0;  // the largest |w_safe| at any count of cells
    for (int w : w_safe_) safe_most = std::max(safe_most, std::abs(w));
    const int fine_floor = std::min(-2 * w_pool_, 4 * w_pool_) + std::min(0, 2 * w_plus_) -
                           std::abs(w_odd_) - std::abs(w_parity_) - safe_most;
    // evaluate rounds (v + kFine / kUnit / 2) >> kFineShift, a floor: never below this.
    return (fine_floor + kFine / kUnit / 2) >> kFineShift;
  }

  // The safe parity as evaluate weighs it: 0 once there are more than safe_max safe moves.
  int safe_term(const EvalTerms& t) const {
    return safe_max_ == 0 || t.nsafe <= safe_max_ ? t.safe : 0;
  }

  std::uint64_t key_of(u128 s) const {
    std::uint64_t k = 0;
    for (u128 t = s; t;) k ^= zob_[pop_lowest(t)];
    return k;
  }

  // Captures only, qd plies deep, standing pat on the evaluation.
  int quiesce(u128 s, int alpha, int beta, int qd, SearchBudget& b) {
    if (!s || b.count()) return 0;
    const int stand = evaluate(s);
    if (qd <= 0 || stand >= beta) return stand;
    int best = stand;
    if (stand > alpha) alpha = stand;
    for (u128 t = s; t;) {
      const int c = pop_lowest(t);
      if (cannot_split(s, c)) continue;
      const u128 cap = captures(s, c);
      if (!cap) continue;
      const int g = (board_.score[c] + board_.sum(cap)) * kUnit;
      const int v = g - quiesce(s & ~(cap | bit128(c)), g - beta, g - alpha, qd - 1, b);
      if (b.stopped()) return 0;
      if (v > best) {
        best = v;
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
      }
    }
    return best;
  }

  Board board_;
  MoveScanner scanner_;
  std::array<MoveFacts, icebreaking::kIce> facts_{};
  std::array<int, icebreaking::kIce> pos_{};  // scan_terms' positive gains (the hot term)
  std::array<std::uint64_t, 128> zob_{};
  int alt_k_, qdepth_;
  bool pool_;
  GreedyRule greedy_;
  int w_pool_, w_threat_, w_plus_, w_alt_, w_parity_, w_gain2_, w_gain3_, w_ncap_, w_odd_,
      w_reply_;  // 1/kFine points per unit
  // The tempo and safe weights by the count of cells left (tapered, or all the same).
  ByCells w_tempo_, w_safe_;
  int safe_max_;          // w_safe counts only with at most this many safe moves (0: always)
  int w_forced_, w_hot_;  // 1/kFine points per unit
  bool full_scan_;  // a term beyond tempo and parity is weighted: evaluate needs the full pass
  int eval_floor_;  // the least evaluate() returns (-kInf: not known), for futile()
};

}  // namespace tactica::plugins::common::ice
