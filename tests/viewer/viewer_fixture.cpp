// viewer_fixture — makes the inputs of the browser test (tests/viewer/browser_test.py):
//   viewer_fixture replay hanpang|icebreaking SEED OUT.json [MAX_MOVES]
//   viewer_fixture html REPLAY.json OUT.html           (the library call behind `tactica view`)
//   viewer_fixture hanpang-results FIRST LAST OUT.jsonl  (two made-up agents on seeds FIRST..LAST)
//   viewer_fixture plot-hanpang RESULTS.jsonl OUT.svg
//   viewer_fixture plot-icebreaking OUT.svg            (a made-up ratings table and SPRT run)
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "replay_gen.hpp"
#include "report/plot.hpp"
#include "report/view.hpp"
#include "tactica/rng.hpp"

namespace {

int usage() {
  std::cerr << "usage: viewer_fixture replay hanpang|icebreaking SEED OUT.json [MAX_MOVES]\n"
               "       viewer_fixture html REPLAY.json OUT.html\n"
               "       viewer_fixture hanpang-results FIRST LAST OUT.jsonl\n"
               "       viewer_fixture plot-hanpang RESULTS.jsonl OUT.svg\n"
               "       viewer_fixture plot-icebreaking OUT.svg\n";
  return 2;
}

std::uint64_t number(const std::string& s) { return std::stoull(s); }

}  // namespace

int main(int argc, char** argv) {
  using namespace tactica;
  const std::vector<std::string> a(argv + 1, argv + argc);
  try {
    if (a.size() >= 4 && a[0] == "replay") {
      testing::GenOptions opt;
      opt.seed = number(a[2]);
      if (a.size() >= 5) opt.max_moves = static_cast<int>(number(a[4]));
      nlohmann::json r;
      if (a[1] == "hanpang")
        r = testing::hanpang_replay(opt);
      else if (a[1] == "icebreaking")
        r = testing::icebreaking_replay(opt);
      else
        return usage();
      report::write_text_file(a[3], r.dump(1) + "\n");
      return 0;
    }
    if (a.size() == 3 && a[0] == "html") {
      report::write_replay_html(a[1], a[2]);
      return 0;
    }
    if (a.size() == 4 && a[0] == "hanpang-results") {
      std::string out;
      for (std::uint64_t seed = number(a[1]); seed <= number(a[2]); ++seed) {
        for (int agent = 0; agent < 2; ++agent) {
          testing::GenOptions opt;
          opt.seed = seed;
          opt.greedy = agent == 0 ? 1.0 : 0.5;
          if (agent == 1 && seed % 7 == 3) opt.max_moves = 5;  // a TIME_LIMIT now and then
          const nlohmann::json r = testing::hanpang_replay(opt);
          nlohmann::json line = {{"game", "hanpang"},
                                 {"agent", agent == 0 ? "greedy" : "mix<50%>"},
                                 {"agent_index", agent},
                                 {"seed", seed},
                                 {"score", r["result"]["score"]},
                                 {"actions", r["result"]["actions"]},
                                 {"verdict", r["result"]["verdict"]},
                                 {"time_ms", 1000 + 37 * seed}};
          out += line.dump() + "\n";
        }
      }
      report::write_text_file(a[3], out);
      return 0;
    }
    if (a.size() == 3 && a[0] == "plot-hanpang") {
      std::ifstream in(a[1]);
      if (!in) throw std::runtime_error(a[1] + ": cannot open");
      report::write_text_file(a[2], report::hanpang_plot_svg(report::read_hanpang_results(in, a[1]),
                                                             "Hanpang \xE2\x80\x94 test run"));
      return 0;
    }
    if (a.size() == 2 && a[0] == "plot-icebreaking") {
      const std::vector<report::EloRow> table = {
          {"expectimax", 112.4, 61.0, 170.3, 240},
          {"mcts", 80.1, 30.2, 131.9, 240},
          {"beam", 0.0, -45.5, 45.5, 240},
          {"greedy", -192.5, -260.2, -131.0, 240},
          {"random <seeded>", -INFINITY, -INFINITY, -420.0, 240}};
      report::SprtTrace sprt;
      sprt.elo0 = 0, sprt.elo1 = 10, sprt.alpha = 0.05, sprt.beta = 0.05;
      sprt.lower = std::log(0.05 / 0.95), sprt.upper = std::log(0.95 / 0.05);
      Rng rng(11);
      double llr = 0;
      for (int games = 2; games <= 400 && llr < sprt.upper; games += 2) {
        llr += 0.035 + 0.25 * (rng.uniform() - 0.5);
        sprt.points.push_back({static_cast<double>(games), llr});
      }
      sprt.result = llr >= sprt.upper ? "H1 accepted" : "running";
      report::write_text_file(a[1], report::icebreaking_plot_svg(
                                        table, &sprt, "Icebreaking \xE2\x80\x94 test tournament"));
      return 0;
    }
  } catch (const std::exception& e) {
    std::cerr << "viewer_fixture: " << e.what() << "\n";
    return 1;
  }
  return usage();
}
