// suite.cpp — see suite.hpp.
#include "cli/suite.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace tactica::cli {
namespace {

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// " (did you mean X?)" for the nearest choice within a third of the word's length, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& choices) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : choices) {
    const auto d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

// The long options of a subcommand, without --help: "--agent", "--seeds", ...
std::vector<std::string> long_options(const CLI::App& app, bool dashes = true) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    for (const auto& n : o->get_lnames())
      if (n != "help" && n != "help-all") out.push_back(dashes ? "--" + n : n);
  }
  return out;
}

std::vector<std::string> subcommand_names(const CLI::App& app, bool suites_only = false) {
  std::vector<std::string> out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!suites_only || s->get_fallthrough()) out.push_back(s->get_name());
  return out;
}

std::string scalar(const toml::node& v) {
  if (auto s = v.as_string()) return s->get();
  if (auto i = v.as_integer()) return std::to_string(i->get());
  if (auto b = v.as_boolean()) return b->get() ? "true" : "false";
  if (auto f = v.as_floating_point()) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, f->get());
    return std::string(buf, r.ptr);
  }
  return {};
}

bool is_scalar(const toml::node& v) {
  return v.is_string() || v.is_integer() || v.is_boolean() || v.is_floating_point();
}

}  // namespace

std::vector<CLI::ConfigItem> SuiteConfig::from_config(std::istream& in) const {
  origins_.clear();
  const auto* opt = root_->get_config_ptr();
  const auto files = opt ? opt->as<std::vector<std::string>>() : std::vector<std::string>{};
  const std::string file = files.empty() ? std::string("suite") : files.front();
  std::stringstream text;
  text << in.rdbuf();
  const auto at = [&](const toml::source_region& r) {
    return r.begin.line ? file + ":" + std::to_string(r.begin.line) : file;
  };
  toml::table tbl;
  try {
    tbl = toml::parse(text.str(), file);
  } catch (const toml::parse_error& e) {
    throw SuiteError(at(e.source()) + ": TOML syntax error: " + std::string(e.description()));
  }
  const auto sections = subcommand_names(*root_, true);
  std::vector<std::string> allowed_sections;
  for (const auto& s : sections) allowed_sections.push_back("[" + s + "]");
  std::vector<CLI::ConfigItem> items;
  for (auto&& [k, v] : tbl) {
    const std::string section(k.str());
    const CLI::App* sub = nullptr;
    if (std::find(sections.begin(), sections.end(), section) != sections.end())
      sub = root_->get_subcommand(section);
    if (!sub || !v.is_table())
      throw SuiteError(at(k.source()) + ": " + section + ": " +
                       (sub ? "expected a section [" + section + "]"
                            : "unknown section" + did_you_mean(section, sections)) +
                       "; allowed: " + join(allowed_sections));
    const auto names = long_options(*sub, false);
    for (auto&& [key, val] : *v.as_table()) {
      const std::string name(key.str());
      const std::string where = at(key.source()) + ": [" + section + "] " + name;
      if (std::find(names.begin(), names.end(), name) == names.end() || name == "suite")
        throw SuiteError(where + ": unknown key" + did_you_mean(name, names) + "; allowed: " +
                         join(names) + " (the long options of tactica " + section + ")");
      CLI::ConfigItem item;
      item.parents = {section};
      item.name = name;
      if (is_scalar(val)) {
        item.inputs.push_back(scalar(val));
      } else if (auto arr = val.as_array()) {
        for (const auto& x : *arr) {
          if (!is_scalar(x))
            throw SuiteError(at(x.source()) + ": [" + section + "] " + name +
                             ": expected strings, numbers or booleans in the list");
          item.inputs.push_back(scalar(x));
        }
      } else {
        throw SuiteError(where +
                         ": expected a string, a number, a boolean or a list of them, got a "
                         "table");
      }
      origins_.push_back({section, name, at(key.source())});
      items.push_back(std::move(item));
    }
  }
  return items;
}

std::string SuiteConfig::origin(const std::string& section, const std::string& name) const {
  for (const auto& o : origins_)
    if (o.section == section && o.name == name) return o.where;
  return {};
}

namespace {

// The deepest subcommand the parse reached, and its name as typed: "tactica judge".
const CLI::App* deepest(const CLI::App& app, std::string& path) {
  const CLI::App* cur = &app;
  path = "tactica";
  for (;;) {
    const auto subs = cur->get_subcommands();
    if (subs.empty()) break;
    cur = subs.front();
    path += " " + cur->get_name();
  }
  return cur;
}

// What an option takes, from CLI11's type and check: "INT:INT in [1 - 4096]" -> "one integer
// in [1 - 4096]", "TEXT:{auto,cgroup,proc}" -> "one of auto, cgroup, proc", a flag -> "true or
// false", a repeatable one -> "a string or a list of them".
std::string allowed_values(const CLI::Option& opt) {
  const std::string type = opt.get_type_name();
  const auto colon = type.find(':');
  const std::string base = type.substr(0, colon);
  const std::string check = colon == std::string::npos ? "" : type.substr(colon + 1);
  if (opt.get_expected_max() == 0) return "true or false";
  std::string noun = base == "INT" || base == "UINT" ? "integer"
                     : base == "FLOAT"               ? "number"
                                                     : "string";
  std::string what;
  if (!check.empty() && check.front() == '{' && check.back() == '}') {
    what = "one of ";
    for (const char ch : check.substr(1, check.size() - 2))
      what += ch == ',' ? ", " : std::string(1, ch);
  } else {
    const std::string in = base + " in ";
    const std::string range = check.rfind(in, 0) == 0 ? " in " + check.substr(in.size())
                              : check.empty()         ? ""
                                                      : " (" + check + ")";
    what = (opt.get_expected_max() > 1 ? "a" : "one") + std::string(" ") + noun + range;
    if (opt.get_expected_max() > 1) what += " or a list of them";
  }
  return what;
}

// The option `msg` names first ("--workers: Value abc ..."), among `app`'s, or nullptr.
const CLI::Option* named_option(const CLI::App& app, const std::string& msg) {
  const CLI::Option* best = nullptr;
  std::size_t best_at = std::string::npos;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& n : o->get_lnames()) {
      const std::string word = "--" + n;
      for (auto at = msg.find(word); at != std::string::npos; at = msg.find(word, at + 1)) {
        const std::size_t end = at + word.size();
        const bool whole =
            end == msg.size() || !(std::isalnum(static_cast<unsigned char>(msg[end])) ||
                                   msg[end] == '-' || msg[end] == '_');
        if (whole && at < best_at) best_at = at, best = o;
        if (whole) break;
      }
    }
  }
  return best;
}

// Whether the command line gave `opt` (--name, --name=V, -x, -xV).
bool given_on_command_line(const CLI::Option& opt, const std::vector<std::string>& argv) {
  for (const auto& a : argv) {
    for (const auto& n : opt.get_lnames())
      if (a == "--" + n || a.rfind("--" + n + "=", 0) == 0) return true;
    for (const auto& s : opt.get_snames())
      if (a.size() >= 2 && a[0] == '-' && a[1] != '-' && a.compare(1, s.size(), s) == 0)
        return true;
  }
  return false;
}

}  // namespace

std::string suite_value_error(const CLI::App& app, const SuiteConfig& suite,
                              const CLI::ParseError& e, const std::vector<std::string>& argv) {
  std::string path;
  const CLI::App* cur = deepest(app, path);
  const std::string msg = e.what();
  // The subcommand run first, then the other sections: CLI11 also checks the values of a
  // section whose subcommand is not run ([bench] workers = "x" stops a tourney).
  std::vector<const CLI::App*> subs{cur};
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    if (s != cur) subs.push_back(s);
  for (const CLI::App* sub : subs) {
    if (sub == &app) continue;
    const CLI::Option* opt = named_option(*sub, msg);
    if (!opt) continue;
    if (sub == cur && given_on_command_line(*opt, argv)) return {};
    std::string where, key;
    for (const auto& n : opt->get_lnames())
      if (where.empty()) where = suite.origin(sub->get_name(), n), key = n;
    if (where.empty()) continue;
    std::string detail = msg;
    if (const std::string head = "--" + key + ": "; detail.rfind(head, 0) == 0)
      detail = detail.substr(head.size());
    return where + ": [" + sub->get_name() + "] " + key + ": " + detail +
           "; allowed: " + allowed_values(*opt) + " (--" + key + ": " + opt->get_description() +
           ")";
  }
  return {};
}

std::string parse_error_line(const CLI::App& app, const CLI::ParseError& e,
                             const std::vector<std::string>& argv) {
  std::string path;
  const CLI::App* cur = deepest(app, path);
  std::string msg = e.what();
  // Words CLI11 could not place, from "The following argument(s) were not expected: a b".
  std::vector<std::string> extras;
  if (const auto p = msg.find("were not expected:"); p != std::string::npos) {
    std::istringstream words(msg.substr(p + 18));
    for (std::string w; words >> w;) extras.push_back(w);
  } else if (const auto q = msg.find("was not expected:"); q != std::string::npos) {
    std::istringstream words(msg.substr(q + 17));
    for (std::string w; words >> w;) extras.push_back(w);
  }
  const auto subs = subcommand_names(*cur);
  const auto first_word_after = [&]() -> std::string {
    // The first argument after the deepest command's name that is not an option.
    auto it = argv.begin();
    if (cur != &app) {
      it = std::find(argv.begin(), argv.end(), cur->get_name());
      if (it != argv.end()) ++it;
    }
    for (; it != argv.end(); ++it)
      if (!it->empty() && (*it)[0] != '-') return *it;
    return {};
  };
  // An unknown option is named first, even when CLI11 complained of something else.
  if (extras.empty())
    for (const auto& w : app.remaining(true))
      if (w.size() > 1 && w[0] == '-') {
        extras.push_back(w);
        break;
      }
  const std::string kind = cur == &app ? "command" : cur->get_name() == "judge" ? "game"
                                                                              : "subcommand";
  if (!subs.empty() && cur->get_require_subcommand_min() > 0 &&
      (msg.find("subcommand") != std::string::npos || !extras.empty())) {
    std::string bad;
    for (const auto& w : extras)
      if (!w.empty() && w[0] != '-') {
        bad = w;
        break;
      }
    if (bad.empty()) bad = first_word_after();
    if (bad.empty() || bad[0] == '-')
      return path + ": give a " + kind + ": " + join(subs) + " (see " + path + " --help)";
    return path + ": unknown " + kind + " '" + bad + "'; choose: " + join(subs) +
           did_you_mean(bad, subs);
  }
  if (!extras.empty()) {
    const std::string& bad = extras.front();
    if (bad.size() > 1 && bad[0] == '-') {
      const auto opts = long_options(*cur);
      return path + ": unknown option '" + bad + "'" + did_you_mean(bad, opts) +
             "; options: " + join(opts) + " (see " + path + " --help)";
    }
    return path + ": unexpected argument '" + bad + "' (every value follows its option, e.g. " +
           "--agent FILE; see " + path + " --help)";
  }
  return path + ": " + msg;
}

}  // namespace tactica::cli
