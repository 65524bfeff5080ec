// judge_icebreaking.cpp — one Icebreaking game between two agents (see judge.hpp).
#include <algorithm>
#include <cmath>

#include "judge/exchange.hpp"
#include "judge/judge.hpp"
#include "judge/reply.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/protocol.hpp"

namespace tactica::harness {
namespace {

namespace ice = icebreaking;
namespace io = protocol::icebreaking_io;
namespace words = protocol::words;

const char* side_name(int i) { return i == 0 ? "first" : "second"; }

double round2(double v) { return std::round(v * 100.0) / 100.0; }

// The text form of docs/FORMATS.md: '#' hole, -2..2 empty ice, 'a'/'b' taken.
nlohmann::json board_lines(const ice::Board& b, const ice::Position& p) {
  nlohmann::json lines = nlohmann::json::array();
  for (int r = 0; r < ice::kSize; ++r) {
    std::string s;
    for (int c = 0; c < ice::kSize; ++c) {
      if (c) s += ' ';
      const u128 bit = bit128(ice::cell(r, c));
      if (b.holes & bit)
        s += '#';
      else if (p.owned[0] & bit)
        s += 'a';
      else if (p.owned[1] & bit)
        s += 'b';
      else
        s += std::to_string(b.score[ice::cell(r, c)]);
    }
    lines.push_back(s);
  }
  return lines;
}

nlohmann::json cells_json(u128 set) {
  nlohmann::json out = nlohmann::json::array();
  for (int c : bits{set}) out.push_back({ice::row_of(c), ice::col_of(c)});
  return out;
}

// Checks a MOVE answer against the position. Empty if it is a legal move.
std::string check_move(const std::string& line, const ice::Board& b, const ice::Position& p, int& r,
                       int& c) {
  if (auto e = reply::parse_word_int_int(line, words::kMove, r, c); !e.empty()) return e;
  if (r < 0 || r >= ice::kSize || c < 0 || c >= ice::kSize)
    return "'" + line + "': (" + std::to_string(r) + ", " + std::to_string(c) +
           ") is off the board (0..8)";
  const u128 bit = bit128(ice::cell(r, c));
  const std::string where = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
  if (b.holes & bit) return "'" + line + "': cell " + where + " is a hole";
  if (p.owned[0] & bit) return "'" + line + "': cell " + where + " is already taken by first";
  if (p.owned[1] & bit) return "'" + line + "': cell " + where + " is already taken by second";
  return {};
}

}  // namespace

IcebreakingResult judge_icebreaking(const AgentSpec& first, const AgentSpec& second,
                                    std::uint64_t seed, const Limits& limits,
                                    const GameControl& control) {
  IcebreakingResult res;
  const ice::Board board = ice::Board::from_seed(seed);
  ice::Position pos = ice::Position::start(board);
  GameLog log(control.replay);
  nlohmann::json moves = nlohmann::json::array();

  std::array<Seat, 2> seats;
  const AgentSpec* specs[2] = {&first, &second};
  for (int i = 0; i < 2; ++i) {
    seats[i].label = specs[i]->label;
    seats[i].index = i;
    seats[i].bank_ms = limits.bank_ms;
    seats[i].proc = Process::spawn(specs[i]->argv, limits.process);
    if (!control.stderr_dir.empty())
      seats[i].proc->log_stderr_to(
          control.stderr_dir + "/" +
          stderr_log_name("icebreaking", seed, specs[i]->label, i == 0 ? "first" : "second"));
  }
  res.accounting = seats[0].proc->mode() == seats[1].proc->mode()
                       ? seats[0].proc->mode()
                       : seats[0].proc->mode() + "/" + seats[1].proc->mode();

  // The CPU cap holds over each process tree's whole life, whoever is to move.
  const auto cpu_check = [&]() -> Fault {
    for (int i = 0; i < 2; ++i) {
      const auto s = seats[i].proc->sample();
      if (s.cpu_ms > limits.cpu_ms) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "CPU time %.0f ms over the %.0f ms cap", s.cpu_ms,
                      limits.cpu_ms);
        return {i, "CPU_LIMIT", buf};
      }
      if (Fault f = tree_check(seats[i], limits, s)) return f;
    }
    return {};
  };
  const auto tick_for = [&](int mover) -> TickCheck {
    return [&, mover](bool answered) -> Fault {
      if (Fault f = cpu_check()) return f;
      if (!answered && seats[mover].proc->exited())
        return {mover, "RUNTIME_ERROR", stopped_detail(seats[mover], "exited before answering")};
      return {};
    };
  };

  Fault fault;
  std::array<double, 2> failed_elapsed{};
  std::string where;  // "OK" or "move N" for the fault's detail

  // Step 1. Board and READY, one side after the other (each side's clock runs only while it
  // is waited for).
  for (int i = 0; i < 2 && !fault; ++i) {
    for (int r = 0; r < ice::kSize && !fault; ++r)
      if (!notify(seats[i], board.line(r), log))
        fault = {i, "RUNTIME_ERROR", stopped_detail(seats[i], "closed its input")};
    if (fault) break;
    Answer a = exchange(seats[i], io::ready(i == 0 ? io::Side::first : io::Side::second), log, limits,
                        control, tick_for(i));
    if (!a.fault)
      if (auto e = reply::expect_word(a.line, words::kOk); !e.empty()) a.fault = {i, "INVALID", e};
    if (a.fault) {
      fault = a.fault;
      if (a.fault.seat == i) failed_elapsed[i] = a.elapsed_ms;
      where = "OK";
      break;
    }
    seats[i].bank_ms -= a.elapsed_ms;
  }

  // Step 2. Moves until no ice is left.
  while (!fault && !pos.over()) {
    const int m = pos.to_move;
    Seat& me = seats[m];
    Seat& other = seats[1 - m];
    const int n = pos.ply + 1;
    Answer a = exchange(me,
                        io::turn(static_cast<long>(std::floor(me.bank_ms)),
                                 static_cast<long>(std::floor(other.bank_ms))),
                        log, limits, control, tick_for(m));
    int r = 0, c = 0;
    if (!a.fault)
      if (auto e = check_move(a.line, board, pos, r, c); !e.empty()) a.fault = {m, "INVALID", e};
    if (a.fault) {
      fault = a.fault;
      if (a.fault.seat == m) failed_elapsed[m] = a.elapsed_ms;
      where = "move " + std::to_string(n) + " (" + side_name(m) + " to move)";
      break;
    }
    me.bank_ms -= a.elapsed_ms;
    const int cell = ice::cell(r, c);
    const ice::MoveResult mr = pos.play(board, cell);
    if (control.replay) {
      moves.push_back(
          {{"n", n},
           {"player", side_name(m)},
           {"cell", {r, c}},
           {"captured", cells_json(mr.captured)},
           {"gain", mr.gain},
           {"totals", {pos.total[0], pos.total[1]}},
           {"banks_ms",
            {static_cast<long>(std::floor(seats[0].bank_ms)),
             static_cast<long>(std::floor(seats[1].bank_ms))}},
           {"elapsed_ms", round2(a.elapsed_ms)},
           {"cpu_ms", {std::lround(seats[0].proc->cpu_ms()), std::lround(seats[1].proc->cpu_ms())}},
           {"after", board_lines(board, pos)}});
    }
    const bool sent = notify(other, io::opp(ice::cell(r, c), std::lround(a.elapsed_ms)), log);
    if (!sent && !pos.over()) {
      fault = {1 - m, "RUNTIME_ERROR", stopped_detail(other, "closed its input")};
      where = "after move " + std::to_string(n);
    }
  }

  // Step 3. FINISH to whoever still listens, a moment to exit, then the trees are killed and
  // their CPU read from the rusage: a FINISHED game can still be lost by CPU_LIMIT here.
  for (auto& s : seats) notify(s, io::finish(), log);
  const auto exit_wait = std::chrono::milliseconds(fault ? 20 : 100);
  const auto until = Clock::now() + exit_wait;
  for (auto& s : seats)
    s.proc->wait_exit(std::chrono::duration_cast<std::chrono::milliseconds>(
        std::max(Clock::duration::zero(), until - Clock::now())));
  for (int i = 0; i < 2; ++i) res.cpu_ms[i] = seats[i].proc->terminate();
  if (!fault) {
    const int over0 = res.cpu_ms[0] > limits.cpu_ms, over1 = res.cpu_ms[1] > limits.cpu_ms;
    if (over0 || over1) {
      const int i = (over0 && over1) ? (res.cpu_ms[0] >= res.cpu_ms[1] ? 0 : 1) : (over0 ? 0 : 1);
      char buf[128];
      std::snprintf(buf, sizeof buf, "CPU time %.0f ms over the %.0f ms cap (read when reaped)",
                    res.cpu_ms[i], limits.cpu_ms);
      fault = {i, "CPU_LIMIT", buf};
      where = "end of game";
    }
  }

  control.drop_if_stopping(static_cast<bool>(fault));
  res.totals = {pos.total[0], pos.total[1]};
  res.moves = pos.ply;
  for (int i = 0; i < 2; ++i)
    res.time_ms[i] =
        std::min(limits.bank_ms, limits.bank_ms - seats[i].bank_ms + failed_elapsed[i]);
  if (fault) {
    res.loser = fault.seat;
    res.winner = side_name(1 - fault.seat);
    res.verdict = fault.verdict;
    res.detail = std::string(side_name(fault.seat)) + ", " + where + ": " + fault.detail;
  } else {
    res.verdict = "FINISHED";
    res.winner = pos.total[0] > pos.total[1]   ? "first"
                 : pos.total[0] < pos.total[1] ? "second"
                                               : "draw";
    res.detail = std::to_string(pos.ply) + " moves, totals " + std::to_string(pos.total[0]) +
                 " - " + std::to_string(pos.total[1]);
  }
  if (control.replay) {
    nlohmann::json initial = nlohmann::json::array();
    for (int r = 0; r < ice::kSize; ++r) initial.push_back(board.line(r));
    const nlohmann::json time_control = {{"bank_ms", round2(limits.bank_ms)},
                                         {"cpu_ms", round2(limits.cpu_ms)}};
    res.replay = {{"format", "tactica-replay/1"},
                  {"game", "icebreaking"},
                  {"seed", seed},
                  {"agents",
                   {{{"label", first.label}, {"command", first.command()}},
                    {{"label", second.label}, {"command", second.command()}}}},
                  {"result",
                   {{"winner", res.winner},
                    {"totals", {res.totals[0], res.totals[1]}},
                    {"verdict", res.verdict},
                    {"loser_reason", res.loser < 0 ? nlohmann::json(nullptr)
                                                   : nlohmann::json(side_name(res.loser))},
                    {"detail", res.detail},
                    {"time_ms", {std::lround(res.time_ms[0]), std::lround(res.time_ms[1])}},
                    {"cpu_ms", {std::lround(res.cpu_ms[0]), std::lround(res.cpu_ms[1])}},
                    {"accounting", res.accounting}}},
                  {"limits", time_control},
                  {"initial", std::move(initial)},
                  {"moves", std::move(moves)},
                  {"log", log.take()}};
  }
  return res;
}

std::string summary_line(const IcebreakingResult& r, const std::string& first,
                         const std::string& second, std::uint64_t seed) {
  std::string s = "icebreaking seed " + std::to_string(seed) + ": " + first + " (first) " +
                  std::to_string(r.totals[0]) + " - " + std::to_string(r.totals[1]) + " " + second +
                  " (second): ";
  s += r.winner == "draw" ? std::string("draw") : r.winner + " wins";
  const std::string acct = "; accounting " + r.accounting;
  if (r.loser < 0) return s + ", FINISHED (" + r.detail + acct + ")";
  return s + ", " + side_name(r.loser) + " " + r.verdict + " (" + r.detail + acct + ")";
}

}  // namespace tactica::harness
