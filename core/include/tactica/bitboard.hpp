// bitboard.hpp — 128-bit cell sets and the primitives both games build on.
// Standard library only (plus GCC/Clang's unsigned __int128 and, on x86-64, their processor check
// and an inline popcnt): this header goes into submissions.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace tactica {

using u128 = unsigned __int128;

constexpr u128 bit128(int i) { return u128{1} << i; }

namespace detail {
// x86-64 processors without popcnt are those before 2008; an -O2 build without -mpopcnt (how
// the platform presumably compiles a submission) may not assume it, so the count asks the
// processor once, before main, and uses the instruction where it exists (about 10% less time
// for a Hanpang beam search; the same counts). Define TACTICA_NO_POPCNT_DISPATCH for the
// portable count only (its test build does).
#if !defined(__POPCNT__) && defined(__x86_64__) && defined(__GNUC__) && \
    !defined(TACTICA_NO_POPCNT_DISPATCH)
#define TACTICA_POPCNT_DISPATCH 1
inline const bool has_popcnt = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt") != 0;
}();
#endif
}  // namespace detail

// Population count. Without -mpopcnt (our portable -O2 builds), std::popcount becomes a call
// into libgcc: the popcnt instruction where the processor has it (see detail::has_popcnt), else
// an inline bit-parallel count, several times faster than that call. (Before has_popcnt is
// set, during other headers' static initialisation, the bit-parallel count: the same counts.)
constexpr int popcount(u128 s) {
#if defined(__POPCNT__)
  return std::popcount(static_cast<std::uint64_t>(s)) +
         std::popcount(static_cast<std::uint64_t>(s >> 64));
#else
#if defined(TACTICA_POPCNT_DISPATCH)
  if (!std::is_constant_evaluated() && detail::has_popcnt) {
    std::uint64_t a, b;
    asm("popcnt %1, %0" : "=r"(a) : "r"(static_cast<std::uint64_t>(s)) : "cc");
    asm("popcnt %1, %0" : "=r"(b) : "r"(static_cast<std::uint64_t>(s >> 64)) : "cc");
    return static_cast<int>(a + b);
  }
#endif
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
