// judge.hpp — one game of each kind, played as the platform plays it (shared/spec/*.md).
//
// Hanpang: START/READY, then TURN/PANG until OVERFLOW, MAX_ACTIONS (200), TIME_LIMIT (a reply's
// elapsed >= the bank left: not applied, score kept), INVALID (not applied, score kept) or
// RUNTIME_ERROR (exit, closed pipe, too many processes).
// Icebreaking: board + READY FIRST/SECOND / OK, then TURN/MOVE and OPP until no ice is left
// (FINISHED: higher total wins, equal totals draw) or one side loses by TIME_LIMIT (wall bank),
// CPU_LIMIT (CPU of its process tree over its life), INVALID or RUNTIME_ERROR.
//
// Wall time of a reply runs from just before the command is written to the read that completes
// the reply line. Every read waits at most the bank left plus `grace_ms`.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>

#include "judge/agent.hpp"
#include "process/process.hpp"

namespace tactica::harness {

struct Limits {
  double bank_ms = 5000;  // wall bank per player (READY/OK and every reply)
  double cpu_ms = 5000;   // Icebreaking: CPU of the player's process tree over its life
  double grace_ms = 100;  // a read gives up this long after the bank is spent
  ProcessLimits process;
  std::chrono::milliseconds tick{20};  // CPU, process count and interrupts checked this often
};

// The game was abandoned (interrupt): no result.
class GameAborted : public std::runtime_error {
 public:
  GameAborted() : std::runtime_error("game aborted") {}
};

struct GameControl {
  const std::atomic<bool>* abort = nullptr;  // when set, the game stops and GameAborted is thrown
  bool replay = false;                       // build the JSON replay (docs/FORMATS.md)
  std::string stderr_dir = {};  // non-empty: each agent's whole stderr goes to a file in it (--log-dir)

  bool aborting() const { return abort && abort->load(); }
  // A game that ends in a fault while the run is being stopped is not recorded either: the
  // same stop may have caused it (a signal to the whole process tree, as `pkill -f` or a
  // service manager sends, reaches the agents' keepers, and a keeper's death kills its agent).
  // The fault can be seen before the harness's own handler has raised the flag (the two
  // signals race; session 9 saw a tune keep such a game as RUNTIME_ERROR), so a faulted game
  // waits up to kStopGrace for it before it counts.
  static constexpr std::chrono::milliseconds kStopGrace{200};
  void drop_if_stopping(bool faulted) const {
    if (!faulted || !abort) return;
    const auto until = std::chrono::steady_clock::now() + kStopGrace;
    while (!abort->load() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (abort->load()) throw GameAborted();
  }
};

// The file in GameControl::stderr_dir that keeps one agent's stderr of one game.
std::string stderr_log_name(const std::string& game, std::uint64_t seed,
                            const std::string& label, const std::string& role = {});

struct HanpangResult {
  std::int64_t score = 0;
  int actions = 0;
  std::string verdict;     // MAX_ACTIONS OVERFLOW TIME_LIMIT INVALID RUNTIME_ERROR
  std::string detail;      // one line: what happened, at which move
  double time_ms = 0;      // bank used (wall)
  double cpu_ms = 0;       // CPU of the agent's tree (informational: Hanpang has no CPU cap)
  std::string accounting;  // cgroup-v1 cgroup-v2 proc (process.hpp)
  nlohmann::json replay;
};

// Plays one Hanpang run. Throws SpawnError if the agent cannot be started, GameAborted.
HanpangResult judge_hanpang(const AgentSpec& agent, std::uint64_t seed, const Limits& limits,
                            const GameControl& control = {});

struct IcebreakingResult {
  std::string winner;  // first, second, draw
  std::array<int, 2> totals{};
  std::string verdict;  // FINISHED, or the loser's TIME_LIMIT CPU_LIMIT INVALID RUNTIME_ERROR
  int loser = -1;       // 0 first, 1 second, -1 none (FINISHED)
  std::string detail;
  int moves = 0;
  std::array<double, 2> time_ms{};  // bank used (wall)
  std::array<double, 2> cpu_ms{};   // CPU of each tree over its life
  std::string accounting;           // cgroup-v1 cgroup-v2 proc; "first/second" if they differ
  nlohmann::json replay;
};

// Plays one Icebreaking game. Throws SpawnError, GameAborted.
IcebreakingResult judge_icebreaking(const AgentSpec& first, const AgentSpec& second,
                                    std::uint64_t seed, const Limits& limits,
                                    const GameControl& control = {});

// The one-line summaries `tactica judge` prints.
std::string summary_line(const HanpangResult& r, const std::string& label, std::uint64_t seed);
std::string summary_line(const IcebreakingResult& r, const std::string& first,
                         const std::string& second, std::uint64_t seed);

}  // namespace tactica::harness
