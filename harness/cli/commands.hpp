// commands.hpp — the registration functions of the subcommands listed in commands.def.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace tactica::cli {

// Shared by main and the subcommands: what the process exits with.
struct Context {
  int exit_code = 0;
  std::vector<std::string> argv;  // the command line as given (for the resume hint)
};

#define TACTICA_COMMAND(name) void register_##name(CLI::App& app, Context& ctx);
#include "cli/commands.def"
#undef TACTICA_COMMAND

}  // namespace tactica::cli
