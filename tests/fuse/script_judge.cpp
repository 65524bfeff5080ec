// script_judge.cpp — a scripted judge for the fuse fidelity test. It plays one game with an agent
// over pipes from inputs fixed in advance — the seed's rows (Hanpang) or board (Icebreaking), the
// same bank figure in every TURN, the opponent's moves from a seeded random policy — waiting for
// each reply before it sends the next line, and prints the whole exchange. Agents that choose the
// same move at every turn print the same transcript; the first differing line is the first move
// on which they disagree.
//
//   fuse_script_judge hanpang SEED BANK_MS -- AGENT [ARGS...]
//   fuse_script_judge icebreaking SEED BANK_MS first|second -- AGENT [ARGS...]
//
// Exit status: 0 when the game was played to its end and the agent exited with status 0; 1 when
// the agent broke the protocol (a reply that is not a legal move, no reply within 60 s, an early
// exit); 2 for a bad command line.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"

extern char** environ;

namespace {

constexpr int kReplyTimeoutMs = 60'000;

[[noreturn]] void fail(const std::string& msg) {
  std::printf("! %s\n", msg.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "fuse_script_judge: %s\n", msg.c_str());
  std::exit(1);
}

class Agent {
 public:
  explicit Agent(const std::vector<std::string>& argv) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) fail("pipe2 failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (posix_spawnp(&pid_, args[0], &fa, nullptr, args.data(), environ) != 0)
      fail("cannot run " + argv[0]);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }

  void send(const std::string& line) {
    std::printf("> %s\n", line.c_str());
    const std::string s = line + "\n";
    std::size_t done = 0;
    while (done < s.size()) {
      const ssize_t n = write(to_, s.data() + done, s.size() - done);
      if (n <= 0) fail("the agent closed its input");
      done += static_cast<std::size_t>(n);
    }
  }

  std::string receive() {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kReplyTimeoutMs);
    for (;;) {
      if (const auto nl = buf_.find('\n'); nl != std::string::npos) {
        std::string line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        std::printf("< %s\n", line.c_str());
        return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      if (left.count() <= 0) fail("no reply within 60 s");
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) fail("the agent closed its output (exited?) while a reply was expected");
      buf_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // Closes the agent's input and waits up to 10 s for it to exit; fails unless it exits with 0.
  void finish() {
    close(to_);
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
          fail("the agent ended with status " + std::to_string(status));
        std::printf("= exit 0\n");
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    fail("the agent did not exit within 10 s of the end of its input");
  }

 private:
  pid_t pid_ = 0;
  int to_ = -1, from_ = -1;
  std::string buf_;
};

// "WORD a b" -> a, b; fails unless the reply is exactly that.
std::pair<int, int> parse_reply(const std::string& line, std::string_view word) {
  const std::string prefix = std::string(word) + " ";
  int a = -1, b = -1;
  char rest = 0;
  if (!line.starts_with(prefix) ||
      std::sscanf(line.c_str() + prefix.size(), "%d %d%c", &a, &b, &rest) != 2)
    fail("reply '" + line + "' is not '" + std::string(word) + " a b'");
  return {a, b};
}

void play_hanpang(Agent& agent, std::uint64_t seed, long bank) {
  using namespace tactica::hanpang;
  agent.send("START");
  if (agent.receive() != "READY") fail("expected READY");
  State st;
  RowSource rows(seed);
  while (!st.over()) {
    const Row row = rows.next();
    if (!st.push_row(row)) break;  // a tile pushed out over the top: the run is over
    agent.send("TURN " + std::to_string(bank) + " " + row.str());
    const auto [r, c] = parse_reply(agent.receive(), "PANG");
    if (r < 1 || r > kRows || c < 1 || c > kCols) fail("PANG out of range");
    const int cell = from_protocol(r, c);
    if (st.colour_at(cell) == 0) fail("PANG on an empty cell");
    st.play(cell);
  }
}

void play_icebreaking(Agent& agent, std::uint64_t seed, long bank, bool first) {
  using namespace tactica::icebreaking;
  const Board board = Board::from_seed(seed);
  for (int r = 0; r < kSize; ++r) agent.send(board.line(r));
  agent.send(first ? "READY FIRST" : "READY SECOND");
  if (agent.receive() != "OK") fail("expected OK");
  Position pos = Position::start(board);
  const Player me = first ? A : B;
  tactica::Rng opponent(seed * 1000003 + 17);
  const std::string times = std::to_string(bank) + " " + std::to_string(bank);
  while (!pos.over()) {
    if (pos.to_move == me) {
      agent.send("TURN " + times);
      const auto [r, c] = parse_reply(agent.receive(), "MOVE");
      if (r < 0 || r >= kSize || c < 0 || c >= kSize || !pos.legal(cell(r, c)))
        fail("MOVE is not an empty ice cell");
      pos.play(board, cell(r, c));
    } else {
      MoveList moves;
      pos.moves(moves);
      const int c =
          moves[static_cast<int>(opponent.below(static_cast<std::uint32_t>(moves.size())))];
      agent.send("OPP " + std::to_string(row_of(c)) + " " + std::to_string(col_of(c)) + " 1");
      pos.play(board, c);
    }
  }
  std::printf("= totals %d %d\n", pos.total[A], pos.total[B]);
  agent.send("FINISH");
}

[[noreturn]] void usage() {
  std::fprintf(
      stderr,
      "usage: fuse_script_judge hanpang SEED BANK_MS -- AGENT [ARGS...]\n"
      "       fuse_script_judge icebreaking SEED BANK_MS first|second -- AGENT [ARGS...]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::size_t dash = 0;
  while (dash < args.size() && args[dash] != "--") ++dash;
  if (dash + 1 >= args.size() || dash < 3) usage();
  const std::vector<std::string> agent_argv(args.begin() + static_cast<long>(dash) + 1, args.end());
  const std::string game = args[0];
  char* end = nullptr;
  const std::uint64_t seed = std::strtoull(args[1].c_str(), &end, 10);
  const long bank = std::strtol(args[2].c_str(), &end, 10);
  signal(SIGPIPE, SIG_IGN);
  if (game == "hanpang" && dash == 3) {
    Agent agent(agent_argv);
    play_hanpang(agent, seed, bank);
    agent.finish();
  } else if (game == "icebreaking" && dash == 4 && (args[3] == "first" || args[3] == "second")) {
    Agent agent(agent_argv);
    play_icebreaking(agent, seed, bank, args[3] == "first");
    agent.finish();
  } else {
    usage();
  }
  return 0;
}
