// fuse_test.cpp — the amalgamator on small made-up trees (inlining order, once-only, hoisting,
// every refusal), and `fuse` on the shipped configs (reproducible, self-describing, nothing but
// the chosen plugin, no absolute path, config errors as tactica-agent reports them).
#include "fuse/compact.hpp"
#include "fuse/fuse.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "fuse/amalgamate.hpp"
#include "tactica/config.hpp"

namespace fs = std::filesystem;
using tactica::fuse::Amalgamator;
using tactica::fuse::FuseError;

namespace {

const fs::path kSource = TACTICA_SOURCE_DIR;
const fs::path kPlugins = TACTICA_PLUGIN_DIR;

// A fresh folder under the build tree's temp area, removed at the end of the test.
struct TempTree {
  fs::path root;
  explicit TempTree(const std::string& name) {
    root = fs::temp_directory_path() /
           ("tactica_fuse_test_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::binary) << text;
  }
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The error message of `f()`, or "" if it did not throw FuseError.
template <class F>
std::string fuse_error(F f) {
  try {
    f();
  } catch (const FuseError& e) {
    return e.what();
  }
  return "";
}

// A small project: two sources, a local header, a header with a classic guard, a conditional
// standard include, an include in a comment.
void write_small_tree(const TempTree& t) {
  t.write("core/include/tactica/a.hpp",
          "// a.hpp\n#pragma once\n#include <vector>\n#include \"tactica/b.hpp\"\n"
          "inline int a() { return b() + static_cast<int>(std::vector<int>{1}.size()); }\n");
  t.write(
      "core/include/tactica/b.hpp",
      "#ifndef TACTICA_B_HPP\n#define TACTICA_B_HPP\n#include <unistd.h>\n#include <algorithm>\n"
      "inline int b() { return std::max(1, 0); }\n#endif  // TACTICA_B_HPP\n");
  t.write("plugins/p/plugin.hpp", "#pragma once\n#include \"tactica/a.hpp\"\nint p();\n");
  t.write("plugins/p/x.cpp",
          "#include \"p/plugin.hpp\"\n#include <vector>\n/* not an include:\n#include "
          "\"missing.hpp\"\n*/\n"
          "#if defined(__SSE2__)\n#include <emmintrin.h>\n#endif\nint p() { return a(); }\n");
  t.write("plugins/p/local.hpp", "#pragma once\r\ninline int local() { return 2; }\r\n");
  t.write(
      "plugins/p/y.cpp",
      "#include \"local.hpp\"\n#include \"tactica/b.hpp\"\nint q() { return b() + local(); }\n");
}

}  // namespace

TEST_CASE("standard, POSIX and intrinsics headers are allowed, nothing else") {
  for (const char* h : {"vector", "string_view", "thread", "unistd.h", "sys/wait.h", "pthread.h",
                        "cstdio", "stdio.h", "emmintrin.h"})
    CHECK_MESSAGE(tactica::fuse::is_standard_header(h), h);
  for (const char* h : {"boost/dll.hpp", "toml++/toml.h", "CLI/CLI.hpp", "nlohmann/json.hpp",
                        "doctest/doctest.h", "vector.h", ""})
    CHECK_MESSAGE(!tactica::fuse::is_standard_header(h), h);
}

TEST_CASE(
    "amalgamator: each project header once, at its first include, standard includes hoisted") {
  TempTree t("small");
  write_small_tree(t);
  Amalgamator am(t.root, {"core/include", "plugins"});
  am.add_file("plugins/p/x.cpp");
  am.add_file("plugins/p/y.cpp");
  am.add_include("p/plugin.hpp");  // already in: nothing added
  am.add_text("int main() { return p() + q() - 5; }\n");
  const std::string text = am.text();

  CHECK(am.files() == std::vector<std::string>{
                          "plugins/p/x.cpp", "plugins/p/plugin.hpp", "core/include/tactica/a.hpp",
                          "core/include/tactica/b.hpp", "plugins/p/y.cpp", "plugins/p/local.hpp"});
  CHECK(am.system_includes() == std::vector<std::string>{"unistd.h", "algorithm", "vector"});
  CHECK(text.starts_with("#include <unistd.h>\n#include <algorithm>\n#include <vector>\n\n"));
  CHECK(count(text, "inline int b()") == 1);
  CHECK(count(text, "inline int local()") == 1);
  CHECK(text.find("inline int b()") < text.find("inline int a()"));  // dependency order
  CHECK(count(text, "#pragma once") == 0);
  CHECK(count(text, "TACTICA_B_HPP") == 0);           // guard lines dropped
  CHECK(count(text, "#include <vector>") == 1);       // hoisted once
  CHECK(count(text, "#include \"") == 1);             // only the one in a comment
  CHECK(count(text, "#include <emmintrin.h>") == 1);  // conditional: kept in place
  CHECK(text.find("#include <emmintrin.h>") > text.find("#if defined(__SSE2__)"));
  CHECK(count(text, "\r") == 0);
  CHECK(count(text, t.root.string()) == 0);
  CHECK(count(text, "// ===== plugins/p/x.cpp (continued) =====") == 1);

  // And it compiles alone.
  std::ofstream(t.root / "all.cpp") << text;
  const std::string cmd = std::string(TACTICA_CXX) +
                          " -std=c++20 -Wall -Wextra -Werror -fsyntax-only " +
                          (t.root / "all.cpp").string();
  CHECK(std::system(cmd.c_str()) == 0);
}

TEST_CASE("amalgamator: what it refuses, with file:line") {
  TempTree t("refusals");
  write_small_tree(t);
  const auto attempt = [&](const std::string& body) {
    t.write("plugins/p/bad.cpp", body);
    return fuse_error([&] {
      Amalgamator am(t.root, {"core/include", "plugins"});
      am.add_file("plugins/p/bad.cpp");
    });
  };
  std::string e = attempt("int x;\n#include \"nope.hpp\"\n");
  CHECK(e.find("plugins/p/bad.cpp:2") != std::string::npos);
  CHECK(e.find("neither a project header") != std::string::npos);

  e = attempt("#include <boost/dll.hpp>\n");
  CHECK(e.find("plugins/p/bad.cpp:1: #include <boost/dll.hpp>") != std::string::npos);

  e = attempt("#ifdef X\n#include \"tactica/a.hpp\"\n#endif\n");
  CHECK(e.find("bad.cpp:2") != std::string::npos);
  CHECK(e.find("inside #if") != std::string::npos);

  e = attempt("#define H <vector>\n#include H\n");
  CHECK(e.find("bad.cpp:2") != std::string::npos);

  t.write("plugins/p/twice.hpp", "inline int twice() { return 2; }\n");
  e = attempt("#include \"p/twice.hpp\"\n");
  CHECK(e.find("plugins/p/twice.hpp") != std::string::npos);
  CHECK(e.find("#pragma once") != std::string::npos);

  e = attempt("#if 1\nint x;\n");
  CHECK(e.find("unbalanced") != std::string::npos);

  // A header outside the source tree, reached through "..".
  TempTree outside("outside");
  outside.write("evil.hpp", "#pragma once\n");
  const auto rel = fs::relative(outside.root / "evil.hpp", t.root / "plugins/p").generic_string();
  e = attempt("#include \"" + rel + "\"\n");
  CHECK(e.find("outside the source tree") != std::string::npos);
}

TEST_CASE("every plugin's sources are the *.cpp files fuse takes (all but plugin.cpp)") {
  // TACTICA_PLUGIN_SOURCES: "name:a.cpp,b.cpp|name2:...|" from each tactica_add_plugin's SOURCES.
  std::map<std::string, std::set<std::string>> declared;
  std::stringstream all(TACTICA_PLUGIN_SOURCES);
  for (std::string entry; std::getline(all, entry, '|');) {
    const auto colon = entry.find(':');
    REQUIRE(colon != std::string::npos);
    std::stringstream files(entry.substr(colon + 1));
    auto& set = declared[entry.substr(0, colon)];
    for (std::string f; std::getline(files, f, ',');) set.insert(f);
  }
  REQUIRE(!declared.empty());
  for (const auto& [name, files] : declared) {
    std::set<std::string> found;
    for (const auto& e : fs::directory_iterator(kSource / "plugins" / name)) {
      const std::string f = e.path().filename().string();
      if (f.ends_with(".cpp") && f != "plugin.cpp") found.insert(f);
    }
    CHECK_MESSAGE(found == files, "plugins/"
                                      << name
                                      << ": the .cpp files in the folder (which tactica fuse "
                                         "takes) differ from tactica_add_plugin's SOURCES");
  }
}

namespace {

tactica::fuse::FuseResult fuse_config(const std::string& config,
                                      std::vector<std::string> sets = {}) {
  tactica::fuse::FuseOptions o;
  o.config = (kSource / config).string();
  o.sets = std::move(sets);
  o.plugin_dirs = {kPlugins};
  return tactica::fuse::fuse(o);
}

std::vector<std::string> shipped_configs() {
  std::vector<std::string> out;
  for (const char* game : {"hanpang", "icebreaking"})
    for (const auto& e : fs::directory_iterator(kSource / "configs" / game))
      if (e.path().extension() == ".toml")
        out.push_back("configs/" + std::string(game) + "/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("fuse: every shipped config, reproducible and self-describing, nothing but its plugin") {
  const auto configs = shipped_configs();
  REQUIRE(configs.size() >= 2);
  for (const auto& config : configs) {
    CAPTURE(config);
    const auto r = fuse_config(config);
    const auto again = fuse_config(config);
    CHECK(r.text == again.text);  // byte-identical

    const std::string game = tactica::game_name(r.game);
    CHECK(r.text.starts_with("// main.cpp: a Tactica agent for " + game + " in one file"));
    CHECK(r.text.find("(Tactica " + std::string(tactica::fuse::project_version()) + ") from " +
                      config) != std::string::npos);
    CHECK(r.text.find("// Plugin: " + r.plugin + " " + r.plugin_version) != std::string::npos);
    CHECK(r.text.find("//   strategy = \"" + r.plugin + "\"") != std::string::npos);
    CHECK(r.text.find("[params]") != std::string::npos);
    // main() is the tiny generated one: the plugin's registry entry and the core's main.
    const std::string session = game == "hanpang" ? "HanpangSession" : "IcebreakingSession";
    const std::string main_text =
        "int main(int argc, char** argv) {\n"
        "  tactica::StrategyRegistry registry;\n"
        "  registry.add(TACTICA_PLUGIN_ENTRY(" +
        r.plugin +
        "));\n"
        "  const tactica::EmbeddedConfig config = tactica::fused::config();\n"
        "  return tactica::run_agent_main<tactica::" +
        session +
        ">(argc, argv, registry, config);\n"
        "}\n";
    CHECK(r.text.ends_with(main_text));
    CHECK(count(r.text, "int main(") == 1);
    CHECK(r.text.find("  c.strategy = \"" + r.plugin + "\";\n") != std::string::npos);

    CHECK(r.text.find("#define NDEBUG") < r.text.find("#include <"));  // asserts off, as Release
    CHECK(count(r.text, kSource.string()) == 0);                       // no absolute path
    CHECK(count(r.text, "#include \"") == 0);  // every project include inlined
    CHECK(count(r.text, "TACTICA_EXPORT_PLUGIN") == 0);
    CHECK(count(r.text, "boost") == 0);
    CHECK(count(r.text, "toml++") == 0);
    for (const auto& f : r.files) {
      CAPTURE(f);
      // Core, the plugin's own files, what strategies know per game (plugins/games/), and
      // headers only of anything shared (plugins/common/, an algorithm another plugin reuses:
      // the expectimax plugin's opponent model is the beam plugin's beam/search.hpp).
      CHECK((f.starts_with("core/include/") || f.starts_with("core/src/") ||
             f.starts_with("plugins/" + r.plugin + "/") || f.starts_with("plugins/common/") ||
             f.starts_with("plugins/games/") ||
             (f.starts_with("plugins/") && f.ends_with(".hpp"))));
      CHECK(f != "plugins/" + r.plugin + "/plugin.cpp");
      CHECK(count(r.text, "// ===== " + f + " =====\n") == 1);  // inlined exactly once
    }
    for (const char* f :
         {"core/include/tactica/agent_main.hpp", "core/include/tactica/registry.hpp"})
      CHECK(std::find(r.files.begin(), r.files.end(), f) != r.files.end());
    // Of session.hpp's parts (session_*.hpp), all but the other game's loop.
    const std::string other = game == "hanpang" ? "icebreaking" : "hanpang";
    for (const auto& e : fs::directory_iterator(kSource / "core/include/tactica")) {
      const std::string name = e.path().filename().string();
      if (name.starts_with("session_")) {
        const std::string f = "core/include/tactica/" + name;
        CAPTURE(f);
        const bool wanted = name != "session_" + other + ".hpp";
        CHECK((std::find(r.files.begin(), r.files.end(), f) != r.files.end()) == wanted);
      }
    }
  }
}

TEST_CASE("fuse: --set values are baked in and named in the header") {
  const auto r = fuse_config("configs/hanpang/greedy.toml", {"time.node_budget=1234", "seed=77"});
  CHECK(
      r.text.find("from configs/hanpang/greedy.toml --set time.node_budget=1234 --set seed=77.") !=
      std::string::npos);
  CHECK(r.text.find("  c.time.node_budget = 1234ULL;\n") != std::string::npos);
  CHECK(r.text.find("  c.seed = 77ULL;\n") != std::string::npos);
  CHECK(r.text != fuse_config("configs/hanpang/greedy.toml").text);
}

TEST_CASE("fuse: the same bytes from another checkout (--source-dir)") {
  TempTree t("checkout");
  for (const char* d : {"core/include", "plugins", "configs"}) {
    fs::create_directories((t.root / d).parent_path());
    fs::copy(kSource / d, t.root / d, fs::copy_options::recursive);
  }
  tactica::fuse::FuseOptions o;
  o.config = (t.root / "configs/icebreaking/greedy.toml").string();
  o.plugin_dirs = {kPlugins};
  o.source_dir = t.root;
  const auto r = tactica::fuse::fuse(o);
  CHECK(r.text == fuse_config("configs/icebreaking/greedy.toml").text);
  CHECK(count(r.text, t.root.string()) == 0);
}

TEST_CASE("fuse: a config outside the source tree is named by its file name only") {
  TempTree t("config");
  fs::copy_file(kSource / "configs/icebreaking/greedy.toml", t.root / "mine.toml");
  tactica::fuse::FuseOptions o;
  o.config = (t.root / "mine.toml").string();
  o.plugin_dirs = {kPlugins};
  const auto r = tactica::fuse::fuse(o);
  CHECK(r.text.find(") from mine.toml.") != std::string::npos);
  CHECK(count(r.text, t.root.string()) == 0);
}

TEST_CASE("fuse: config errors are tactica-agent's, source errors say what to do") {
  const auto config_error = [](const std::string& config, std::vector<std::string> sets) {
    try {
      fuse_config(config, std::move(sets));
    } catch (const tactica::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(config_error("configs/hanpang/nope.toml", {}).find("no such config file") !=
        std::string::npos);
  CHECK(config_error("configs/hanpang/greedy.toml", {"params.nope=1"}).find("params.nope") !=
        std::string::npos);
  CHECK(config_error("configs/hanpang/greedy.toml", {"strategy=nope"})
            .find("strategy: no plugin 'nope'") != std::string::npos);
  CHECK(
      config_error("configs/hanpang/greedy.toml", {"time.reserve_ms=-1"}).find("time.reserve_ms") !=
      std::string::npos);

  TempTree t("notatree");
  tactica::fuse::FuseOptions o;
  o.config = (kSource / "configs/hanpang/greedy.toml").string();
  o.plugin_dirs = {kPlugins};
  o.source_dir = t.root;
  const std::string e = fuse_error([&] { tactica::fuse::fuse(o); });
  CHECK(e.find("not a Tactica source tree") != std::string::npos);
  CHECK(e.find("--source-dir") != std::string::npos);
}

TEST_CASE("fuse: string literals are escaped to plain ASCII") {
  using tactica::fuse::cpp_string_literal;
  CHECK(cpp_string_literal("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(cpp_string_literal("x\n\x01\xc3\xa9") == "\"x\\012\\001\\303\\251\"");
}

TEST_CASE("compact_source strips comments and blank lines, never inside literals") {
  using tactica::fuse::compact_source;
  const std::string in =
      "// header line 1\n"
      "// header line 2\n"
      "\n"
      "#include <cstdio>  // the include stays\n"
      "/* a block\n   comment */\n"
      "int a = 1'000'000; // digit separators are not characters\n"
      "char q = '\\''; char s = '/';\n"
      "const char* t = \"not // a comment /* nor this */\";\n"
      "const char* r = R\"x(raw // kept \" /* kept */)x\";\n"
      "int b = 2/*x*/+3;   \n"
      "\n\n"
      "int main() { return a + b; }\n";
  const std::string out = compact_source(in);
  CHECK(out ==
        "// header line 1\n"
        "// header line 2\n"
        "#include <cstdio>\n"
        "int a = 1'000'000;\n"
        "char q = '\\''; char s = '/';\n"
        "const char* t = \"not // a comment /* nor this */\";\n"
        "const char* r = R\"x(raw // kept \" /* kept */)x\";\n"
        "int b = 2 +3;\n"
        "int main() { return a + b; }\n");
  CHECK(compact_source(out) == out);  // idempotent
}
