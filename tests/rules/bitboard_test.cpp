// bitboard.hpp primitives against their plain definitions, on random sets.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "tactica/bitboard.hpp"
#include "tactica/rng.hpp"

namespace {

using namespace tactica;

u128 random_set(Rng& rng) {
  u128 x = (u128{rng.next()} << 64) | rng.next();
  // Vary the density: sparse, dense and plain random sets.
  switch (rng.below(3)) {
    case 0: x &= (u128{rng.next()} << 64) | rng.next(); break;
    case 1: x |= (u128{rng.next()} << 64) | rng.next(); break;
    default: break;
  }
  return x;
}

template <int Stride>
u128 plain_neighbours(u128 s) {
  return (s << 1) | (s >> 1) | (s << Stride) | (s >> Stride);
}

// The count at compile time takes the portable path (no instruction in a constant expression).
static_assert(popcount(0) == 0 && popcount(bit128(0) | bit128(63) | bit128(64) | bit128(127)) == 4);

TEST_CASE("bitboard: popcount uses the popcnt instruction exactly where the processor has it") {
#if defined(TACTICA_POPCNT_DISPATCH)
  CHECK(detail::has_popcnt == (__builtin_cpu_supports("popcnt") != 0));
  MESSAGE((std::string("popcount: ") + (detail::has_popcnt ? "popcnt instruction" : "portable count")));
#elif defined(__POPCNT__)
  MESSAGE("popcount: popcnt instruction (built with -mpopcnt)");
#else
  MESSAGE("popcount: portable count");
#endif
  // Either way the counts below (and the next test's) are std::popcount's.
  const volatile std::uint64_t lo = 0xF0F0F0F0F0F0F0F0ULL, hi = 0x8000000000000001ULL;
  CHECK(popcount((u128{hi} << 64) | lo) == 34);
}

TEST_CASE("bitboard: popcount, lowest_bit and pop_lowest match their definitions") {
  Rng rng(31);
  CHECK(popcount(0) == 0);
  CHECK(popcount(~u128{0}) == 128);
  for (int i = 0; i < 128; ++i) {
    CHECK(popcount(bit128(i)) == 1);
    CHECK(lowest_bit(bit128(i)) == i);
    CHECK(popcount(bit128(i) - 1) == i);
  }
  for (int i = 0; i < 20000; ++i) {
    u128 x = random_set(rng);
    const int expect = std::popcount(static_cast<std::uint64_t>(x)) +
                       std::popcount(static_cast<std::uint64_t>(x >> 64));
    REQUIRE(popcount(x) == expect);
    int n = 0;
    for (int b : bits{x}) {
      REQUIRE((x & bit128(b)) != 0);
      ++n;
    }
    REQUIRE(n == expect);
    if (x) {
      const int low = lowest_bit(x);
      REQUIRE((x & (bit128(low) - 1)) == 0);
      u128 y = x;
      REQUIRE(pop_lowest(y) == low);
      REQUIRE(y == (x & ~bit128(low)));
    }
  }
}

TEST_CASE("bitboard: neighbours and flood_fill match the plain 128-bit shifts") {
  Rng rng(32);
  for (int i = 0; i < 20000; ++i) {
    const u128 x = random_set(rng);
    REQUIRE(neighbours<10>(x) == plain_neighbours<10>(x));
    REQUIRE(neighbours<16>(x) == plain_neighbours<16>(x));
  }
  for (int i = 0; i < 2000; ++i) {
    const u128 within = random_set(rng);
    const u128 seed = bit128(static_cast<int>(rng.below(128)));
    u128 g = seed & within;  // the definition: grow until stable
    for (u128 next; (next = (g | plain_neighbours<16>(g)) & within) != g;) g = next;
    REQUIRE(flood_fill<16>(seed, within) == g);
  }
}

}  // namespace
