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

  // Where the file read last set key `name` of [section]: "FILE:LINE", or "" if it did not.
  std::string origin(const std::string& section, const std::string& name) const;

 private:
  struct Origin {
    std::string section, name, where;
  };
  CLI::App* root_;
  mutable std::vector<Origin> origins_;  // filled by from_config (const in CLI11's interface)
};

// The one line for a CLI11 parse error: "tactica judge: unknown game 'hanpnag'; choose:
// hanpang, icebreaking (did you mean hanpang?)". `argv` is the command line as given.
std::string parse_error_line(const CLI::App& app, const CLI::ParseError& e,
                             const std::vector<std::string>& argv);

// The line for a parse error about a value the suite file gave (CLI11 refused its type, range
// or choice, or a list for a one-value option), as the config checker words it:
// "FILE:LINE: [bench] workers: Value abc not in range 1 to 4096; allowed: one integer in
// [1 - 4096] (--workers: games played at once ...)". "" when the error is about something else
// (also when the command line gave that option: then the file's value was not used).
std::string suite_value_error(const CLI::App& app, const SuiteConfig& suite,
                              const CLI::ParseError& e, const std::vector<std::string>& argv);

}  // namespace tactica::cli
