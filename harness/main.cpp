// tactica — the local judge, seed runs, tournaments and reports (docs/HARNESS.md).
// Each subcommand lives in cli/cmd_<name>.cpp and is listed once in cli/commands.def.
#include <cstdio>
#include <exception>

#include "cli/commands.hpp"
#include "process/process.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "tactica: plays Hanpang and Icebreaking agents under the platform's limits (judge), runs "
      "seed sets and tournaments with statistics (bench, tourney), joins shard results (merge)."};
  app.require_subcommand(1);
  // Suite files: the options of bench / tourney as TOML keys under [bench] / [tourney]; the
  // subcommands let --suite through to here (fallthrough), so it may follow them.
  app.set_config("--suite", "",
                 "a suite file (configs/suites/*.toml): bench/tourney options as keys under "
                 "[bench] or [tourney]; the command line takes precedence");
  tactica::cli::Context ctx;
#define TACTICA_COMMAND(name) tactica::cli::register_##name(app, ctx);
#include "cli/commands.def"
#undef TACTICA_COMMAND
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tactica: %s\n", e.what());
    tactica::harness::reap_all_children();
    return 1;
  }
  return ctx.exit_code;
}
