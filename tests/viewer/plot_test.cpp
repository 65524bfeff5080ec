// The SVG plots: reading results, what is drawn, and well-formed, standalone SVG.
#include "report/plot.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using tactica::report::EloRow;
using tactica::report::HanpangGame;
using tactica::report::PlotError;
using tactica::report::SprtTrace;

namespace {

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
    ++n;
  return n;
}

// A small well-formedness check: tags nest and close, attributes are quoted, no raw '&' or '<'
// in text, and nothing but the prolog precedes one <svg> root. Returns "" or the problem.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  std::size_t i = 0;
  bool root_seen = false;
  while (i < s.size()) {
    if (s[i] == '<') {
      const std::size_t end = s.find('>', i);
      if (end == std::string::npos) return "unclosed tag at " + std::to_string(i);
      std::string tag = s.substr(i + 1, end - i - 1);
      i = end + 1;
      if (tag.rfind("?xml", 0) == 0) continue;
      if (tag.empty()) return "empty tag";
      if (tag[0] == '/') {
        const std::string name = tag.substr(1);
        if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
        open.pop_back();
        continue;
      }
      const bool self = tag.back() == '/';
      if (self) tag.pop_back();
      const std::string name = tag.substr(0, tag.find_first_of(" \n\t"));
      if (open.empty()) {
        if (root_seen || name != "svg") return "element <" + name + "> outside the <svg> root";
        root_seen = true;
      }
      // Attribute values are quoted and hold no raw '<' or '&' that is not an entity.
      if (count(tag, "\"") % 2) return "unbalanced quotes in <" + name + ">";
      for (std::size_t a = tag.find('&'); a != std::string::npos; a = tag.find('&', a + 1))
        if (tag.find(';', a) == std::string::npos || tag.find(';', a) - a > 6)
          return "raw & in <" + name + ">";
      if (!self) open.push_back(name);
    } else {
      if (s[i] == '&') {
        const std::size_t semi = s.find(';', i);
        if (semi == std::string::npos || semi - i > 6) return "raw & in text";
      }
      if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i])))
        return "text outside the root";
      ++i;
    }
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  return root_seen ? "" : "no <svg> root";
}

std::vector<HanpangGame> sample_games() {
  std::vector<HanpangGame> g;
  for (int seed = 1; seed <= 30; ++seed) {
    g.push_back({"beam", 0, seed, 1000 + seed, 200, "MAX_ACTIONS"});
    g.push_back(
        {"greedy <fast> & co", 1, seed, 500 + seed, 80, seed == 4 ? "TIME_LIMIT" : "OVERFLOW"});
  }
  return g;
}

}  // namespace

TEST_CASE(
    "read_hanpang_results: skips other lines, keeps the last of a repeated game, names bad lines") {
  std::istringstream in(
      "{\"game\":\"hanpang\",\"agent\":\"beam\",\"agent_index\":0,\"seed\":3,\"score\":51234,"
      "\"actions\":200,\"verdict\":\"MAX_ACTIONS\",\"time_ms\":4210}\n"
      "\n"
      "{\"game\":\"icebreaking\",\"seed\":3,\"pair\":3,\"first\":\"mcts\",\"second\":\"greedy\","
      "\"totals\":[12,7],\"winner\":\"first\",\"verdict\":\"FINISHED\",\"time_ms\":[3100,40]}\n"
      "{\"game\":\"hanpang\",\"agent\":\"beam\",\"agent_index\":0,\"seed\":3,\"score\":60000,"
      "\"actions\":200,\"verdict\":\"MAX_ACTIONS\"}\n"
      "{\"game\":\"hanpang\",\"agent\":\"greedy\",\"agent_index\":1,\"seed\":3,\"score\":7,"
      "\"actions\":9,\"verdict\":\"INVALID\"}\n");
  const auto games = tactica::report::read_hanpang_results(in, "r.jsonl");
  REQUIRE(games.size() == 2);
  CHECK(games[0].score == 60000);
  CHECK(games[1].agent == "greedy");
  CHECK(games[1].verdict == "INVALID");

  auto error = [](const std::string& text) {
    std::istringstream s(text);
    try {
      tactica::report::read_hanpang_results(s, "r.jsonl");
    } catch (const PlotError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error("\n\n{oops\n").find("r.jsonl:3: not a JSON object") == 0);
  CHECK(error("[1,2]\n").find("r.jsonl:1: expected a JSON object") == 0);
  CHECK(error("{\"game\":\"hanpang\",\"agent\":\"x\",\"seed\":1}\n")
            .find("r.jsonl:1: a Hanpang result needs agent, seed and score") == 0);
}

TEST_CASE("hanpang_plot_svg: one series per agent, sums in the legend, failures marked") {
  const auto games = sample_games();
  const std::string svg = tactica::report::hanpang_plot_svg(games, "Run & <test>");
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" width=") != std::string::npos);
  CHECK(svg.find("<script") == std::string::npos);
  CHECK(svg.find("Run &amp; &lt;test&gt;") != std::string::npos);
  CHECK(count(svg, "<polyline") == 2);
  // 59 ordinary games as dots plus one legend dot per agent; the TIME_LIMIT game as a cross.
  CHECK(count(svg, "<circle") == 59 + 2);
  CHECK(count(svg, "stroke=\"#c00000\"") == 1);
  // sum over seeds 1..30 of 1000 + seed = 30465; of 500 + seed = 15465.
  CHECK(svg.find("sum 30,465 \xC2\xB7 mean 1,016 \xC2\xB7 30 games") != std::string::npos);
  CHECK(svg.find("sum 15,465 \xC2\xB7 mean 516 \xC2\xB7 30 games \xC2\xB7 1 failed") !=
        std::string::npos);
  CHECK(svg.find("greedy &lt;fast&gt; &amp; co") != std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);

  const std::string empty = tactica::report::hanpang_plot_svg({});
  CHECK(xml_problem(empty) == "");
  CHECK(empty.find("No Hanpang results to plot.") != std::string::npos);

  // The same label twice (two agents with one config) stays two series.
  std::vector<HanpangGame> twins = {{"beam", 0, 1, 10, 5, "OVERFLOW"},
                                    {"beam", 1, 1, 20, 5, "OVERFLOW"}};
  const std::string t = tactica::report::hanpang_plot_svg(twins);
  CHECK(t.find("beam #0") != std::string::npos);
  CHECK(t.find("beam #1") != std::string::npos);
}

TEST_CASE("icebreaking_plot_svg: a 6-0 match has a readable axis around its bound") {
  // Two agents, every game won: the report's Wilson lower bound +77.5, no point estimate.
  const std::vector<EloRow> table = {{"a vs b", INFINITY, 77.5, INFINITY, 6}};
  const std::string svg = tactica::report::icebreaking_plot_svg(table, nullptr);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find("&gt;= +77.5 (all won)") != std::string::npos);
  CHECK(svg.find("<circle") == std::string::npos);  // no dot for an estimate that does not exist
  // Ticks 0, 20, ..., 140: the bound at 77.5 is inside, not on a -1 .. 1 axis.
  CHECK(svg.find("fill=\"#444\">140</text>") != std::string::npos);
  CHECK(svg.find("fill=\"#444\">-1") == std::string::npos);
}

TEST_CASE("icebreaking_plot_svg: ratings sorted with error bars, SPRT between its bounds") {
  const std::vector<EloRow> table = {{"greedy", -50, -90, -10, 100},
                                     {"mcts", 50, 10, 90, 100},
                                     {"never-loses", INFINITY, 200, INFINITY, 100},
                                     {"broken", NAN, NAN, NAN, 0}};
  SprtTrace sprt;
  sprt.elo0 = 0, sprt.elo1 = 10;
  sprt.lower = std::log(0.05 / 0.95), sprt.upper = std::log(0.95 / 0.05);
  sprt.points = {{2, 0.1}, {4, 0.5}, {6, -0.2}, {8, 3.1}};
  sprt.result = "H1 accepted";
  const std::string svg = tactica::report::icebreaking_plot_svg(table, &sprt);
  CHECK(xml_problem(svg) == "");
  // Sorted by Elo: never-loses, mcts, greedy, broken.
  const auto at = [&](const std::string& s) { return svg.find(">" + s + "</text>"); };
  REQUIRE(at("never-loses") != std::string::npos);
  CHECK(at("never-loses") < at("mcts"));
  CHECK(at("mcts") < at("greedy"));
  CHECK(at("greedy") < at("broken"));
  CHECK(svg.find("+50.0 [+10.0, +90.0]") != std::string::npos);
  // A one-sided row shows its finite bound, never an infinite interval, and the axis runs past
  // the bound (the ticks: 0 .. 300 by 50 with the finite values -90 .. 200 and room for the
  // arrow), so the bar is visible.
  CHECK(svg.find("&gt;= +200.0 (all won)") != std::string::npos);
  CHECK(svg.find("+inf") == std::string::npos);
  CHECK(svg.find("fill=\"#444\">250</text>") != std::string::npos);
  CHECK(svg.find("accept H1 (2.94)") != std::string::npos);
  CHECK(svg.find("accept H0 (-2.94)") != std::string::npos);
  CHECK(svg.find("H1 accepted") != std::string::npos);
  CHECK(svg.find("LLR 3.10 after 8 games") != std::string::npos);
  // No coordinate is NaN or infinite.
  CHECK(svg.find("=\"nan") == std::string::npos);
  CHECK(svg.find("=\"inf") == std::string::npos);
  CHECK(svg.find("=\"-nan") == std::string::npos);
  CHECK(svg.find("=\"-inf") == std::string::npos);

  const std::string only_table = tactica::report::icebreaking_plot_svg(table, nullptr);
  CHECK(xml_problem(only_table) == "");
  CHECK(only_table.find("SPRT") == std::string::npos);
  const std::string only_sprt = tactica::report::icebreaking_plot_svg({}, &sprt);
  CHECK(xml_problem(only_sprt) == "");
  CHECK(only_sprt.find("Elo with error bars") == std::string::npos);
  CHECK(xml_problem(tactica::report::icebreaking_plot_svg({}, nullptr)) == "");
}
