// session_icebreaking.hpp — Icebreaking's protocol loop: the board, READY FIRST|SECOND / TURN /
// OPP / FINISH in, OK / MOVE r c out, the position kept with the core rules and every move of
// either player told to the strategy. Part of session.hpp; standard library and POSIX only (it
// goes into fused submissions).
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "tactica/bitboard.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/protocol.hpp"
#include "tactica/session_decide.hpp"
#include "tactica/session_fallback.hpp"
#include "tactica/strategy.hpp"
#include "tactica/timebank.hpp"

namespace tactica {

class IcebreakingSession : public detail::GameSession<IcebreakingStrategy,
                                                      FallbackIcebreakingStrategy,
                                                      GameKind::icebreaking> {
 public:
  IcebreakingSession(IcebreakingStrategy& strategy, SessionOptions options)
      : GameSession(strategy, std::move(options), "icebreaking") {
    cpu_cap_ms_ = double(opt_.time.cpu_cap_ms);
    end_word_ = "FINISH";
  }
  ~IcebreakingSession() { quiesce(); }

  // Plays until FINISH or end of input; returns the exit status (0).
  int run() {
    namespace io = protocol::icebreaking_io;
    begin_run();
    for_each_command(
        [this](const std::string& line) { return io::parse(line, opt_.time.bank_ms); },
        [this](const io::Command& cmd, const std::string& line, detail::Clock::time_point arrived) {
          if (cmd.kind == io::Kind::blank) return true;
          if (cmd.kind == io::Kind::board_line) {
            board_line(line);
            return true;
          }
          for (const auto& p : cmd.problems) line_note(p);
          if (cmd.kind != io::Kind::unknown) close_board(cmd.word);
          switch (cmd.kind) {
            case io::Kind::blank:
            case io::Kind::board_line:
              break;
            case io::Kind::unknown:
              unknown_command(cmd.word);
              break;
            case io::Kind::ready:
              ready(cmd, arrived);
              break;
            case io::Kind::turn:
              turn(cmd, arrived);
              break;
            case io::Kind::opp:
              opp(cmd);
              break;
            case io::Kind::finish:
              return false;
          }
          return true;
        });
    return finish(0);
  }

 private:
  void board_line(std::string_view line) {
    namespace io = protocol::icebreaking_io;
    if (board_closed_ || rows_ >= icebreaking::kSize) {
      line_note("board line after the board was complete: ignored");
      return;
    }
    const io::BoardLine b = io::parse_board_line(line);
    for (const auto& p : b.problems) line_note("board row " + std::to_string(rows_) + ": " + p);
    for (int c = 0; c < icebreaking::kSize; ++c) {
      const auto& t = b.cells[c];
      const int cell = icebreaking::cell(rows_, c);
      board_.set(cell, t.kind != io::BoardToken::ice, t.score);
      if (t.kind == io::BoardToken::hole) ++declared_holes_;
      if (t.kind == io::BoardToken::unknown) unread_ |= bit128(cell);
    }
    ++rows_;
  }

  // The first command ends the board: missing rows are holes, and the game position starts.
  void close_board(std::string_view word) {
    if (board_closed_) return;
    board_closed_ = true;
    if (rows_ < icebreaking::kSize) {
      line_note("only " + std::to_string(rows_) + " board rows before " + protocol::quote(word) +
                ": the missing cells are treated as holes");
      for (int r = rows_; r < icebreaking::kSize; ++r)
        for (int c = 0; c < icebreaking::kSize; ++c) {
          board_.set(icebreaking::cell(r, c), true, 0);
          unread_ |= bit128(icebreaking::cell(r, c));
        }
    } else if (declared_holes_ != icebreaking::kHoles) {
      line_note("the board has " + std::to_string(declared_holes_) + " holes, not " +
                std::to_string(icebreaking::kHoles) + ": playing on it as given");
    }
    pos_ = icebreaking::Position::start(board_);
  }

  void start_game(icebreaking::Player me) {
    if (side_known_) return;
    side_known_ = true;
    me_ = me;
    new_game_ = std::make_shared<detail::Job>("new_game");
    worker_.post(new_game_, [this](detail::Job&) { strategy_.new_game(board_, me_, opt_.seed); });
  }

  void ready(const protocol::icebreaking_io::Command& cmd, detail::Clock::time_point arrived) {
    using protocol::icebreaking_io::Side;
    if (ok_sent_) {
      line_note("READY again: ignored");
      return;
    }
    if (ready_) line_note("READY after the game began: answering OK");
    ready_ = ok_sent_ = true;
    if (cmd.side == Side::first) start_game(icebreaking::A);
    if (cmd.side == Side::second) start_game(icebreaking::B);
    await_new_game(arrived);
    send(protocol::icebreaking_io::ok());
    charge(arrived);
  }

  void turn(const protocol::icebreaking_io::Command& cmd, detail::Clock::time_point arrived) {
    if (!ready_) line_note("TURN before READY: playing it anyway"), ready_ = true;
    start_game(pos_.to_move);  // a bare READY: whoever is to move when TURN comes is us
    if (pos_.to_move != me_) {
      line_note("TURN when our record says the opponent is to move: playing anyway");
      pos_.to_move = me_;
    }
    ++turns_;
    const double cpu_left = cpu_cap_ms_ > 0 ? cpu_cap_ms_ - process_cpu_ms() : 1e18;
    const double left = std::min(wall_left(cmd.my_time), cpu_left);
    detail::Decision d;
    d.left_ms = left;
    if (pos_.over()) {
      line_note("TURN but our record has no empty ice left: answering a guess");
      d.cell = guess_cell();
      d.problem = "no empty ice in our record";
    } else {
      const icebreaking::Position& p = pos_;
      const auto legal = [&p](int c) { return p.legal(c); };
      IcebreakingStrategy& strat = strategy_;
      const icebreaking::Board& board = board_;
      const icebreaking::Position copy = pos_;
      d = decide(arrived, left, (popcount(pos_.ice) + 1) / 2,
                 icebreaking_fallback_move(board_, pos_), legal,
                 [&strat, &board, copy](const SearchLimits& l, BestMove& b, SearchStats& st) {
                   const int c = strat.choose(board, copy, l, b);
                   st = strat.stats();
                   return c;
                 });
      if (ending_) return;  // FINISH or end of input while it thought: no reply, the run ends
      if (!d.problem.empty())
        note("move " + std::to_string(turns_) + ": " + d.problem + "; answered " + d.source);
    }
    if (d.cell < 0 || d.cell >= icebreaking::kSize * icebreaking::kStride) d.cell = guess_cell();
    const std::string reply = protocol::icebreaking_io::move(d.cell);
    send(reply);
    charge(arrived);
    if (pos_.legal(d.cell)) apply(d.cell);
    verbose_move(turns_, reply, d, arrived);
  }

  void opp(const protocol::icebreaking_io::Command& cmd) {
    if (!ready_) line_note("OPP before READY: taking it anyway"), ready_ = true;
    start_game(icebreaking::other(pos_.to_move));  // a bare READY: the opponent moved first
    if (!cmd.cell) {
      line_note("OPP without a readable cell: not applied");
      return;
    }
    if (!pos_.legal(*cmd.cell)) {
      line_note("OPP " + std::to_string(icebreaking::row_of(*cmd.cell)) + " " +
                std::to_string(icebreaking::col_of(*cmd.cell)) +
                " is not empty ice in our record (a hole or a taken cell): not applied");
      return;
    }
    if (pos_.to_move == me_) {
      line_note("OPP when our record says we are to move: applying it anyway");
      pos_.to_move = icebreaking::other(me_);
    }
    apply(*cmd.cell);
  }

  void apply(int cell) {
    pos_.play(board_, cell);
    worker_.post(std::make_shared<detail::Job>("observe"),
                 [this, after = pos_, cell](detail::Job&) { strategy_.observe(after, cell); });
  }

  // Our record is out of step: prefer a cell we could not read (it may be ice), else any
  // non-hole cell.
  int guess_cell() const {
    if (unread_) return lowest_bit(unread_);
    for (int r = 0; r < icebreaking::kSize; ++r)
      for (int c = 0; c < icebreaking::kSize; ++c)
        if (!(board_.holes & bit128(icebreaking::cell(r, c)))) return icebreaking::cell(r, c);
    return icebreaking::cell(0, 0);
  }

  icebreaking::Board board_;
  icebreaking::Position pos_;
  u128 unread_ = 0;  // cells whose board token was missing or unreadable (played as holes)
  int rows_ = 0, declared_holes_ = 0, turns_ = 0;
  bool board_closed_ = false, ready_ = false, side_known_ = false, ok_sent_ = false;
  icebreaking::Player me_ = icebreaking::A;
};

}  // namespace tactica
