// Icebreaking rules: the worked cases of shared/spec/icebreaking.md, checked on the engine and
// on the reference game alike; the board text form, seeded boards, end and winner, bad input.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rules_helpers.hpp"
#include "tactica/icebreaking.hpp"

namespace {

using namespace tactica;
using namespace tactica::icebreaking;

// The board of the worked examples: row 0 is all holes; cell (r, c) of rows 1..8 scores
// ((r + 2c) mod 5) - 2, so every value -2..2 occurs and a capture's sum is easy to check.
int example_value(int r, int c) { return (r + 2 * c) % 5 - 2; }

Board example_board() {
  std::string text = "# # # # # # # # #\n";
  for (int r = 1; r < kSize; ++r) {
    for (int c = 0; c < kSize; ++c) {
      if (c) text += ' ';
      text += std::to_string(example_value(r, c));
    }
    text += '\n';
  }
  const auto b = Board::from_text(text);
  REQUIRE(b.has_value());
  return *b;
}

// The reference game of `b` where only the cells of `ice` are still empty ice: the rest was
// taken earlier by the second player.
ref::icebreaking::Game reference_with_ice(const Board& b, u128 ice) {
  auto ref = test::reference_of(b);
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c)
      if (ref.owner[r][c] == ref::icebreaking::kIce && !(ice & bit128(cell(r, c))))
        ref.owner[r][c] = ref::icebreaking::kSecond;
  return ref;
}

// A worked example as a picture of the 9 rows: 'o' the chosen cell, 'c' empty ice the move
// must capture, '.' empty ice that must stay, anything else not empty ice (taken earlier by the
// second player, or the holes of row 0). The first player moves.
struct Example {
  Board board = example_board();
  Position pos;
  ref::icebreaking::Game ref;
  int chosen = kNoCell;
  u128 expect_captured = 0, expect_staying = 0;

  explicit Example(const std::vector<std::string>& picture) {
    REQUIRE(picture.size() == static_cast<std::size_t>(kSize));
    u128 ice = 0;
    for (int r = 0; r < kSize; ++r) {
      REQUIRE(picture[r].size() == static_cast<std::size_t>(kSize));
      for (int c = 0; c < kSize; ++c) {
        const char ch = picture[r][c];
        const u128 b = bit128(cell(r, c));
        if (ch == 'o') chosen = cell(r, c);
        if (ch == 'c') expect_captured |= b;
        if (ch == '.') expect_staying |= b;
        if (ch == 'o' || ch == 'c' || ch == '.') ice |= b;
      }
    }
    REQUIRE(chosen != kNoCell);
    REQUIRE((ice & board.holes) == 0);
    pos = Position::start(board);
    pos.ice = ice;
    pos.owned[B] = board.ice() & ~ice;
    ref = reference_with_ice(board, ice);
  }

  int expected_gain() const {
    int g = example_value(row_of(chosen), col_of(chosen));
    for (int x : bits{expect_captured}) g += example_value(row_of(x), col_of(x));
    return g;
  }

  // Plays the chosen cell on both games and checks the outcome against the picture.
  void check() {
    CHECK(pos.captures(chosen) == expect_captured);
    const MoveResult res = pos.play(board, chosen);
    CHECK(res.captured == expect_captured);
    CHECK(res.gain == expected_gain());
    CHECK(pos.total[A] == expected_gain());
    CHECK(pos.total[B] == 0);
    CHECK(pos.ice == expect_staying);
    CHECK(pos.owned[A] == (expect_captured | bit128(chosen)));
    CHECK(pos.to_move == B);
    CHECK(pos.ply == 1);

    const auto r = ref.play(row_of(chosen), col_of(chosen));
    CHECK(r.gain == expected_gain());
    CHECK(r.captured == test::ref_cells_ib(expect_captured));
    const auto sets = test::sets_of(ref);
    CHECK(sets.ice == expect_staying);
    CHECK(sets.first == (expect_captured | bit128(chosen)));
  }
};

// The worked captures of the spec, each a picture as Example reads it.
struct Worked {
  const char* name;
  std::vector<std::string> picture;
};

const Worked kWorked[] = {
    {"a split 12/5/5 captures both 5s",
     {
         "xxxxxxxxx",
         ".xxxxxxxx",  // a separate region: never part of the split
         "xxxxxxxxx",
         "cxxxxxxxc",
         "ccccocccc",
         "xxxx.xxxx",
         "xxxx.xxxx",
         "xxxx.xxxx",
         ".........",
     }},
    {"a split 7/7/3 captures only the 3",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "...xxx...",
         "....o....",
         "xxxxcxxxx",
         "xxxxcxxxx",
         "xxxxcxxxx",
         "xxxxxxxxx",
     }},
    {"all components of equal size: nothing is captured: 4/4",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "....o....",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
     }},
    {"all components of equal size: nothing is captured: 4/4/4/4",
     {
         "xxxxxxxxx",
         "xxxx.xxxx",
         "xxx..xxxx",
         "xxxx.xxxx",
         "....o....",
         "xxxx.xxxx",
         "xxxx.xxxx",
         "xxxx..xxx",
         "xxxxxxxxx",
     }},
    {"all components of equal size: nothing is captured: 1/1",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxx.o.xxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
     }},
    {"four components 3/3/2/1 capture the 2 and the 1",
     {
         "xxxxxxxxx",
         "xxxx.xxxx",
         "xxxx.xxxx",
         "xxxx.xxxx",
         "xxccocxxx",
         "xxxx.xxxx",
         "xxxx.xxxx",
         "xxxx.xxxx",
         "xxxxxxxxx",
     }},
    {"a two-way split 2/1 captures the 1",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxx..ocxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
     }},
    {"a region that does not split captures nothing: connected around the chosen cell",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         ".........",
         "....o....",
         "xxxx.....",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
     }},
    {"a region that does not split captures nothing: connected only by a long way round",
     {
         "xxxxxxxxx",
         ".........",
         ".xxxxxxx.",
         ".xxxxxxx.",
         "....o....",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
     }},
    {"a region that does not split captures nothing: the end of a line",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "o........",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
     }},
    {"a single isolated cell is taken alone",
     {
         "xxxxxxxxx",
         "xxxxxxxxx",
         "..xxxxxxx",
         "xxxxxxxxx",
         "xxxxoxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "xxxxxxxxx",
         "........x",
     }},
};

TEST_CASE("icebreaking: the worked captures, on the engine and the reference") {
  for (const auto& w : kWorked) {
    SUBCASE(w.name) {
      Example e(w.picture);
      e.check();
    }
  }
}

TEST_CASE("icebreaking: a region that does not split captures nothing: the whole board") {
  // Row 0 is holes; everything else is ice.
  std::vector<std::string> pic(kSize, ".........");
  pic[0] = "xxxxxxxxx";
  pic[5] = "....o....";
  Example e(pic);
  e.check();
}

TEST_CASE("icebreaking: the captured cells' scores are added to the mover's total") {
  // Left and right arms of 5 stay; the down arm of 3 is captured: (5,4) 1, (6,4) 2, (7,4) -2.
  Example e({
      "xxxxxxxxx", "xxxxxxxxx", "xxxxxxxxx", "x.xxxxxx.", "....o....",
      "xxxxcxxxx", "xxxxcxxxx", "xxxxcxxxx", "xxxxxxxxx",
  });
  CHECK(example_value(4, 4) == 0);
  CHECK(example_value(5, 4) + example_value(6, 4) + example_value(7, 4) == 1);
  e.check();
  // The second player then splits the right arm (4,5..8)+(3,8) into 1/3 and captures the 1.
  const MoveResult r = e.pos.play(e.board, cell(4, 6));
  CHECK(r.captured == bit128(cell(4, 5)));
  CHECK(r.gain == example_value(4, 6) + example_value(4, 5));
  CHECK(e.pos.total[B] == r.gain);
  CHECK(e.pos.to_move == A);
}

// Two non-adjacent single cells of the given values; the first player takes `first`.
Position two_cells(const Board& b, int first, int second) {
  Position p = Position::start(b);
  p.ice = bit128(first) | bit128(second);
  p.owned[B] = b.ice() & ~p.ice;
  return p;
}

TEST_CASE("icebreaking: end of the game, winner and draw") {
  const Board b = example_board();
  // Values: (4,0) 2, (5,0) -2, (2,0) 0, (2,5) 0.
  REQUIRE(example_value(4, 0) == 2);
  REQUIRE(example_value(5, 0) == -2);
  REQUIRE(example_value(2, 0) == 0);
  REQUIRE(example_value(2, 5) == 0);
  SUBCASE("the first player wins") {
    Position p = two_cells(b, cell(4, 0), cell(2, 0));
    p.play(b, cell(4, 0));
    CHECK_FALSE(p.over());
    CHECK(p.legal(cell(2, 0)));
    CHECK_FALSE(p.legal(cell(4, 0)));
    p.play(b, cell(2, 0));
    CHECK(p.over());
    CHECK(p.total[A] == 2);
    CHECK(p.total[B] == 0);
    CHECK(p.leader() == 1);
    CHECK(p.margin() == 2);  // A to move (nothing left), 2 ahead
  }
  SUBCASE("the second player wins") {
    Position p = two_cells(b, cell(5, 0), cell(2, 0));
    p.play(b, cell(5, 0));
    p.play(b, cell(2, 0));
    CHECK(p.over());
    CHECK(p.leader() == -1);
    CHECK(p.margin() == -2);
  }
  SUBCASE("a draw") {
    Position p = two_cells(b, cell(2, 0), cell(2, 5));
    p.play(b, cell(2, 0));
    p.play(b, cell(2, 5));
    CHECK(p.over());
    CHECK(p.total[A] == p.total[B]);
    CHECK(p.leader() == 0);
  }
  SUBCASE("the reference agrees on the winner") {
    Position p = two_cells(b, cell(5, 0), cell(2, 0));
    auto ref = reference_with_ice(b, p.ice);
    ref.play(5, 0);
    ref.play(2, 0);
    CHECK(ref.over());
    CHECK(ref.leader() == -1);
  }
}

TEST_CASE("icebreaking: legal moves are exactly the empty ice cells") {
  const Board b = Board::from_seed(3);
  Position p = Position::start(b);
  CHECK(p.ice == (kAll & ~b.holes));
  CHECK(popcount(p.ice) == kIce);
  MoveList ml;
  p.moves(ml);
  CHECK(ml.size() == kIce);
  for (int c : ml) CHECK(p.legal(c));
  for (int h : bits{b.holes}) CHECK_FALSE(p.legal(h));
  CHECK_FALSE(p.legal(-1));
  CHECK_FALSE(p.legal(cell(0, 9)));  // the guard column
  CHECK_FALSE(p.legal(cell(9, 0)));
  CHECK_FALSE(p.legal(200));
  const int first = ml[0];
  p.play(b, first);
  CHECK_FALSE(p.legal(first));
  p.moves(ml);
  CHECK(ml.size() <= kIce - 1);
  for (int c : ml) CHECK(c != first);
}

TEST_CASE("icebreaking: seeded boards have 9 holes and scores in -2..2") {
  for (std::uint64_t seed = 0; seed < 500; ++seed) {
    CAPTURE(seed);
    const Board b = Board::from_seed(seed);
    CHECK(popcount(b.holes) == kHoles);
    CHECK((b.holes & ~kAll) == 0);
    int sum = 0;
    for (int r = 0; r < kSize; ++r)
      for (int c = 0; c < kSize; ++c) {
        const int v = b.score[cell(r, c)];
        CHECK(v >= -2);
        CHECK(v <= 2);
        if (b.holes & bit128(cell(r, c))) CHECK(v == 0);
        sum += v;
      }
    CHECK(b.sum(b.ice()) == sum);
    CHECK(Board::from_seed(seed) == b);
  }
}

TEST_CASE("icebreaking: the text form round-trips") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const Board b = Board::from_seed(seed);
    const auto back = Board::from_text(b.to_text());
    REQUIRE(back.has_value());
    CHECK(*back == b);
  }
  // Leading '+', extra blanks, blank lines and CRLF are accepted.
  const Board b = Board::from_seed(9);
  std::string loose = "\n";
  for (int r = 0; r < kSize; ++r) {
    std::string line = b.line(r);
    for (std::size_t i = 0; i < line.size(); ++i)
      if (line[i] == '1' && (i == 0 || line[i - 1] == ' ')) line.insert(i++, "+");
    loose += "  " + line + " \t\r\n\n";
  }
  const auto back = Board::from_text(loose);
  REQUIRE(back.has_value());
  CHECK(*back == b);
}

TEST_CASE("icebreaking: bad board text is rejected") {
  const std::string good = Board::from_seed(4).to_text();
  REQUIRE(Board::from_text(good).has_value());
  std::vector<std::string> lines;
  for (std::size_t i = 0, j; i < good.size(); i = j + 1) {
    j = good.find('\n', i);
    lines.push_back(good.substr(i, j - i));
  }
  REQUIRE(lines.size() == static_cast<std::size_t>(kSize));
  auto join = [](const std::vector<std::string>& ls) {
    std::string t;
    for (const auto& l : ls) t += l + '\n';
    return t;
  };
  auto replaced = [&](int row, const std::string& line) {
    auto ls = lines;
    ls[row] = line;
    return join(ls);
  };
  CHECK_FALSE(Board::from_text("").has_value());
  CHECK_FALSE(Board::from_text(join({lines.begin(), lines.end() - 1})).has_value());  // 8 lines
  auto ten = lines;
  ten.push_back(lines[0]);
  CHECK_FALSE(Board::from_text(join(ten)).has_value());  // 10 lines
  CHECK_FALSE(Board::from_text(replaced(0, "0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "0 0 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "3 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "-3 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "a 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "1.0 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "--1 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "## 0 0 0 0 0 0 0 0")).has_value());
  CHECK_FALSE(Board::from_text(replaced(0, "00 0 0 0 0 0 0 0 0")).has_value());
  // Hole count must be exactly 9.
  auto holes_in = [&](int n) {
    std::vector<std::string> ls;
    int left = n;
    for (int r = 0; r < kSize; ++r) {
      std::string l;
      for (int c = 0; c < kSize; ++c) {
        if (c) l += ' ';
        l += left-- > 0 ? "#" : "0";
      }
      ls.push_back(l);
    }
    return join(ls);
  };
  CHECK(Board::from_text(holes_in(9)).has_value());
  CHECK_FALSE(Board::from_text(holes_in(8)).has_value());
  CHECK_FALSE(Board::from_text(holes_in(10)).has_value());
  CHECK_FALSE(Board::from_text(holes_in(0)).has_value());
}

TEST_CASE("icebreaking: parse_line explains what is wrong") {
  Board b;
  CHECK(b.parse_line(0, "0 1 2 -1 -2 # 0 0 0").empty());
  CHECK(b.holes == bit128(cell(0, 5)));
  CHECK(b.score[cell(0, 3)] == -1);
  CHECK(b.parse_line(1, "+1 +2 0 0 0 0 0 0 0").empty());
  CHECK(b.score[cell(1, 1)] == 2);
  for (const char* bad : {"", "0 0 0 0 0 0 0 0", "0 0 0 0 0 0 0 0 0 0", "x 0 0 0 0 0 0 0 0",
                          "3 0 0 0 0 0 0 0 0", "-0 0 0 0 0 0 0 0 0", "0 0 0 0 0 0 0 0 #0",
                          "+0 0 0 0 0 0 0 0 0", "2147483648 0 0 0 0 0 0 0 0"}) {
    CAPTURE(bad);
    Board t;
    CHECK_FALSE(t.parse_line(2, bad).empty());
  }
  // Setting a cell again replaces it: a hole becomes ice and the other way round.
  Board t;
  REQUIRE(t.parse_line(0, "# # # # # # # # #").empty());
  REQUIRE(t.parse_line(0, "2 2 2 2 2 2 2 2 2").empty());
  CHECK(t.holes == 0);
  CHECK(t.sum(kAll) == 18);
}

TEST_CASE("icebreaking: a copied position is independent (cheap copy-make)") {
  const Board b = Board::from_seed(12);
  const Position start = Position::start(b);
  Position p = start;
  MoveList ml;
  p.moves(ml);
  p.play(b, ml[5]);
  CHECK_FALSE(p == start);
  CHECK(start.ply == 0);
  CHECK(popcount(start.ice) == kIce);
}

}  // namespace
