// plot.cpp — SVG plots for seed runs and tournaments, written as plain text.
#include "report/plot.hpp"
#include "report/escape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace tactica::report {

namespace {

using nlohmann::json;

// Okabe-Ito colours (distinguishable with the common colour-vision deficiencies), then greys.
constexpr const char* kPalette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                    "#e69f00", "#56b4e9", "#000000", "#999999"};
constexpr const char* kDashes[] = {"", "6 3", "2 3", "8 3 2 3"};
constexpr const char* kFont = "DejaVu Sans, Arial, Helvetica, sans-serif";


std::string clip(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  std::size_t cut = n - 1;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return s.substr(0, cut) + "\xE2\x80\xA6";
}

// A coordinate with at most two decimals.
std::string f(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// 1234567 -> "1,234,567".
std::string grouped(std::int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

std::string fixed(double v, int decimals, bool plus = false) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, plus ? "%+.*f" : "%.*f", decimals, v);
  return buf;
}

// Round axis limits and a tick step (1, 2 or 5 times a power of ten), about `target` ticks.
struct Axis {
  double lo, hi, step;
  double map(double v, double a, double b) const { return a + (v - lo) / (hi - lo) * (b - a); }
};
Axis nice_axis(double lo, double hi, int target = 6) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo < 1e-9) lo -= 1, hi += 1;
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) {
      step = m * mag;
      break;
    }
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step, step};
}

std::string tick_label(double v, double step) {
  if (step >= 1 && std::fabs(v) < 9e15) return grouped(static_cast<std::int64_t>(std::llround(v)));
  return fixed(v, step >= 0.1 ? 1 : 2);
}

class Svg {
 public:
  Svg(double w, double h) : w_(w), h_(h) {}
  void raw(const std::string& s) { body_ << s << '\n'; }
  void text(double x, double y, const std::string& s, const std::string& attrs = {}) {
    body_ << "<text x=\"" << f(x) << "\" y=\"" << f(y) << "\"" << (attrs.empty() ? "" : " ")
          << attrs << ">" << escape_markup(s) << "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, const std::string& attrs) {
    body_ << "<line x1=\"" << f(x1) << "\" y1=\"" << f(y1) << "\" x2=\"" << f(x2) << "\" y2=\""
          << f(y2) << "\" " << attrs << "/>\n";
  }
  void rect(double x, double y, double w, double h, const std::string& attrs) {
    body_ << "<rect x=\"" << f(x) << "\" y=\"" << f(y) << "\" width=\"" << f(std::max(0.0, w))
          << "\" height=\"" << f(std::max(0.0, h)) << "\" " << attrs << "/>\n";
  }
  std::string str() const {
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << f(w_) << "\" height=\"" << f(h_)
      << "\" viewBox=\"0 0 " << f(w_) << " " << f(h_) << "\" font-family=\"" << kFont
      << "\" font-size=\"12\">\n"
      << "<rect x=\"0\" y=\"0\" width=\"" << f(w_) << "\" height=\"" << f(h_)
      << "\" fill=\"#ffffff\"/>\n"
      << body_.str() << "</svg>\n";
    return o.str();
  }

 private:
  double w_, h_;
  std::ostringstream body_;
};

bool failed(const std::string& verdict) {
  return verdict == "TIME_LIMIT" || verdict == "INVALID" || verdict == "RUNTIME_ERROR";
}

// Horizontal grid lines and labels of a y axis over [top, bottom] at x in [left, right].
void y_grid(Svg& svg, const Axis& ax, double left, double right, double top, double bottom) {
  for (double v = ax.lo; v <= ax.hi + ax.step / 2; v += ax.step) {
    const double y = ax.map(v, bottom, top);
    svg.line(left, y, right, y,
             std::abs(v) < ax.step / 2 ? "stroke=\"#888\"" : "stroke=\"#e3e6ea\"");
    svg.text(left - 6, y + 4, tick_label(v, ax.step), "text-anchor=\"end\" fill=\"#444\"");
  }
}

std::string colour_of(std::size_t i) { return kPalette[i % std::size(kPalette)]; }
std::string dash_of(std::size_t i) {
  const char* d = kDashes[(i / std::size(kPalette)) % std::size(kDashes)];
  return *d ? std::string(" stroke-dasharray=\"") + d + "\"" : std::string();
}

}  // namespace

std::vector<HanpangGame> read_hanpang_results(std::istream& in, const std::string& source) {
  std::map<std::pair<int, std::int64_t>, std::size_t> where;  // (agent, seed) -> index
  std::vector<HanpangGame> games;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string at = source + ":" + std::to_string(n) + ": ";
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& e) {
      throw PlotError(at + "not a JSON object (" + e.what() +
                      "); expected one result per line as `tactica bench --out` writes");
    }
    if (!j.is_object()) throw PlotError(at + "expected a JSON object per line");
    if (j.value("game", std::string()) != "hanpang") continue;
    HanpangGame g;
    try {
      g.agent = j.at("agent").get<std::string>();
      g.agent_index = j.value("agent_index", 0);
      g.seed = j.at("seed").get<std::int64_t>();
      g.score = j.at("score").get<std::int64_t>();
      g.actions = j.value("actions", 0);
      g.verdict = j.value("verdict", std::string());
    } catch (const json::exception& e) {
      throw PlotError(at + "a Hanpang result needs agent, seed and score (" + e.what() +
                      "); see docs/FORMATS.md");
    }
    const auto key = std::make_pair(g.agent_index, g.seed);
    if (const auto it = where.find(key); it != where.end()) {
      games[it->second] = g;
    } else {
      where[key] = games.size();
      games.push_back(g);
    }
  }
  return games;
}

std::string hanpang_plot_svg(const std::vector<HanpangGame>& games, const std::string& title) {
  // Series by agent index, in order; seeds in order.
  struct Series {
    std::string name;
    std::map<std::int64_t, const HanpangGame*> by_seed;
    std::int64_t sum = 0;
    int failures = 0;
  };
  std::map<int, Series> series;
  std::set<std::int64_t> seed_set;
  std::int64_t lo = 0, hi = 1;
  for (const HanpangGame& g : games) {
    Series& s = series[g.agent_index];
    if (s.name.empty()) s.name = g.agent;
    s.by_seed[g.seed] = &g;
    seed_set.insert(g.seed);
  }
  for (auto& [idx, s] : series) {
    for (const auto& [seed, g] : s.by_seed) {
      s.sum += g->score;
      s.failures += failed(g->verdict);
      lo = std::min(lo, g->score);
      hi = std::max(hi, g->score);
    }
  }
  // Two agents with one label (the same config twice) stay apart in the legend.
  std::map<std::string, int> label_count;
  for (const auto& [idx, s] : series) ++label_count[s.name];
  for (auto& [idx, s] : series)
    if (label_count[s.name] > 1) s.name += " #" + std::to_string(idx);

  const std::vector<std::int64_t> seeds(seed_set.begin(), seed_set.end());
  const double W = 1040, left = 78, plot_w = 640, top = 64, plot_h = 340;
  const double legend_x = left + plot_w + 30;
  const double legend_rows = 44.0 * series.size();
  const double bars_top = top + legend_rows + 36;
  const double H = std::max(top + plot_h + 70, bars_top + 30.0 * series.size() + 30);
  Svg svg(W, H);
  svg.text(left, 26, title.empty() ? "Hanpang \xE2\x80\x94 score per seed" : title,
           "font-size=\"17\" font-weight=\"bold\"");
  svg.text(left, 46,
           std::to_string(series.size()) + " agent" + (series.size() == 1 ? "" : "s") + ", " +
               std::to_string(seeds.size()) + " seed" + (seeds.size() == 1 ? "" : "s") +
               "; red cross: TIME_LIMIT, INVALID or RUNTIME_ERROR",
           "fill=\"#555\"");
  if (seeds.empty()) {
    svg.text(left, top + 40, "No Hanpang results to plot.", "font-size=\"14\"");
    return svg.str();
  }

  const Axis ay = nice_axis(static_cast<double>(lo), static_cast<double>(hi));
  const double bottom = top + plot_h;
  y_grid(svg, ay, left, left + plot_w, top, bottom);
  svg.rect(left, top, plot_w, plot_h, "fill=\"none\" stroke=\"#888\"");
  svg.text(18, top + plot_h / 2, "score",
           "transform=\"rotate(-90 18 " + f(top + plot_h / 2) +
               ")\" text-anchor=\"middle\" fill=\"#444\"");
  const double dx = plot_w / static_cast<double>(seeds.size());
  const auto x_of = [&](std::size_t i) { return left + (static_cast<double>(i) + 0.5) * dx; };
  const std::size_t label_every = std::max<std::size_t>(1, (seeds.size() + 29) / 30);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    if (i % label_every) continue;
    svg.line(x_of(i), bottom, x_of(i), bottom + 4, "stroke=\"#888\"");
    svg.text(x_of(i), bottom + 16, std::to_string(seeds[i]),
             "text-anchor=\"middle\" font-size=\"10\" fill=\"#444\"");
  }
  svg.text(left + plot_w / 2, bottom + 36, "seed", "text-anchor=\"middle\" fill=\"#444\"");

  std::size_t k = 0;
  const double marker = std::clamp(dx / 4, 1.5, 4.0);
  for (const auto& [idx, s] : series) {
    const std::string colour = colour_of(k);
    std::string points;
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      const auto it = s.by_seed.find(seeds[i]);
      if (it == s.by_seed.end()) continue;
      points +=
          f(x_of(i)) + "," + f(ay.map(static_cast<double>(it->second->score), bottom, top)) + " ";
    }
    svg.raw("<g>");
    svg.raw("<polyline fill=\"none\" stroke=\"" + colour +
            "\" stroke-width=\"1.5\" stroke-opacity=\"0.75\"" + dash_of(k) + " points=\"" + points +
            "\"/>");
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      const auto it = s.by_seed.find(seeds[i]);
      if (it == s.by_seed.end()) continue;
      const HanpangGame& g = *it->second;
      const double x = x_of(i), y = ay.map(static_cast<double>(g.score), bottom, top);
      const std::string tip = "<title>" + escape_markup(s.name) + ", seed " + std::to_string(g.seed) + ": " +
                              grouped(g.score) + " (" + std::to_string(g.actions) + " actions, " +
                              escape_markup(g.verdict) + ")</title>";
      if (failed(g.verdict)) {
        const double r = marker + 2;
        svg.raw("<g stroke=\"#c00000\" stroke-width=\"2.2\">" + tip + "<line x1=\"" + f(x - r) +
                "\" y1=\"" + f(y - r) + "\" x2=\"" + f(x + r) + "\" y2=\"" + f(y + r) +
                "\"/><line x1=\"" + f(x - r) + "\" y1=\"" + f(y + r) + "\" x2=\"" + f(x + r) +
                "\" y2=\"" + f(y - r) + "\"/></g>");
      } else {
        svg.raw("<circle cx=\"" + f(x) + "\" cy=\"" + f(y) + "\" r=\"" + f(marker) + "\" fill=\"" +
                colour + "\">" + tip + "</circle>");
      }
    }
    svg.raw("</g>");

    // Legend entry: name, then sum, mean and games.
    const double ly = top + 44.0 * static_cast<double>(k);
    svg.line(legend_x, ly + 6, legend_x + 22, ly + 6,
             "stroke=\"" + colour + "\" stroke-width=\"3\"" + dash_of(k));
    svg.raw("<circle cx=\"" + f(legend_x + 11) + "\" cy=\"" + f(ly + 6) + "\" r=\"4\" fill=\"" +
            colour + "\"/>");
    svg.text(legend_x + 30, ly + 10, clip(s.name, 34), "font-weight=\"bold\"");
    const auto n = static_cast<std::int64_t>(s.by_seed.size());
    std::string stats =
        "sum " + grouped(s.sum) + " \xC2\xB7 mean " +
        grouped(n ? static_cast<std::int64_t>(std::llround(static_cast<double>(s.sum) / n)) : 0) +
        " \xC2\xB7 " + std::to_string(n) + " game" + (n == 1 ? "" : "s");
    if (s.failures) stats += " \xC2\xB7 " + std::to_string(s.failures) + " failed";
    svg.text(legend_x + 30, ly + 26, stats, "fill=\"#444\" font-size=\"11\"");
    ++k;
  }

  // scoreSum per agent as bars (over the seeds each agent played).
  std::int64_t max_sum = 1;
  for (const auto& [idx, s] : series) max_sum = std::max(max_sum, s.sum);
  svg.text(legend_x, bars_top - 10, "scoreSum", "font-weight=\"bold\"");
  k = 0;
  const double bar_w = W - legend_x - 20;
  for (const auto& [idx, s] : series) {
    const double y = bars_top + 30.0 * static_cast<double>(k);
    const double w =
        s.sum > 0 ? bar_w * static_cast<double>(s.sum) / static_cast<double>(max_sum) : 0;
    svg.text(legend_x, y + 8, clip(s.name, 26) + ": " + grouped(s.sum), "font-size=\"11\"");
    svg.rect(legend_x, y + 12, w, 10, "fill=\"" + colour_of(k) + "\"");
    ++k;
  }
  return svg.str();
}

std::string icebreaking_plot_svg(const std::vector<EloRow>& table, const SprtTrace* sprt,
                                 const std::string& title, const std::string& interval) {
  const double W = 1000, left = 24;
  const double row_h = 26, table_top = 78;
  const double table_h = table.empty() ? 0 : 30 + row_h * static_cast<double>(table.size()) + 40;
  const double sprt_top = table_top + table_h + (table.empty() ? 0 : 20);
  const double sprt_h = sprt ? 300 : 0;
  const double H = std::max(160.0, sprt_top + sprt_h + 20);
  Svg svg(W, H);
  svg.text(left, 28, title.empty() ? "Icebreaking \xE2\x80\x94 tournament" : title,
           "font-size=\"17\" font-weight=\"bold\"");
  if (table.empty() && !sprt) {
    svg.text(left, 60, "No ratings or SPRT to plot.", "font-size=\"14\"");
    return svg.str();
  }

  if (!table.empty()) {
    std::vector<const EloRow*> rows;
    for (const EloRow& r : table) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const EloRow* a, const EloRow* b) {
      const double ea = std::isnan(a->elo) ? -1e300 : a->elo,
                   eb = std::isnan(b->elo) ? -1e300 : b->elo;
      return ea > eb;
    });
    // The axis spans every finite value and zero, plus room on a side where a bar runs off to
    // infinity (a one-sided bound), so the bound sits inside the axis and its arrow shows.
    double lo = 0, hi = 0;
    bool inf_low = false, inf_high = false;
    for (const EloRow* r : rows)
      for (const double v : {r->elo, r->lo, r->hi}) {
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        inf_low |= std::isinf(v) && v < 0;
        inf_high |= std::isinf(v) && v > 0;
      }
    const double room = std::max(50.0, 0.3 * (hi - lo));
    if (inf_high) hi += room;
    if (inf_low) lo -= room;
    const Axis ax = nice_axis(lo, hi, 8);
    const double col_rank = left, col_name = left + 28, col_elo = left + 250,
                 col_games = left + 420;
    const double bar_l = left + 505, bar_r = W - 30;
    const double head = table_top;
    svg.text(left, 52, "Elo with error bars (" + interval + ")", "fill=\"#555\"");
    svg.text(col_rank, head, "#", "font-weight=\"bold\"");
    svg.text(col_name, head, "agent", "font-weight=\"bold\"");
    svg.text(col_elo, head, "Elo [low, high]", "font-weight=\"bold\"");
    svg.text(col_games + 40, head, "games", "font-weight=\"bold\" text-anchor=\"end\"");
    const double y0 = head + 12, y1 = y0 + row_h * static_cast<double>(rows.size());
    const auto x_of = [&](double v) {
      if (std::isnan(v)) v = 0;
      return ax.map(std::clamp(v, ax.lo, ax.hi), bar_l, bar_r);
    };
    for (std::size_t i = 0; i < rows.size(); i += 2)
      svg.rect(left - 4, y0 + row_h * static_cast<double>(i), W - left - 10, row_h,
               "fill=\"#f4f6f8\"");
    for (double v = ax.lo; v <= ax.hi + ax.step / 2; v += ax.step) {
      const double x = ax.map(v, bar_l, bar_r);
      svg.line(x, y0, x, y1,
               std::abs(v) < ax.step / 2 ? "stroke=\"#777\" stroke-dasharray=\"4 3\""
                                         : "stroke=\"#e3e6ea\"");
      svg.text(x, y1 + 16, tick_label(v, ax.step),
               "text-anchor=\"middle\" font-size=\"10\" fill=\"#444\"");
    }
    svg.text((bar_l + bar_r) / 2, y1 + 32, "Elo", "text-anchor=\"middle\" fill=\"#444\"");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const EloRow& r = *rows[i];
      const double y = y0 + row_h * static_cast<double>(i);
      const double cy = y + row_h / 2;
      svg.text(col_rank, cy + 4, std::to_string(i + 1));
      svg.text(col_name, cy + 4, clip(r.name, 30));
      // A one-sided row prints its finite bound, never "+inf [..., +inf]".
      const bool all_won = std::isinf(r.elo) && r.elo > 0 && std::isfinite(r.lo);
      const bool all_lost = std::isinf(r.elo) && r.elo < 0 && std::isfinite(r.hi);
      const std::string value =
          all_won    ? ">= " + fixed(r.lo, 1, true) + " (all won)"
          : all_lost ? "<= " + fixed(r.hi, 1, true) + " (all lost)"
                     : fixed(r.elo, 1, true) + " [" + fixed(r.lo, 1, true) + ", " +
                           fixed(r.hi, 1, true) + "]";
      svg.text(col_elo, cy + 4, value,
               "font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\"");
      svg.text(col_games + 40, cy + 4, std::to_string(r.games), "text-anchor=\"end\"");
      const std::string colour = colour_of(i);
      const double xl = x_of(r.lo), xh = x_of(r.hi), xe = x_of(r.elo);
      std::string g = "<g stroke=\"" + colour + "\" stroke-width=\"2\"><title>" + escape_markup(r.name) +
                      ": Elo " + escape_markup(value) + ", " + escape_markup(interval) + ", " +
                      std::to_string(r.games) + " games</title>";
      g += "<line x1=\"" + f(xl) + "\" y1=\"" + f(cy) + "\" x2=\"" + f(xh) + "\" y2=\"" + f(cy) +
           "\"/>";
      for (const double x : {xl, xh})
        g += "<line x1=\"" + f(x) + "\" y1=\"" + f(cy - 6) + "\" x2=\"" + f(x) + "\" y2=\"" +
             f(cy + 6) + "\"/>";
      if (!all_won && !all_lost)  // a bound has no point estimate to mark
        g += "<circle cx=\"" + f(xe) + "\" cy=\"" + f(cy) + "\" r=\"5\" fill=\"" + colour + "\"/>";
      g += "</g>";
      svg.raw(g);
      // An infinite value is drawn at the axis edge, with an arrow pointing off the axis.
      bool off_low = false, off_high = false;
      for (const double v : {r.lo, r.hi, r.elo}) {
        off_low |= std::isinf(v) && v < 0;
        off_high |= std::isinf(v) && v > 0;
      }
      if (off_low)
        svg.text(bar_l - 4, cy + 4, "\xE2\x86\x90", "fill=\"#c00000\" text-anchor=\"end\"");
      if (off_high) svg.text(bar_r + 4, cy + 4, "\xE2\x86\x92", "fill=\"#c00000\"");
    }
  }

  if (sprt) {
    const double l = 78, r = W - 170, top = sprt_top + 40, bottom = sprt_top + sprt_h - 40;
    svg.text(left, sprt_top + 14,
             "SPRT: log-likelihood ratio over games (elo0 = " + fixed(sprt->elo0, 1) +
                 ", elo1 = " + fixed(sprt->elo1, 1) + ", alpha = " + fixed(sprt->alpha, 3) +
                 ", beta = " + fixed(sprt->beta, 3) + ")" +
                 (sprt->result.empty() ? "" : ": " + sprt->result),
             "font-weight=\"bold\"");
    double lo = std::min(sprt->lower, 0.0), hi = std::max(sprt->upper, 0.0), max_games = 1;
    for (const SprtPoint& p : sprt->points) {
      if (std::isfinite(p.llr)) lo = std::min(lo, p.llr), hi = std::max(hi, p.llr);
      if (std::isfinite(p.games)) max_games = std::max(max_games, p.games);
    }
    const Axis ay = nice_axis(lo, hi, 6);
    const Axis ax = nice_axis(0, max_games, 8);
    y_grid(svg, ay, l, r, top, bottom);
    svg.rect(l, top, r - l, bottom - top, "fill=\"none\" stroke=\"#888\"");
    for (double v = ax.lo; v <= ax.hi + ax.step / 2; v += ax.step) {
      const double x = ax.map(v, l, r);
      svg.line(x, bottom, x, bottom + 4, "stroke=\"#888\"");
      svg.text(x, bottom + 16, tick_label(v, ax.step),
               "text-anchor=\"middle\" font-size=\"10\" fill=\"#444\"");
    }
    svg.text((l + r) / 2, bottom + 34, "games", "text-anchor=\"middle\" fill=\"#444\"");
    svg.text(24, (top + bottom) / 2, "LLR",
             "transform=\"rotate(-90 24 " + f((top + bottom) / 2) +
                 ")\" text-anchor=\"middle\" fill=\"#444\"");
    const double yu = ay.map(sprt->upper, bottom, top), yl = ay.map(sprt->lower, bottom, top);
    svg.line(l, yu, r, yu, "stroke=\"#009e73\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    svg.line(l, yl, r, yl, "stroke=\"#d55e00\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    svg.text(r + 6, yu + 4, "accept H1 (" + fixed(sprt->upper, 2) + ")",
             "fill=\"#00704f\" font-size=\"11\"");
    svg.text(r + 6, yl + 4, "accept H0 (" + fixed(sprt->lower, 2) + ")",
             "fill=\"#a04400\" font-size=\"11\"");
    std::string pts = f(ax.map(0, l, r)) + "," + f(ay.map(0, bottom, top)) + " ";
    for (const SprtPoint& p : sprt->points) {
      if (!std::isfinite(p.llr) || !std::isfinite(p.games)) continue;
      pts += f(ax.map(p.games, l, r)) + "," +
             f(ay.map(std::clamp(p.llr, ay.lo, ay.hi), bottom, top)) + " ";
    }
    svg.raw("<polyline fill=\"none\" stroke=\"#0072b2\" stroke-width=\"2\" points=\"" + pts +
            "\"/>");
    if (!sprt->points.empty()) {
      const SprtPoint& last = sprt->points.back();
      if (std::isfinite(last.llr) && std::isfinite(last.games)) {
        const double x = ax.map(last.games, l, r),
                     y = ay.map(std::clamp(last.llr, ay.lo, ay.hi), bottom, top);
        svg.raw("<circle cx=\"" + f(x) + "\" cy=\"" + f(y) +
                "\" r=\"4\" fill=\"#0072b2\"><title>LLR " + fixed(last.llr, 3) + " after " +
                fixed(last.games, 0) + " games</title></circle>");
        svg.text(x - 6, y - 8,
                 "LLR " + fixed(last.llr, 2) + " after " + fixed(last.games, 0) + " games",
                 "text-anchor=\"end\" font-size=\"11\" fill=\"#0072b2\"");
      }
    }
  }
  return svg.str();
}

}  // namespace tactica::report
