// records.hpp — one finished game as a results line (docs/FORMATS.md, "Results"), both ways.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

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
