// view.cpp — replay validation and the HTML page (the page itself is viewer.html, embedded at
// build time as kViewerHtml).
#include "report/view.hpp"
#include "report/escape.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string_view>

namespace tactica::report {

extern const std::string_view kViewerHtml;  // generated from viewer.html

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "tactica-replay/1";
constexpr std::string_view kTitleMark = "{{TITLE}}";
constexpr std::string_view kJsonMark = "{{REPLAY_JSON}}";

// Collects the location of a field for error messages: "moves[3].after[2]".
class Checker {
 public:
  explicit Checker(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw ViewError(
        source_ + ": " + (where.empty() ? "" : where + ": ") + what + " (expected a " +
        std::string(kFormat) +
        " replay as written by `tactica judge ... --replay FILE`, see docs/FORMATS.md)");
  }

  const json& field(const json& obj, const std::string& where, const char* key) const {
    const auto it = obj.find(key);
    if (it == obj.end()) fail(where, std::string("missing field \"") + key + "\"");
    return *it;
  }
  // Fields the page only displays may be absent or null.
  const json* optional(const json& obj, const char* key) const {
    const auto it = obj.find(key);
    return (it == obj.end() || it->is_null()) ? nullptr : &*it;
  }

  void object(const json& v, const std::string& where) const {
    if (!v.is_object()) fail(where, "expected an object, got " + kind(v));
  }
  void array(const json& v, const std::string& where) const {
    if (!v.is_array()) fail(where, "expected an array, got " + kind(v));
  }
  void string(const json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "expected a string, got " + kind(v));
  }
  void number(const json& v, const std::string& where) const {
    if (!v.is_number()) fail(where, "expected a number, got " + kind(v));
  }
  long long integer(const json& v, const std::string& where) const {
    if (!v.is_number_integer()) fail(where, "expected an integer, got " + kind(v));
    return v.get<long long>();
  }
  void optional_number(const json& obj, const std::string& where, const char* key) const {
    if (const json* v = optional(obj, key)) number(*v, where + "." + key);
  }
  void optional_string(const json& obj, const std::string& where, const char* key) const {
    if (const json* v = optional(obj, key)) string(*v, where + "." + key);
  }
  void number_pair(const json& v, const std::string& where) const {
    array(v, where);
    if (v.size() != 2) fail(where, "expected 2 numbers, got " + std::to_string(v.size()));
    for (int i = 0; i < 2; ++i) number(v[i], where + "[" + std::to_string(i) + "]");
  }
  void optional_number_pair(const json& obj, const std::string& where, const char* key) const {
    if (const json* v = optional(obj, key)) number_pair(*v, where + "." + key);
  }
  void one_of(const json& v, const std::string& where,
              std::initializer_list<const char*> allowed) const {
    string(v, where);
    std::string list;
    for (const char* a : allowed) {
      if (v.get<std::string>() == a) return;
      list += list.empty() ? "" : ", ";
      list += a;
    }
    fail(where, "got \"" + clip(v.get<std::string>()) + "\", expected one of " + list);
  }
  // A cell [row, col] with both coordinates in [lo, hi_row] x [lo, hi_col].
  std::pair<int, int> coords(const json& v, const std::string& where, int lo, int hi_row,
                             int hi_col) const {
    array(v, where);
    if (v.size() != 2)
      fail(where, "expected [row, col], got " + std::to_string(v.size()) + " values");
    const long long r = integer(v[0], where + "[0]"), c = integer(v[1], where + "[1]");
    if (r < lo || r > hi_row || c < lo || c > hi_col)
      fail(where, "cell [" + std::to_string(r) + ", " + std::to_string(c) +
                      "] is off the board (rows " + std::to_string(lo) + ".." +
                      std::to_string(hi_row) + ", columns " + std::to_string(lo) + ".." +
                      std::to_string(hi_col) + ")");
    return {static_cast<int>(r), static_cast<int>(c)};
  }

  static std::string kind(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    return "an object";
  }
  static std::string clip(const std::string& s) {
    return s.size() > 40 ? s.substr(0, 40) + "..." : s;
  }

 private:
  std::string source_;
};

// Hanpang text form: 15 strings of 8 digits 0-3, top row first.
void check_hanpang_board(const Checker& ck, const json& b, const std::string& where) {
  ck.array(b, where);
  if (b.size() != 15)
    ck.fail(where, "expected 15 rows (top first), got " + std::to_string(b.size()));
  for (std::size_t r = 0; r < b.size(); ++r) {
    const std::string w = where + "[" + std::to_string(r) + "]";
    ck.string(b[r], w);
    const auto& s = b[r].get_ref<const std::string&>();
    if (s.size() != 8 || s.find_first_not_of("0123") != std::string::npos)
      ck.fail(w, "expected 8 digits 0-3, got \"" + Checker::clip(s) + "\"");
  }
}

// Icebreaking text form: 9 strings of 9 space-separated tokens: # -2..2 a b.
void check_icebreaking_board(const Checker& ck, const json& b, const std::string& where) {
  static const std::set<std::string> tokens{"#", "-2", "-1", "0", "1", "2", "a", "b"};
  ck.array(b, where);
  if (b.size() != 9) ck.fail(where, "expected 9 rows, got " + std::to_string(b.size()));
  for (std::size_t r = 0; r < b.size(); ++r) {
    const std::string w = where + "[" + std::to_string(r) + "]";
    ck.string(b[r], w);
    std::istringstream in(b[r].get<std::string>());
    std::string tok;
    int n = 0;
    while (in >> tok) {
      if (!tokens.count(tok))
        ck.fail(w, "token \"" + Checker::clip(tok) + "\" is none of # -2 -1 0 1 2 a b");
      ++n;
    }
    if (n != 9) ck.fail(w, "expected 9 space-separated tokens, got " + std::to_string(n));
  }
}

void check_hanpang_move(const Checker& ck, const json& m, const std::string& w) {
  ck.object(m, w);
  ck.integer(ck.field(m, w, "n"), w + ".n");
  const json& row = ck.field(m, w, "row");
  ck.string(row, w + ".row");
  const auto& rs = row.get_ref<const std::string&>();
  if (rs.size() != 8 || rs.find_first_not_of("123") != std::string::npos)
    ck.fail(w + ".row", "expected 8 digits 1-3, got \"" + Checker::clip(rs) + "\"");
  check_hanpang_board(ck, ck.field(m, w, "before"), w + ".before");
  check_hanpang_board(ck, ck.field(m, w, "after"), w + ".after");
  ck.coords(ck.field(m, w, "cell"), w + ".cell", 1, 15, 8);
  const json& group = ck.field(m, w, "group");
  ck.array(group, w + ".group");
  if (group.empty()) ck.fail(w + ".group", "expected at least one cell");
  for (std::size_t i = 0; i < group.size(); ++i)
    ck.coords(group[i], w + ".group[" + std::to_string(i) + "]", 1, 15, 8);
  ck.integer(ck.field(m, w, "points"), w + ".points");
  ck.integer(ck.field(m, w, "score"), w + ".score");
  ck.optional_number(m, w, "remaining_ms");
  ck.optional_number(m, w, "elapsed_ms");
}

void check_icebreaking_move(const Checker& ck, const json& m, const std::string& w) {
  ck.object(m, w);
  ck.integer(ck.field(m, w, "n"), w + ".n");
  ck.one_of(ck.field(m, w, "player"), w + ".player", {"first", "second"});
  ck.coords(ck.field(m, w, "cell"), w + ".cell", 0, 8, 8);
  const json& cap = ck.field(m, w, "captured");
  ck.array(cap, w + ".captured");
  for (std::size_t i = 0; i < cap.size(); ++i)
    ck.coords(cap[i], w + ".captured[" + std::to_string(i) + "]", 0, 8, 8);
  ck.integer(ck.field(m, w, "gain"), w + ".gain");
  const json& totals = ck.field(m, w, "totals");
  ck.number_pair(totals, w + ".totals");
  for (int i = 0; i < 2; ++i) ck.integer(totals[i], w + ".totals[" + std::to_string(i) + "]");
  ck.optional_number_pair(m, w, "banks_ms");
  ck.optional_number_pair(m, w, "cpu_ms");
  ck.optional_number(m, w, "elapsed_ms");
  check_icebreaking_board(ck, ck.field(m, w, "after"), w + ".after");
}

void check_result(const Checker& ck, const json& res, bool hanpang) {
  ck.object(res, "result");
  ck.optional_string(res, "result", "verdict");
  ck.optional_string(res, "result", "detail");
  if (hanpang) {
    ck.optional_number(res, "result", "score");
    ck.optional_number(res, "result", "actions");
  } else {
    if (const json* w = ck.optional(res, "winner"))
      ck.one_of(*w, "result.winner", {"first", "second", "draw"});
    ck.optional_number_pair(res, "result", "totals");
    ck.optional_string(res, "result", "loser_reason");
  }
}

// JSON text that is safe inside <script type="application/json">: '<', '>' and '&' only occur
// inside JSON strings, where the escapes \u003c \u003e \u0026 mean the same characters, so no
// "</script>" or "<!--" can appear; U+2028/U+2029 are escaped too, for old parsers.
std::string script_safe_json(const json& j) {
  const std::string raw = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(raw.size() + raw.size() / 16);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char ch = raw[i];
    if (ch == '<')
      out += "\\u003c";
    else if (ch == '>')
      out += "\\u003e";
    else if (ch == '&')
      out += "\\u0026";
    else if (ch == '\xE2' && i + 2 < raw.size() && raw[i + 1] == '\x80' &&
             (raw[i + 2] == '\xA8' || raw[i + 2] == '\xA9')) {
      out += raw[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += ch;
    }
  }
  return out;
}


std::string page_title(const json& r) {
  const bool hanpang = r.at("game") == "hanpang";
  std::string t = hanpang ? "Hanpang" : "Icebreaking";
  if (const auto it = r.find("seed"); it != r.end() && it->is_number_integer())
    t += " seed " + std::to_string(it->get<long long>());
  std::string names;
  if (const auto it = r.find("agents"); it != r.end() && it->is_array()) {
    for (const json& a : *it) {
      if (!a.is_object() || !a.contains("label") || !a["label"].is_string()) continue;
      names += names.empty() ? "" : " vs ";
      names += a["label"].get<std::string>();
    }
  }
  if (!names.empty()) t += " \xE2\x80\x94 " + names;  // em dash
  return t + " \xE2\x80\x94 Tactica replay";
}

}  // namespace

void validate_replay(const json& r, const std::string& source) {
  const Checker ck(source);
  ck.object(r, "");
  const json& format = ck.field(r, "", "format");
  ck.string(format, "format");
  if (format.get<std::string>() != kFormat)
    ck.fail("format", "unsupported format \"" + Checker::clip(format.get<std::string>()) + "\"");
  ck.one_of(ck.field(r, "", "game"), "game", {"hanpang", "icebreaking"});
  const bool hanpang = r["game"] == "hanpang";
  if (const json* seed = ck.optional(r, "seed")) ck.integer(*seed, "seed");
  if (const json* agents = ck.optional(r, "agents")) {
    ck.array(*agents, "agents");
    for (std::size_t i = 0; i < agents->size(); ++i) {
      const std::string w = "agents[" + std::to_string(i) + "]";
      ck.object((*agents)[i], w);
      ck.optional_string((*agents)[i], w, "label");
      ck.optional_string((*agents)[i], w, "command");
    }
  }
  check_result(ck, ck.field(r, "", "result"), hanpang);
  // The time control the game was played under (optional: replays written before it lack it).
  if (const json* limits = ck.optional(r, "limits")) {
    ck.object(*limits, "limits");
    ck.optional_number(*limits, "limits", "bank_ms");
    ck.optional_number(*limits, "limits", "cpu_ms");
  }
  if (hanpang)
    check_hanpang_board(ck, ck.field(r, "", "initial"), "initial");
  else
    check_icebreaking_board(ck, ck.field(r, "", "initial"), "initial");
  const json& moves = ck.field(r, "", "moves");
  ck.array(moves, "moves");
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string w = "moves[" + std::to_string(i) + "]";
    if (hanpang)
      check_hanpang_move(ck, moves[i], w);
    else
      check_icebreaking_move(ck, moves[i], w);
  }
  if (const json* log = ck.optional(r, "log")) {
    ck.array(*log, "log");
    for (std::size_t i = 0; i < log->size(); ++i) {
      const std::string w = "log[" + std::to_string(i) + "]";
      const json& e = (*log)[i];
      ck.object(e, w);
      ck.optional_number(e, w, "t_ms");
      ck.optional_number(e, w, "agent");
      if (const json* d = ck.optional(e, "dir")) ck.one_of(*d, w + ".dir", {"send", "recv"});
      ck.optional_string(e, w, "line");
    }
  }
}

json read_replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw ViewError(file.string() + ": cannot open the replay (" + std::strerror(errno) +
                    "); write one with `tactica judge ... --replay FILE`");
  std::ostringstream text;
  text << in.rdbuf();
  json r;
  try {
    r = json::parse(text.str());
  } catch (const json::parse_error& e) {
    throw ViewError(file.string() + ": not valid JSON (" + e.what() +
                    "); expected a replay written by `tactica judge ... --replay FILE`");
  }
  validate_replay(r, file.string());
  return r;
}

std::string replay_html(const json& replay) {
  const std::string_view page = kViewerHtml;
  const std::size_t t = page.find(kTitleMark);
  const std::size_t j = page.find(kJsonMark);
  if (t == std::string_view::npos || j == std::string_view::npos || t > j)
    throw ViewError("viewer.html: the page template lacks its {{TITLE}} / {{REPLAY_JSON}} marks");
  std::string out;
  out.reserve(page.size() + replay.size() * 64 + 4096);
  out += page.substr(0, t);
  out += escape_markup(page_title(replay));
  out += page.substr(t + kTitleMark.size(), j - t - kTitleMark.size());
  out += script_safe_json(replay);
  out += page.substr(j + kJsonMark.size());
  return out;
}

std::filesystem::path default_html_path(const std::filesystem::path& replay_file) {
  std::filesystem::path out = replay_file;
  out.replace_extension(".html");
  return out;
}

void write_text_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out)
    throw ViewError(file.string() + ": cannot write (" + std::strerror(errno) +
                    "); check the directory exists and is writable");
  out << text;
  out.flush();
  if (!out) throw ViewError(file.string() + ": write failed (" + std::strerror(errno) + ")");
}

std::filesystem::path write_replay_html(const std::filesystem::path& replay_file,
                                        std::filesystem::path out) {
  const json r = read_replay(replay_file);
  if (out.empty()) out = default_html_path(replay_file);
  std::error_code e1, e2;
  const auto a = std::filesystem::weakly_canonical(out, e1);
  const auto b = std::filesystem::weakly_canonical(replay_file, e2);
  if (!e1 && !e2 && a == b)
    throw ViewError(out.string() + ": would overwrite the replay itself; pass -o game.html");
  write_text_file(out, replay_html(r));
  return out;
}

}  // namespace tactica::report
