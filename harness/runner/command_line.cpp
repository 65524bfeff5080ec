// command_line.cpp — see command_line.hpp.
#include "runner/command_line.hpp"

namespace tactica::harness {

std::string shell_quote(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./=:,+@%") == std::string::npos)
    return w;
  std::string q = "'";
  for (char ch : w) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string resume_command(const std::vector<std::string>& argv, const std::string& results) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-o" || a == "--out" || a == "--resume") {
      ++i;  // and its value
      continue;
    }
    if (a.rfind("--out=", 0) == 0 || a.rfind("--resume=", 0) == 0 ||
        (a.size() > 2 && a.rfind("-o", 0) == 0 && a[2] != '-'))
      continue;
    words.push_back(a);
  }
  words.push_back("--resume");
  words.push_back(results);
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + shell_quote(w);
  return s;
}

}  // namespace tactica::harness
