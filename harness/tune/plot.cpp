// plot.cpp — the SVG of a tuning run (tune.hpp): the objective over the steps on top, each
// tuned parameter as a share of its range below.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/escape.hpp"
#include "tune/tune.hpp"

namespace tactica::tune {

double history_objective(const TuneSpec& s, const nlohmann::json& h);  // tune.cpp

namespace {

const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                          "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

std::string num(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

// A "nice" tick step for a span (1, 2 or 5 times a power of ten).
double tick_step(double span, int ticks) {
  const double raw = span / std::max(1, ticks);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

}  // namespace

std::string history_svg(const TuneSpec& s, const std::vector<nlohmann::json>& history) {
  const double W = 900, H = 620, L = 80, R = 200, top1 = 50, h1 = 230, top2 = 340, h2 = 230;
  const double pw = W - L - R;
  const std::size_t n = history.size();
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << L << "\" y=\"24\" font-size=\"15\">"
    << report::escape_markup("tactica tune: " + std::string(s.method == "spsa" ? "SPSA" : "CMA-ES") +
                             " on " + s.strategy + " (" + s.game + "), " + std::to_string(n) +
                             " of " + std::to_string(s.iterations) + " steps")
    << "</text>\n";
  auto x_of = [&](double step) {
    return L + (n <= 1 ? pw / 2 : (step - 1) / static_cast<double>(n - 1) * pw);
  };

  // Panel 1: the objective.
  std::vector<double> obj;
  for (const auto& h : history) obj.push_back(history_objective(s, h));
  double lo = obj.empty() ? 0 : *std::min_element(obj.begin(), obj.end());
  double hi = obj.empty() ? 1 : *std::max_element(obj.begin(), obj.end());
  if (hi - lo < 1e-9) {
    const double pad = std::max(1e-3, std::abs(hi) * 0.05);
    lo -= pad;
    hi += pad;
  }
  const double step = tick_step(hi - lo, 5);
  lo = std::floor(lo / step) * step;
  hi = std::ceil(hi / step) * step;
  auto y1 = [&](double v) { return top1 + h1 - (v - lo) / (hi - lo) * h1; };
  const std::string ylabel = s.game == "hanpang" ? "mean score of the step"
                             : s.method == "spsa" && s.opponents.empty()
                                 ? "result (plus - minus, per game)"
                                 : "mean points per game";
  o << "<text x=\"" << L << "\" y=\"" << top1 - 8 << "\">" << report::escape_markup(ylabel)
    << "</text>\n";
  for (double t = lo; t <= hi + step / 2; t += step) {
    o << "<line x1=\"" << L << "\" x2=\"" << L + pw << "\" y1=\"" << y1(t) << "\" y2=\"" << y1(t)
      << "\" stroke=\"#ddd\"/><text x=\"" << L - 6 << "\" y=\"" << y1(t) + 4
      << "\" text-anchor=\"end\">" << num(t) << "</text>\n";
  }
  o << "<polyline fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\" points=\"";
  for (std::size_t i = 0; i < n; ++i) o << x_of(double(i + 1)) << "," << y1(obj[i]) << " ";
  o << "\"/>\n";
  // A running mean over a tenth of the run, for the trend under the noise.
  const std::size_t win = std::max<std::size_t>(1, n / 10);
  o << "<polyline fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\" points=\"";
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t from = i + 1 >= win ? i + 1 - win : 0;
    double sum = 0;
    for (std::size_t k = from; k <= i; ++k) sum += obj[k];
    o << x_of(double(i + 1)) << "," << y1(sum / double(i + 1 - from)) << " ";
  }
  o << "\"/>\n<text x=\"" << L + pw + 10 << "\" y=\"" << top1 + 12
    << "\" fill=\"#333\">each step</text><text x=\"" << L + pw + 10 << "\" y=\"" << top1 + 28
    << "\" fill=\"#d62728\">mean of the last " << win << "</text>\n";

  // Panel 2: the parameters, as shares of their tuned ranges.
  auto y2 = [&](double share) { return top2 + h2 - share * h2; };
  o << "<text x=\"" << L << "\" y=\"" << top2 - 8
    << "\">parameters (share of the tuned range; SPSA: theta, CMA-ES: the mean)</text>\n";
  for (double t = 0; t <= 1.001; t += 0.25)
    o << "<line x1=\"" << L << "\" x2=\"" << L + pw << "\" y1=\"" << y2(t) << "\" y2=\"" << y2(t)
      << "\" stroke=\"#ddd\"/><text x=\"" << L - 6 << "\" y=\"" << y2(t) + 4
      << "\" text-anchor=\"end\">" << num(t) << "</text>\n";
  for (std::size_t p = 0; p < s.params.size(); ++p) {
    const auto& tp = s.params[p];
    const char* colour = kColours[p % 10];
    o << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.5\" points=\"";
    for (std::size_t i = 0; i < n; ++i) {
      const auto& v = history[i].at(s.method == "spsa" ? "theta_after" : "mean");
      const double share = (v.at(tp.name).get<double>() - tp.lo) / tp.range();
      o << x_of(double(i + 1)) << "," << y2(std::clamp(share, 0.0, 1.0)) << " ";
    }
    o << "\"/>\n<text x=\"" << L + pw + 10 << "\" y=\"" << top2 + 12 + 16 * double(p)
      << "\" fill=\"" << colour << "\">"
      << report::escape_markup(tp.name + " " + tp.text(tp.lo) + ".." + tp.text(tp.hi))
      << "</text>\n";
  }
  // The step axis.
  const double sstep = tick_step(std::max<double>(1, double(n)), 8);
  for (double t = 1; t <= double(n) + 0.5; t = t == 1 && sstep > 1 ? sstep : t + sstep)
    o << "<text x=\"" << x_of(t) << "\" y=\"" << top2 + h2 + 16 << "\" text-anchor=\"middle\">"
      << num(t) << "</text>\n";
  o << "<text x=\"" << L + pw / 2 << "\" y=\"" << top2 + h2 + 34
    << "\" text-anchor=\"middle\">step</text>\n</svg>\n";
  return o.str();
}

}  // namespace tactica::tune
