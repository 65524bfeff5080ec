// replay_gen.cpp — see replay_gen.hpp.
#include "replay_gen.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"

namespace tactica::testing {

namespace {

using nlohmann::json;

// A made-up clock for the log: every line a little later than the previous one.
struct Clock {
  double t = 0;
  json log = json::array();
  void line(int agent, const char* dir, const std::string& text, double after_ms) {
    t += after_ms;
    log.push_back(
        {{"t_ms", std::round(t * 100) / 100}, {"agent", agent}, {"dir", dir}, {"line", text}});
  }
};

double think_ms(Rng& rng) { return std::round((0.3 + 25.0 * rng.uniform()) * 10) / 10; }

json hanpang_board(const hanpang::State& s) {
  json rows = json::array();
  for (int h = hanpang::kRows - 1; h >= 0; --h) {
    std::string r;
    for (int c = 0; c < hanpang::kCols; ++c)
      r += static_cast<char>('0' + s.colour_at(hanpang::cell(c, h)));
    rows.push_back(r);
  }
  return rows;
}

json protocol_cell(int c) { return {hanpang::protocol_row(c), hanpang::protocol_col(c)}; }

json icebreaking_board(const icebreaking::Board& b, const icebreaking::Position& p) {
  json rows = json::array();
  for (int r = 0; r < icebreaking::kSize; ++r) {
    std::string line;
    for (int c = 0; c < icebreaking::kSize; ++c) {
      const int i = icebreaking::cell(r, c);
      if (c) line += ' ';
      if (b.holes & bit128(i))
        line += '#';
      else if (p.owned[0] & bit128(i))
        line += 'a';
      else if (p.owned[1] & bit128(i))
        line += 'b';
      else
        line += std::to_string(b.score[i]);
    }
    rows.push_back(line);
  }
  return rows;
}

}  // namespace

json hanpang_replay(const GenOptions& opt) {
  using namespace hanpang;
  RowSource rows(opt.seed);
  Rng rng(opt.seed * 0x9E3779B97F4A7C15ULL + 17);
  Clock clock;
  State s;
  Row row = rows.next();
  s.push_row(row);  // the rules add the first row at the start of the game
  const json initial = hanpang_board(s);

  double bank = 5000;
  clock.line(0, "send", "START", 0.05);
  const double ready = think_ms(rng) / 5;
  bank -= ready;
  clock.line(0, "recv", "READY", ready);

  json moves = json::array();
  std::string verdict, detail;
  for (int n = 1;; ++n) {
    clock.line(0, "send", "TURN " + std::to_string(static_cast<int>(bank)) + " " + row.str(), 0.05);
    if (opt.max_moves >= 0 && n > opt.max_moves) {
      const double late = bank + 12.5;
      clock.line(0, "recv", "PANG 15 1", late);
      verdict = "TIME_LIMIT";
      detail = "move " + std::to_string(n) + " took " + std::to_string(static_cast<int>(late)) +
               " ms with " + std::to_string(static_cast<int>(bank)) + " ms left";
      break;
    }
    const json before = hanpang_board(s);
    GroupList groups;
    s.groups(groups);
    int rep = fallback_move(s);
    if (rng.uniform() >= opt.greedy) rep = groups[static_cast<int>(rng.below(groups.size()))].rep;
    // Any cell of the group selects it: pick one at random so the cell is not always the rep.
    const u128 g = s.group_at(rep);
    std::vector<int> cells;
    for (const int c : bits{g}) cells.push_back(c);
    const int chosen = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    json group = json::array();
    for (const int c : cells) group.push_back(protocol_cell(c));

    const double elapsed = think_ms(rng);
    bank -= elapsed;
    clock.line(
        0, "recv",
        "PANG " + std::to_string(protocol_row(chosen)) + " " + std::to_string(protocol_col(chosen)),
        elapsed);
    const int points = s.remove(g);
    moves.push_back({{"n", n},
                     {"row", row.str()},
                     {"before", before},
                     {"cell", protocol_cell(chosen)},
                     {"group", group},
                     {"points", points},
                     {"score", s.score},
                     {"remaining_ms", static_cast<int>(bank)},
                     {"elapsed_ms", elapsed},
                     {"after", hanpang_board(s)}});
    if (s.over()) {
      verdict = s.end == End::max_actions ? "MAX_ACTIONS" : "OVERFLOW";
      detail = s.end == End::max_actions ? "200 actions played"
                                         : "a column is full: the next row would push a tile out";
      break;
    }
    row = rows.next();
    s.push_row(row);
  }
  return {{"format", "tactica-replay/1"},
          {"game", "hanpang"},
          {"seed", opt.seed},
          {"agents",
           json::array({{{"label", "test-mix"}, {"command", "viewer_fixture (made-up agent)"}}})},
          {"result",
           {{"score", s.score}, {"actions", s.actions}, {"verdict", verdict}, {"detail", detail}}},
          {"limits", {{"bank_ms", 5000}}},
          {"initial", initial},
          {"moves", moves},
          {"log", clock.log}};
}

json icebreaking_replay(const GenOptions& opt) {
  using namespace icebreaking;
  const Board board = Board::from_seed(opt.seed);
  Rng rng(opt.seed * 0xD1B54A32D192ED03ULL + 5);
  Clock clock;
  Position p = Position::start(board);
  const json initial = icebreaking_board(board, p);

  double bank[2] = {5000, 5000};
  double cpu[2] = {0, 0};
  for (int a = 0; a < 2; ++a)
    for (int r = 0; r < kSize; ++r) clock.line(a, "send", board.line(r), 0.01);
  for (int a = 0; a < 2; ++a) {
    clock.line(a, "send", a ? "READY SECOND" : "READY FIRST", 0.02);
    const double t = think_ms(rng) / 5;
    bank[a] -= t;
    cpu[a] += t;
    clock.line(a, "recv", "OK", t);
  }

  json moves = json::array();
  json result;
  for (int n = 1; !p.over(); ++n) {
    const int me = p.to_move;
    clock.line(me, "send",
               "TURN " + std::to_string(static_cast<int>(bank[me])) + " " +
                   std::to_string(static_cast<int>(bank[1 - me])),
               0.05);
    if (opt.max_moves >= 0 && n > opt.max_moves) {
      clock.line(me, "recv", "MOVE 0 0", bank[me] + 3);
      const std::string loser = me ? "second" : "first";
      result = {{"winner", me ? "first" : "second"},
                {"totals", {p.total[0], p.total[1]}},
                {"verdict", "TIME_LIMIT"},
                {"loser_reason", loser},
                {"detail", loser + " used up its bank on move " + std::to_string(n)}};
      break;
    }
    MoveList ml;
    p.moves(ml);
    int chosen = ml[static_cast<int>(rng.below(ml.size()))];
    if (rng.uniform() < opt.greedy) {
      int best = -1000;
      for (const int c : ml) {
        const int gain = board.score[c] + board.sum(p.captures(c));
        if (gain > best) best = gain, chosen = c;
      }
    }
    const double elapsed = think_ms(rng);
    bank[me] -= elapsed;
    cpu[me] += elapsed * 0.9;
    clock.line(me, "recv",
               "MOVE " + std::to_string(row_of(chosen)) + " " + std::to_string(col_of(chosen)),
               elapsed);
    const MoveResult res = p.play(board, chosen);
    json captured = json::array();
    for (const int c : bits{res.captured}) captured.push_back({row_of(c), col_of(c)});
    moves.push_back({{"n", n},
                     {"player", me ? "second" : "first"},
                     {"cell", {row_of(chosen), col_of(chosen)}},
                     {"captured", captured},
                     {"gain", res.gain},
                     {"totals", {p.total[0], p.total[1]}},
                     {"banks_ms", {static_cast<int>(bank[0]), static_cast<int>(bank[1])}},
                     {"elapsed_ms", elapsed},
                     {"cpu_ms", {static_cast<int>(cpu[0]), static_cast<int>(cpu[1])}},
                     {"after", icebreaking_board(board, p)}});
    if (!p.over())
      clock.line(1 - me, "send",
                 "OPP " + std::to_string(row_of(chosen)) + " " + std::to_string(col_of(chosen)) +
                     " " + std::to_string(static_cast<int>(elapsed)),
                 0.05);
  }
  if (result.is_null()) {
    const int lead = p.leader();
    result = {{"winner", lead > 0   ? "first"
                         : lead < 0 ? "second"
                                    : "draw"},
              {"totals", {p.total[0], p.total[1]}},
              {"verdict", "FINISHED"},
              {"loser_reason", nullptr},
              {"detail", "no empty ice left"}};
    for (int a = 0; a < 2; ++a) clock.line(a, "send", "FINISH", 0.02);
  }
  return {{"format", "tactica-replay/1"},
          {"game", "icebreaking"},
          {"seed", opt.seed},
          {"agents", json::array({{{"label", "mix-a"}, {"command", "viewer_fixture first"}},
                                  {{"label", "mix-b"}, {"command", "viewer_fixture second"}}})},
          {"result", result},
          {"limits", {{"bank_ms", 5000}, {"cpu_ms", 5000}}},
          {"initial", initial},
          {"moves", moves},
          {"log", clock.log}};
}

}  // namespace tactica::testing
