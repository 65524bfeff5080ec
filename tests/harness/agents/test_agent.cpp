// test_agent.cpp — an agent for the harness tests: plays either game correctly with the core
// engines (Hanpang: the largest safe group; Icebreaking: the largest immediate gain), and on
// request misbehaves in one chosen way after a number of good moves.
//
//   test_agent --game hanpang|icebreaking [--fault KIND] [--after N] [--at-ready] [--ms MS]
//              [--pidfile FILE] [--burn-children N] [--mb N] [--tag WORD]
//   test_agent --config FILE [--check]  (stands in for tactica-agent: plays the config's game
//                                       well; --check exits 0 at once)
//
// KIND: garbage sleep slow burn burn-per-move child-burn setsid-child taken range crash exit
//       close-stdout flood flood-lines long-line bad-utf8 control crlf deaf early many-children
//       memhog extra-output
// Hostile helpers (start-up, then the agent plays well; every helper keeps argv, so --tag finds
// them in /proc): setsid-burn setsid-mem setsid-spawn fork-bomb (each a child that calls
// setsid() and double-forks) cgroup-hide (the helper also moves into a sub-group of its own
// cgroup) stderr-flood (100 MB) sigstop-child;
// at the chosen move: partial-line sigstop late-read (answers, then reads the command)
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

namespace {

using namespace tactica;

struct Options {
  std::string game = "hanpang";
  std::string fault;
  int after = 0;
  bool at_ready = false;
  int ms = 50;
  std::string pidfile;
  int burn_children = 0;  // children that burn CPU from the start, whatever the fault
  int mb = 256;           // setsid-mem: MiB held
  int delay = 0;          // ms of sleep before every reply, whatever the fault
};

double cpu_ms() { return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

void burn_forever() {
  volatile unsigned long x = 0;
  for (;;) x = x + 1;
}

void burn_for(int ms) {
  const double until = cpu_ms() + ms;
  volatile unsigned long x = 0;
  while (cpu_ms() < until)
    for (int i = 0; i < 10000; ++i) x = x + 1;
}

void say(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

// Misbehaves instead of sending `good` (the reply a correct agent would send). Returns true if
// the agent should carry on after writing something (faults that go on playing).
void misbehave(const Options& o, const std::string& good, const std::string& bad_cell) {
  const std::string& f = o.fault;
  if (f == "garbage")
    say("HELLO WORLD\n");
  else if (f == "sleep")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  else if (f == "burn")
    burn_forever();
  else if (f == "taken" || f == "range")
    say(bad_cell + "\n");
  else if (f == "crash") {
    volatile int* p = nullptr;
    *p = 1;
  } else if (f == "exit")
    std::exit(0);
  else if (f == "close-stdout") {
    ::close(1);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  } else if (f == "flood") {
    const std::string chunk(4096, 'x');
    for (;;) std::fwrite(chunk.data(), 1, chunk.size(), stdout);
  } else if (f == "flood-lines") {
    for (;;) std::fputs((good + "\n").c_str(), stdout);
  } else if (f == "long-line")
    say(good + std::string(5000, ' ') + "\n");
  else if (f == "bad-utf8")
    say(good + "\xff\n");
  else if (f == "control") {
    std::string s = good;
    s[s.find(' ')] = '\t';
    say(s + "\n");
  } else if (f == "crlf")
    say(good + "\r\n");
  else if (f == "extra-output")
    say(good + "\n" + good + "\n");
  else if (f == "partial-line") {
    say(good.substr(0, good.size() - 1));  // no newline, and not even the whole answer
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  } else if (f == "sigstop") {
    ::raise(SIGSTOP);
    say(good + "\n");
  } else if (f == "memhog") {
    std::vector<char*> blocks;
    for (int i = 0; i < 4096; ++i) {  // 4 GiB in 1 MiB blocks, every page touched
      char* b = new char[1 << 20];
      std::memset(b, 1, 1 << 20);
      blocks.push_back(b);
    }
    say(good + "\n");
  } else {
    std::fprintf(stderr, "test_agent: unknown fault '%s'\n", f.c_str());
    std::exit(3);
  }
}

// A grandchild that has left the agent's session and process group, whose parent is gone: the
// classic escape. Runs `body(ready)` in it, where `ready()` says the fault is in place (the
// memory held, the processes spawned). The agent waits for that, or for the helper's death (a
// cgroup's limit may kill it first), before it goes on: under a loaded machine a helper that
// raced the game could still be building its fault when the game ended, and the test would see
// a clean FINISHED (CI saw it once, session 27).
template <class Body>
void escaped_helper(Body body) {
  int fds[2];
  if (::pipe(fds) != 0) {
    std::perror("test_agent: pipe");
    std::exit(3);
  }
  const pid_t c = ::fork();
  if (c != 0) {
    ::close(fds[1]);
    if (c > 0) ::waitpid(c, nullptr, 0);
    char byte;
    while (::read(fds[0], &byte, 1) < 0 && errno == EINTR) {
    }  // a byte: ready; end of file: every holder of the write end is gone
    ::close(fds[0]);
    return;
  }
  ::close(fds[0]);
  ::setsid();
  if (::fork() != 0) ::_exit(0);
  ::setsid();  // fails (already a group leader's child? no: a new process, its own session)
  const int ready_fd = fds[1];
  const pid_t self = ::getpid();
  body([ready_fd, self] {
    if (::getpid() != self) return;  // a process the helper forked: only the helper tells
    const char byte = 1;
    (void)!::write(ready_fd, &byte, 1);
  });
  ::_exit(0);
}

template <class Ready>
void hold_memory(int mb, Ready ready) {
  std::vector<char*> blocks;
  for (int i = 0; i < mb; ++i) {
    char* b = new char[1 << 20];
    std::memset(b, 1, 1 << 20);
    blocks.push_back(b);
  }
  ready();
  for (;;) ::pause();
}

// Moves this process into a sub-group of its own in every v1 hierarchy whose group is a judge's
// (tactica-...): a root agent hiding from a kill that reads only its group's cgroup.procs.
void hide_in_subgroup() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string ctl = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (ctl.empty() || path.find("/tactica-") == std::string::npos) continue;
    const std::string dir = "/sys/fs/cgroup/" + ctl + path + "/hide-" + std::to_string(::getpid());
    ::mkdir(dir.c_str(), 0755);
    std::ofstream(dir + "/cgroup.procs") << "0\n";
  }
}

// Faults that act once at start-up.
void start_faults(const Options& o) {
  if (o.fault == "cgroup-hide")
    escaped_helper([](auto ready) {
      hide_in_subgroup();
      ready();
      burn_forever();
    });
  if (o.fault == "setsid-burn")
    escaped_helper([](auto ready) {
      ready();
      burn_forever();
    });
  if (o.fault == "setsid-mem") escaped_helper([&](auto ready) { hold_memory(o.mb, ready); });
  if (o.fault == "setsid-spawn")
    escaped_helper([](auto ready) {
      for (int i = 0; i < 200; ++i)
        if (::fork() == 0) {
          ::setsid();
          for (;;) ::pause();
        }
      ready();
      for (;;) ::pause();
    });
  if (o.fault == "fork-bomb")
    escaped_helper([](auto ready) {
      // Doubles every round until killed (at most 2^12 processes, so a judge without a cap
      // cannot take the machine down in a test).
      for (int round = 0; round < 12; ++round)
        if (::fork() < 0) break;
      ready();
      for (;;) ::pause();
    });
  if (o.fault == "sigstop-child")
    escaped_helper([](auto ready) {
      ready();
      ::raise(SIGSTOP);
    });
  if (o.fault == "stderr-flood") {
    const std::string chunk(1 << 16, 'e');
    for (int i = 0; i < 1600; ++i)  // 100 MiB
      if (std::fwrite(chunk.data(), 1, chunk.size(), stderr) != chunk.size()) break;
    std::fflush(stderr);
  }
  for (int i = 0; i < o.burn_children; ++i)
    if (::fork() == 0) burn_forever();
  if (o.fault == "child-burn") {
    if (::fork() == 0) burn_forever();
  } else if (o.fault == "setsid-child") {
    const pid_t c = ::fork();
    if (c == 0) {
      ::setsid();
      if (!o.pidfile.empty()) std::ofstream(o.pidfile) << ::getpid() << "\n";
      burn_forever();
    }
  } else if (o.fault == "many-children") {
    for (int i = 0; i < 40; ++i)
      if (::fork() == 0) {
        ::sleep(60);
        ::_exit(0);
      }
  } else if (o.fault == "deaf") {
    // Answers without ever reading a command.
    say(o.game == "hanpang" ? "READY\n" : "OK\n");
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  } else if (o.fault == "late-read") {
    // The first command is sent while we sleep: answer it unread, then read it at once.
    std::this_thread::sleep_for(std::chrono::milliseconds(o.ms));
    say(o.game == "hanpang" ? "READY\n" : "OK\n");
  } else if (o.fault == "early") {
    say(o.game == "hanpang" ? "READY\n" : "OK\n");
  }
}

bool ongoing_fault(const std::string& f) {
  return f == "slow" || f == "burn-per-move" || f == "child-burn" || f == "setsid-child" ||
         f == "many-children" || f == "early" || f == "setsid-burn" || f == "setsid-mem" ||
         f == "setsid-spawn" || f == "fork-bomb" || f == "sigstop-child" || f == "stderr-flood" ||
         f == "late-read" || f == "cgroup-hide" || f.empty();
}

// Sends `good`, or the fault when its time has come.
void reply(const Options& o, int moves_done, bool is_ready, const std::string& good,
           const std::string& bad_cell) {
  if (o.fault == "late-read" && is_ready) return;  // answered before it was read
  if (o.delay > 0) std::this_thread::sleep_for(std::chrono::milliseconds(o.delay));
  if (o.fault == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(o.ms));
  if (o.fault == "burn-per-move" && !is_ready) burn_for(o.ms);
  const bool now =
      !ongoing_fault(o.fault) && (o.at_ready ? is_ready : (!is_ready && moves_done >= o.after));
  if (now)
    misbehave(o, good, bad_cell);
  else
    say(good + "\n");
}

int play_hanpang(const Options& o) {
  hanpang::State st;
  std::string line;
  int moves = 0;
  while (std::getline(std::cin, line)) {
    if (line == "START") {
      reply(o, moves, true, "READY", "PANG 1 1");
      continue;
    }
    std::istringstream in(line);
    std::string word, a, b;
    in >> word >> a >> b;
    if (word != "TURN") continue;
    const std::string row_text = a.size() == 8 ? a : b;
    const auto row = hanpang::Row::parse(row_text);
    if (!row) return 2;
    st.push_row(*row);
    const int c = hanpang::fallback_move(st);
    const std::string good = "PANG " + std::to_string(hanpang::protocol_row(c)) + " " +
                             std::to_string(hanpang::protocol_col(c));
    std::string bad = o.fault == "range" ? "PANG 16 1" : "PANG 1 1";  // row 1 is empty early on
    reply(o, moves, false, good, bad);
    st.play(c);
    ++moves;
  }
  return 0;
}

int play_icebreaking(const Options& o) {
  icebreaking::Board board;
  std::string line;
  for (int r = 0; r < icebreaking::kSize; ++r) {
    if (!std::getline(std::cin, line)) return 0;
    if (!board.parse_line(r, line).empty()) return 2;
  }
  icebreaking::Position pos = icebreaking::Position::start(board);
  int moves = 0;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "READY") {
      reply(o, moves, true, "OK", "MOVE 0 0");
    } else if (word == "TURN") {
      icebreaking::MoveList ml;
      pos.moves(ml);
      int best = ml[0], best_gain = -100;
      for (int c : ml) {
        const int gain = board.score[c] + board.sum(pos.captures(c));
        if (gain > best_gain) best = c, best_gain = gain;
      }
      const std::string good = "MOVE " + std::to_string(icebreaking::row_of(best)) + " " +
                               std::to_string(icebreaking::col_of(best));
      // A taken cell if there is one, else a hole.
      const u128 taken = pos.owned[0] | pos.owned[1];
      const int bad_c = taken ? lowest_bit(taken) : lowest_bit(board.holes);
      const std::string bad = o.fault == "range"
                                  ? std::string("MOVE 9 0")
                                  : "MOVE " + std::to_string(icebreaking::row_of(bad_c)) + " " +
                                        std::to_string(icebreaking::col_of(bad_c));
      reply(o, moves, false, good, bad);
      pos.play(board, best);
      ++moves;
    } else if (word == "OPP") {
      int r, c;
      in >> r >> c;
      pos.play(board, icebreaking::cell(r, c));
    } else if (word == "FINISH") {
      return 0;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--game")
      o.game = next();
    else if (a == "--fault")
      o.fault = next();
    else if (a == "--after")
      o.after = std::atoi(next().c_str());
    else if (a == "--at-ready")
      o.at_ready = true;
    else if (a == "--ms")
      o.ms = std::atoi(next().c_str());
    else if (a == "--pidfile")
      o.pidfile = next();
    else if (a == "--mb")
      o.mb = std::atoi(next().c_str());
    else if (a == "--delay")
      o.delay = std::atoi(next().c_str());
    else if (a == "--tag")
      next();  // only marks the processes (and their children) in /proc
    else if (a == "--burn-children")
      o.burn_children = std::atoi(next().c_str());
    else if (a == "--check")  // as tactica-agent --check: the config is fine
      return 0;
    else if (a == "--config") {
      std::ifstream in(next());
      std::string line;
      static const std::regex re(R"re(^\s*game\s*=\s*"(\w+)")re");
      std::smatch m;
      while (std::getline(in, line))
        if (std::regex_search(line, m, re)) o.game = m[1];
    } else {
      std::fprintf(stderr, "test_agent: unknown argument '%s'\n", a.c_str());
      return 3;
    }
  }
  start_faults(o);
  return o.game == "icebreaking" ? play_icebreaking(o) : play_hanpang(o);
}
