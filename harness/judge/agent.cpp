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


}  // namespace

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

namespace {

std::string cwd_note() {
  std::error_code ec;
  const auto cwd = fs::current_path(ec);
  return "paths are relative to the current directory" + (ec ? std::string() : ", " + cwd.string());
}

AgentError no_such_file(const std::string& spec, const std::string& file) {
  return AgentError("agent '" + spec + "': no such file '" + file + "'; " + cwd_note());
}

// What the first bytes of a file say it is.
enum class FileKind { elf, script, other };
FileKind file_kind(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  char head[4] = {};
  in.read(head, sizeof head);
  if (in.gcount() == 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F')
    return FileKind::elf;
  if (in.gcount() >= 2 && head[0] == '#' && head[1] == '!') return FileKind::script;
  return FileKind::other;
}

bool is_cpp_source(const fs::path& p) {
  const auto e = p.extension().string();
  return e == ".cpp" || e == ".cc" || e == ".cxx" || e == ".c++" || e == ".C" || e == ".hpp" ||
         e == ".h";
}

// Looks like a path (rather than a command searched in PATH): has a '/', or a file extension
// of something an AGENT may be.
bool looks_like_path(const std::string& word) {
  if (word.find('/') != std::string::npos) return true;
  const auto e = fs::path(word).extension().string();
  return e == ".toml" || e == ".py" || is_cpp_source(word);
}

}  // namespace

AgentSpec resolve_agent(const std::string& spec, const fs::path& tactica_dir,
                        const std::string& game, const std::vector<std::string>& sets) {
  AgentSpec a;
  a.source = spec;
  if (spec.find_first_not_of(" \t") == std::string::npos)
    throw AgentError("empty AGENT: give a config file, an executable or a command line");
  std::error_code ec;
  const fs::path path(spec);
  const bool one_word = spec.find_first_of(" \t") == std::string::npos;
  const auto refuse_sets = [&](const std::string& what) {
    if (!sets.empty())
      throw AgentError("--set " + sets.front() + ": agent '" + spec + "' is " + what +
                       ", not a config; --set changes configs (.toml) only");
  };
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
      const bool known = g == "hanpang" || g == "icebreaking";
      if (!game.empty() && known && g != game)
        throw AgentError("config '" + spec + "' is for " + g + ", not " + game +
                         ": use a config from configs/" + game + "/");
      a.argv = {host.string(), "--config", spec};
      for (const auto& s : sets) a.argv.insert(a.argv.end(), {"--set", s});
      a.config = spec;
      return a;
    }
    if (path.extension() == ".py") {
      refuse_sets("a Python file");
      a.argv = {"python3", spec};
      return a;
    }
    if (is_cpp_source(path)) {
      auto bin = path;
      bin.replace_extension();
      if (bin == path || bin.filename() == path.filename()) bin += ".bin";
      const std::string b = bin.string().find('/') == std::string::npos ? "./" + bin.string()
                                                                         : bin.string();
      throw AgentError("agent '" + spec +
                       "' is C++ source, not a program: compile it as the platform does, "
                       "g++ -std=c++20 -O2 -o " +
                       b + " " + spec + ", then give --agent " + b);
    }
    refuse_sets("a program");
    if (!is_executable_file(path)) {
      const auto kind = file_kind(path);
      if (kind == FileKind::other)
        throw AgentError("agent '" + spec + "' is not executable: chmod +x " + spec +
                         " (or give a command line, e.g. \"python3 " + spec + "\")");
      throw AgentError("agent '" + spec + "' is " +
                       (kind == FileKind::elf ? "a program" : "a script") +
                       " without execute permission: chmod +x " + spec);
    }
    a.argv = {spec.find('/') == std::string::npos ? "./" + spec : spec};
    return a;
  }
  if (fs::exists(path, ec) && one_word)
    throw AgentError("agent '" + spec + "' is " +
                     (fs::is_directory(path, ec) ? std::string("a directory")
                                                 : std::string("not a regular file")) +
                     ": give a config (.toml), an executable, a .py file or a command line");
  if (one_word && looks_like_path(spec)) throw no_such_file(spec, spec);
  refuse_sets("a command line");
  a.label = spec;
  if (has_shell_syntax(spec)) {
    a.argv = {"/bin/sh", "-c", spec};
    return a;
  }
  a.argv = split_blanks(spec);
  const std::string& prog = a.argv[0];
  if (prog.find('/') != std::string::npos) {
    if (!fs::exists(prog, ec)) throw no_such_file(spec, prog);
    if (!is_executable_file(prog))
      throw AgentError("agent '" + spec + "': '" + prog + "' is not an executable file" +
                       (fs::is_regular_file(prog, ec) ? ": chmod +x " + prog : std::string()));
  } else if (!in_path(prog)) {
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
