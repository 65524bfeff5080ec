// bench/fit/ols.hpp — ordinary least squares for the analysis tools (tactica-ice-fit,
// tactica-hanpang-fit): the normal equations, solved by Gauss-Jordan elimination with partial
// pivoting and a tiny ridge, so a column that is all zero (or a copy of another) gets weight 0
// instead of failing the fit. Dimensions are a few dozen; rows up to a few hundred thousand.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace tactica::fit {

// The weights w minimising sum over rows of (sum_i w_i x(row, i) - y(row))^2, for m regressors.
// x(row, i) and y(row) are called once per row and regressor.
template <class Rows, class X, class Y>
std::vector<double> least_squares(const Rows& rows, int m, X x, Y y) {
  std::vector<std::vector<double>> a(static_cast<std::size_t>(m), std::vector<double>(m + 1, 0.0));
  std::vector<double> xi(static_cast<std::size_t>(m));
  for (const auto& r : rows) {
    for (int i = 0; i < m; ++i) xi[i] = x(r, i);
    const double t = y(r);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) a[i][j] += xi[i] * xi[j];
      a[i][m] += xi[i] * t;
    }
  }
  for (int i = 0; i < m; ++i) a[i][i] += 1e-6 * (1.0 + a[i][i]);
  for (int c = 0; c < m; ++c) {
    int p = c;
    for (int i = c + 1; i < m; ++i)
      if (std::fabs(a[i][c]) > std::fabs(a[p][c])) p = i;
    std::swap(a[c], a[p]);
    if (std::fabs(a[c][c]) < 1e-12) continue;
    for (int i = 0; i < m; ++i) {
      if (i == c) continue;
      const double f = a[i][c] / a[c][c];
      for (int j = c; j <= m; ++j) a[i][j] -= f * a[c][j];
    }
  }
  std::vector<double> w(static_cast<std::size_t>(m), 0.0);
  for (int i = 0; i < m; ++i)
    if (std::fabs(a[i][i]) >= 1e-12) w[i] = a[i][m] / a[i][i];
  return w;
}

// The root mean square error of weights w over rows (0 for no rows).
template <class Rows, class X, class Y>
double rmse(const Rows& rows, const std::vector<double>& w, X x, Y y) {
  double e = 0;
  std::size_t n = 0;
  for (const auto& r : rows) {
    double v = 0;
    for (std::size_t i = 0; i < w.size(); ++i) v += w[i] * x(r, static_cast<int>(i));
    e += (v - y(r)) * (v - y(r));
    ++n;
  }
  return n ? std::sqrt(e / static_cast<double>(n)) : 0.0;
}

}  // namespace tactica::fit
