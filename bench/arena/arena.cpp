// tactica-arena — in-process strength runs for strategy development: the plugins are linked in
// (no subprocess, no pipes), each move gets a deadline from a simple bank emulation or a fixed
// node budget. Fast to iterate with; `tactica bench` / `tactica tourney` are the real judges.
//
//   tactica-arena hanpang --plugin beam [--set width=300]... [--seeds 1-30] [--bank-ms 5000]
//                         [--budget N] [--jobs N] [--verbose]
//   tactica-arena icebreaking --a mcts [--seta k=v]... --b greedy [--setb k=v]...
//                         [--seeds 1-50] [--bank-ms 5000] [--budget N] [--jobs N]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tactica/static_plugins.hpp"

namespace {

using namespace tactica;
using Clock = std::chrono::steady_clock;

struct Agent {
  std::string name;
  Params params;
  const PluginEntry* plugin = nullptr;
};

struct Options {
  std::vector<std::uint64_t> seeds;
  double bank_ms = 5000;
  double reserve_ms = 300;
  std::uint64_t budget = 0;
  int jobs = 1;
  bool verbose = false;
};

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "tactica-arena: %s\n", msg.c_str());
  std::exit(2);
}

std::vector<std::uint64_t> parse_seeds(const std::string& s) {
  std::vector<std::uint64_t> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    auto comma = s.find(',', pos);
    auto part = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    auto dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        out.push_back(std::stoull(part));
      } else {
        const auto a = std::stoull(part.substr(0, dash)), b = std::stoull(part.substr(dash + 1));
        for (auto x = a; x <= b; ++x) out.push_back(x);
      }
    } catch (const std::exception&) {
      die("--seeds '" + s + "': expected a list like 1-30 or 1,5,9");
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

void set_param(Agent& a, const std::string& kv, GameKind g) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos) die("--set '" + kv + "': expected key=value");
  const auto key = kv.substr(0, eq);
  const PluginInfo info = a.plugin->describe();  // keep it alive: params() returns a reference
  const auto& specs = info.params(g);
  auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == key; });
  if (it == specs.end()) die("plugin '" + a.name + "' has no parameter '" + key + "'");
  double v = 0;
  try {
    v = kv.substr(eq + 1) == "true" ? 1.0 : kv.substr(eq + 1) == "false" ? 0.0 : std::stod(kv.substr(eq + 1));
  } catch (const std::exception&) {
    die("--set '" + kv + "': value is not a number");
  }
  if (v < it->min || v > it->max) die("--set '" + kv + "': out of range");
  a.params.set(key, v);
}

Agent make_agent(const std::string& name, GameKind g) {
  Agent a;
  a.name = name;
  try {
    a.plugin = &static_plugins().get(name);
  } catch (const PluginError& e) {
    die(e.what());
  }
  if (!a.plugin->describe().plays(g)) die("plugin '" + name + "' does not play " + game_name(g));
  return a;
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Per-move deadline from the bank: an even share of what is left over the moves still expected,
// the hard limit a few shares but never more than a quarter of what is left.
SearchLimits limits_for(const Options& o, double bank_left, int moves_left) {
  SearchLimits l;
  l.bank_ms = static_cast<std::int64_t>(bank_left);
  if (o.budget) {
    l.node_budget = o.budget;
    return l;
  }
  const double usable = std::max(0.0, bank_left - o.reserve_ms);
  const double soft = usable / std::max(1, moves_left);
  const double hard = std::min(3 * soft, usable / 4);
  l.deadline = Deadline::in(std::chrono::microseconds(static_cast<long>(soft * 1000)),
                            std::chrono::microseconds(static_cast<long>(hard * 1000)));
  return l;
}

struct HanpangResult {
  std::int64_t score = 0;
  int actions = 0;
  const char* end = "";
  double time_ms = 0;
};

HanpangResult play_hanpang(const Agent& a, std::uint64_t seed, const Options& o) {
  auto strat = a.plugin->make_hanpang(a.params);
  strat->new_game(seed);
  hanpang::RowSource rows(seed);
  hanpang::State s;
  s.push_row(rows.next());
  double bank = o.bank_ms;
  BestMove best;
  HanpangResult r;
  while (!s.over()) {
    best.reset();
    const auto t0 = Clock::now();
    const int c = strat->choose(s, limits_for(o, bank, hanpang::kMaxActions - s.actions), best);
    const double dt = ms_since(t0);
    bank -= dt;
    if (!o.budget && bank <= 0) {
      r.end = "TIME_LIMIT";
      break;
    }
    if (c < 0 || c >= 128 || !s.colour_at(c)) {
      r.end = "INVALID";
      break;
    }
    s.play(c);
    if (!s.over()) s.push_row(rows.next());
  }
  r.score = s.score;
  r.actions = s.actions;
  if (!*r.end) r.end = s.end == hanpang::End::max_actions ? "MAX_ACTIONS" : "OVERFLOW";
  r.time_ms = o.bank_ms - bank;
  return r;
}

// Runs fn(i) for i in [0, n) on o.jobs threads.
template <class Fn>
void parallel_for(int n, int jobs, Fn fn) {
  std::atomic<int> next{0};
  std::vector<std::thread> pool;
  for (int j = 0; j < std::max(1, jobs); ++j)
    pool.emplace_back([&] {
      for (int i; (i = next++) < n;) fn(i);
    });
  for (auto& t : pool) t.join();
}

int run_hanpang(const Agent& a, const Options& o) {
  std::vector<HanpangResult> res(o.seeds.size());
  std::mutex mu;
  parallel_for(static_cast<int>(o.seeds.size()), o.jobs, [&](int i) {
    res[i] = play_hanpang(a, o.seeds[i], o);
    std::lock_guard lock(mu);
    std::printf("seed %4llu  score %7lld  actions %3d  %-11s  time %6.0f ms\n",
                static_cast<unsigned long long>(o.seeds[i]), static_cast<long long>(res[i].score),
                res[i].actions, res[i].end, res[i].time_ms);
    std::fflush(stdout);
  });
  std::int64_t sum = 0;
  int survived = 0;
  double tmax = 0;
  for (const auto& r : res) {
    sum += r.score;
    survived += r.actions == hanpang::kMaxActions;
    tmax = std::max(tmax, r.time_ms);
  }
  std::printf("%s: scoreSum %lld  mean %.1f  survived %d/%zu  max time %.0f ms\n", a.name.c_str(),
              static_cast<long long>(sum), static_cast<double>(sum) / res.size(), survived, res.size(), tmax);
  return 0;
}

struct IceResult {
  int totals[2] = {0, 0};
  const char* loser_reason = "";
  int loser = -1;  // 0 first, 1 second, -1 none
  double time_ms[2] = {0, 0};
};

IceResult play_ice(const Agent* side[2], std::uint64_t seed, const Options& o) {
  const auto board = icebreaking::Board::from_seed(seed);
  std::unique_ptr<IcebreakingStrategy> strat[2] = {side[0]->plugin->make_icebreaking(side[0]->params),
                                                   side[1]->plugin->make_icebreaking(side[1]->params)};
  strat[0]->new_game(board, icebreaking::A, seed);
  strat[1]->new_game(board, icebreaking::B, seed + 1);
  auto pos = icebreaking::Position::start(board);
  double bank[2] = {o.bank_ms, o.bank_ms};
  BestMove best;
  IceResult r;
  while (!pos.over()) {
    const int me = pos.to_move;
    best.reset();
    const auto t0 = Clock::now();
    const int moves_left = popcount(pos.ice) / 2 + 1;
    const int c = strat[me]->choose(board, pos, limits_for(o, bank[me], moves_left), best);
    bank[me] -= ms_since(t0);
    if (!o.budget && bank[me] <= 0) {
      r.loser = me, r.loser_reason = "TIME_LIMIT";
      break;
    }
    if (!pos.legal(c)) {
      r.loser = me, r.loser_reason = "INVALID";
      break;
    }
    pos.play(board, c);
    strat[0]->observe(pos, c);
    strat[1]->observe(pos, c);
  }
  r.totals[0] = pos.total[0];
  r.totals[1] = pos.total[1];
  r.time_ms[0] = o.bank_ms - bank[0];
  r.time_ms[1] = o.bank_ms - bank[1];
  return r;
}

int run_ice(const Agent& a, const Agent& b, const Options& o) {
  // Each seed twice, sides swapped: game 2i has a first, game 2i+1 has b first.
  const int n = static_cast<int>(o.seeds.size()) * 2;
  std::vector<IceResult> res(n);
  std::mutex mu;
  int w = 0, d = 0, l = 0;
  double tmax[2] = {0, 0};
  parallel_for(n, o.jobs, [&](int g) {
    const bool a_first = g % 2 == 0;
    const Agent* side[2] = {a_first ? &a : &b, a_first ? &b : &a};
    res[g] = play_ice(side, o.seeds[g / 2], o);
    const auto& r = res[g];
    const int ai = a_first ? 0 : 1;
    int outcome;  // +1 a wins
    if (r.loser >= 0)
      outcome = r.loser == ai ? -1 : 1;
    else
      outcome = r.totals[ai] > r.totals[1 - ai] ? 1 : r.totals[ai] < r.totals[1 - ai] ? -1 : 0;
    std::lock_guard lock(mu);
    (outcome > 0 ? w : outcome < 0 ? l : d)++;
    tmax[0] = std::max(tmax[0], r.time_ms[ai]);
    tmax[1] = std::max(tmax[1], r.time_ms[1 - ai]);
    if (o.verbose || r.loser >= 0)
      std::printf("seed %4llu %s first: %3d - %3d %s %s\n", static_cast<unsigned long long>(o.seeds[g / 2]),
                  a_first ? a.name.c_str() : b.name.c_str(), r.totals[0], r.totals[1],
                  r.loser >= 0 ? r.loser_reason : "", r.loser >= 0 ? (r.loser == 0 ? "(first)" : "(second)") : "");
    std::fflush(stdout);
  });
  const double score = (w + 0.5 * d) / n;
  const double elo = score <= 0 ? -999 : score >= 1 ? 999 : -400 * std::log10(1 / score - 1);
  std::printf("%s vs %s: +%d =%d -%d  score %.1f%%  elo %+.0f  max time %.0f / %.0f ms\n", a.name.c_str(),
              b.name.c_str(), w, d, l, 100 * score, elo, tmax[0], tmax[1]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: tactica-arena hanpang|icebreaking [options] (see bench/arena/arena.cpp)");
  const std::string game = argv[1];
  if (game != "hanpang" && game != "icebreaking") die("unknown game '" + game + "': hanpang or icebreaking");
  const GameKind g = game == "hanpang" ? GameKind::hanpang : GameKind::icebreaking;
  Options o;
  o.seeds = parse_seeds(g == GameKind::hanpang ? "1-30" : "1-50");
  std::string names[2];
  std::vector<std::string> sets[2];
  for (int i = 2; i < argc; ++i) {
    const std::string k = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) die("option " + k + " needs a value");
      return argv[++i];
    };
    try {
      if (k == "--plugin" || k == "--a") names[0] = val();
      else if (k == "--b") names[1] = val();
      else if (k == "--set" || k == "--seta") sets[0].push_back(val());
      else if (k == "--setb") sets[1].push_back(val());
      else if (k == "--seeds") o.seeds = parse_seeds(val());
      else if (k == "--bank-ms") o.bank_ms = std::stod(val());
      else if (k == "--reserve-ms") o.reserve_ms = std::stod(val());
      else if (k == "--budget") o.budget = std::stoull(val());
      else if (k == "--jobs") o.jobs = std::stoi(val());
      else if (k == "--verbose") o.verbose = true;
      else die("unknown option '" + k + "'");
    } catch (const std::logic_error&) {
      die("option " + k + ": not a number");
    }
  }
  const int nagents = g == GameKind::hanpang ? 1 : 2;
  Agent agents[2];
  for (int i = 0; i < nagents; ++i) {
    if (names[i].empty()) die(g == GameKind::hanpang ? "--plugin NAME is required" : "--a NAME and --b NAME are required");
    agents[i] = make_agent(names[i], g);
    for (const auto& kv : sets[i]) set_param(agents[i], kv, g);
    agents[i].params.fill_defaults(agents[i].plugin->describe().params(g));
  }
  return g == GameKind::hanpang ? run_hanpang(agents[0], o) : run_ice(agents[0], agents[1], o);
}
