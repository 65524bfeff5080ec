// agent.hpp — what the user names as an AGENT, turned into something to run.
//
//   configs/hanpang/beam.toml    a config: run as `tactica-agent --config FILE` (tactica-agent is
//                                found beside the tactica binary, or at $TACTICA_AGENT)
//   dist/hanpang/agent           any executable file (a fused binary, a static agent, ...)
//   main.py                      a Python file: run as `python3 main.py`
//   "python3 main.py --fast"     any command line: split on blanks when it has no shell syntax,
//                                else run with /bin/sh -c
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace tactica::harness {

// A bad AGENT (missing file, unknown command, config for the other game). what() is one line.
class AgentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct AgentSpec {
  std::string label;              // in tables, results and replays
  std::vector<std::string> argv;  // what is run
  std::string source;             // what the user wrote
  std::string config;             // the config file when AGENT is a .toml (run by tactica-agent)
  std::string command() const;    // argv joined for display
};

// The tactica-agent host: $TACTICA_AGENT if set, else `tactica_dir`/tactica-agent.
std::filesystem::path tactica_agent_path(const std::filesystem::path& tactica_dir);

// Resolves one AGENT. `game` ("hanpang"/"icebreaking", or empty) is checked against a config's
// `game = "..."` line when it names one of the two games (any other value is left to
// check_agents, which reports it with the allowed values). `sets` ("key=value") are passed to
// tactica-agent as --set; they are refused for an AGENT that is not a config. Relative paths
// are relative to the current directory. Throws AgentError.
AgentSpec resolve_agent(const std::string& spec, const std::filesystem::path& tactica_dir,
                        const std::string& game = {}, const std::vector<std::string>& sets = {});

// Gives duplicate labels a suffix: beam, beam#2, beam#3.
void make_labels_unique(std::vector<AgentSpec>& agents);

// True if `name` is an executable file in a directory of $PATH.
bool in_path(const std::string& name);

// The directory of the running executable (for finding tactica-agent beside it).
std::filesystem::path self_dir();

}  // namespace tactica::harness
