// protocol.hpp — the judge protocol of both games in one place: every command's spelling, the
// tolerant parsing of judge lines, the formatting of replies, and the formatting of the judge's
// own lines (used by the harness's judge, harness/judge/) (see docs/PROTOCOL.md and the
// "Decisions" tables of shared/spec/*.md). Changing a command's spelling is one edit below.
//
// Parsing never throws and never rejects a whole line for a detail: it returns what it could
// read plus a list of problems, and the Session decides what to do (report on stderr, keep
// playing). Lines may carry trailing spaces, tabs and a CR (CRLF line ends); tokens are
// separated by any run of spaces or tabs.
//
// Standard library only: this header goes into fused submissions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace tactica::protocol {

// ---- spellings --------------------------------------------------------------------------------

namespace words {
// Hanpang
inline constexpr std::string_view kStart = "START";  // judge: the run begins
inline constexpr std::string_view kReady = "READY";  // agent: answer to START / judge: side
inline constexpr std::string_view kTurn = "TURN";    // judge: your move
inline constexpr std::string_view kPang = "PANG";    // agent: the chosen cell (Hanpang)
// Icebreaking (kReady and kTurn are shared)
inline constexpr std::string_view kFirst = "FIRST";    // READY FIRST: we play first (player a)
inline constexpr std::string_view kSecond = "SECOND";  // READY SECOND: we play second (player b)
inline constexpr std::string_view kOk = "OK";          // agent: answer to READY
inline constexpr std::string_view kMove = "MOVE";      // agent: the chosen cell (Icebreaking)
inline constexpr std::string_view kOpp = "OPP";        // judge: the opponent's move
inline constexpr std::string_view kFinish = "FINISH";  // judge: the game is over
inline constexpr std::string_view kHole = "#";         // board token of a hole
}  // namespace words

// Lines longer than this are cut (the rest up to the newline is skipped) and reported; the
// longest valid judge line is a board line of under 40 characters.
inline constexpr std::size_t kMaxLine = 4096;
// A problem report quotes at most this many characters of a token.
inline constexpr std::size_t kQuote = 24;

// ---- tokens and numbers ---------------------------------------------------------------------

// The whitespace-separated tokens of a line (space, tab, CR, and stray control bytes count as
// separators). At most kMaxTokens are kept; `extra` counts the rest.
struct Tokens {
  static constexpr int kMaxTokens = 12;
  std::array<std::string_view, kMaxTokens> items{};
  int count = 0;
  int extra = 0;
  std::string_view operator[](int i) const { return items[i]; }
  bool empty() const { return count == 0; }
};

inline Tokens split(std::string_view line) {
  Tokens t;
  std::size_t i = 0;
  const auto is_space = [](char ch) {
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f' ||
           ch == '\0';
  };
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (t.count < Tokens::kMaxTokens)
      t.items[t.count++] = line.substr(start, i - start);
    else
      ++t.extra;
  }
  return t;
}

// A token as it may appear in a report: cut to kQuote characters, control bytes shown as '?'.
inline std::string quote(std::string_view tok) {
  std::string s;
  for (std::size_t i = 0; i < tok.size() && i < kQuote; ++i) {
    const auto ch = static_cast<unsigned char>(tok[i]);
    s += (ch < 0x20 || ch >= 0x7F) ? '?' : static_cast<char>(ch);
  }
  if (tok.size() > kQuote) s += "...";
  return "'" + s + "'";
}

// Parses a decimal integer in [lo, hi] (an optional leading '-' only if lo < 0). On failure
// returns nullopt and, if `why` is given, appends a reason naming `what`.
inline std::optional<std::int64_t> parse_int(std::string_view tok, std::int64_t lo, std::int64_t hi,
                                             std::string_view what, std::vector<std::string>* why) {
  const auto fail = [&](const std::string& reason) -> std::optional<std::int64_t> {
    if (why) why->push_back(std::string(what) + " " + quote(tok) + " " + reason);
    return std::nullopt;
  };
  std::size_t i = 0;
  bool negative = false;
  if (!tok.empty() && tok[0] == '-' && lo < 0) negative = true, i = 1;
  if (i >= tok.size()) return fail("is not a number");
  // Accumulate the magnitude with a saturation flag, so any length of digits is safe.
  std::uint64_t v = 0;
  bool big = false;
  for (; i < tok.size(); ++i) {
    const char ch = tok[i];
    if (ch < '0' || ch > '9') return fail("is not a number");
    const auto d = static_cast<std::uint64_t>(ch - '0');
    if (v > (UINT64_MAX - d) / 10)
      big = true;
    else
      v = v * 10 + d;
  }
  const auto range = "is out of range " + std::to_string(lo) + ".." + std::to_string(hi);
  if (big || v > static_cast<std::uint64_t>(INT64_MAX)) return fail(range);
  const std::int64_t x = negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  if (x < lo || x > hi) return fail(range);
  return x;
}

// ---- Hanpang ----------------------------------------------------------------------------------

namespace hanpang_io {

enum class Kind { blank, start, turn, unknown };

struct Command {
  Kind kind = Kind::blank;
  std::string_view word;                     // the command word as read (for reports)
  std::optional<std::int64_t> remaining_ms;  // TURN: the bank left, if readable
  std::optional<hanpang::Row> row;           // TURN: the new row, if well formed
  std::string row_text;                      // TURN: the row token as read ("" if none)
  std::vector<std::string> problems;         // what was wrong with the line (empty: nothing)
};

// True if `tok` is a well-formed new row: exactly 8 characters from '1'..'3'.
inline bool is_row(std::string_view tok) { return hanpang::Row::parse(tok).has_value(); }

// Parses one judge line. `bank_ms` is the largest remaining_ms accepted (the platform's bank).
// TURN takes its two arguments in either order: the row is the token of 8 characters from
// 1..3, the bank the other one.
inline Command parse(std::string_view line, std::int64_t bank_ms = 5000) {
  Command cmd;
  const Tokens t = split(line);
  if (t.empty()) return cmd;
  cmd.word = t[0];
  if (t[0] == words::kStart) {
    cmd.kind = Kind::start;
    if (t.count > 1 || t.extra) cmd.problems.push_back("START takes no arguments; extra ignored");
    return cmd;
  }
  if (t[0] != words::kTurn) {
    cmd.kind = Kind::unknown;
    return cmd;
  }
  cmd.kind = Kind::turn;
  const int args = t.count - 1;
  std::string_view time_tok, row_tok;
  bool have_time = false, have_row = false;
  if (args >= 2) {
    // Which one is the row? A well-formed row wins; otherwise a token that is not a valid bank
    // (digits 0..bank_ms) is taken for the row; otherwise the table's order (bank first).
    const std::string_view a = t[1], b = t[2];
    const bool a_time = parse_int(a, 0, bank_ms, "", nullptr).has_value();
    bool swap = false;
    if (is_row(a) && !is_row(b))
      swap = true;
    else if (!is_row(a) && !is_row(b) && a_time == false &&
             parse_int(b, 0, bank_ms, "", nullptr).has_value())
      swap = true;
    time_tok = swap ? b : a;
    row_tok = swap ? a : b;
    have_time = have_row = true;
    if (args > 2 || t.extra) cmd.problems.push_back("TURN takes two arguments; extra ignored");
  } else if (args == 1) {
    if (is_row(t[1]) || !parse_int(t[1], 0, bank_ms, "", nullptr)) {
      row_tok = t[1], have_row = true;
      cmd.problems.push_back("TURN without remaining_ms");
    } else {
      time_tok = t[1], have_time = true;
      cmd.problems.push_back("TURN without new_row");
    }
  } else {
    cmd.problems.push_back("TURN without remaining_ms and new_row");
  }
  if (have_time) cmd.remaining_ms = parse_int(time_tok, 0, bank_ms, "remaining_ms", &cmd.problems);
  if (have_row) {
    cmd.row_text = std::string(row_tok.substr(0, 64));
    cmd.row = hanpang::Row::parse(row_tok);
    if (!cmd.row)
      cmd.problems.push_back("new_row " + quote(row_tok) + " is not 8 characters from 1..3 (" +
                             std::to_string(row_tok.size()) + " characters)");
  }
  return cmd;
}

// The best guess at a malformed row, so the local board keeps its shape: the first 8 characters,
// any that is not 1..3 (or missing) read as 1. Only occupancy is sure to match the judge's board.
inline hanpang::Row guess_row(std::string_view text) {
  hanpang::Row r;
  for (int c = 0; c < hanpang::kCols; ++c) {
    const char ch = c < static_cast<int>(text.size()) ? text[c] : '1';
    r.colour[c] = static_cast<std::uint8_t>(ch >= '1' && ch <= '3' ? ch - '0' : 1);
  }
  return r;
}

// ---- the agent's lines
inline std::string ready() { return std::string(words::kReady); }
// "PANG row col", 1-based protocol coordinates of a hanpang::cell.
inline std::string pang(int cell) {
  return std::string(words::kPang) + ' ' + std::to_string(hanpang::protocol_row(cell)) + ' ' +
         std::to_string(hanpang::protocol_col(cell));
}

// ---- the judge's lines (the harness's judge writes them; parse() above reads them)
inline std::string start() { return std::string(words::kStart); }
// "TURN remaining_ms new_row", e.g. "TURN 4991 12312312".
inline std::string turn(std::int64_t remaining_ms, const hanpang::Row& row) {
  return std::string(words::kTurn) + ' ' + std::to_string(remaining_ms) + ' ' + row.str();
}

}  // namespace hanpang_io

// ---- Icebreaking ------------------------------------------------------------------------------

namespace icebreaking_io {

enum class Kind { blank, board_line, ready, turn, opp, finish, unknown };
enum class Side { unknown, first, second };

struct Command {
  Kind kind = Kind::blank;
  std::string_view word;
  Side side = Side::unknown;             // READY
  std::optional<std::int64_t> my_time;   // TURN
  std::optional<std::int64_t> opp_time;  // TURN
  std::optional<int> cell;               // OPP: icebreaking::cell(r, c), if in range
  std::optional<std::int64_t> time;      // OPP
  std::vector<std::string> problems;
};

// One cell of a board line as read: a hole, ice with a score, or unreadable.
struct BoardToken {
  enum Kind : std::uint8_t { hole, ice, unknown } kind = unknown;
  int score = 0;
};
struct BoardLine {
  std::array<BoardToken, icebreaking::kSize> cells{};  // missing tokens stay `unknown`
  std::vector<std::string> problems;
};

// A board line starts with '#', a digit or a sign; a command starts with a letter.
inline bool looks_like_board_line(const Tokens& t) {
  if (t.empty()) return false;
  const char ch = t[0][0];
  return ch == '#' || ch == '-' || ch == '+' || (ch >= '0' && ch <= '9');
}

inline BoardLine parse_board_line(std::string_view line) {
  BoardLine out;
  const Tokens t = split(line);
  const int n = t.count + t.extra;
  for (int c = 0; c < icebreaking::kSize && c < t.count; ++c) {
    const std::string_view tok = t[c];
    BoardToken& cell = out.cells[c];
    if (tok == words::kHole) {
      cell.kind = BoardToken::hole;
    } else if (tok == "-2" || tok == "-1" || tok == "0" || tok == "1" || tok == "2" ||
               tok == "+1" || tok == "+2" || tok == "-0" || tok == "+0") {
      cell.kind = BoardToken::ice;
      cell.score = (tok.back() - '0') * (tok[0] == '-' ? -1 : 1);
    } else {
      out.problems.push_back("token " + std::to_string(c + 1) + " " + quote(tok) +
                             " is neither '#' nor an integer -2..2 (treated as a hole)");
    }
  }
  if (n < icebreaking::kSize)
    out.problems.push_back("expected 9 tokens, found " + std::to_string(n) +
                           " (missing cells treated as holes)");
  else if (n > icebreaking::kSize)
    out.problems.push_back("expected 9 tokens, found " + std::to_string(n) + " (extra ignored)");
  return out;
}

// Parses one judge line; board lines are recognised by their first character (the Session
// decides whether a board line is expected). `bank_ms` bounds my_time and opp_time.
inline Command parse(std::string_view line, std::int64_t bank_ms = 5000) {
  Command cmd;
  const Tokens t = split(line);
  if (t.empty()) return cmd;
  cmd.word = t[0];
  const int args = t.count - 1;
  const auto extra = [&](int expected, std::string_view what) {
    if (args > expected || t.extra)
      cmd.problems.push_back(std::string(what) + " takes " + std::to_string(expected) +
                             " argument" + (expected == 1 ? "" : "s") + "; extra ignored");
  };
  if (looks_like_board_line(t)) {
    cmd.kind = Kind::board_line;
  } else if (t[0] == words::kReady) {
    cmd.kind = Kind::ready;
    if (args >= 1) {
      if (t[1] == words::kFirst)
        cmd.side = Side::first;
      else if (t[1] == words::kSecond)
        cmd.side = Side::second;
      else
        cmd.problems.push_back("READY side " + quote(t[1]) +
                               " is neither FIRST nor SECOND (treated as a bare READY)");
    }
    extra(1, "READY");
  } else if (t[0] == words::kTurn) {
    cmd.kind = Kind::turn;
    if (args >= 1) cmd.my_time = parse_int(t[1], 0, bank_ms, "my_time", &cmd.problems);
    if (args >= 2) cmd.opp_time = parse_int(t[2], 0, bank_ms, "opp_time", &cmd.problems);
    if (args < 2) cmd.problems.push_back("TURN without my_time and opp_time");
    extra(2, "TURN");
  } else if (t[0] == words::kOpp) {
    cmd.kind = Kind::opp;
    if (args >= 2) {
      const auto r = parse_int(t[1], 0, icebreaking::kSize - 1, "row", &cmd.problems);
      const auto c = parse_int(t[2], 0, icebreaking::kSize - 1, "column", &cmd.problems);
      if (r && c) cmd.cell = icebreaking::cell(static_cast<int>(*r), static_cast<int>(*c));
    } else {
      cmd.problems.push_back("OPP without a row and a column");
    }
    if (args >= 3)
      cmd.time = parse_int(t[3], 0, INT64_C(1) << 40, "time", &cmd.problems);
    else if (args == 2)
      cmd.problems.push_back("OPP without its time");
    extra(3, "OPP");
  } else if (t[0] == words::kFinish) {
    cmd.kind = Kind::finish;
    extra(0, "FINISH");
  } else {
    cmd.kind = Kind::unknown;
  }
  return cmd;
}

// ---- the agent's lines
inline std::string ok() { return std::string(words::kOk); }
// "MOVE r c", 0-based protocol coordinates of an icebreaking::cell.
inline std::string move(int cell) {
  return std::string(words::kMove) + ' ' + std::to_string(icebreaking::row_of(cell)) + ' ' +
         std::to_string(icebreaking::col_of(cell));
}

// ---- the judge's lines (the harness's judge writes them; parse() above reads them; the board
// lines are icebreaking::Board::line)
// "READY FIRST" (we play first, player a) or "READY SECOND".
inline std::string ready(Side side) {
  return std::string(words::kReady) + ' ' +
         std::string(side == Side::first ? words::kFirst : words::kSecond);
}
// "TURN my_time opp_time", e.g. "TURN 4990 5000".
inline std::string turn(std::int64_t my_ms, std::int64_t opp_ms) {
  return std::string(words::kTurn) + ' ' + std::to_string(my_ms) + ' ' + std::to_string(opp_ms);
}
// "OPP r c time", 0-based protocol coordinates of an icebreaking::cell, e.g. "OPP 4 4 10".
inline std::string opp(int cell, std::int64_t time_ms) {
  return std::string(words::kOpp) + ' ' + std::to_string(icebreaking::row_of(cell)) + ' ' +
         std::to_string(icebreaking::col_of(cell)) + ' ' + std::to_string(time_ms);
}
inline std::string finish() { return std::string(words::kFinish); }

}  // namespace icebreaking_io

}  // namespace tactica::protocol
