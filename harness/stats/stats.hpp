// stats.hpp — the numbers behind the tables: sums and confidence intervals of seed runs, paired
// differences, Elo from match scores, pentanomial pair statistics, the generalised SPRT with
// normalised Elo (as fastchess and fishtest compute it), and maximum-likelihood ratings of a
// round robin. Formulas: docs/HARNESS.md, "Statistics".
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace tactica::stats {

// ---- distributions --------------------------------------------------------------------------
double normal_cdf(double x);
double normal_quantile(double p);  // inverse of normal_cdf, 0 < p < 1
double student_t_cdf(double t, double df);
double student_t_quantile(double p, double df);    // 0 < p < 1, df > 0
inline constexpr double kZ95 = 1.959963984540054;  // normal_quantile(0.975)

// ---- samples ----------------------------------------------------------------------------------
struct Summary {
  std::size_t n = 0;
  double sum = 0, mean = 0, sd = 0;  // sd: sample standard deviation (n - 1)
  double ci95 = 0;  // half-width of the 95% CI of the mean (Student t, n - 1 df); 0 if n < 2
  double median = 0, min = 0, max = 0;
};
Summary summarize(std::vector<double> xs);

// Per-seed differences other - base (same seeds, same order).
struct Paired {
  Summary diff;
  int better = 0, equal = 0, worse = 0;  // seeds where other scored more / the same / less
};
Paired paired_difference(const std::vector<double>& base, const std::vector<double>& other);

// ---- Elo --------------------------------------------------------------------------------------
double elo_from_score(double score);  // logistic: -400 log10(1/s - 1); +-inf at 1 and 0
double score_from_elo(double elo);

// Game pairs (each seed twice, sides swapped) by the points of the agent under test:
// 0 (LL), 0.5 (LD), 1 (WL: a win and a loss, or DD: two draws), 1.5 (WD), 2 (WW).
struct Pentanomial {
  enum { LL, LD, WL, DD, WD, WW };
  std::array<long, 6> n{};
  // Adds a pair from the two game results of the agent under test (1 win, 0.5 draw, 0 loss).
  void add(double game1, double game2);
  long pairs() const;
  // The five frequencies LL, LD, WL+DD, WD, WW (pair scores 0, 1/4, 1/2, 3/4, 1 per game).
  std::array<double, 5> counts5() const;
};

// The Wilson score interval of a proportion: `successes` (may be fractional: draws count half)
// out of `n` trials, at the normal quantile z. Finite and inside [0, 1] for every sample,
// including 0 or n successes (where the normal interval collapses to a point).
struct Interval {
  double lo = 0, hi = 1;
};
Interval wilson_interval(double successes, double n, double z = kZ95);

struct EloEstimate {
  long pairs = 0;
  double score = 0.5;                      // mean points per game of the agent under test
  double elo = 0, elo_lo = 0, elo_hi = 0;  // logistic Elo and its 95% interval
  double nelo = 0, nelo_err = 0;           // normalised Elo and its 95% half-width (NaN: none)
  double los = 0.5;                        // likelihood of superiority (NaN: none)
  // The interval is the Wilson score interval over games instead of the pentanomial normal one:
  // the pairs have no variance, or the normal interval reaches a score of 0 or 1.
  bool wilson = false;
  // +1: every game won (elo and elo_hi are +inf: only elo_lo, a 95% lower bound, is finite);
  // -1: every game lost (elo_hi is an upper bound); 0 otherwise.
  int bound = 0;
};
EloEstimate pentanomial_elo(const Pentanomial& p);

// ---- SPRT -------------------------------------------------------------------------------------
struct SprtSpec {
  double elo0 = 0, elo1 = 10;  // normalised Elo of H0 and H1
  double alpha = 0.05, beta = 0.05;
  double lower() const;  // log(beta / (1 - alpha)): accept H0 at or below
  double upper() const;  // log((1 - beta) / alpha): accept H1 at or above
};
// The generalised log-likelihood ratio of H1 against H0 for pentanomial pair results, with
// normalised Elo (t-value = nElo * sqrt(2) / (800 / ln 10) per pair). Empty categories count as
// 0.001 pairs, as fastchess does.
double sprt_llr(const Pentanomial& p, double nelo0, double nelo1);
enum class SprtDecision { none, h0, h1 };
SprtDecision sprt_decide(double llr, const SprtSpec& spec);

// ---- round robins -----------------------------------------------------------------------------
struct Ratings {
  std::vector<double> elo;      // mean 0
  std::vector<double> error95;  // 95% half-width of each rating against the pool
  bool regularized = false;     // a virtual draw per pair was added (someone won or lost all)
};
// Bradley-Terry (logistic Elo) maximum likelihood, draws as half points: points[i][j] is what i
// scored against j in games[i][j] games.
Ratings ml_elo(const std::vector<std::vector<double>>& points,
               const std::vector<std::vector<double>>& games);

}  // namespace tactica::stats
