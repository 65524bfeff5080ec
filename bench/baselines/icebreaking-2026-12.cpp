// main.cpp: a Tactica agent for icebreaking in one file, made by `tactica fuse`
// (Tactica 0.1.0) from configs/icebreaking/submit.toml.
// Plugin: expectimax 1.0.0: expectimax over sampled rows (Hanpang); alpha-beta with TT and exact endgame (Icebreaking)
// Build:  g++ -std=c++20 -O2 -o agent main.cpp   (standard library and POSIX only)
// Generated: edit the sources or the config and fuse again rather than this file.
//
// The resolved config (every parameter, defaults included):
//
//   game = "icebreaking"
//   strategy = "expectimax"
//   seed = 1
//
//   [time]
//   reserve_ms = 300
//   move_overhead_ms = 2
//   max_move_ms = 0
//   node_budget = 0
//   bank_ms = 5000
//   cpu_cap_ms = 5000
//
//   [params]
//   tt_mb = 32                   # integer 1..1024, default 32: transposition table size in MiB
//   qdepth = 0                   # integer 0..16, default 0: plies of capture-only quiescence at the horizon
//   solve_at = 16                # integer 0..72, default 16: search straight to the end with this many ice cells or fewer
//   aspiration = 0               # integer 0..50, default 0: aspiration window half-width in points (0: full window)
//   pvs = true                   # boolean, default true: principal variation search (null windows after the first move)
//   iter_start = 0.6             # real 0.05..1.0, default 0.6: start another iteration only before this fraction of the move's soft time
//   time_scale = 1.0             # real 0.25..3.0, default 1.0: use this multiple of the host's soft time per move (the hard limit still holds)
//   w_pool = 0.0                 # real 0.0..4.0, default 0.0: evaluation: weight of the alternating sum of the cells left
//   w_threat = 0.0               # real -2.0..2.0, default 0.0: evaluation: weight of the best capture open to the side to move
//   w_plus = 0.0                 # real 0.0..4.0, default 0.0: evaluation: weight of the alternating sum of the positive cells left
//   w_tempo = 0.5                # real 0.0..2.0, default 0.5: evaluation: weight of the side to move's best immediate gain
//   w_alt = 0.0                  # real 0.0..2.0, default 0.0: evaluation: weight of g1 - g2 + g3 ... over the alt_k best move gains
//   alt_k = 2                    # integer 1..72, default 2: evaluation: move gains in w_alt's alternating sum
//   model = true                 # boolean, default true: opponent modelling: an opponent whose every move was greedy's is played by a beam against greedy
//   model_after = 2              # integer 1..36, default 2: opponent moves that must all match greedy before the model is trusted
//   model_width = 64             # integer 1..4096, default 64: model beam: first width (cut to the time)
//   model_max_width = 4096       # integer 1..65536, default 4096: model beam: widest pass
//
// Inlined, in order:
//   plugins/expectimax/describe.cpp plugins/expectimax/plugin.hpp core/include/tactica/strategy.hpp
//   core/include/tactica/deadline.hpp core/include/tactica/hanpang.hpp
//   core/include/tactica/bitboard.hpp core/include/tactica/rng.hpp
//   core/include/tactica/icebreaking.hpp plugins/expectimax/hanpang.cpp
//   plugins/expectimax/hanpang_search.hpp plugins/common/hanpang_eval.hpp
//   plugins/expectimax/hanpang_search.cpp plugins/expectimax/ice_search.cpp
//   plugins/expectimax/ice_search.hpp plugins/common/icebreaking_eval.hpp
//   plugins/expectimax/icebreaking.cpp plugins/common/icebreaking_beam.hpp
//   core/include/tactica/session.hpp core/include/tactica/protocol.hpp
//   core/include/tactica/timebank.hpp

// Asserts off, as in tactica-agent's Release build: the same speed, and no abort mid-game.
#ifndef NDEBUG
#define NDEBUG
#endif

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

// ===== plugins/expectimax/describe.cpp =====
// The expectimax plugin's descriptor: parameters of both games with their measured defaults.
// ===== plugins/expectimax/plugin.hpp =====
// expectimax — depth-limited search for both games: expectimax over sampled new rows for
// Hanpang; negamax alpha-beta with a transposition table and an exact endgame for Icebreaking.


// ===== core/include/tactica/strategy.hpp =====
// strategy.hpp — the interface between the Session (protocol, time) and a strategy (search).
// Plugins implement these classes; the host loads them with Boost.DLL, fuse links them directly.


// ===== core/include/tactica/deadline.hpp =====
// deadline.hpp — when a search must stop. A Deadline has a soft limit (the planned, "optimum"
// time: do not start another iteration after it) and a hard limit (the "maximum": stop now),
// both on the monotonic clock, plus an optional stop flag the Session can raise.


namespace tactica {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  // No time limit at all (searches bounded by a node budget instead).
  static Deadline never() { return Deadline{}; }

  // Soft and hard limits counted from now.
  static Deadline in(std::chrono::microseconds soft, std::chrono::microseconds hard) {
    Deadline d;
    d.start_ = Clock::now();
    d.soft_ = d.start_ + soft;
    d.hard_ = d.start_ + (hard < soft ? soft : hard);
    d.unlimited_ = false;
    return d;
  }

  void attach_stop_flag(const std::atomic<bool>* flag) { stop_ = flag; }

  bool unlimited() const { return unlimited_; }
  bool stop_requested() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  // Past the optimum: finish the current iteration, do not start another.
  bool soft_expired() const { return stop_requested() || (!unlimited_ && Clock::now() >= soft_); }
  // Past the maximum: return the best move so far at once.
  bool hard_expired() const { return stop_requested() || (!unlimited_ && Clock::now() >= hard_); }

  // Fraction of the soft budget used (0 when unlimited); lets a search pace itself.
  double soft_fraction() const {
    if (unlimited_) return 0.0;
    const auto total = std::chrono::duration<double>(soft_ - start_).count();
    const auto used = std::chrono::duration<double>(Clock::now() - start_).count();
    return total > 0 ? used / total : 1.0;
  }
  std::chrono::microseconds soft_budget() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(soft_ - start_);
  }
  std::chrono::microseconds hard_budget() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(hard_ - start_);
  }
  Clock::time_point start() const { return start_; }
  Clock::time_point soft() const { return soft_; }
  Clock::time_point hard() const { return hard_; }

 private:
  Clock::time_point start_ = Clock::now(), soft_{}, hard_{};
  bool unlimited_ = true;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace tactica
// ===== core/include/tactica/strategy.hpp (continued) =====
// ===== core/include/tactica/hanpang.hpp =====
// hanpang.hpp — Hanpang rules as a bitboard engine (see shared/spec/hanpang.md).
//
// Layout: column-major, 16 bits per column ("lane"): bit (col * 16 + h) is the cell of column
// `col` (0-based, left to right) at height `h` (0 = bottom row, protocol row 15; 14 = top row,
// protocol row 1). Bit 15 of each lane is a guard that is never set, so vertical shifts cannot
// leak into the next column and horizontal neighbours are 16 bits apart. Gravity keeps every
// column packed from height 0 up, so a column's occupancy is always a run of low bits.
// Protocol coordinates (1-based row from the top, 1-based column) appear only at the boundary.


#if defined(__SSE2__) && !defined(TACTICA_NO_SIMD)
#include <emmintrin.h>
#endif

// ===== core/include/tactica/bitboard.hpp =====
// bitboard.hpp — 128-bit cell sets and the primitives both games build on.
// Standard library only (plus GCC/Clang's unsigned __int128): this header goes into submissions.


namespace tactica {

using u128 = unsigned __int128;

constexpr u128 bit128(int i) { return u128{1} << i; }

// Population count. Without -mpopcnt (our portable -O2 builds), std::popcount becomes a call
// into libgcc; this inline bit-parallel count is several times faster there.
constexpr int popcount(u128 s) {
#if defined(__POPCNT__)
  return std::popcount(static_cast<std::uint64_t>(s)) +
         std::popcount(static_cast<std::uint64_t>(s >> 64));
#else
  constexpr std::uint64_t k1 = 0x5555555555555555ULL, k2 = 0x3333333333333333ULL,
                          k4 = 0x0F0F0F0F0F0F0F0FULL, kBytes = 0x0101010101010101ULL;
  auto nibbles = [](std::uint64_t x) {  // the count of each 4-bit group, in place
    x -= (x >> 1) & k1;
    return (x & k2) + ((x >> 2) & k2);
  };
  const std::uint64_t a = nibbles(static_cast<std::uint64_t>(s));
  const std::uint64_t b = nibbles(static_cast<std::uint64_t>(s >> 64));
  // Byte sums of both halves (at most 16 each), then one multiply adds the bytes.
  const std::uint64_t bytes = (a & k4) + ((a >> 4) & k4) + (b & k4) + ((b >> 4) & k4);
  return static_cast<int>((bytes * kBytes) >> 56);
#endif
}

// Index of the lowest set bit; s must be non-zero.
constexpr int lowest_bit(u128 s) {
  const auto lo = static_cast<std::uint64_t>(s);
  return lo ? std::countr_zero(lo) : 64 + std::countr_zero(static_cast<std::uint64_t>(s >> 64));
}

// Removes and returns the index of the lowest set bit; s must be non-zero.
constexpr int pop_lowest(u128& s) {
  const int i = lowest_bit(s);
  s &= s - 1;
  return i;
}

// The 4-neighbours of every cell of s (not clipped to any board; the caller masks): exactly
// (s << 1) | (s >> 1) | (s << Stride) | (s >> Stride), computed on the 64-bit halves because
// 128-bit shifts compile to double-precision shifts, which are slow on some processors
// (several micro-ops each on AMD Zen).
template <int Stride>
constexpr u128 neighbours(u128 s) {
  static_assert(Stride > 1 && Stride < 64);
  const auto lo = static_cast<std::uint64_t>(s), hi = static_cast<std::uint64_t>(s >> 64);
  const std::uint64_t nlo = (lo << 1) | (lo >> 1) | (hi << 63) | (lo << Stride) |
                            (lo >> Stride) | (hi << (64 - Stride));
  const std::uint64_t nhi = (hi << 1) | (hi >> 1) | (lo >> 63) | (hi << Stride) |
                            (hi >> Stride) | (lo >> (64 - Stride));
  return (u128{nhi} << 64) | nlo;
}

// Grid-shaped flood fill: the cells of `within` 4-connected to `seed`.
// `Stride` is the distance between vertically adjacent cells; horizontal neighbours are one bit
// apart. Layouts keep a guard bit between lanes that is never in `within`, so plain shifts
// cannot wrap from one lane into the next.
template <int Stride>
constexpr u128 flood_fill(u128 seed, u128 within) {
  u128 g = seed & within;
  for (;;) {
    const u128 next = (g | neighbours<Stride>(g)) & within;
    if (next == g) return g;
    g = next;
  }
}

// Iterates the set bits of a u128: for (int i : bits(s)).
struct BitIter {
  u128 s;
  constexpr int operator*() const { return lowest_bit(s); }
  constexpr BitIter& operator++() {
    s &= s - 1;
    return *this;
  }
  constexpr bool operator!=(const BitIter& o) const { return s != o.s; }
};
struct bits {
  u128 s;
  constexpr BitIter begin() const { return {s}; }
  constexpr BitIter end() const { return {0}; }
};

}  // namespace tactica
// ===== core/include/tactica/hanpang.hpp (continued) =====
// ===== core/include/tactica/rng.hpp =====
// rng.hpp — a portable seeded generator: the same seed gives the same numbers on every compiler
// and platform (no std:: distributions, whose output is implementation-defined).


namespace tactica {

// SplitMix64 (Steele, Lea, Flood 2014): used to expand one 64-bit seed into a full state.
constexpr std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman, Vigna 2018).
class Rng {
 public:
  constexpr explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  constexpr void reseed(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& w : s_) w = splitmix64(x);
  }

  // A generator with the given raw state (not all zero), for checking against published
  // xoshiro256** test vectors.
  static constexpr Rng from_state(std::uint64_t s0, std::uint64_t s1, std::uint64_t s2,
                                  std::uint64_t s3) {
    Rng r;
    r.s_[0] = s0, r.s_[1] = s1, r.s_[2] = s2, r.s_[3] = s3;
    return r;
  }

  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n > 0: Lemire's multiply-shift with rejection (unbiased).
  constexpr std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = (next() >> 32) * n;
    auto low = static_cast<std::uint32_t>(m);
    if (low < n) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (low < threshold) {
        m = (next() >> 32) * n;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // Uniform double in [0, 1) with 53 random bits.
  constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace tactica
// ===== core/include/tactica/hanpang.hpp (continued) =====

namespace tactica::hanpang {

inline constexpr int kRows = 15;
inline constexpr int kCols = 8;
inline constexpr int kColours = 3;
inline constexpr int kMaxActions = 200;
inline constexpr int kLane = 16;
inline constexpr int kNumRows = 6561;  // 3^8 possible new rows
inline constexpr int kNoCell = -1;

constexpr int cell(int col, int height) { return col * kLane + height; }
constexpr int col_of(int cell) { return cell / kLane; }
constexpr int height_of(int cell) { return cell % kLane; }

// Protocol coordinates (1-based; row 1 is the top) <-> cell index.
constexpr int from_protocol(int row, int col) { return cell(col - 1, kRows - row); }
constexpr int protocol_row(int cell) { return kRows - height_of(cell); }
constexpr int protocol_col(int cell) { return col_of(cell) + 1; }

constexpr u128 lane_mask(int col) { return u128{0x7FFF} << (col * kLane); }
inline constexpr u128 kValid = [] {
  u128 m = 0;
  for (int c = 0; c < kCols; ++c) m |= lane_mask(c);
  return m;
}();
inline constexpr u128 kBottom = [] {
  u128 m = 0;
  for (int c = 0; c < kCols; ++c) m |= bit128(cell(c, 0));
  return m;
}();
inline constexpr u128 kTop = kBottom << (kRows - 1);
inline constexpr u128 kGuard = kBottom << (kLane - 1);  // bit 15 of every lane: never a tile

namespace detail {

// ---- Cell sets for the group search -------------------------------------------------------
// Set: a cell set with the few operations the group search needs, in an SSE2 register where
// there is one (every x86-64 processor has SSE2): a row shift is then one 16-bit lane shift and
// a column shift one 2-byte register shift. Elsewhere it is a u128 shifted a 64-bit half at a
// time. Both agree on every set without guard bits, which is all the search uses. Define
// TACTICA_NO_SIMD to test the portable version on x86-64.
#if defined(__SSE2__) && !defined(TACTICA_NO_SIMD)
struct Set {
  __m128i v;
  static Set of(u128 x) {
    return {_mm_set_epi64x(static_cast<long long>(x >> 64), static_cast<long long>(x))};
  }
  static Set load(const u128& x) { return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(&x))}; }
  u128 get() const {
    const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(v));
    const auto hi = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
    return (u128{hi} << 64) | lo;
  }
  friend Set operator|(Set a, Set b) { return {_mm_or_si128(a.v, b.v)}; }
  friend Set operator&(Set a, Set b) { return {_mm_and_si128(a.v, b.v)}; }
  friend Set operator^(Set a, Set b) { return {_mm_xor_si128(a.v, b.v)}; }
  friend Set but(Set a, Set b) { return {_mm_andnot_si128(b.v, a.v)}; }  // a & ~b
  friend bool operator==(Set a, Set b) {
    return _mm_movemask_epi8(_mm_cmpeq_epi8(a.v, b.v)) == 0xFFFF;
  }
  friend Set up(Set a) { return {_mm_slli_epi16(a.v, 1)}; }     // one row up
  friend Set down(Set a) { return {_mm_srli_epi16(a.v, 1)}; }   // one row down
  friend Set right(Set a) { return {_mm_slli_si128(a.v, 2)}; }  // one column right
  friend Set left(Set a) { return {_mm_srli_si128(a.v, 2)}; }   // one column left
};
#else
struct Set {
  u128 v;
  static constexpr Set of(u128 x) { return {x}; }
  static constexpr Set load(const u128& x) { return {x}; }
  constexpr u128 get() const { return v; }
  friend constexpr Set operator|(Set a, Set b) { return {a.v | b.v}; }
  friend constexpr Set operator&(Set a, Set b) { return {a.v & b.v}; }
  friend constexpr Set operator^(Set a, Set b) { return {a.v ^ b.v}; }
  friend constexpr Set but(Set a, Set b) { return {a.v & ~b.v}; }
  friend constexpr bool operator==(Set a, Set b) { return a.v == b.v; }
  // 128-bit shifts compile to double-precision shifts, slow on some processors; the guard bits
  // let a row shift ignore the carry between the halves, and a column shift carries only
  // between columns 3 and 4.
  static constexpr std::uint64_t lo(u128 x) { return static_cast<std::uint64_t>(x); }
  static constexpr std::uint64_t hi(u128 x) { return static_cast<std::uint64_t>(x >> 64); }
  static constexpr Set join(std::uint64_t l, std::uint64_t h) { return {(u128{h} << 64) | l}; }
  friend constexpr Set up(Set a) { return join(lo(a.v) << 1, hi(a.v) << 1); }
  friend constexpr Set down(Set a) { return join(lo(a.v) >> 1, hi(a.v) >> 1); }
  friend constexpr Set right(Set a) {
    return join(lo(a.v) << kLane, (hi(a.v) << kLane) | (lo(a.v) >> (64 - kLane)));
  }
  friend constexpr Set left(Set a) {
    return join((lo(a.v) >> kLane) | (hi(a.v) << (64 - kLane)), hi(a.v) >> kLane);
  }
};
#endif

inline Set grow(Set x, Set within) { return (x | up(x) | down(x) | right(x) | left(x)) & within; }

// Most groups left for a fill are complete after this many steps: those are taken without a
// test, so the loop after them usually stops at its first, well-predicted test.
inline constexpr int kBlindSteps = 6;

// The cells of `within` 4-connected to `seed` (a subset of `within`).
inline u128 fill(u128 seed, u128 within) {
  const Set w = Set::of(within);
  Set g = Set::of(seed);
  for (int i = 0; i < kBlindSteps; ++i) g = grow(g, w);
  for (;;) {
    const Set next = grow(g, w);
    if (next == g) return g.get();
    g = next;
  }
}

// Two fills at once: the steps of each are a chain of dependent operations, so interleaving two
// chains takes little more time than one.
inline std::array<u128, 2> fill2(u128 seed_a, u128 within_a, u128 seed_b, u128 within_b) {
  const Set wa = Set::of(within_a), wb = Set::of(within_b);
  Set a = Set::of(seed_a), b = Set::of(seed_b);
  for (int i = 0; i < kBlindSteps; ++i) a = grow(a, wa), b = grow(b, wb);
  for (;;) {
    const Set na = grow(a, wa), nb = grow(b, wb);
    if (na == a && nb == b) return {a.get(), b.get()};
    a = na, b = nb;
  }
}

// Every tile sorted by the kind of group it is in, from the same-coloured neighbours of each
// tile (all colours at once: `up` = the tile above has the same colour, and so on).
// A "star" is a tile whose same-coloured neighbours (2 to 4) touch nothing else of their colour;
// it makes a whole group with them (every group of 3 is one). An isolated pair is listed from its
// lower (or left) end. (Finding larger shapes in bulk, such as two adjacent centres, was tried:
// it cost more than the flood fills it saved.)
struct Shapes {
  u128 up, dn, rt, lf;
  u128 deg0, deg1, deg2;  // the number of same-coloured neighbours, bit-sliced: d0 + 2 d1 + 4 d2
  u128 single;            // tiles with no same-coloured neighbour: groups of 1
  u128 multi;             // the centre of each star and the lower end of each isolated pair
  u128 rest;              // every tile of the other groups (4 tiles or more each)
};

inline Shapes shapes(const std::array<u128, 3>& planes) {
  Set upm = Set::of(0), rtm = Set::of(0), occupied = Set::of(0);
  for (const u128& plane : planes) {
    const Set p = Set::load(plane);
    upm = upm | (p & down(p));
    rtm = rtm | (p & left(p));
    occupied = occupied | p;
  }
  const Set dnm = up(upm), lfm = right(rtm);
  // The degree up + dn + rt + lf, added bitwise (up & dn excludes up ^ dn, and so on).
  const Set s1 = upm ^ dnm, s2 = rtm ^ lfm, c1 = upm & dnm, c2 = rtm & lfm;
  const Set d0 = s1 ^ s2, d1 = (s1 & s2) ^ c1 ^ c2, d2 = c1 & c2;
  const Set any = upm | dnm | rtm | lfm;
  const Set two = d1 | d2;  // two neighbours or more
  const Set one = but(any, two);
  // Tiles with a same-coloured neighbour that has another same-coloured neighbour.
  const Set busy = but(upm, down(one)) | but(dnm, up(one)) | but(rtm, left(one)) |
                   but(lfm, right(one));
  const Set pair = but(one, busy) & (upm | rtm);
  const Set star = but(two, busy);
  const Set multi = pair | star;
  const Set covered = multi | up(multi & upm) | down(multi & dnm) | right(multi & rtm) |
                      left(multi & lfm);
  return {upm.get(), dnm.get(), rtm.get(), lfm.get(), d0.get(), d1.get(), d2.get(),
          but(occupied, any).get(), multi.get(), but(any, covered).get()};
}

}  // namespace detail

// A new row: the colour (1..3) of each column, left to right.
struct Row {
  std::array<std::uint8_t, kCols> colour{};

  // "12312312" -> Row; nullopt unless exactly 8 characters from '1'..'3'.
  static std::optional<Row> parse(std::string_view s) {
    if (s.size() != kCols) return std::nullopt;
    Row r;
    for (int c = 0; c < kCols; ++c) {
      if (s[c] < '1' || s[c] > '3') return std::nullopt;
      r.colour[c] = static_cast<std::uint8_t>(s[c] - '0');
    }
    return r;
  }
  std::string str() const {
    std::string s(kCols, '0');
    for (int c = 0; c < kCols; ++c) s[c] = static_cast<char>('0' + colour[c]);
    return s;
  }
  // Rows are numbered 0..6560 in base 3 (column 0 least significant) for chance nodes.
  int index() const {
    int x = 0;
    for (int c = kCols - 1; c >= 0; --c) x = x * 3 + (colour[c] - 1);
    return x;
  }
  static Row from_index(int x) {
    Row r;
    for (int c = 0; c < kCols; ++c, x /= 3) r.colour[c] = static_cast<std::uint8_t>(1 + x % 3);
    return r;
  }
  static Row random(Rng& rng) { return from_index(static_cast<int>(rng.below(kNumRows))); }
  friend bool operator==(const Row&, const Row&) = default;
};

// The rows of a seeded game, in order: the first is the initial bottom row.
class RowSource {
 public:
  explicit RowSource(std::uint64_t seed) : rng_(seed) {}
  Row next() {
    Row r;
    if constexpr (std::endian::native == std::endian::little) {
      // The same draws, gathered in a register and stored at once (byte stores followed by a
      // word load, as push_row does, would stall).
      std::uint64_t w = 0;
      for (int c = 0; c < kCols; ++c) w |= std::uint64_t{1 + rng_.below(3)} << (8 * c);
      std::memcpy(r.colour.data(), &w, sizeof w);
    } else {
      for (auto& c : r.colour) c = static_cast<std::uint8_t>(1 + rng_.below(3));
    }
    return r;
  }

 private:
  Rng rng_;
};

struct Group {
  u128 cells;
  int size;
  int rep;  // a representative cell (the lowest index of the group)
  int colour;
};

// Fixed capacity: a board has at most 120 tiles, so at most 120 groups.
struct GroupList {
  std::array<Group, kRows * kCols> items;
  int count = 0;
  const Group* begin() const { return items.data(); }
  const Group* end() const { return items.data() + count; }
  const Group& operator[](int i) const { return items[i]; }
  int size() const { return count; }
};

enum class End : std::uint8_t { none, overflow, max_actions };

class State {
 public:
  // planes[k] holds the tiles of colour k + 1.
  std::array<u128, kColours> planes{};
  std::int64_t score = 0;
  int actions = 0;
  End end = End::none;

  bool over() const { return end != End::none; }
  u128 occupied() const { return planes[0] | planes[1] | planes[2]; }
  int tiles() const { return popcount(occupied()); }
  int colour_at(int c) const {
    const u128 b = bit128(c);
    return (planes[0] & b) ? 1 : (planes[1] & b) ? 2 : (planes[2] & b) ? 3 : 0;
  }
  int height(int col) const {
    const auto lane = static_cast<std::uint32_t>(occupied() >> (col * kLane)) & 0xFFFF;
    return std::popcount(lane);
  }
  int max_height() const {
    int h = 0;
    for (int c = 0; c < kCols; ++c) h = std::max(h, height(c));
    return h;
  }

  // Adds a row at the bottom, moving every column up one. Returns false (and ends the game by
  // overflow) if that pushed a tile out over the top; the rules end the game before that can
  // happen, so this is a guard for hand-built states.
  bool push_row(const Row& row) {
    const bool out = (occupied() & kTop) != 0;
    const std::array<u128, kColours> add = row_planes(row);
    for (int k = 0; k < kColours; ++k) planes[k] = ((planes[k] << 1) & kValid) | add[k];
    if (out) end = End::overflow;
    return !out;
  }

  // The bottom-row cells of each colour of `row`, as three sets (colours outside 1..3: none).
  static std::array<u128, kColours> row_planes(const Row& row) {
    if constexpr (std::endian::native == std::endian::little) {
      // One byte per column, spread from bit 8c to bit 16c of the low (columns 0-3) or high
      // (columns 4-7) half; then the colour's two bits pick the plane.
      std::uint64_t w;
      std::memcpy(&w, row.colour.data(), sizeof w);
      w &= 0x0303030303030303ULL;
      auto spread = [](std::uint64_t x) {
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
        return (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
      };
      const u128 lanes = (u128{spread(w >> 32)} << 64) | spread(w & 0xFFFFFFFFULL);
      const u128 b0 = lanes & kBottom, b1 = (lanes >> 1) & kBottom;
      return {b0 & ~b1, b1 & ~b0, b0 & b1};
    } else {
      std::array<u128, kColours> m{};
      for (int c = 0; c < kCols; ++c)
        if (row.colour[c] >= 1 && row.colour[c] <= 3) m[row.colour[c] - 1] |= bit128(cell(c, 0));
      return m;
    }
  }

  // The group of same-coloured tiles 4-connected to cell c (empty set if c is empty).
  u128 group_at(int c) const {
    const int k = colour_at(c);
    return k ? detail::fill(bit128(c), planes[k - 1]) : 0;
  }

  // Lists every group once, in no particular order. Most groups of a playing board are tiny,
  // so they are found in bulk from same-colour neighbour masks (see detail::Shapes): single
  // tiles, isolated pairs and stars are read off the masks; only the rest needs a flood fill.
  void groups(GroupList& out) const {
    const detail::Shapes sh = detail::shapes(planes);
    Group* items = out.items.data();
    int n = 0;
    n = add_singles<0>(items, n, sh);
    n = add_singles<1>(items, n, sh);
    n = add_multis<0>(items, n, sh);
    n = add_multis<1>(items, n, sh);
    // The rest two groups at a time: from the lowest and the highest cell left (the same group
    // if the first fill reaches the second seed).
    for (u128 rest = sh.rest; rest;) {
      const u128 a = rest & (~rest + 1), b = highest(rest);
      const int ca = colour_of(a), cb = colour_of(b);
      const auto [ga, gb] = detail::fill2(a, rest & planes[ca - 1], b, rest & planes[cb - 1]);
      items[n++] = Group{ga, popcount(ga), lowest_bit(a), ca};
      rest ^= ga;
      if (!(ga & b)) {
        items[n++] = Group{gb, popcount(gb), lowest_bit(gb), cb};
        rest ^= gb;
      }
    }
    out.count = n;
  }

  // Number of groups, without listing them.
  int group_count() const {
    const detail::Shapes sh = detail::shapes(planes);
    int n = popcount(sh.single) + popcount(sh.multi);
    for (u128 rest = sh.rest; rest; ++n) {
      const u128 seed = rest & (~rest + 1);
      rest ^= detail::fill(seed, rest & planes[colour_of(seed) - 1]);
    }
    return n;
  }

  // Removes the given group (all of one colour, as from group_at or groups()), lets every
  // column fall, scores k^2 and applies the end rules. Returns the points scored.
  int remove(u128 g) {
    const int k = popcount(g);
    g &= kValid;
    // Each pass closes the lowest removed cell of every column at once: the part of the
    // column above it moves down one. Passes = the most cells removed from one column.
    while (g) {
      const u128 t = g | kGuard;                // a column with nothing removed stops at its guard
      const u128 lowest = t & ~(t - kBottom);   // lowest set bit of each lane (no borrow across)
      const u128 below = lowest - kBottom;      // the cells under it
      const u128 upper = kValid & ~below;       // the cells from it up (none if only the guard)
      for (auto& p : planes) p = (p & below) | ((p >> 1) & upper);
      g = ((g & ~lowest) >> 1) & upper;
    }
    score += static_cast<std::int64_t>(k) * k;
    ++actions;
    if (actions >= kMaxActions)
      end = End::max_actions;
    else if (occupied() & kTop)
      end = End::overflow;  // the next row would push a tile out: its points still count
    return k * k;
  }

  // Plays the group at cell c (which must hold a tile). Returns the points scored.
  int play(int c) { return remove(group_at(c)); }

  // True if playing this group would end the game by overflow.
  bool overflows(u128 g) const {
    // Bit 15 of a lane is set iff g has a cell in that column (15-bit sums cannot carry out).
    const u128 touched = ((g & kValid) + kValid) & kGuard;
    return (occupied() & kTop & ~(touched >> 1)) != 0;
  }

  // Text form: 15 lines (top row first) of 8 digits 0-3, each ending in '\n'.
  std::string to_text() const {
    std::string s;
    s.reserve(kRows * (kCols + 1));
    for (int h = kRows - 1; h >= 0; --h) {
      for (int c = 0; c < kCols; ++c) s += static_cast<char>('0' + colour_at(cell(c, h)));
      s += '\n';
    }
    return s;
  }
  // Parses the text form (lines may be separated by any whitespace); nullopt unless it is
  // 15 rows of 8 digits 0-3 with no tile floating above an empty cell.
  static std::optional<State> from_text(std::string_view text) {
    State st;
    int h = kRows - 1, c = 0;
    for (char ch : text) {
      if (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t') {
        if (c == kCols) c = 0, --h;
        else if (c != 0) return std::nullopt;
        continue;
      }
      if (ch < '0' || ch > '3' || h < 0 || c >= kCols) return std::nullopt;
      if (ch != '0') st.planes[ch - '1'] |= bit128(cell(c, h));
      ++c;
    }
    if (c == kCols) c = 0, --h;
    if (h != -1 || c != 0) return std::nullopt;
    for (int col = 0; col < kCols; ++col) {
      const auto lane = static_cast<std::uint32_t>(st.occupied() >> (col * kLane)) & 0x7FFF;
      if (lane & (lane + 1)) return std::nullopt;  // not a run of low bits: a floating tile
    }
    return st;
  }

  friend bool operator==(const State&, const State&) = default;

 private:
  // The highest cell of a non-empty set, as a set.
  static u128 highest(u128 s) {
    const auto hi = static_cast<std::uint64_t>(s >> 64), lo = static_cast<std::uint64_t>(s);
    return hi ? u128{std::uint64_t{1} << (63 - std::countl_zero(hi))} << 64
              : u128{std::uint64_t{1} << (63 - std::countl_zero(lo))};
  }

  // The colour (1..3) of the tile `b` (one cell, holding a tile), without branches.
  int colour_of(u128 b) const {
    return 1 + static_cast<int>((planes[1] & b) != 0) + 2 * static_cast<int>((planes[2] & b) != 0);
  }

  // Appends the single tiles of one 64-bit half of the board to items[n..]; returns the count.
  template <int Half>
  int add_singles(Group* items, int n, const detail::Shapes& sh) const {
    auto half = [](u128 x) { return static_cast<std::uint64_t>(x >> (64 * Half)); };
    const std::uint64_t p1 = half(planes[1]), p2 = half(planes[2]);
    for (std::uint64_t m = half(sh.single); m; m &= m - 1) {
      const int i = std::countr_zero(m);
      const auto colour = static_cast<int>(1 + ((p1 >> i) & 1) + 2 * ((p2 >> i) & 1));
      items[n++] = Group{u128{m & (~m + 1)} << (64 * Half), 1, 64 * Half + i, colour};
    }
    return n;
  }

  // Appends the pairs and stars centred in one 64-bit half: the centre and its same-coloured
  // neighbours (which may lie in the other half: columns 3 and 4 meet there).
  template <int Half>
  int add_multis(Group* items, int n, const detail::Shapes& sh) const {
    using std::uint64_t;
    auto half = [](u128 x) { return static_cast<uint64_t>(x >> (64 * Half)); };
    const uint64_t up = half(sh.up), dn = half(sh.dn), rt = half(sh.rt), lf = half(sh.lf);
    const uint64_t d0 = half(sh.deg0), d1 = half(sh.deg1), d2 = half(sh.deg2);
    const uint64_t p1 = half(planes[1]), p2 = half(planes[2]);
    for (uint64_t m = half(sh.multi); m; m &= m - 1) {
      const int i = std::countr_zero(m);
      const uint64_t b = m & (~m + 1);
      const uint64_t here =
          b | ((b & up) << 1) | ((b & dn) >> 1) | ((b & rt) << kLane) | ((b & lf) >> kLane);
      const u128 g = Half == 0 ? (u128{(b & rt) >> (64 - kLane)} << 64) | here
                               : (u128{here} << 64) | ((b & lf) << (64 - kLane));
      const auto size = static_cast<int>(1 + ((d0 >> i) & 1) + 2 * ((d1 >> i) & 1) + 4 * ((d2 >> i) & 1));
      const auto colour = static_cast<int>(1 + ((p1 >> i) & 1) + 2 * ((p2 >> i) & 1));
      items[n++] = Group{g, size, lowest_bit(g), colour};
    }
    return n;
  }
};

// The cheap move the agent falls back on: the largest group that does not end the game by
// overflow (any group if all do), ties to the lowest cell. Needs only the rules.
inline int fallback_move(const State& s) {
  GroupList gl;
  s.groups(gl);
  int best = kNoCell, best_size = -1;
  bool best_safe = false;
  for (const Group& g : gl) {
    const bool safe = !s.overflows(g.cells);
    if ((safe && !best_safe) ||
        (safe == best_safe && (g.size > best_size || (g.size == best_size && g.rep < best)))) {
      best = g.rep, best_size = g.size, best_safe = safe;
    }
  }
  return best;
}

}  // namespace tactica::hanpang
// ===== core/include/tactica/strategy.hpp (continued) =====
// ===== core/include/tactica/icebreaking.hpp =====
// icebreaking.hpp — Icebreaking rules as a bitboard engine (see shared/spec/icebreaking.md).
//
// Layout: row-major with a guard column, bit (r * 10 + c) for row r and column c (0-based, as in
// the protocol). Column 9 of every row is never part of any set, so horizontal shifts cannot wrap
// and vertical neighbours are 10 bits apart. The Board (holes, scores) never changes during a
// game; a Position (ice left, owners, totals, side to move) is a small value, cheap to copy.



namespace tactica::icebreaking {

inline constexpr int kSize = 9;
inline constexpr int kStride = 10;
inline constexpr int kHoles = 9;
inline constexpr int kIce = kSize * kSize - kHoles;  // 72
inline constexpr int kNoCell = -1;

constexpr int cell(int r, int c) { return r * kStride + c; }
constexpr int row_of(int cell) { return cell / kStride; }
constexpr int col_of(int cell) { return cell % kStride; }

inline constexpr u128 kAll = [] {
  u128 m = 0;
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c) m |= bit128(cell(r, c));
  return m;
}();

enum Player : std::uint8_t { A = 0, B = 1 };
constexpr Player other(Player p) { return p == A ? B : A; }

class Board {
 public:
  u128 holes = 0;
  std::array<std::int8_t, kSize * kStride> score{};  // 0 on holes and guards
  // Cells by score, for summing a set's scores with popcounts.
  u128 plus1 = 0, plus2 = 0, minus1 = 0, minus2 = 0;

  u128 ice() const { return kAll & ~holes; }

  int sum(u128 s) const {
    return popcount(s & plus1) + 2 * popcount(s & plus2) - popcount(s & minus1) -
           2 * popcount(s & minus2);
  }

  void set(int c, bool hole, int value) {
    const u128 b = bit128(c);
    for (u128* m : {&holes, &plus1, &plus2, &minus1, &minus2}) *m &= ~b;
    score[c] = 0;
    if (hole) {
      holes |= b;
      return;
    }
    score[c] = static_cast<std::int8_t>(value);
    if (value == 1) plus1 |= b;
    if (value == 2) plus2 |= b;
    if (value == -1) minus1 |= b;
    if (value == -2) minus2 |= b;
  }

  // The board of a seed: 9 distinct holes uniformly at random (a partial Fisher-Yates shuffle
  // of the 81 cells in row-major order), then each other cell's score uniform in -2..2, in
  // row-major order.
  static Board from_seed(std::uint64_t seed) {
    Rng rng(seed);
    std::array<std::uint8_t, kSize * kSize> order;
    for (int i = 0; i < kSize * kSize; ++i) order[i] = static_cast<std::uint8_t>(i);
    Board b;
    for (int i = 0; i < kHoles; ++i) {
      const int j = i + static_cast<int>(rng.below(kSize * kSize - i));
      std::swap(order[i], order[j]);
      b.holes |= bit128(cell(order[i] / kSize, order[i] % kSize));
    }
    std::array<u128, 5> by_score{};  // the cells of score -2..2
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c) {
        const int x = cell(r, c);
        if (b.holes & bit128(x)) continue;
        const int v = static_cast<int>(rng.below(5));
        b.score[x] = static_cast<std::int8_t>(v - 2);
        by_score[v] |= bit128(x);
      }
    b.minus2 = by_score[0], b.minus1 = by_score[1], b.plus1 = by_score[3], b.plus2 = by_score[4];
    return b;
  }

  // One protocol line of row r: 9 space-separated tokens, '#' or -2..2.
  std::string line(int r) const {
    std::string s;
    for (int c = 0; c < kSize; ++c) {
      if (c) s += ' ';
      s += (holes & bit128(cell(r, c))) ? std::string("#") : std::to_string(score[cell(r, c)]);
    }
    return s;
  }
  std::string to_text() const {
    std::string s;
    for (int r = 0; r < kSize; ++r) s += line(r) + '\n';
    return s;
  }

  // Parses one protocol board line into row r. Returns an error message, empty on success.
  std::string parse_line(int r, std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string tok;
    int c = 0;
    while (in >> tok) {
      if (c >= kSize) return "more than 9 tokens";
      if (tok == "#") {
        set(cell(r, c), true, 0);
      } else if (tok.size() <= 2 && (tok == "-2" || tok == "-1" || tok == "0" || tok == "1" ||
                                     tok == "2" || tok == "+1" || tok == "+2")) {
        set(cell(r, c), false, std::stoi(tok));
      } else {
        return "token '" + tok.substr(0, 16) + "' is neither '#' nor an integer -2..2";
      }
      ++c;
    }
    if (c != kSize) return "expected 9 tokens, found " + std::to_string(c);
    return {};
  }

  // Parses the 9-line text form; nullopt unless every line is valid and there are 9 holes.
  static std::optional<Board> from_text(std::string_view text) {
    Board b;
    std::istringstream in{std::string(text)};
    std::string line;
    int r = 0;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (r >= kSize || !b.parse_line(r, line).empty()) return std::nullopt;
      ++r;
    }
    if (r != kSize || popcount(b.holes) != kHoles) return std::nullopt;
    return b;
  }

  friend bool operator==(const Board&, const Board&) = default;
};

struct MoveResult {
  int gain = 0;      // the cell's score plus the captured cells' scores
  u128 captured = 0;  // chain-captured cells (not including the chosen cell)
};

// Fixed-capacity move list: at most 72 empty ice cells.
struct MoveList {
  std::array<std::int8_t, kIce> items;
  int count = 0;
  const std::int8_t* begin() const { return items.data(); }
  const std::int8_t* end() const { return items.data() + count; }
  int operator[](int i) const { return items[i]; }
  int size() const { return count; }
};

class Position {
 public:
  u128 ice = 0;                     // empty ice cells
  std::array<u128, 2> owned{};      // cells taken by A and by B
  std::array<int, 2> total{};       // the players' scores
  Player to_move = A;
  int ply = 0;

  static Position start(const Board& b) {
    Position p;
    p.ice = b.ice();
    return p;
  }

  bool over() const { return ice == 0; }
  bool legal(int c) const { return c >= 0 && c < kSize * kStride && (ice & bit128(c)); }

  void moves(MoveList& out) const {
    int n = 0;
    for (auto lo = static_cast<std::uint64_t>(ice); lo; lo &= lo - 1)
      out.items[n++] = static_cast<std::int8_t>(std::countr_zero(lo));
    for (auto hi = static_cast<std::uint64_t>(ice >> 64); hi; hi &= hi - 1)
      out.items[n++] = static_cast<std::int8_t>(64 + std::countr_zero(hi));
    out.count = n;
  }

  // What taking cell c would capture, without playing it.
  u128 captures(int c) const {
    const u128 after = ice & ~bit128(c);
    // Step 1: the 3x3 window around c (bits 0-2 the row above, 10-12 this row, 20-22 the row
    // below). If the ice neighbours of c are joined to each other through the ice corners of
    // the window, the region stays connected without any flood fill; this decides most moves.
    const auto w = static_cast<std::uint32_t>((after << (kStride + 1)) >> c);
    const std::uint32_t n = (w >> 1) & 1, wst = (w >> 10) & 1, e = (w >> 12) & 1,
                        s = (w >> 21) & 1;
    const std::uint32_t links = (n & (w >> 2) & e) + (e & (w >> 22) & s) +
                                (s & (w >> 20) & wst) + (wst & w & n);
    if (n + wst + e + s <= links + 1) return 0;  // at most one group of neighbours around c
    // Step 2: flood fill from one neighbour; the region is whole if it reaches all the others.
    const u128 nb = neighbours<kStride>(bit128(c)) & after;
    u128 comp[4];
    int size[4], count = 0, largest = 0;
    for (u128 left = nb; left;) {
      const u128 g = flood_fill<kStride>(left & (~left + 1), after);
      left &= ~g;
      if (count == 0 && !left) return 0;
      comp[count] = g;
      size[count] = popcount(g);
      largest = std::max(largest, size[count]);
      ++count;
    }
    // Step 3: every part smaller than the largest is captured.
    u128 cap = 0;
    for (int i = 0; i < count; ++i)
      if (size[i] < largest) cap |= comp[i];
    return cap;
  }

  // The side to move takes empty ice cell c, with chain capture; returns what it gained.
  MoveResult play(const Board& b, int c) {
    const u128 cap = captures(c);
    const u128 taken = cap | bit128(c);
    const int gain = b.score[c] + (cap ? b.sum(cap) : 0);
    ice &= ~taken;
    owned[to_move] |= taken;
    total[to_move] += gain;
    to_move = other(to_move);
    ++ply;
    return {gain, cap};
  }

  // +1 if A leads, -1 if B leads, 0 if level (the result once the game is over).
  int leader() const { return total[A] > total[B] ? 1 : total[A] < total[B] ? -1 : 0; }
  // The score difference from the side to move's point of view.
  int margin() const { return total[to_move] - total[other(to_move)]; }

  friend bool operator==(const Position&, const Position&) = default;
};

}  // namespace tactica::icebreaking
// ===== core/include/tactica/strategy.hpp (continued) =====

namespace tactica {

// Bumped whenever anything in this header changes layout or meaning; the loader refuses a
// plugin built against another version.
inline constexpr int kPluginAbiVersion = 1;

enum class GameKind { hanpang, icebreaking };
inline const char* game_name(GameKind g) { return g == GameKind::hanpang ? "hanpang" : "icebreaking"; }

// ---- parameters -------------------------------------------------------------------------------

enum class ParamType { integer, real, boolean };

struct ParamSpec {
  std::string name;
  ParamType type;
  double default_value;
  double min;
  double max;
  std::string help;  // one line
};

// Checked values by name. Every declared parameter is present once resolved (defaults filled).
class Params {
 public:
  void set(const std::string& name, double v) { values_[name] = v; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  double real(const std::string& name) const { return at(name); }
  std::int64_t integer(const std::string& name) const { return static_cast<std::int64_t>(at(name)); }
  bool boolean(const std::string& name) const { return at(name) != 0.0; }
  const std::map<std::string, double>& values() const { return values_; }

  // Fills every declared parameter that is not set with its default.
  void fill_defaults(const std::vector<ParamSpec>& specs) {
    for (const auto& s : specs)
      if (!has(s.name)) set(s.name, s.default_value);
  }

 private:
  double at(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw std::out_of_range("parameter '" + name + "' is not set");
    return it->second;
  }
  std::map<std::string, double> values_;
};

// ---- search limits and the best move so far -----------------------------------------------

struct SearchLimits {
  Deadline deadline = Deadline::never();
  // 0: no budget. Otherwise the search stops after about this many nodes (or iterations /
  // playouts, as the plugin defines a "node"), whatever the clock says: with a fixed seed and
  // a budget instead of a clock, the same position always gives the same move.
  std::uint64_t node_budget = 0;
  // What is left of the bank, for strategies that plan over the game (informational).
  std::int64_t bank_ms = 5000;
};

// A move the search publishes while it runs; the Session may answer with it if the search
// overruns. Written by the search thread, read by the Session: hence atomic.
class BestMove {
 public:
  void publish(int cell) { cell_.store(cell, std::memory_order_release); }
  int get() const { return cell_.load(std::memory_order_acquire); }
  void reset() { cell_.store(-1, std::memory_order_relaxed); }

 private:
  std::atomic<int> cell_{-1};
};

struct SearchStats {
  std::uint64_t nodes = 0;
  int depth = 0;       // completed depth or iterations, as the plugin defines it
  double value = 0.0;  // its estimate of the chosen move
};

// ---- strategies -------------------------------------------------------------------------------

class HanpangStrategy {
 public:
  virtual ~HanpangStrategy() = default;
  virtual void new_game(std::uint64_t /*seed*/) {}
  // `s` is the board after this turn's new row; returns a cell holding a tile (hanpang::cell).
  virtual int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) = 0;
  virtual SearchStats stats() const { return {}; }
};

class IcebreakingStrategy {
 public:
  virtual ~IcebreakingStrategy() = default;
  virtual void new_game(const icebreaking::Board& /*board*/, icebreaking::Player /*me*/,
                        std::uint64_t /*seed*/) {}
  // Returns an empty ice cell of `pos` (icebreaking::cell); pos.to_move is this player.
  virtual int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
                     const SearchLimits& limits, BestMove& best) = 0;
  // Told after every move of either player (for tree reuse); `after` is the position after it.
  virtual void observe(const icebreaking::Position& /*after*/, int /*cell*/) {}
  virtual SearchStats stats() const { return {}; }
};

// ---- the plugin descriptor -----------------------------------------------------------------

struct PluginInfo {
  int abi_version = kPluginAbiVersion;
  std::string name;     // "beam": the library is libtactica_beam.so
  std::string version;  // the plugin's own version, e.g. "1.0.0"
  std::string summary;  // one line
  std::vector<ParamSpec> hanpang_params;       // empty vector and plays_hanpang=false: not played
  std::vector<ParamSpec> icebreaking_params;
  bool plays_hanpang = false;
  bool plays_icebreaking = false;

  const std::vector<ParamSpec>& params(GameKind g) const {
    return g == GameKind::hanpang ? hanpang_params : icebreaking_params;
  }
  bool plays(GameKind g) const { return g == GameKind::hanpang ? plays_hanpang : plays_icebreaking; }
};

// The three functions every plugin defines (in namespace tactica::plugins::<name>) and exports
// under these names with Boost.DLL (see core/host/include/tactica/plugin_export.hpp).
using DescribeFn = PluginInfo();
using MakeHanpangFn = std::unique_ptr<HanpangStrategy>(const Params&);
using MakeIcebreakingFn = std::unique_ptr<IcebreakingStrategy>(const Params&);
inline constexpr const char* kDescribeSymbol = "tactica_describe";
inline constexpr const char* kMakeHanpangSymbol = "tactica_make_hanpang";
inline constexpr const char* kMakeIcebreakingSymbol = "tactica_make_icebreaking";

}  // namespace tactica
// ===== plugins/expectimax/plugin.hpp (continued) =====

namespace tactica::plugins::expectimax {

PluginInfo describe();
std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p);
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p);

}  // namespace tactica::plugins::expectimax
// ===== plugins/expectimax/describe.cpp (continued) =====

namespace tactica::plugins::expectimax {

PluginInfo describe() {
  using T = ParamType;
  PluginInfo info;
  info.name = "expectimax";
  info.version = "1.0.0";
  info.summary =
      "expectimax over sampled rows (Hanpang); alpha-beta with TT and exact endgame (Icebreaking)";
  info.plays_hanpang = info.plays_icebreaking = true;
  info.hanpang_params = {
      {"depth", T::integer, 3, 1, 6, "our moves searched, the root's included"},
      {"width", T::integer, 3, 1, 120, "moves expanded below the root at each decision node"},
      {"root_width", T::integer, 12, 1, 120, "root moves expanded beyond depth 1"},
      {"samples", T::integer, 3, 1, 32, "sampled next rows per chance node"},
      {"iter_start", T::real, 0.5, 0.05, 1, "start another depth only before this fraction of the move's soft time"},
      {"danger", T::real, -20, -1000, 0, "evaluation: per squared height above the danger line, per column"},
      {"group_sq", T::real, 2, 0, 8, "evaluation: per k^2 of every group of two or more"},
  };
  info.icebreaking_params = {
      {"tt_mb", T::integer, 32, 1, 1024, "transposition table size in MiB"},
      {"qdepth", T::integer, 0, 0, 16, "plies of capture-only quiescence at the horizon"},
      {"solve_at", T::integer, 16, 0, 72, "search straight to the end with this many ice cells or fewer"},
      {"aspiration", T::integer, 0, 0, 50, "aspiration window half-width in points (0: full window)"},
      {"pvs", T::boolean, 1, 0, 1, "principal variation search (null windows after the first move)"},
      {"iter_start", T::real, 0.6, 0.05, 1, "start another iteration only before this fraction of the move's soft time"},
      {"time_scale", T::real, 1, 0.25, 3, "use this multiple of the host's soft time per move (the hard limit still holds)"},
      {"w_pool", T::real, 0, 0, 4, "evaluation: weight of the alternating sum of the cells left"},
      {"w_threat", T::real, 0, -2, 2, "evaluation: weight of the best capture open to the side to move"},
      {"w_plus", T::real, 0, 0, 4, "evaluation: weight of the alternating sum of the positive cells left"},
      {"w_tempo", T::real, 0.5, 0, 2, "evaluation: weight of the side to move's best immediate gain"},
      {"w_alt", T::real, 0, 0, 2, "evaluation: weight of g1 - g2 + g3 ... over the alt_k best move gains"},
      {"alt_k", T::integer, 2, 1, 72, "evaluation: move gains in w_alt's alternating sum"},
      {"model", T::boolean, 1, 0, 1, "opponent modelling: an opponent whose every move was greedy's is played by a beam against greedy"},
      {"model_after", T::integer, 2, 1, 36, "opponent moves that must all match greedy before the model is trusted"},
      {"model_width", T::integer, 64, 1, 4096, "model beam: first width (cut to the time)"},
      {"model_max_width", T::integer, 4096, 1, 65536, "model beam: widest pass"},
  };
  return info;
}

}  // namespace tactica::plugins::expectimax
// ===== plugins/expectimax/hanpang.cpp =====
// The expectimax plugin's Hanpang strategy: a thin wrapper over HanpangSearch.
// ===== plugins/expectimax/hanpang_search.hpp =====
// hanpang_search.hpp — expectimax for Hanpang over the unknown next rows.
//
// A decision node is a board after this turn's row was added: its value is the best over our
// moves. A move leads to an afterstate (group removed, columns fallen); its value is the mean,
// over sampled next rows, of the decision node that row makes. At the horizon an afterstate is
// valued by the board-potential evaluation (common/hanpang_eval.hpp) with every column lifted
// by one (the coming row's height, its colours unknown). Only the `width` most promising moves
// of a decision node (by that horizon value) are expanded deeper, and every chance node at one
// level uses the same sampled rows (common random numbers: siblings are compared on equal
// futures). Iterative deepening over depth; a node is one evaluation.


// ===== plugins/common/hanpang_eval.hpp =====
// hanpang_eval.hpp — board potential for Hanpang, shared by the beam, expectimax and mcts plugins.
//
// What makes points: k^2 rewards huge groups, but every action adds a row of 8 tiles, so the board
// only stays level if moves remove 8 tiles on average. The plan the evaluation rewards: keep the
// board safe but not empty, grow one or two giant same-coloured masses, cash them when big, and
// cash everything before action 200 (unplayed mass is then worth nothing). Hence the terms:
//   - score so far (exact points);
//   - group potential: sum of k^2 over groups of size >= 2 (what cashing could pay), scaled;
//   - near-connections: same colour two cells apart vertically or horizontally with one other
//     tile between (one removal would join them);
//   - fragmentation: the number of groups and of single tiles (each costs a move to clear);
//   - height: tiles on the board, and a steep danger term for columns near the top;
//   - the horizon: with few actions left, only the r largest groups can still be cashed.
// Everything works on hanpang::State bitboards; no allocation. Header-only, standard library only.



namespace tactica::plugins::common {

// Weights of the board evaluation; every field is a weight in points (k^2 units) per unit of its
// feature. The defaults are the first version's (other plugins tuned against them); the beam
// plugin's best values are beam_weights() below (see docs/STRATEGIES.md, "beam").
struct HanpangWeights {
  double group_sq = 0.6;        // per k^2 of every group with k >= 2
  double group_lin = 0.0;       // per tile in groups with k >= 2
  double singleton = -1.5;      // per isolated tile
  double group = -1.0;          // per group (any size)
  double vgap = 2.0;            // same colour at heights h and h+2, another colour at h+1
  double hgap = 1.0;            // same colour in columns c and c+2 at one height, other between
  double tile = -0.5;           // per tile on the board
  double danger = -40.0;        // per (height - danger_from)^2, summed over columns
  int danger_from = 10;         // column height where danger starts
  double overflow = -1.0e6;     // a board that ended by overflow (dead before action 200)
  int endgame = 12;             // with r <= endgame actions left, only the r largest groups count
  double group_pow = 2.0;       // the group potential is group_sq * k^group_pow (2: k^2)
  double max_sq = 0.0;          // extra per k^2 of the largest group (one giant mass, not many)
  double colour_sq = 0.0;       // per n^2 of each colour's tile count (one dominant colour)
  double bridge_sq = 0.0;       // per m^2 of each colour's "bridged" mass: its tiles joined
                                // through single other-coloured tiles between two of them
  double collapse_sq = 0.0;     // per n^2 of each colour's "collapsed" masses: its tiles in a
                                // run of adjacent columns that all hold it (what would join if
                                // every other colour's tile were removed)
};

// The best weights measured with the beam plugin's phantom-row search (docs/STRATEGIES.md): hold
// groups (k^2 above its cash value), reward tiles while safe, punish fragments.
inline HanpangWeights beam_weights() {
  HanpangWeights w;
  w.group_sq = 1.2;
  w.singleton = -4.0;
  w.group = -4.0;
  w.tile = 3.0;
  w.danger = -40.0;
  w.danger_from = 11;
  w.bridge_sq = 0.5;
  return w;
}

// Features of one board, computed in one pass over its groups.
struct HanpangFeatures {
  int tiles = 0;
  int groups = 0;
  int singletons = 0;
  int max_group = 0;
  int max_height = 0;
  std::int64_t sum_sq = 0;  // sum of k^2 over groups with k >= 2
  double sum_pot = 0;       // sum of pot[k] over groups with k >= 2 (if a table was given)
  int in_groups = 0;        // tiles in groups with k >= 2
  int vgaps = 0;
  int hgaps = 0;
  int danger = 0;           // sum over columns of max(0, h - danger_from)^2
  std::int64_t bridge_sq = 0;  // sum of m^2 over bridged masses (computed only on request)
  std::int64_t colour_sq = 0;  // sum over colours of (tiles of that colour)^2
  std::int64_t collapse_sq = 0;  // sum of n^2 over each colour's collapsed masses (on request)
};

namespace detail {

inline constexpr u128 kHeightsBelow(int top) {  // heights 0..top-1 of every column
  u128 m = 0;
  for (int c = 0; c < hanpang::kCols; ++c) m |= (u128{(1u << top) - 1}) << (c * hanpang::kLane);
  return m;
}
inline constexpr u128 kLow13 = kHeightsBelow(hanpang::kRows - 2);  // a cell two above exists

}  // namespace detail

// Column heights of a state (gravity keeps each column a run of low bits).
inline void column_heights(const hanpang::State& s, std::array<int, hanpang::kCols>& h) {
  const u128 occ = s.occupied();
  for (int c = 0; c < hanpang::kCols; ++c)
    h[c] = 32 - std::countl_zero(static_cast<std::uint32_t>(occ >> (c * hanpang::kLane)) & 0x7FFFu);
}

// Lifts every column by one as a new row would, leaving the bottom row empty: a "phantom" row
// whose colours are unknown and never join a group. hanpang::State::remove keeps such gaps, and
// the overflow rule (a tile in the top row) still holds, so searches can plan without sampling.
inline void push_phantom_row(hanpang::State& s) {
  const bool out = (s.occupied() & hanpang::kTop) != 0;
  for (auto& p : s.planes) p = (p << 1) & hanpang::kValid;
  if (out) s.end = hanpang::End::overflow;
}

// All features of s. `sizes` (optional, capacity 120) receives every group size, for the horizon.
inline HanpangFeatures features(const hanpang::State& s, int danger_from, int* sizes = nullptr,
                                int* nsizes = nullptr, bool bridged = false,
                                const double* pot = nullptr, bool collapsed = false) {
  using namespace hanpang;
  HanpangFeatures f;
  const u128 occ = s.occupied();
  f.tiles = popcount(occ);
  int ns = 0;
  for (int k = 0; k < kColours; ++k) {
    const u128 p = s.planes[k];
    const u128 others = occ & ~p;
    const int np = popcount(p);
    f.colour_sq += np * np;
    u128 rest = p & neighbours<kLane>(p);
    const int singles = popcount(p & ~rest);
    f.singletons += singles;
    f.groups += singles;
    if (sizes)
      for (int i = 0; i < singles; ++i) sizes[ns++] = 1;
    while (rest) {
      const u128 g = flood_fill<kLane>(bit128(lowest_bit(rest)), rest);
      rest &= ~g;
      const int n = popcount(g);
      ++f.groups;
      f.sum_sq += n * n;
      if (pot) f.sum_pot += pot[n];
      f.in_groups += n;
      f.max_group = std::max(f.max_group, n);
      if (sizes) sizes[ns++] = n;
    }
    // Same colour two apart with another colour's tile between (occupied, so gravity-stable).
    f.vgaps += popcount(p & (p >> 2) & (others >> 1) & detail::kLow13);
    f.hgaps += popcount(p & (p >> (2 * kLane)) & (others >> kLane));
    if (collapsed) {
      // Runs of adjacent columns that hold this colour: with every other colour removed, their
      // tiles would fall to the bottom and form one group.
      int run = 0;
      for (int c = 0; c < kCols; ++c) {
        const int n = popcount(p & lane_mask(c));
        if (n) {
          run += n;
        } else {
          f.collapse_sq += static_cast<std::int64_t>(run) * run;
          run = 0;
        }
      }
      f.collapse_sq += static_cast<std::int64_t>(run) * run;
    }
    if (bridged) {
      // Other-coloured tiles with this colour on both sides (vertically or horizontally).
      const u128 bridges = others & (((p << 1) & (p >> 1)) | ((p << kLane) & (p >> kLane)));
      u128 within = p | bridges;
      u128 todo = p & (neighbours<kLane>(within) & within);
      while (todo) {
        const u128 g = flood_fill<kLane>(bit128(lowest_bit(todo)), within);
        todo &= ~g;
        within &= ~g;
        const int m = popcount(g & p);
        f.bridge_sq += m * m;
      }
    }
  }
  if (f.max_group == 0 && f.tiles) f.max_group = 1;
  for (int c = 0; c < kCols; ++c) {
    // The highest occupied height, not the tile count: boards searched with phantom rows
    // (empty bottom rows standing for rows of unknown colour) have gaps below their tiles.
    const int h = 32 - std::countl_zero(static_cast<std::uint32_t>(occ >> (c * kLane)) & 0x7FFFu);
    f.max_height = std::max(f.max_height, h);
    if (h > danger_from) f.danger += (h - danger_from) * (h - danger_from);
  }
  if (nsizes) *nsizes = ns;
  return f;
}

// The value of a decision state (after the row of this turn was pushed, as the strategy sees it):
// points so far plus the board's potential. Over states get their exact score (overflow before
// action 200 is penalised so that dying is never preferred to living).
inline double evaluate_with(const hanpang::State& s, const HanpangWeights& w, const double* pot) {
  using namespace hanpang;
  const double score = static_cast<double>(s.score);
  if (s.end == End::max_actions) return score;
  // Dying later is better than dying sooner: a search whose horizon sees only dead lines keeps
  // the one that lives longest (real rows may still open a way out).
  if (s.end == End::overflow) return score + w.overflow + 1000.0 * s.actions;
  const int left = kMaxActions - s.actions;
  if (left <= w.endgame) {
    // Step 1. Few actions left: at most `left` more groups can be cashed, and a cashed group
    // can still grow by merging, so count the largest `left` groups at full value.
    std::array<int, kRows * kCols> sizes;
    int n = 0;
    const HanpangFeatures f = features(s, w.danger_from, sizes.data(), &n);
    const int take = std::min(n, left);
    std::partial_sort(sizes.begin(), sizes.begin() + take, sizes.begin() + n, std::greater<>());
    double pot = 0;
    for (int i = 0; i < take; ++i) pot += static_cast<double>(sizes[i]) * sizes[i];
    // The closer the end, the surer the potential: blend from the general weight to 1.
    const double t = static_cast<double>(left) / (w.endgame + 1);
    const double gw = 1.0 * (1 - t) + w.group_sq * t;
    return score + gw * pot + w.danger * f.danger * t;
  }
  const HanpangFeatures f = features(s, w.danger_from, nullptr, nullptr, w.bridge_sq != 0.0, pot,
                                     w.collapse_sq != 0.0);
  const double group_pot = pot ? f.sum_pot : w.group_sq * static_cast<double>(f.sum_sq);
  return score + group_pot + w.colour_sq * static_cast<double>(f.colour_sq) + w.bridge_sq * static_cast<double>(f.bridge_sq) +
         w.collapse_sq * static_cast<double>(f.collapse_sq) +
         w.max_sq * static_cast<double>(f.max_group) * f.max_group + w.group_lin * f.in_groups +
         w.singleton * f.singletons + w.group * f.groups + w.vgap * f.vgaps + w.hgap * f.hgaps +
         w.tile * f.tiles + w.danger * f.danger;
}

// A board evaluator with the group potential tabulated (any group_pow at the cost of k^2).
class HanpangEval {
 public:
  explicit HanpangEval(const HanpangWeights& w = {}) : w_(w) {
    pot_[0] = pot_[1] = 0;
    for (int k = 2; k <= hanpang::kRows * hanpang::kCols; ++k)
      pot_[k] = w.group_sq * std::pow(static_cast<double>(k), w.group_pow);
  }
  double operator()(const hanpang::State& s) const { return evaluate_with(s, w_, pot_.data()); }
  const HanpangWeights& weights() const { return w_; }

 private:
  HanpangWeights w_;
  std::array<double, hanpang::kRows * hanpang::kCols + 1> pot_{};
};

// The evaluation with plain weights (tabulates nothing: group_pow other than 2 is slow here,
// prefer HanpangEval in searches).
inline double evaluate(const hanpang::State& s, const HanpangWeights& w) {
  if (w.group_pow == 2.0) return evaluate_with(s, w, nullptr);
  return HanpangEval(w)(s);
}

// ---- fast playout policies (for MCTS / rollouts) ----------------------------------------------

// Uniformly random among the groups of size >= min_size that do not overflow; failing that any
// non-overflowing group, failing that the fallback move. kNoCell on an empty board.
inline int random_safe_move(const hanpang::State& s, Rng& rng, int min_size = 2) {
  hanpang::GroupList gl;
  s.groups(gl);
  int pick[hanpang::kRows * hanpang::kCols];
  int n = 0, n_safe = 0;
  int safe[hanpang::kRows * hanpang::kCols];
  for (const auto& g : gl) {
    if (s.overflows(g.cells)) continue;
    safe[n_safe++] = g.rep;
    if (g.size >= min_size) pick[n++] = g.rep;
  }
  if (n) return pick[rng.below(static_cast<std::uint32_t>(n))];
  if (n_safe) return safe[rng.below(static_cast<std::uint32_t>(n_safe))];
  return hanpang::fallback_move(s);
}

// One-ply greedy on the evaluation, without knowing the next row: each candidate is scored on
// the board after removal with every column lifted by one (the row to come, colour unknown, is
// left out; its height is counted by `danger` through the lift). Deterministic.
inline int eval_greedy_move(const hanpang::State& s, const HanpangWeights& w) {
  using namespace hanpang;
  GroupList gl;
  s.groups(gl);
  int best = fallback_move(s);
  double best_v = -1e300;
  for (const auto& g : gl) {
    State t = s;
    t.remove(g.cells);
    if (!t.over()) push_phantom_row(t);
    const double v = evaluate(t, w);
    if (v > best_v) best_v = v, best = g.rep;
  }
  return best;
}

}  // namespace tactica::plugins::common
// ===== plugins/expectimax/hanpang_search.hpp (continued) =====

namespace tactica::plugins::expectimax {

struct HanpangParams {
  int max_depth = 3;        // our moves looked at, the root's included
  int width = 3;            // moves expanded below the root at each decision node
  int root_width = 12;     // root moves expanded at depth >= 2
  int samples = 3;          // sampled rows per chance node
  double iter_start = 0.5;  // start another depth only before this fraction of the soft time
  common::HanpangWeights weights;
};

class HanpangSearch {
 public:
  static constexpr int kMaxDepth = 6;
  static constexpr int kMaxSamples = 32;

  explicit HanpangSearch(const HanpangParams& p) : p_(p) {}
  void new_game(std::uint64_t seed) { seed_ = seed; }

  struct Result {
    int move = hanpang::kNoCell;
    double value = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
  };
  Result run(const hanpang::State& s, const SearchLimits& limits, BestMove* best);

  // The horizon value of an afterstate (see above).
  double leaf(const hanpang::State& after) const;

 private:
  double decision(const hanpang::State& s, int depth);  // s: after a row was added
  double chance(const hanpang::State& after, int depth);
  void tick();

  HanpangParams p_;
  std::uint64_t seed_ = 0;
  // rows_[level][i]: the i-th sampled row of every chance node `level` moves below the root.
  std::array<std::array<hanpang::Row, kMaxSamples>, kMaxDepth> rows_{};
  int samples_ = 1;
  int root_depth_ = 1;
  std::uint64_t nodes_ = 0, budget_ = 0;
  const Deadline* deadline_ = nullptr;
  bool stop_ = false;
};

}  // namespace tactica::plugins::expectimax
// ===== plugins/expectimax/hanpang.cpp (continued) =====

namespace tactica::plugins::expectimax {

namespace {

HanpangParams hanpang_params(const Params& p) {
  HanpangParams q;
  q.max_depth = static_cast<int>(p.integer("depth"));
  q.width = static_cast<int>(p.integer("width"));
  q.root_width = static_cast<int>(p.integer("root_width"));
  q.samples = static_cast<int>(p.integer("samples"));
  q.iter_start = p.real("iter_start");
  q.weights.danger = p.real("danger");
  q.weights.group_sq = p.real("group_sq");
  return q;
}

class HanpangStrategyImpl final : public HanpangStrategy {
 public:
  explicit HanpangStrategyImpl(const Params& p) : search_(hanpang_params(p)) {}
  void new_game(std::uint64_t seed) override { search_.new_game(seed); }
  int choose(const hanpang::State& s, const SearchLimits& limits, BestMove& best) override {
    auto r = search_.run(s, limits, &best);
    stats_.nodes = r.nodes;
    stats_.depth = r.depth;
    stats_.value = r.value;
    return r.move != hanpang::kNoCell ? r.move : hanpang::fallback_move(s);
  }
  SearchStats stats() const override { return stats_; }

 private:
  HanpangSearch search_;
  SearchStats stats_;
};

}  // namespace

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<HanpangStrategyImpl>(p);
}

}  // namespace tactica::plugins::expectimax
// ===== plugins/expectimax/hanpang_search.cpp =====
// Expectimax for Hanpang. See hanpang_search.hpp.


namespace tactica::plugins::expectimax {

using namespace tactica::hanpang;

namespace {

// The afterstate with every column lifted by one and an empty bottom row: the height the coming
// row will add, without guessing its colours.
State lifted(const State& a) {
  State t = a;
  for (auto& p : t.planes) p = (p << 1) & kValid;
  return t;
}

struct Cand {
  u128 cells;
  double v;
  int rep;
};

}  // namespace

double HanpangSearch::leaf(const State& a) const {
  return a.over() ? common::evaluate(a, p_.weights) : common::evaluate(lifted(a), p_.weights);
}

void HanpangSearch::tick() {
  ++nodes_;
  if ((nodes_ & 63) == 0) {
    if (budget_ && nodes_ >= budget_) stop_ = true;
    if (deadline_ && deadline_->hard_expired()) stop_ = true;
  }
}

double HanpangSearch::chance(const State& a, int depth) {
  if (a.over() || depth <= 0) {
    tick();
    return leaf(a);
  }
  const int level = root_depth_ - depth;  // which shared sample set
  double sum = 0;
  for (int i = 0; i < samples_; ++i) {
    State s = a;
    s.push_row(rows_[level][i]);
    sum += decision(s, depth);
    if (stop_) return 0;
  }
  return sum / samples_;
}

double HanpangSearch::decision(const State& s, int depth) {
  GroupList gl;
  s.groups(gl);
  std::array<Cand, kRows * kCols> c;
  int n = 0;
  for (const auto& g : gl) {
    State a = s;
    a.remove(g.cells);
    tick();
    c[n++] = Cand{g.cells, leaf(a), g.rep};
  }
  if (stop_ || n == 0) return 0;
  if (depth <= 1) {
    double best = c[0].v;
    for (int i = 1; i < n; ++i) best = std::max(best, c[i].v);
    return best;
  }
  const int w = std::min(n, p_.width);
  std::partial_sort(c.begin(), c.begin() + w, c.begin() + n,
                    [](const Cand& x, const Cand& y) { return x.v > y.v || (x.v == y.v && x.rep < y.rep); });
  double best = -1e300;
  for (int i = 0; i < w; ++i) {
    State a = s;
    a.remove(c[i].cells);
    best = std::max(best, chance(a, depth - 1));
    if (stop_) return 0;
  }
  return best;
}

HanpangSearch::Result HanpangSearch::run(const State& s, const SearchLimits& limits, BestMove* publish) {
  Result r;
  nodes_ = 0;
  budget_ = limits.node_budget;
  deadline_ = &limits.deadline;
  stop_ = false;
  samples_ = std::clamp(p_.samples, 1, kMaxSamples);

  // Step 1. The same rows for every sibling: drawn once per turn from (seed, action number).
  Rng rng(seed_ * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(s.actions) + 1);
  for (auto& level : rows_)
    for (auto& row : level) row = Row::random(rng);

  // Step 2. Depth 1: every move valued by its afterstate.
  GroupList gl;
  s.groups(gl);
  std::array<Cand, kRows * kCols> c;
  int n = 0;
  for (const auto& g : gl) {
    State a = s;
    a.remove(g.cells);
    ++nodes_;
    c[n++] = Cand{g.cells, leaf(a), g.rep};
  }
  if (n == 0) return r;
  std::stable_sort(c.begin(), c.begin() + n,
                   [](const Cand& x, const Cand& y) { return x.v > y.v || (x.v == y.v && x.rep < y.rep); });
  r.move = c[0].rep, r.value = c[0].v, r.depth = 1;
  if (publish) publish->publish(r.move);

  // Step 3. Deeper: the best root_width moves, each an expectation over sampled rows.
  const int last = std::min({p_.max_depth, kMaxDepth, kMaxActions - s.actions});
  for (int depth = 2; depth <= last; ++depth) {
    if (budget_ && nodes_ >= budget_) break;
    if (!limits.deadline.unlimited() && limits.deadline.soft_fraction() >= p_.iter_start) break;
    root_depth_ = depth - 1;
    const int w = std::min(n, p_.root_width);
    double best = -1e300;
    int best_i = -1;
    for (int i = 0; i < w; ++i) {
      State a = s;
      a.remove(c[i].cells);
      const double v = chance(a, depth - 1);
      if (stop_) break;
      if (v > best) best = v, best_i = i;
    }
    if (stop_) break;
    r.move = c[best_i].rep, r.value = best, r.depth = depth;
    if (publish) publish->publish(r.move);
    std::rotate(c.begin(), c.begin() + best_i, c.begin() + best_i + 1);
  }
  r.nodes = nodes_;
  deadline_ = nullptr;
  return r;
}

}  // namespace tactica::plugins::expectimax
// ===== plugins/expectimax/ice_search.cpp =====
// Negamax alpha-beta for Icebreaking: iterative deepening, PVS, whole-game transposition table,
// capture quiescence, and an exact search once few cells remain. See ice_search.hpp.
// ===== plugins/expectimax/ice_search.hpp =====
// ice_search.hpp — negamax alpha-beta for Icebreaking (the deterministic form of expectimax).
//
// Values are what the side to move will still gain minus what the other side will still gain,
// from the remaining ice set alone (in 1/kUnit points). That makes every value path-independent:
// the transposition table is keyed by the ice set only, verified by the full set (no false hits),
// and kept for the whole game. A node whose depth reaches the number of ice cells left is
// searched to the end (each move takes at least one cell), so its value is exact and stored as
// such; the endgame solver is the same search run at full depth.


// ===== plugins/common/icebreaking_eval.hpp =====
// icebreaking_eval.hpp — fast move facts and a static evaluation for Icebreaking searches.
// Header-only, standard library + core only (it goes into fused submissions).
//
// Everything here is a function of the remaining ice set alone: the future of an Icebreaking
// game depends only on which ice is left (and who moves), so values are "what the side to move
// will still gain minus what the other side will still gain" — path-independent, which lets a
// transposition table keep them across moves and games positions.



namespace tactica::plugins::common::ice {

using icebreaking::Board;
using icebreaking::kStride;

namespace detail {

// For each pattern of the 8 cells around a cell (bit i = ring position i, clockwise from north:
// N NE E SE S SW W NW), whether the orthogonal neighbours that are ice are all connected to each
// other through the ring (a diagonal cell joins two orthogonals next to it). If they are, taking
// the centre cannot split its region: every path through the centre has a detour around it.
inline constexpr std::array<bool, 256> kLocallyConnected = [] {
  std::array<bool, 256> t{};
  for (int m = 0; m < 256; ++m) {
    const bool orth[4] = {(m & 1) != 0, (m & 4) != 0, (m & 16) != 0, (m & 64) != 0};
    const bool diag[4] = {(m & 2) != 0, (m & 8) != 0, (m & 32) != 0, (m & 128) != 0};  // NE SE SW NW
    int present = 0, joins = 0;
    for (int i = 0; i < 4; ++i) {
      present += orth[i];
      joins += orth[i] && orth[(i + 1) % 4] && diag[i];
    }
    const int parts = present == 4 && joins == 4 ? 1 : present - joins;
    t[m] = parts <= 1;
  }
  return t;
}();

}  // namespace detail

// The 8-cell ring pattern around cell c in ice (see kLocallyConnected for the bit order).
inline unsigned ring(u128 ice, int c) {
  // Shift so that bit (c - 11) lands at bit 0: then NW=0 N=1 NE=2 W=10 E=12 SW=20 S=21 SE=22.
  const auto w = static_cast<std::uint32_t>((ice << 11) >> c);
  return ((w >> 1) & 1) | (((w >> 2) & 1) << 1) | (((w >> 12) & 1) << 2) | (((w >> 22) & 1) << 3) |
         (((w >> 21) & 1) << 4) | (((w >> 20) & 1) << 5) | (((w >> 10) & 1) << 6) | ((w & 1) << 7);
}

// True if taking c cannot split its region (a cheap local test; false means "maybe").
inline bool cannot_split(u128 ice, int c) { return detail::kLocallyConnected[ring(ice, c)]; }

// What taking c (an ice cell) captures: the same set as Position::captures, but skipping the
// flood fills whenever the local ring test proves no split.
inline u128 captures(u128 ice, int c) {
  if (cannot_split(ice, c)) return 0;
  const u128 after = ice & ~bit128(c);
  u128 nb = neighbours<kStride>(bit128(c)) & after;
  u128 comp[4];
  int size[4], n = 0, largest = 0;
  while (nb) {
    const u128 g = flood_fill<kStride>(bit128(lowest_bit(nb)), after);
    nb &= ~g;
    comp[n] = g;
    size[n] = popcount(g);
    largest = size[n] > largest ? size[n] : largest;
    ++n;
  }
  u128 cap = 0;
  for (int i = 0; i < n; ++i)
    if (size[i] < largest) cap |= comp[i];
  return cap;
}

// What every move of an ice set does, computed together in one depth-first search per region
// (Hopcroft-Tarjan articulation points): removing a cell v splits its region into the DFS
// subtrees below v that have no back edge above v, plus the rest of the region. Component sizes
// and score sums come from subtree counts, so no flood fill is needed to know every move's gain;
// the captured cells themselves (needed only for the move actually played) come from captures().
struct MoveFacts {
  std::int16_t gain;      // the cell's score plus the captured cells' scores
  std::int8_t cell;
  std::int8_t captured;   // number of captured cells (0: no capture)
};

class MoveScanner {
 public:
  // Fills out[] with one entry per ice cell (region by region); returns the count.
  int scan(const Board& b, u128 ice, MoveFacts* out) {
    constexpr int kOff[4] = {1, -1, kStride, -kStride};
    int n = 0;
    int timer = 0;
    u128 left = ice;
    while (left) {
      // Step 1. Iterative DFS of the region of the lowest unvisited cell.
      const int root = lowest_bit(left);
      u128 region = bit128(root);
      left &= ~region;
      int sp = 0;
      parent_[root] = -1;
      disc_[root] = low_[root] = static_cast<std::uint8_t>(timer++);
      size_[root] = 1;
      sum_[root] = b.score[root];
      stack_[sp] = static_cast<std::int8_t>(root);
      dir_[sp++] = 0;
      while (sp) {
        const int v = stack_[sp - 1];
        if (dir_[sp - 1] < 4) {
          const int w = v + kOff[dir_[sp - 1]++];
          if (w < 0 || !((ice >> w) & 1)) continue;
          if ((left >> w) & 1) {
            left &= ~bit128(w);
            region |= bit128(w);
            parent_[w] = static_cast<std::int8_t>(v);
            disc_[w] = low_[w] = static_cast<std::uint8_t>(timer++);
            size_[w] = 1;
            sum_[w] = b.score[w];
            stack_[sp] = static_cast<std::int8_t>(w);
            dir_[sp++] = 0;
          } else if (w != parent_[v] && disc_[w] < low_[v]) {
            low_[v] = disc_[w];
          }
        } else {
          --sp;
          const int p = parent_[v];
          if (p >= 0) {
            if (low_[v] < low_[p]) low_[p] = low_[v];
            size_[p] = static_cast<std::uint8_t>(size_[p] + size_[v]);
            sum_[p] = static_cast<std::int16_t>(sum_[p] + sum_[v]);
          }
        }
      }
      // Step 2. Every cell of the region: its components once removed.
      const int rsize = size_[root], rsum = sum_[root];
      for (u128 t = region; t;) {
        const int v = pop_lowest(t);
        int cs[4], cv[4], k = 0, tot = 0, totsum = 0;
        for (int d = 0; d < 4; ++d) {
          const int w = v + kOff[d];
          if (w < 0 || !((region >> w) & 1) || parent_[w] != v || low_[w] < disc_[v]) continue;
          cs[k] = size_[w], cv[k++] = sum_[w];
          tot += size_[w], totsum += sum_[w];
        }
        if (parent_[v] >= 0 && rsize - 1 - tot > 0)
          cs[k] = rsize - 1 - tot, cv[k++] = rsum - b.score[v] - totsum;
        int gain = b.score[v], captured = 0;
        if (k >= 2) {
          int largest = 0;
          for (int i = 0; i < k; ++i) largest = cs[i] > largest ? cs[i] : largest;
          for (int i = 0; i < k; ++i)
            if (cs[i] < largest) gain += cv[i], captured += cs[i];
        }
        out[n++] = MoveFacts{static_cast<std::int16_t>(gain), static_cast<std::int8_t>(v),
                             static_cast<std::int8_t>(captured)};
      }
    }
    return n;
  }

 private:
  std::array<std::int8_t, 128> parent_{}, stack_{}, dir_{};
  std::array<std::uint8_t, 128> disc_{}, low_{}, size_{};
  std::array<std::int16_t, 128> sum_{};
};

// The greedy plugin's rule, fast enough to model the greedy opponent inside a search (one
// articulation scan per position, one more per candidate tied on gain): the largest immediate
// gain (chain captures included); with reply_ties, among equal gains the move after which the
// other side's best immediate gain is smallest (0 when no ice is left); then the lowest cell.
// plugins/greedy plays exactly this rule (a test checks it against a plain flood-fill version),
// so a search that predicts greedy with it predicts it exactly.
class GreedyRule {
 public:
  // The largest immediate gain the side to move has on ice set s (0 if s is empty).
  int best_gain(const Board& b, u128 s) {
    if (!s) return 0;
    const int n = scanner_.scan(b, s, reply_.data());
    int best = reply_[0].gain;
    for (int i = 1; i < n; ++i) best = reply_[i].gain > best ? reply_[i].gain : best;
    return best;
  }

  // The greedy move on ice set s (icebreaking::kNoCell if s is empty); `gain` receives its gain.
  int move(const Board& b, u128 s, bool reply_ties, int* gain = nullptr) {
    if (!s) return icebreaking::kNoCell;
    const int n = scanner_.scan(b, s, facts_.data());
    int top = facts_[0].gain;
    for (int i = 1; i < n; ++i) top = facts_[i].gain > top ? facts_[i].gain : top;
    if (gain) *gain = top;
    // Tied cells in ascending order (the scan lists them region by region).
    int tied[icebreaking::kIce] = {};
    int captured[icebreaking::kIce] = {};
    int t = 0;
    for (int i = 0; i < n; ++i)
      if (facts_[i].gain == top) {
        int j = t++;
        for (; j > 0 && tied[j - 1] > facts_[i].cell; --j) tied[j] = tied[j - 1], captured[j] = captured[j - 1];
        tied[j] = facts_[i].cell;
        captured[j] = facts_[i].captured;
      }
    if (!reply_ties || t == 1) return tied[0];
    int best = tied[0], least = 1 << 20;
    for (int i = 0; i < t; ++i) {
      const int c = tied[i];
      const u128 cap = captured[i] ? captures(s, c) : 0;
      const int r = best_gain(b, s & ~(cap | bit128(c)));
      if (r < least) least = r, best = c;
    }
    return best;
  }

 private:
  MoveScanner scanner_;
  std::array<MoveFacts, icebreaking::kIce> facts_{}, reply_{};
};

// The value of the "pick from a pool" game over the cells of s: both players take the best cell
// left in turn (optimal when nothing is ever captured), seen from the side to move. With the
// cells sorted best first that is v0 - v1 + v2 - ...; only the counts per score are needed.
inline int alternating_sum(const Board& b, u128 s) {
  const int n2 = popcount(s & b.plus2), n1 = popcount(s & b.plus1);
  const int m1 = popcount(s & b.minus1), m2 = popcount(s & b.minus2);
  const int n0 = popcount(s) - n2 - n1 - m1 - m2;
  // Each class adds its value once if its count is odd, with the sign of the position where it
  // starts (even position: the side to move takes it).
  int v = 0, idx = 0;
  const int counts[5] = {n2, n1, n0, m1, m2}, values[5] = {2, 1, 0, -1, -2};
  for (int k = 0; k < 5; ++k) {
    if (counts[k] & 1) v += (idx & 1) ? -values[k] : values[k];
    idx += counts[k];
  }
  return v;
}

// The same game over the cells worth something (score > 0) only: both players grab those first,
// the rest is taken late and mostly in captures, so its parity is too uncertain to count.
inline int alternating_plus(const Board& b, u128 s) {
  const int n2 = popcount(s & b.plus2), n1 = popcount(s & b.plus1);
  return (n2 & 1) * 2 + (n1 & 1) * ((n2 & 1) ? -1 : 1);
}

}  // namespace tactica::plugins::common::ice
// ===== plugins/expectimax/ice_search.hpp (continued) =====

namespace tactica::plugins::expectimax {

struct IceParams {
  int tt_mb = 32;        // transposition table size in MiB (rounded down to a power of two)
  int qdepth = 0;        // plies of capture-only quiescence at the horizon (0: plain eval)
  int solve_at = 16;     // with this many ice cells or fewer, search straight to the end
  int aspiration = 0;    // half-width of the aspiration window in points (0: full window)
  bool pvs = true;       // principal variation search (null windows after the first move)
  double iter_start = 0.6;  // start another iteration only before this fraction of the soft time
  double time_scale = 1.0;  // the soft time counted as this multiple of the host's (never past
                            // the hard limit): the host expects (ice + 1) / 2 more moves of
                            // ours, but captures end games sooner, so its share is cautious
  // Evaluation weights (points per unit): see common/icebreaking_eval.hpp.
  double w_pool = 0.0;    // the alternating sum of the cells left ("pick from a pool" value)
  double w_threat = 0.0;  // the best capture now available to the side to move
  double w_plus = 0.0;    // the alternating sum of the positive cells left
  double w_tempo = 0.5;   // the best immediate gain of the side to move (odd/even smoothing)
  double w_alt = 0.0;     // the alternating sum g1 - g2 + g3 ... of the alt_k best move gains
  int alt_k = 2;          // (both sides taking the best move left in turn, interactions ignored)
};

class IceSearch {
 public:
  static constexpr int kUnit = 8;  // value units per point
  static constexpr int kInf = 30000;
  static constexpr int kMaxPly = 80;

  explicit IceSearch(const IceParams& p);

  void new_game(const icebreaking::Board& b);

  struct Result {
    int move = icebreaking::kNoCell;
    int value = 0;  // in kUnit per point, for the side to move, of the rest of the game
    int depth = 0;  // last completed depth
    bool exact = false;
    std::uint64_t nodes = 0;
  };
  // Iterative deepening from the ice set `ice` (side to move = the caller, ahead by `margin`
  // points) within the limits. Publishes the best move after every completed iteration (and on
  // a new best within one). With at most solve_at cells left it first solves win/draw/loss.
  Result run(u128 ice, int margin, const SearchLimits& limits, BestMove* best);

  // The exact value of the rest of the game (for tests): a full-depth search with no limits.
  int exact_value(u128 ice);

  // The static evaluation (kUnit per point) of an ice set, side to move's view.
  int evaluate(u128 ice);

 private:
  // 16 bytes. The ice set is stored whole (bits 0..63 in lo, 64..88 in the low 25 bits of
  // hi_move), so a hit is never a collision; the empty set is never probed, so zeros mark a free
  // slot. depth_bound = depth << 2 | bound, depth 63 meaning exact to the end.
  struct TTEntry {
    std::uint64_t lo = 0;
    std::uint32_t hi_move = 0;  // bits 25..31: best move + 1 (0: none)
    std::int16_t value = 0;
    std::uint8_t depth_bound = 0;
    std::uint8_t age = 0;  // the search (root) that stored it, for replacement
  };
  struct Gen {
    int score;  // ordering key
    std::int16_t gain;  // kUnit per point
    std::int8_t cell;
    std::int8_t captured;  // cells captured (their set is found only when the move is searched)
  };
  enum Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

  int negamax(u128 ice, std::uint64_t key, int depth, int alpha, int beta, int ply);
  int qsearch(u128 ice, int alpha, int beta, int qd);
  int generate(u128 ice, Gen* out);
  int root_iteration(u128 s, std::uint64_t key, Gen* moves, int count, int depth, int lo, int hi,
                     int& best_i, BestMove* publish);
  std::uint64_t key_of(u128 s) const;
  void check_limits();

  const TTEntry* probe(u128 ice, std::uint64_t key) const;
  void store(u128 ice, std::uint64_t key, int depth, int value, Bound b, int move);
  static constexpr int kExactDepth = 63;

  IceParams p_;
  common::ice::MoveScanner scanner_;
  std::array<common::ice::MoveFacts, icebreaking::kIce> facts_{};
  icebreaking::Board board_;
  std::vector<TTEntry> tt_;
  std::uint8_t age_ = 0;
  std::uint64_t tt_mask_ = 0;
  std::array<std::uint64_t, 128> zob_{};
  std::array<int, 128> history_{};
  std::array<std::array<std::int8_t, 2>, kMaxPly + 1> killers_{};
  std::vector<std::array<Gen, icebreaking::kIce>> stack_;  // move lists per ply
  std::uint64_t nodes_ = 0, budget_ = 0;
  const Deadline* deadline_ = nullptr;
  bool stop_ = false;
  int w_pool_ = 0, w_threat_ = 0, w_plus_ = 0, w_tempo_ = 0, w_alt_ = 0;  // weights in kUnit / 8 steps
};

}  // namespace tactica::plugins::expectimax
// ===== plugins/expectimax/ice_search.cpp (continued) =====



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
// ===== plugins/expectimax/icebreaking.cpp =====
// The expectimax plugin's Icebreaking strategy: alpha-beta (IceSearch) against an opponent we
// know nothing about, and a beam search against the greedy model (common::ice::ModelBeam) once
// the opponent has shown it plays greedy.
//
// Opponent modelling: every opponent move is compared with the greedy rule's move in the position
// it was made from (common::ice::GreedyRule, both tie rules). While every one of at least
// `model_after` moves matched a rule, the opponent is taken to be that deterministic policy, and
// the best plan against it is found by searching our own move sequences with its replies
// predicted (a minimax search would assume a stronger opponent than the one we face and settle
// for draws it could win). One move that does not match switches to alpha-beta for the rest of
// the game; so does any doubt about our record of the game.

// ===== plugins/common/icebreaking_beam.hpp =====
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
  // the best cell in turn (common/icebreaking_eval.hpp), from our side.
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
// ===== plugins/expectimax/icebreaking.cpp (continued) =====

namespace tactica::plugins::expectimax {

namespace {

IceParams ice_params(const Params& p) {
  IceParams q;
  q.tt_mb = static_cast<int>(p.integer("tt_mb"));
  q.qdepth = static_cast<int>(p.integer("qdepth"));
  q.solve_at = static_cast<int>(p.integer("solve_at"));
  q.aspiration = static_cast<int>(p.integer("aspiration"));
  q.pvs = p.boolean("pvs");
  q.iter_start = p.real("iter_start");
  q.time_scale = p.real("time_scale");
  q.w_pool = p.real("w_pool");
  q.w_threat = p.real("w_threat");
  q.w_plus = p.real("w_plus");
  q.w_tempo = p.real("w_tempo");
  q.w_alt = p.real("w_alt");
  q.alt_k = static_cast<int>(p.integer("alt_k"));
  return q;
}

common::ice::ModelBeamConfig beam_config(const Params& p) {
  common::ice::ModelBeamConfig c;
  c.width = static_cast<int>(p.integer("model_width"));
  c.max_width = std::max(c.width, static_cast<int>(p.integer("model_max_width")));
  return c;
}

class IceStrategy final : public IcebreakingStrategy {
 public:
  explicit IceStrategy(const Params& p)
      : search_(ice_params(p)),
        model_after_(p.boolean("model") ? static_cast<int>(p.integer("model_after")) : -1),
        beam_cfg_(beam_config(p)) {}

  void new_game(const icebreaking::Board& b, icebreaking::Player me, std::uint64_t) override {
    board_ = b;
    search_.new_game(b);
    reset_model(b);
    me_ = me;
  }

  void observe(const icebreaking::Position& after, int cell) override {
    if (model_after_ < 0) return;
    if (tracking_ && record_.to_move != me_ && record_.legal(cell)) {
      ++opp_moves_;
      if (greedy_[0] && rule_.move(board_, record_.ice, false) != cell) greedy_[0] = false;
      if (greedy_[1] && rule_.move(board_, record_.ice, true) != cell) greedy_[1] = false;
    }
    record_ = after;
  }

  int choose(const icebreaking::Board& b, const icebreaking::Position& pos,
             const SearchLimits& limits, BestMove& best) override {
    if (!(b == board_)) {  // a caller that skipped new_game: start a fresh table for this board
      board_ = b;
      search_.new_game(b);
      reset_model(b);
      tracking_ = false;
    }
    me_ = pos.to_move;
    if (!(pos == record_)) tracking_ = false;  // observe() missed a move: no model from here on
    if (model_after_ >= 0 && tracking_ && opp_moves_ >= model_after_ && (greedy_[0] || greedy_[1])) {
      // Both rules agree on every move so far: the default greedy (reply ties) is the likelier.
      beam_cfg_.reply_ties = greedy_[1];
      if (!beam_ || beam_ties_ != beam_cfg_.reply_ties) {
        beam_ = std::make_unique<common::ice::ModelBeam>(beam_cfg_);
        beam_ties_ = beam_cfg_.reply_ties;
      }
      const int c = beam_->choose(b, pos, limits, best);
      stats_ = beam_->stats();
      return c;
    }
    const auto r = search_.run(pos.ice, pos.margin(), limits, &best);
    stats_.nodes = r.nodes;
    stats_.depth = r.depth;
    stats_.value = static_cast<double>(r.value) / IceSearch::kUnit;
    return r.move;
  }
  SearchStats stats() const override { return stats_; }

 private:
  void reset_model(const icebreaking::Board& b) {
    record_ = icebreaking::Position::start(b);
    tracking_ = true;
    opp_moves_ = 0;
    greedy_[0] = greedy_[1] = true;
  }

  IceSearch search_;
  icebreaking::Board board_;
  SearchStats stats_;
  // The opponent model.
  int model_after_;                      // opponent moves to see before trusting it (-1: off)
  common::ice::ModelBeamConfig beam_cfg_;
  std::unique_ptr<common::ice::ModelBeam> beam_;  // made on first use (it preallocates)
  bool beam_ties_ = false;
  common::ice::GreedyRule rule_;
  icebreaking::Position record_;         // the game as observe() told it
  icebreaking::Player me_ = icebreaking::A;
  bool tracking_ = false;                // record_ is the real game since its start
  int opp_moves_ = 0;                    // opponent moves compared with the rules
  bool greedy_[2] = {true, true};        // every one matched greedy without / with reply ties
};

}  // namespace

std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params& p) {
  return std::make_unique<IceStrategy>(p);
}

}  // namespace tactica::plugins::expectimax
// ===== core/include/tactica/session.hpp =====
// session.hpp — the protocol loops: one Session per game reads the judge's lines, keeps the game
// with the core rules, asks the strategy for a move under the time bank, and writes the reply.
// The same code runs in tactica-agent (strategy from a plugin) and in a fused main.cpp.
//
// What a Session guarantees, whatever the strategy does:
//   * stdout carries protocol lines only, each written with one write() and so flushed at once;
//     diagnostics go to stderr (bounded in volume, so an undrained pipe cannot block us);
//   * every TURN gets a legal move (legal in the Session's own record of the game) before the
//     time manager's limit: a cheap fallback move is computed before the strategy is asked, the
//     strategy runs on a worker thread, and the Session sleeps on a condition variable until the
//     strategy returns or the limit passes. A strategy that throws, returns an illegal move or
//     overruns is answered for with its published best-so-far move if legal, else the fallback;
//   * a strategy that overran and is still running is never called again concurrently: the
//     fallback answers until it returns. Under a CPU cap (Icebreaking) such a runaway may use up
//     the usable CPU time but never the reserve: the Session then parks its thread for good
//     (a thread-directed signal whose handler sleeps) and plays the fallback to the end;
//   * judge input is cross-checked and never trusted blindly: malformed lines, unknown
//     commands and impossible moves are reported on stderr and play goes on where possible;
//   * end of input (and Icebreaking's FINISH) ends the run with status 0. If a strategy never
//     returns, the strategy object cannot be destroyed safely, so run() ends the process with
//     std::_Exit(0) instead of returning (all output is unbuffered by then).
//
// Standard library and POSIX only: this header goes into fused submissions.



// ===== core/include/tactica/protocol.hpp =====
// protocol.hpp — the judge protocol of both games in one place: every command's spelling, the
// tolerant parsing of judge lines and the formatting of replies (see docs/PROTOCOL.md and the
// "Decisions" tables of shared/spec/*.md). Changing a command's spelling is one edit below.
//
// Parsing never throws and never rejects a whole line for a detail: it returns what it could
// read plus a list of problems, and the Session decides what to do (report on stderr, keep
// playing). Lines may carry trailing spaces, tabs and a CR (CRLF line ends); tokens are
// separated by any run of spaces or tabs.
//
// Standard library only: this header goes into fused submissions.



namespace tactica::protocol {

// ---- spellings --------------------------------------------------------------------------------

namespace words {
// Hanpang
inline constexpr std::string_view kStart = "START";  // judge: the run begins
inline constexpr std::string_view kReady = "READY";  // agent: answer to START / judge: side
inline constexpr std::string_view kTurn = "TURN";    // judge: your move
inline constexpr std::string_view kPang = "PANG";    // agent: the chosen cell (Hanpang)
// Icebreaking (kReady and kTurn are shared)
inline constexpr std::string_view kFirst = "FIRST";    // READY FIRST: we play first (player a)
inline constexpr std::string_view kSecond = "SECOND";  // READY SECOND: we play second (player b)
inline constexpr std::string_view kOk = "OK";          // agent: answer to READY
inline constexpr std::string_view kMove = "MOVE";      // agent: the chosen cell (Icebreaking)
inline constexpr std::string_view kOpp = "OPP";        // judge: the opponent's move
inline constexpr std::string_view kFinish = "FINISH";  // judge: the game is over
inline constexpr std::string_view kHole = "#";         // board token of a hole
}  // namespace words

// Lines longer than this are cut (the rest up to the newline is skipped) and reported; the
// longest valid judge line is a board line of under 40 characters.
inline constexpr std::size_t kMaxLine = 4096;
// A problem report quotes at most this many characters of a token.
inline constexpr std::size_t kQuote = 24;

// ---- tokens and numbers ---------------------------------------------------------------------

// The whitespace-separated tokens of a line (space, tab, CR, and stray control bytes count as
// separators). At most kMaxTokens are kept; `extra` counts the rest.
struct Tokens {
  static constexpr int kMaxTokens = 12;
  std::array<std::string_view, kMaxTokens> items{};
  int count = 0;
  int extra = 0;
  std::string_view operator[](int i) const { return items[i]; }
  bool empty() const { return count == 0; }
};

inline Tokens split(std::string_view line) {
  Tokens t;
  std::size_t i = 0;
  const auto is_space = [](char ch) {
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f' ||
           ch == '\0';
  };
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (t.count < Tokens::kMaxTokens)
      t.items[t.count++] = line.substr(start, i - start);
    else
      ++t.extra;
  }
  return t;
}

// A token as it may appear in a report: cut to kQuote characters, control bytes shown as '?'.
inline std::string quote(std::string_view tok) {
  std::string s;
  for (std::size_t i = 0; i < tok.size() && i < kQuote; ++i) {
    const auto ch = static_cast<unsigned char>(tok[i]);
    s += (ch < 0x20 || ch >= 0x7F) ? '?' : static_cast<char>(ch);
  }
  if (tok.size() > kQuote) s += "...";
  return "'" + s + "'";
}

// Parses a decimal integer in [lo, hi] (an optional leading '-' only if lo < 0). On failure
// returns nullopt and, if `why` is given, appends a reason naming `what`.
inline std::optional<std::int64_t> parse_int(std::string_view tok, std::int64_t lo, std::int64_t hi,
                                             std::string_view what, std::vector<std::string>* why) {
  const auto fail = [&](const std::string& reason) -> std::optional<std::int64_t> {
    if (why) why->push_back(std::string(what) + " " + quote(tok) + " " + reason);
    return std::nullopt;
  };
  std::size_t i = 0;
  bool negative = false;
  if (!tok.empty() && tok[0] == '-' && lo < 0) negative = true, i = 1;
  if (i >= tok.size()) return fail("is not a number");
  // Accumulate the magnitude with a saturation flag, so any length of digits is safe.
  std::uint64_t v = 0;
  bool big = false;
  for (; i < tok.size(); ++i) {
    const char ch = tok[i];
    if (ch < '0' || ch > '9') return fail("is not a number");
    const auto d = static_cast<std::uint64_t>(ch - '0');
    if (v > (UINT64_MAX - d) / 10)
      big = true;
    else
      v = v * 10 + d;
  }
  const auto range = "is out of range " + std::to_string(lo) + ".." + std::to_string(hi);
  if (big || v > static_cast<std::uint64_t>(INT64_MAX)) return fail(range);
  const std::int64_t x = negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  if (x < lo || x > hi) return fail(range);
  return x;
}

// ---- Hanpang ----------------------------------------------------------------------------------

namespace hanpang_io {

enum class Kind { blank, start, turn, unknown };

struct Command {
  Kind kind = Kind::blank;
  std::string_view word;                     // the command word as read (for reports)
  std::optional<std::int64_t> remaining_ms;  // TURN: the bank left, if readable
  std::optional<hanpang::Row> row;           // TURN: the new row, if well formed
  std::string row_text;                      // TURN: the row token as read ("" if none)
  std::vector<std::string> problems;         // what was wrong with the line (empty: nothing)
};

// True if `tok` is a well-formed new row: exactly 8 characters from '1'..'3'.
inline bool is_row(std::string_view tok) { return hanpang::Row::parse(tok).has_value(); }

// Parses one judge line. `bank_ms` is the largest remaining_ms accepted (the platform's bank).
// TURN takes its two arguments in either order: the row is the token of 8 characters from
// 1..3, the bank the other one.
inline Command parse(std::string_view line, std::int64_t bank_ms = 5000) {
  Command cmd;
  const Tokens t = split(line);
  if (t.empty()) return cmd;
  cmd.word = t[0];
  if (t[0] == words::kStart) {
    cmd.kind = Kind::start;
    if (t.count > 1 || t.extra) cmd.problems.push_back("START takes no arguments; extra ignored");
    return cmd;
  }
  if (t[0] != words::kTurn) {
    cmd.kind = Kind::unknown;
    return cmd;
  }
  cmd.kind = Kind::turn;
  const int args = t.count - 1;
  std::string_view time_tok, row_tok;
  bool have_time = false, have_row = false;
  if (args >= 2) {
    // Which one is the row? A well-formed row wins; otherwise a token that is not a valid bank
    // (digits 0..bank_ms) is taken for the row; otherwise the table's order (bank first).
    const std::string_view a = t[1], b = t[2];
    const bool a_time = parse_int(a, 0, bank_ms, "", nullptr).has_value();
    bool swap = false;
    if (is_row(a) && !is_row(b))
      swap = true;
    else if (!is_row(a) && !is_row(b) && a_time == false &&
             parse_int(b, 0, bank_ms, "", nullptr).has_value())
      swap = true;
    time_tok = swap ? b : a;
    row_tok = swap ? a : b;
    have_time = have_row = true;
    if (args > 2 || t.extra) cmd.problems.push_back("TURN takes two arguments; extra ignored");
  } else if (args == 1) {
    if (is_row(t[1]) || !parse_int(t[1], 0, bank_ms, "", nullptr)) {
      row_tok = t[1], have_row = true;
      cmd.problems.push_back("TURN without remaining_ms");
    } else {
      time_tok = t[1], have_time = true;
      cmd.problems.push_back("TURN without new_row");
    }
  } else {
    cmd.problems.push_back("TURN without remaining_ms and new_row");
  }
  if (have_time) cmd.remaining_ms = parse_int(time_tok, 0, bank_ms, "remaining_ms", &cmd.problems);
  if (have_row) {
    cmd.row_text = std::string(row_tok.substr(0, 64));
    cmd.row = hanpang::Row::parse(row_tok);
    if (!cmd.row)
      cmd.problems.push_back("new_row " + quote(row_tok) + " is not 8 characters from 1..3 (" +
                             std::to_string(row_tok.size()) + " characters)");
  }
  return cmd;
}

// The best guess at a malformed row, so the local board keeps its shape: the first 8 characters,
// any that is not 1..3 (or missing) read as 1. Only occupancy is sure to match the judge's board.
inline hanpang::Row guess_row(std::string_view text) {
  hanpang::Row r;
  for (int c = 0; c < hanpang::kCols; ++c) {
    const char ch = c < static_cast<int>(text.size()) ? text[c] : '1';
    r.colour[c] = static_cast<std::uint8_t>(ch >= '1' && ch <= '3' ? ch - '0' : 1);
  }
  return r;
}

inline std::string ready() { return std::string(words::kReady); }
// "PANG row col", 1-based protocol coordinates of a hanpang::cell.
inline std::string pang(int cell) {
  return std::string(words::kPang) + ' ' + std::to_string(hanpang::protocol_row(cell)) + ' ' +
         std::to_string(hanpang::protocol_col(cell));
}

}  // namespace hanpang_io

// ---- Icebreaking ------------------------------------------------------------------------------

namespace icebreaking_io {

enum class Kind { blank, board_line, ready, turn, opp, finish, unknown };
enum class Side { unknown, first, second };

struct Command {
  Kind kind = Kind::blank;
  std::string_view word;
  Side side = Side::unknown;             // READY
  std::optional<std::int64_t> my_time;   // TURN
  std::optional<std::int64_t> opp_time;  // TURN
  std::optional<int> cell;               // OPP: icebreaking::cell(r, c), if in range
  std::optional<std::int64_t> time;      // OPP
  std::vector<std::string> problems;
};

// One cell of a board line as read: a hole, ice with a score, or unreadable.
struct BoardToken {
  enum Kind : std::uint8_t { hole, ice, unknown } kind = unknown;
  int score = 0;
};
struct BoardLine {
  std::array<BoardToken, icebreaking::kSize> cells{};  // missing tokens stay `unknown`
  std::vector<std::string> problems;
};

// A board line starts with '#', a digit or a sign; a command starts with a letter.
inline bool looks_like_board_line(const Tokens& t) {
  if (t.empty()) return false;
  const char ch = t[0][0];
  return ch == '#' || ch == '-' || ch == '+' || (ch >= '0' && ch <= '9');
}

inline BoardLine parse_board_line(std::string_view line) {
  BoardLine out;
  const Tokens t = split(line);
  const int n = t.count + t.extra;
  for (int c = 0; c < icebreaking::kSize && c < t.count; ++c) {
    const std::string_view tok = t[c];
    BoardToken& cell = out.cells[c];
    if (tok == words::kHole) {
      cell.kind = BoardToken::hole;
    } else if (tok == "-2" || tok == "-1" || tok == "0" || tok == "1" || tok == "2" ||
               tok == "+1" || tok == "+2" || tok == "-0" || tok == "+0") {
      cell.kind = BoardToken::ice;
      cell.score = (tok.back() - '0') * (tok[0] == '-' ? -1 : 1);
    } else {
      out.problems.push_back("token " + std::to_string(c + 1) + " " + quote(tok) +
                             " is neither '#' nor an integer -2..2 (treated as a hole)");
    }
  }
  if (n < icebreaking::kSize)
    out.problems.push_back("expected 9 tokens, found " + std::to_string(n) +
                           " (missing cells treated as holes)");
  else if (n > icebreaking::kSize)
    out.problems.push_back("expected 9 tokens, found " + std::to_string(n) + " (extra ignored)");
  return out;
}

// Parses one judge line; board lines are recognised by their first character (the Session
// decides whether a board line is expected). `bank_ms` bounds my_time and opp_time.
inline Command parse(std::string_view line, std::int64_t bank_ms = 5000) {
  Command cmd;
  const Tokens t = split(line);
  if (t.empty()) return cmd;
  cmd.word = t[0];
  const int args = t.count - 1;
  const auto extra = [&](int expected, std::string_view what) {
    if (args > expected || t.extra)
      cmd.problems.push_back(std::string(what) + " takes " + std::to_string(expected) +
                             " argument" + (expected == 1 ? "" : "s") + "; extra ignored");
  };
  if (looks_like_board_line(t)) {
    cmd.kind = Kind::board_line;
  } else if (t[0] == words::kReady) {
    cmd.kind = Kind::ready;
    if (args >= 1) {
      if (t[1] == words::kFirst)
        cmd.side = Side::first;
      else if (t[1] == words::kSecond)
        cmd.side = Side::second;
      else
        cmd.problems.push_back("READY side " + quote(t[1]) +
                               " is neither FIRST nor SECOND (treated as a bare READY)");
    }
    extra(1, "READY");
  } else if (t[0] == words::kTurn) {
    cmd.kind = Kind::turn;
    if (args >= 1) cmd.my_time = parse_int(t[1], 0, bank_ms, "my_time", &cmd.problems);
    if (args >= 2) cmd.opp_time = parse_int(t[2], 0, bank_ms, "opp_time", &cmd.problems);
    if (args < 2) cmd.problems.push_back("TURN without my_time and opp_time");
    extra(2, "TURN");
  } else if (t[0] == words::kOpp) {
    cmd.kind = Kind::opp;
    if (args >= 2) {
      const auto r = parse_int(t[1], 0, icebreaking::kSize - 1, "row", &cmd.problems);
      const auto c = parse_int(t[2], 0, icebreaking::kSize - 1, "column", &cmd.problems);
      if (r && c) cmd.cell = icebreaking::cell(static_cast<int>(*r), static_cast<int>(*c));
    } else {
      cmd.problems.push_back("OPP without a row and a column");
    }
    if (args >= 3)
      cmd.time = parse_int(t[3], 0, INT64_C(1) << 40, "time", &cmd.problems);
    else if (args == 2)
      cmd.problems.push_back("OPP without its time");
    extra(3, "OPP");
  } else if (t[0] == words::kFinish) {
    cmd.kind = Kind::finish;
    extra(0, "FINISH");
  } else {
    cmd.kind = Kind::unknown;
  }
  return cmd;
}

inline std::string ok() { return std::string(words::kOk); }
// "MOVE r c", 0-based protocol coordinates of an icebreaking::cell.
inline std::string move(int cell) {
  return std::string(words::kMove) + ' ' + std::to_string(icebreaking::row_of(cell)) + ' ' +
         std::to_string(icebreaking::col_of(cell));
}

}  // namespace icebreaking_io

}  // namespace tactica::protocol
// ===== core/include/tactica/session.hpp (continued) =====
// ===== core/include/tactica/timebank.hpp =====
// timebank.hpp — how much of the bank one move may spend, and the clocks it is measured with.
//
// The promise
// -----------
// The platform gives each player one bank (5,000 ms) for all its replies together, measured by
// the judge from writing a command to reading our answer, so the bank includes our pipe latency;
// Icebreaking also caps the CPU time of the whole process life at 5,000 ms. Running out of
// either loses (Hanpang: the run ends and later points are lost). The TimeManager below turns
// "what is left" into two numbers per move, in the style of Stockfish's TimeManagement:
//
//   mtg      = the replies still expected, this one included (at least 1);
//   usable   = left - reserve_ms - mtg * move_overhead_ms   (never below 0);
//   optimum  = usable / mtg                                 the planned time: an even share;
//   safe     = usable - (mtg - 1) * optimum / 2             the most this move may take while
//                                                           every later move keeps at least half
//                                                           of today's share;
//   maximum  = min(kMaxRatio * optimum, safe, max_move_ms)  the hard limit of this move.
//
// The Session hands the strategy a Deadline with soft = optimum ("do not start another
// iteration") and hard slightly before maximum ("return now"), and its own watchdog answers at
// maximum whatever the strategy does. With [time] node_budget > 0 the strategy gets no clock at
// all (Deadline::never(), so its play is reproducible) and the watchdog waits up to `safe`
// instead of `maximum`: a budget that fits the bank plays deterministically, one that does not
// is cut off before it can lose the game on time.
//
// Because every reply is written within maximum <= usable of the moment its command arrived,
// the bank never drops below reserve_ms plus one move_overhead_ms per remaining reply, as long
// as a round trip through the pipes costs at most move_overhead_ms beyond what we measure. Each
// move re-plans from the judge's own figure (remaining_ms / my_time), so latency we did not
// foresee is charged to later moves instead of accumulating. When usable is 0 the Session does
// not ask the strategy at all and answers its cheap fallback move at once.
//
// Standard library and POSIX only: this header goes into fused submissions.



namespace tactica {

// The [time] section of a config. Every field is documented in docs/CONFIG.md.
struct TimeConfig {
  std::int64_t reserve_ms = 300;      // never planned for: start-up, latency spikes, safety
  std::int64_t move_overhead_ms = 2;  // per reply: pipe latency and the Session's own work
  std::int64_t max_move_ms = 0;       // cap on one move's maximum (0: no cap; clock mode only)
  std::uint64_t node_budget = 0;      // >0: strategies search this many nodes, no clock
  std::int64_t bank_ms = 5000;        // the platform's wall bank (before the judge reports one)
  std::int64_t cpu_cap_ms = 5000;     // Icebreaking: the CPU cap over the process life
};

class TimeManager {
 public:
  // Hard limit as a multiple of the even share: room to finish an iteration started late.
  static constexpr double kMaxRatio = 3.0;

  // left_ms: the bank left now; moves_to_go: replies still expected, this one included.
  void init(double left_ms, int moves_to_go, const TimeConfig& cfg) {
    const int mtg = std::max(1, moves_to_go);
    usable_ =
        std::max(0.0, left_ms - static_cast<double>(cfg.reserve_ms) -
                          static_cast<double>(mtg) * static_cast<double>(cfg.move_overhead_ms));
    optimum_ = usable_ / mtg;
    safe_ = std::max(0.0, usable_ - (mtg - 1) * optimum_ / 2);
    maximum_ = std::min(kMaxRatio * optimum_, safe_);
    if (cfg.max_move_ms > 0) maximum_ = std::min(maximum_, static_cast<double>(cfg.max_move_ms));
    optimum_ = std::min(optimum_, maximum_);
    budget_mode_ = cfg.node_budget > 0;
  }

  double usable() const { return usable_; }
  double optimum() const { return optimum_; }
  double maximum() const { return maximum_; }
  double safe() const { return safe_; }
  // When the Session's watchdog answers, counted from the command's arrival.
  double watchdog() const { return budget_mode_ ? safe_ : maximum_; }
  bool budget_mode() const { return budget_mode_; }

 private:
  double usable_ = 0, optimum_ = 0, safe_ = 0, maximum_ = 0;
  bool budget_mode_ = false;
};

// CPU time of the whole process (every thread) in milliseconds: what the Icebreaking cap counts.
inline double process_cpu_ms() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0.0;
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Milliseconds between two steady_clock points, as a double.
inline double ms_between(std::chrono::steady_clock::time_point a,
                         std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace tactica
// ===== core/include/tactica/session.hpp (continued) =====

namespace tactica {

struct SessionOptions {
  TimeConfig time;
  std::uint64_t seed = 1;
  bool verbose = false;  // one stderr line per move
  // false: call the strategy on the Session's own thread, without a watchdog (also what happens
  // when no thread can be started, e.g. an old C library without -pthread).
  bool worker_thread = true;
  std::string banner;  // printed to stderr when the run starts (empty: none)
  int in_fd = 0, out_fd = 1, err_fd = 2;
};

// The Icebreaking fallback: the empty ice cell with the best immediate gain (its score plus
// what it captures), ties to the lowest cell; kNoCell when no ice is left.
inline int icebreaking_fallback_move(const icebreaking::Board& board,
                                     const icebreaking::Position& pos) {
  int best = icebreaking::kNoCell, best_gain = 0;
  for (u128 s = pos.ice; s;) {
    const int c = pop_lowest(s);
    const int gain = board.score[c] + board.sum(pos.captures(c));
    if (best == icebreaking::kNoCell || gain > best_gain) best = c, best_gain = gain;
  }
  return best;
}

// A Hanpang move that is legal on the judge's board even if our record of the colours is wrong:
// right after a row is pushed the bottom row is full, so a bottom cell always holds a tile.
// Takes the bottom cell whose group (in our record) is largest.
inline int hanpang_bottom_move(const hanpang::State& s) {
  int best = hanpang::cell(0, 0), best_size = -1;
  for (int col = 0; col < hanpang::kCols; ++col) {
    const int size = popcount(s.group_at(hanpang::cell(col, 0)));
    if (size > best_size) best = hanpang::cell(col, 0), best_size = size;
  }
  return best;
}

namespace detail {

using Clock = std::chrono::steady_clock;

// ---- parking a runaway strategy thread --------------------------------------------------------
// Set by the worker thread around strategy calls; read by the signal handler on that same
// thread, so the handler parks only inside strategy code (never while the worker holds the
// Session's mutex).
inline thread_local volatile std::sig_atomic_t t_in_strategy = 0;
inline thread_local std::atomic<bool>* t_parked = nullptr;

inline void park_handler(int) {
  if (!t_in_strategy) return;
  if (t_parked) t_parked->store(true);
  for (;;) pause();
}
inline int park_signal() { return SIGRTMIN + 4; }
inline bool install_park_handler() {
  static const bool ok = [] {
    struct sigaction sa {};
    sa.sa_handler = park_handler;
    sigemptyset(&sa.sa_mask);
    return sigaction(park_signal(), &sa, nullptr) == 0;
  }();
  return ok;
}

// ---- lines from a file descriptor ---------------------------------------------------------------

class LineReader {
 public:
  enum class Status { line, eof, timeout };
  explicit LineReader(int fd) : fd_(fd) {}

  // The next line without its '\n' (a last line without one counts). `cut` is set when the line
  // was longer than protocol::kMaxLine (only its beginning is kept). timeout_ms < 0 waits for
  // ever; `arrived` is when the read that brought the line returned.
  Status next(std::string& line, bool& cut, Clock::time_point& arrived, int timeout_ms) {
    for (;;) {
      const auto nl = pending_.find('\n');
      if (nl != std::string::npos) {
        cut = cut_ || nl > protocol::kMaxLine;
        line.assign(pending_, 0, std::min(nl, protocol::kMaxLine));
        pending_.erase(0, nl + 1);
        cut_ = false;
        arrived = read_at_;
        return Status::line;
      }
      if (pending_.size() > protocol::kMaxLine) pending_.resize(protocol::kMaxLine), cut_ = true;
      if (eof_) {
        if (pending_.empty() && !cut_) return Status::eof;
        line.swap(pending_);
        pending_.clear();
        cut = cut_;
        cut_ = false;
        arrived = read_at_;
        return Status::line;
      }
      if (timeout_ms >= 0) {
        pollfd p{fd_, POLLIN, 0};
        const int r = ::poll(&p, 1, timeout_ms);
        if (r == 0) return Status::timeout;
        if (r < 0 && errno == EINTR) continue;
      }
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      read_at_ = Clock::now();
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  int fd_;
  std::string pending_;
  bool cut_ = false, eof_ = false;
  Clock::time_point read_at_ = Clock::now();
};

// Writes all of `s` with as few write() calls as the pipe allows; false if the reader is gone.
inline bool write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// ---- the worker thread that owns every strategy call ---------------------------------------

// One call into the strategy (new_game, observe or choose) and what came of it.
struct Job {
  explicit Job(const char* w) : what(w) {}
  const char* what;
  BestMove best;                  // choose: published by the search while it runs
  std::atomic<bool> stop{false};  // raised by the Session: stop now (or do not start)
  // Written by the worker before `done` is set under the Worker's mutex.
  bool done = false;
  bool skipped = false;  // stopped before it started
  bool failed = false;   // threw
  std::string error;
  int result = -1;
  SearchStats stats;
  double ms = 0;  // wall time of the call
};

// A single thread that runs the strategy's calls in order, so they never overlap. It sleeps on
// a condition variable while there is nothing to do.
class Worker {
 public:
  using Task = std::function<void(Job&)>;

  explicit Worker(bool threaded) {
    if (!threaded) return;
    try {
      thread_ = std::thread([this] { loop(); });
      threaded_ = true;
    } catch (const std::system_error&) {
      threaded_ = false;  // no threads here: calls run inline
    }
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  // Only reached when the worker is idle or will be soon (see SessionCore::finish).
  ~Worker() {
    {
      std::lock_guard<std::mutex> lk(m_);
      quit_ = true;
      for (auto& q : queue_) q.first->stop.store(true);
    }
    task_cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // Queues a call; without a thread, makes it at once.
  void post(std::shared_ptr<Job> job, Task fn) {
    if (!threaded_) {
      run_one(*job, fn);
      finished(*job);
      return;
    }
    {
      std::lock_guard<std::mutex> lk(m_);
      queue_.emplace_back(std::move(job), std::move(fn));
    }
    task_cv_.notify_one();
  }

  // Sleeps until the job is done or `until` passes; true if done.
  bool wait(const Job& job, Clock::time_point until) {
    std::unique_lock<std::mutex> lk(m_);
    return done_cv_.wait_until(lk, until, [&] { return job.done; });
  }
  bool done(const Job& job) {
    std::lock_guard<std::mutex> lk(m_);
    return job.done;
  }
  bool idle() {
    std::lock_guard<std::mutex> lk(m_);
    return !running_ && queue_.empty();
  }
  bool wait_idle(Clock::time_point until) {
    std::unique_lock<std::mutex> lk(m_);
    return done_cv_.wait_until(lk, until, [&] { return !running_ && queue_.empty(); });
  }
  std::shared_ptr<Job> running() {
    std::lock_guard<std::mutex> lk(m_);
    return running_;
  }
  // Raises the stop flag of every job queued or running.
  void stop_all() {
    std::lock_guard<std::mutex> lk(m_);
    for (auto& q : queue_) q.first->stop.store(true);
    if (running_) running_->stop.store(true);
  }
  // Errors of calls nobody waited for (new_game, observe), taken once.
  std::vector<std::string> take_errors() {
    std::lock_guard<std::mutex> lk(m_);
    return std::exchange(errors_, {});
  }

  // Freezes the thread for good if it is inside strategy code; true once it is parked.
  bool park() {
    if (!install_park_handler()) return false;
    {
      std::lock_guard<std::mutex> lk(m_);
      if (!running_) return false;
      pthread_kill(thread_.native_handle(), park_signal());
    }
    const auto until = Clock::now() + std::chrono::milliseconds(100);
    while (!parked_.load() && Clock::now() < until) {
      std::unique_lock<std::mutex> lk(m_);
      if (!running_) return false;  // it left strategy code first: nothing to park
      done_cv_.wait_for(lk, std::chrono::milliseconds(1));
    }
    return parked_.load();
  }
  bool parked() const { return parked_.load(); }
  bool threaded() const { return threaded_; }

 private:
  void loop() {
    t_parked = &parked_;
    std::unique_lock<std::mutex> lk(m_);
    for (;;) {
      task_cv_.wait(lk, [&] { return quit_ || !queue_.empty(); });
      if (quit_) return;
      auto [job, fn] = std::move(queue_.front());
      queue_.pop_front();
      running_ = job;
      lk.unlock();
      run_one(*job, fn);
      fn = nullptr;  // drop the task's copies outside the lock
      lk.lock();
      finished(*job);
      running_.reset();
      done_cv_.notify_all();
    }
  }

  // Marks a call done (under the mutex when threaded) and keeps errors nobody waits for.
  void finished(Job& job) {
    if (job.failed && std::string_view(job.what) != "choose")
      errors_.push_back(std::string(job.what) + " threw: " + job.error);
    job.done = true;
  }

  static void run_one(Job& job, Task& fn) {
    if (job.stop.load()) {
      job.skipped = true;
      return;
    }
    const auto t0 = Clock::now();
    t_in_strategy = 1;
    try {
      fn(job);
      t_in_strategy = 0;
    } catch (const std::exception& e) {
      t_in_strategy = 0;
      job.failed = true;
      job.error = e.what();
    } catch (...) {
      t_in_strategy = 0;
      job.failed = true;
      job.error = "an exception not derived from std::exception";
    }
    job.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }

  std::mutex m_;
  std::condition_variable task_cv_, done_cv_;
  std::deque<std::pair<std::shared_ptr<Job>, Task>> queue_;
  std::shared_ptr<Job> running_;
  std::vector<std::string> errors_;
  bool quit_ = false;
  bool threaded_ = false;
  std::atomic<bool> parked_{false};
  std::thread thread_;  // started last, once everything above exists
};

// ---- what both games share ----------------------------------------------------------------------

// How a move was chosen.
struct Decision {
  int cell = -1;
  const char* source = "fallback";  // "strategy", "best-so-far", "fallback"
  std::string problem;              // why not the strategy's own answer (empty if it was)
  bool asked = false;               // the strategy was called for this move
  SearchStats stats;
  double strategy_ms = 0;
  TimeManager tm;
  double left_ms = 0;
};

class SessionCore {
 protected:
  static constexpr int kMaxNotes = 100;  // stderr problem lines, so an undrained pipe never fills

  SessionCore(SessionOptions o, const char* game)
      : opt_(std::move(o)),
        game_(game),
        in_(opt_.in_fd),
        worker_(opt_.worker_thread),
        own_left_ms_(double(opt_.time.bank_ms)) {
    struct sigaction old {};
    if (sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
      std::signal(SIGPIPE, SIG_IGN);  // a closed stdout must end the run, not kill it
  }

  // Writes one protocol line; false if the judge is gone.
  bool send(std::string line) {
    line += '\n';
    if (!write_all(opt_.out_fd, line)) output_closed_ = true;
    return !output_closed_;
  }
  void raw_err(std::string line) {
    line += '\n';
    (void)write_all(opt_.err_fd, line);
  }
  // A problem worth knowing about, always shown (up to kMaxNotes of them).
  void note(const std::string& msg) {
    if (notes_ < kMaxNotes) raw_err("tactica: " + std::string(game_) + ": " + msg);
    if (++notes_ == kMaxNotes)
      raw_err("tactica: " + std::string(game_) + ": further notes suppressed");
  }
  void line_note(const std::string& msg) { note("line " + std::to_string(line_no_) + ": " + msg); }
  void report_worker_errors() {
    for (const auto& e : worker_.take_errors()) note("strategy " + e);
  }

  // The next judge line. While a runaway strategy burns CPU under a cap, waits in slices and
  // parks it before it eats into the reserve.
  LineReader::Status next_line(std::string& line, bool& cut, Clock::time_point& arrived) {
    for (;;) {
      const int timeout = runaway_cpu_timeout();
      const auto st = in_.next(line, cut, arrived, timeout);
      if (st == LineReader::Status::timeout) continue;
      if (st == LineReader::Status::line) ++line_no_;
      return st;
    }
  }

  // Poll timeout while a runaway exists under a CPU cap (-1: none needed). Parks it when the
  // CPU left falls to the reserve.
  int runaway_cpu_timeout() {
    if (cpu_cap_ms_ <= 0 || !overdue_ || strategy_dead_ || worker_.done(*overdue_)) return -1;
    const double margin = cpu_cap_ms_ - process_cpu_ms() - double(opt_.time.reserve_ms);
    if (margin > 0) return static_cast<int>(std::clamp(margin, 1.0, 20.0));
    park_runaway();
    return -1;
  }

  void park_runaway() {
    if (worker_.park()) {
      strategy_dead_ = true;
      note("the strategy overran and kept using CPU (" + std::to_string(int(process_cpu_ms())) +
           " ms used of the " + std::to_string(cpu_cap_ms_) +
           " ms cap): its thread is parked; the fallback plays from now on");
    }
  }

  // The bank to plan with: the judge's figure if it gave one, never more than our own count.
  double wall_left(const std::optional<std::int64_t>& judge) const {
    return judge ? std::min(double(*judge), own_left_ms_) : own_left_ms_;
  }
  // Charges a reply to our own count of the bank.
  void charge(Clock::time_point arrived) { own_left_ms_ -= ms_between(arrived, Clock::now()); }

  // Chooses this move's cell: the strategy's answer when it is legal and in time, else its
  // best-so-far, else `fallback`. `call(limits, best, stats)` runs on the worker thread.
  template <class Legal, class Call>
  Decision decide(Clock::time_point arrived, double left_ms, int moves_to_go, int fallback,
                  Legal legal, Call call) {
    Decision d;
    d.cell = fallback;
    d.left_ms = left_ms;
    d.tm.init(left_ms, moves_to_go, opt_.time);
    report_worker_errors();
    if (strategy_dead_) {
      d.problem = "strategy parked";
      return d;
    }
    if (overdue_ && !worker_.done(*overdue_)) {
      if (cpu_cap_ms_ > 0 && cpu_cap_ms_ - process_cpu_ms() < double(opt_.time.reserve_ms))
        park_runaway();
      d.problem = std::string("the strategy's ") + overdue_->what +
                  " from an earlier move is still running";
      return d;
    }
    overdue_.reset();
    const double spent = ms_between(arrived, Clock::now());
    const double watchdog = d.tm.watchdog() - spent;
    if (d.tm.usable() <= 0 || watchdog <= 0) {
      d.problem = "no time left to plan with (" + std::to_string(int(left_ms)) + " ms left)";
      return d;
    }
    SearchLimits limits;
    limits.node_budget = opt_.time.node_budget;
    limits.bank_ms = static_cast<std::int64_t>(left_ms);
    if (!d.tm.budget_mode()) {
      // The strategy's hard limit comes a little before the watchdog, so that a well-behaved
      // search returns on its own and its answer (not the best-so-far) is used.
      const double margin = std::min(2.0, 0.1 * d.tm.maximum());
      const auto us = [](double ms) {
        return std::chrono::microseconds(static_cast<std::int64_t>(std::max(0.0, ms) * 1000));
      };
      limits.deadline =
          Deadline::in(us(d.tm.optimum() - spent), us(d.tm.maximum() - margin - spent));
    }
    auto job = std::make_shared<Job>("choose");
    worker_.post(job, [call, limits](Job& j) mutable {
      limits.deadline.attach_stop_flag(&j.stop);
      j.result = call(static_cast<const SearchLimits&>(limits), j.best, j.stats);
    });
    d.asked = true;
    const auto until =
        arrived + std::chrono::microseconds(static_cast<std::int64_t>(d.tm.watchdog() * 1000));
    const bool finished = worker_.wait(*job, until);
    const int best = job->best.get();
    const auto best_or_fallback = [&](std::string why) {
      d.problem = std::move(why);
      if (legal(best)) d.cell = best, d.source = "best-so-far";
    };
    if (!finished) {
      job->stop.store(true);
      auto running = worker_.running();
      overdue_ = running ? running : job;
      best_or_fallback("the strategy's " + std::string(overdue_->what) + " overran the " +
                       std::to_string(int(d.tm.watchdog() + 0.5)) + " ms limit");
      return d;
    }
    d.strategy_ms = job->ms;
    d.stats = job->stats;
    if (job->failed)
      best_or_fallback("the strategy threw: " + job->error);
    else if (job->skipped)
      best_or_fallback("the strategy was not reached in time");
    else if (!legal(job->result))
      best_or_fallback("the strategy returned an illegal cell " + std::to_string(job->result));
    else
      d.cell = job->result, d.source = "strategy";
    return d;
  }

  void verbose_move(int n, const std::string& reply, const Decision& d, Clock::time_point arrived) {
    if (!opt_.verbose) return;
    char buf[400];
    const double took = ms_between(arrived, Clock::now());
    if (d.asked)
      std::snprintf(buf, sizeof buf,
                    "tactica: %s: move %d: %s (%s) bank %.0f ms, optimum %.1f, maximum %.1f, "
                    "watchdog %.1f; strategy %.1f ms, nodes %llu, depth %d, value %.2f; replied "
                    "after %.2f ms",
                    game_, n, reply.c_str(), d.source, d.left_ms, d.tm.optimum(), d.tm.maximum(),
                    d.tm.watchdog(), d.strategy_ms, static_cast<unsigned long long>(d.stats.nodes),
                    d.stats.depth, d.stats.value, took);
    else
      std::snprintf(buf, sizeof buf,
                    "tactica: %s: move %d: %s (%s, strategy not asked: %s) bank %.0f ms; replied "
                    "after %.2f ms",
                    game_, n, reply.c_str(), d.source, d.problem.c_str(), d.left_ms, took);
    raw_err(buf);
  }

  // Ends the run: stops the strategy; if it does not come back, ends the process (see top).
  int finish(int status) {
    report_worker_errors();
    quiesce(status);
    return status;
  }
  // Stops every strategy call; ends the process if one does not return within a grace period,
  // since the objects it uses cannot be destroyed under it.
  void quiesce(int status = 0) {
    worker_.stop_all();
    if (strategy_dead_ || !worker_.wait_idle(Clock::now() + std::chrono::milliseconds(100))) {
      if (opt_.verbose) note("the strategy did not stop; exiting without waiting for it");
      std::_Exit(status);
    }
  }

  SessionOptions opt_;
  const char* game_;
  LineReader in_;
  Worker worker_;
  std::int64_t line_no_ = 0;
  int notes_ = 0;
  double own_left_ms_;
  double cpu_cap_ms_ = 0;         // >0: the game caps process CPU time
  std::shared_ptr<Job> overdue_;  // a call that overran and may still be running
  bool strategy_dead_ = false;    // its thread is parked for good
  bool output_closed_ = false;
};

}  // namespace detail

// ---- Hanpang ----------------------------------------------------------------------------------

class HanpangSession : detail::SessionCore {
 public:
  HanpangSession(HanpangStrategy& strategy, SessionOptions options)
      : SessionCore(std::move(options), "hanpang"), strategy_(strategy) {}
  ~HanpangSession() { quiesce(); }

  // Plays until end of input; returns the exit status (0).
  int run() {
    namespace io = protocol::hanpang_io;
    if (!opt_.banner.empty()) raw_err(opt_.banner);
    if (opt_.worker_thread && !worker_.threaded())
      note("no thread could be started: the strategy runs without a watchdog");
    // new_game runs before START arrives, so its time is not charged to the bank.
    worker_.post(std::make_shared<detail::Job>("new_game"),
                 [this](detail::Job&) { strategy_.new_game(opt_.seed); });
    std::string line;
    bool cut = false;
    detail::Clock::time_point arrived;
    while (!output_closed_ && next_line(line, cut, arrived) == detail::LineReader::Status::line) {
      io::Command cmd = io::parse(line, opt_.time.bank_ms);
      if (cut) line_note("line longer than " + std::to_string(protocol::kMaxLine) + " bytes, cut");
      for (const auto& p : cmd.problems) line_note(p);
      switch (cmd.kind) {
        case io::Kind::blank:
          break;
        case io::Kind::unknown:
          line_note("unknown command " + protocol::quote(cmd.word) + " ignored");
          break;
        case io::Kind::start:
          if (started_) {
            line_note("START again: ignored");
            break;
          }
          started_ = true;
          send(io::ready());
          charge(arrived);
          break;
        case io::Kind::turn:
          turn(cmd, arrived);
          break;
      }
    }
    return finish(0);
  }

 private:
  void turn(const protocol::hanpang_io::Command& cmd, detail::Clock::time_point arrived) {
    namespace io = protocol::hanpang_io;
    if (!started_) {
      line_note("TURN before START: playing it anyway");
      started_ = true;
    }
    ++turns_;
    if (cmd.row) {
      if (!state_.push_row(*cmd.row) && !desynced_) {
        line_note(
            "the new row pushed a tile out over the top of our board, yet the game goes on: "
            "playing bottom-row cells (always legal) from now on");
        desynced_ = true;
      }
    } else {
      state_.push_row(io::guess_row(cmd.row_text));
      if (!desynced_)
        line_note(
            "without a readable new_row our board may differ from the judge's: playing "
            "bottom-row cells (always legal) from now on");
      desynced_ = true;
    }
    const double left = wall_left(cmd.remaining_ms);
    detail::Decision d;
    d.left_ms = left;
    if (desynced_) {
      d.cell = hanpang_bottom_move(state_);
      d.problem = "board out of step with the judge";
    } else if (state_.over() && state_.end != hanpang::End::overflow) {
      line_note("TURN after the last of " + std::to_string(hanpang::kMaxActions) +
                " actions: answering the fallback");
      d.cell = hanpang::fallback_move(state_);
      d.problem = "the game is over in our record";
    } else {
      const hanpang::State& s = state_;
      const auto legal = [&s](int c) {
        return c >= 0 && c < 128 && (hanpang::kValid & bit128(c)) && (s.occupied() & bit128(c));
      };
      HanpangStrategy& strat = strategy_;
      const hanpang::State copy = state_;
      d = decide(arrived, left, hanpang::kMaxActions - state_.actions, hanpang::fallback_move(s),
                 legal, [&strat, copy](const SearchLimits& l, BestMove& b, SearchStats& st) {
                   const int c = strat.choose(copy, l, b);
                   st = strat.stats();
                   return c;
                 });
      if (!d.problem.empty())
        note("move " + std::to_string(turns_) + ": " + d.problem + "; answered " + d.source);
    }
    if (d.cell < 0 || d.cell >= 128 || !(state_.occupied() & bit128(d.cell)))
      d.cell = hanpang_bottom_move(state_);
    const std::string reply = io::pang(d.cell);
    send(reply);
    charge(arrived);
    state_.play(d.cell);
    verbose_move(turns_, reply, d, arrived);
  }

  HanpangStrategy& strategy_;
  hanpang::State state_;
  bool started_ = false;
  bool desynced_ = false;
  int turns_ = 0;
};

// ---- Icebreaking ------------------------------------------------------------------------------

class IcebreakingSession : detail::SessionCore {
 public:
  IcebreakingSession(IcebreakingStrategy& strategy, SessionOptions options)
      : SessionCore(std::move(options), "icebreaking"), strategy_(strategy) {
    cpu_cap_ms_ = double(opt_.time.cpu_cap_ms);
  }
  ~IcebreakingSession() { quiesce(); }

  // Plays until FINISH or end of input; returns the exit status (0).
  int run() {
    namespace io = protocol::icebreaking_io;
    if (!opt_.banner.empty()) raw_err(opt_.banner);
    if (opt_.worker_thread && !worker_.threaded())
      note("no thread could be started: the strategy runs without a watchdog");
    std::string line;
    bool cut = false;
    detail::Clock::time_point arrived;
    while (!output_closed_ && next_line(line, cut, arrived) == detail::LineReader::Status::line) {
      io::Command cmd = io::parse(line, opt_.time.bank_ms);
      if (cut) line_note("line longer than " + std::to_string(protocol::kMaxLine) + " bytes, cut");
      if (cmd.kind == io::Kind::blank) continue;
      if (cmd.kind == io::Kind::board_line) {
        board_line(line);
        continue;
      }
      for (const auto& p : cmd.problems) line_note(p);
      if (cmd.kind != io::Kind::unknown) close_board(cmd.word);
      switch (cmd.kind) {
        case io::Kind::blank:
        case io::Kind::board_line:
          break;
        case io::Kind::unknown:
          line_note("unknown command " + protocol::quote(cmd.word) + " ignored");
          break;
        case io::Kind::ready:
          ready(cmd, arrived);
          break;
        case io::Kind::turn:
          turn(cmd, arrived);
          break;
        case io::Kind::opp:
          opp(cmd);
          break;
        case io::Kind::finish:
          return finish(0);
      }
    }
    return finish(0);
  }

 private:
  void board_line(std::string_view line) {
    namespace io = protocol::icebreaking_io;
    if (board_closed_ || rows_ >= icebreaking::kSize) {
      line_note("board line after the board was complete: ignored");
      return;
    }
    const io::BoardLine b = io::parse_board_line(line);
    for (const auto& p : b.problems) line_note("board row " + std::to_string(rows_) + ": " + p);
    for (int c = 0; c < icebreaking::kSize; ++c) {
      const auto& t = b.cells[c];
      const int cell = icebreaking::cell(rows_, c);
      board_.set(cell, t.kind != io::BoardToken::ice, t.score);
      if (t.kind == io::BoardToken::hole) ++declared_holes_;
      if (t.kind == io::BoardToken::unknown) unread_ |= bit128(cell);
    }
    ++rows_;
  }

  // The first command ends the board: missing rows are holes, and the game position starts.
  void close_board(std::string_view word) {
    if (board_closed_) return;
    board_closed_ = true;
    if (rows_ < icebreaking::kSize) {
      line_note("only " + std::to_string(rows_) + " board rows before " + protocol::quote(word) +
                ": the missing cells are treated as holes");
      for (int r = rows_; r < icebreaking::kSize; ++r)
        for (int c = 0; c < icebreaking::kSize; ++c) {
          board_.set(icebreaking::cell(r, c), true, 0);
          unread_ |= bit128(icebreaking::cell(r, c));
        }
    } else if (declared_holes_ != icebreaking::kHoles) {
      line_note("the board has " + std::to_string(declared_holes_) + " holes, not " +
                std::to_string(icebreaking::kHoles) + ": playing on it as given");
    }
    pos_ = icebreaking::Position::start(board_);
  }

  void start_game(icebreaking::Player me) {
    if (side_known_) return;
    side_known_ = true;
    me_ = me;
    worker_.post(std::make_shared<detail::Job>("new_game"),
                 [this](detail::Job&) { strategy_.new_game(board_, me_, opt_.seed); });
  }

  void ready(const protocol::icebreaking_io::Command& cmd, detail::Clock::time_point arrived) {
    using protocol::icebreaking_io::Side;
    if (ready_) {
      line_note("READY again: ignored");
      return;
    }
    ready_ = true;
    send(protocol::icebreaking_io::ok());
    charge(arrived);
    if (cmd.side == Side::first) start_game(icebreaking::A);
    if (cmd.side == Side::second) start_game(icebreaking::B);
  }

  void turn(const protocol::icebreaking_io::Command& cmd, detail::Clock::time_point arrived) {
    if (!ready_) line_note("TURN before READY: playing it anyway"), ready_ = true;
    start_game(pos_.to_move);  // a bare READY: whoever is to move when TURN comes is us
    if (pos_.to_move != me_) {
      line_note("TURN when our record says the opponent is to move: playing anyway");
      pos_.to_move = me_;
    }
    ++turns_;
    const double cpu_left = cpu_cap_ms_ > 0 ? cpu_cap_ms_ - process_cpu_ms() : 1e18;
    const double left = std::min(wall_left(cmd.my_time), cpu_left);
    detail::Decision d;
    d.left_ms = left;
    if (pos_.over()) {
      line_note("TURN but our record has no empty ice left: answering a guess");
      d.cell = guess_cell();
      d.problem = "no empty ice in our record";
    } else {
      const icebreaking::Position& p = pos_;
      const auto legal = [&p](int c) { return p.legal(c); };
      IcebreakingStrategy& strat = strategy_;
      const icebreaking::Board& board = board_;
      const icebreaking::Position copy = pos_;
      d = decide(arrived, left, (popcount(pos_.ice) + 1) / 2,
                 icebreaking_fallback_move(board_, pos_), legal,
                 [&strat, &board, copy](const SearchLimits& l, BestMove& b, SearchStats& st) {
                   const int c = strat.choose(board, copy, l, b);
                   st = strat.stats();
                   return c;
                 });
      if (!d.problem.empty())
        note("move " + std::to_string(turns_) + ": " + d.problem + "; answered " + d.source);
    }
    if (d.cell < 0 || d.cell >= icebreaking::kSize * icebreaking::kStride) d.cell = guess_cell();
    const std::string reply = protocol::icebreaking_io::move(d.cell);
    send(reply);
    charge(arrived);
    if (pos_.legal(d.cell)) apply(d.cell);
    verbose_move(turns_, reply, d, arrived);
  }

  void opp(const protocol::icebreaking_io::Command& cmd) {
    if (!ready_) line_note("OPP before READY: taking it anyway"), ready_ = true;
    start_game(icebreaking::other(pos_.to_move));  // a bare READY: the opponent moved first
    if (!cmd.cell) {
      line_note("OPP without a readable cell: not applied");
      return;
    }
    if (!pos_.legal(*cmd.cell)) {
      line_note("OPP " + std::to_string(icebreaking::row_of(*cmd.cell)) + " " +
                std::to_string(icebreaking::col_of(*cmd.cell)) +
                " is not empty ice in our record (a hole or a taken cell): not applied");
      return;
    }
    if (pos_.to_move == me_) {
      line_note("OPP when our record says we are to move: applying it anyway");
      pos_.to_move = icebreaking::other(me_);
    }
    apply(*cmd.cell);
  }

  void apply(int cell) {
    pos_.play(board_, cell);
    worker_.post(std::make_shared<detail::Job>("observe"),
                 [this, after = pos_, cell](detail::Job&) { strategy_.observe(after, cell); });
  }

  // Our record is out of step: prefer a cell we could not read (it may be ice), else any
  // non-hole cell.
  int guess_cell() const {
    if (unread_) return lowest_bit(unread_);
    for (int r = 0; r < icebreaking::kSize; ++r)
      for (int c = 0; c < icebreaking::kSize; ++c)
        if (!(board_.holes & bit128(icebreaking::cell(r, c)))) return icebreaking::cell(r, c);
    return icebreaking::cell(0, 0);
  }

  IcebreakingStrategy& strategy_;
  icebreaking::Board board_;
  icebreaking::Position pos_;
  u128 unread_ = 0;  // cells whose board token was missing or unreadable (played as holes)
  int rows_ = 0, declared_holes_ = 0, turns_ = 0;
  bool board_closed_ = false, ready_ = false, side_known_ = false;
  icebreaking::Player me_ = icebreaking::A;
};

}  // namespace tactica

// ===== generated by tactica fuse: the config as constants, and main() =====
namespace tactica::fused {

// [params], resolved: every parameter of expectimax for icebreaking.
inline Params params() {
  Params p;
  p.set("alt_k", 2.0);
  p.set("aspiration", 0.0);
  p.set("iter_start", 0.6);
  p.set("model", 1.0);
  p.set("model_after", 2.0);
  p.set("model_max_width", 4096.0);
  p.set("model_width", 64.0);
  p.set("pvs", 1.0);
  p.set("qdepth", 0.0);
  p.set("solve_at", 16.0);
  p.set("time_scale", 1.0);
  p.set("tt_mb", 32.0);
  p.set("w_alt", 0.0);
  p.set("w_plus", 0.0);
  p.set("w_pool", 0.0);
  p.set("w_tempo", 0.5);
  p.set("w_threat", 0.0);
  return p;
}

// [time]
inline TimeConfig time_config() {
  TimeConfig t;
  t.reserve_ms = 300;
  t.move_overhead_ms = 2;
  t.max_move_ms = 0;
  t.node_budget = 0ULL;
  t.bank_ms = 5000;
  t.cpu_cap_ms = 5000;
  return t;
}

inline constexpr std::uint64_t kSeed = 1ULL;
inline constexpr const char* kBanner =
    "tactica (fused by Tactica 0.1.0): icebreaking, plugin expectimax 1.0.0, seed 1, params tt_mb=32 qdepth=0 solve_at=16 aspiration=0 pvs=true iter_start=0.6 time_scale=1.0 w_pool=0.0 w_threat=0.0 w_plus=0.0 w_tempo=0.5 w_alt=0.0 alt_k=2 model=true model_after=2 model_width=64 model_max_width=4096, time reserve_ms=300 move_overhead_ms=2 max_move_ms=0 node_budget=0 bank_ms=5000 cpu_cap_ms=5000";

// Stands in for the strategy if it cannot be built, so that the game is still played to
// the end with legal moves (the Session's own fallback).
class FallbackStrategy final : public IcebreakingStrategy {
 public:
  int choose(const icebreaking::Board& board, const icebreaking::Position& pos,
             const SearchLimits&, BestMove&) override {
    return icebreaking_fallback_move(board, pos);
  }
};

}  // namespace tactica::fused

// As tactica-agent (core/host/main.cpp): build the strategy, run the IcebreakingSession.
int main(int argc, char** argv) {
  tactica::SessionOptions opt;
  opt.time = tactica::fused::time_config();
  opt.seed = tactica::fused::kSeed;
  opt.banner = tactica::fused::kBanner;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--verbose" || arg == "-v")
      opt.verbose = true;
    else
      std::fprintf(stderr, "tactica: ignoring argument '%s' (a fused agent takes only --verbose)\n", argv[i]);
  }
  tactica::Params params = tactica::fused::params();
  // A no-op unless the plugin's sources declare a parameter its built module did not.
  params.fill_defaults(tactica::plugins::expectimax::describe().params(tactica::GameKind::icebreaking));
  std::unique_ptr<tactica::IcebreakingStrategy> strategy;
  try {
    strategy = tactica::plugins::expectimax::make_icebreaking(params);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tactica: the expectimax strategy could not be built (%s): playing fallback moves\n", e.what());
  }
  if (!strategy) strategy = std::make_unique<tactica::fused::FallbackStrategy>();
  tactica::IcebreakingSession session(*strategy, opt);
  return session.run();
}
