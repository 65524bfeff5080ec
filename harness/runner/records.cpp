// records.cpp — see records.hpp.
#include "runner/records.hpp"

#include <cmath>

#include "runner/runner.hpp"

namespace tactica::harness {
namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw RunError(where + ": missing field \"" + key + "\"");
  return j[key];
}

template <class T>
T get(const nlohmann::json& j, const char* key, const std::string& where) {
  const auto& v = field(j, key, where);
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw RunError(where + ": field \"" + key + "\" has the wrong type (" + v.dump() + ")");
  }
}

bool one_of(const std::string& v, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed)
    if (v == a) return true;
  return false;
}

}  // namespace

double TourneyRecord::points_of(const std::string& label) const {
  const bool is_first = label == first, is_second = label == second;
  if (!is_first && !is_second) return -1;
  if (winner == "draw") return 0.5;
  return (winner == "first") == is_first ? 1.0 : 0.0;
}

nlohmann::json to_json(const BenchRecord& r) {
  nlohmann::json j = {{"game", "hanpang"},
          {"agent", r.agent},
          {"agent_index", r.agent_index},
          {"seed", r.seed},
          {"score", r.score},
          {"actions", r.actions},
          {"verdict", r.verdict},
          {"time_ms", std::lround(r.time_ms)},
          {"detail", r.detail}};
  if (!r.accounting.empty()) j["accounting"] = r.accounting;
  return j;
}

nlohmann::json to_json(const TourneyRecord& r) {
  nlohmann::json j = {{"game", "icebreaking"},
          {"seed", r.seed},
          {"pair", r.pair},
          {"first", r.first},
          {"second", r.second},
          {"first_index", r.first_index},
          {"second_index", r.second_index},
          {"totals", {r.totals[0], r.totals[1]}},
          {"winner", r.winner},
          {"verdict", r.verdict},
          {"time_ms", {std::lround(r.time_ms[0]), std::lround(r.time_ms[1])}},
          {"detail", r.detail}};
  if (!r.accounting.empty()) j["accounting"] = r.accounting;
  return j;
}

BenchRecord bench_record(const nlohmann::json& j, const std::string& where) {
  if (get<std::string>(j, "game", where) != "hanpang")
    throw RunError(where + ": a " + j["game"].dump() +
                   " result where Hanpang results were expected");
  BenchRecord r;
  r.agent = get<std::string>(j, "agent", where);
  r.agent_index = get<int>(j, "agent_index", where);
  r.seed = get<std::uint64_t>(j, "seed", where);
  r.score = get<std::int64_t>(j, "score", where);
  r.actions = get<int>(j, "actions", where);
  r.verdict = get<std::string>(j, "verdict", where);
  r.time_ms = get<double>(j, "time_ms", where);
  if (j.contains("detail") && j["detail"].is_string()) r.detail = j["detail"];
  if (!one_of(r.verdict, {"MAX_ACTIONS", "OVERFLOW", "TIME_LIMIT", "INVALID", "RUNTIME_ERROR"}))
    throw RunError(where + ": unknown Hanpang verdict \"" + r.verdict + "\"");
  return r;
}

TourneyRecord tourney_record(const nlohmann::json& j, const std::string& where) {
  if (get<std::string>(j, "game", where) != "icebreaking")
    throw RunError(where + ": a " + j["game"].dump() +
                   " result where Icebreaking results were expected");
  TourneyRecord r;
  r.seed = get<std::uint64_t>(j, "seed", where);
  r.pair = get<long>(j, "pair", where);
  r.first = get<std::string>(j, "first", where);
  r.second = get<std::string>(j, "second", where);
  r.first_index = j.contains("first_index") ? get<int>(j, "first_index", where) : -1;
  r.second_index = j.contains("second_index") ? get<int>(j, "second_index", where) : -1;
  const auto totals = get<std::vector<int>>(j, "totals", where);
  const auto times = get<std::vector<double>>(j, "time_ms", where);
  if (totals.size() != 2) throw RunError(where + ": \"totals\" must hold two numbers");
  if (times.size() != 2) throw RunError(where + ": \"time_ms\" must hold two numbers");
  r.totals = {totals[0], totals[1]};
  r.time_ms = {times[0], times[1]};
  r.winner = get<std::string>(j, "winner", where);
  r.verdict = get<std::string>(j, "verdict", where);
  if (j.contains("detail") && j["detail"].is_string()) r.detail = j["detail"];
  if (!one_of(r.winner, {"first", "second", "draw"}))
    throw RunError(where + ": \"winner\" must be first, second or draw, not \"" + r.winner + "\"");
  if (!one_of(r.verdict, {"FINISHED", "TIME_LIMIT", "CPU_LIMIT", "INVALID", "RUNTIME_ERROR"}))
    throw RunError(where + ": unknown Icebreaking verdict \"" + r.verdict + "\"");
  if (r.first == r.second)
    throw RunError(where + ": an agent cannot play itself (\"" + r.first + "\")");
  return r;
}

bool PairTracker::add(const TourneyRecord& r) {
  const double pts = r.points_of(a_);
  if (pts < 0 || r.points_of(b_) < 0) return false;
  auto& games = open_[{r.seed, r.pair}];
  games.push_back(pts);
  if (games.size() != 2) return false;
  pent_.add(games[0], games[1]);
  return true;
}

}  // namespace tactica::harness
