// The time-bank guarantees through the real binary: whatever the strategy does (sleep past its
// limit, throw, return an illegal cell, spin on the CPU, start slowly), every TURN gets a legal
// reply in time.
#include <doctest/doctest.h>

#include <regex>
#include <thread>

#include "child.hpp"
#include "judges.hpp"

using namespace agent_test;
namespace hp = tactica::hanpang;
namespace ib = tactica::icebreaking;

namespace {

// Slack for scheduling noise on a loaded 2-core machine (other builds run beside the tests).
constexpr double kSlackMs = 150;

// The default config's first-move maximum for Hanpang: 3 * (5000 - 300 - 200 * 2) / 200.
constexpr double kHanpangFirstMax = 3 * 4300.0 / 200;

struct Timed {
  std::string reply;
  double ms = 0;
};
Timed ask(Child& c, const std::string& line, double timeout_ms = 3000) {
  const auto t = Clock::now();
  c.send_line(line);
  auto r = c.read_line(timeout_ms);
  return {r.value_or("<none>"), ms_since(t)};
}

std::string pang(int cell) { return tactica::protocol::hanpang_io::pang(cell); }
std::string move_of(int cell) { return tactica::protocol::icebreaking_io::move(cell); }

hp::State after_rows(const std::vector<std::string>& rows, const std::vector<int>& moves) {
  hp::State s;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    s.push_row(*hp::Row::parse(rows[i]));
    if (i < moves.size()) s.play(moves[i]);
  }
  return s;
}

// For publish = true and false: testplug in `mode` answers the first Hanpang turn with the move
// it published (the highest cell) if it did, else the fallback; `check(answer, stderr so far)`
// adds what the mode must show; the agent then exits 0 at the end of its input.
template <class Check>
void faulty_first_turn(int mode, const Check& check) {
  TempDir dir;
  for (bool publish : {true, false}) {
    CAPTURE(publish);
    const auto cfg = dir.write(
        "h.toml",
        testplug_config("hanpang", mode, publish ? "publish = true\n" : "publish = false\n"));
    Child c(agent_args(cfg));
    ask(c, "START");
    const hp::State s = after_rows({"11223311"}, {});
    const auto t = ask(c, "TURN 5000 11223311");
    CHECK(t.reply == pang(publish ? highest(s.occupied()) : hp::fallback_move(s)));
    check(t, c.err());
    c.close_stdin();
    CHECK(c.wait(3000) == 0);
  }
}

}  // namespace

TEST_CASE(
    "hanpang: a strategy sleeping past its limit: best-so-far, then fallback, then itself again") {
  TempDir dir;
  const auto cfg =
      dir.write("h.toml", testplug_config("hanpang", 1, "sleep_ms = 250\nbad_calls = 1\n"));
  Child c(agent_args(cfg));
  CHECK(ask(c, "START").reply == "READY");
  std::vector<std::string> rows = {"12312312"};
  hp::State s = after_rows(rows, {});
  const int published = highest(s.occupied());
  const auto t1 = ask(c, "TURN 5000 " + rows[0]);
  CHECK(t1.reply == pang(published));          // the move it published before sleeping
  CHECK(t1.ms >= kHanpangFirstMax - 1);        // the watchdog waited for the maximum...
  CHECK(t1.ms < kHanpangFirstMax + kSlackMs);  // ...and no longer
  s.play(published);

  rows.push_back("22222222");
  s.push_row(*hp::Row::parse(rows[1]));
  const auto t2 = ask(c, "TURN 4930 " + rows[1]);  // still asleep: the fallback, at once
  CHECK(t2.reply == pang(hp::fallback_move(s)));
  CHECK(t2.ms < 50 + kSlackMs);
  s.play(hp::fallback_move(s));

  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // it wakes up meanwhile
  rows.push_back("33333333");
  s.push_row(*hp::Row::parse(rows[2]));
  const auto t3 = ask(c, "TURN 4900 " + rows[2]);
  CHECK(t3.reply == pang(highest(s.occupied())));  // its own answer again
  CHECK(
      c.err().find("move 1: the strategy's choose overran the 64 ms limit; answered best-so-far") !=
      std::string::npos);
  CHECK(c.err().find("move 2: the strategy's choose from an earlier move is still running; "
                     "answered fallback") != std::string::npos);
  c.close_stdin();
  CHECK(c.wait(3000) == 0);
}

TEST_CASE(
    "hanpang: a whole game against a strategy that always oversleeps stays legal and in time") {
  TempDir dir;
  const auto cfg = dir.write("h.toml", testplug_config("hanpang", 1, "sleep_ms = 30000\n"));
  Child c(agent_args(cfg));
  const auto log = play_hanpang(c, 21);
  CHECK(log.failure == "");
  CHECK(log.max_elapsed() < kHanpangFirstMax + kSlackMs);
  CHECK(log.bank_left_ms > 300);
  // The strategy is still asleep for half a minute: the agent must not wait for it at the end.
  c.close_stdin();
  const auto t = Clock::now();
  CHECK(c.wait(3000) == 0);
  CHECK(ms_since(t) < 1000);
}

TEST_CASE("hanpang: a throwing strategy: best-so-far if published, else the fallback") {
  faulty_first_turn(2, [](const Timed& t, const std::string& err) {
    CHECK(t.ms < 50 + kSlackMs);
    CHECK(err.find("the strategy threw: testplug: deliberate failure") != std::string::npos);
  });
}

TEST_CASE("hanpang: an illegal answer: best-so-far if published and legal, else the fallback") {
  faulty_first_turn(3, [](const Timed&, const std::string& err) {
    CHECK(err.find("the strategy returned an illegal cell 15") != std::string::npos);
  });
}

TEST_CASE("hanpang: a slow new_game is not waited for; the strategy plays once it is ready") {
  TempDir dir;
  const auto cfg = dir.write("h.toml", testplug_config("hanpang", 6, "sleep_ms = 400\n"));
  Child c(agent_args(cfg));
  const auto ready = ask(c, "START");
  CHECK(ready.reply == "READY");
  CHECK(ready.ms < 50 + kSlackMs);
  hp::State s = after_rows({"12312312"}, {});
  const auto t1 = ask(c, "TURN 5000 12312312");
  CHECK(t1.reply == pang(hp::fallback_move(s)));
  CHECK(t1.ms < kHanpangFirstMax + kSlackMs);
  s.play(hp::fallback_move(s));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  s.push_row(*hp::Row::parse("12121212"));
  CHECK(ask(c, "TURN 4900 12121212").reply == pang(highest(s.occupied())));
  c.close_stdin();
  CHECK(c.wait(3000) == 0);
}

TEST_CASE("hanpang: with a node budget the strategy gets no clock; without, it gets its optimum") {
  TempDir dir;
  const hp::State s = after_rows({"12312312"}, {});
  {
    const auto cfg = dir.write("b.toml", testplug_config("hanpang", 5, "", "node_budget = 1000\n"));
    Child c(agent_args(cfg));
    ask(c, "START");
    CHECK(ask(c, "TURN 5000 12312312").reply == pang(tactica::lowest_bit(s.occupied())));
    c.close_stdin();
    CHECK(c.wait(3000) == 0);
  }
  {
    const auto cfg = dir.write("t.toml", testplug_config("hanpang", 5));
    Child c(agent_args(cfg));
    ask(c, "START");
    const auto t = ask(c, "TURN 5000 12312312");
    CHECK(t.reply == pang(highest(s.occupied())));
    CHECK(t.ms >= 4300.0 / 200 - 1);  // it waited for its soft limit, the optimum
    CHECK(t.ms < kHanpangFirstMax + kSlackMs);
    c.close_stdin();
    CHECK(c.wait(3000) == 0);
  }
}

TEST_CASE("a nearly empty bank: the strategy is not asked, the fallback answers at once") {
  TempDir dir;
  {
    const auto cfg = dir.write("h.toml", testplug_config("hanpang", 1, "sleep_ms = 5000\n"));
    Child c(agent_args(cfg));
    ask(c, "START");
    const hp::State s = after_rows({"12312312"}, {});
    const auto t = ask(c, "TURN 650 12312312");  // 650 - 300 reserve - 200 * 2 overhead < 0
    CHECK(t.reply == pang(hp::fallback_move(s)));
    CHECK(t.ms < 50 + kSlackMs);
    CHECK(c.err().find("no time left to plan with (650 ms left)") != std::string::npos);
    c.close_stdin();
    CHECK(c.wait(3000) == 0);
  }
  {
    const auto cfg = dir.write("i.toml", testplug_config("icebreaking", 1, "sleep_ms = 5000\n"));
    Child c(agent_args(cfg));
    const auto b = ib::Board::from_seed(30);
    for (int r = 0; r < ib::kSize; ++r) c.send_line(b.line(r));
    CHECK(ask(c, "READY FIRST").reply == "OK");
    const auto t = ask(c, "TURN 360 5000");
    CHECK(t.reply == move_of(tactica::icebreaking_fallback_move(b, ib::Position::start(b))));
    CHECK(t.ms < 50 + kSlackMs);
    c.send_line("FINISH");
    CHECK(c.wait(3000) == 0);
  }
}

TEST_CASE("icebreaking: whole games against an oversleeping strategy stay legal and in time") {
  TempDir dir;
  const auto cfg = dir.write("i.toml", testplug_config("icebreaking", 1, "sleep_ms = 200\n"));
  for (auto side : {ib::A, ib::B}) {
    CAPTURE(int(side));
    Child c(agent_args(cfg));
    const auto log = play_icebreaking(c, 31, side);
    CHECK(log.failure == "");
    CHECK(log.bank_left_ms > 300);
    // mtg <= 36: the first maximum is 3 * (5000 - 300 - 36 * 2) / 36 = 385 ms at most.
    CHECK(log.max_elapsed() < 386 + kSlackMs);
    const auto t = Clock::now();
    CHECK(c.wait(3000) == 0);
    CHECK(ms_since(t) < 1000);
  }
}

TEST_CASE("icebreaking: a strategy spinning on the CPU is parked before the CPU cap") {
  TempDir dir;
  // A 1,000 ms cap (instead of 5,000) keeps the test short; reserve 300 ms, so the runaway
  // must be parked by about 700 ms of CPU.
  const auto cfg = dir.write(
      "i.toml", testplug_config("icebreaking", 4, "sleep_ms = 60000\n", "cpu_cap_ms = 1000\n"));
  Child c(agent_args(cfg));
  const auto b = ib::Board::from_seed(32);
  for (int r = 0; r < ib::kSize; ++r) c.send_line(b.line(r));
  CHECK(ask(c, "READY FIRST").reply == "OK");
  auto pos = ib::Position::start(b);
  const auto t1 = ask(c, "TURN 5000 5000");
  CHECK(t1.reply == move_of(highest(pos.ice)));  // published before it started spinning
  pos.play(b, highest(pos.ice));
  // The opponent "thinks" while our runaway spins: under 1 s on an idle machine; on a busy one
  // the spinning thread gets less than a core, so wait for the parking itself (up to 30 s).
  const auto wait_start = Clock::now();
  while (c.err().find("its thread is parked") == std::string::npos && ms_since(wait_start) < 30000)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  MESSAGE("parked after " << ms_since(wait_start) << " ms of wall time");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double cpu = c.cpu_ms();
  MESSAGE("agent CPU after the runaway: " << cpu << " ms (cap 1000, reserve 300)");
  CHECK(cpu > 0);
  CHECK(cpu < 1000 - 150);
  CHECK(c.err().find("its thread is parked") != std::string::npos);
  // Play goes on with the fallback, and the process stays idle.
  const int opp = tactica::lowest_bit(pos.ice);
  pos.play(b, opp);
  c.send_line("OPP " + std::to_string(ib::row_of(opp)) + " " + std::to_string(ib::col_of(opp)) +
              " 1600");
  const auto t2 = ask(c, "TURN 4900 3400");
  CHECK(t2.reply == move_of(tactica::icebreaking_fallback_move(b, pos)));
  CHECK(t2.ms < 50 + kSlackMs);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(c.cpu_ms() < cpu + 50);
  c.send_line("FINISH");
  const auto t = Clock::now();
  CHECK(c.wait(3000) == 0);
  CHECK(ms_since(t) < 1000);
}

TEST_CASE("icebreaking: FINISH or end of input while the strategy thinks ends the agent at once") {
  TempDir dir;
  // Mode 5 thinks until its soft deadline (over 100 ms on the first move of a full bank) and
  // honours the stop flag.
  const auto cfg = dir.write("i.toml", testplug_config("icebreaking", 5, ""));
  const auto b = ib::Board::from_seed(12);
  for (const bool finish : {true, false}) {
    CAPTURE(finish);
    Child c(agent_args(cfg));
    for (int r = 0; r < ib::kSize; ++r) c.send_line(b.line(r));
    CHECK(ask(c, "READY FIRST").reply == "OK");
    c.send_line("TURN 5000 5000");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto t = Clock::now();
    if (finish)
      c.send_line("FINISH");
    else
      c.close_stdin();
    CHECK(c.wait(3000) == 0);
    const double ms = ms_since(t);
    MESSAGE("exit " << ms << " ms after " << std::string(finish ? "FINISH" : "EOF"));
    CHECK(ms < 50 + kSlackMs);
    CHECK(c.read_line(0).value_or("") == "");  // no MOVE after the game ended
  }
}

TEST_CASE("icebreaking: a READY that comes after TURN still gets its OK") {
  TempDir dir;
  const auto cfg = dir.write("i.toml", testplug_config("icebreaking", 0, ""));
  const auto b = ib::Board::from_seed(12);
  Child c(agent_args(cfg));
  for (int r = 0; r < ib::kSize; ++r) c.send_line(b.line(r));
  const auto t = ask(c, "TURN 5000 5000");
  CHECK(t.reply.rfind("MOVE ", 0) == 0);
  CHECK(ask(c, "READY FIRST").reply == "OK");
  CHECK(c.err().find("READY after the game began") != std::string::npos);
  CHECK(ask(c, "READY FIRST", 300).reply == "<none>");  // a second one is still ignored
  c.send_line("FINISH");
  CHECK(c.wait(3000) == 0);
}
