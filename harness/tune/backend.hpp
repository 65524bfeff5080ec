// backend.hpp — how `tactica tune` plays its games: on local workers through the judge (the
// same judge_hanpang / judge_icebreaking as bench and tourney), or through GNU parallel
// (`--sshlogin`), where every game is one `tactica judge ... --json` run on some host.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge/agent.hpp"
#include "judge/judge.hpp"
#include "runner/runner.hpp"

namespace tactica::tune {

// One game to play. `key` is unique within a tuning run and names the game in games.jsonl, so a
// resumed run finds the games it already has.
struct GameJob {
  std::string key;
  bool icebreaking = false;
  std::vector<harness::AgentSpec> agents;  // Hanpang: the one player; Icebreaking: first, second
  std::uint64_t seed = 0;
};

// A finished game, the same from either backend.
struct GameOutcome {
  std::string key;
  std::uint64_t seed = 0;
  std::int64_t score = 0;  // Hanpang
  int actions = 0;         // Hanpang
  std::array<int, 2> totals{};  // Icebreaking: first, second
  std::string winner;           // Icebreaking: first second draw
  std::string verdict, detail;

  // Icebreaking: the first player's points (1 win, 0.5 draw, 0 loss).
  double first_points() const { return winner == "first" ? 1.0 : winner == "draw" ? 0.5 : 0.0; }
  nlohmann::json to_json() const;
  // Throws harness::RunError naming `where` on a bad line.
  static GameOutcome from_json(const nlohmann::json& j, const std::string& where);
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Plays `jobs`; `on_done` runs on the calling thread for each finished game, in finishing
  // order. Returns false when interrupted (Ctrl-C / SIGTERM): the games in flight are lost,
  // every reported one is kept. Throws on a game that could not be played.
  virtual bool play(const std::vector<GameJob>& jobs,
                    const std::function<void(const GameOutcome&)>& on_done,
                    harness::Progress* progress) = 0;
  virtual std::string describe() const = 0;
};

// `workers` games at a time in this process, as bench and tourney play them.
std::unique_ptr<Backend> local_backend(int workers, const harness::Limits& limits);

// GNU parallel: `parallel -S sshlogin -j jobs`, one `tactica judge ... --json` per game, run in
// the current directory on each host (a shared file system, as on a cluster). `tactica` is the
// judge binary to run there.
std::unique_ptr<Backend> parallel_backend(const std::string& sshlogin, int jobs,
                                          const harness::Limits& limits,
                                          const std::filesystem::path& tactica);

// The `tactica judge` command line that plays `job` (what the parallel backend runs).
std::vector<std::string> judge_command(const GameJob& job, const harness::Limits& limits,
                                       const std::filesystem::path& tactica);

}  // namespace tactica::tune
