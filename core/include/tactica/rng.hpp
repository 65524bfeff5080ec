// rng.hpp — a portable seeded generator: the same seed gives the same numbers on every compiler
// and platform (no std:: distributions, whose output is implementation-defined).
#pragma once

#include <cstdint>

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
