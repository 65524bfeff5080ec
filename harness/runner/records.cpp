// records.cpp — see records.hpp.
#include "runner/records.hpp"

#include <cmath>
#include <map>
#include <set>

#include "runner/runner.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica::harness {
namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw RunError(where + ": missing field \"" + key + "\"");
  return j[key];
}

std::string shown(const nlohmann::json& v) {
  std::string d = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (d.size() > 60) d = d.substr(0, 57) + "...";
  return printable(d);
}

[[noreturn]] void bad(const std::string& where, const char* key, const nlohmann::json& v,
                      const std::string& why) {
  throw RunError(where + ": field \"" + key + "\" is " + shown(v) + ": " + why +
                 " (tactica never writes this: fix or remove the line)");
}

// A whole number (not 1.5, not 1e3 written as a float) in [lo, hi].
std::int64_t integer(const nlohmann::json& j, const char* key, const std::string& where,
                     std::int64_t lo, std::int64_t hi) {
  const auto& v = field(j, key, where);
  if (!v.is_number_integer()) bad(where, key, v, "expected a whole number");
  if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)
                             : (v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi))
    bad(where, key, v, "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return v.get<std::int64_t>();
}

std::uint64_t seed_of(const nlohmann::json& j, const std::string& where) {
  const auto& v = field(j, "seed", where);
  if (!v.is_number_unsigned()) bad(where, "seed", v, "expected a whole number 0..2^64-1");
  return v.get<std::uint64_t>();
}

// A number of ms (a bank used) in [0, 1e9] (the largest --bank-ms).
double millis(const nlohmann::json& v, const char* key, const std::string& where) {
  if (!v.is_number()) bad(where, key, v, "expected a number of ms");
  const double d = v.get<double>();
  if (!(d >= 0 && d <= 1e9)) bad(where, key, v, "out of range 0..1e9 ms");
  return d;
}

std::string text(const nlohmann::json& j, const char* key, const std::string& where,
                 bool nonempty = true) {
  const auto& v = field(j, key, where);
  if (!v.is_string()) bad(where, key, v, "expected a string");
  std::string s = v.get<std::string>();
  if (nonempty && s.empty()) bad(where, key, v, "must not be empty");
  return printable(s);
}

std::string optional_text(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? printable(j[key].get<std::string>()) : "";
}

bool one_of(const std::string& v, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed)
    if (v == a) return true;
  return false;
}

// At most this many agents in one run (indices 0..kMaxAgents-1).
constexpr std::int64_t kMaxAgents = 100000;

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

std::int64_t hanpang_score_bound(int actions) {
  // Every action removes at most the whole board (kRows * kCols tiles) for k^2 points, and at
  // most kCols * (actions + 1) tiles ever arrive: sum k^2 <= max k * sum k.
  return std::int64_t{hanpang::kRows} * hanpang::kCols * hanpang::kCols * (actions + 1);
}

std::pair<int, int> icebreaking_total_bounds(std::uint64_t seed) {
  const auto board = icebreaking::Board::from_seed(seed);
  int lo = 0, hi = 0;
  for (int c = 0; c < icebreaking::kSize * icebreaking::kSize; ++c) {
    if (board.holes & bit128(c)) continue;
    const int v = board.score[c];
    (v < 0 ? lo : hi) += v;
  }
  return {lo, hi};
}

BenchRecord bench_record(const nlohmann::json& j, const std::string& where) {
  const std::string game = text(j, "game", where);
  if (game != "hanpang")
    throw RunError(where + ": a " + shown(j["game"]) +
                   " result where Hanpang results were expected: merge one game's files at a "
                   "time");
  BenchRecord r;
  r.agent = text(j, "agent", where);
  r.agent_index = static_cast<int>(integer(j, "agent_index", where, 0, kMaxAgents - 1));
  r.seed = seed_of(j, where);
  r.actions = static_cast<int>(integer(j, "actions", where, 0, hanpang::kMaxActions));
  r.score = integer(j, "score", where, 0, hanpang_score_bound(r.actions));
  r.verdict = text(j, "verdict", where);
  r.time_ms = millis(field(j, "time_ms", where), "time_ms", where);
  r.detail = optional_text(j, "detail");
  r.accounting = optional_text(j, "accounting");
  if (!one_of(r.verdict, {"MAX_ACTIONS", "OVERFLOW", "TIME_LIMIT", "INVALID", "RUNTIME_ERROR"}))
    bad(where, "verdict", j["verdict"], "not a Hanpang verdict");
  if ((r.verdict == "MAX_ACTIONS") != (r.actions == hanpang::kMaxActions))
    bad(where, "actions", j["actions"],
        "MAX_ACTIONS goes with " + std::to_string(hanpang::kMaxActions) +
            " actions and only with it (verdict " + r.verdict + ")");
  return r;
}

TourneyRecord tourney_record(const nlohmann::json& j, const std::string& where) {
  const std::string game = text(j, "game", where);
  if (game != "icebreaking")
    throw RunError(where + ": a " + shown(j["game"]) +
                   " result where Icebreaking results were expected: merge one game's files at "
                   "a time");
  TourneyRecord r;
  r.seed = seed_of(j, where);
  r.pair = static_cast<long>(integer(j, "pair", where, 1, std::int64_t{1} << 53));
  r.first = text(j, "first", where);
  r.second = text(j, "second", where);
  r.first_index = j.contains("first_index")
                      ? static_cast<int>(integer(j, "first_index", where, 0, kMaxAgents - 1))
                      : -1;
  r.second_index = j.contains("second_index")
                       ? static_cast<int>(integer(j, "second_index", where, 0, kMaxAgents - 1))
                       : -1;
  if (r.first_index >= 0 && r.first_index == r.second_index)
    bad(where, "second_index", j["second_index"], "the same index as first_index");
  const auto& totals = field(j, "totals", where);
  if (!totals.is_array() || totals.size() != 2 || !totals[0].is_number_integer() ||
      !totals[1].is_number_integer())
    bad(where, "totals", totals, "expected two whole numbers");
  const auto [lo, hi] = icebreaking_total_bounds(r.seed);
  for (int i = 0; i < 2; ++i) {
    const auto t = totals[i].get<std::int64_t>();
    if (t < lo || t > hi)
      bad(where, "totals", totals,
          "a total out of the range " + std::to_string(lo) + ".." + std::to_string(hi) +
              " of seed " + std::to_string(r.seed) + "'s board");
    r.totals[i] = static_cast<int>(t);
  }
  if (r.totals[0] + r.totals[1] < lo || r.totals[0] + r.totals[1] > hi)
    bad(where, "totals", totals,
        "the two totals add up to more than seed " + std::to_string(r.seed) + "'s board holds");
  const auto& times = field(j, "time_ms", where);
  if (!times.is_array() || times.size() != 2) bad(where, "time_ms", times, "expected two numbers");
  r.time_ms = {millis(times[0], "time_ms", where), millis(times[1], "time_ms", where)};
  r.winner = text(j, "winner", where);
  r.verdict = text(j, "verdict", where);
  r.detail = optional_text(j, "detail");
  r.accounting = optional_text(j, "accounting");
  if (!one_of(r.winner, {"first", "second", "draw"}))
    bad(where, "winner", j["winner"], "must be first, second or draw");
  if (!one_of(r.verdict, {"FINISHED", "TIME_LIMIT", "CPU_LIMIT", "INVALID", "RUNTIME_ERROR"}))
    bad(where, "verdict", j["verdict"], "not an Icebreaking verdict");
  if (r.verdict == "FINISHED") {
    const char* by_totals = r.totals[0] > r.totals[1]   ? "first"
                            : r.totals[0] < r.totals[1] ? "second"
                                                        : "draw";
    if (r.winner != by_totals)
      bad(where, "winner", j["winner"],
          std::string("a FINISHED game with these totals is won by ") + by_totals);
  } else if (r.winner == "draw") {
    bad(where, "winner", j["winner"], "a game lost by " + r.verdict + " has a winner");
  }
  if (r.first == r.second)
    throw RunError(where + ": an agent cannot play itself (\"" + r.first + "\")");
  return r;
}

namespace {

std::string index_text(int i) { return std::to_string(i); }

// Indices below the number of agents, one label per index and one index per label.
template <class Rec, class Each>
void check_index_labels(const std::vector<Rec>& records, const std::vector<std::string>& where,
                        std::size_t agents, const Each& each) {
  std::map<int, std::pair<std::string, std::size_t>> label_of;
  std::map<std::string, std::pair<int, std::size_t>> index_of;
  for (std::size_t i = 0; i < records.size(); ++i)
    each(records[i], [&](int index, const std::string& label) {
      if (index < 0) return;
      if (static_cast<std::size_t>(index) >= agents)
        throw RunError(where[i] + ": agent index " + index_text(index) + " of '" + label +
                       "' does not exist: the games name " + std::to_string(agents) +
                       " agents (indices 0.." + std::to_string(agents - 1) + ")");
      const auto [l, fresh] = label_of.try_emplace(index, label, i);
      if (!fresh && l->second.first != label)
        throw RunError(where[i] + ": agent index " + index_text(index) + " is '" + label +
                       "' here but '" + l->second.first + "' at " + where[l->second.second] +
                       ": these are not results of one run (merge runs with the same agents)");
      const auto [x, fresh2] = index_of.try_emplace(label, index, i);
      if (!fresh2 && x->second.first != index)
        throw RunError(where[i] + ": agent '" + label + "' has index " + index_text(index) +
                       " here but " + index_text(x->second.first) + " at " +
                       where[x->second.second] +
                       ": these are not results of one run (merge runs with the same agents)");
    });
}

}  // namespace

ResultsScan BenchSet::add_file(const std::string& path, bool keep_lines) {
  return scan_results(path, [&](nlohmann::json&& j, std::size_t line) {
    const std::string where = printable(path) + ":" + std::to_string(line);
    BenchRecord r = bench_record(j, where);
    const auto [it, fresh] = keys_.try_emplace({r.agent, r.seed}, records.size());
    if (!fresh) {
      if (to_json(records[it->second]) != to_json(r))
        throw RunError(where + ": agent '" + r.agent + "' on seed " + std::to_string(r.seed) +
                       " is already at " + where_[it->second] +
                       " with another result: one game per agent and seed (remove one line)");
      ++duplicates;
      return;
    }
    records.push_back(std::move(r));
    where_.push_back(where);
    if (keep_lines) lines.push_back(std::move(j));
  });
}

void BenchSet::check_indices() const {
  std::set<std::string> labels;
  for (const auto& r : records) labels.insert(r.agent);
  check_index_labels(records, where_, labels.size(),
                     [](const BenchRecord& r, const auto& f) { f(r.agent_index, r.agent); });
}

void BenchSet::check_agents(const std::vector<std::string>& names) const {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    if (static_cast<std::size_t>(r.agent_index) >= names.size() ||
        printable(names[static_cast<std::size_t>(r.agent_index)]) != r.agent)
      throw RunError(where_[i] + ": a game of agent '" + r.agent + "' (index " +
                     index_text(r.agent_index) +
                     ") that is not in this run: resume with the same --agent and --label list, "
                     "in the same order");
  }
}

ResultsScan TourneySet::add_file(const std::string& path, bool keep_lines) {
  return scan_results(path, [&](nlohmann::json&& j, std::size_t line) {
    const std::string where = printable(path) + ":" + std::to_string(line);
    TourneyRecord r = tourney_record(j, where);
    const auto [it, fresh] = keys_.try_emplace({r.seed, r.first, r.second}, records.size());
    if (!fresh) {
      if (to_json(records[it->second]) != to_json(r))
        throw RunError(where + ": the game of seed " + std::to_string(r.seed) + ", '" + r.first +
                       "' first against '" + r.second + "', is already at " + where_[it->second] +
                       " with another result: one game per seed and sides "
                       "(remove one line)");
      ++duplicates;
      return;
    }
    const auto& lo = std::min(r.first, r.second);
    const auto& hi = std::max(r.first, r.second);
    const auto [p, fresh_pair] = pairs_.try_emplace({r.seed, lo, hi}, r.pair, records.size());
    if (!fresh_pair && p->second.first != r.pair)
      throw RunError(where + ": game pair " + std::to_string(r.pair) + " for seed " +
                     std::to_string(r.seed) + " but the other side's game at " +
                     where_[p->second.second] + " is in pair " + std::to_string(p->second.first) +
                     ": both games of a seed and two agents form one pair");
    records.push_back(std::move(r));
    where_.push_back(where);
    if (keep_lines) lines.push_back(std::move(j));
  });
}

void TourneySet::check_indices() const {
  std::set<std::string> labels;
  for (const auto& r : records) labels.insert(r.first), labels.insert(r.second);
  check_index_labels(records, where_, labels.size(), [](const TourneyRecord& r, const auto& f) {
    f(r.first_index, r.first);
    f(r.second_index, r.second);
  });
}

void TourneySet::check_agents(const std::vector<std::string>& names) const {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    for (const auto& [index, label] :
         {std::pair{r.first_index, r.first}, {r.second_index, r.second}}) {
      bool ok = false;
      if (index < 0) {  // older files: no index, the label must be in the run
        for (const auto& n : names) ok = ok || printable(n) == label;
      } else {
        ok = static_cast<std::size_t>(index) < names.size() &&
             printable(names[static_cast<std::size_t>(index)]) == label;
      }
      if (!ok)
        throw RunError(where_[i] + ": a game of agent '" + label + "' (index " + index_text(index) +
                       ") that is not in this run: resume with the same --agent and --label "
                       "list, in the same order");
    }
  }
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
