// transposition_table.hpp — the expectiminimax search's table (search.hpp): 16-byte entries
// proved by the whole position, with depth-preferred replacement within one search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tactica/bitboard.hpp"

namespace tactica::plugins::expectimax {

// A transposition table of 16-byte entries, kept across searches (an age tells this search's
// entries from older ones). The position is proved by a 96-bit lock stored whole (the game's
// lock must fit in 64 + kLockHiBits bits; the move index fills the bits above), so a hit is
// never a collision; a zero lock marks a free slot. depth 63 means exact to the end.
template <int kLockHiBits>
class TranspositionTable {
 public:
  static_assert(kLockHiBits > 0 && kLockHiBits < 32);
  static constexpr int kExactDepth = 63;
  enum Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };
  struct Entry {
    std::uint64_t lo = 0;
    std::uint32_t hi_move = 0;  // lock bits 64.. in the low kLockHiBits, move + 1 above (0: none)
    std::int16_t value = 0;
    std::uint8_t depth_bound = 0;  // depth << 2 | bound
    std::uint8_t age = 0;
    int move() const { return static_cast<int>(hi_move >> kLockHiBits) - 1; }
    int depth() const { return depth_bound >> 2; }
    int bound() const { return depth_bound & 3; }
  };

  // mb MiB (at least 1), rounded down to a power of two entries.
  void resize(int mb) {
    const std::uint64_t entries = (static_cast<std::uint64_t>(std::max(1, mb)) << 20) / sizeof(Entry);
    std::uint64_t pow2 = 1;
    while (pow2 * 2 <= entries) pow2 *= 2;
    table_.assign(pow2, Entry{});
    mask_ = pow2 - 1;
  }
  void clear() {
    std::fill(table_.begin(), table_.end(), Entry{});
    age_ = 0;
  }
  void next_age() { ++age_; }

  const Entry* probe(u128 lock, std::uint64_t key) const {
    const Entry& e = table_[key & mask_];
    return same(e, lock) ? &e : nullptr;
  }
  // Keeps a deeper entry of the current search unless this one is for the same position, and
  // the old best move when none is given.
  void store(u128 lock, std::uint64_t key, int depth, int value, Bound b, int move) {
    Entry& e = table_[key & mask_];
    const bool hit = same(e, lock);
    if (!hit && e.age == age_ && e.depth() > depth) return;
    if (hit && move < 0) move = e.move();
    e.lo = static_cast<std::uint64_t>(lock);
    e.hi_move = hi(lock) | (static_cast<std::uint32_t>(move + 1) << kLockHiBits);
    e.value = static_cast<std::int16_t>(value);
    e.depth_bound = static_cast<std::uint8_t>(std::min(depth, kExactDepth) << 2 | b);
    e.age = age_;
  }

 private:
  static constexpr std::uint32_t kHiMask = (1u << kLockHiBits) - 1;
  static std::uint32_t hi(u128 lock) { return static_cast<std::uint32_t>(lock >> 64) & kHiMask; }
  static bool same(const Entry& e, u128 lock) {
    return e.lo == static_cast<std::uint64_t>(lock) && (e.hi_move & kHiMask) == hi(lock);
  }
  std::vector<Entry> table_;
  std::uint64_t mask_ = 0;
  std::uint8_t age_ = 0;
};

}  // namespace tactica::plugins::expectimax
