// bound.cpp — see bound.hpp.
#include "bound/bound.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "games/hanpang/eval.hpp"
#include "tactica/hanpang.hpp"

namespace tactica::bound {

namespace {

std::uint64_t board_hash(const hanpang::State& s) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (const auto& p : s.planes) {
    for (std::uint64_t w : {static_cast<std::uint64_t>(p), static_cast<std::uint64_t>(p >> 64)}) {
      h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdULL;
    }
  }
  return h;
}

struct Node {
  hanpang::State st;
  double value;
  int trail;   // this node's entry in the trail (its last move), once kept
  int parent;  // the parent's entry
  int cell;    // the last move
};
struct Step {
  int parent;  // -1: the start
  int cell;
};

}  // namespace

Reference clairvoyant(std::uint64_t seed, int width) {
  const auto t0 = std::chrono::steady_clock::now();
  // The seed's rows, exactly as the judge draws them: the first is the initial bottom row.
  hanpang::RowSource source(seed);
  std::vector<hanpang::Row> rows;
  for (int i = 0; i <= hanpang::kMaxActions; ++i) rows.push_back(source.next());

  const auto weights = plugins::common::beam_weights();
  const plugins::common::HanpangEval eval(weights);
  hanpang::State start;
  start.push_row(rows[0]);
  std::vector<Node> beam{{start, 0.0, -1, -1, -1}}, next;
  std::vector<Step> trail;  // every kept node's move, linked to its parent's
  Reference best;
  int best_trail = -1;
  best.seed = seed;
  best.width = width;
  auto consider_end = [&](const hanpang::State& s, int parent, int cell) {
    const bool survived = s.end == hanpang::End::max_actions;
    if (s.score > best.score || (s.score == best.score && survived && !best.survived)) {
      best.score = s.score;
      best.actions = s.actions;
      best.survived = survived;
      trail.push_back({parent, cell});
      best_trail = static_cast<int>(trail.size()) - 1;
    }
  };
  std::unordered_set<std::uint64_t> seen;
  hanpang::GroupList groups;
  for (int t = 0; t < hanpang::kMaxActions && !beam.empty(); ++t) {
    next.clear();
    seen.clear();
    for (const auto& node : beam) {
      node.st.groups(groups);
      for (const auto& g : groups) {
        hanpang::State child = node.st;
        child.remove(g.cells);
        if (child.over()) {  // overflow or action 200: the line's score is final
          consider_end(child, node.trail, g.rep);
          continue;
        }
        child.push_row(rows[static_cast<std::size_t>(t) + 1]);
        if (!seen.insert(board_hash(child)).second) continue;
        next.push_back({child, eval(child), -1, node.trail, g.rep});
      }
    }
    if (next.size() > static_cast<std::size_t>(width)) {
      std::nth_element(next.begin(), next.begin() + width, next.end(),
                       [](const Node& a, const Node& b) { return a.value > b.value; });
      next.resize(static_cast<std::size_t>(width));
    }
    for (auto& n : next) {  // the kept nodes' moves join the trail
      trail.push_back({n.parent, n.cell});
      n.trail = static_cast<int>(trail.size()) - 1;
    }
    std::swap(beam, next);
  }
  for (int i = best_trail; i >= 0; i = trail[static_cast<std::size_t>(i)].parent)
    best.moves.push_back(trail[static_cast<std::size_t>(i)].cell);
  std::reverse(best.moves.begin(), best.moves.end());
  best.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return best;
}

nlohmann::json to_json(const Reference& r) {
  return {{"seed", r.seed},         {"reference", r.score}, {"actions", r.actions},
          {"survived", r.survived}, {"width", r.width},     {"seconds", r.seconds},
          {"moves", r.moves}};
}

std::map<std::uint64_t, Reference> read_bound_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": no such file (paths are relative to the current directory)");
  std::map<std::uint64_t, Reference> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(n);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const std::exception&) {
      throw std::runtime_error(where + ": not JSON; a bound file is what tactica bound --out writes");
    }
    if (!j.is_object() || !j.contains("seed") || !j["seed"].is_number_unsigned() ||
        !j.contains("reference") || !j["reference"].is_number_integer() ||
        j["reference"].get<std::int64_t>() <= 0)
      throw std::runtime_error(where + ": needs a non-negative integer \"seed\" and a positive "
                               "integer \"reference\"");
    Reference r;
    r.seed = j["seed"];
    r.score = j["reference"];
    if (j.contains("actions") && j["actions"].is_number_integer()) r.actions = j["actions"];
    if (j.contains("survived") && j["survived"].is_boolean()) r.survived = j["survived"];
    if (j.contains("width") && j["width"].is_number_integer()) r.width = j["width"];
    if (!out.emplace(r.seed, r).second)
      throw std::runtime_error(where + ": seed " + std::to_string(r.seed) + " is listed twice");
  }
  return out;
}

std::string efficiency_report(const std::vector<harness::BenchRecord>& records,
                              const std::vector<std::string>& agents,
                              const std::map<std::uint64_t, Reference>& refs,
                              const std::string& file) {
  std::map<std::pair<std::string, std::uint64_t>, std::int64_t> score;
  std::set<std::uint64_t> seeds;
  for (const auto& r : records) {
    score[{r.agent, r.seed}] = r.score;
    seeds.insert(r.seed);
  }
  std::string out = "\nefficiency: score / clairvoyant reference (" + file + ")\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-8s %10s", "seed", "reference");
  out += buf;
  for (const auto& a : agents) {
    std::snprintf(buf, sizeof buf, " %14.14s", a.c_str());
    out += buf;
  }
  out += "\n";
  std::vector<std::int64_t> sum(agents.size(), 0), ref_sum(agents.size(), 0);
  std::vector<int> n(agents.size(), 0);
  std::size_t missing = 0;
  for (auto seed : seeds) {
    const auto it = refs.find(seed);
    if (it == refs.end()) {
      ++missing;
      continue;
    }
    std::snprintf(buf, sizeof buf, "%-8llu %10lld", static_cast<unsigned long long>(seed),
                  static_cast<long long>(it->second.score));
    out += buf;
    for (std::size_t a = 0; a < agents.size(); ++a) {
      const auto s = score.find({agents[a], seed});
      if (s == score.end()) {
        out += "              -";
        continue;
      }
      sum[a] += s->second;
      ref_sum[a] += it->second.score;
      ++n[a];
      std::snprintf(buf, sizeof buf, " %13.1f%%", 100.0 * double(s->second) / double(it->second.score));
      out += buf;
    }
    out += "\n";
  }
  std::snprintf(buf, sizeof buf, "%-8s %10s", "overall", "");
  out += buf;
  for (std::size_t a = 0; a < agents.size(); ++a) {
    if (!n[a]) {
      out += "              -";
      continue;
    }
    std::snprintf(buf, sizeof buf, " %13.1f%%", 100.0 * double(sum[a]) / double(ref_sum[a]));
    out += buf;
  }
  out += "\n";
  if (missing)
    out += "(" + std::to_string(missing) + " seeds have no reference in " + file +
           ": tactica bound --resume " + file + " --seeds ... adds them)\n";
  return out;
}

}  // namespace tactica::bound
