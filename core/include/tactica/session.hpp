// session.hpp — the protocol loops: one Session per game reads the judge's lines, keeps the game
// with the core rules, asks the strategy for a move under the time bank, and writes the reply.
// The same code runs in tactica-agent (strategy from a plugin) and in a fused main.cpp.
//
// What a Session guarantees, whatever the strategy does:
//   * stdout carries protocol lines only, each written with one write() and so flushed at once;
//     diagnostics go to stderr (bounded in volume, so an undrained pipe cannot block us);
//   * every TURN gets a legal move (legal in the Session's own record of the game) before the
//     time manager's limit: a cheap fallback move is computed before the strategy is asked, the
//     strategy runs on a worker thread, and the Session sleeps on a condition variable until the
//     strategy returns or the limit passes. A strategy that throws, returns an illegal move or
//     overruns is answered for with its published best-so-far move if legal, else the fallback;
//   * a strategy that overran and is still running is never called again concurrently: the
//     fallback answers until it returns. Under a CPU cap (Icebreaking) such a runaway may use up
//     the usable CPU time but never the reserve: the Session then parks its thread for good
//     (a thread-directed signal whose handler sleeps) and plays the fallback to the end;
//   * judge input is cross-checked and never trusted blindly: malformed lines, unknown
//     commands and impossible moves are reported on stderr and play goes on where possible;
//   * end of input (and Icebreaking's FINISH) ends the run with status 0, also while the
//     strategy thinks (the Session watches its input while it waits: the search is stopped and
//     no reply is sent). If a strategy does not return within 30 ms of being stopped, the
//     strategy object cannot be destroyed safely, so run() ends the process with std::_Exit(0)
//     instead of returning (all output is unbuffered by then);
//   * the strategy's new_game (its tables) is waited for, up to 25 ms, before READY/OK, so no
//     move's reply queues behind it; a READY that comes after TURN or OPP still gets its OK.
//
// The parts, one concern each:
//   session_lines.hpp        reading and writing lines (LineReader, write_all)
//   session_worker.hpp       the worker thread that owns every strategy call, and parking a runaway
//   session_core.hpp         what both loops share: options, notes, the bank count, the run's end
//   session_decide.hpp       the time decision of a move, under the watchdog
//   session_fallback.hpp     the fallback moves
//   session_hanpang.hpp      HanpangSession, Hanpang's protocol loop
//   session_icebreaking.hpp  IcebreakingSession, Icebreaking's protocol loop
//
// Standard library and POSIX only: these headers go into fused submissions.
#pragma once

#include "tactica/session_fallback.hpp"
#include "tactica/session_hanpang.hpp"
#include "tactica/session_icebreaking.hpp"
