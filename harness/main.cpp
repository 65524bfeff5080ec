// tactica — the local judge, seed runs, tournaments and reports (docs/HARNESS.md).
// Each subcommand lives in cli/cmd_<name>.cpp and is listed once in cli/commands.def.
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/suite.hpp"
#include "process/process.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "tactica: plays Hanpang and Icebreaking agents under the platform's limits (judge), runs "
      "seed sets and tournaments with statistics (bench, tourney), joins shard results (merge)."};
  app.require_subcommand(1);
  // Suite files: the options of bench / tourney as TOML keys under [bench] / [tourney]; the
  // subcommands let --suite through to here (fallthrough), so it may follow them. Read as
  // strictly as a config (cli/suite.hpp): an unknown key or a syntax error stops with file:line.
  app.set_config("--suite", "",
                 "a suite file (configs/suites/*.toml): bench/tourney options as keys under "
                 "[bench] or [tourney]; the command line takes precedence")
      ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  const auto suite = std::make_shared<tactica::cli::SuiteConfig>(&app);
  app.config_formatter(suite);
  tactica::cli::Context ctx;
  ctx.argv.assign(argv, argv + argc);
#define TACTICA_COMMAND(name) tactica::cli::register_##name(app, ctx);
#include "cli/commands.def"
#undef TACTICA_COMMAND
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every command-line error: one line naming the bad word and the choices, exit 2; a value
    // from the suite file is named by its file:line, as a config's would be.
    const std::vector<std::string> args(ctx.argv.begin() + 1, ctx.argv.end());
    if (const auto line = tactica::cli::suite_value_error(app, *suite, e, args); !line.empty())
      std::fprintf(stderr, "tactica: %s\n", line.c_str());
    else
      std::fprintf(stderr, "%s\n", tactica::cli::parse_error_line(app, e, args).c_str());
    return 2;
  } catch (const tactica::cli::SuiteError& e) {
    std::fprintf(stderr, "tactica: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tactica: %s\n", e.what());
    tactica::harness::reap_all_children();
    return 1;
  }
  return ctx.exit_code;
}
