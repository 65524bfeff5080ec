// The protocol codec, the time manager and the fallback moves, in-process.
#include "tactica/protocol.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>

#include "tactica/session.hpp"
#include "tactica/timebank.hpp"

using namespace tactica;
namespace hio = tactica::protocol::hanpang_io;
namespace iio = tactica::protocol::icebreaking_io;

TEST_CASE("split: spaces, tabs, CR and control bytes separate tokens") {
  const auto t = protocol::split("  TURN\t4000   12312312 \r");
  REQUIRE(t.count == 3);
  CHECK(t[0] == "TURN");
  CHECK(t[1] == "4000");
  CHECK(t[2] == "12312312");
  CHECK(protocol::split("").empty());
  CHECK(protocol::split(" \t\r").empty());
  std::string many;
  for (int i = 0; i < 20; ++i) many += "x ";
  const auto m = protocol::split(many);
  CHECK(m.count == protocol::Tokens::kMaxTokens);
  CHECK(m.extra == 20 - protocol::Tokens::kMaxTokens);
}

TEST_CASE("parse_int: digits only, ranges, no overflow on long numbers") {
  std::vector<std::string> why;
  CHECK(protocol::parse_int("0", 0, 5000, "x", &why) == 0);
  CHECK(protocol::parse_int("5000", 0, 5000, "x", &why) == 5000);
  CHECK(protocol::parse_int("-2", -2, 2, "x", &why) == -2);
  CHECK(why.empty());
  CHECK(!protocol::parse_int("5001", 0, 5000, "x", &why));
  CHECK(!protocol::parse_int("-1", 0, 5000, "x", &why));  // a sign is not a digit here
  CHECK(!protocol::parse_int("12a", 0, 5000, "x", &why));
  CHECK(!protocol::parse_int("", 0, 5000, "x", &why));
  CHECK(!protocol::parse_int("-", -5, 5, "x", &why));
  CHECK(!protocol::parse_int(std::string(400, '9'), 0, 5000, "x", &why));
  CHECK(!protocol::parse_int("18446744073709551616", 0, INT64_MAX, "x", &why));
  CHECK(protocol::parse_int("9223372036854775807", 0, INT64_MAX, "x", &why) == INT64_MAX);
  REQUIRE(why.size() == 7);
  CHECK(why[0] == "x '5001' is out of range 0..5000");
  CHECK(why[2] == "x '12a' is not a number");
}

TEST_CASE("hanpang: START and TURN in either order") {
  CHECK(hio::parse("START").kind == hio::Kind::start);
  CHECK(hio::parse("START\r").problems.empty());
  CHECK(hio::parse("").kind == hio::Kind::blank);
  CHECK(hio::parse("   \r").kind == hio::Kind::blank);
  CHECK(hio::parse("HELLO 1 2").kind == hio::Kind::unknown);
  CHECK(hio::parse("turn 1 12312312").kind == hio::Kind::unknown);  // commands are upper case

  for (const char* line : {"TURN 4321 12312332", "TURN 12312332 4321", "TURN\t4321  12312332 \r"}) {
    CAPTURE(line);
    const auto c = hio::parse(line);
    CHECK(c.kind == hio::Kind::turn);
    CHECK(c.problems.empty());
    REQUIRE(c.remaining_ms);
    CHECK(*c.remaining_ms == 4321);
    REQUIRE(c.row);
    CHECK(c.row->str() == "12312332");
  }
  // A bank that is also a valid row? Impossible (at most 5000), but a row of digits 1..3 of
  // length 4 is read as the bank in first place.
  const auto c = hio::parse("TURN 1231 12312312");
  CHECK(c.remaining_ms == 1231);
  CHECK(c.row->str() == "12312312");
}

TEST_CASE("hanpang: malformed TURN lines keep what can be read") {
  const auto seven = hio::parse("TURN 4000 1231231");
  CHECK(seven.remaining_ms == 4000);
  CHECK(!seven.row);
  CHECK(seven.row_text == "1231231");
  REQUIRE(seven.problems.size() == 1);
  CHECK(seven.problems[0].find("7 characters") != std::string::npos);

  const auto nine = hio::parse("TURN 123123123 4000");
  CHECK(nine.remaining_ms == 4000);
  CHECK(!nine.row);

  const auto digits = hio::parse("TURN 40a0 12312312");
  CHECK(!digits.remaining_ms);
  CHECK(digits.row);
  const auto big = hio::parse("TURN 99999999999999999999999 12312312");
  CHECK(!big.remaining_ms);
  CHECK(big.row);
  CHECK(big.problems[0].find("out of range") != std::string::npos);
  const auto over = hio::parse("TURN 5001 12312312");
  CHECK(!over.remaining_ms);

  const auto none = hio::parse("TURN");
  CHECK(none.kind == hio::Kind::turn);
  CHECK(!none.remaining_ms);
  CHECK(!none.row);
  const auto only_row = hio::parse("TURN 12312312");
  CHECK(only_row.row);
  CHECK(!only_row.remaining_ms);
  const auto extra = hio::parse("TURN 100 12312312 7");
  CHECK(extra.row);
  CHECK(extra.remaining_ms == 100);
  CHECK(extra.problems.size() == 1);

  CHECK(hio::guess_row("1231231").str() == "12312311");
  CHECK(hio::guess_row("1x3").str() == "11311111");
  CHECK(hio::guess_row("3333333333").str() == "33333333");
}

TEST_CASE("hanpang: replies") {
  CHECK(hio::ready() == "READY");
  CHECK(hio::pang(hanpang::cell(0, 0)) == "PANG 15 1");
  CHECK(hio::pang(hanpang::cell(7, 14)) == "PANG 1 8");
  CHECK(hio::pang(hanpang::from_protocol(3, 5)) == "PANG 3 5");
}

TEST_CASE("icebreaking: commands") {
  const auto r1 = iio::parse("READY FIRST");
  CHECK(r1.kind == iio::Kind::ready);
  CHECK(r1.side == iio::Side::first);
  CHECK(iio::parse("READY SECOND\r").side == iio::Side::second);
  const auto bare = iio::parse("READY");
  CHECK(bare.side == iio::Side::unknown);
  CHECK(bare.problems.empty());
  const auto odd = iio::parse("READY THIRD");
  CHECK(odd.side == iio::Side::unknown);
  CHECK(odd.problems.size() == 1);

  const auto t = iio::parse("TURN 4800 4900");
  CHECK(t.kind == iio::Kind::turn);
  CHECK(t.my_time == 4800);
  CHECK(t.opp_time == 4900);
  CHECK(t.problems.empty());
  CHECK(!iio::parse("TURN x 4900").my_time);
  CHECK(!iio::parse("TURN 6000 4900").my_time);
  CHECK(iio::parse("TURN").problems.size() == 1);

  const auto o = iio::parse("OPP 3 4 17");
  CHECK(o.kind == iio::Kind::opp);
  CHECK(o.cell == icebreaking::cell(3, 4));
  CHECK(o.time == 17);
  CHECK(!iio::parse("OPP 9 4 17").cell);
  CHECK(!iio::parse("OPP -1 4 17").cell);
  CHECK(!iio::parse("OPP a 4 17").cell);
  CHECK(iio::parse("OPP 1 2").cell == icebreaking::cell(1, 2));
  CHECK(iio::parse("FINISH").kind == iio::Kind::finish);
  CHECK(iio::parse("FINISH now").problems.size() == 1);
  CHECK(iio::parse("NOPE").kind == iio::Kind::unknown);
  CHECK(iio::parse("-1 0 # 2").kind == iio::Kind::board_line);
  CHECK(iio::parse("# 0 1").kind == iio::Kind::board_line);
  CHECK(iio::ok() == "OK");
  CHECK(iio::move(icebreaking::cell(8, 0)) == "MOVE 8 0");
}

TEST_CASE("icebreaking: board lines, tolerant") {
  const auto good = iio::parse_board_line("-2 -1 0 1 2 # +1 +2 0\r");
  CHECK(good.problems.empty());
  CHECK(good.cells[0].kind == iio::BoardToken::ice);
  CHECK(good.cells[0].score == -2);
  CHECK(good.cells[5].kind == iio::BoardToken::hole);
  CHECK(good.cells[7].score == 2);
  const auto bad = iio::parse_board_line("0 0 x 0 0 0 0 0 3");
  CHECK(bad.cells[2].kind == iio::BoardToken::unknown);
  CHECK(bad.cells[8].kind == iio::BoardToken::unknown);
  CHECK(bad.problems.size() == 2);
  const auto short_line = iio::parse_board_line("0 0 0");
  CHECK(short_line.cells[3].kind == iio::BoardToken::unknown);
  CHECK(short_line.problems.size() == 1);
  CHECK(iio::parse_board_line("0 0 0 0 0 0 0 0 0 0").problems.size() == 1);
}

TEST_CASE("the judge's lines, as the harness writes them, parse back to what was sent") {
  const auto row = *hanpang::Row::parse("31231223");
  CHECK(hio::parse(hio::start()).kind == hio::Kind::start);
  const auto t = hio::parse(hio::turn(4991, row));
  CHECK(t.kind == hio::Kind::turn);
  CHECK(t.problems.empty());
  CHECK(t.remaining_ms == 4991);
  REQUIRE(t.row);
  CHECK(t.row->str() == row.str());

  const auto first = iio::parse(iio::ready(iio::Side::first));
  CHECK(first.kind == iio::Kind::ready);
  CHECK(first.side == iio::Side::first);
  CHECK(iio::parse(iio::ready(iio::Side::second)).side == iio::Side::second);
  const auto turn = iio::parse(iio::turn(4990, 17));
  CHECK(turn.kind == iio::Kind::turn);
  CHECK(turn.problems.empty());
  CHECK(turn.my_time == 4990);
  CHECK(turn.opp_time == 17);
  for (const int cell : {icebreaking::cell(0, 0), icebreaking::cell(3, 7), icebreaking::cell(8, 8)}) {
    const auto opp = iio::parse(iio::opp(cell, 12));
    CHECK(opp.kind == iio::Kind::opp);
    CHECK(opp.problems.empty());
    CHECK(opp.cell == cell);
    CHECK(opp.time == 12);
  }
  CHECK(iio::parse(iio::finish()).kind == iio::Kind::finish);
}

TEST_CASE("time manager: even share, hard limit, reserve and overhead") {
  TimeConfig cfg;  // reserve 300, overhead 2
  TimeManager tm;
  tm.init(5000, 200, cfg);
  CHECK(tm.usable() == doctest::Approx(5000 - 300 - 400));
  CHECK(tm.optimum() == doctest::Approx(4300.0 / 200));
  CHECK(tm.maximum() == doctest::Approx(3 * 4300.0 / 200));
  CHECK(tm.watchdog() == tm.maximum());
  // The last move may use everything usable; the one before keeps half a share for it.
  tm.init(1000, 1, cfg);
  CHECK(tm.maximum() == doctest::Approx(698));
  tm.init(1000, 2, cfg);
  CHECK(tm.optimum() == doctest::Approx(348));
  CHECK(tm.maximum() == doctest::Approx(696 - 348 / 2.0));
  // Nothing usable: no time at all.
  tm.init(350, 30, cfg);
  CHECK(tm.usable() == 0);
  CHECK(tm.maximum() == 0);
  tm.init(-50, 3, cfg);
  CHECK(tm.maximum() == 0);
  // The cap.
  cfg.max_move_ms = 10;
  tm.init(5000, 20, cfg);
  CHECK(tm.maximum() == 10);
  CHECK(tm.optimum() == 10);
  // Node budget: the watchdog waits up to `safe`.
  cfg.node_budget = 1000;
  tm.init(5000, 20, cfg);
  CHECK(tm.budget_mode());
  CHECK(tm.watchdog() == doctest::Approx(tm.safe()));
  CHECK(tm.safe() > tm.maximum());
  // Summed over a game, always-maximum play stays inside the bank.
  cfg = TimeConfig{};
  double left = 5000;
  for (int mtg = 200; mtg >= 1; --mtg) {
    tm.init(left, mtg, cfg);
    left -= tm.maximum() + cfg.move_overhead_ms;
  }
  CHECK(left >= cfg.reserve_ms - 1e-6);
}

TEST_CASE("process CPU clock moves") {
  const double a = process_cpu_ms();
  volatile double x = 0;
  for (int i = 0; i < 3'000'000; ++i) x = x + i * 0.5;
  CHECK(process_cpu_ms() > a);
}

TEST_CASE("icebreaking fallback: best immediate gain including captures") {
  std::string text = "# # # # # # # # #\n";
  for (int r = 1; r < 9; ++r)
    text += r == 4 ? "0 0 0 0 2 0 0 0 0\n" : r == 6 ? "0 2 0 0 0 0 0 0 0\n" : "0 0 0 0 0 0 0 0 0\n";
  const auto b1 = icebreaking::Board::from_text(text);
  REQUIRE(b1);
  auto pos = icebreaking::Position::start(*b1);
  CHECK(icebreaking_fallback_move(*b1, pos) == icebreaking::cell(4, 4));  // ties: lowest cell
  pos.play(*b1, icebreaking::cell(4, 4));
  CHECK(icebreaking_fallback_move(*b1, pos) == icebreaking::cell(6, 1));

  // (5,8) and (6,8) cut the top 45 cells of 0 from the bottom 26 cells of 2. Taking (5,8)
  // gains -1 + 52; taking (6,8) leaves 46 above and captures the 25 below: 2 + 50, the best.
  const auto b2 = icebreaking::Board::from_text(
      "0 0 0 0 0 0 0 0 0\n"
      "0 0 0 0 0 0 0 0 0\n"
      "0 0 0 0 0 0 0 0 0\n"
      "0 0 0 0 0 0 0 0 0\n"
      "0 0 0 0 0 0 0 0 0\n"
      "# # # # # # # # -1\n"
      "2 2 2 2 2 2 2 2 2\n"
      "2 2 2 2 2 2 2 2 2\n"
      "2 2 2 2 2 2 2 2 #\n");
  REQUIRE(b2);
  pos = icebreaking::Position::start(*b2);
  CHECK(popcount(pos.captures(icebreaking::cell(5, 8))) == 26);
  CHECK(popcount(pos.captures(icebreaking::cell(6, 8))) == 25);
  CHECK(icebreaking_fallback_move(*b2, pos) == icebreaking::cell(6, 8));
  // No ice left: no move.
  pos.ice = 0;
  CHECK(icebreaking_fallback_move(*b2, pos) == icebreaking::kNoCell);
}

TEST_CASE("hanpang bottom move is always a bottom cell of the biggest bottom group") {
  hanpang::State s;
  s.push_row(*hanpang::Row::parse("11223311"));
  s.push_row(*hanpang::Row::parse("12222223"));
  const int c = hanpang_bottom_move(s);
  CHECK(hanpang::height_of(c) == 0);
  CHECK(popcount(s.group_at(c)) == 8);  // six 2s at the bottom, two above them
}

// ---- in-process sessions (how fuse runs them), with and without the worker thread --------------

namespace {

struct HighestHanpang final : HanpangStrategy {
  bool fail = false;
  int calls = 0;
  int choose(const hanpang::State& s, const SearchLimits&, BestMove&) override {
    ++calls;
    if (fail) throw std::runtime_error("inline failure");
    const u128 occ = s.occupied();
    const auto hi = static_cast<std::uint64_t>(occ >> 64);
    return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<std::uint64_t>(occ));
  }
};

// Runs a Hanpang session on `input` in this process; returns {stdout, stderr}.
std::pair<std::string, std::string> run_in_process(HanpangStrategy& strategy,
                                                   const std::string& input, bool thread) {
  int in[2];
  REQUIRE(pipe(in) == 0);
  REQUIRE(write(in[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
  close(in[1]);
  FILE* out = std::tmpfile();
  FILE* err = std::tmpfile();
  SessionOptions opt;
  opt.in_fd = in[0];
  opt.out_fd = fileno(out);
  opt.err_fd = fileno(err);
  opt.worker_thread = thread;
  {
    HanpangSession session(strategy, opt);
    CHECK(session.run() == 0);
  }
  close(in[0]);
  const auto slurp = [](FILE* f) {
    std::string s;
    std::rewind(f);
    for (int ch; (ch = std::fgetc(f)) != EOF;) s += static_cast<char>(ch);
    std::fclose(f);
    return s;
  };
  return {slurp(out), slurp(err)};
}

}  // namespace

TEST_CASE("in-process Hanpang sessions give the same replies with and without the worker thread") {
  const std::string input = "START\nTURN 5000 12312312\nTURN 4990 33331111\nTURN 4980 21212121\n";
  std::string replies[2];
  for (bool thread : {true, false}) {
    CAPTURE(thread);
    HighestHanpang s;
    const auto [out, err] = run_in_process(s, input, thread);
    CHECK(s.calls == 3);
    CHECK(err == "");
    replies[thread] = out;
  }
  CHECK(replies[0] == replies[1]);
  CHECK(replies[0].rfind("READY\nPANG ", 0) == 0);

  HighestHanpang failing;
  failing.fail = true;
  const auto [out, err] = run_in_process(failing, "START\nTURN 5000 11223311\n", false);
  hanpang::State st;
  st.push_row(*hanpang::Row::parse("11223311"));
  CHECK(out == "READY\n" + protocol::hanpang_io::pang(hanpang::fallback_move(st)) + "\n");
  CHECK(err.find("the strategy threw: inline failure") != std::string::npos);
}
