// hanpang_fill.hpp — the group search's cell sets and flood fills over the layout of
// hanpang_layout.hpp (part of hanpang.hpp, which every user includes).
#pragma once

#include <array>
#include <cstdint>

#if defined(__SSE2__) && !defined(TACTICA_NO_SIMD)
#include <emmintrin.h>
#endif

#include "tactica/bitboard.hpp"
#include "tactica/hanpang_layout.hpp"

namespace tactica::hanpang {

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

// The highest cell of a non-empty set, as a set.
inline u128 highest(u128 s) {
  const auto hi = static_cast<std::uint64_t>(s >> 64), lo = static_cast<std::uint64_t>(s);
  return hi ? u128{std::uint64_t{1} << (63 - std::countl_zero(hi))} << 64
            : u128{std::uint64_t{1} << (63 - std::countl_zero(lo))};
}

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

// The colour (1..3) of the tile at cell bit `b` of the colour planes (b must hold a tile).
inline int colour_of(const std::array<u128, 3>& planes, u128 b) {
  return 1 + static_cast<int>((planes[1] & b) != 0) + 2 * static_cast<int>((planes[2] & b) != 0);
}

// Calls f(group, colour) for every group of `rest` (a union of whole same-coloured groups), two
// at a time: from the lowest and the highest cell left (one group if the first fill reaches the
// second seed). State::groups and the Hanpang evaluation's features share it, so they find the
// groups in the same order.
template <class F>
inline void for_each_rest_group(u128 rest, const std::array<u128, 3>& planes, F&& f) {
  while (rest) {
    const u128 a = rest & (~rest + 1), b = highest(rest);
    const int ca = colour_of(planes, a), cb = colour_of(planes, b);
    const auto [ga, gb] = fill2(a, rest & planes[ca - 1], b, rest & planes[cb - 1]);
    f(ga, ca);
    rest ^= ga;
    if (!(ga & b)) {
      f(gb, cb);
      rest ^= gb;
    }
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

}  // namespace tactica::hanpang
