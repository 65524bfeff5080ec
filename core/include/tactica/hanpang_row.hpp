// hanpang_row.hpp — Hanpang's new rows: their text and index forms, and the seeded sequence of
// a game (part of hanpang.hpp, which every user includes).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "tactica/hanpang_layout.hpp"
#include "tactica/rng.hpp"

namespace tactica::hanpang {

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

}  // namespace tactica::hanpang
