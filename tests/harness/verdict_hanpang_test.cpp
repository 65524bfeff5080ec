// Hanpang verdicts: a correct agent plays out the run, and every kind of broken agent gets the
// platform's verdict with the score it had before, while the harness survives and leaves no
// process behind.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "harness_test_util.hpp"
#include "tactica/hanpang.hpp"

using namespace tactica;
using namespace tactica::harness;
using namespace harness_test;

namespace {

// The good agent's score after n actions of seed `seed` (from its replay).
std::int64_t good_score_after(std::uint64_t seed, int n) {
  const auto r = judge_hanpang(agent("hanpang"), seed, limits(), {nullptr, true});
  REQUIRE(static_cast<int>(r.replay["moves"].size()) >= n);
  return n == 0 ? 0 : r.replay["moves"][n - 1]["score"].get<std::int64_t>();
}

HanpangResult judge_fault(const std::string& fault, int after, Limits l = limits(),
                          std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--fault", fault, "--after", std::to_string(after)};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = judge_hanpang(agent("hanpang", args), 7, l);
  CHECK(child_count() == 0);
  return r;
}

}  // namespace

TEST_CASE("a correct agent plays the run out, and the replay follows the rules") {
  const auto r = judge_hanpang(agent("hanpang"), 7, limits(), {nullptr, true});
  CHECK((r.verdict == "OVERFLOW" || r.verdict == "MAX_ACTIONS"));
  CHECK(r.actions > 0);
  CHECK(r.score > 0);
  CHECK(r.time_ms > 0);
  CHECK(r.time_ms < 5000);
  CHECK(child_count() == 0);

  const auto& rep = r.replay;
  check_replay(rep);
  CHECK(rep["format"] == "tactica-replay/1");
  CHECK(rep["game"] == "hanpang");
  CHECK(rep["seed"] == 7);
  CHECK(rep["result"]["score"] == r.score);
  CHECK(rep["moves"].size() == static_cast<std::size_t>(r.actions));
  CHECK(rep["initial"] == rep["moves"][0]["before"]);
  // Replaying the recorded cells on the seed's rows gives the recorded boards and score.
  hanpang::RowSource rows(7);
  hanpang::State st;
  for (const auto& m : rep["moves"]) {
    const auto row = rows.next();
    CHECK(m["row"] == row.str());
    st.push_row(row);
    std::string before;
    for (const auto& line : m["before"]) before += line.get<std::string>() + "\n";
    CHECK(before == st.to_text());
    const int cell = hanpang::from_protocol(m["cell"][0], m["cell"][1]);
    CHECK(m["group"].size() == static_cast<std::size_t>(popcount(st.group_at(cell))));
    CHECK(st.play(cell) == m["points"]);
    CHECK(st.score == m["score"]);
  }
  CHECK(st.score == r.score);
  // Log: START, READY, then one TURN and one PANG per action.
  CHECK(rep["log"][0]["line"] == "START");
  CHECK(rep["log"][1]["line"] == "READY");
  CHECK(rep["log"].size() == 2 + 2 * static_cast<std::size_t>(r.actions));
}

TEST_CASE("the same seed gives the same game") {
  const auto a = judge_hanpang(agent("hanpang"), 11, limits());
  const auto b = judge_hanpang(agent("hanpang"), 11, limits());
  CHECK(a.score == b.score);
  CHECK(a.actions == b.actions);
}

TEST_CASE("INVALID keeps the score of the actions before it") {
  const auto kept = good_score_after(7, 5);
  SUBCASE("garbage") {
    const auto r = judge_fault("garbage", 5);
    CHECK(r.verdict == "INVALID");
    CHECK(r.actions == 5);
    CHECK(r.score == kept);
    CHECK(contains(r.detail, "action 6"));
    CHECK(contains(r.detail, "HELLO WORLD"));
    const auto with_replay = judge_hanpang(agent("hanpang", {"--fault", "garbage", "--after", "5"}),
                                           7, limits(), {nullptr, true});
    check_replay(with_replay.replay);
    CHECK(with_replay.replay["moves"].size() == 5);
  }
  SUBCASE("answers of the wrong form: the message says which rule failed") {
    const struct {
      const char* fault;
      const char* detail;
    } cases[] = {{"taken", "is empty"},
                 {"range", "out of range"},
                 {"bad-utf8", "invalid UTF-8"},
                 {"control", "control byte 0x09"},
                 {"crlf", "(CR)"},
                 {"long-line", "longer than 4096 bytes"}};
    for (const auto& c : cases) {
      CAPTURE(c.fault);
      const auto r = judge_fault(c.fault, 5);
      CHECK(r.verdict == "INVALID");
      CHECK(r.score == kept);
      CHECK(contains(r.detail, c.detail));
    }
  }
  SUBCASE("endless output without a newline") {
    const auto r = judge_fault("flood", 5);
    CHECK(r.verdict == "INVALID");
    CHECK(r.score == kept);
  }
  SUBCASE("endless answers") {
    const auto r = judge_fault("flood-lines", 5);
    CHECK(r.verdict == "INVALID");
    CHECK(r.actions >= 5);
  }
  SUBCASE("output nobody asked for") {
    const auto r = judge_fault("extra-output", 5);
    CHECK(r.verdict == "INVALID");
    CHECK(r.actions == 6);  // the sixth answer was fine; the extra line shows before the seventh
    CHECK(contains(r.detail, "output before the command"));
  }
}

TEST_CASE("INVALID at READY and answers that come before the command") {
  SUBCASE("garbage instead of READY") {
    const auto r =
        judge_hanpang(agent("hanpang", {"--fault", "garbage", "--at-ready"}), 7, limits());
    CHECK(r.verdict == "INVALID");
    CHECK(r.score == 0);
    CHECK(r.actions == 0);
    CHECK(contains(r.detail, "READY"));
  }
  SUBCASE("an agent that never reads its input") {
    const auto r = judge_hanpang(agent("hanpang", {"--fault", "deaf"}), 7, limits());
    CHECK(r.verdict == "INVALID");
    CHECK((contains(r.detail, "before reading") || contains(r.detail, "before the command")));
  }
  SUBCASE("READY before START") {
    const auto r = judge_hanpang(agent("hanpang", {"--fault", "early"}), 7, limits());
    CHECK(r.verdict == "INVALID");
  }
  CHECK(child_count() == 0);
}

TEST_CASE("TIME_LIMIT: the bank runs out, the late action is not applied") {
  const auto kept = good_score_after(7, 3);
  SUBCASE("sleeps past the bank") {
    const auto r = judge_fault("sleep", 3, limits(300));
    CHECK(r.verdict == "TIME_LIMIT");
    CHECK(r.actions == 3);
    CHECK(r.score == kept);
    CHECK(r.time_ms == doctest::Approx(300).epsilon(0.01));
  }
  SUBCASE("burns CPU instead of answering") {
    const auto r = judge_fault("burn", 3, limits(300));
    CHECK(r.verdict == "TIME_LIMIT");
    CHECK(r.score == kept);
  }
  SUBCASE("slow on every action") {
    const auto r = judge_fault("slow", 0, limits(300), {"--ms", "40"});
    CHECK(r.verdict == "TIME_LIMIT");
    CHECK(r.actions >= 3);
    CHECK(r.actions <= 8);
    CHECK(r.score > 0);
  }
  SUBCASE("never answers START") {
    const auto r = judge_hanpang(agent("hanpang", {"--fault", "sleep", "--at-ready"}), 7,
                                 limits(200), {nullptr, true});
    CHECK(r.verdict == "TIME_LIMIT");
    check_replay(r.replay);
    CHECK(r.replay["moves"].empty());
    CHECK(r.actions == 0);
    CHECK(contains(r.detail, "READY"));
  }
  CHECK(child_count() == 0);
}

TEST_CASE("RUNTIME_ERROR: crash, exit, closed output, too many processes, memory") {
  const auto kept = good_score_after(7, 2);
  SUBCASE("segfault") {
    const auto r = judge_fault("crash", 2);
    CHECK(r.verdict == "RUNTIME_ERROR");
    CHECK(r.score == kept);
    CHECK(crash_detail(r.detail));
  }
  SUBCASE("exit 0 in the middle") {
    const auto r = judge_fault("exit", 2);
    CHECK(r.verdict == "RUNTIME_ERROR");
    CHECK(contains(r.detail, "exit status 0"));
  }
  SUBCASE("closes stdout but lives on") {
    const auto r = judge_fault("close-stdout", 2);
    CHECK(r.verdict == "RUNTIME_ERROR");
  }
  SUBCASE("too many processes") {
    auto l = limits();
    l.process.max_processes = 16;
    const auto r = judge_hanpang(agent("hanpang", {"--fault", "many-children", "--ms", "0"}), 7, l);
    // The children appear at start-up: the first tick that sees them ends the run.
    CHECK(r.verdict == "RUNTIME_ERROR");
    CHECK(contains(r.detail, "more than 16 processes"));
    CHECK(child_count() == 0);
  }
  SUBCASE("resident memory over the limit") {
    auto l = limits();
    l.process.memory_bytes = std::uint64_t{256} << 20;
    const auto r = judge_fault("memhog", 2, l);
    CHECK(r.verdict == "RUNTIME_ERROR");
    CHECK(r.score == kept);
    CHECK(contains(r.detail, "over the 256 MiB limit"));
  }
  SUBCASE("allocations failing under RLIMIT_DATA") {
    auto l = limits();
    l.process.memory_bytes = std::uint64_t{256} << 20;
    l.process.hard_data_limit = true;
    const auto r = judge_fault("memhog", 2, l);
    CHECK(r.verdict == "RUNTIME_ERROR");
#ifndef TEST_AGENT_SANITIZED  // a sanitized agent cannot even start under RLIMIT_DATA
    CHECK(r.score == kept);
#endif
  }
}

TEST_CASE("a child burning CPU does not change a Hanpang verdict and is killed at the end") {
  const auto r = judge_hanpang(agent("hanpang", {"--burn-children", "1"}), 7, limits());
  CHECK((r.verdict == "OVERFLOW" || r.verdict == "MAX_ACTIONS"));
  CHECK(child_count() == 0);
}

TEST_CASE("an agent that cannot be started is a setup error, not a verdict") {
  AgentSpec missing;
  missing.label = "missing";
  missing.argv = {"/nonexistent/agent"};
  CHECK_THROWS_AS(judge_hanpang(missing, 1, limits()), SpawnError);
  AgentSpec not_exec;
  not_exec.argv = {"/etc/hostname"};
  CHECK_THROWS_AS(judge_hanpang(not_exec, 1, limits()), SpawnError);
  CHECK(child_count() == 0);
}

TEST_CASE("a fault seen just before the run's stop flag is raised is not recorded") {
  // A signal to the whole process tree kills an agent's keeper and sets the harness's stop flag;
  // the judge may see the dead agent first. The fault waits a moment for the flag.
  std::atomic<bool> stop{false};
  const GameControl control{&stop};
  std::thread raiser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // well inside kStopGrace
    stop.store(true);
  });
  CHECK_THROWS_AS(control.drop_if_stopping(true), GameAborted);
  raiser.join();
  // A game that ended normally counts even while stopping; without a stop a fault counts, after
  // the grace; a single game (no flag) never waits.
  CHECK_NOTHROW(control.drop_if_stopping(false));
  std::atomic<bool> calm{false};
  const GameControl running{&calm};
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_NOTHROW(running.drop_if_stopping(true));
  CHECK(std::chrono::steady_clock::now() - t0 >= GameControl::kStopGrace);
  const GameControl single{};
  const auto t1 = std::chrono::steady_clock::now();
  CHECK_NOTHROW(single.drop_if_stopping(true));
  CHECK(std::chrono::steady_clock::now() - t1 < GameControl::kStopGrace);
}
