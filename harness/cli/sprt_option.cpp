// sprt_option.cpp — see sprt_option.hpp.
#include "cli/sprt_option.hpp"

#include <cstdlib>

#include "runner/runner.hpp"

namespace tactica::cli {

stats::SprtSpec parse_sprt(const std::vector<std::string>& tokens) {
  stats::SprtSpec s;
  const std::string form = ": expected --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05";
  std::vector<std::string> words;  // a suite file may give them as one string
  for (const auto& t : tokens) {
    std::size_t pos = 0;
    while ((pos = t.find_first_not_of(" \t", pos)) != std::string::npos) {
      const auto end = t.find_first_of(" \t", pos);
      words.push_back(t.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
      pos = end;
    }
  }
  for (const auto& tok : words) {
    const auto eq = tok.find('=');
    const std::string key = tok.substr(0, eq);
    if (eq == std::string::npos)
      throw harness::RunError("bad --sprt argument '" + tok + "'" + form);
    const std::string value = tok.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0')
      throw harness::RunError("bad number in --sprt '" + tok + "'" + form);
    if (key == "elo0")
      s.elo0 = v;
    else if (key == "elo1")
      s.elo1 = v;
    else if (key == "alpha")
      s.alpha = v;
    else if (key == "beta")
      s.beta = v;
    else
      throw harness::RunError("unknown --sprt key '" + key + "'" + form);
  }
  if (!(s.elo0 < s.elo1)) throw harness::RunError("--sprt needs elo0 < elo1");
  if (!(s.alpha > 0 && s.alpha < 1 && s.beta > 0 && s.beta < 1 && s.alpha + s.beta < 1))
    throw harness::RunError("--sprt needs 0 < alpha, beta < 1 and alpha + beta < 1");
  return s;
}

}  // namespace tactica::cli
