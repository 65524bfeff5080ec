// The one way to obtain a strategy (tactica/registry.hpp) and the core's agent main
// (tactica/agent_main.hpp), in-process: what the registry refuses and how, what a factory's
// failure becomes, and run_agent_main playing as a fused main.cpp does (in a forked child, as it
// plays on stdin/stdout).
#include "tactica/registry.hpp"

#include <doctest/doctest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tactica/agent_main.hpp"
#include "tactica/session_hanpang.hpp"

using namespace tactica;

// A toy plugin, linked in: the highest occupied cell in Hanpang (not the fallback's choice), and
// a factory that refuses `fail` = 1 or makes no strategy for `fail` = 2.
namespace tactica::plugins::toy {

struct Highest final : HanpangStrategy {
  int choose(const hanpang::State& s, const SearchLimits&, BestMove&) override {
    const u128 occ = s.occupied();
    const auto hi = static_cast<std::uint64_t>(occ >> 64);
    return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<std::uint64_t>(occ));
  }
};

PluginInfo describe() {
  PluginInfo info;
  info.name = "toy";
  info.version = "0.0.1";
  info.plays_hanpang = true;
  info.hanpang_params = {{"fail", ParamType::integer, 0, 0, 2, "1: throw, 2: make none"}};
  return info;
}
std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  if (p.integer("fail") == 1) throw std::runtime_error("refused on purpose");
  if (p.integer("fail") == 2) return nullptr;
  return std::make_unique<Highest>();
}
std::unique_ptr<IcebreakingStrategy> make_icebreaking(const Params&) { return nullptr; }

}  // namespace tactica::plugins::toy

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const PluginError& e) {
    return e.what();
  }
  return "(no PluginError)";
}

PluginEntry named(std::string name) {
  PluginEntry e = TACTICA_PLUGIN_ENTRY(toy);
  e.name = std::move(name);
  return e;
}

struct Run {
  int status = -1;
  std::string out, err;
};

std::string slurp(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(n));
  close(fd);
  return s;
}

// run_agent_main<HanpangSession> in a child whose stdin holds `input`, as a fused main.cpp calls
// it. Stdin is closed once the child has said nothing for 500 ms (at most 5 s): end of input while
// the strategy thinks ends the run without a reply (the judge's kill), and on a loaded machine a
// think can outlast the agent's 5 ms look at its input.
Run run_main(const StrategyRegistry& registry, const EmbeddedConfig& config,
             std::vector<std::string> args, const std::string& input) {
  int in[2], out[2], err[2];
  REQUIRE(pipe(in) == 0);
  REQUIRE(pipe(out) == 0);
  REQUIRE(pipe(err) == 0);
  REQUIRE(write(in[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
  std::fflush(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(in[0], 0), dup2(out[1], 1), dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    std::vector<char*> argv{const_cast<char*>("agent")};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int status = run_agent_main<HanpangSession>(static_cast<int>(argv.size() - 1),
                                                      argv.data(), registry, config);
    std::fflush(nullptr);
    _exit(status);
  }
  close(in[0]), close(out[1]), close(err[1]);
  Run r;
  char buf[4096];
  for (int waited = 0; waited < 5000; waited += 500) {
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, 500) <= 0) break;
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    r.out.append(buf, static_cast<std::size_t>(n));
  }
  close(in[1]);
  r.out += slurp(out[0]);  // the outputs are far below a pipe's buffer: no deadlock
  r.err = slurp(err[0]);
  int ws = 0;
  REQUIRE(waitpid(pid, &ws, 0) == pid);
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
  return r;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

constexpr const char* kInput = "START\nTURN 5000 11223311\n";

// The reply of the toy strategy and of the fallback to kInput's one turn.
std::string reply(bool fallback) {
  hanpang::State st;
  st.push_row(*hanpang::Row::parse("11223311"));
  BestMove best;
  const int cell =
      fallback ? hanpang::fallback_move(st) : plugins::toy::Highest().choose(st, {}, best);
  return "READY\n" + protocol::hanpang_io::pang(cell) + "\n";
}

}  // namespace

TEST_CASE("registry: entries by name, in the order added") {
  StrategyRegistry r;
  CHECK(r.size() == 0);
  r.add(TACTICA_PLUGIN_ENTRY(toy));
  r.add(named("other"));
  CHECK(r.size() == 2);
  CHECK(r.names() == "toy, other");
  REQUIRE(r.find("toy"));
  CHECK((r.find("toy")->describe == &plugins::toy::describe));
  CHECK((r.find("toy")->make_hanpang == &plugins::toy::make_hanpang));
  CHECK(&r.get("other") == r.find("other"));
  CHECK(r.find("nope") == nullptr);
  std::vector<std::string> names;
  for (const auto& e : r) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"toy", "other"});
}

TEST_CASE("registry: an unknown name, a name twice, an incomplete entry are refused clearly") {
  StrategyRegistry r("linked into tactica-test");
  CHECK(error_of([&] { r.get("beam"); }) ==
        "no plugin 'beam' linked into tactica-test; there is none");
  r.add(TACTICA_PLUGIN_ENTRY(toy));
  CHECK(error_of([&] { r.get("beam"); }) ==
        "no plugin 'beam' linked into tactica-test; there is: toy");
  CHECK(error_of([&] { r.add(TACTICA_PLUGIN_ENTRY(toy)); }) ==
        "plugin 'toy' is linked into tactica-test twice: each name may be added once");
  CHECK(error_of([&] { r.add(named("")); }) == "a plugin entry without a name");
  PluginEntry missing = named("half");
  missing.make_icebreaking = nullptr;
  CHECK(error_of([&] { r.add(missing); }) == "plugin 'half': an entry point is missing");
  CHECK(r.size() == 1);  // nothing refused was added
  CHECK(contains(error_of([] { StrategyRegistry().get("x"); }), "no plugin 'x' registered"));
}

TEST_CASE("make_strategy: a factory that throws or makes nothing becomes a PluginError") {
  const PluginEntry e = TACTICA_PLUGIN_ENTRY(toy);
  Params p;
  p.set("fail", 0);
  CHECK(make_strategy<HanpangStrategy>(e, p) != nullptr);
  p.set("fail", 1);
  CHECK(error_of([&] { make_strategy<HanpangStrategy>(e, p); }) ==
        "plugin 'toy' could not make its hanpang strategy: refused on purpose");
  p.set("fail", 2);
  CHECK(error_of([&] { make_strategy<HanpangStrategy>(e, p); }) ==
        "plugin 'toy' made no hanpang strategy (null)");
  CHECK(error_of([&] { make_strategy<IcebreakingStrategy>(e, p); }) ==
        "plugin 'toy' made no icebreaking strategy (null)");
}

TEST_CASE("run_agent_main: the registry's strategy plays; only --verbose is taken") {
  StrategyRegistry r;
  r.add(TACTICA_PLUGIN_ENTRY(toy));
  EmbeddedConfig c;
  c.strategy = "toy";
  c.banner = "toy agent here";
  // `fail` is not baked: its default (0) comes from describe(), as for a newer plugin source.
  const Run run = run_main(r, c, {"--verbose", "--frobnicate"}, kInput);
  CHECK(run.status == 0);
  CHECK(run.out == reply(false));
  CHECK(contains(run.err,
                 "tactica: ignoring argument '--frobnicate' (a fused agent takes only "
                 "--verbose)\n"));
  CHECK(contains(run.err, "toy agent here\n"));
  CHECK(contains(run.err, "tactica: hanpang: move 1: PANG "));  // --verbose: a line per move
  CHECK(contains(run.err, "(strategy)"));
}

TEST_CASE("run_agent_main: a strategy that cannot be made is played for by the fallback") {
  StrategyRegistry r;
  r.add(TACTICA_PLUGIN_ENTRY(toy));
  EmbeddedConfig c;
  c.strategy = "toy";
  c.params.set("fail", 1);
  Run run = run_main(r, c, {}, kInput);
  CHECK(run.status == 0);
  CHECK(run.out == reply(true));
  CHECK(run.err ==
        "tactica: plugin 'toy' could not make its hanpang strategy: refused on purpose; playing "
        "fallback moves\n");

  c.strategy = "nope";
  run = run_main(r, c, {}, kInput);
  CHECK(run.status == 0);
  CHECK(run.out == reply(true));
  CHECK(run.err == "tactica: no plugin 'nope' registered; there is: toy; playing fallback moves\n");
}
