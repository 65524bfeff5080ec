// The tactica command end to end: judge, bench, tourney (with SPRT), resume, shards and merge,
// configs through tactica-agent, suite files, Ctrl-C, bad input, and the platform's real
// 5,000 ms CPU cap with the default options.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "harness_test_util.hpp"
#include "process/process.hpp"
#include "runner/command_line.hpp"
#include "runner/records.hpp"

namespace fs = std::filesystem;
using namespace harness_test;

namespace {

struct Run {
  int code = -1;
  std::string out, err;
};

const fs::path& temp_dir() {
  static const fs::path dir = [] {
    auto d = fs::temp_directory_path() / ("tactica-cli-test-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs `tactica ARGS` through the shell (ARGS is shell text) with an optional environment prefix.
Run run_tactica(const std::string& args, const std::string& env = "") {
  const auto out = temp_dir() / "stdout", err = temp_dir() / "stderr";
  const std::string cmd =
      env + " " + TACTICA_BIN + " " + args + " >" + out.string() + " 2>" + err.string();
  const int st = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// The test agent as a quoted command line.
std::string agent_cmd(const std::string& game, const std::string& extra = "") {
  return "'" + std::string(TEST_AGENT) + " --game " + game + (extra.empty() ? "" : " " + extra) +
         "'";
}

// Two test agents labelled a and b, b with the fault `b_fault`, as tactica options.
std::string agents_a_b(const std::string& game, const std::string& b_fault) {
  return "--agent " + agent_cmd(game) + " --agent " + agent_cmd(game, b_fault) +
         " --label a --label b";
}

// A test agent labelled good and one labelled weak that sends garbage after 10 moves (Hanpang).
std::string good_and_weak() {
  return "--agent " + agent_cmd("hanpang") + " --label good --agent " +
         agent_cmd("hanpang", "--fault garbage --after 10") + " --label weak";
}

std::vector<nlohmann::json> jsonl(const fs::path& p) {
  std::vector<nlohmann::json> v;
  std::istringstream in(slurp(p));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) v.push_back(nlohmann::json::parse(line));
  return v;
}

std::string path(const std::string& name) {
  const auto p = temp_dir() / name;
  fs::remove(p);
  return p.string();
}

// Writes results lines to `p`, one a line (truncating).
void write_jsonl(const std::string& p, const std::vector<nlohmann::json>& lines) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  for (const auto& l : lines) out << l.dump() << "\n";
}

// A copy of `lines` with line 2 changed by `edit`, as the temporary file `name`.
std::string with_line_2(std::vector<nlohmann::json> lines, const std::string& name,
                        const std::function<void(nlohmann::json&)>& edit) {
  edit(lines[1]);
  const auto p = path(name);
  write_jsonl(p, lines);
  return p;
}

// One bad value written into a results file, and what the refusal must say.
struct BadLine {
  const char* name;
  std::function<void(nlohmann::json&)> edit;
  const char* says;
};

// The table row of `label` in a bench report, without the time column (bank ms) that varies.
std::string bench_row(const std::string& report, const std::string& label) {
  std::istringstream in(report);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(label + " ", 0) == 0) {
      std::istringstream cols(line);
      std::string c, row;
      for (int i = 0; i < 8 && cols >> c; ++i) row += c + " ";
      return row;
    }
  return {};
}

}  // namespace

TEST_CASE("judge prints one line, a JSON result, and writes a replay") {
  auto r = run_tactica("judge hanpang --seed 3 --agent " + agent_cmd("hanpang"));
  CHECK(r.code == 0);
  CHECK(contains(r.out, "hanpang seed 3"));
  CHECK((contains(r.out, "OVERFLOW") || contains(r.out, "MAX_ACTIONS")));

  const auto replay = path("replay.json");
  r = run_tactica("judge hanpang --seed 3 --json --bank-ms 4000 --replay " + replay + " --agent " +
                  agent_cmd("hanpang"));
  CHECK(r.code == 0);
  const auto line = nlohmann::json::parse(r.out);
  CHECK(line["game"] == "hanpang");
  CHECK(line["seed"] == 3);
  const auto rep = nlohmann::json::parse(slurp(replay));
  CHECK(rep["format"] == "tactica-replay/1");
  CHECK(rep["result"]["score"] == line["score"]);
  CHECK(rep["limits"]["bank_ms"] == 4000);  // the viewer's chart draws the bank from it

  const auto ice_replay = path("ice-replay.json");
  r = run_tactica("judge icebreaking --seed 2 --cpu-ms 3000 --replay " + ice_replay + " --first " +
                  agent_cmd("icebreaking") + " --second " + agent_cmd("icebreaking"));
  CHECK(r.code == 0);
  const auto ice = nlohmann::json::parse(slurp(ice_replay));
  CHECK(ice["limits"]["bank_ms"] == 5000);
  CHECK(ice["limits"]["cpu_ms"] == 3000);

  r = run_tactica("judge icebreaking --seed 2 --first " + agent_cmd("icebreaking") + " --second " +
                  agent_cmd("icebreaking", "--fault garbage --after 4") + " --second-label broken");
  CHECK(r.code == 0);
  CHECK(contains(r.out, "first wins"));
  CHECK(contains(r.out, "second INVALID"));
  CHECK(contains(r.out, "broken (second)"));
}

TEST_CASE("--log-dir keeps each agent's whole stderr of every game") {
  const fs::path dir = path("logs");
  const std::string agent = (fs::path(TACTICA_BIN).parent_path() / "tactica-agent").string() +
                            " --config " + std::string(TACTICA_SOURCE_DIR) +
                            "/configs/hanpang/greedy.toml --verbose";
  auto r = run_tactica("bench --agent \"" + agent + "\" --label chatty --seeds 1-2 --no-progress "
                       "--log-dir " + dir.string() + " --out " + path("logs.jsonl"));
  CHECK(r.code == 0);
  for (int seed : {1, 2}) {
    const auto f = dir / ("hanpang-seed" + std::to_string(seed) + "-chatty.stderr");
    REQUIRE(fs::exists(f));
    const std::string text = slurp(f);
    // --verbose: one line per move, so far more than the 2 KiB tail the judge keeps.
    CHECK(std::count(text.begin(), text.end(), '\n') >= 20);
  }
  r = run_tactica("tourney --agent " + agent_cmd("icebreaking") + " --label a --agent " +
                  agent_cmd("icebreaking") + " --label b --seeds 1 --no-progress --log-dir " +
                  dir.string() + " --out " + path("logs-t.jsonl"));
  CHECK(r.code == 0);
  CHECK(fs::exists(dir / "icebreaking-seed1-first-a.stderr"));
  CHECK(fs::exists(dir / "icebreaking-seed1-second-a.stderr"));
  r = run_tactica("bench --agent " + agent_cmd("hanpang") + " --seeds 1 --no-progress --log-dir "
                  "/proc/nowhere --out " + path("logs-bad.jsonl"));
  CHECK(r.code == 2);
  CHECK(contains(r.err, "--log-dir /proc/nowhere: cannot create or write it"));
}

TEST_CASE("bench --early-stop ends once every paired difference excludes 0") {
  const auto out = path("early.jsonl");
  auto r = run_tactica("bench " + good_and_weak() +
                       " --seeds 1-30 -j 1 --early-stop 3 --no-progress --out " + out);
  CHECK(r.code == 0);
  const auto lines = jsonl(out);
  CHECK(lines.size() >= 6);   // at least 3 seeds of both
  CHECK(lines.size() < 60);   // not all 30 seeds
  CHECK(contains(r.err, "stopped early"));
  CHECK(contains(r.out, "paired difference against good"));
}

TEST_CASE("bench: results file, report, resume, shards and merge") {
  const std::string agents = good_and_weak();
  const auto full = path("full.jsonl");
  auto r = run_tactica("bench " + agents + " --seeds 1-3 -j 2 --no-progress --out " + full);
  CHECK(r.code == 0);
  const auto lines = jsonl(full);
  CHECK(lines.size() == 6);
  for (const auto& l : lines) {
    CHECK(l["game"] == "hanpang");
    CHECK(l.contains("score"));
    CHECK(l.contains("verdict"));
    CHECK(l.contains("time_ms"));
  }
  CHECK(contains(r.out, "paired difference against good"));
  CHECK(contains(r.out, "INVALID 3"));
  const std::string good_row = bench_row(r.out, "good");
  CHECK(!good_row.empty());

  // The same file again without --resume is refused.
  r = run_tactica("bench " + agents + " --seeds 1-3 --no-progress --out " + full);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "--resume"));

  // Resume: a run cut after two games and in the middle of a third line.
  const auto part = path("part.jsonl");
  {
    std::ofstream out(part);
    out << lines[0].dump() << "\n" << lines[1].dump() << "\n" << lines[2].dump().substr(0, 20);
  }
  r = run_tactica("bench " + agents + " --seeds 1-3 --no-progress --resume " + part);
  CHECK(r.code == 0);
  const auto resumed = jsonl(part);
  CHECK(resumed.size() == 6);
  CHECK(contains(r.err, "4 games"));
  CHECK(bench_row(r.out, "good") == good_row);

  // Shards 1/2 and 2/2, joined by merge, make the same report.
  const auto s1 = path("s1.jsonl"), s2 = path("s2.jsonl"), merged = path("merged.jsonl");
  CHECK(
      run_tactica("bench " + agents + " --seeds 1-3 --no-progress --shard 1/2 --out " + s1).code ==
      0);
  CHECK(
      run_tactica("bench " + agents + " --seeds 1-3 --no-progress --shard 2/2 --out " + s2).code ==
      0);
  CHECK(jsonl(s1).size() == 4);  // seeds 1 and 3
  CHECK(jsonl(s2).size() == 2);  // seed 2
  r = run_tactica("merge " + s1 + " " + s2 + " " + s1 + " --out " + merged);
  CHECK(r.code == 0);
  CHECK(jsonl(merged).size() == 6);
  CHECK(contains(r.err, "more than once"));
  const auto svg = path("merged.svg");
  CHECK(run_tactica("merge " + s1 + " " + s2 + " --plot " + svg).code == 0);
  CHECK(contains(slurp(svg), "<svg"));
  CHECK(bench_row(r.out, "good") == good_row);
}

TEST_CASE("merge --runs: separate bench runs on the same seeds, compared as one") {
  // A reference run, then a candidate benched alone later (what A/B work on a node budget does).
  const auto ref = path("runs-ref.jsonl"), cand = path("runs-cand.jsonl");
  const auto clash = path("runs-clash.jsonl"), both = path("runs-both.jsonl");
  CHECK(run_tactica("bench --agent " + agent_cmd("hanpang") +
                    " --label good --seeds 1-3 --no-progress --out " + ref)
            .code == 0);
  CHECK(run_tactica("bench --agent " + agent_cmd("hanpang", "--fault garbage --after 10") +
                    " --label weak --seeds 2-4 --no-progress --out " + cand)
            .code == 0);
  // The report of one bench of both on the seeds they share (2 and 3).
  CHECK(run_tactica("bench " + good_and_weak() + " --seeds 2-3 --no-progress --out " + both).code ==
        0);
  auto r = run_tactica("merge --runs " + ref + " " + cand);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "paired difference against good"));
  const auto diff_row = [](const std::string& out) {
    const auto at = out.find("\nweak ", out.find("paired difference"));
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at + 1) - at);
  };
  CHECK(!diff_row(r.out).empty());
  CHECK(diff_row(r.out) == diff_row(run_tactica("merge " + both).out));
  CHECK(contains(bench_row(r.out, "good"), " 3 "));  // every game of each run is in its row
  CHECK(contains(bench_row(r.out, "weak"), " 3 "));
  // The order of the files sets the reference.
  r = run_tactica("merge --runs " + cand + " " + ref);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "paired difference against weak"));
  // Without --runs they are not one run.
  r = run_tactica("merge " + ref + " " + cand);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "not results of one run"));
  // A label in two runs could not be told apart.
  CHECK(run_tactica("bench --agent " + agent_cmd("hanpang", "--fault garbage --after 10") +
                    " --label good --seeds 1-3 --no-progress --out " + clash)
            .code == 0);
  r = run_tactica("merge --runs " + ref + " " + clash);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "agent 'good' is also in"));
  CHECK(contains(r.err, "--label"));
  // --out is for the shards of one run; Icebreaking tourneys are not paired by seed alone.
  r = run_tactica("merge --runs " + ref + " " + cand + " --out " + path("runs-out.jsonl"));
  CHECK(r.code == 2);
  CHECK(contains(r.err, "--out"));
  CHECK(!fs::exists(path("runs-out.jsonl")));
  const auto ice = path("runs-ice.jsonl");
  CHECK(run_tactica("tourney --agent " + agent_cmd("icebreaking") + " --label a --agent " +
                    agent_cmd("icebreaking") + " --label b --seeds 1 --no-progress --out " + ice)
            .code == 0);
  r = run_tactica("merge --runs " + ice);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "Hanpang"));
}

TEST_CASE("tourney: two agents with pentanomial pairs, three with ratings") {
  const auto out2 = path("t2.jsonl");
  auto r = run_tactica("tourney --agent " + agent_cmd("icebreaking") + " --label a --agent " +
                       agent_cmd("icebreaking", "--fault taken --after 3") +
                       " --label b --seeds 1-3 --no-progress --out " + out2);
  CHECK(r.code == 0);
  const auto lines = jsonl(out2);
  CHECK(lines.size() == 6);
  int pair_games = 0;
  for (const auto& l : lines) {
    CHECK(l["game"] == "icebreaking");
    CHECK(l["winner"] == (l["first"] == "a" ? "first" : "second"));  // b always plays a taken cell
    pair_games += l["pair"] == lines[0]["pair"];
  }
  CHECK(pair_games == 2);
  CHECK(contains(r.out, "a: W 6  D 0  L 0"));
  CHECK(contains(r.out, "WW 3"));
  // 6-0: no infinite interval and no "± 0.0", but the 95% Wilson lower bound over 6 games,
  // 6 / (6 + 1.96^2) = 0.6097, i.e. Elo 400 log10(0.6097 / 0.3903) = +77.5.
  CHECK(contains(r.out, "Elo >= +77.5 (95% Wilson lower bound over 6 games): all games won: "
                        "play more seeds"));
  CHECK_FALSE(contains(r.out, "inf"));
  CHECK_FALSE(contains(r.out, "LOS"));

  const std::string three = "--agent " + agent_cmd("icebreaking") + " --agent " +
                            agent_cmd("icebreaking", "--fault taken --after 5") + " --agent " +
                            agent_cmd("icebreaking", "--fault taken --after 0") +
                            " --label strong --label middle --label weak --seeds 1-2 --no-progress";
  const auto out3 = path("t3.jsonl");
  r = run_tactica("tourney " + three + " --out " + out3);
  CHECK(r.code == 0);
  CHECK(jsonl(out3).size() == 12);
  CHECK(contains(r.out, "ratings"));
  CHECK(contains(r.out, "1  strong"));

  // --gauntlet: the first agent against each of the others, never the others among themselves.
  const auto outg = path("tg.jsonl");
  r = run_tactica("tourney --gauntlet --rating-interval 4 " + three + " --out " + outg);
  CHECK(r.code == 0);
  const auto g = jsonl(outg);
  CHECK(g.size() == 8);  // 2 seeds x 2 opponents x both sides
  for (const auto& l : g) CHECK((l["first"] == "strong" || l["second"] == "strong"));
  CHECK(contains(r.err, "a gauntlet of the first"));
  CHECK(contains(r.err, "standings after 4 games:"));  // --rating-interval 4: after 4 and 8
  CHECK(contains(r.err, "standings after 8 games:"));
  CHECK_FALSE(contains(r.err, "standings after 6 games:"));
  CHECK(contains(r.out, "1  strong"));
}

TEST_CASE("tourney --sprt stops as soon as H1 is accepted") {
  const auto out = path("sprt.jsonl");
  // Every pair is WW for the first agent: the LLR for nElo 0 vs 100 crosses the upper bound
  // (ln 9 = 2.20 for alpha = beta = 0.1) after a handful of pairs.
  auto r = run_tactica(
      "tourney --agent " + agent_cmd("icebreaking") + " --agent " +
      agent_cmd("icebreaking", "--fault garbage --at-ready") +
      " --sprt elo0=0 elo1=100 alpha=0.1 beta=0.1 --seeds 1-200 -j 1 --no-progress --out " + out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, "H1 accepted"));
  const auto n = jsonl(out).size();
  CHECK(n >= 2);
  CHECK(n < 60);
  r = run_tactica("merge " + out + " --sprt elo0=0 elo1=100 alpha=0.1 beta=0.1");
  CHECK(contains(r.out, "H1 accepted"));
}

TEST_CASE("configs run through tactica-agent; suite files give the options") {
  const auto cfg = temp_dir() / "mine.toml";
  std::ofstream(cfg) << "# a config\ngame = \"hanpang\"\nstrategy = \"greedy\"\n";
  const std::string env = "TACTICA_AGENT=" + std::string(TEST_AGENT);
  auto r = run_tactica("judge hanpang --seed 1 --agent " + cfg.string(), env);
  CHECK(r.code == 0);
  CHECK(contains(r.out, ", mine: score"));
  r = run_tactica(
      "judge icebreaking --seed 1 --first " + cfg.string() + " --second " + cfg.string(), env);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "is for hanpang, not icebreaking"));
  r = run_tactica("judge hanpang --seed 1 --agent " + cfg.string(),
                  "TACTICA_AGENT=/nonexistent/tactica-agent");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "tactica-agent"));

  const auto suite = temp_dir() / "suite.toml";
  std::ofstream(suite) << "[bench]\nagent = [\"" << cfg.string() << "\", \"" << TEST_AGENT
                       << " --game hanpang\"]\nseeds = \"1-2\"\nno-progress = true\n"
                       << "[tourney]\nagent = [\"x\", \"y\"]\nsprt = \"elo0=0 elo1=5\"\n";
  const auto out = path("suite.jsonl");
  r = run_tactica("bench --suite " + suite.string() + " --out " + out, env);
  CHECK(r.code == 0);
  CHECK(jsonl(out).size() == 4);
  CHECK(contains(r.out, "mine"));
  // The command line takes precedence over the file.
  const auto out2 = path("suite2.jsonl");
  r = run_tactica("bench --suite " + suite.string() + " --seeds 3 --out " + out2, env);
  CHECK(r.code == 0);
  CHECK(jsonl(out2).size() == 2);
}

TEST_CASE("bad input: one line, non-zero exit") {
  auto r = run_tactica("judge hanpang --seed 1 --agent /nonexistent/agent");
  CHECK(r.code == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(contains(r.err, "/nonexistent/agent"));
  r = run_tactica("bench --agent " + agent_cmd("hanpang") + " --seeds 5-1 --no-progress --out " +
                  path("x.jsonl"));
  CHECK(r.code == 2);
  CHECK(contains(r.err, "seed"));
  r = run_tactica("bench --agent " + agent_cmd("hanpang") + " --shard 3/2 --no-progress --out " +
                  path("y.jsonl"));
  CHECK(r.code == 2);
  CHECK(contains(r.err, "K/N"));
  r = run_tactica("tourney --agent " + agent_cmd("icebreaking") +
                  " --sprt elo0=5 elo1=1 --no-progress --out " + path("z.jsonl") + " --agent " +
                  agent_cmd("icebreaking"));
  CHECK(r.code == 2);
  CHECK(contains(r.err, "elo0 < elo1"));
  const auto junk = temp_dir() / "junk.jsonl";
  std::ofstream(junk) << "{\"game\":\"hanpang\"}\nnot json\n";
  r = run_tactica("merge " + junk.string());
  CHECK(r.code == 2);
  CHECK(contains(r.err, "junk.jsonl"));
  r = run_tactica("judge hanpang --agent " + agent_cmd("hanpang"));
  CHECK(r.code != 0);
  CHECK(contains(r.err, "--seed"));
}

TEST_CASE("Ctrl-C: games stop, agents are killed, the results file stays valid") {
  using namespace tactica::harness;
  const auto out = path("int.jsonl");
  const std::string marker = (temp_dir() / "int-marker").string();
  auto p = Process::spawn(
      {TACTICA_BIN, "bench", "--agent",
       std::string(TEST_AGENT) + " --game hanpang --fault sleep --after 2 --pidfile " + marker,
       "--seeds", "1-10", "-j", "2", "--no-progress", "--out", out},
      ProcessLimits{});
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ::kill(p->pid(), SIGINT);
  CHECK(p->wait_exit(std::chrono::seconds(10)));
  REQUIRE(p->exit_status());
  CHECK(p->exit_status()->code == 130);
  p->drain_stderr();
  // The hint is the command itself, with --out FILE turned into --resume FILE.
  CHECK(contains(p->stderr_tail(), "continue with:\n  " + std::string(TACTICA_BIN) +
                                       " bench --agent '" + std::string(TEST_AGENT) +
                                       " --game hanpang --fault sleep --after 2 --pidfile " +
                                       marker + "' --seeds 1-10 -j 2 --no-progress --resume " +
                                       out + "\n"));
  p->terminate();
  // No test agent of that run is left.
  for (const auto& e : fs::directory_iterator("/proc")) {
    const auto cmdline = read_proc(e.path() / "cmdline");
    CHECK_MESSAGE(!contains(cmdline, marker), e.path().string());
  }
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line)) CHECK_NOTHROW(nlohmann::json::parse(line));
}

// One field of /proc/PID/status ("SigIgn", "PPid", ...), without its name; empty if absent.
static std::string status_field(pid_t pid, const std::string& name) {
  std::istringstream in(read_proc("/proc/" + std::to_string(pid) + "/status"));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(name + ":", 0) == 0) return line.substr(name.size() + 1);
  return {};
}

// The ignored-signal mask (hex; bit N-1 is signal N).
static unsigned long long ignored_signals(pid_t pid) {
  return std::stoull(status_field(pid, "SigIgn"), nullptr, 16);
}

TEST_CASE("an agent's keeper outlives termination signals; the agent gets the defaults") {
  // `pkill tactica` reaches the keepers (forks of tactica): the game in flight must not end in
  // a fault before the harness sees the stop. The agent itself must still be killable.
  using namespace tactica::harness;
  auto p = Process::spawn({"/bin/cat"}, ProcessLimits{});
  const pid_t keeper = static_cast<pid_t>(std::stol(status_field(p->pid(), "PPid")));
  REQUIRE(keeper > 1);
  CHECK(keeper != ::getpid());
  for (const int sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM}) {
    CHECK((ignored_signals(keeper) >> (sig - 1) & 1) == 1);
    CHECK((ignored_signals(p->pid()) >> (sig - 1) & 1) == 0);
    ::kill(keeper, sig);
  }
  CHECK((ignored_signals(p->pid()) >> (SIGPIPE - 1) & 1) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(p->exited());
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  CHECK(p->write_line("still here", deadline) == Process::WriteStatus::ok);
  const auto r = p->read_line(deadline, std::chrono::milliseconds(50), [] { return true; });
  CHECK(r.kind == Process::Read::line);
  CHECK(r.text == "still here");
  ::kill(p->pid(), SIGTERM);
  CHECK(p->wait_exit(std::chrono::seconds(5)));
  REQUIRE(p->exit_status());
  CHECK(p->exit_status()->signal == SIGTERM);
  p->terminate();
}

TEST_CASE("the CPU cap option reaches the judge") {
  const auto r = run_tactica("judge icebreaking --seed 1 --json --cpu-ms 100 --first " +
                             agent_cmd("icebreaking") + " --second " +
                             agent_cmd("icebreaking", "--fault burn-per-move --ms 60"));
  CHECK(r.code == 0);
  const auto line = nlohmann::json::parse(r.out);
  CHECK(line["verdict"] == "CPU_LIMIT");
  CHECK(line["winner"] == "first");
}

TEST_CASE("the platform's limits are the defaults, and the real 5,000 ms CPU cap is enforced") {
  const tactica::harness::Limits defaults;
  CHECK(defaults.bank_ms == 5000);
  CHECK(defaults.cpu_ms == 5000);
  // Both sides spend about 4.3 s of their 5 s banks (120 ms a move); the second leaves eight
  // children burning CPU, which reach 5,000 ms of CPU long before the game ends (about 2.5 s on
  // two idle cores). On a machine so busy that they could not get 0.6 of a core over the game,
  // the test cannot tell anything and says so instead.
  double load = 0;
  std::ifstream("/proc/loadavg") >> load;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (load > 2.0 * cores) {
    MESSAGE("skipped the real-cap game: load average " << load << " on " << cores << " cores");
    return;
  }
  const auto r = run_tactica("judge icebreaking --seed 1 --json --first " +
                             agent_cmd("icebreaking", "--fault slow --ms 120") + " --second " +
                             agent_cmd("icebreaking", "--fault slow --ms 120 --burn-children 8"));
  CHECK(r.code == 0);
  const auto line = nlohmann::json::parse(r.out);
  CHECK(line["verdict"] == "CPU_LIMIT");
  CHECK(line["winner"] == "first");
  CHECK(contains(line["detail"].get<std::string>(), "5000 ms cap"));
}

TEST_CASE("plugins lists the modules tactica-agent would load") {
  auto r = run_tactica("plugins --json");
  CHECK(r.code == 0);
  const auto list = nlohmann::json::parse(r.out);
  CHECK(list.is_array());
#ifdef TACTICA_HAVE_GREEDY_PLUGIN
  bool found = false;
  for (const auto& p : list)
    if (p["name"] == "greedy") {
      found = true;
      CHECK(p["games"].contains("hanpang"));
      CHECK(p["games"].contains("icebreaking"));
    }
  CHECK(found);
  r = run_tactica("plugins --game icebreaking");
  CHECK(r.code == 0);
  CHECK(contains(r.out, "greedy, icebreaking"));
  CHECK_FALSE(contains(r.out, "greedy, hanpang"));
#endif
  r = run_tactica("plugins --game chess");
  CHECK(r.code != 0);
}

namespace {

// What `tactica-agent --config FILE --check` prints as its error, without its prefix.
std::string agent_check_error(const std::string& config) {
  const auto err = temp_dir() / "check-stderr";
  const std::string cmd = (fs::path(TACTICA_BIN).parent_path() / "tactica-agent").string() +
                          " --config " + config + " --check >/dev/null 2>" + err.string();
  const int st = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(st) == 2);
  std::string line = slurp(err);
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  if (!line.empty() && line.back() == '\n') line.pop_back();
  const std::string prefix = "tactica-agent: error: ";
  REQUIRE(line.rfind(prefix, 0) == 0);
  return line.substr(prefix.size());
}

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

#ifdef TACTICA_HAVE_GREEDY_PLUGIN
TEST_CASE("every config is checked before any game: the full line of tactica-agent --check") {
  const auto typo = temp_dir() / "typo.toml";
  std::ofstream(typo) << "game = \"hanpang\"\nstrategy = \"greedy\"\n\n[params]\ndeph = 3\n";
  const auto ice_typo = temp_dir() / "ice-typo.toml";
  std::ofstream(ice_typo) << "game = \"icebreaking\"\nstrategy = \"greedy\"\n[time]\nreserve = 1\n";
  const auto unbuilt = temp_dir() / "unbuilt.toml";
  std::ofstream(unbuilt) << "game = \"hanpang\"\nstrategy = \"notbuilt\"\n";
  const auto misspelt = temp_dir() / "misspelt.toml";
  std::ofstream(misspelt) << "game = \"hanpnag\"\nstrategy = \"greedy\"\n";
  const std::string good = "configs/hanpang/greedy.toml", ice_good = "configs/icebreaking/greedy.toml";

  for (const auto& bad : {typo, unbuilt, misspelt}) {
    const std::string want = agent_check_error(bad.string());
    CHECK(want.size() > 0);
    const auto out = path("checked.jsonl");
    auto r = run_tactica("bench --no-progress --agent " + good + " --agent " + bad.string() +
                         " --out " + out);
    CHECK(r.code == 2);
    CHECK(r.err == "tactica bench: " + want + "\n");  // whole, untruncated, one line
    CHECK_FALSE(fs::exists(out));                     // no game was played
    r = run_tactica("judge hanpang --seed 1 --agent " + bad.string());
    CHECK(r.code == 2);
    CHECK(r.err == "tactica judge: " + want + "\n");
    CHECK(r.out.empty());
  }
  CHECK(contains(agent_check_error(typo.string()), "typo.toml:5: params.deph: unknown parameter"));
  CHECK(contains(agent_check_error(unbuilt.string()), "no plugin 'notbuilt'"));
  CHECK(contains(agent_check_error(misspelt.string()),
                 "game: unknown game \"hanpnag\"; allowed: \"hanpang\", \"icebreaking\""));

  const std::string want = agent_check_error(ice_typo.string());
  CHECK(contains(want, "ice-typo.toml:4: time.reserve: unknown key in [time]"));
  const auto out = path("checked-t.jsonl");
  auto r = run_tactica("tourney --no-progress --agent " + ice_good + " --agent " +
                       ice_typo.string() + " --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err == "tactica tourney: " + want + "\n");
  CHECK_FALSE(fs::exists(out));
  r = run_tactica("judge icebreaking --seed 1 --first " + ice_good + " --second " +
                  ice_typo.string());
  CHECK(r.code == 2);
  CHECK(r.err == "tactica judge: " + want + "\n");

  // A suite file's agents are checked the same way.
  const auto suite = temp_dir() / "checked-suite.toml";
  std::ofstream(suite) << "[bench]\nagent = [\"" << good << "\", \"" << typo.string() << "\"]\n";
  r = run_tactica("bench --no-progress --suite " + suite.string() + " --out " + path("s.jsonl"));
  CHECK(r.code == 2);
  CHECK(r.err == "tactica bench: " + agent_check_error(typo.string()) + "\n");
}

TEST_CASE("--set N:key=value and --each change one or every config agent, checked first") {
  const std::string good = "configs/hanpang/greedy.toml";
  const auto out = path("sets.jsonl");
  auto r = run_tactica("bench --no-progress --seeds 1 --agent " + good + " --agent " + good +
                       " --set 2:params.flat_ties=false --each seed=3 --out " + out);
  CHECK(r.code == 0);
  CHECK(jsonl(out).size() == 2);
  CHECK(contains(r.out, "greedy#2"));
  // A bad value is refused before any game, with tactica-agent's own words.
  r = run_tactica("bench --no-progress --seeds 1 --agent " + good + " --agent " + good +
                  " --set 2:params.flat_ties=3 --out " + path("sets2.jsonl"));
  CHECK(r.code == 2);
  CHECK(r.err ==
        "tactica bench: --set params.flat_ties=3: params.flat_ties: expected boolean, got an "
        "integer\n");
  r = run_tactica("bench --no-progress --agent " + good + " --agent " + good +
                  " --set params.flat_ties=false");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "say which agent, e.g. --set 2:params.flat_ties=false"));
  r = run_tactica("bench --no-progress --agent " + good + " --set 3:seed=1");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "no agent '3'; allowed: 1..1"));
  r = run_tactica("bench --no-progress --agent " + agent_cmd("hanpang") + " --set 1:seed=1");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "--set changes configs (.toml) only"));
  r = run_tactica("judge hanpang --seed 2 --json --agent " + good + " --set seed=5");
  CHECK(r.code == 0);
}
#endif

TEST_CASE("suite files are read strictly: unknown keys, sections and syntax give file:line") {
  const auto suite = temp_dir() / "strict.toml";
  std::ofstream(suite) << "# a suite\n[bench]\nagent = [\"x\"]\nseed = \"1-3\"\n";
  auto r = run_tactica("bench --suite " + suite.string());
  CHECK(r.code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK(contains(r.err, suite.string() + ":4: [bench] seed: unknown key (did you mean seeds?); "
                                         "allowed: agent, label, seeds"));
  std::ofstream(suite) << "[bench]\nagent = [\"x\"\n";
  r = run_tactica("bench --suite " + suite.string());
  CHECK(r.code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK(contains(r.err, suite.string() + ":2: TOML syntax error"));
  std::ofstream(suite) << "\n[bnech]\nagent = [\"x\"]\n";
  r = run_tactica("bench --suite " + suite.string());
  CHECK(r.code == 2);
  CHECK(contains(r.err, suite.string() + ":2: bnech: unknown section (did you mean bench?); "
                                         "allowed: [bench], [tourney]"));
  std::ofstream(suite) << "agent = \"x\"\n";
  r = run_tactica("bench --suite " + suite.string());
  CHECK(r.code == 2);
  CHECK(contains(r.err, suite.string() + ":1: agent:"));
  r = run_tactica("bench --suite " + (temp_dir() / "no-such-suite.toml").string());
  CHECK(r.code == 2);
  CHECK(count_lines(r.err) == 1);
  // The shipped suites are valid (their agents are checked only when played).
  for (const auto& e : fs::directory_iterator("configs/suites")) {
    const std::string which =
        contains(slurp(e.path()), "[tourney]") ? "tourney --seeds 1-0" : "bench --seeds 1-0";
    r = run_tactica(which + " --suite " + e.path().string());
    CHECK_MESSAGE(contains(r.err, "bad seed range '1-0'"), std::string(e.path().string() + ": " + r.err));
  }
}

TEST_CASE("suite values CLI11 refuses name the file's line, the key and what is allowed") {
  const auto suite = temp_dir() / "values.toml";
  struct Case {
    std::string command, text, want;
  };
  const Case cases[] = {
      {"bench", "[bench]\nagent = [\"x\"]\n\nworkers = \"many\"\n",
       ":4: [bench] workers: Value many not in range 1 to 4096; allowed: one integer in "
       "[1 - 4096] (--workers: games played at once"},
      {"bench", "[bench]\nagent = [\"x\"]\nmemory-mb = 5\n",
       ":3: [bench] memory-mb: Value 5 not in range 16 to 1048576; allowed: one integer in "
       "[16 - 1048576] (--memory-mb: resident memory"},
      {"tourney", "[tourney]\nagent = [\"x\", \"y\"]\naccounting = \"cgroups\"\n",
       ":3: [tourney] accounting: cgroups not in {auto,cgroup,proc}; allowed: one of auto, "
       "cgroup, proc (--accounting: how agents are counted"},
      {"bench", "[bench]\nagent = [\"x\"]\nseeds = [\"1-3\", \"5\"]\n",
       ":3: [bench] seeds: At Most 1 required but received 2; allowed: one string (--seeds: "
       "seeds, e.g. 1-30"},
  };
  for (const auto& c : cases) {
    std::ofstream(suite) << c.text;
    const auto r = run_tactica(c.command + " --suite " + suite.string());
    CHECK_MESSAGE(r.code == 2, r.err);
    CHECK(count_lines(r.err) == 1);
    CHECK_MESSAGE(contains(r.err, "tactica: " + suite.string() + c.want), r.err);
  }
  // A bad value under [bench] stops a tourney too (CLI11 reads every section): it is named.
  std::ofstream(suite) << "[bench]\nworkers = \"many\"\n[tourney]\nagent = [\"x\", \"y\"]\n";
  auto t = run_tactica("tourney --suite " + suite.string());
  CHECK(t.code == 2);
  CHECK_MESSAGE(contains(t.err, "tactica: " + suite.string() + ":2: [bench] workers: "), t.err);
  // The command line takes precedence: a bad value given there is named as the command line's.
  std::ofstream(suite) << "[bench]\nagent = [\"x\"]\nworkers = 2\n";
  auto r = run_tactica("bench --suite " + suite.string() + " -j 0");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "tactica bench: --workers: Value 0 not in range 1 to 4096"));
  CHECK(!contains(r.err, suite.string()));
}

TEST_CASE("command-line errors: exit 2, one line, the bad word and the choices") {
  struct Case {
    std::string args, want;
  };
  const std::string agent = agent_cmd("hanpang");
  const Case cases[] = {
      {"judge hanpnag --seed 1 --agent x",
       "tactica judge: unknown game 'hanpnag'; choose: hanpang, icebreaking (did you mean "
       "hanpang?)"},
      {"bnech", "tactica: unknown command 'bnech'; choose: judge, bench, tourney"},
      {"", "tactica: give a command: judge, bench"},
      {"judge", "tactica judge: give a game: hanpang, icebreaking"},
      {"bench --agentt x", "tactica bench: unknown option '--agentt' (did you mean --agent?); "
                           "options: --agent, --label, --seeds"},
      {"judge hanpang --seed -1 --agent " + agent,
       "tactica judge hanpang: --seed: '-1' is not a seed; allowed: a whole number "
       "0..18446744073709551615"},
      {"judge hanpang --seed 1x --agent " + agent, "'1x' is not a seed"},
      {"judge icebreaking --seed 18446744073709551616 --first x --second y",
       "'18446744073709551616' is not a seed"},
      {"bench --seeds -1 --agent " + agent, "bad seed range '-1'"},
      {"bench -j many --agent " + agent, "tactica bench: --workers: "},
      {"judge hanpang --seed 1 --agent dist/nothing/agent",
       "agent 'dist/nothing/agent': no such file 'dist/nothing/agent'; paths are relative to "
       "the current directory, " +
           fs::current_path().string()},
      {"judge hanpang --seed 1 --agent mine.toml", "no such file 'mine.toml'; paths are relative"},
      {"judge hanpang --seed 1 --agent 'dist/x --fast'", "no such file 'dist/x'"},
  };
  for (const auto& c : cases) {
    const auto r = run_tactica(c.args);
    CHECK_MESSAGE(r.code == 2, c.args);
    CHECK_MESSAGE(count_lines(r.err) == 1, std::string(c.args + ": " + r.err));
    CHECK_MESSAGE(contains(r.err, c.want), std::string(c.args + ": " + r.err));
  }
  // C++ source: compile it, and how; a binary without x: chmod, no python hint.
  const auto src = temp_dir() / "main.cpp";
  std::ofstream(src) << "int main() {}\n";
  auto r = run_tactica("judge hanpang --seed 1 --agent " + src.string());
  CHECK(r.code == 2);
  const std::string bin = (temp_dir() / "main").string();
  CHECK(contains(r.err, "is C++ source, not a program: compile it as the platform does, g++ "
                        "-std=c++20 -O2 -o " +
                            bin + " " + src.string() + ", then give --agent " + bin));
  const auto copy = temp_dir() / "agent-without-x";
  fs::copy_file(TEST_AGENT, copy, fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write);
  r = run_tactica("judge hanpang --seed 1 --agent " + copy.string());
  CHECK(r.code == 2);
  CHECK(contains(r.err, "is a program without execute permission: chmod +x " + copy.string()));
  CHECK_FALSE(contains(r.err, "python"));
  // --help still exits 0.
  r = run_tactica("bench --help");
  CHECK(r.code == 0);
  CHECK(contains(r.out, "--bank-ms"));
  CHECK(contains(r.out, "--each"));
}

TEST_CASE("the resume hint is the exact command: --out FILE becomes --resume FILE") {
  using tactica::harness::resume_command;
  CHECK(resume_command({"tactica", "bench", "--agent", "a b", "-o", "r.jsonl", "--seeds", "1-3"},
                       "r.jsonl") == "tactica bench --agent 'a b' --seeds 1-3 --resume r.jsonl");
  CHECK(resume_command({"build/release/bin/tactica", "tourney", "--out=x y.jsonl", "--agent",
                        "it's"},
                       "x y.jsonl") ==
        "build/release/bin/tactica tourney --agent 'it'\\''s' --resume 'x y.jsonl'");
  CHECK(resume_command({"tactica", "bench", "--agent", "a", "--resume", "old.jsonl"}, "old.jsonl") ==
        "tactica bench --agent a --resume old.jsonl");
  CHECK(resume_command({"tactica", "bench", "--agent", "a"}, "results/bench-1.jsonl") ==
        "tactica bench --agent a --resume results/bench-1.jsonl");
}

TEST_CASE("results files: values checked, file:line, nothing changed, torn lines named, locks") {
  const std::string two = agents_a_b("hanpang", "--fault slow --ms 1");
  const auto good = path("rec-good.jsonl");
  auto r = run_tactica("bench " + two + " --seeds 1-2 --no-progress --out " + good);
  REQUIRE(r.code == 0);
  const std::string text = slurp(good);
  const auto lines = jsonl(good);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0]["accounting"].is_string());

  // One bad value on line 2 of an otherwise good file.
  const auto with = [&](const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    return with_line_2(lines, name, edit);
  };
  const std::vector<BadLine> bad = {
      {"huge-score", [](nlohmann::json& j) { j["score"] = 1e308; }, "\"score\""},
      {"score-range", [](nlohmann::json& j) { j["score"] = 9000000000000LL; }, "out of range"},
      {"neg-score", [](nlohmann::json& j) { j["score"] = -1; }, "\"score\""},
      {"frac-seed", [](nlohmann::json& j) { j["seed"] = 1.5; }, "\"seed\""},
      {"neg-seed", [](nlohmann::json& j) { j["seed"] = -2; }, "\"seed\""},
      {"index", [](nlohmann::json& j) { j["agent_index"] = 7; }, "index 7"},
      {"actions", [](nlohmann::json& j) { j["actions"] = 201; }, "\"actions\""},
      {"time", [](nlohmann::json& j) { j["time_ms"] = -5; }, "\"time_ms\""},
      {"twice",
       [&](nlohmann::json& j) {
         j = lines[0];
         j["score"] = j["score"].get<int>() + 1;
       },
       "already at"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.name);
    const auto p = with(std::string("rec-") + b.name + ".jsonl", b.edit);
    const std::string before = slurp(p);
    r = run_tactica("merge " + p);
    CHECK(r.code == 2);
    CHECK(contains(r.err, p + ":2: "));
    CHECK(contains(r.err, b.says));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    // --resume refuses the same file before writing anything.
    r = run_tactica("bench " + two + " --seeds 1-3 --no-progress --resume " + p);
    CHECK(r.code == 2);
    CHECK(contains(r.err, p + ":2: "));
    CHECK(slurp(p) == before);
  }

  // Control bytes from a file are never printed raw.
  const auto esc = with("rec-esc.jsonl", [](nlohmann::json& j) { j["detail"] = "x"; });
  {
    auto copy = lines;
    for (auto& l : copy) l["agent"] = l["agent"].get<std::string>() + "\x1b[2J\x07";
    write_jsonl(esc, copy);
  }
  r = run_tactica("merge " + esc);
  CHECK(r.code == 0);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
  CHECK(contains(r.out, "\\x1b[2J"));

  // A torn last line is named, not silently dropped; /dev/zero is refused at once.
  const auto torn = path("rec-torn.jsonl");
  std::ofstream(torn, std::ios::binary) << text << "{\"game\":\"hanp";
  r = run_tactica("merge " + torn);
  CHECK(r.code == 0);
  CHECK(contains(r.err, torn + ":5: torn last line"));
  r = run_tactica("merge /dev/zero");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "longer than"));

  // A results file being written is locked: a second run on it is refused.
  const auto locked = path("rec-lock.jsonl");
  using namespace tactica::harness;
  auto first = Process::spawn({TACTICA_BIN, "bench", "--agent",
                               std::string(TEST_AGENT) + " --game hanpang --fault slow --ms 30",
                               "--seeds", "1-2", "-j", "1", "--no-progress", "--out", locked},
                              ProcessLimits{});
  for (int i = 0; i < 200 && !fs::exists(locked); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  r = run_tactica("bench --agent " + agent_cmd("hanpang") + " --seeds 1-2 --no-progress --resume " +
                  locked);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "another tactica run"));
  CHECK(first->wait_exit(std::chrono::seconds(30)));
  first->terminate();
  CHECK(jsonl(locked).size() == 2);
}

TEST_CASE("tourney results: totals within the board, winner agrees, one pair per seed") {
  const auto good = path("trec-good.jsonl");
  auto r = run_tactica("tourney " + agents_a_b("icebreaking", "--fault slow --ms 1") +
                       " --seeds 1-2 --no-progress --out " + good);
  REQUIRE(r.code == 0);
  const auto lines = jsonl(good);
  REQUIRE(lines.size() == 4);
  const auto [lo, hi] = tactica::harness::icebreaking_total_bounds(lines[1]["seed"]);
  CHECK(lo < 0);
  CHECK(hi > 0);
  const std::vector<BadLine> bad = {
      {"total-high", [&](nlohmann::json& j) { j["totals"][0] = hi + 1; }, "\"totals\""},
      {"total-low", [&](nlohmann::json& j) { j["totals"][1] = lo - 1; }, "\"totals\""},
      {"winner",
       [](nlohmann::json& j) {
         j["verdict"] = "FINISHED";
         j["totals"] = {3, 1};
         j["winner"] = "second";
       },
       "won by first"},
      {"pair", [](nlohmann::json& j) { j["pair"] = 99; }, "pair"},
      {"index", [](nlohmann::json& j) { j["second_index"] = 5; }, "index 5"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.name);
    const auto p = with_line_2(lines, std::string("trec-") + b.name + ".jsonl", b.edit);
    r = run_tactica("merge " + p);
    CHECK(r.code == 2);
    CHECK(contains(r.err, p + ":2: "));
    CHECK(contains(r.err, b.says));
  }
}
