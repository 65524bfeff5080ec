// agent.cpp — see agent.hpp.
#include "judge/agent.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>

namespace tactica::harness {
namespace fs = std::filesystem;

std::string AgentSpec::command() const {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\"'\\$`") == std::string::npos;
    s += plain ? a : "'" + a + "'";
  }
  return s;
}

fs::path self_dir() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

fs::path tactica_agent_path(const fs::path& tactica_dir) {
  if (const char* env = std::getenv("TACTICA_AGENT"); env && *env) return env;
  return tactica_dir / "tactica-agent";
}

namespace {

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// Best effort: the value of a top-level `game = "..."` line of a TOML config.
std::string config_game(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  static const std::regex re(R"(^\s*game\s*=\s*["']([A-Za-z_]+)["'])");
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '[') break;  // a table: past the top level
    std::smatch m;
    if (std::regex_search(line, m, re)) return m[1];
  }
  return {};
}

bool has_shell_syntax(const std::string& s) {
  return s.find_first_of("\"'\\$`|&;<>()*?[]{}~#!\n") != std::string::npos;
}

std::vector<std::string> split_blanks(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == ' ' || ch == '\t') {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool in_path(const std::string& name) {
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t pos = 0;
  for (;;) {
    const auto colon = path.find(':', pos);
    std::string dir =
        path.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    if (dir.empty()) dir = ".";
    if (is_executable_file(fs::path(dir) / name)) return true;
    if (colon == std::string::npos) return false;
    pos = colon + 1;
  }
}

}  // namespace

AgentSpec resolve_agent(const std::string& spec, const fs::path& tactica_dir,
                        const std::string& game) {
  AgentSpec a;
  a.source = spec;
  if (spec.find_first_not_of(" \t") == std::string::npos)
    throw AgentError("empty AGENT: give a config file, an executable or a command line");
  std::error_code ec;
  const fs::path path(spec);
  if (fs::is_regular_file(path, ec)) {
    a.label = path.stem().string();
    if (path.extension() == ".toml") {
      const auto host = tactica_agent_path(tactica_dir);
      if (!is_executable_file(host))
        throw AgentError("config '" + spec + "' needs tactica-agent, not found at " +
                         host.string() +
                         ": build it (cmake --build build/release --target tactica-agent) or set "
                         "TACTICA_AGENT");
      const std::string g = config_game(path);
      if (!game.empty() && !g.empty() && g != game)
        throw AgentError("config '" + spec + "' is for " + g + ", not " + game +
                         ": use a config from configs/" + game + "/");
      a.argv = {host.string(), "--config", spec};
      return a;
    }
    if (path.extension() == ".py") {
      a.argv = {"python3", spec};
      return a;
    }
    if (!is_executable_file(path))
      throw AgentError("agent '" + spec + "' is not executable: chmod +x " + spec +
                       " (or give a command line, e.g. \"python3 " + spec + "\")");
    a.argv = {spec.find('/') == std::string::npos ? "./" + spec : spec};
    return a;
  }
  if (fs::exists(path, ec) && spec.find_first_of(" \t") == std::string::npos)
    throw AgentError("agent '" + spec + "' is not a regular file");
  a.label = spec;
  if (has_shell_syntax(spec)) {
    a.argv = {"/bin/sh", "-c", spec};
    return a;
  }
  a.argv = split_blanks(spec);
  const std::string& prog = a.argv[0];
  if (prog.find('/') != std::string::npos) {
    if (!is_executable_file(prog))
      throw AgentError("agent '" + spec + "': '" + prog + "' is not an executable file");
  } else if (!in_path(prog)) {
    if (a.argv.size() == 1 && (spec.ends_with(".toml") || spec.ends_with(".py")))
      throw AgentError("agent '" + spec + "': no such file");
    throw AgentError("agent '" + spec + "': command '" + prog + "' not found in PATH");
  }
  if (a.argv.size() == 1) a.label = fs::path(prog).filename().string();
  return a;
}

void make_labels_unique(std::vector<AgentSpec>& agents) {
  std::map<std::string, int> seen;
  for (auto& a : agents) {
    const int n = ++seen[a.label];
    if (n > 1) a.label += "#" + std::to_string(n);
  }
}

}  // namespace tactica::harness
