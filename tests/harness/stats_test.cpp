// The statistics behind bench and tourney, against values worked out by hand (the arithmetic is
// in the comments) or published by fastchess and reproduced by an independent Newton solver.
#include "stats/stats.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace tactica::stats;
using doctest::Approx;

TEST_CASE("normal and Student t quantiles") {
  CHECK(normal_quantile(0.975) == Approx(1.959964).epsilon(1e-6));
  CHECK(normal_cdf(0) == Approx(0.5));
  CHECK(normal_cdf(1.959964) == Approx(0.975).epsilon(1e-6));
  // Tables of t(0.975, df): 12.706 (1), 2.776 (4), 2.045 (29), 1.984 (100).
  CHECK(student_t_quantile(0.975, 1) == Approx(12.7062).epsilon(1e-4));
  CHECK(student_t_quantile(0.975, 4) == Approx(2.776445).epsilon(1e-6));
  CHECK(student_t_quantile(0.975, 29) == Approx(2.045230).epsilon(1e-6));
  CHECK(student_t_quantile(0.975, 100) == Approx(1.983972).epsilon(1e-6));
  CHECK(student_t_quantile(0.025, 4) == Approx(-2.776445).epsilon(1e-6));
  CHECK(student_t_cdf(2.776445, 4) == Approx(0.975).epsilon(1e-6));
}

TEST_CASE("summary of a seed run: mean, 95% CI, median") {
  // {1..5}: mean 3, sd sqrt(2.5) = 1.581139, CI half-width t(4) * sd / sqrt(5) = 1.963243.
  const auto s = summarize({5, 1, 4, 2, 3});
  CHECK(s.n == 5);
  CHECK(s.sum == 15);
  CHECK(s.mean == Approx(3));
  CHECK(s.sd == Approx(1.581139).epsilon(1e-6));
  CHECK(s.ci95 == Approx(1.963243).epsilon(1e-6));
  CHECK(s.median == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  CHECK(summarize({4, 1, 3, 2}).median == 2.5);
  CHECK(summarize({7}).ci95 == 0);
  CHECK(summarize({}).n == 0);
}

TEST_CASE("paired differences against the first agent") {
  // Differences 2, -2, 5: mean 5/3, sd sqrt(12.333) = 3.511885, CI t(2) 4.302653 * sd / sqrt 3.
  const auto p = paired_difference({10, 20, 30}, {12, 18, 35});
  CHECK(p.better == 2);
  CHECK(p.worse == 1);
  CHECK(p.equal == 0);
  CHECK(p.diff.mean == Approx(5.0 / 3));
  CHECK(p.diff.ci95 == Approx(4.302653 * 3.511885 / std::sqrt(3.0)).epsilon(1e-5));
}

TEST_CASE("Elo from a score") {
  CHECK(elo_from_score(0.5) == 0);
  CHECK(elo_from_score(0.75) == Approx(400 * std::log10(3.0)));  // 190.85
  CHECK(score_from_elo(400 * std::log10(3.0)) == Approx(0.75));
  CHECK(std::isinf(elo_from_score(1.0)));
  CHECK(elo_from_score(0.0) < 0);
}

TEST_CASE("pentanomial counting of game pairs") {
  Pentanomial p;
  p.add(0, 0);
  p.add(0.5, 0);
  p.add(1, 0);
  p.add(0, 1);
  p.add(0.5, 0.5);
  p.add(1, 0.5);
  p.add(1, 1);
  CHECK(p.n[Pentanomial::LL] == 1);
  CHECK(p.n[Pentanomial::LD] == 1);
  CHECK(p.n[Pentanomial::WL] == 2);
  CHECK(p.n[Pentanomial::DD] == 1);
  CHECK(p.n[Pentanomial::WD] == 1);
  CHECK(p.n[Pentanomial::WW] == 1);
  CHECK(p.pairs() == 7);
}

TEST_CASE("Elo, CI and LOS from pentanomial pairs, worked by hand") {
  // 10 pairs: LL 1, LD 2, WL 3, WD 2, WW 2. Score (0 + 2*.25 + 3*.5 + 2*.75 + 2*1) / 10 = 0.55.
  // Variance per pair .1*.55^2 + .2*.3^2 + .3*.05^2 + .2*.2^2 + .2*.45^2 = 0.0975; se of the
  // score sqrt(0.0975 / 10) = 0.098742. Elo 400 log10(.55/.45) = 34.86; the interval is the
  // Elo of .55 -+ 1.96 se = [-102.62, +184.91]; LOS Phi(.05 / .098742) = 0.6937;
  // nElo .05 / sqrt(2 * .0975) * 800 / ln 10 = 39.34.
  Pentanomial p;
  p.n = {1, 2, 3, 0, 2, 2};
  const auto e = pentanomial_elo(p);
  CHECK(e.pairs == 10);
  CHECK(e.score == Approx(0.55));
  CHECK(e.elo == Approx(34.860070).epsilon(1e-6));
  CHECK(e.elo_lo == Approx(-102.619034).epsilon(1e-6));
  CHECK(e.elo_hi == Approx(184.905623).epsilon(1e-6));
  CHECK(e.los == Approx(0.693701).epsilon(1e-5));
  CHECK(e.nelo == Approx(39.339333).epsilon(1e-6));
}

TEST_CASE("Wilson interval, and Elo bounds where the normal interval says nothing") {
  // 5 of 10: centre 0.5, half-width 1.96 / (1 + 1.96^2/10) * sqrt(0.025 + 1.96^2/400) = 0.263411.
  auto w = wilson_interval(5, 10);
  CHECK(w.lo == Approx(0.236589).epsilon(1e-5));
  CHECK(w.hi == Approx(0.763411).epsilon(1e-5));
  // All of n: [n / (n + z^2), 1].
  w = wilson_interval(6, 6);
  CHECK(w.lo == Approx(6 / (6 + kZ95 * kZ95)));
  CHECK(w.hi == 1.0);
  w = wilson_interval(0, 6);
  CHECK(w.lo == 0.0);
  CHECK(w.hi == Approx(1 - 6 / (6 + kZ95 * kZ95)));

  // 3 pairs WW (6-0): a 95% lower bound of +77.5 Elo, no upper bound, no nElo/LOS (no variance).
  Pentanomial p;
  p.n = {0, 0, 0, 0, 0, 3};
  auto e = pentanomial_elo(p);
  CHECK(e.bound == 1);
  CHECK(e.wilson);
  CHECK(e.elo_lo == Approx(77.49).epsilon(1e-3));
  CHECK(std::isinf(e.elo_hi));
  CHECK(std::isnan(e.nelo));
  CHECK(std::isnan(e.los));
  // All lost: the mirror image.
  p.n = {3, 0, 0, 0, 0, 0};
  e = pentanomial_elo(p);
  CHECK(e.bound == -1);
  CHECK(e.elo_hi == Approx(-77.49).epsilon(1e-3));
  // Two pairs WL: score 1/2 with no variance: a finite Wilson interval around 0.
  p.n = {0, 0, 2, 0, 0, 0};
  e = pentanomial_elo(p);
  CHECK(e.bound == 0);
  CHECK(e.wilson);
  CHECK(e.elo == 0.0);
  CHECK(e.elo_hi == Approx(-e.elo_lo));
  CHECK(std::isfinite(e.elo_lo));
  // WW, WW, WD: the normal interval would pass a score of 1 (0.9167 + 1.96 * 0.0680 > 1); Wilson
  // over 6 games with 5.5 points instead, both ends finite.
  p.n = {0, 0, 0, 0, 1, 2};
  e = pentanomial_elo(p);
  CHECK(e.wilson);
  CHECK(e.bound == 0);
  CHECK(std::isfinite(e.elo_hi));
  CHECK(e.elo_hi == Approx(elo_from_score(wilson_interval(5.5, 6).hi)));
  CHECK(std::isfinite(e.nelo));
}

TEST_CASE("pentanomial Elo matches fastchess' published example") {
  // fastchess app/tests/elo_test.cpp "EloPentanomial 1": LL 34, LD 54, WL 31, DD 32, WD 64,
  // WW 75 -> Elo 55.58 +- 27.65, nElo 57.94 +- 28.28, LOS 100.00 %.
  Pentanomial p;
  p.n = {34, 54, 31, 32, 64, 75};
  const auto e = pentanomial_elo(p);
  CHECK(e.elo == Approx(55.58).epsilon(1e-3));
  CHECK((e.elo_hi - e.elo_lo) / 2 == Approx(27.65).epsilon(1e-3));
  CHECK(e.nelo == Approx(57.94).epsilon(1e-3));
  CHECK(e.nelo_err == Approx(28.28).epsilon(1e-3));
  CHECK(e.los > 0.9999);
}

TEST_CASE("GSPRT log-likelihood ratio with normalised Elo") {
  struct Case {
    std::array<long, 6> n;  // LL LD WL DD WD WW
    double elo0, elo1, llr, epsilon;
  };
  const Case cases[] = {
      // fastchess app/tests/sprt_test.cpp, "normalized pentanomial 1" and "2" (LLR 2.25 and
      // 3.01), also reproduced to 4 digits by a Newton solver of the constrained maximum
      // likelihood (KKT system) written independently in Python: 2.25037 and 3.01015.
      {{365, 16618, 36029, 200, 16974, 390}, 0, 2, 2.25037, 1e-4},
      {{127, 4883, 10311, 401, 5150, 104}, -1.75, 0.25, 3.01015, 1e-4},
      // Small cases from the same independent solver: (LL, LD, WL+DD, WD, WW) =
      // (5, 10, 20, 15, 10) with nElo 0 vs 30 -> 1.094878; (1, 2, 3, 2, 2) with -10 vs 10 ->
      // 0.129477.
      {{5, 10, 20, 0, 15, 10}, 0, 30, 1.094878, 1e-5},
      {{1, 2, 3, 0, 2, 2}, -10, 10, 0.129477, 1e-5},
      // Symmetry: swapping the agents flips the sign of nElo.
      {{2, 2, 3, 0, 2, 1}, -10, 10, -0.129477, 1e-5},
  };
  for (const auto& c : cases) {
    Pentanomial p;
    p.n = c.n;
    CAPTURE(c.llr);
    CHECK(sprt_llr(p, c.elo0, c.elo1) == Approx(c.llr).epsilon(c.epsilon));
  }
  CHECK(sprt_llr(Pentanomial{}, 0, 10) == 0);
}

TEST_CASE("SPRT bounds and decisions") {
  SprtSpec s;  // alpha = beta = 0.05: bounds -+ ln(19) = -+2.944439
  CHECK(s.lower() == Approx(-2.944439).epsilon(1e-6));
  CHECK(s.upper() == Approx(2.944439).epsilon(1e-6));
  CHECK(sprt_decide(3.0, s) == SprtDecision::h1);
  CHECK(sprt_decide(-3.0, s) == SprtDecision::h0);
  CHECK(sprt_decide(0.5, s) == SprtDecision::none);
}

TEST_CASE("maximum-likelihood Elo of a tiny round robin") {
  // A-B 3/4 points for A in 4 games, B-C 3/4 for B, A-C 9/10 for A. Ratings A = +d, B = 0,
  // C = -d with d = 400 log10 3 make every expected score equal the observed one (.75, .75 and
  // 10^(2d/400) / (1 + ...) = 9/10), so they are the maximum-likelihood solution.
  const std::vector<std::vector<double>> points = {{0, 3, 9}, {1, 0, 3}, {1, 1, 0}};
  const std::vector<std::vector<double>> games = {{0, 4, 10}, {4, 0, 4}, {10, 4, 0}};
  const auto r = ml_elo(points, games);
  const double d = 400 * std::log10(3.0);
  CHECK_FALSE(r.regularized);
  CHECK(r.elo[0] == Approx(d).epsilon(1e-6));
  CHECK(r.elo[1] == Approx(0).epsilon(1e-6));
  CHECK(r.elo[2] == Approx(-d).epsilon(1e-6));
}

TEST_CASE("ML Elo error bars of two agents") {
  // 100 games, 75 points: difference 190.85. Fisher information of the difference
  // n p (1-p) (ln10/400)^2; each rating is half the difference, so its variance is a quarter
  // of the inverse: 402.37, and the 95% half-width 1.96 * sqrt(402.37) = 39.32.
  const auto r = ml_elo({{0, 75}, {25, 0}}, {{0, 100}, {100, 0}});
  CHECK(r.elo[0] - r.elo[1] == Approx(190.848502).epsilon(1e-6));
  CHECK(r.error95[0] == Approx(39.315315).epsilon(1e-5));
  CHECK(r.error95[1] == Approx(39.315315).epsilon(1e-5));
  // Someone won everything: regularised, finite, still ordered.
  const auto w = ml_elo({{0, 10}, {0, 0}}, {{0, 10}, {10, 0}});
  CHECK(w.regularized);
  CHECK(std::isfinite(w.elo[0]));
  CHECK(w.elo[0] > w.elo[1]);
}
