// Hanpang rules: the worked cases of shared/spec/hanpang.md, checked on the engine and on the
// reference game alike; coordinates, the text form, rows, and bad input.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "rules_helpers.hpp"
#include "tactica/hanpang.hpp"

namespace {

using namespace tactica;
using namespace tactica::hanpang;
using tactica::test::hanpang_board;

ref::hanpang::Game reference_of(const State& s) {
  ref::hanpang::Game g;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) g.grid[r][c] = s.colour_at(from_protocol(r + 1, c + 1));
  g.score = s.score;
  g.actions = s.actions;
  return g;
}

// The bottom `n` lines of a text form, top one first, joined by '/'.
std::string bottom(const std::string& text, int n) {
  std::string out;
  for (int i = kRows - n; i < kRows; ++i) {
    if (!out.empty()) out += '/';
    out += text.substr(static_cast<std::size_t>(i) * (kCols + 1), kCols);
  }
  return out;
}

TEST_CASE("hanpang: removing k tiles scores k squared") {
  State s = hanpang_board({
      "11000000",
      "12200000",
      "12233100",
  });
  auto ref = reference_of(s);
  // The 3s: two tiles side by side.
  CHECK(popcount(s.group_at(cell(3, 0))) == 2);
  CHECK(s.play(cell(3, 0)) == 4);
  CHECK(ref.play(14, 3) == 4);
  // The 1s of column 0 plus the 1 on top of column 1: four tiles.
  CHECK(popcount(s.group_at(cell(0, 1))) == 4);
  CHECK(s.play(cell(0, 1)) == 16);
  CHECK(ref.play(13, 0) == 16);
  // A single tile may be chosen and scores 1.
  CHECK(s.play(cell(5, 0)) == 1);
  CHECK(ref.play(14, 5) == 1);
  CHECK(s.score == 4 + 16 + 1);
  CHECK(s.actions == 3);
  CHECK_FALSE(s.over());
  CHECK(ref.score == s.score);
  CHECK(s.to_text() == ref.text());
}

TEST_CASE("hanpang: a single tile is a legal move worth one point") {
  State s = hanpang_board({"12312312"});
  GroupList gl;
  s.groups(gl);
  CHECK(gl.size() == 8);
  for (const Group& g : gl) CHECK(g.size == 1);
  CHECK(s.play(cell(5, 0)) == 1);
  CHECK(s.score == 1);
  CHECK(s.tiles() == 7);
}

TEST_CASE("hanpang: gravity is per column, with no sideways shift") {
  State s = hanpang_board({
      "31000000",
      "22020000",
      "21010000",
      "21312000",
  });
  auto ref = reference_of(s);
  // The 2s: column 0 from the bottom up three tiles, plus the 2 on top of them in column 1.
  CHECK(s.play(cell(0, 0)) == 16);
  CHECK(ref.play(14, 0) == 16);
  // Column 0's 3 falls three rows; column 1's top 1 falls one row (one tile removed below it);
  // columns 2..4 do not move.
  CHECK(bottom(s.to_text(), 4) == "00000000/01020000/01010000/31312000");
  CHECK(s.to_text() == ref.text());
  // Emptying column 2 entirely does not pull column 3 to the left.
  CHECK(s.play(cell(2, 0)) == 1);
  CHECK(ref.play(14, 2) == 1);
  CHECK(bottom(s.to_text(), 3) == "01020000/01010000/31012000");
  CHECK(s.height(2) == 0);
  CHECK(s.height(3) == 3);
  CHECK(s.to_text() == ref.text());
}

TEST_CASE("hanpang: tiles above a removed group fall by the number removed below them") {
  State s = hanpang_board({
      "33300000",
      "12100000",
      "11100000",
  });
  // The 1s form a U: column 0 two tiles, column 1 one, column 2 two.
  CHECK(popcount(s.group_at(cell(1, 0))) == 5);
  CHECK(s.play(cell(1, 0)) == 25);
  CHECK(bottom(s.to_text(), 3) == "00000000/03000000/32300000");
}

// Column 0 full (15 tiles of alternating colours), column 1 two 3s at the bottom.
State full_column_board() {
  std::string text;
  for (int h = kRows - 1; h >= 0; --h) {
    text += (h % 2 == 0) ? '1' : '2';
    text += (h < 2) ? "3" : "0";
    text += "000000\n";
  }
  auto s = State::from_text(text);
  REQUIRE(s.has_value());
  return *s;
}

TEST_CASE("hanpang: the overflow end, and the points of the action that causes it count") {
  SUBCASE("a column still full after the removal ends the game") {
    State s = full_column_board();
    CHECK(s.height(0) == kRows);
    CHECK_FALSE(s.over());
    CHECK(s.overflows(s.group_at(cell(1, 0))));
    CHECK(s.play(cell(1, 0)) == 4);
    CHECK(s.end == End::overflow);
    CHECK(s.over());
    CHECK(s.score == 4);
    CHECK(s.actions == 1);
    auto ref = reference_of(full_column_board());
    CHECK(ref.play(14, 1) == 4);
    CHECK(ref.ending == ref::hanpang::Ending::overflow);
  }
  SUBCASE("removing a tile of the full column saves the game") {
    State s = full_column_board();
    CHECK_FALSE(s.overflows(s.group_at(cell(0, 0))));
    CHECK(s.play(cell(0, 0)) == 1);
    CHECK_FALSE(s.over());
    CHECK(s.height(0) == kRows - 1);
    CHECK(s.push_row(*Row::parse("11111111")));
    CHECK_FALSE(s.over());
    CHECK(s.height(0) == kRows);
  }
  SUBCASE("a row that fills a column to the top does not end the game by itself") {
    State s = full_column_board();
    s.play(cell(0, 0));
    CHECK(s.push_row(*Row::parse("23232323")));
    CHECK_FALSE(s.over());
    // ... but the next action must take a tile out of that column.
    CHECK(s.overflows(s.group_at(cell(4, 0))));
    CHECK_FALSE(s.overflows(s.group_at(cell(0, 5))));
  }
  SUBCASE("a row pushed under a full column pushes a tile out (a guard for hand-built states)") {
    State s = full_column_board();
    CHECK_FALSE(s.push_row(*Row::parse("11111111")));
    CHECK(s.end == End::overflow);
  }
}

TEST_CASE("hanpang: the 200th action ends the game, and its points count") {
  SUBCASE("action 199 does not end it") {
    State s = hanpang_board({"11222333"});
    s.actions = 198;
    CHECK(s.play(cell(0, 0)) == 4);
    CHECK(s.actions == 199);
    CHECK_FALSE(s.over());
  }
  SUBCASE("action 200 does") {
    State s = hanpang_board({"11222333"});
    s.actions = 199;
    auto ref = reference_of(s);
    CHECK(s.play(cell(2, 0)) == 9);
    CHECK(s.actions == kMaxActions);
    CHECK(s.end == End::max_actions);
    CHECK(s.score == 9);
    CHECK(ref.play(14, 2) == 9);
    CHECK(ref.ending == ref::hanpang::Ending::max_actions);
  }
  SUBCASE("the 200-action end takes precedence over a full column") {
    State s = full_column_board();
    s.actions = 199;
    s.play(cell(1, 0));
    CHECK(s.end == End::max_actions);
    CHECK(s.score == 4);
  }
}

TEST_CASE("hanpang: push_row moves every column up one and adds the row at the bottom") {
  State s = hanpang_board({
      "10000000",
      "23000001",
  });
  const auto row = Row::parse("12312312");
  REQUIRE(row);
  CHECK(s.push_row(*row));
  CHECK(bottom(s.to_text(), 4) == "00000000/10000000/23000001/12312312");
  auto ref = reference_of(hanpang_board({"10000000", "23000001"}));
  ref.push_row(test::colours_of(*row));
  CHECK(s.to_text() == ref.text());
  State empty;
  CHECK(empty.push_row(*row));
  CHECK(empty.tiles() == 8);
  for (int c = 0; c < kCols; ++c) CHECK(empty.colour_at(cell(c, 0)) == row->colour[c]);
}

TEST_CASE("hanpang: protocol coordinates") {
  CHECK(from_protocol(15, 1) == cell(0, 0));
  CHECK(from_protocol(15, 1) == 0);
  CHECK(from_protocol(1, 1) == cell(0, 14));
  CHECK(from_protocol(15, 8) == cell(7, 0));
  CHECK(from_protocol(1, 8) == cell(7, 14));
  std::set<int> seen;
  for (int r = 1; r <= kRows; ++r)
    for (int c = 1; c <= kCols; ++c) {
      const int x = from_protocol(r, c);
      CHECK(protocol_row(x) == r);
      CHECK(protocol_col(x) == c);
      CHECK((kValid & bit128(x)) != 0);
      seen.insert(x);
    }
  CHECK(seen.size() == static_cast<std::size_t>(kRows * kCols));
  // Text line r (1-based from the top), character c, is protocol cell (r, c).
  const State s = hanpang_board({"10000000", "10000000", "10000002"});
  CHECK(s.colour_at(from_protocol(13, 1)) == 1);
  CHECK(s.colour_at(from_protocol(15, 8)) == 2);
}

TEST_CASE("hanpang: the text form round-trips") {
  RowSource rows(5);
  Rng rng(5);
  State s;
  s.push_row(rows.next());
  GroupList gl;
  for (int i = 0; i < 40 && !s.over(); ++i) {
    const std::string text = s.to_text();
    CHECK(text.size() == static_cast<std::size_t>(kRows * (kCols + 1)));
    const auto back = State::from_text(text);
    REQUIRE(back.has_value());
    CHECK(back->planes == s.planes);
    CHECK(back->to_text() == text);
    s.groups(gl);
    s.remove(gl[static_cast<int>(rng.below(static_cast<std::uint32_t>(gl.size())))].cells);
    if (!s.over()) s.push_row(rows.next());
  }
  // Other whitespace between lines, CRLF, and no final newline are accepted.
  std::string crlf, spaced;
  for (int i = 0; i < kRows; ++i) {
    crlf += (i == kRows - 1) ? "12300000" : "00000000";
    if (i + 1 < kRows) crlf += "\r\n";
    spaced += (i == kRows - 1) ? " 12300000" : "00000000 \t";
  }
  const auto a = State::from_text(crlf), b = State::from_text(spaced);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(a->planes == hanpang_board({"12300000"}).planes);
  CHECK(b->planes == a->planes);
}

TEST_CASE("hanpang: Row parse, str and index") {
  const auto r = Row::parse("12312312");
  REQUIRE(r);
  CHECK(r->str() == "12312312");
  CHECK(r->colour[0] == 1);
  CHECK(r->colour[2] == 3);
  CHECK(Row::parse("11111111")->index() == 0);
  CHECK(Row::parse("21111111")->index() == 1);  // column 0 is the least significant digit
  CHECK(Row::parse("13111111")->index() == 6);
  CHECK(Row::parse("33333333")->index() == kNumRows - 1);
  for (int i = 0; i < kNumRows; ++i) {
    const Row x = Row::from_index(i);
    CHECK(x.index() == i);
    CHECK(Row::parse(x.str()) == x);
  }
  Rng rng(11);
  for (int i = 0; i < 1000; ++i) {
    const Row x = Row::random(rng);
    CHECK(x.index() >= 0);
    CHECK(x.index() < kNumRows);
  }
}

TEST_CASE("hanpang: bad rows are rejected") {
  for (const char* bad : {"", "1231231", "123123123", "12312310", "12312314", "1231231a",
                          " 12312312", "12312312\n", "1231 312", "+1231231", "-1231231"}) {
    CAPTURE(bad);
    CHECK_FALSE(Row::parse(bad).has_value());
  }
}

TEST_CASE("hanpang: bad board text is rejected") {
  const std::string empty_line = "00000000\n";
  std::string good;
  for (int i = 0; i < kRows; ++i) good += empty_line;
  REQUIRE(State::from_text(good).has_value());

  auto with_last = [&](const std::string& last) {
    std::string t;
    for (int i = 0; i < kRows - 1; ++i) t += empty_line;
    return t + last;
  };
  CHECK_FALSE(State::from_text("").has_value());
  CHECK_FALSE(State::from_text(good.substr(empty_line.size())).has_value());  // 14 lines
  CHECK_FALSE(State::from_text(good + empty_line).has_value());              // 16 lines
  CHECK_FALSE(State::from_text(with_last("0000000\n")).has_value());          // 7 wide
  CHECK_FALSE(State::from_text(with_last("000000000\n")).has_value());        // 9 wide
  CHECK_FALSE(State::from_text(with_last("00000004\n")).has_value());         // colour 4
  CHECK_FALSE(State::from_text(with_last("0000000x\n")).has_value());
  CHECK_FALSE(State::from_text(with_last("0000 0000\n")).has_value());       // split line
  CHECK_FALSE(State::from_text(with_last("00000000\n1")).has_value());       // trailing digit
  // 14 lines plus one line of 16 characters.
  CHECK_FALSE(State::from_text(good.substr(2 * empty_line.size()) + "0000000000000000\n")
                  .has_value());
  // A floating tile (above an empty cell).
  std::string floating = good;
  floating[(kRows - 2) * empty_line.size()] = '1';
  CHECK_FALSE(State::from_text(floating).has_value());
  // The same tile resting on another is fine.
  std::string resting = floating;
  resting[(kRows - 1) * empty_line.size()] = '2';
  CHECK(State::from_text(resting).has_value());
}

TEST_CASE("hanpang: group listing gives each group once with its size, colour and lowest cell") {
  const State s = hanpang_board({
      "11000000",
      "12200030",
      "12233133",
  });
  GroupList gl;
  s.groups(gl);
  CHECK(gl.size() == s.group_count());
  u128 seen = 0;
  for (const Group& g : gl) {
    CHECK((g.cells & seen) == 0);
    seen |= g.cells;
    CHECK(g.size == popcount(g.cells));
    CHECK(g.rep == lowest_bit(g.cells));
    CHECK(g.colour == s.colour_at(g.rep));
    CHECK(s.group_at(g.rep) == g.cells);
  }
  CHECK(seen == s.occupied());
  // 1s: {col0 x3, col1 top}, {col5}; 2s: {col1, col2 x2 each}; 3s: {col3,col4}, {col6 x2, col7}.
  CHECK(gl.size() == 5);
  // The reference lists the same groups.
  const auto ref_groups = reference_of(s).groups();
  CHECK(ref_groups.size() == 5u);
  for (const auto& rg : ref_groups)
    CHECK(test::ref_cells(s.group_at(from_protocol(rg[0].row + 1, rg[0].col + 1))) == rg);
  CHECK(s.group_at(cell(0, 5)) == 0);  // an empty cell has no group
}

TEST_CASE("hanpang: fallback_move takes the largest group that does not overflow") {
  const State a = hanpang_board({"11122233"});
  CHECK(popcount(a.group_at(fallback_move(a))) == 3);
  CHECK(fallback_move(a) == cell(0, 0));  // ties go to the lowest cell
  const State c = hanpang_board({"22211100"});
  CHECK(fallback_move(c) == cell(0, 0));  // whatever the colour
  // With column 0 full, only a group touching column 0 is safe.
  const State b = full_column_board();
  CHECK(col_of(fallback_move(b)) == 0);
  CHECK(fallback_move(State{}) == kNoCell);
}

TEST_CASE("hanpang: RowSource gives the same rows for the same seed") {
  RowSource a(77), b(77), c(78);
  bool differs = false;
  for (int i = 0; i < 50; ++i) {
    const Row x = a.next(), y = b.next(), z = c.next();
    CHECK(x == y);
    differs = differs || !(x == z);
  }
  CHECK(differs);
}

}  // namespace
