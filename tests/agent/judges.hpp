// judges.hpp — minimal judges for the agent tests: play one whole game with a Child over the
// protocol as the platform does (a 5,000 ms bank measured from our write to its reply), check
// every reply, and record what happened.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "child.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/protocol.hpp"
#include "tactica/session.hpp"

namespace agent_test {

// Reads "WORD a b" with two integers; nullopt unless it is exactly that.
inline std::optional<std::pair<int, int>> parse_reply(const std::string& line,
                                                      const std::string& word) {
  std::istringstream in(line);
  std::string w, extra;
  int a = 0, b = 0;
  if (!(in >> w >> a >> b) || w != word || (in >> extra)) return std::nullopt;
  if (line != word + " " + std::to_string(a) + " " + std::to_string(b)) return std::nullopt;
  return std::make_pair(a, b);
}

struct GameLog {
  std::vector<std::string> replies;
  std::vector<double> elapsed_ms;  // per reply (READY / OK included first)
  double bank_left_ms = 0;         // what the judge's bank ended at
  std::string failure;             // empty: every reply legal and in time
  int moves = 0;
  std::int64_t score = 0;  // Hanpang score; Icebreaking: our total
  std::int64_t opp_score = 0;
  double max_elapsed() const {
    double m = 0;
    for (std::size_t i = 1; i < elapsed_ms.size(); ++i) m = std::max(m, elapsed_ms[i]);
    return m;
  }
};

// Sends `line` and waits for the reply as the platform does: the time from our write to the reply
// is recorded and taken from `bank`; a missing or late reply is the log's failure.
inline std::optional<std::string> timed_exchange(Child& c, GameLog& log, double& bank,
                                                 const std::string& line) {
  const auto t = Clock::now();
  c.send_line(line);
  auto reply = c.read_line(std::max(bank, 1.0) + 500);
  const double e = ms_since(t);
  log.elapsed_ms.push_back(e);
  if (!reply) {
    log.failure = "no reply to '" + line + "'";
    return std::nullopt;
  }
  if (e >= bank)
    log.failure = "time limit: reply to '" + line + "' after " + std::to_string(e) + " ms";
  bank -= e;
  log.replies.push_back(*reply);
  return reply;
}

// Hanpang: START, then TURN remaining_ms new_row until the game ends; each TURN's state (after
// the row) is passed to `check` with the cell the agent chose (for exact-move checks).
inline GameLog play_hanpang(
    Child& c, std::uint64_t seed, int bank_ms = 5000,
    const std::function<void(const tactica::hanpang::State&, int)>& check = {}) {
  using namespace tactica::hanpang;
  GameLog log;
  double bank = bank_ms;
  const auto exchange = [&](const std::string& line) { return timed_exchange(c, log, bank, line); };
  auto ready = exchange(tactica::protocol::hanpang_io::start());
  if (!ready) return log;
  if (*ready != "READY") log.failure = "expected READY, got '" + *ready + "'";
  RowSource rows(seed);
  State s;
  while (log.failure.empty() && !s.over()) {
    const Row row = rows.next();
    s.push_row(row);
    auto reply = exchange(tactica::protocol::hanpang_io::turn(std::int64_t(bank), row));
    if (!reply) break;
    const auto rc = parse_reply(*reply, "PANG");
    if (!rc || rc->first < 1 || rc->first > kRows || rc->second < 1 || rc->second > kCols) {
      log.failure = "bad reply '" + *reply + "'";
      break;
    }
    const int cell = from_protocol(rc->first, rc->second);
    if (!s.colour_at(cell)) {
      log.failure = "empty cell chosen: '" + *reply + "'";
      break;
    }
    if (check) check(s, cell);
    s.play(cell);
    ++log.moves;
  }
  log.score = s.score;
  log.bank_left_ms = bank;
  return log;
}

// Icebreaking: the board of `seed`, the agent on `side` (A first), an opponent that takes the
// lowest legal cell; OPP before each of our TURNs, FINISH at the end. `check` sees each position
// the agent moved in and its cell.
inline GameLog play_icebreaking(
    Child& c, std::uint64_t seed, tactica::icebreaking::Player side, int bank_ms = 5000,
    const std::function<void(const tactica::icebreaking::Position&, int)>& check = {}) {
  using namespace tactica::icebreaking;
  GameLog log;
  double bank = bank_ms, opp_bank = bank_ms;
  const Board board = Board::from_seed(seed);
  for (int r = 0; r < kSize; ++r) c.send_line(board.line(r));
  const auto exchange = [&](const std::string& line) { return timed_exchange(c, log, bank, line); };
  namespace io = tactica::protocol::icebreaking_io;
  auto ok = exchange(io::ready(side == A ? io::Side::first : io::Side::second));
  if (!ok) return log;
  if (*ok != "OK") log.failure = "expected OK, got '" + *ok + "'";
  Position pos = Position::start(board);
  while (log.failure.empty() && !pos.over()) {
    if (pos.to_move == side) {
      auto reply = exchange(io::turn(std::int64_t(bank), std::int64_t(opp_bank)));
      if (!reply) break;
      const auto rc = parse_reply(*reply, "MOVE");
      if (!rc || rc->first < 0 || rc->first >= kSize || rc->second < 0 || rc->second >= kSize) {
        log.failure = "bad reply '" + *reply + "'";
        break;
      }
      const int cell = tactica::icebreaking::cell(rc->first, rc->second);
      if (!pos.legal(cell)) {
        log.failure = "illegal move '" + *reply + "'";
        break;
      }
      if (check) check(pos, cell);
      pos.play(board, cell);
      ++log.moves;
    } else {
      const int cell = tactica::lowest_bit(pos.ice);
      pos.play(board, cell);
      opp_bank -= 1;
      if (!pos.over()) c.send_line(io::opp(cell, 1));
    }
  }
  c.send_line(io::finish());
  log.score = pos.total[side];
  log.opp_score = pos.total[other(side)];
  log.bank_left_ms = bank;
  return log;
}

}  // namespace agent_test

namespace agent_test {

// A config for the test plugin; `params` and `time` are extra TOML lines for those sections.
inline std::string testplug_config(const std::string& game, int mode,
                                   const std::string& params = "", const std::string& time = "") {
  return "game = \"" + game + "\"\nstrategy = \"testplug\"\nseed = 1\n\n[time]\n" + time +
         "\n[params]\nmode = " + std::to_string(mode) + "\n" + params;
}

// tactica-agent on a config, with the test plugins on the search path.
inline std::vector<std::string> agent_args(const std::string& config,
                                           std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {kAgent, "--config", config, "--plugin-dir", kTestPlugins};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

inline std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    const auto nl = s.find('\n', start);
    out.push_back(s.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

// The highest set bit of a cell set (the test plugin's "good" choice).
inline int highest(tactica::u128 s) {
  const auto hi = static_cast<std::uint64_t>(s >> 64);
  return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<std::uint64_t>(s));
}

}  // namespace agent_test
