// run_plots.cpp — see run_plots.hpp.
#include "report/run_plots.hpp"

#include <map>

#include "report/view.hpp"    // write_text_file
#include "runner/runner.hpp"  // RunError

namespace tactica::report {

namespace {

void write_svg(const std::string& path, const std::string& svg) {
  try {
    write_text_file(path, svg);
  } catch (const ViewError& e) {
    throw harness::RunError(std::string("--plot: ") + e.what());
  }
}

}  // namespace

std::vector<HanpangGame> bench_plot_games(const std::vector<harness::BenchRecord>& records) {
  std::vector<HanpangGame> games;
  games.reserve(records.size());
  for (const auto& r : records)
    games.push_back(
        {r.agent, r.agent_index, static_cast<std::int64_t>(r.seed), r.score, r.actions, r.verdict});
  return games;
}

void write_bench_plot(const std::string& path, const std::vector<harness::BenchRecord>& records) {
  write_svg(path, hanpang_plot_svg(bench_plot_games(records)));
}

std::vector<EloRow> tourney_elo_rows(const std::vector<harness::TourneyRecord>& records,
                                     const std::vector<std::string>& agents) {
  const std::size_t n = agents.size();
  std::vector<EloRow> rows;
  if (n < 2) return rows;
  if (n == 2) {
    harness::PairTracker tracker(agents[0], agents[1]);
    int games = 0;
    for (const auto& r : records) {
      if (r.points_of(agents[0]) < 0 || r.points_of(agents[1]) < 0) continue;
      tracker.add(r);
      ++games;
    }
    if (tracker.pentanomial().pairs() == 0) return rows;
    const auto e = stats::pentanomial_elo(tracker.pentanomial());
    rows.push_back({agents[0] + " vs " + agents[1], e.elo, e.elo_lo, e.elo_hi, games});
    return rows;
  }
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index[agents[i]] = i;
  std::vector<std::vector<double>> points(n, std::vector<double>(n, 0.0)), games = points;
  for (const auto& r : records) {
    const auto f = index.find(r.first), s = index.find(r.second);
    if (f == index.end() || s == index.end() || f->second == s->second) continue;
    const double p = r.points_of(r.first);
    points[f->second][s->second] += p;
    points[s->second][f->second] += 1 - p;
    games[f->second][s->second] += 1;
    games[s->second][f->second] += 1;
  }
  const auto ratings = stats::ml_elo(points, games);
  for (std::size_t i = 0; i < n; ++i) {
    double g = 0;
    for (std::size_t j = 0; j < n; ++j) g += games[i][j];
    const double elo = ratings.elo[i], err = ratings.error95[i];
    rows.push_back({agents[i], elo, elo - err, elo + err, static_cast<int>(g)});
  }
  return rows;
}

SprtTrace tourney_sprt_trace(const std::vector<harness::TourneyRecord>& records,
                             const std::vector<std::string>& agents, const stats::SprtSpec& spec) {
  SprtTrace t;
  t.elo0 = spec.elo0, t.elo1 = spec.elo1, t.alpha = spec.alpha, t.beta = spec.beta;
  t.lower = spec.lower(), t.upper = spec.upper();
  if (agents.size() < 2) return t;
  harness::PairTracker tracker(agents[0], agents[1]);
  double games = 0, llr = 0;
  for (const auto& r : records) {
    if (r.points_of(agents[0]) < 0 || r.points_of(agents[1]) < 0) continue;
    ++games;
    if (!tracker.add(r)) continue;
    llr = stats::sprt_llr(tracker.pentanomial(), spec.elo0, spec.elo1);
    t.points.push_back({games, llr});
  }
  switch (t.points.empty() ? stats::SprtDecision::none : stats::sprt_decide(llr, spec)) {
    case stats::SprtDecision::h1:
      t.result = "H1 accepted";
      break;
    case stats::SprtDecision::h0:
      t.result = "H0 accepted";
      break;
    default:
      t.result = "no decision yet";
  }
  return t;
}

void write_tourney_plot(const std::string& path, const std::vector<harness::TourneyRecord>& records,
                        const std::vector<std::string>& agents,
                        const std::optional<stats::SprtSpec>& sprt) {
  const auto rows = tourney_elo_rows(records, agents);
  const std::string interval = agents.size() == 2 ? "95% confidence interval, from game pairs"
                                                  : "95% against the pool; mean 0";
  std::string title = "Icebreaking \xE2\x80\x94 " + std::to_string(agents.size()) + " agents, " +
                      std::to_string(records.size()) + " games";
  if (sprt) {
    const SprtTrace trace = tourney_sprt_trace(records, agents, *sprt);
    write_svg(path, icebreaking_plot_svg(rows, &trace, title, interval));
  } else {
    write_svg(path, icebreaking_plot_svg(rows, nullptr, title, interval));
  }
}

}  // namespace tactica::report
