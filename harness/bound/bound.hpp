// bound.hpp — a clairvoyant reference score per Hanpang seed (`tactica bound`): a wide beam
// search over our moves that is told the true rows of the seed, valued by the beam plugin's
// evaluation. It sees what no agent can, so its score is what a search of that width could make
// with perfect knowledge of the future: a yardstick for how many points an agent leaves on the
// table (`tactica bench --bound FILE` prints score / reference). For analysis only, never an
// agent.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runner/records.hpp"

namespace tactica::bound {

struct Reference {
  std::uint64_t seed = 0;
  std::int64_t score = 0;  // the best line's score
  int actions = 0;         // its length (200 unless every line overflowed earlier)
  bool survived = false;   // it reached action 200
  int width = 0;
  double seconds = 0;
  std::vector<int> moves;  // the best line: the cell played at each action (hanpang::cell)
};

// The clairvoyant beam on `seed`: `width` boards kept after every action (duplicates dropped),
// each child of every kept board valued by the beam plugin's evaluation of the board after the
// true next row. Deterministic.
Reference clairvoyant(std::uint64_t seed, int width);

nlohmann::json to_json(const Reference& r);
// Reads a bound file (JSON Lines of to_json); throws std::runtime_error "FILE:LINE: ...".
std::map<std::uint64_t, Reference> read_bound_file(const std::string& path);

// bench --bound: each agent's efficiency (its score / the reference) per seed and overall, on
// the seeds the file holds.
std::string efficiency_report(const std::vector<harness::BenchRecord>& records,
                              const std::vector<std::string>& agents,
                              const std::map<std::uint64_t, Reference>& refs,
                              const std::string& file);

}  // namespace tactica::bound
