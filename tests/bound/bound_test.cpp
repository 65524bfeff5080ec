// bound_test.cpp — `tactica bound`'s clairvoyant beam (harness/bound): its best line replays to
// its score under the rules, exactly as the judge deals the rows; it beats a one-ply greedy line;
// the reference file is read strictly; bench --bound's efficiency arithmetic.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "bound/bound.hpp"
#include "games/hanpang/eval.hpp"
#include "tactica/hanpang.hpp"

using namespace tactica;

namespace {

// The judge's order: the first row at the start, then a row after every action that did not end
// the game.
std::int64_t replay(std::uint64_t seed, const std::vector<int>& moves, int& actions, bool& legal) {
  hanpang::RowSource rows(seed);
  hanpang::State st;
  st.push_row(rows.next());
  legal = true;
  for (int cell : moves) {
    if (st.over() || cell < 0 || !st.group_at(cell)) {
      legal = false;
      break;
    }
    st.play(cell);
    if (!st.over()) st.push_row(rows.next());
  }
  actions = st.actions;
  return st.score;
}

std::int64_t greedy_line(std::uint64_t seed) {
  hanpang::RowSource rows(seed);
  hanpang::State st;
  st.push_row(rows.next());
  const auto w = plugins::common::beam_weights();
  while (!st.over()) {
    st.play(plugins::common::eval_greedy_move(st, w));
    if (!st.over()) st.push_row(rows.next());
  }
  return st.score;
}

}  // namespace

TEST_CASE("the clairvoyant line replays to its score and beats greedy") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto r = bound::clairvoyant(seed, 60);
    int actions = 0;
    bool legal = false;
    CHECK(replay(seed, r.moves, actions, legal) == r.score);
    CHECK(legal);
    CHECK(actions == r.actions);
    CHECK(static_cast<int>(r.moves.size()) == r.actions);
    CHECK(r.survived == (r.actions == hanpang::kMaxActions));
    CHECK(r.score > greedy_line(seed));
    // Deterministic: the same seed and width give the same line.
    CHECK(bound::clairvoyant(seed, 60).moves == r.moves);
  }
}

TEST_CASE("a reference file is read strictly") {
  const std::string path = "bound_test_refs.jsonl";
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("{\"seed\":1,\"reference\":60000,\"width\":10}\n{\"seed\":2,\"reference\":50000}\n");
  const auto refs = bound::read_bound_file(path);
  CHECK(refs.size() == 2);
  CHECK(refs.at(1).score == 60000);
  write("{\"seed\":1,\"reference\":60000}\nnot json\n");
  CHECK_THROWS_WITH(bound::read_bound_file(path), doctest::Contains("bound_test_refs.jsonl:2"));
  write("{\"seed\":1,\"reference\":60000}\n{\"seed\":1,\"reference\":5}\n");
  CHECK_THROWS_WITH(bound::read_bound_file(path), doctest::Contains("listed twice"));
  write("{\"seed\":-4,\"reference\":60000}\n");
  CHECK_THROWS_WITH(bound::read_bound_file(path), doctest::Contains(":1:"));
  CHECK_THROWS_WITH(bound::read_bound_file("no/such/refs.jsonl"), doctest::Contains("no such file"));
  std::remove(path.c_str());
}

TEST_CASE("efficiency is score over reference, per seed and overall") {
  std::vector<harness::BenchRecord> recs{{"a", 0, 1, 30000, 200, "MAX_ACTIONS", 0, "", ""},
                                         {"a", 0, 2, 10000, 200, "MAX_ACTIONS", 0, "", ""},
                                         {"b", 1, 1, 60000, 200, "MAX_ACTIONS", 0, "", ""},
                                         {"a", 0, 9, 10000, 200, "MAX_ACTIONS", 0, "", ""}};
  std::map<std::uint64_t, bound::Reference> refs;
  refs[1].score = 60000;
  refs[2].score = 40000;
  const auto text = bound::efficiency_report(recs, {"a", "b"}, refs, "refs.jsonl");
  CHECK(text.find("50.0%") != std::string::npos);   // a on seed 1
  CHECK(text.find("25.0%") != std::string::npos);   // a on seed 2
  CHECK(text.find("100.0%") != std::string::npos);  // b on seed 1 and overall
  CHECK(text.find("40.0%") != std::string::npos);   // a overall: 40000 / 100000
  CHECK(text.find("1 seeds have no reference") != std::string::npos);  // seed 9
}
