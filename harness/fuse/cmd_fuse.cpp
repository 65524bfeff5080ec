// cmd_fuse.cpp — `tactica fuse --config FILE [--out FILE]`: the submission main.cpp of a config.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "fuse/compact.hpp"
#include "fuse/fuse.hpp"
#include "tactica/config.hpp"

namespace tactica::cli {
namespace {

struct FuseCliOptions {
  fuse::FuseOptions fuse;
  std::string out, source_dir;
  std::vector<std::string> plugin_dirs;
  bool compact = false;
};

// 107585 -> "107,585"
std::string grouped(std::size_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

int run_fuse(const FuseCliOptions& o) {
  fuse::FuseOptions f = o.fuse;
  f.source_dir = o.source_dir;
  for (const auto& d : o.plugin_dirs) f.plugin_dirs.emplace_back(d);
  fuse::FuseResult r;
  try {
    r = fuse::fuse(f);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "tactica fuse: error: %s\n", e.what());
    return 2;
  } catch (const fuse::FuseError& e) {
    std::fprintf(stderr, "tactica fuse: error: %s\n", e.what());
    return 2;
  }
  for (const auto& w : r.warnings) std::fprintf(stderr, "tactica fuse: warning: %s\n", w.c_str());
  const std::size_t full_size = r.text.size();
  if (o.compact) r.text = fuse::compact_source(r.text);
  if (o.out == "-") {
    std::fwrite(r.text.data(), 1, r.text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  const std::string out =
      o.out.empty() ? "dist/" + std::string(game_name(r.game)) + "/main.cpp" : o.out;
  try {
    fuse::write_output(out, r.text);
  } catch (const fuse::FuseError& e) {
    std::fprintf(stderr, "tactica fuse: error: %s\n", e.what());
    return 1;
  }
  const auto lines = std::count(r.text.begin(), r.text.end(), '\n');
  const std::string compacted =
      o.compact ? ", compacted from " + grouped(full_size) + " bytes" : std::string();
  std::printf(
      "tactica fuse: wrote %s (%s, %s %s; %zu files inlined, %ld lines, %s bytes = %.1f KiB%s)\n"
      "build it with: g++ -std=c++20 -O2 -o agent %s\n",
      out.c_str(), game_name(r.game), r.plugin.c_str(), r.plugin_version.c_str(), r.files.size(),
      static_cast<long>(lines), grouped(r.text.size()).c_str(),
      static_cast<double>(r.text.size()) / 1024.0, compacted.c_str(), out.c_str());
  return 0;
}

}  // namespace

void register_fuse(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<FuseCliOptions>();
  auto* f = app.add_subcommand(
      "fuse",
      "write one self-contained main.cpp from a config: the core, the config's plugin and its "
      "parameters as constants (the file to submit)");
  f->add_option("-c,--config", o->fuse.config,
                "the agent's TOML config, checked as tactica-agent checks it "
                "(e.g. configs/hanpang/submit.toml)")
      ->required();
  f->add_option("--set", o->fuse.sets,
                "override a config key before fusing, as tactica-agent --set (repeatable), e.g. "
                "--set params.width=300")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  f->add_option("-o,--out", o->out,
                "the file to write (default: dist/<game>/main.cpp; '-': standard output)");
  f->add_option("--source-dir", o->source_dir,
                std::string("the Tactica source tree to take the code from (default: ") +
                    fuse::default_source_dir() + ")");
  f->add_option("--plugin-dir", o->plugin_dirs,
                "look for libtactica_<strategy>.so here first, as tactica-agent (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  f->add_flag("--compact", o->compact,
              "strip comments and blank lines (the leading header comment stays): the same "
              "program in fewer bytes");
  f->callback([o, &ctx] { ctx.exit_code = run_fuse(*o); });
}

}  // namespace tactica::cli
