// suite.hpp — suite files (--suite FILE) read as strictly as an agent config, and the one-line
// command-line errors of tactica (docs/HARNESS.md, "Suite files", "Exit status").
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace tactica::cli {

// A bad suite file; what() is "FILE:LINE: what; allowed: ...".
struct SuiteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// CLI11's config reader for --suite: TOML read with toml++, every top-level key a [section]
// named after a subcommand that takes suites (one with fallthrough: bench, tourney, ...), every
// key of a section a long option of that subcommand; values are strings, numbers, booleans or
// arrays of them (an array repeats the option). Anything else throws SuiteError with the line.
class SuiteConfig : public CLI::Config {
 public:
  explicit SuiteConfig(CLI::App* root) : root_(root) {}
  std::string to_config(const CLI::App*, bool, bool, std::string) const override { return {}; }
  std::vector<CLI::ConfigItem> from_config(std::istream& in) const override;

 private:
  CLI::App* root_;
};

// The one line for a CLI11 parse error: "tactica judge: unknown game 'hanpnag'; choose:
// hanpang, icebreaking (did you mean hanpang?)". `argv` is the command line as given.
std::string parse_error_line(const CLI::App& app, const CLI::ParseError& e,
                             const std::vector<std::string>& argv);

}  // namespace tactica::cli
