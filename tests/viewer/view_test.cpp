// The replay page: validation messages, safe embedding, self-containment.
#include "report/view.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "replay_gen.hpp"

using nlohmann::json;
using tactica::report::ViewError;

namespace {

json hanpang(std::uint64_t seed = 3) { return tactica::testing::hanpang_replay({seed, -1, 0.7}); }
json icebreaking(std::uint64_t seed = 3) {
  return tactica::testing::icebreaking_replay({seed, -1, 0.5});
}

// The message validate_replay gives, or "" if it accepts the replay.
std::string problem(const json& r) {
  try {
    tactica::report::validate_replay(r, "game.json");
  } catch (const ViewError& e) {
    return e.what();
  }
  return "";
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
    ++n;
  return n;
}

// The JSON embedded in the page, parsed back.
json embedded(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"replay-data\">";
  const std::size_t a = page.find(open);
  REQUIRE(a != std::string::npos);
  const std::size_t b = page.find("</script>", a);
  REQUIRE(b != std::string::npos);
  return json::parse(page.substr(a + open.size(), b - a - open.size()));
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("tactica_view_test_" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("generated replays of both games are valid and end as the rules say") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const json h = hanpang(seed), i = icebreaking(seed);
    CHECK(problem(h) == "");
    CHECK(problem(i) == "");
    REQUIRE(!h["moves"].empty());
    CHECK(h["result"]["score"] == h["moves"].back()["score"]);
    CHECK(h["result"]["actions"] == h["moves"].size());
    CHECK(i["result"]["verdict"] == "FINISHED");
    CHECK(i["result"]["totals"] == i["moves"].back()["totals"]);
  }
  const json cut = tactica::testing::hanpang_replay({4, 6, 0.7});
  CHECK(cut["moves"].size() == 6);
  CHECK(cut["result"]["verdict"] == "TIME_LIMIT");
  CHECK(problem(cut) == "");
}

TEST_CASE("validation names the bad field and says what was expected") {
  json r = hanpang();
  r.erase("format");
  CHECK(problem(r).find("missing field \"format\"") != std::string::npos);
  CHECK(problem(r).find("game.json: ") == 0);

  r = hanpang();
  r["format"] = "tactica-replay/9";
  CHECK(problem(r).find("unsupported format \"tactica-replay/9\"") != std::string::npos);

  r = hanpang();
  r["game"] = "chess";
  CHECK(problem(r).find("game: got \"chess\", expected one of hanpang, icebreaking") !=
        std::string::npos);

  r = hanpang();
  r["initial"].erase(r["initial"].begin());
  CHECK(problem(r).find("initial: expected 15 rows") != std::string::npos);

  r = hanpang();
  r["moves"][0]["after"][2] = "0120x000";
  CHECK(problem(r).find("moves[0].after[2]: expected 8 digits 0-3") != std::string::npos);

  r = hanpang();
  r["moves"][0]["cell"] = json::array({16, 1});
  CHECK(problem(r).find("moves[0].cell: cell [16, 1] is off the board") != std::string::npos);

  r = hanpang();
  r["moves"][0]["group"] = json::array();
  CHECK(problem(r).find("moves[0].group: expected at least one cell") != std::string::npos);

  r = hanpang();
  r["moves"][0]["score"] = "12";
  CHECK(problem(r).find("moves[0].score: expected an integer, got a string") != std::string::npos);

  r = icebreaking();
  r["moves"][1]["player"] = "third";
  CHECK(problem(r).find("moves[1].player: got \"third\"") != std::string::npos);

  r = icebreaking();
  r["initial"][4] = "0 0 0 0 x 0 0 0 0";
  CHECK(problem(r).find("initial[4]: token \"x\" is none of") != std::string::npos);

  r = icebreaking();
  r["moves"][0]["totals"] = json::array({1});
  CHECK(problem(r).find("moves[0].totals: expected 2 numbers") != std::string::npos);

  r = icebreaking();
  r["log"][0]["dir"] = "sideways";
  CHECK(problem(r).find("log[0].dir") != std::string::npos);

  r = icebreaking();
  r["limits"]["cpu_ms"] = "5000";
  CHECK(problem(r).find("limits.cpu_ms: expected a number, got a string") != std::string::npos);
  r["limits"] = 5000;
  CHECK(problem(r).find("limits: expected an object, got a number") != std::string::npos);

  CHECK(problem(json::array()).find("expected an object, got an array") != std::string::npos);

  // Display-only fields may be missing or null.
  r = icebreaking();
  r["moves"][0].erase("cpu_ms");
  r["moves"][0]["banks_ms"] = nullptr;
  r.erase("log");
  r.erase("limits");  // replays written before the judge recorded its time control
  CHECK(problem(r) == "");
}

TEST_CASE("the page embeds the replay safely and loads nothing from elsewhere") {
  json r = icebreaking(5);
  const std::string nasty = "</script><script>alert(1)</script><!-- \xE2\x80\xA8 & </SCRIPT >";
  r["log"].push_back({{"t_ms", 1.0}, {"agent", 1}, {"dir", "recv"}, {"line", nasty}});
  r["agents"][0]["label"] = "<b>bold</b> & \"quoted\"";
  const std::string page = tactica::report::replay_html(r);

  // Only the page's own two script elements end; the replay comes back unchanged.
  CHECK(count(page, "</script>") == 2);
  CHECK(count(page, "<!--") == 1);  // the template's own comment at the top
  CHECK(page.find("</SCRIPT") == std::string::npos);
  CHECK(page.find("\xE2\x80\xA8") == std::string::npos);
  CHECK(embedded(page) == r);

  // The title is escaped.
  CHECK(page.find("<title>Icebreaking seed 5 \xE2\x80\x94 &lt;b&gt;bold&lt;/b&gt; &amp; "
                  "&quot;quoted&quot; vs mix-b") != std::string::npos);

  // No external resources: no URLs, no src/href attributes, and a policy that forbids loads.
  // The one URI allowed is the SVG namespace the chart's elements are made in (a name that
  // nothing fetches), and only as that string.
  const std::string svg_ns = "'http://www.w3.org/2000/svg'";
  CHECK(count(page, svg_ns) == 1);
  std::string rest = page;
  rest.erase(rest.find(svg_ns), svg_ns.size());
  CHECK(rest.find("http://") == std::string::npos);
  CHECK(page.find("https://") == std::string::npos);
  CHECK(page.find(" src=") == std::string::npos);
  CHECK(page.find(" href=") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  CHECK(page.find("url(") == std::string::npos);
  CHECK(page.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
  CHECK(page.find("{{") == std::string::npos);
}

TEST_CASE("a replay holding invalid UTF-8 still becomes a page") {
  json r = hanpang();
  r["log"].push_back(
      {{"t_ms", 1.0}, {"agent", 0}, {"dir", "recv"}, {"line", std::string("PANG \xFF\xFE")}});
  const std::string page = tactica::report::replay_html(r);
  CHECK(embedded(page)["log"].back()["line"] == "PANG \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("write_replay_html: default name, errors for missing files, bad JSON, overwriting") {
  TempDir dir;
  const auto replay = dir.path / "game.json";
  std::ofstream(replay) << hanpang().dump();
  const auto out = tactica::report::write_replay_html(replay);
  CHECK(out == dir.path / "game.html");
  CHECK(std::filesystem::file_size(out) > 10000);

  const auto custom = tactica::report::write_replay_html(replay, dir.path / "x.html");
  CHECK(std::filesystem::exists(custom));

  auto message = [](auto&& fn) {
    try {
      fn();
    } catch (const ViewError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message([&] {
          tactica::report::write_replay_html(dir.path / "none.json");
        }).find("none.json: cannot open the replay") != std::string::npos);
  std::ofstream(dir.path / "bad.json") << "{\"format\": ";
  CHECK(message([&] {
          tactica::report::write_replay_html(dir.path / "bad.json");
        }).find("bad.json: not valid JSON") != std::string::npos);
  CHECK(message([&] {
          tactica::report::write_replay_html(replay, replay);
        }).find("would overwrite the replay itself") != std::string::npos);
  CHECK(message([&] {
          tactica::report::write_replay_html(replay, dir.path / "no" / "such" / "dir.html");
        }).find("cannot write") != std::string::npos);
}
