// The judge's strict reading of agent answers: bytes, format, and how lines are quoted.
#include "judge/reply.hpp"

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "runner/runner.hpp"

using namespace tactica::harness;

TEST_CASE("bad bytes in an answer") {
  CHECK(reply::check_bytes("PANG 3 4").empty());
  CHECK(reply::check_bytes("").empty());
  CHECK(reply::check_bytes("caf\xc3\xa9").empty());  // valid UTF-8 (the format check rejects it)
  CHECK(reply::check_bytes("PANG 3 4\xff").find("invalid UTF-8 at byte 9") != std::string::npos);
  CHECK(reply::check_bytes("\xc3\x28").find("invalid UTF-8") != std::string::npos);
  CHECK(reply::check_bytes("\xc0\xaf").find("invalid UTF-8") != std::string::npos);  // overlong
  CHECK(reply::check_bytes("\xed\xa0\x80").find("invalid UTF-8") !=
        std::string::npos);  // surrogate
  CHECK(reply::check_bytes("\xf4\x90\x80\x80").find("invalid UTF-8") !=
        std::string::npos);  // > U+10FFFF
  CHECK(reply::check_bytes("PANG 3 4\r").find("0x0d (CR) at byte 9") != std::string::npos);
  CHECK(reply::check_bytes("PANG\t3 4").find("0x09 (TAB)") != std::string::npos);
  CHECK(reply::check_bytes(std::string("PA\0NG", 5)).find("0x00") != std::string::npos);
  CHECK(reply::check_bytes("PANG 3 4\x7f").find("DEL") != std::string::npos);
}

TEST_CASE("answer format: word and two integers, single spaces") {
  int a = 0, b = 0;
  CHECK(reply::parse_word_int_int("PANG 3 4", "PANG", a, b).empty());
  CHECK(a == 3);
  CHECK(b == 4);
  CHECK(reply::parse_word_int_int("MOVE 0 8", "MOVE", a, b).empty());
  CHECK(
      reply::parse_word_int_int("PANG -1 2", "PANG", a, b).empty());  // parsed; out of range later
  CHECK(a == -1);
  for (const char* bad :
       {"PANG  3 4", "PANG 3 4 ", " PANG 3 4", "PANG 3", "PANG 3 4 5", "PANG 3 x", "PANG 3.0 4",
        "pang 3 4", "MOVE 3 4", "PANG +3 4", "PANG 1234567890 1", "", "PANG"})
    CHECK_MESSAGE(!reply::parse_word_int_int(bad, "PANG", a, b).empty(), bad);
  CHECK(reply::expect_word("READY", "READY").empty());
  CHECK(!reply::expect_word("READY ", "READY").empty());
  CHECK(!reply::expect_word("ready", "READY").empty());
  CHECK(reply::expect_word("", "OK").find("empty line") != std::string::npos);
}

TEST_CASE("quoting agent output for messages and logs") {
  CHECK(reply::quote("PANG 1 2") == "PANG 1 2");
  CHECK(reply::quote("a\tb\xff") == "a\\x09b\\xff");
  CHECK(reply::quote(std::string(100, 'x'), 10) == "xxxxxxxxxx... (100 bytes)");
}

TEST_CASE("judge lines: the judge writes them with the agent's codec (tactica/protocol.hpp)") {
  namespace hio = tactica::protocol::hanpang_io;
  namespace iio = tactica::protocol::icebreaking_io;
  CHECK(hio::start() == "START");
  CHECK(hio::turn(4991, *tactica::hanpang::Row::parse("12312312")) == "TURN 4991 12312312");
  CHECK(iio::ready(iio::Side::first) == "READY FIRST");
  CHECK(iio::ready(iio::Side::second) == "READY SECOND");
  CHECK(iio::turn(4990, 5000) == "TURN 4990 5000");
  CHECK(iio::opp(tactica::icebreaking::cell(4, 4), 10) == "OPP 4 4 10");
  CHECK(iio::finish() == "FINISH");
}

TEST_CASE("seed lists and shards") {
  CHECK(parse_seeds("1-5") == std::vector<std::uint64_t>{1, 2, 3, 4, 5});
  CHECK(parse_seeds("7, 3,10-11") == std::vector<std::uint64_t>{7, 3, 10, 11});
  CHECK(parse_seeds("0") == std::vector<std::uint64_t>{0});
  for (const char* bad : {"", "1-", "5-1", "a", "1,,2", "1-3,2", "-3"})
    CHECK_THROWS_AS_MESSAGE(parse_seeds(bad), RunError, bad);
  const Shard s = parse_shard("2/3");
  CHECK(s.k == 2);
  CHECK(s.n == 3);
  CHECK(s.takes(1));
  CHECK(s.takes(4));
  CHECK_FALSE(s.takes(0));
  for (const char* bad : {"0/3", "4/3", "1/0", "3", "a/b", "1/2/3"})
    CHECK_THROWS_AS_MESSAGE(parse_shard(bad), RunError, bad);
}

TEST_CASE("the busy-machine warning: /proc/stat's cpu line, cores in use, and a real reading") {
  const std::string stat =
      "cpu  100 20 30 800 50 5 5 10 0 0\n"
      "cpu0 50 10 15 400 25 2 3 5 0 0\n"
      "intr 12345\n";
  const auto t = parse_cpu_times(stat);
  REQUIRE(t);
  CHECK(t->busy == 100 + 20 + 30 + 5 + 5 + 10);
  CHECK(t->total == t->busy + 800 + 50);
  CHECK_FALSE(parse_cpu_times("cpu0 1 2 3 4\nintr 5\n"));  // no all-cores line
  CHECK_FALSE(parse_cpu_times("cpu  1 2\n"));              // too few fields
  // Half of all ticks busy on 2 cores: one core in use.
  CHECK(busy_cores({100, 400}, {200, 600}, 2) == doctest::Approx(1.0));
  CHECK(busy_cores({100, 400}, {100, 400}, 2) == 0.0);  // no time passed
  CHECK(busy_cores({100, 400}, {90, 500}, 2) == 0.0);   // counters went back: no claim
  // A thread spinning through the sample keeps at least about one core busy, whatever else runs.
  std::atomic<bool> stop{false};
  std::thread spin([&] {
    volatile std::uint64_t x = 0;
    while (!stop.load(std::memory_order_relaxed)) x = x + 1;
  });
  const std::string w = busy_warning(core_count(), 300, 0.5);
  stop = true;
  spin.join();
  CHECK(w.rfind("warning: the machine is busy: ", 0) == 0);
  CHECK(w.find("cores in use by other processes before the first game") != std::string::npos);
  CHECK(busy_warning(core_count(), 50, 1e9).empty());  // no machine has that many cores busy
  // A run on every core: half a core of other work is a warning, less is not.
  CHECK(busy_message(0.5, 2, 2).rfind("warning: the machine is busy: 0.5 of 2 cores", 0) == 0);
  CHECK(busy_message(0.4, 2, 2).empty());
  CHECK_FALSE(busy_message(1.0, 2, 8).empty());  // more workers than cores: all of them needed
  // A run on one of two cores (a shard beside a sibling): the other core may be busy, its own not.
  CHECK(busy_message(1.0, 2, 1).empty());
  CHECK(busy_message(1.4, 2, 1).empty());
  CHECK(busy_message(1.5, 2, 1).find("before the first game of 1 at once") != std::string::npos);
}

TEST_CASE("the busy-machine warning during a run: other processes' load less the run's own") {
  // 2 s of wall on 2 cores (400 ticks at 100 a second), 3 s busy, 1 s of it the run's: 1 core.
  CHECK(others_cores({0, 0}, {300, 400}, 1.0, 100, 2) == doctest::Approx(1.0));
  CHECK(others_cores({0, 0}, {300, 400}, 0.0, 100, 2) == doctest::Approx(1.5));
  CHECK(others_cores({0, 0}, {300, 400}, 5.0, 100, 2) == 0.0);  // more own time than busy: none
  CHECK(others_cores({0, 0}, {0, 0}, 0.0, 100, 2) == 0.0);      // no time passed
  CHECK(others_cores({10, 0}, {5, 400}, 0.0, 100, 2) == 0.0);   // counters went back
  CHECK(busy_message(1.0, 2, 2, 0.5, "step 3")
            .rfind("warning: the machine was busy during step 3: 1.0 of 2 cores", 0) == 0);
  CHECK(busy_message(0.4, 2, 2, 0.5, "the run").empty());
  CHECK(busy_message(1.4, 2, 1, 0.5, "the run").empty());  // a sibling shard's core
  // A real reading: a child spinning and not yet reaped is other work; once reaped, its time is
  // the run's own (as a game's agent is once its keeper is reaped), so the same stretch shows
  // less other work.
  const LoadMeter meter;
  CHECK_FALSE(meter.others(60.0));  // not that long yet: too short to say
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    volatile std::uint64_t x = 0;
    for (;;) x = x + 1;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  const auto before_reaping = meter.others();
  ::kill(child, SIGKILL);
  int st = 0;
  REQUIRE(::waitpid(child, &st, 0) == child);
  const auto after_reaping = meter.others();
  REQUIRE(before_reaping);
  REQUIRE(after_reaping);
  CHECK(*before_reaping >= 0.5);
  CHECK(*after_reaping < *before_reaping - 0.25);
  CHECK(*after_reaping >= 0.0);
  CHECK(*before_reaping <= core_count());
}
