// stats.cpp — see stats.hpp.
#include "stats/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tactica::stats {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNeloScale = 800.0 / std::log(10.0);  // nElo per unit of t-value

// Continued fraction of the regularised incomplete beta function (modified Lentz).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < 1e-15) break;
  }
  return h;
}

// I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

// Root of an increasing function on [lo, hi] by bisection.
template <class F>
double bisect_increasing(F f, double target, double lo, double hi) {
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (f(mid) < target)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double normal_quantile(double p) {
  if (p <= 0) return -kInf;
  if (p >= 1) return kInf;
  return bisect_increasing(normal_cdf, p, -40, 40);
}

double student_t_cdf(double t, double df) {
  const double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
  if (p <= 0) return -kInf;
  if (p >= 1) return kInf;
  if (p == 0.5) return 0;
  const double q = p > 0.5 ? p : 1 - p;
  const double t = bisect_increasing([df](double x) { return student_t_cdf(x, df); }, q, 0, 1e7);
  return p > 0.5 ? t : -t;
}

Summary summarize(std::vector<double> xs) {
  Summary s;
  s.n = xs.size();
  if (xs.empty()) return s;
  std::sort(xs.begin(), xs.end());
  for (double x : xs) s.sum += x;
  s.mean = s.sum / static_cast<double>(s.n);
  s.min = xs.front();
  s.max = xs.back();
  s.median = s.n % 2 ? xs[s.n / 2] : 0.5 * (xs[s.n / 2 - 1] + xs[s.n / 2]);
  if (s.n >= 2) {
    double ss = 0;
    for (double x : xs) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / static_cast<double>(s.n - 1));
    s.ci95 = student_t_quantile(0.975, static_cast<double>(s.n - 1)) * s.sd /
             std::sqrt(static_cast<double>(s.n));
  }
  return s;
}

Paired paired_difference(const std::vector<double>& base, const std::vector<double>& other) {
  Paired p;
  std::vector<double> d;
  const std::size_t n = std::min(base.size(), other.size());
  for (std::size_t i = 0; i < n; ++i) {
    d.push_back(other[i] - base[i]);
    if (other[i] > base[i])
      ++p.better;
    else if (other[i] < base[i])
      ++p.worse;
    else
      ++p.equal;
  }
  p.diff = summarize(std::move(d));
  return p;
}

double elo_from_score(double s) {
  if (s <= 0) return -kInf;
  if (s >= 1) return kInf;
  return -400.0 * std::log10(1.0 / s - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

void Pentanomial::add(double g1, double g2) {
  const double sum = g1 + g2;
  if (sum < 0.25)
    ++n[LL];
  else if (sum < 0.75)
    ++n[LD];
  else if (sum < 1.25)
    ++n[(g1 == 0.5 && g2 == 0.5) ? DD : WL];
  else if (sum < 1.75)
    ++n[WD];
  else
    ++n[WW];
}

long Pentanomial::pairs() const {
  long t = 0;
  for (long v : n) t += v;
  return t;
}

std::array<double, 5> Pentanomial::counts5() const {
  return {static_cast<double>(n[LL]), static_cast<double>(n[LD]),
          static_cast<double>(n[WL] + n[DD]), static_cast<double>(n[WD]),
          static_cast<double>(n[WW])};
}

Interval wilson_interval(double k, double n, double z) {
  if (!(n > 0)) return {0, 1};
  const double p = std::clamp(k / n, 0.0, 1.0), z2 = z * z;
  const double denom = 1 + z2 / n;
  const double centre = (p + z2 / (2 * n)) / denom;
  const double half = z / denom * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  // At p = 0 or 1 the bound on that side is exactly 0 or 1 (rounding aside).
  return {p <= 0 ? 0.0 : std::max(0.0, centre - half), p >= 1 ? 1.0 : std::min(1.0, centre + half)};
}

EloEstimate pentanomial_elo(const Pentanomial& p) {
  EloEstimate e;
  e.pairs = p.pairs();
  if (e.pairs == 0) return e;
  static constexpr std::array<double, 5> a = {0, 0.25, 0.5, 0.75, 1};
  const auto c = p.counts5();
  const double N = static_cast<double>(e.pairs);
  double mu = 0, var = 0;
  for (int i = 0; i < 5; ++i) mu += a[i] * c[i] / N;
  for (int i = 0; i < 5; ++i) var += (a[i] - mu) * (a[i] - mu) * c[i] / N;
  const double se = std::sqrt(var / N);  // of the mean score per pair (= per game)
  e.score = mu;
  e.elo = elo_from_score(mu);
  const double lo = mu - kZ95 * se, hi = mu + kZ95 * se;
  if (var > 0 && lo > 0 && hi < 1) {
    e.elo_lo = elo_from_score(lo);
    e.elo_hi = elo_from_score(hi);
  } else {
    // The normal interval says nothing here (a point, or past a score of 0 or 1): the Wilson
    // interval over the 2N games, with the first agent's points as successes.
    const auto w = wilson_interval(mu * 2 * N, 2 * N);
    e.wilson = true;
    e.elo_lo = elo_from_score(w.lo);
    e.elo_hi = elo_from_score(w.hi);
    e.bound = mu >= 1 ? 1 : mu <= 0 ? -1 : 0;
  }
  if (var > 0) {
    e.nelo = (mu - 0.5) / std::sqrt(2 * var) * kNeloScale;
    e.nelo_err = kZ95 * se / std::sqrt(2 * var) * kNeloScale;
    e.los = normal_cdf((mu - 0.5) / se);
  } else {
    // No variance: normalised Elo and the normal LOS are undefined (not infinite).
    e.nelo = e.nelo_err = e.los = std::numeric_limits<double>::quiet_NaN();
  }
  return e;
}

double SprtSpec::lower() const { return std::log(beta / (1 - alpha)); }
double SprtSpec::upper() const { return std::log((1 - beta) / alpha); }

namespace {

// The distribution closest (in likelihood) to the empirical `phat` over outcomes `a` among
// those whose t-value (mu - 1/2) / sigma equals `t`. A Lagrange multiplier argument gives
// p_i = phat_i / (1 + theta * phi_i) with phi_i the derivative of the constraint at p, so
// p is found by iterating: compute phi at the current p, solve sum phat_i phi_i / (1 + theta
// phi_i) = 0 for theta (decreasing in theta on the interval where every 1 + theta phi_i > 0),
// update p, until p stops moving.
std::array<double, 5> max_likelihood_with_t(const std::array<double, 5>& a,
                                            const std::array<double, 5>& phat, double t) {
  std::array<double, 5> p;
  p.fill(0.2);
  for (int iter = 0; iter < 10000; ++iter) {
    double mu = 0, var = 0;
    for (int i = 0; i < 5; ++i) mu += p[i] * a[i];
    for (int i = 0; i < 5; ++i) var += p[i] * (a[i] - mu) * (a[i] - mu);
    const double sigma = std::sqrt(var);
    std::array<double, 5> phi;
    for (int i = 0; i < 5; ++i) {
      const double z = (a[i] - mu) / sigma;
      phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
    }
    const double lo_phi = *std::min_element(phi.begin(), phi.end());
    const double hi_phi = *std::max_element(phi.begin(), phi.end());
    if (!(lo_phi < 0 && hi_phi > 0)) return phat;  // degenerate: no constrained optimum inside
    const auto g = [&](double theta) {
      double s = 0;
      for (int i = 0; i < 5; ++i) s += phat[i] * phi[i] / (1 + theta * phi[i]);
      return s;
    };
    double lo = -1 / hi_phi, hi = -1 / lo_phi;  // g(lo+) = +inf, g(hi-) = -inf
    for (int k = 0; k < 200; ++k) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      if (g(mid) > 0)
        lo = mid;
      else
        hi = mid;
    }
    const double theta = 0.5 * (lo + hi);
    double moved = 0;
    for (int i = 0; i < 5; ++i) {
      const double next = phat[i] / (1 + theta * phi[i]);
      moved = std::max(moved, std::fabs(next - p[i]));
      p[i] = next;
    }
    if (moved < 1e-12) break;
  }
  return p;
}

}  // namespace

double sprt_llr(const Pentanomial& pent, double nelo0, double nelo1) {
  if (pent.pairs() == 0) return 0;
  static constexpr std::array<double, 5> a = {0, 0.25, 0.5, 0.75, 1};
  auto c = pent.counts5();
  double total = 0;
  for (auto& v : c) {
    if (v == 0) v = 1e-3;
    total += v;
  }
  std::array<double, 5> phat;
  for (int i = 0; i < 5; ++i) phat[i] = c[i] / total;
  const double t0 = std::sqrt(2.0) * nelo0 / kNeloScale;
  const double t1 = std::sqrt(2.0) * nelo1 / kNeloScale;
  const auto p0 = max_likelihood_with_t(a, phat, t0);
  const auto p1 = max_likelihood_with_t(a, phat, t1);
  double llr = 0;
  for (int i = 0; i < 5; ++i) llr += phat[i] * (std::log(p1[i]) - std::log(p0[i]));
  return total * llr;
}

SprtDecision sprt_decide(double llr, const SprtSpec& spec) {
  if (llr >= spec.upper()) return SprtDecision::h1;
  if (llr <= spec.lower()) return SprtDecision::h0;
  return SprtDecision::none;
}

Ratings ml_elo(const std::vector<std::vector<double>>& points_in,
               const std::vector<std::vector<double>>& games_in) {
  const std::size_t n = points_in.size();
  Ratings out;
  out.elo.assign(n, 0);
  out.error95.assign(n, 0);
  if (n < 2) return out;
  auto points = points_in;
  auto games = games_in;

  // Maximum likelihood does not exist when someone won or lost everything (the rating runs to
  // infinity) or the pool falls apart; one virtual draw per pair then keeps it finite.
  bool degenerate = false;
  for (std::size_t i = 0; i < n; ++i) {
    double w = 0, g = 0;
    for (std::size_t j = 0; j < n; ++j) w += points[i][j], g += games[i][j];
    if (g == 0 || w <= 0 || w >= g) degenerate = true;
  }
  {
    std::vector<int> seen(n, 0), stack{0};
    seen[0] = 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (std::size_t j = 0; j < n; ++j)
        if (!seen[j] && games[i][j] > 0) seen[j] = 1, stack.push_back(static_cast<int>(j));
    }
    if (std::count(seen.begin(), seen.end(), 0)) degenerate = true;
  }
  if (degenerate) {
    out.regularized = true;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (i != j) games[i][j] += 1, points[i][j] += 0.5;
  }

  // Minorisation-maximisation (Hunter 2004) on gamma_i = 10^(r_i / 400).
  std::vector<double> gamma(n, 1.0), wins(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) wins[i] += points[i][j];
  for (int iter = 0; iter < 100000; ++iter) {
    double change = 0;
    std::vector<double> next(n);
    for (std::size_t i = 0; i < n; ++i) {
      double denom = 0;
      for (std::size_t j = 0; j < n; ++j)
        if (j != i && games[i][j] > 0) denom += games[i][j] / (gamma[i] + gamma[j]);
      next[i] = wins[i] / denom;
    }
    double log_mean = 0;
    for (double g : next) log_mean += std::log(g);
    log_mean /= static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double g = next[i] / std::exp(log_mean);
      change = std::max(change, std::fabs(std::log(g / gamma[i])));
      gamma[i] = g;
    }
    if (change < 1e-13) break;
  }
  for (std::size_t i = 0; i < n; ++i) out.elo[i] = 400.0 * std::log10(gamma[i]);

  // Error bars: the inverse Fisher information, restricted to ratings that sum to zero
  // (pseudo-inverse of a Laplacian L: (L + J/n)^-1 - J/n).
  const double k = std::log(10.0) / 400.0;
  std::vector<std::vector<double>> m(n, std::vector<double>(2 * n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double pij = score_from_elo(out.elo[i] - out.elo[j]);
      const double info = games[i][j] * pij * (1 - pij) * k * k;
      m[i][i] += info;
      m[i][j] -= info;
    }
    for (std::size_t j = 0; j < n; ++j) m[i][j] += 1.0 / static_cast<double>(n);
    m[i][n + i] = 1;
  }
  for (std::size_t col = 0; col < n; ++col) {  // Gauss-Jordan with partial pivoting
    std::size_t piv = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[piv][col])) piv = r;
    std::swap(m[col], m[piv]);
    const double d = m[col][col];
    for (auto& v : m[col]) v /= d;
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0) continue;
      const double f = m[r][col];
      for (std::size_t c = 0; c < 2 * n; ++c) m[r][c] -= f * m[col][c];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double var = m[i][n + i] - 1.0 / static_cast<double>(n);
    out.error95[i] = kZ95 * std::sqrt(std::max(0.0, var));
  }
  return out;
}

}  // namespace tactica::stats
