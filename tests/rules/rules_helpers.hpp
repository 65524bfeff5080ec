// rules_helpers.hpp — small conversions between the bitboard engines and the reference games,
// and board builders shared by the rules tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "reference_hanpang.hpp"
#include "reference_icebreaking.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

// REQUIRE for hot loops: one branch when the condition holds (doctest's assertion bookkeeping
// costs about a microsecond in a debug build, and the random-game tests check millions of
// conditions). On failure it stops the test case like REQUIRE, naming the condition.
#define RULES_ENSURE(...)                                   \
  do {                                                      \
    if (!(__VA_ARGS__)) FAIL("RULES_ENSURE( " #__VA_ARGS__ " )"); \
  } while (false)

namespace tactica::test {

// ---- Hanpang --------------------------------------------------------------------------------

// A state from its bottom rows (top line first); the rows above are empty.
inline hanpang::State hanpang_board(std::initializer_list<std::string_view> bottom_lines) {
  std::string text;
  for (int i = 0; i < hanpang::kRows - static_cast<int>(bottom_lines.size()); ++i)
    text += "00000000\n";
  for (std::string_view line : bottom_lines) {
    text += line;
    text += '\n';
  }
  const auto s = hanpang::State::from_text(text);
  REQUIRE(s.has_value());
  return *s;
}

inline ref::hanpang::Cell to_ref_cell(int engine_cell) {
  return {hanpang::protocol_row(engine_cell) - 1, hanpang::protocol_col(engine_cell) - 1};
}

inline std::array<int, hanpang::kCols> colours_of(const hanpang::Row& row) {
  std::array<int, hanpang::kCols> out{};
  for (int c = 0; c < hanpang::kCols; ++c) out[c] = row.colour[c];
  return out;
}

// The colour planes the engine should hold for a reference grid, built cell by cell.
inline std::array<u128, hanpang::kColours> planes_of(const ref::hanpang::Game& g) {
  std::array<u128, hanpang::kColours> planes{};
  for (int r = 0; r < ref::hanpang::kRows; ++r)
    for (int c = 0; c < ref::hanpang::kCols; ++c)
      if (g.grid[r][c] != 0) planes[g.grid[r][c] - 1] |= bit128(hanpang::from_protocol(r + 1, c + 1));
  return planes;
}

inline hanpang::End to_engine_end(ref::hanpang::Ending e) {
  switch (e) {
    case ref::hanpang::Ending::none: return hanpang::End::none;
    case ref::hanpang::Ending::overflow: return hanpang::End::overflow;
    case ref::hanpang::Ending::max_actions: return hanpang::End::max_actions;
  }
  return hanpang::End::none;
}

// The cells of an engine cell set, in reference coordinates, sorted.
inline std::vector<ref::hanpang::Cell> ref_cells(u128 set) {
  std::vector<ref::hanpang::Cell> out;
  for (int c : bits{set}) out.push_back(to_ref_cell(c));
  std::sort(out.begin(), out.end());
  return out;
}

// ---- Icebreaking ----------------------------------------------------------------------------

inline std::vector<std::vector<std::string>> tokens_of(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> row;
    std::string tok;
    while (ls >> tok) row.push_back(tok);
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

// The reference game for an engine board, through the protocol text form.
inline ref::icebreaking::Game reference_of(const icebreaking::Board& b) {
  return ref::icebreaking::Game::from_tokens(tokens_of(b.to_text()));
}

inline ref::icebreaking::Cell to_ref_cell_ib(int engine_cell) {
  return {icebreaking::row_of(engine_cell), icebreaking::col_of(engine_cell)};
}

inline std::vector<ref::icebreaking::Cell> ref_cells_ib(u128 set) {
  std::vector<ref::icebreaking::Cell> out;
  for (int c : bits{set}) out.push_back(to_ref_cell_ib(c));
  std::sort(out.begin(), out.end());
  return out;
}

// Engine sets of the reference's ice and owners, built cell by cell.
struct IceSets {
  u128 ice = 0, first = 0, second = 0, holes = 0;
};
inline IceSets sets_of(const ref::icebreaking::Game& g) {
  IceSets s;
  for (int r = 0; r < ref::icebreaking::kSize; ++r)
    for (int c = 0; c < ref::icebreaking::kSize; ++c) {
      const u128 b = bit128(icebreaking::cell(r, c));
      switch (g.owner[r][c]) {
        case ref::icebreaking::kIce: s.ice |= b; break;
        case ref::icebreaking::kFirst: s.first |= b; break;
        case ref::icebreaking::kSecond: s.second |= b; break;
        default: s.holes |= b; break;
      }
    }
  return s;
}

}  // namespace tactica::test
