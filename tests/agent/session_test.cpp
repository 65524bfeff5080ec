// Whole sessions through the real tactica-agent binary: scripted games of both kinds, and every
// kind of bad judge input the agent must survive (each with its own test case).
#include <doctest/doctest.h>

#include <regex>

#include "child.hpp"
#include "judges.hpp"

using namespace agent_test;
namespace hp = tactica::hanpang;
namespace ib = tactica::icebreaking;

namespace {

const std::regex kPang("PANG (1[0-5]|[1-9]) [1-8]");
const std::regex kMove("MOVE [0-8] [0-8]");

// Runs the agent on a whole input and checks that stdout holds protocol lines only. With
// `settle`, stdin stays open until the agent has been quiet for 500 ms (child.hpp's run: replies
// then do not depend on the machine's load); without it (the cut scripts), input ends at once.
RunResult run_script(const std::string& game, const std::string& input, int mode = 0,
                     const std::vector<std::string>& extra = {}, bool settle = true) {
  TempDir dir;
  const auto cfg = dir.write(game + ".toml", testplug_config(game, mode));
  RunResult r = run(agent_args(cfg, extra), input, 10000, {}, settle ? 500 : 0);
  for (const auto& line : lines_of(r.out)) {
    CAPTURE(line);
    const bool ok = game == "hanpang" ? (line == "READY" || std::regex_match(line, kPang))
                                      : (line == "OK" || std::regex_match(line, kMove));
    CHECK(ok);
  }
  return r;
}

// The script cut after 0, step, 2 step ... bytes: the agent exits 0, within 3 s, each time.
void check_every_cut(const std::string& game, const std::string& script, std::size_t step) {
  for (std::size_t cut = 0; cut <= script.size(); cut += step) {
    CAPTURE(cut);
    const auto t = Clock::now();
    const auto r = run_script(game, script.substr(0, cut), 0, {}, false);
    CHECK(r.status == 0);
    CHECK(ms_since(t) < 3000);
  }
}

// The test plugin's good reply to a Hanpang game of these rows (played by the same policy).
std::vector<std::string> hanpang_expected(const std::vector<std::string>& rows) {
  std::vector<std::string> out;
  hp::State s;
  for (const auto& r : rows) {
    s.push_row(*hp::Row::parse(r));
    const int c = highest(s.occupied());
    out.push_back(tactica::protocol::hanpang_io::pang(c));
    s.play(c);
  }
  return out;
}

std::string board_text(std::uint64_t seed, const std::string& eol = "\n") {
  const auto b = ib::Board::from_seed(seed);
  std::string s;
  for (int r = 0; r < ib::kSize; ++r) s += b.line(r) + eol;
  return s;
}

std::string move_of(int cell) { return tactica::protocol::icebreaking_io::move(cell); }

}  // namespace

// ---- whole games ------------------------------------------------------------------------------

TEST_CASE("hanpang: whole games, the strategy's own moves, exit 0 at end of input") {
  TempDir dir;
  const auto cfg = dir.write("h.toml", testplug_config("hanpang", 0));
  for (std::uint64_t seed : {1, 2}) {
    Child c(agent_args(cfg));
    int mismatches = 0;
    const auto log = play_hanpang(c, seed, 5000, [&](const hp::State& s, int cell) {
      mismatches += cell != highest(s.occupied());
    });
    CHECK(log.failure == "");
    CHECK(log.moves > 0);
    CHECK(mismatches == 0);
    CHECK(log.bank_left_ms > 4000);
    c.close_stdin();
    CHECK(c.wait(3000) == 0);
    CHECK(c.read_all(100) == "");
    const auto& err = c.err();
    CHECK(err.find("tactica-agent: hanpang, plugin testplug 0.0.1, seed 1, params mode=0") == 0);
    CHECK(count_lines(err) == 1);  // the banner only
  }
}

TEST_CASE("hanpang: a whole game answered by the fallback when the strategy always throws") {
  // mode 2 (throwing, no publish): every answer is the Session's fallback move.
  TempDir dir;
  const auto cfg = dir.write("h.toml", testplug_config("hanpang", 2, "publish = false\n"));
  Child c(agent_args(cfg));
  int mismatches = 0;
  const auto log = play_hanpang(c, 5, 5000, [&](const hp::State& s, int cell) {
    mismatches += cell != hp::fallback_move(s);
  });
  CHECK(log.failure == "");
  CHECK(mismatches == 0);
  MESSAGE("fallback game: " << log.moves << " actions, score " << log.score);
  c.close_stdin();
  CHECK(c.wait(3000) == 0);
}

TEST_CASE("icebreaking: whole games as first and second, observe() kept in step, FINISH exits 0") {
  TempDir dir;
  const auto cfg = dir.write("i.toml", testplug_config("icebreaking", 0));
  for (auto side : {ib::A, ib::B}) {
    for (std::uint64_t seed : {3, 4}) {
      CAPTURE(seed);
      CAPTURE(int(side));
      Child c(agent_args(cfg));
      int mismatches = 0;
      const auto log = play_icebreaking(c, seed, side, 5000, [&](const ib::Position& p, int cell) {
        mismatches += cell != highest(p.ice);
      });
      CHECK(log.failure == "");
      CHECK(log.moves > 5);
      CHECK(mismatches == 0);
      const auto t = Clock::now();
      CHECK(c.wait(3000) == 0);  // FINISH, stdin still open
      CHECK(ms_since(t) < 1000);
      CHECK(c.err().find("observe mismatch") == std::string::npos);
      CHECK(count_lines(c.err()) == 1);
    }
  }
}

TEST_CASE("--verbose: one stderr line per move, stdout unchanged") {
  const auto r =
      run_script("hanpang", "START\nTURN 5000 12312312\nTURN 4990 33333333\n", 0, {"--verbose"});
  CHECK(r.status == 0);
  CHECK(lines_of(r.out) == std::vector<std::string>{"READY", hanpang_expected({"12312312"})[0],
                                                    hanpang_expected({"12312312", "33333333"})[1]});
  CHECK(r.err.find("move 1: PANG") != std::string::npos);
  CHECK(r.err.find("move 2: PANG") != std::string::npos);
  CHECK(r.err.find("optimum") != std::string::npos);
}

// ---- bad input: Hanpang
// ---------------------------------------------------------------------------

TEST_CASE("hanpang bad input: blank lines, trailing spaces, tabs and CRLF") {
  const auto r = run_script(
      "hanpang", "\r\n\nSTART \r\n\t\n\nTURN 5000 12312312\r\n   TURN\t4990   22222222  \r\n\n");
  CHECK(r.status == 0);
  auto expect = hanpang_expected({"12312312", "22222222"});
  expect.insert(expect.begin(), "READY");
  CHECK(lines_of(r.out) == expect);
  CHECK(r.err.find("line") == std::string::npos);  // nothing to report
}

TEST_CASE("hanpang bad input: unknown commands are ignored with a note") {
  const auto r =
      run_script("hanpang", "HELLO\nSTART\nFOO 1 2\nTURN 5000 12312312\nturn 1 12312312\nREADY\n");
  CHECK(r.status == 0);
  CHECK(lines_of(r.out) == std::vector<std::string>{"READY", hanpang_expected({"12312312"})[0]});
  CHECK(r.err.find("line 1: unknown command 'HELLO' ignored") != std::string::npos);
  CHECK(r.err.find("line 3: unknown command 'FOO' ignored") != std::string::npos);
  CHECK(r.err.find("line 5: unknown command 'turn' ignored") != std::string::npos);
  CHECK(r.err.find("line 6: unknown command 'READY' ignored") != std::string::npos);
}

TEST_CASE("hanpang bad input: TURN before START is played, without a READY") {
  const auto r = run_script("hanpang", "TURN 5000 12312312\nSTART\nTURN 4990 11111111\n");
  CHECK(r.status == 0);
  CHECK(lines_of(r.out) == std::vector<std::string>{hanpang_expected({"12312312"})[0],
                                                    hanpang_expected({"12312312", "11111111"})[1]});
  CHECK(r.err.find("TURN before START") != std::string::npos);
  CHECK(r.err.find("START again") != std::string::npos);
}

TEST_CASE("hanpang bad input: a new_row of 7 or 9 characters") {
  for (const char* row : {"1231231", "123123123"}) {
    CAPTURE(row);
    const auto r = run_script("hanpang", std::string("START\nTURN 5000 ") + row +
                                             "\nTURN 4990 12312312\nTURN 4980 33333333\n");
    CHECK(r.status == 0);
    const auto out = lines_of(r.out);
    REQUIRE(out.size() == 4);
    // Out of step with the judge: only bottom-row cells (protocol row 15), always legal.
    for (int i = 1; i < 4; ++i) CHECK(out[i].rfind("PANG 15 ", 0) == 0);
    CHECK(r.err.find(std::to_string(std::string(row).size()) + " characters") != std::string::npos);
    CHECK(r.err.find("bottom-row cells") != std::string::npos);
  }
}

TEST_CASE("hanpang bad input: non-digits") {
  const auto r = run_script("hanpang", "START\nTURN 4a00 12312312\nTURN 4990 12x12312\nTURN x y\n");
  CHECK(r.status == 0);
  const auto out = lines_of(r.out);
  REQUIRE(out.size() == 4);
  CHECK(out[1] == hanpang_expected({"12312312"})[0]);  // the bank is unreadable, the row is fine
  CHECK(out[2].rfind("PANG 15 ", 0) == 0);
  CHECK(out[3].rfind("PANG 15 ", 0) == 0);
  CHECK(r.err.find("remaining_ms '4a00' is not a number") != std::string::npos);
  CHECK(r.err.find("new_row '12x12312' is not 8 characters from 1..3") != std::string::npos);
}

TEST_CASE("hanpang bad input: out-of-range numbers") {
  const auto r = run_script("hanpang",
                            "START\nTURN 99999999999999999999999999 12312312\nTURN 6000 11111111\n"
                            "TURN -5 22222222\n");
  CHECK(r.status == 0);
  auto expect = hanpang_expected({"12312312", "11111111", "22222222"});
  expect.insert(expect.begin(), "READY");
  CHECK(lines_of(r.out) == expect);
  CHECK(r.err.find("remaining_ms '9999") != std::string::npos);
  CHECK(r.err.find("...' is out of range 0..5000") != std::string::npos);
  CHECK(r.err.find("'6000' is out of range") != std::string::npos);
  CHECK(r.err.find("'-5' is not a number") != std::string::npos);
}

TEST_CASE("hanpang bad input: extremely long lines") {
  std::string input = "START\n" + std::string(1 << 20, 'A') + "\n";
  input += "TURN 5000 12312312" + std::string(300000, ' ') + "\n";
  input += "TURN 4990 " + std::string(1 << 20, '1') + "\n";
  input += std::string(500000, ' ') + "\nTURN 4980 11111111\n";
  const auto t = Clock::now();
  const auto r = run_script("hanpang", input);
  CHECK(ms_since(t) < 5000);
  CHECK(r.status == 0);
  const auto out = lines_of(r.out);
  REQUIRE(out.size() == 4);
  CHECK(out[1] == hanpang_expected({"12312312"})[0]);
  CHECK(out[2].rfind("PANG 15 ", 0) == 0);  // the endless row cannot be read
  CHECK(r.err.find("longer than 4096 bytes") != std::string::npos);
}

TEST_CASE("hanpang bad input: TURN arguments in either order") {
  const auto r = run_script("hanpang", "START\nTURN 12312312 5000\nTURN 4990 22222222\n");
  auto expect = hanpang_expected({"12312312", "22222222"});
  expect.insert(expect.begin(), "READY");
  CHECK(lines_of(r.out) == expect);
  CHECK(r.err.find("line") == std::string::npos);
}

TEST_CASE("hanpang bad input: end of input at any point") {
  const std::string script = "START\nTURN 5000 12312312\nTURN 4990 11111111\nTURN 4980 22222222\n";
  check_every_cut("hanpang", script, 3);
}

// ---- bad input: Icebreaking -------------------------------------------------------------------

TEST_CASE("icebreaking bad input: blank lines, trailing spaces and CRLF") {
  const auto b = ib::Board::from_seed(7);
  std::string input = "\r\n";
  for (int r = 0; r < ib::kSize; ++r) input += "  " + b.line(r) + " \t\r\n\n";
  input += "READY FIRST \r\n\r\nTURN 5000 5000\r\n";
  const auto r = run_script("icebreaking", input);
  CHECK(r.status == 0);
  const auto pos = ib::Position::start(b);
  CHECK(lines_of(r.out) == std::vector<std::string>{"OK", move_of(highest(pos.ice))});
  CHECK(r.err.find("line") == std::string::npos);
}

TEST_CASE("icebreaking bad input: unknown commands are ignored, even among the board lines") {
  const auto b = ib::Board::from_seed(7);
  std::string input = "HELLO\n";
  for (int r = 0; r < ib::kSize; ++r) input += b.line(r) + (r == 4 ? "\nNOISE 1 2\n" : "\n");
  input += "PING\nREADY FIRST\nTURN 5000 5000\nMOVE 1 1\n";
  const auto r = run_script("icebreaking", input);
  CHECK(r.status == 0);
  CHECK(lines_of(r.out) ==
        std::vector<std::string>{"OK", move_of(highest(ib::Position::start(b).ice))});
  for (const char* w : {"'HELLO'", "'NOISE'", "'PING'", "'MOVE'"})
    CHECK(r.err.find(w) != std::string::npos);
}

TEST_CASE("icebreaking bad input: TURN before READY is played as the first player") {
  const auto b = ib::Board::from_seed(8);
  const auto r = run_script("icebreaking", board_text(8) + "TURN 5000 5000\n");
  CHECK(r.status == 0);
  CHECK(lines_of(r.out) == std::vector<std::string>{move_of(highest(ib::Position::start(b).ice))});
  CHECK(r.err.find("TURN before READY") != std::string::npos);
}

TEST_CASE("icebreaking: a bare READY, the side learnt from TURN or OPP") {
  const auto b = ib::Board::from_seed(9);
  auto pos = ib::Position::start(b);
  const auto first = run_script("icebreaking", board_text(9) + "READY\nTURN 5000 5000\n");
  CHECK(lines_of(first.out) == std::vector<std::string>{"OK", move_of(highest(pos.ice))});

  const int opp = tactica::lowest_bit(pos.ice);
  pos.play(b, opp);
  const auto second =
      run_script("icebreaking", board_text(9) + "READY\nOPP " + std::to_string(ib::row_of(opp)) +
                                    " " + std::to_string(ib::col_of(opp)) + " 3\nTURN 5000 4997\n");
  CHECK(lines_of(second.out) == std::vector<std::string>{"OK", move_of(highest(pos.ice))});
  CHECK(second.err.find("observe mismatch") == std::string::npos);
  CHECK(count_lines(second.err) == 1);
}

TEST_CASE("icebreaking bad input: non-digits in commands and board") {
  auto b = ib::Board::from_seed(10);
  const int top = highest(ib::Position::start(b).ice);
  // Spoil the token of the cell the strategy would choose: the agent must treat it as a hole.
  std::string text;
  for (int r = 0; r < ib::kSize; ++r) {
    for (int c = 0; c < ib::kSize; ++c) {
      const int cell = ib::cell(r, c);
      text += cell == top                         ? "x"
              : (b.holes & tactica::bit128(cell)) ? "#"
                                                  : std::to_string(b.score[cell]);
      text += c + 1 < ib::kSize ? " " : "\n";
    }
  }
  const auto r =
      run_script("icebreaking", text + "READY FIRST\nTURN abc 5000\nOPP x 1 5\nTURN 4990 4990\n");
  CHECK(r.status == 0);
  const auto out = lines_of(r.out);
  REQUIRE(out.size() == 3);
  CHECK(out[1] != move_of(top));
  CHECK(out[2] != move_of(top));
  CHECK(out[1] != out[2]);
  CHECK(r.err.find("token " + std::to_string(ib::col_of(top) + 1) + " 'x' is neither") !=
        std::string::npos);
  CHECK(r.err.find("my_time 'abc' is not a number") != std::string::npos);
  CHECK(r.err.find("row 'x' is not a number") != std::string::npos);
  CHECK(r.err.find("OPP without a readable cell: not applied") != std::string::npos);
}

TEST_CASE("icebreaking bad input: out-of-range numbers") {
  const auto r =
      run_script("icebreaking", board_text(11) +
                                    "READY SECOND\nOPP 9 9 5\nOPP -1 0 3\nTURN 99999 5000\n"
                                    "TURN 4000 999999999999999999999999\n");
  CHECK(r.status == 0);
  const auto out = lines_of(r.out);
  REQUIRE(out.size() == 3);
  for (int i = 1; i < 3; ++i) CHECK(std::regex_match(out[i], kMove));
  CHECK(out[1] != out[2]);
  CHECK(r.err.find("row '9' is out of range 0..8") != std::string::npos);
  CHECK(r.err.find("my_time '99999' is out of range 0..5000") != std::string::npos);
  CHECK(r.err.find("opp_time '9999") != std::string::npos);
}

TEST_CASE("icebreaking bad input: OPP on a taken cell or a hole") {
  const auto b = ib::Board::from_seed(12);
  auto pos = ib::Position::start(b);
  const int ours = highest(pos.ice);
  const int hole = tactica::lowest_bit(b.holes);
  const auto rc = [](int c) {
    return std::to_string(ib::row_of(c)) + " " + std::to_string(ib::col_of(c));
  };
  const auto r =
      run_script("icebreaking", board_text(12) + "READY FIRST\nTURN 5000 5000\nOPP " + rc(ours) +
                                    " 4\nTURN 4990 4996\nOPP " + rc(hole) + " 4\nTURN 4980 4992\n");
  CHECK(r.status == 0);
  const auto out = lines_of(r.out);
  REQUIRE(out.size() == 4);
  CHECK(out[1] == move_of(ours));
  pos.play(b, ours);
  const int second = highest(pos.ice);
  CHECK(out[2] == move_of(second));  // the bad OPP was not applied
  pos.play(b, second);
  CHECK(out[3] == move_of(highest(pos.ice)));
  CHECK(r.err.find("OPP " + rc(ours) + " is not empty ice in our record") != std::string::npos);
  CHECK(r.err.find("OPP " + rc(hole) + " is not empty ice in our record") != std::string::npos);
}

TEST_CASE("icebreaking bad input: a short board, extra board lines, wrong hole count") {
  const auto b = ib::Board::from_seed(13);
  std::string eight;
  for (int r = 0; r < 8; ++r) eight += b.line(r) + "\n";
  const auto r = run_script("icebreaking", eight + "READY FIRST\nTURN 5000 5000\n");
  CHECK(r.status == 0);
  const auto out = lines_of(r.out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].rfind("MOVE 8 ", 0) != 0);  // the missing row is not played
  CHECK(r.err.find("only 8 board rows") != std::string::npos);

  std::string ten = board_text(13) + board_text(13).substr(0, board_text(13).find('\n') + 1);
  const auto r2 = run_script("icebreaking", ten + "READY FIRST\nTURN 5000 5000\n");
  CHECK(lines_of(r2.out).size() == 2);
  CHECK(r2.err.find("board line after the board was complete") != std::string::npos);

  const std::string full = board_text(13);
  const auto r3 = run_script("icebreaking", std::string(9, '\n') + "# # # # # # # # #\n" +
                                                full.substr(full.find('\n') + 1) +
                                                "READY FIRST\nTURN 5000 5000\n");
  CHECK(lines_of(r3.out).size() == 2);
  CHECK(r3.err.find("holes, not 9") != std::string::npos);
}

TEST_CASE("icebreaking bad input: extremely long lines") {
  std::string input = std::string(1 << 20, 'Z') + "\n" + board_text(14) + "READY FIRST\n" +
                      std::string(1 << 20, ' ') + "\nTURN 5000 5000" + std::string(200000, ' ') +
                      "\n";
  const auto r = run_script("icebreaking", input);
  CHECK(r.status == 0);
  CHECK(lines_of(r.out).size() == 2);
  CHECK(r.err.find("longer than 4096 bytes") != std::string::npos);
}

TEST_CASE("icebreaking bad input: end of input at any point, FINISH at any point") {
  const auto b = ib::Board::from_seed(15);
  auto pos = ib::Position::start(b);
  const int opp = tactica::lowest_bit(pos.ice);
  const std::string script = board_text(15) + "READY SECOND\nOPP " +
                             std::to_string(ib::row_of(opp)) + " " +
                             std::to_string(ib::col_of(opp)) + " 2\nTURN 5000 4998\nFINISH\n";
  check_every_cut("icebreaking", script, 7);
  // FINISH before anything else.
  CHECK(run_script("icebreaking", "FINISH\n").status == 0);
  // FINISH ends the run even with more input after it.
  const auto r =
      run_script("icebreaking", board_text(15) + "READY FIRST\nFINISH\nTURN 5000 5000\n");
  CHECK(lines_of(r.out) == std::vector<std::string>{"OK"});
}
