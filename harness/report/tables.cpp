// tables.cpp — see tables.hpp.
#include "report/tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

namespace tactica::report {

using harness::BenchRecord;
using harness::TourneyRecord;

Table::Table(std::vector<std::string> headers, std::string align)
    : headers_(std::move(headers)), align_(std::move(align)) {
  align_.resize(headers_.size(), 'r');
}

void Table::add(std::vector<std::string> row) {
  row.resize(headers_.size());
  rows_.push_back(std::move(row));
}

std::string Table::str() const {
  std::vector<std::size_t> width(headers_.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(headers_);
  for (const auto& r : rows_) measure(r);
  std::string out;
  const auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) line += "  ";
      const std::string pad(width[i] - row[i].size(), ' ');
      line += align_[i] == 'l' ? row[i] + pad : pad + row[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(headers_);
  for (const auto& r : rows_) emit(r);
  return out;
}

std::string num(double v, int decimals, bool sign) {
  if (std::isinf(v)) return v > 0 ? (sign ? "+inf" : "inf") : "-inf";
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f" : "%.*f", decimals, v);
  return buf;
}

namespace {

std::string pct(double v) { return num(100.0 * v, 1) + "%"; }

std::string verdict_counts(const std::map<std::string, int>& counts) {
  std::vector<std::pair<std::string, int>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.second > b.second; });
  std::string s;
  for (auto& [name, n] : v) s += (s.empty() ? "" : ", ") + name + " " + std::to_string(n);
  return s;
}

}  // namespace

std::string elo_line(const stats::EloEstimate& e) {
  const std::string games = std::to_string(2 * e.pairs) + " games";
  if (e.bound > 0)
    return "Elo >= " + num(e.elo_lo, 1, true) + " (95% Wilson lower bound over " + games +
           "): all games won: play more seeds";
  if (e.bound < 0)
    return "Elo <= " + num(e.elo_hi, 1, true) + " (95% Wilson upper bound over " + games +
           "): all games lost: play more seeds";
  std::string s = "Elo " + num(e.elo, 1, true) + " [" + num(e.elo_lo, 1, true) + ", " +
                  num(e.elo_hi, 1, true) + "] (95%, " +
                  (e.wilson ? "Wilson over " + games : std::string("from pairs")) + ")";
  if (std::isfinite(e.nelo))
    s += "  nElo " + num(e.nelo, 1, true) + " ± " + num(e.nelo_err, 1) + "  LOS " + pct(e.los);
  else
    s += "  nElo and LOS undefined: every pair scored the same; play more seeds";
  return s;
}

std::string bench_report(const std::vector<BenchRecord>& records,
                         const std::vector<std::string>& agents) {
  // Per agent: seed -> record (the first one if a seed was played twice).
  std::vector<std::map<std::uint64_t, const BenchRecord*>> by_agent(agents.size());
  for (const auto& r : records) {
    const auto it = std::find(agents.begin(), agents.end(), r.agent);
    if (it == agents.end()) continue;
    by_agent[static_cast<std::size_t>(it - agents.begin())].emplace(r.seed, &r);
  }
  std::string out;
  Table t({"agent", "games", "scoreSum", "mean", "±95%", "median", "min", "max", "actions",
           "bank ms", "verdicts"},
          "lrrrrrrrrrl");
  for (std::size_t a = 0; a < agents.size(); ++a) {
    std::vector<double> scores;
    double actions = 0, bank = 0;
    std::map<std::string, int> verdicts;
    for (const auto& [seed, r] : by_agent[a]) {
      scores.push_back(static_cast<double>(r->score));
      actions += r->actions;
      bank += r->time_ms;
      ++verdicts[r->verdict];
    }
    const auto s = stats::summarize(scores);
    const double n = static_cast<double>(std::max<std::size_t>(s.n, 1));
    if (s.n == 0) {
      t.add({agents[a], "0"});
      continue;
    }
    t.add({agents[a], std::to_string(s.n), num(s.sum, 0), num(s.mean, 1),
           s.n >= 2 ? num(s.ci95, 1) : "-", num(s.median, 1), num(s.min, 0), num(s.max, 0),
           num(actions / n, 1), num(bank / n, 0), verdict_counts(verdicts)});
  }
  out += t.str();

  if (agents.size() >= 2) {
    out += "\npaired difference against " + agents[0] + " (same seeds; + is better):\n";
    Table p({"agent", "seeds", "mean diff", "±95%", "median diff", "better", "equal", "worse"},
            "lrrrrrrr");
    for (std::size_t a = 1; a < agents.size(); ++a) {
      std::vector<double> base, other;
      for (const auto& [seed, r] : by_agent[a]) {
        const auto b = by_agent[0].find(seed);
        if (b == by_agent[0].end()) continue;
        base.push_back(static_cast<double>(b->second->score));
        other.push_back(static_cast<double>(r->score));
      }
      const auto d = stats::paired_difference(base, other);
      if (d.diff.n == 0) {
        p.add({agents[a], "0"});
        continue;
      }
      p.add({agents[a], std::to_string(d.diff.n), num(d.diff.mean, 1, true),
             d.diff.n >= 2 ? num(d.diff.ci95, 1) : "-", num(d.diff.median, 1, true),
             std::to_string(d.better), std::to_string(d.equal), std::to_string(d.worse)});
    }
    out += p.str();
  }

  std::vector<const BenchRecord*> odd;
  for (const auto& m : by_agent)
    for (const auto& [seed, r] : m)
      if (r->verdict != "OVERFLOW" && r->verdict != "MAX_ACTIONS") odd.push_back(r);
  if (!odd.empty()) {
    out += "\ngames that ended by the agent's fault (" + std::to_string(odd.size()) + "):\n";
    for (std::size_t i = 0; i < odd.size() && i < 20; ++i)
      out += "  " + odd[i]->agent + " seed " + std::to_string(odd[i]->seed) + ": " +
             odd[i]->verdict + " (score " + std::to_string(odd[i]->score) + "): " + odd[i]->detail +
             "\n";
    if (odd.size() > 20) out += "  ... and " + std::to_string(odd.size() - 20) + " more\n";
  }
  return out;
}

std::string sprt_line(const stats::Pentanomial& p, const stats::SprtSpec& spec) {
  const double llr = stats::sprt_llr(p, spec.elo0, spec.elo1);
  const auto d = stats::sprt_decide(llr, spec);
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "SPRT nElo [%g, %g] alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] after %ld pairs: %s",
                spec.elo0, spec.elo1, spec.alpha, spec.beta, llr, spec.lower(), spec.upper(),
                p.pairs(),
                d == stats::SprtDecision::h1   ? "H1 accepted (the first agent is stronger)"
                : d == stats::SprtDecision::h0 ? "H0 accepted (not stronger by elo1)"
                                               : "continue (no decision yet)");
  return buf;
}

std::string tourney_report(const std::vector<TourneyRecord>& records,
                           const std::vector<std::string>& agents,
                           const std::optional<stats::SprtSpec>& sprt) {
  const std::size_t n = agents.size();
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index[agents[i]] = i;
  std::vector<std::vector<double>> points(n, std::vector<double>(n, 0.0)), games = points;
  std::vector<std::array<int, 3>> wdl(n, {0, 0, 0});
  std::vector<std::map<std::string, int>> lost_by(n);
  std::vector<double> bank_sum(n, 0), bank_max(n, 0);
  int first_wins = 0, second_wins = 0, draws = 0, total = 0;
  for (const auto& r : records) {
    const auto fi = index.find(r.first), si = index.find(r.second);
    if (fi == index.end() || si == index.end()) continue;
    const std::size_t f = fi->second, s = si->second;
    const double pf = r.points_of(r.first);
    points[f][s] += pf, points[s][f] += 1 - pf;
    games[f][s] += 1, games[s][f] += 1;
    ++total;
    if (r.winner == "draw") {
      ++draws, ++wdl[f][1], ++wdl[s][1];
    } else {
      const std::size_t w = r.winner == "first" ? f : s, l = r.winner == "first" ? s : f;
      ++wdl[w][0], ++wdl[l][2];
      (r.winner == "first" ? first_wins : second_wins)++;
      if (r.verdict != "FINISHED") ++lost_by[l][r.verdict];
    }
    for (int k = 0; k < 2; ++k) {
      const std::size_t who = k == 0 ? f : s;
      bank_sum[who] += r.time_ms[k];
      bank_max[who] = std::max(bank_max[who], r.time_ms[k]);
    }
  }
  std::string out;
  if (total == 0) return "no games\n";

  if (n == 2) {
    harness::PairTracker tracker(agents[0], agents[1]);
    for (const auto& r : records) tracker.add(r);
    const auto& pent = tracker.pentanomial();
    const auto e = stats::pentanomial_elo(pent);
    const int g = wdl[0][0] + wdl[0][1] + wdl[0][2];
    out += agents[0] + " vs " + agents[1] + ": " + std::to_string(g) + " games, " +
           std::to_string(pent.pairs()) + " complete pairs\n";
    out += "  " + agents[0] + ": W " + std::to_string(wdl[0][0]) + "  D " +
           std::to_string(wdl[0][1]) + "  L " + std::to_string(wdl[0][2]) + "  score " +
           pct(g ? (wdl[0][0] + 0.5 * wdl[0][1]) / g : 0.5) + "\n";
    const auto& c = pent.n;
    out += "  pairs by " + agents[0] + "'s points (0 .. 2): LL " + std::to_string(c[0]) + "  LD " +
           std::to_string(c[1]) + "  WL " + std::to_string(c[2]) + "  DD " + std::to_string(c[3]) +
           "  WD " + std::to_string(c[4]) + "  WW " + std::to_string(c[5]) + "\n";
    if (pent.pairs() > 0) out += "  " + elo_line(e) + "\n";
    if (sprt) out += "  " + sprt_line(pent, *sprt) + "\n";
  } else {
    const auto ratings = stats::ml_elo(points, games);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return ratings.elo[a] > ratings.elo[b]; });
    Table t({"rank", "agent", "Elo", "±95%", "games", "score", "W", "D", "L"}, "rlrrrrrrr");
    int rank = 0;
    for (std::size_t i : order) {
      const int g = wdl[i][0] + wdl[i][1] + wdl[i][2];
      t.add({std::to_string(++rank), agents[i], num(ratings.elo[i], 1, true),
             num(ratings.error95[i], 1), std::to_string(g),
             pct(g ? (wdl[i][0] + 0.5 * wdl[i][1]) / g : 0.5), std::to_string(wdl[i][0]),
             std::to_string(wdl[i][1]), std::to_string(wdl[i][2])});
    }
    out += "ratings (maximum-likelihood Elo, mean 0; ±: 95% against the pool):\n" + t.str();
    if (ratings.regularized)
      out +=
          "(an agent won or lost every game, or the pool is split: one virtual draw per pair "
          "was added to keep the ratings finite; play more seeds)\n";
    std::vector<std::string> head{"score/games"};
    for (std::size_t j : order) head.push_back(agents[j]);
    Table x(head, "l" + std::string(n, 'r'));
    for (std::size_t i : order) {
      std::vector<std::string> row{agents[i]};
      for (std::size_t j : order)
        row.push_back(
            i == j || games[i][j] == 0 ? "-" : num(points[i][j], 1) + "/" + num(games[i][j], 0));
      x.add(row);
    }
    out += "\n" + x.str();
  }

  out += "\nsides: first won " + std::to_string(first_wins) + ", second won " +
         std::to_string(second_wins) + ", draws " + std::to_string(draws) + " of " +
         std::to_string(total) + " games\n";
  Table b({"agent", "bank ms mean", "bank ms max", "losses by fault"}, "lrrl");
  for (std::size_t i = 0; i < n; ++i) {
    const int g = wdl[i][0] + wdl[i][1] + wdl[i][2];
    b.add({agents[i], g ? num(bank_sum[i] / g, 0) : "-", num(bank_max[i], 0),
           lost_by[i].empty() ? "none" : verdict_counts(lost_by[i])});
  }
  out += b.str();
  std::vector<const TourneyRecord*> odd;
  for (const auto& r : records)
    if (r.verdict != "FINISHED" && index.count(r.first) && index.count(r.second)) odd.push_back(&r);
  if (!odd.empty()) {
    out += "\ngames lost by a fault (" + std::to_string(odd.size()) + "):\n";
    for (std::size_t i = 0; i < odd.size() && i < 20; ++i)
      out += "  seed " + std::to_string(odd[i]->seed) + " " + odd[i]->first + " vs " +
             odd[i]->second + ": " + odd[i]->verdict + ": " + odd[i]->detail + "\n";
    if (odd.size() > 20) out += "  ... and " + std::to_string(odd.size() - 20) + " more\n";
  }
  return out;
}

}  // namespace tactica::report
