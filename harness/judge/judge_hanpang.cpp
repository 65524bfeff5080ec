// judge_hanpang.cpp — one Hanpang run against one agent (see judge.hpp).
#include <cctype>
#include <algorithm>
#include <cmath>

#include "judge/exchange.hpp"
#include "judge/judge.hpp"
#include "judge/reply.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/protocol.hpp"

namespace tactica::harness {
namespace {

namespace io = protocol::hanpang_io;
namespace words = protocol::words;

nlohmann::json board_lines(const hanpang::State& st) {
  nlohmann::json lines = nlohmann::json::array();
  const std::string text = st.to_text();
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

nlohmann::json group_cells(u128 group) {
  std::vector<std::pair<int, int>> cells;
  for (int c : bits{group}) cells.emplace_back(hanpang::protocol_row(c), hanpang::protocol_col(c));
  std::sort(cells.begin(), cells.end());
  nlohmann::json out = nlohmann::json::array();
  for (auto [r, c] : cells) out.push_back({r, c});
  return out;
}

double round2(double v) { return std::round(v * 100.0) / 100.0; }

// Checks a PANG answer against the board. Empty if it is a legal action.
std::string check_pang(const std::string& line, const hanpang::State& st, int& r, int& c) {
  if (auto e = reply::parse_word_int_int(line, words::kPang, r, c); !e.empty()) return e;
  if (r < 1 || r > hanpang::kRows)
    return "'" + line + "': row " + std::to_string(r) + " out of range 1.." +
           std::to_string(hanpang::kRows);
  if (c < 1 || c > hanpang::kCols)
    return "'" + line + "': column " + std::to_string(c) + " out of range 1.." +
           std::to_string(hanpang::kCols);
  if (st.colour_at(hanpang::from_protocol(r, c)) == 0)
    return "'" + line + "': cell (" + std::to_string(r) + ", " + std::to_string(c) + ") is empty";
  return {};
}

}  // namespace

std::string stderr_log_name(const std::string& game, std::uint64_t seed,
                            const std::string& label, const std::string& role) {
  std::string safe;
  for (char ch : label)
    safe += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.')
                ? ch
                : '_';
  if (safe.size() > 60) safe.resize(60);
  return game + "-seed" + std::to_string(seed) + "-" + (role.empty() ? "" : role + "-") + safe +
         ".stderr";
}

HanpangResult judge_hanpang(const AgentSpec& agent, std::uint64_t seed, const Limits& limits,
                            const GameControl& control) {
  HanpangResult res;
  GameLog log(control.replay);
  hanpang::RowSource rows(seed);
  hanpang::State st;
  hanpang::Row row = rows.next();
  st.push_row(row);  // the game starts with one row at the bottom
  nlohmann::json moves = nlohmann::json::array();
  nlohmann::json initial = control.replay ? board_lines(st) : nlohmann::json::array();

  Seat seat;
  seat.label = agent.label;
  seat.bank_ms = limits.bank_ms;
  seat.proc = Process::spawn(agent.argv, limits.process);
  if (!control.stderr_dir.empty())
    seat.proc->log_stderr_to(control.stderr_dir + "/" +
                             stderr_log_name("hanpang", seed, agent.label));
  res.accounting = seat.proc->mode();
  const TickCheck check = [&](bool answered) { return process_check(seat, limits, answered); };

  double failed_elapsed = 0;
  Answer a = exchange(seat, io::start(), log, limits, control, check);
  if (!a.fault)
    if (auto e = reply::expect_word(a.line, words::kReady); !e.empty()) a.fault = {0, "INVALID", e};
  if (a.fault) {
    res.verdict = a.fault.verdict;
    res.detail = "READY: " + a.fault.detail;
    failed_elapsed = a.elapsed_ms;
  } else {
    seat.bank_ms -= a.elapsed_ms;
    for (bool first_turn = true;; first_turn = false) {
      if (!first_turn) {
        row = rows.next();
        st.push_row(row);
      }
      nlohmann::json before = control.replay ? board_lines(st) : nlohmann::json();
      const int n = st.actions + 1;
      const long remaining = static_cast<long>(std::floor(seat.bank_ms));
      a = exchange(seat, io::turn(remaining, row), log, limits, control, check);
      int r = 0, c = 0;
      if (!a.fault)
        if (auto e = check_pang(a.line, st, r, c); !e.empty()) a.fault = {0, "INVALID", e};
      if (a.fault) {
        res.verdict = a.fault.verdict;
        res.detail = "action " + std::to_string(n) + ": " + a.fault.detail;
        failed_elapsed = a.elapsed_ms;
        break;
      }
      seat.bank_ms -= a.elapsed_ms;
      const int cell = hanpang::from_protocol(r, c);
      const u128 group = st.group_at(cell);
      const int points = st.remove(group);
      if (control.replay) {
        moves.push_back({{"n", n},
                         {"row", row.str()},
                         {"before", std::move(before)},
                         {"cell", {r, c}},
                         {"group", group_cells(group)},
                         {"points", points},
                         {"score", st.score},
                         {"remaining_ms", static_cast<long>(std::floor(seat.bank_ms))},
                         {"elapsed_ms", round2(a.elapsed_ms)},
                         {"after", board_lines(st)}});
      }
      if (st.over()) {
        if (st.end == hanpang::End::max_actions) {
          res.verdict = "MAX_ACTIONS";
          res.detail = std::to_string(hanpang::kMaxActions) + " actions";
        } else {
          res.verdict = "OVERFLOW";
          res.detail = "after action " + std::to_string(n) +
                       " a column is full: the next row pushes a tile out";
        }
        break;
      }
    }
  }
  res.score = st.score;
  res.actions = st.actions;
  res.time_ms = std::min(limits.bank_ms, limits.bank_ms - seat.bank_ms + failed_elapsed);
  res.cpu_ms = seat.proc->terminate();
  control.drop_if_stopping(res.verdict != "OVERFLOW" && res.verdict != "MAX_ACTIONS");
  if (control.replay) {
    res.replay = {{"format", "tactica-replay/1"},
                  {"game", "hanpang"},
                  {"seed", seed},
                  {"agents", {{{"label", agent.label}, {"command", agent.command()}}}},
                  {"result",
                   {{"score", res.score},
                    {"actions", res.actions},
                    {"verdict", res.verdict},
                    {"detail", res.detail},
                    {"time_ms", std::lround(res.time_ms)},
                    {"cpu_ms", std::lround(res.cpu_ms)},
                    {"accounting", res.accounting}}},
                  {"limits", {{"bank_ms", round2(limits.bank_ms)}}},
                  {"initial", std::move(initial)},
                  {"moves", std::move(moves)},
                  {"log", log.take()}};
  }
  return res;
}

std::string summary_line(const HanpangResult& r, const std::string& label, std::uint64_t seed) {
  std::string s = "hanpang seed " + std::to_string(seed) + ", " + label + ": score " +
                  std::to_string(r.score) + " in " + std::to_string(r.actions) + " actions, " +
                  r.verdict + " (bank used " + std::to_string(std::lround(r.time_ms)) +
                  " ms, accounting " + r.accounting + ")";
  if (r.verdict != "MAX_ACTIONS" && r.verdict != "OVERFLOW") s += ": " + r.detail;
  return s;
}

}  // namespace tactica::harness
