// tables.hpp — the text reports of `tactica bench`, `tactica tourney` and `tactica merge`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/records.hpp"
#include "stats/stats.hpp"

namespace tactica::report {

// Aligned plain-text columns: 'l' or 'r' per column.
class Table {
 public:
  Table(std::vector<std::string> headers, std::string align);
  void add(std::vector<std::string> row);
  std::string str() const;

 private:
  std::vector<std::string> headers_;
  std::string align_;
  std::vector<std::vector<std::string>> rows_;
};

// Fixed-point number; "+" sign when `sign`; "inf"/"-inf" spelled out.
std::string num(double v, int decimals, bool sign = false);

// Hanpang seed run: per agent (in `agents` order) scoreSum, mean with 95% CI, median, min, max,
// mean actions, bank used, verdict counts; with two or more agents the paired difference of
// each against the first on their common seeds; and the games that did not end normally.
std::string bench_report(const std::vector<harness::BenchRecord>& records,
                         const std::vector<std::string>& agents);

// Icebreaking tournament: two agents: W/D/L, pentanomial pairs, Elo with 95% CI, nElo, LOS and
// the SPRT state; more: ML Elo ratings with error bars and a cross table. Losses by verdict.
std::string tourney_report(const std::vector<harness::TourneyRecord>& records,
                           const std::vector<std::string>& agents,
                           const std::optional<stats::SprtSpec>& sprt);

// The Elo line of a two-agent tourney: "Elo +35.2 [-10.1, +80.9] (95%, from pairs)  nElo ...";
// when every game was won (lost) only the finite Wilson bound: "Elo >= +197.3 (95% Wilson lower
// bound over 12 games): all games won: play more seeds". Never an infinite interval.
std::string elo_line(const stats::EloEstimate& e);

// "SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR 1.23 [-2.94, 2.94]: continue"
std::string sprt_line(const stats::Pentanomial& p, const stats::SprtSpec& spec);

}  // namespace tactica::report
