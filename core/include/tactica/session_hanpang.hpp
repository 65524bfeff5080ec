// session_hanpang.hpp — Hanpang's protocol loop: START / TURN ms row in, READY / PANG r c out,
// our record of the board kept with the core rules (bottom-row moves once it may be out of step
// with the judge's). Part of session.hpp; standard library and POSIX only (it goes into fused
// submissions).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "tactica/bitboard.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/protocol.hpp"
#include "tactica/session_decide.hpp"
#include "tactica/session_fallback.hpp"
#include "tactica/strategy.hpp"

namespace tactica {

class HanpangSession
    : public detail::GameSession<HanpangStrategy, FallbackHanpangStrategy, GameKind::hanpang> {
 public:
  HanpangSession(HanpangStrategy& strategy, SessionOptions options)
      : GameSession(strategy, std::move(options), "hanpang") {}
  ~HanpangSession() { quiesce(); }

  // Plays until end of input; returns the exit status (0).
  int run() {
    namespace io = protocol::hanpang_io;
    begin_run();
    // new_game runs before START arrives, so its time is not charged to the bank.
    new_game_ = std::make_shared<detail::Job>("new_game");
    worker_.post(new_game_, [this](detail::Job&) { strategy_.new_game(opt_.seed); });
    for_each_command(
        [this](const std::string& line) { return io::parse(line, opt_.time.bank_ms); },
        [this](const io::Command& cmd, const std::string&, detail::Clock::time_point arrived) {
          for (const auto& p : cmd.problems) line_note(p);
          switch (cmd.kind) {
            case io::Kind::start:
              start(arrived);
              break;
            case io::Kind::turn:
              turn(cmd, arrived);
              break;
            case io::Kind::unknown:
              unknown_command(cmd.word);
              break;
            case io::Kind::blank:
              break;
          }
          return true;
        });
    return finish(0);
  }

 private:
  void start(detail::Clock::time_point arrived) {
    if (started_) {
      line_note("START again: ignored");
      return;
    }
    started_ = true;
    await_new_game(arrived);
    send(protocol::hanpang_io::ready());
    charge(arrived);
  }

  void turn(const protocol::hanpang_io::Command& cmd, detail::Clock::time_point arrived) {
    namespace io = protocol::hanpang_io;
    if (!started_) {
      line_note("TURN before START: playing it anyway");
      started_ = true;
    }
    ++turns_;
    if (cmd.row) {
      if (!state_.push_row(*cmd.row) && !desynced_) {
        line_note(
            "the new row pushed a tile out over the top of our board, yet the game goes on: "
            "playing bottom-row cells (always legal) from now on");
        desynced_ = true;
      }
    } else {
      state_.push_row(io::guess_row(cmd.row_text));
      if (!desynced_)
        line_note(
            "without a readable new_row our board may differ from the judge's: playing "
            "bottom-row cells (always legal) from now on");
      desynced_ = true;
    }
    const double left = wall_left(cmd.remaining_ms);
    detail::Decision d;
    d.left_ms = left;
    if (desynced_) {
      d.cell = hanpang_bottom_move(state_);
      d.problem = "board out of step with the judge";
    } else if (state_.over() && state_.end != hanpang::End::overflow) {
      line_note("TURN after the last of " + std::to_string(hanpang::kMaxActions) +
                " actions: answering the fallback");
      d.cell = hanpang::fallback_move(state_);
      d.problem = "the game is over in our record";
    } else {
      const hanpang::State& s = state_;
      const auto legal = [&s](int c) {
        return c >= 0 && c < 128 && (hanpang::kValid & bit128(c)) && (s.occupied() & bit128(c));
      };
      HanpangStrategy& strat = strategy_;
      const hanpang::State copy = state_;
      d = decide(arrived, left, hanpang::kMaxActions - state_.actions, hanpang::fallback_move(s),
                 legal, [&strat, copy](const SearchLimits& l, BestMove& b, SearchStats& st) {
                   const int c = strat.choose(copy, l, b);
                   st = strat.stats();
                   return c;
                 });
      if (ending_) return;  // input ended while it thought: no reply, the run ends
      if (!d.problem.empty())
        note("move " + std::to_string(turns_) + ": " + d.problem + "; answered " + d.source);
    }
    if (d.cell < 0 || d.cell >= 128 || !(state_.occupied() & bit128(d.cell)))
      d.cell = hanpang_bottom_move(state_);
    const std::string reply = io::pang(d.cell);
    send(reply);
    charge(arrived);
    state_.play(d.cell);
    verbose_move(turns_, reply, d, arrived);
  }

  hanpang::State state_;
  bool started_ = false;
  bool desynced_ = false;
  int turns_ = 0;
};

}  // namespace tactica
