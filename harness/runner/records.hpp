// records.hpp — one finished game as a results line (docs/FORMATS.md, "Results"), both ways.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "runner/runner.hpp"
#include "stats/stats.hpp"

namespace tactica::harness {

struct BenchRecord {  // Hanpang (`tactica bench`)
  std::string agent;
  int agent_index = 0;
  std::uint64_t seed = 0;
  std::int64_t score = 0;
  int actions = 0;
  std::string verdict;
  double time_ms = 0;
  std::string detail;
  std::string accounting;  // how the judge counted the agent (optional in older files)
};

struct TourneyRecord {  // Icebreaking (`tactica tourney`)
  std::uint64_t seed = 0;
  long pair = 0;  // game pair id: both games of a seed and an agent pair, sides swapped
  std::string first, second;
  int first_index = 0, second_index = 1;
  std::array<int, 2> totals{};
  std::string winner;   // first second draw
  std::string verdict;  // FINISHED or the loser's
  std::array<double, 2> time_ms{};
  std::string detail;
  std::string accounting;

  // Points of `label` in this game (1 win, 0.5 draw, 0 loss); -1 if it did not play.
  double points_of(const std::string& label) const;
};

nlohmann::json to_json(const BenchRecord& r);
nlohmann::json to_json(const TourneyRecord& r);
// Throw RunError naming `where` (e.g. "results.jsonl:12") and the bad field.
BenchRecord bench_record(const nlohmann::json& j, const std::string& where);
TourneyRecord tourney_record(const nlohmann::json& j, const std::string& where);

// Upper bound of a Hanpang score after `actions` actions; the range of one Icebreaking total on
// the board of `seed` (the sum of its negative cells .. the sum of its positive cells).
std::int64_t hanpang_score_bound(int actions);
std::pair<int, int> icebreaking_total_bounds(std::uint64_t seed);

// The games of one or more results files, every line checked (bench_record/tourney_record) and
// kept once per key: a line equal to one already read is counted in `duplicates`, a different
// result for the same key is refused. Lines are streamed: memory grows with the games kept.
// Errors are RunError "FILE:LINE: what is wrong (how to fix)".
class BenchSet {
 public:
  ResultsScan add_file(const std::string& path, bool keep_lines = false);
  // Indices below the number of labels, one label per index (merge).
  void check_indices() const;
  // Each game's agent is names[agent_index] (resume).
  void check_agents(const std::vector<std::string>& names) const;
  std::vector<BenchRecord> records;
  std::vector<nlohmann::json> lines;  // with keep_lines: the JSON of each record, as read
  std::size_t duplicates = 0;

 private:
  std::map<std::pair<std::string, std::uint64_t>, std::size_t> keys_;
  std::vector<std::string> where_;
};

class TourneySet {
 public:
  ResultsScan add_file(const std::string& path, bool keep_lines = false);
  void check_indices() const;
  void check_agents(const std::vector<std::string>& names) const;
  std::vector<TourneyRecord> records;
  std::vector<nlohmann::json> lines;
  std::size_t duplicates = 0;

 private:
  std::map<std::tuple<std::uint64_t, std::string, std::string>, std::size_t> keys_;
  std::map<std::tuple<std::uint64_t, std::string, std::string>, std::pair<long, std::size_t>>
      pairs_;
  std::vector<std::string> where_;
};

// Completes game pairs between agents a and b as their games arrive.
class PairTracker {
 public:
  PairTracker(std::string a, std::string b) : a_(std::move(a)), b_(std::move(b)) {}
  // True if this game completed a pair (then pentanomial() counts it).
  bool add(const TourneyRecord& r);
  const stats::Pentanomial& pentanomial() const { return pent_; }

 private:
  std::string a_, b_;
  std::map<std::pair<std::uint64_t, long>, std::vector<double>> open_;  // a's points so far
  stats::Pentanomial pent_;
};

}  // namespace tactica::harness
