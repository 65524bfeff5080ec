// Fuzzed judge input for both shipped agents (configs/*/submit.toml through tactica-agent):
// sessions built from valid protocol lines, mutated (bytes flipped, cut, padded, CR, NUL, TAB,
// non-ASCII, overlong lines, numbers out of range, commands out of order), mixed with garbage,
// with tiny and absurd banks, ended by FINISH or end of input at a random point. Whatever comes,
// the agent writes only well-formed protocol lines, at most one READY/OK, at most one answer
// per TURN, and exits with status 0 once its input ends.
//
// Bounded in time: sessions run until kBudgetMs has passed (at least kMinSessions), from a fixed
// seed (printed) so a failure can be replayed: TACTICA_FUZZ_SEED=N picks another.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>
#include <regex>

#include "child.hpp"
#include "judges.hpp"
#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"

using namespace agent_test;

namespace {

constexpr double kBudgetMs = 8000;  // per game
constexpr int kMinSessions = 20;

std::uint64_t fuzz_seed() {
  const char* s = std::getenv("TACTICA_FUZZ_SEED");
  return s && *s ? std::strtoull(s, nullptr, 10) : 20261201;
}

class Fuzzer {
 public:
  explicit Fuzzer(std::uint64_t seed) : rng_(seed) {}
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < percent; }

  std::string bank() {
    // Tiny banks mostly; a bank the agent cannot read (it then plans with its own count of the
    // 5,000 ms) now and then, since those turns think for real.
    static const char* tiny[] = {"0", "1", "2", "5", "20", "60", "-1", "-5000", "007"};
    static const char* odd[] = {"99999999999999999999", "4294967296", "abc", "", "1e3", "+5"};
    if (chance(5)) return odd[pick(sizeof odd / sizeof *odd)];
    return tiny[pick(sizeof tiny / sizeof *tiny)];
  }
  std::string garbage() {
    std::string s;
    const int n = pick(5) == 0 ? 5000 + pick(3000) : pick(40);
    for (int i = 0; i < n; ++i) {
      char c = static_cast<char>(pick(256));
      if (c == '\n') c = ' ';
      s += c;
    }
    return s;
  }
  // A valid line, perhaps damaged.
  std::string mutate(std::string line) {
    if (line.empty() || !chance(30)) return line;
    switch (pick(9)) {
      case 0:
        line[pick(static_cast<int>(line.size()))] = static_cast<char>(pick(256));
        break;
      case 1:
        line.resize(pick(static_cast<int>(line.size())));
        break;
      case 2:
        line += "\r";
        break;
      case 3:
        line.insert(pick(static_cast<int>(line.size())), 1, '\0');
        break;
      case 4:
        line = "  " + line + "  ";
        break;
      case 5:
        line.insert(pick(static_cast<int>(line.size())), "\t");
        break;
      case 6:
        line += " " + std::to_string(pick(100000));
        break;
      case 7:
        line.insert(pick(static_cast<int>(line.size())), "\xc3\xa9");
        break;
      default:
        line += std::string(4100, '9');
        break;
    }
    for (char& c : line)
      if (c == '\n') c = ' ';
    return line;
  }

 private:
  std::mt19937_64 rng_;
};

struct Outcome {
  std::vector<std::string> lines;
  std::optional<int> status;
  double exit_ms = 0;  // from closing its input to its exit
};

Outcome run_session(const std::string& config, const std::vector<std::string>& input) {
  Child c({kAgent, "--config", config});
  std::string all;
  for (const auto& l : input) all += l + "\n";
  // Written in a few pieces, as a judge would, without waiting for answers.
  std::size_t off = 0;
  while (off < all.size()) {
    const std::size_t n = std::min<std::size_t>(all.size() - off, 1 + (off * 7919) % 3000);
    if (!c.send(std::string_view(all).substr(off, n))) break;
    off += n;
  }
  const auto closed = Clock::now();
  c.close_stdin();
  Outcome o;
  o.status = c.wait(20000);
  o.exit_ms = ms_since(closed);
  o.lines = lines_of(c.read_all(500));
  return o;
}

std::string describe(const std::vector<std::string>& input) {
  std::string s;
  for (std::size_t i = 0; i < input.size() && i < 40; ++i) {
    std::string l = input[i].substr(0, 60);
    for (char& ch : l)
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f) ch = '?';
    s += l + " | ";
  }
  return s;
}

// One fuzzed session's input, and how many of its lines are turns (each allows one answer) and
// starts (READY allows one; unset: not counted).
struct Session {
  std::vector<std::string> in;
  int turns = 0;
  std::optional<int> starts;
};

// Runs sessions made by `make(f)` for at least kMinSessions and kBudgetMs. Each must exit 0
// and write only `first` (at most once, and not more often than its starts) and lines matching
// `answer` (at most one per turn); over all, most sessions must have played.
template <class Make>
void fuzz_sessions(const std::string& game, const std::string& config, Fuzzer& f,
                   const std::string& first, const std::regex& answer, const Make& make) {
  const auto t0 = Clock::now();
  int sessions = 0;
  double max_exit_ms = 0;
  int total_answers = 0, total_firsts = 0;
  while (sessions < kMinSessions || ms_since(t0) < kBudgetMs) {
    ++sessions;
    const Session s = make(f);
    const auto o = run_session(config, s.in);
    CAPTURE(sessions);
    CAPTURE(describe(s.in));
    REQUIRE(o.status.has_value());
    CHECK(*o.status == 0);
    max_exit_ms = std::max(max_exit_ms, o.exit_ms);
    int firsts = 0, answers = 0;
    for (const auto& l : o.lines) {
      if (l == first)
        ++firsts;
      else if (std::regex_match(l, answer))
        ++answers;
      else
        FAIL_CHECK("a line that is not the protocol's: '" << l << "'");
    }
    CHECK(firsts <= 1);
    if (s.starts) CHECK(firsts <= *s.starts);
    // Lines of the turn kind (some damaged past recognition) bound the answers.
    CHECK(answers <= s.turns);
    total_answers += answers;
    total_firsts += firsts;
  }
  CHECK(total_answers > sessions);  // it did play: most sessions hold readable turns
  CHECK(total_firsts > sessions / 2);
  MESSAGE(sessions << " " << game << " sessions in " << ms_since(t0) << " ms; the slowest ended "
                   << max_exit_ms << " ms after its input");
}

}  // namespace

TEST_CASE("fuzz: the Hanpang agent takes any input and answers only well-formed lines") {
  const std::string config = kSource + "/configs/hanpang/submit.toml";
  Fuzzer f(fuzz_seed());
  MESSAGE("seed " << fuzz_seed() << " (TACTICA_FUZZ_SEED)");
  static const std::regex pang(R"(PANG (1[0-5]|[1-9]) [1-8])");
  fuzz_sessions("Hanpang", config, f, "READY", pang, [](Fuzzer& f) {
    Session s;
    auto& in = s.in;
    tactica::hanpang::RowSource rows(static_cast<std::uint64_t>(f.pick(1000)));
    int turns = 0, starts = 0;
    const int n = 1 + f.pick(40);
    if (!f.chance(10)) in.push_back(f.mutate("START")), ++starts;
    for (int i = 0; i < n; ++i) {
      const int k = f.pick(10);
      if (k < 7) {
        in.push_back(f.mutate("TURN " + f.bank() + " " + rows.next().str()));
        ++turns;
      } else if (k == 7) {
        in.push_back(f.garbage());
      } else if (k == 8) {
        in.push_back(f.mutate("START"));
        ++starts;
      } else {
        in.push_back(f.chance(50) ? "" : f.mutate("TURN " + rows.next().str() + " " + f.bank()));
        ++turns;
      }
    }
    s.turns = turns;
    s.starts = starts;
    return s;
  });
}

TEST_CASE("fuzz: the Icebreaking agent takes any input and answers only well-formed lines") {
  const std::string config = kSource + "/configs/icebreaking/submit.toml";
  Fuzzer f(fuzz_seed() + 1);
  static const std::regex move(R"(MOVE [0-8] [0-8])");
  fuzz_sessions("Icebreaking", config, f, "OK", move, [](Fuzzer& f) {
    namespace ib = tactica::icebreaking;
    Session s;
    auto& in = s.in;
    const auto board = ib::Board::from_seed(static_cast<std::uint64_t>(f.pick(1000)));
    auto pos = ib::Position::start(board);
    const int rows = f.chance(90) ? ib::kSize : f.pick(ib::kSize + 3);
    for (int r = 0; r < rows; ++r) in.push_back(f.mutate(board.line(r % ib::kSize)));
    int turns = 0;
    const int side = f.pick(4);  // first, second, bare READY, none
    if (side < 3)
      in.push_back(f.mutate(side == 0 ? "READY FIRST" : side == 1 ? "READY SECOND" : "READY"));
    const int n = 1 + f.pick(50);
    for (int i = 0; i < n; ++i) {
      const int k = f.pick(12);
      if (k < 5) {
        in.push_back(f.mutate("TURN " + f.bank() + " " + f.bank()));
        ++turns;
      } else if (k < 9) {
        // Mostly a legal opponent move, sometimes any cell.
        ib::MoveList ml;
        pos.moves(ml);
        int r = f.pick(11) - 1, c = f.pick(11) - 1;
        if (!pos.over() && f.chance(80)) {
          const int cell = ml[f.pick(static_cast<int>(ml.size()))];
          pos.play(board, cell);
          r = ib::row_of(cell), c = ib::col_of(cell);
        }
        in.push_back(
            f.mutate("OPP " + std::to_string(r) + " " + std::to_string(c) + " " + f.bank()));
      } else if (k == 9) {
        in.push_back(f.garbage());
      } else if (k == 10) {
        in.push_back(f.mutate("READY FIRST"));
      } else if (f.chance(30)) {
        in.push_back(f.mutate("FINISH"));
      }
    }
    s.turns = turns;
    return s;
  });
}
