// exchange.hpp — what both judges share: a seat (an agent process and its bank), the replay log,
// and one command/answer exchange with every platform check on the answer's arrival.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "judge/judge.hpp"

namespace tactica::harness {

struct Seat {
  std::unique_ptr<Process> proc;
  std::string label;
  double bank_ms = 0;  // left
  int index = 0;       // 0 first (or the only agent), 1 second
};

// A verdict against one seat. Empty verdict: none.
struct Fault {
  int seat = -1;
  std::string verdict;
  std::string detail;
  explicit operator bool() const { return !verdict.empty(); }
};

// The replay's "log": every line each way with its time since the game began.
class GameLog {
 public:
  explicit GameLog(bool enabled) : enabled_(enabled), start_(Clock::now()) {}
  void send(int agent, std::string_view line, Clock::time_point at);
  void recv(int agent, std::string_view line, Clock::time_point at);
  nlohmann::json take() { return std::move(log_); }
  bool enabled() const { return enabled_; }

 private:
  void add(int agent, const char* dir, std::string_view line, Clock::time_point at);
  bool enabled_;
  Clock::time_point start_;
  nlohmann::json log_ = nlohmann::json::array();
};

struct Answer {
  std::string line;       // valid bytes, not yet parsed (empty if fault)
  double elapsed_ms = 0;  // from writing the command to reading the full line
  Fault fault;            // set: no usable answer (the fault may name the other seat)
};

// Checks run on every tick while a seat is waited for (answered = false) and once more when its
// answer has arrived (answered = true); a fault ends the exchange.
using TickCheck = std::function<Fault(bool answered)>;

// Sends `command` to `seat` and waits for one answer line within its bank (+ grace):
// unsolicited output before the command, a write to a closed pipe, no answer in time, end of
// output, an overlong line, bad bytes and an answer that arrived before the command was read are
// all turned into the fault the platform would give. Throws GameAborted.
Answer exchange(Seat& seat, std::string_view command, GameLog& log, const Limits& limits,
                const GameControl& control, const TickCheck& check);

// Sends a line that needs no answer (OPP, FINISH); false if the pipe is closed.
bool notify(Seat& seat, std::string_view line, GameLog& log);

// RUNTIME_ERROR detail for a seat that stopped: exit status and the last stderr line.
std::string stopped_detail(Seat& seat, const std::string& what);

// Too many processes or too much resident memory in a seat's tree, from a sample.
Fault tree_check(Seat& seat, const Limits& limits, const Process::Sample& s);

// Process checks common to both games: the tree (above) and, while waiting for an answer, the
// leader gone.
Fault process_check(Seat& seat, const Limits& limits, bool answered);

}  // namespace tactica::harness
