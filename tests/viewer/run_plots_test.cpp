// --plot of bench and tourney: records grouped into the plots' rows as the statistics expect.
#include "report/run_plots.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/runner.hpp"

using tactica::harness::BenchRecord;
using tactica::harness::TourneyRecord;

namespace {

// One game of `pair` on `seed`: `first` vs `second`, won by "first", "second" or "draw".
TourneyRecord game(std::uint64_t seed, long pair, const std::string& first,
                   const std::string& second, const std::string& winner) {
  TourneyRecord r;
  r.seed = seed;
  r.pair = pair;
  r.first = first;
  r.second = second;
  r.winner = winner;
  r.verdict = "FINISHED";
  return r;
}

}  // namespace

TEST_CASE("two agents: one row, the first's Elo from its game pairs; the SPRT after each pair") {
  // Pairs (sides swapped): A wins both; A wins one and loses one; two draws; A loses both.
  const std::vector<TourneyRecord> records = {
      game(1, 1, "A", "B", "first"), game(1, 1, "B", "A", "second"), game(2, 2, "A", "B", "first"),
      game(2, 2, "B", "A", "first"), game(3, 3, "A", "B", "draw"),   game(4, 4, "B", "A", "first"),
      game(3, 3, "B", "A", "draw"),  game(4, 4, "A", "B", "second"), game(9, 9, "A", "C", "first")};
  tactica::stats::Pentanomial p;
  p.add(1, 1);
  p.add(1, 0);
  p.add(0.5, 0.5);
  p.add(0, 0);
  const auto want = tactica::stats::pentanomial_elo(p);

  const auto rows = tactica::report::tourney_elo_rows(records, {"A", "B"});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].name == "A vs B");
  CHECK(rows[0].elo == doctest::Approx(want.elo));
  CHECK(rows[0].lo == doctest::Approx(want.elo_lo));
  CHECK(rows[0].hi == doctest::Approx(want.elo_hi));
  CHECK(rows[0].games == 8);  // the game against C is not theirs

  tactica::stats::SprtSpec spec;
  const auto trace = tactica::report::tourney_sprt_trace(records, {"A", "B"}, spec);
  // Pairs complete after the 2nd, 4th, 7th and 8th of their games.
  REQUIRE(trace.points.size() == 4);
  CHECK(trace.points[0].games == 2);
  CHECK(trace.points[1].games == 4);
  CHECK(trace.points[2].games == 7);
  CHECK(trace.points[3].games == 8);
  CHECK(trace.points[3].llr == doctest::Approx(tactica::stats::sprt_llr(p, spec.elo0, spec.elo1)));
  CHECK(trace.lower == doctest::Approx(spec.lower()));
  CHECK(trace.upper == doctest::Approx(spec.upper()));
  CHECK(trace.result == "no decision yet");
}

TEST_CASE("three or more agents: maximum-likelihood ratings with their 95% bars") {
  std::vector<TourneyRecord> records;
  long pair = 0;
  // A beats B 3 of 4, B beats C 3 of 4, A beats C in all 4.
  auto play = [&](const std::string& x, const std::string& y, int x_wins) {
    for (int k = 0; k < 2; ++k, ++pair) {
      records.push_back(game(pair, pair, x, y, k * 2 < x_wins ? "first" : "second"));
      records.push_back(game(pair, pair, y, x, k * 2 + 1 < x_wins ? "second" : "first"));
    }
  };
  play("A", "B", 3);
  play("B", "C", 3);
  play("A", "C", 4);
  const auto rows = tactica::report::tourney_elo_rows(records, {"A", "B", "C"});
  REQUIRE(rows.size() == 3);
  std::vector<std::vector<double>> points = {{0, 3, 4}, {1, 0, 3}, {0, 1, 0}};
  std::vector<std::vector<double>> games = {{0, 4, 4}, {4, 0, 4}, {4, 4, 0}};
  const auto want = tactica::stats::ml_elo(points, games);
  for (int i = 0; i < 3; ++i) {
    CHECK(rows[i].games == 8);
    CHECK(rows[i].elo == doctest::Approx(want.elo[i]));
    CHECK(rows[i].hi - rows[i].elo == doctest::Approx(want.error95[i]));
    CHECK(rows[i].elo - rows[i].lo == doctest::Approx(want.error95[i]));
  }
  CHECK(rows[0].elo > rows[1].elo);
  CHECK(rows[1].elo > rows[2].elo);
}

TEST_CASE("write_bench_plot / write_tourney_plot write SVG files and name a bad path") {
  const auto dir = std::filesystem::temp_directory_path() / "tactica_run_plots_test";
  std::filesystem::create_directories(dir);
  const std::vector<BenchRecord> bench = {{"beam", 0, 1, 100, 200, "MAX_ACTIONS", 10, "", ""},
                                          {"beam", 0, 2, 300, 200, "MAX_ACTIONS", 10, "", ""}};
  const auto games = tactica::report::bench_plot_games(bench);
  REQUIRE(games.size() == 2);
  CHECK(games[1].seed == 2);
  CHECK(games[1].score == 300);
  tactica::report::write_bench_plot((dir / "bench.svg").string(), bench);
  std::ifstream in(dir / "bench.svg");
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("sum 400 \xC2\xB7 mean 200 \xC2\xB7 2 games") != std::string::npos);

  const std::vector<TourneyRecord> t = {game(1, 1, "A", "B", "first"),
                                        game(1, 1, "B", "A", "draw")};
  tactica::report::write_tourney_plot((dir / "t.svg").string(), t, {"A", "B"},
                                      tactica::stats::SprtSpec{});
  CHECK(std::filesystem::file_size(dir / "t.svg") > 1000);
  CHECK_THROWS_WITH_AS(tactica::report::write_tourney_plot((dir / "no" / "t.svg").string(), t,
                                                           {"A", "B"}, std::nullopt),
                       doctest::Contains("--plot: "), tactica::harness::RunError);
  std::filesystem::remove_all(dir);
}
