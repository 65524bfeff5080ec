// run_plots.hpp — `--plot FILE.svg` of `tactica bench` and `tactica tourney`: the runs' records
// turned into the plots of plot.hpp, with the statistics of stats.hpp (the same numbers as the
// text tables).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/plot.hpp"
#include "runner/records.hpp"
#include "stats/stats.hpp"

namespace tactica::report {

// Hanpang: per-seed scores of each agent with their sums.
std::vector<HanpangGame> bench_plot_games(const std::vector<harness::BenchRecord>& records);
void write_bench_plot(const std::string& path, const std::vector<harness::BenchRecord>& records);

// Icebreaking: two agents: one row, the first's Elo over the second from game pairs with its
// 95% interval; more: maximum-likelihood ratings (mean 0) with 95% error bars against the pool.
// Games between agents not in `agents` are ignored.
std::vector<EloRow> tourney_elo_rows(const std::vector<harness::TourneyRecord>& records,
                                     const std::vector<std::string>& agents);
// The SPRT's LLR after each completed game pair (games counted in arrival order).
SprtTrace tourney_sprt_trace(const std::vector<harness::TourneyRecord>& records,
                             const std::vector<std::string>& agents, const stats::SprtSpec& spec);
void write_tourney_plot(const std::string& path, const std::vector<harness::TourneyRecord>& records,
                        const std::vector<std::string>& agents,
                        const std::optional<stats::SprtSpec>& sprt);

}  // namespace tactica::report
