// Icebreaking verdicts: a finished game is won on totals, and a broken side loses by the
// platform's reason (TIME_LIMIT, CPU_LIMIT counting its children, INVALID, RUNTIME_ERROR).
#include <doctest/doctest.h>

#include <fstream>
#include <optional>

#include "harness_test_util.hpp"
#include "tactica/icebreaking.hpp"

using namespace tactica;
using namespace tactica::harness;
using namespace harness_test;

namespace {

IcebreakingResult judge_pair(const AgentSpec& a, const AgentSpec& b, Limits l = limits(),
                             std::uint64_t seed = 5) {
  auto r = judge_icebreaking(a, b, seed, l, {nullptr, true});
  CHECK(child_count() == 0);
  check_replay(r.replay);
  return r;
}

AgentSpec faulty(const std::string& fault, int after, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--fault", fault, "--after", std::to_string(after)};
  args.insert(args.end(), extra.begin(), extra.end());
  return agent("icebreaking", args, "faulty");
}

}  // namespace

TEST_CASE("two correct agents finish the game; the replay follows the rules") {
  const auto r = judge_pair(agent("icebreaking", {}, "a"), agent("icebreaking", {}, "b"));
  CHECK(r.verdict == "FINISHED");
  CHECK(r.loser == -1);
  CHECK(r.winner == (r.totals[0] > r.totals[1]   ? "first"
                     : r.totals[0] < r.totals[1] ? "second"
                                                 : "draw"));
  CHECK(r.moves > 0);
  const auto& rep = r.replay;
  CHECK(rep["game"] == "icebreaking");
  CHECK(rep["result"]["loser_reason"].is_null());
  CHECK(rep["moves"].size() == static_cast<std::size_t>(r.moves));
  // Replay the cells: captures, gains, totals and the final board agree with the rules.
  const auto board = icebreaking::Board::from_seed(5);
  auto pos = icebreaking::Position::start(board);
  for (std::size_t i = 0; i < 9; ++i) CHECK(rep["initial"][i] == board.line(static_cast<int>(i)));
  for (const auto& m : rep["moves"]) {
    CHECK(m["player"] == (pos.to_move == icebreaking::A ? "first" : "second"));
    const int cell = icebreaking::cell(m["cell"][0], m["cell"][1]);
    const auto mr = pos.play(board, cell);
    CHECK(m["gain"] == mr.gain);
    CHECK(m["captured"].size() == static_cast<std::size_t>(popcount(mr.captured)));
    CHECK(m["totals"][0] == pos.total[0]);
    CHECK(m["totals"][1] == pos.total[1]);
  }
  CHECK(pos.over());
  CHECK(pos.total[0] == r.totals[0]);
  CHECK(pos.total[1] == r.totals[1]);
  CHECK(rep["log"].back()["line"] == "FINISH");
}

TEST_CASE("INVALID loses at once") {
  const auto good = agent("icebreaking", {}, "good");
  SUBCASE("a taken cell") {
    const auto r = judge_pair(good, faulty("taken", 2));
    CHECK(r.verdict == "INVALID");
    CHECK(r.loser == 1);
    CHECK(r.winner == "first");
    CHECK(contains(r.detail, "already taken"));
    CHECK(r.replay["result"]["loser_reason"] == "second");
    // The opponent gets no OPP after the invalid move.
    CHECK(r.replay["log"].back()["line"] == "FINISH");
  }
  // The other ways to lose by INVALID: the players, who loses and what the detail names
  // (where a case leaves one out, it is not checked).
  struct Case {
    const char* name;
    AgentSpec first, second;
    std::optional<int> loser;
    const char* winner;
    const char* detail;
  };
  const Case cases[] = {
      {"a hole", faulty("taken", 0), good, 0, "second", "is a hole"},
      {"off the board", good, faulty("range", 1), {}, nullptr, "off the board"},
      {"garbage instead of OK", agent("icebreaking", {"--fault", "garbage", "--at-ready"}), good, 0,
       nullptr, "OK"},
      {"bad bytes", good, faulty("bad-utf8", 3), {}, nullptr, "invalid UTF-8"},
      {"floods stdout", faulty("flood", 1), good, 0, nullptr, nullptr},
      {"never reads its input", good, agent("icebreaking", {"--fault", "deaf"}), 1, nullptr,
       nullptr},
  };
  for (const auto& c : cases) {
    SUBCASE(c.name) {
      const auto r = judge_pair(c.first, c.second);
      CHECK(r.verdict == "INVALID");
      if (c.loser) CHECK(r.loser == *c.loser);
      if (c.winner) CHECK(r.winner == c.winner);
      if (c.detail) CHECK(contains(r.detail, c.detail));
    }
  }
}

TEST_CASE("TIME_LIMIT: the wall bank") {
  const auto good = agent("icebreaking", {}, "good");
  const auto r = judge_pair(good, faulty("sleep", 2), limits(300));
  CHECK(r.verdict == "TIME_LIMIT");
  CHECK(r.loser == 1);
  CHECK(r.time_ms[1] == doctest::Approx(300).epsilon(0.01));
}

TEST_CASE("CPU_LIMIT: CPU of the process over its life") {
  const auto good = agent("icebreaking", {}, "good");
  // 120 ms of CPU per move against a 400 ms cap and a generous wall bank.
  const auto r = judge_pair(good, faulty("burn-per-move", 0, {"--ms", "120"}), limits(5000, 400));
  CHECK(r.verdict == "CPU_LIMIT");
  CHECK(r.loser == 1);
  CHECK(r.cpu_ms[1] > 400);
  CHECK(r.time_ms[1] < 2000);
}

TEST_CASE("CPU_LIMIT counts children, also while the opponent thinks") {
  // The second side answers at once but leaves a child burning CPU; the first side is slow (about
  // 1.8 s in all), so the child's CPU runs up during the first side's turns, even on a machine
  // busy enough to give the child a fifth of a core.
  const auto slow = agent("icebreaking", {"--fault", "slow", "--ms", "50"}, "slow");
  SUBCASE("a child in the process group") {
    const auto r = judge_pair(slow, agent("icebreaking", {"--burn-children", "1"}, "forker"),
                              limits(5000, 150));
    CHECK(r.verdict == "CPU_LIMIT");
    CHECK(r.loser == 1);
    CHECK(r.cpu_ms[0] < 150);
  }
  SUBCASE("a child that left the group with setsid() is still counted and killed") {
    const std::string pidfile = "/tmp/tactica-harness-test-setsid-" + std::to_string(::getpid());
    const auto r = judge_pair(
        slow, agent("icebreaking", {"--fault", "setsid-child", "--pidfile", pidfile}, "escaper"),
        limits(5000, 150));
    CHECK(r.verdict == "CPU_LIMIT");
    CHECK(r.loser == 1);
    std::ifstream in(pidfile);
    pid_t child = 0;
    in >> child;
    REQUIRE(child > 0);
    CHECK(::kill(child, 0) != 0);  // gone
    std::remove(pidfile.c_str());
  }
}

TEST_CASE("RUNTIME_ERROR") {
  const auto good = agent("icebreaking", {}, "good");
  SUBCASE("crash") {
    const auto r = judge_pair(faulty("crash", 3), good);
    CHECK(r.verdict == "RUNTIME_ERROR");
    CHECK(r.loser == 0);
    CHECK(crash_detail(r.detail));
  }
  SUBCASE("exit before the end") {
    const auto r = judge_pair(good, faulty("exit", 1));
    CHECK(r.verdict == "RUNTIME_ERROR");
    CHECK(r.loser == 1);
  }
}
