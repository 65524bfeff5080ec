// amalgamate.cpp — see amalgamate.hpp.
#include "fuse/amalgamate.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace tactica::fuse {
namespace fs = std::filesystem;

namespace {

// C++20 standard library headers.
constexpr std::string_view kCxxHeaders[] = {"algorithm",
                                            "any",
                                            "array",
                                            "atomic",
                                            "barrier",
                                            "bit",
                                            "bitset",
                                            "cassert",
                                            "cctype",
                                            "cerrno",
                                            "cfenv",
                                            "cfloat",
                                            "charconv",
                                            "chrono",
                                            "cinttypes",
                                            "climits",
                                            "clocale",
                                            "cmath",
                                            "codecvt",
                                            "compare",
                                            "complex",
                                            "concepts",
                                            "condition_variable",
                                            "coroutine",
                                            "csetjmp",
                                            "csignal",
                                            "cstdarg",
                                            "cstddef",
                                            "cstdint",
                                            "cstdio",
                                            "cstdlib",
                                            "cstring",
                                            "ctime",
                                            "cuchar",
                                            "cwchar",
                                            "cwctype",
                                            "deque",
                                            "exception",
                                            "execution",
                                            "filesystem",
                                            "format",
                                            "forward_list",
                                            "fstream",
                                            "functional",
                                            "future",
                                            "initializer_list",
                                            "iomanip",
                                            "ios",
                                            "iosfwd",
                                            "iostream",
                                            "istream",
                                            "iterator",
                                            "latch",
                                            "limits",
                                            "list",
                                            "locale",
                                            "map",
                                            "memory",
                                            "memory_resource",
                                            "mutex",
                                            "new",
                                            "numbers",
                                            "numeric",
                                            "optional",
                                            "ostream",
                                            "queue",
                                            "random",
                                            "ranges",
                                            "ratio",
                                            "regex",
                                            "scoped_allocator",
                                            "semaphore",
                                            "set",
                                            "shared_mutex",
                                            "source_location",
                                            "span",
                                            "sstream",
                                            "stack",
                                            "stdexcept",
                                            "stop_token",
                                            "streambuf",
                                            "string",
                                            "string_view",
                                            "system_error",
                                            "thread",
                                            "tuple",
                                            "type_traits",
                                            "typeindex",
                                            "typeinfo",
                                            "unordered_map",
                                            "unordered_set",
                                            "utility",
                                            "valarray",
                                            "variant",
                                            "vector",
                                            "version",
                                            "syncstream"};

// C standard library and POSIX.1-2017 headers.
constexpr std::string_view kCHeaders[] = {
    "aio.h",          "arpa/inet.h",   "assert.h",      "complex.h",   "cpio.h",
    "ctype.h",        "dirent.h",      "dlfcn.h",       "errno.h",     "fcntl.h",
    "fenv.h",         "float.h",       "fmtmsg.h",      "fnmatch.h",   "ftw.h",
    "glob.h",         "grp.h",         "iconv.h",       "inttypes.h",  "iso646.h",
    "langinfo.h",     "libgen.h",      "limits.h",      "locale.h",    "math.h",
    "monetary.h",     "mqueue.h",      "ndbm.h",        "net/if.h",    "netdb.h",
    "netinet/in.h",   "netinet/tcp.h", "nl_types.h",    "poll.h",      "pthread.h",
    "pwd.h",          "regex.h",       "sched.h",       "search.h",    "semaphore.h",
    "setjmp.h",       "signal.h",      "spawn.h",       "stdalign.h",  "stdarg.h",
    "stdbool.h",      "stddef.h",      "stdint.h",      "stdio.h",     "stdlib.h",
    "string.h",       "strings.h",     "sys/ipc.h",     "sys/mman.h",  "sys/msg.h",
    "sys/resource.h", "sys/select.h",  "sys/sem.h",     "sys/shm.h",   "sys/socket.h",
    "sys/stat.h",     "sys/statvfs.h", "sys/time.h",    "sys/times.h", "sys/types.h",
    "sys/uio.h",      "sys/un.h",      "sys/utsname.h", "sys/wait.h",  "syslog.h",
    "tar.h",          "termios.h",     "tgmath.h",      "time.h",      "uchar.h",
    "ulimit.h",       "unistd.h",      "utime.h",       "utmpx.h",     "wchar.h",
    "wctype.h",       "wordexp.h",     "stdnoreturn.h", "threads.h"};

// The compiler's own intrinsics headers (GCC, Clang): no library behind them, no -I needed.
constexpr std::string_view kIntrinsicsHeaders[] = {
    "mmintrin.h",  "xmmintrin.h", "emmintrin.h", "pmmintrin.h", "tmmintrin.h", "smmintrin.h",
    "nmmintrin.h", "wmmintrin.h", "immintrin.h", "x86intrin.h", "ammintrin.h", "arm_neon.h"};

bool is_c_header(std::string_view name) { return name.ends_with(".h"); }

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// Updates `in_comment` (inside a /* */ comment) over one line. String and character literals and
// // comments are skipped; a ' after a letter or digit is a digit separator (1'000) or part of a
// prefixed literal. Raw string literals are not understood (none in the project's code).
void scan_comments(std::string_view s, bool& in_comment) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (in_comment) {
      if (s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/') in_comment = false, ++i;
      continue;
    }
    const char c = s[i];
    if (c == '/' && i + 1 < s.size()) {
      if (s[i + 1] == '/') return;
      if (s[i + 1] == '*') {
        in_comment = true, ++i;
        continue;
      }
    }
    const bool quote =
        c == '"' || (c == '\'' && !(i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))));
    if (quote) {
      for (++i; i < s.size() && s[i] != c; ++i)
        if (s[i] == '\\') ++i;
    }
  }
}

// One line of a file, with its preprocessor directive if it is one.
struct Line {
  std::string text;
  bool directive = false;
  std::string word;  // "include", "pragma", "ifndef", ...
  std::string arg;   // the rest, trimmed
};

std::vector<Line> split_lines(const std::string& content) {
  std::vector<Line> lines;
  bool in_comment = false;
  std::size_t pos = 0;
  while (pos < content.size()) {
    auto nl = content.find('\n', pos);
    if (nl == std::string::npos) nl = content.size();
    Line l;
    l.text = content.substr(pos, nl - pos);
    if (!l.text.empty() && l.text.back() == '\r') l.text.pop_back();
    pos = nl + 1;
    const auto first = l.text.find_first_not_of(" \t");
    if (!in_comment && first != std::string::npos && l.text[first] == '#') {
      l.directive = true;
      std::size_t i = l.text.find_first_not_of(" \t", first + 1);
      std::size_t j = i;
      while (j < l.text.size() &&
             (std::isalnum(static_cast<unsigned char>(l.text[j])) || l.text[j] == '_'))
        ++j;
      if (i != std::string::npos) {
        l.word = l.text.substr(i, j - i);
        l.arg = trim(std::string_view(l.text).substr(j));
      }
    }
    scan_comments(l.text, in_comment);
    lines.push_back(std::move(l));
  }
  return lines;
}

// The first word of a directive's argument (a macro name), without a trailing comment.
std::string first_word(const std::string& arg) {
  std::size_t j = 0;
  while (j < arg.size() && (std::isalnum(static_cast<unsigned char>(arg[j])) || arg[j] == '_')) ++j;
  return arg.substr(0, j);
}

// A classic include guard: the first directive is #ifndef X, the next #define X, and the last
// #endif closes the first. Sets the three line numbers (0-based) when found.
bool find_guard(const std::vector<Line>& lines, std::size_t& open, std::size_t& define,
                std::size_t& close) {
  std::vector<std::size_t> d;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].directive) d.push_back(i);
  if (d.size() < 3 || lines[d[0]].word != "ifndef" || lines[d[1]].word != "define") return false;
  const std::string name = first_word(lines[d[0]].arg);
  if (name.empty() || first_word(lines[d[1]].arg) != name || lines[d.back()].word != "endif")
    return false;
  // The last #endif must close the first #ifndef (depth back to 0 only there).
  int depth = 0;
  for (std::size_t k = 0; k < d.size(); ++k) {
    const std::string& w = lines[d[k]].word;
    if (w == "if" || w == "ifdef" || w == "ifndef") ++depth;
    if (w == "endif" && --depth == 0 && k + 1 != d.size()) return false;
  }
  open = d[0], define = d[1], close = d.back();
  return true;
}

std::string read_file(const fs::path& p, const std::string& shown) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw FuseError(shown + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

bool is_standard_header(std::string_view name) {
  const auto in = [&](const auto& list) {
    return std::find(std::begin(list), std::end(list), name) != std::end(list);
  };
  return in(kCxxHeaders) || in(kCHeaders) || in(kIntrinsicsHeaders);
}

Amalgamator::Amalgamator(fs::path root, std::vector<std::string> include_dirs)
    : root_(fs::absolute(root).lexically_normal()), include_dirs_(std::move(include_dirs)) {}

std::string Amalgamator::relative(const fs::path& abs) const {
  return abs.lexically_relative(root_).generic_string();
}

fs::path Amalgamator::resolve(const std::string& name, const fs::path& from_dir,
                              bool quoted) const {
  std::vector<fs::path> candidates;
  if (quoted) candidates.push_back(from_dir / name);
  for (const auto& d : include_dirs_) candidates.push_back(root_ / d / name);
  for (const auto& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) return c.lexically_normal();
  }
  return {};
}

void Amalgamator::add_file(const std::string& rel_path) {
  const fs::path abs = (root_ / rel_path).lexically_normal();
  const std::string rel = relative(abs);
  std::error_code ec;
  if (!fs::is_regular_file(abs, ec)) throw FuseError(abs.string() + ": no such source file");
  if (done_.count(rel)) return;
  done_.insert(rel);
  inline_file(abs, rel, false);
}

void Amalgamator::add_include(const std::string& name) {
  const fs::path abs = resolve(name, root_, false);
  if (abs.empty())
    throw FuseError("project header \"" + name + "\" not found in " + root_.string());
  const std::string rel = relative(abs);
  if (done_.count(rel)) return;
  done_.insert(rel);
  inline_file(abs, rel, true);
}

void Amalgamator::add_text(std::string_view text) {
  out_ += text;
  if (!out_.empty() && out_.back() != '\n') out_ += '\n';
}

void Amalgamator::add_system_include(const std::string& name) {
  if (!is_standard_header(name))
    throw FuseError("<" + name + "> is not a standard or POSIX header");
  system_.insert(name);
}

std::vector<std::string> Amalgamator::system_includes() const {
  std::vector<std::string> c, cxx;
  for (const auto& h : system_) (is_c_header(h) ? c : cxx).push_back(h);
  c.insert(c.end(), cxx.begin(), cxx.end());
  return c;
}

std::string Amalgamator::text() const {
  std::string s;
  for (const auto& h : system_includes()) s += "#include <" + h + ">\n";
  if (!system_.empty()) s += '\n';
  return s + out_;
}

void Amalgamator::inline_file(const fs::path& abs, const std::string& rel, bool is_header) {
  if (rel.starts_with("..") || fs::path(rel).is_absolute())
    throw FuseError(abs.string() + ": outside the source tree " + root_.string());
  const std::vector<Line> lines = split_lines(read_file(abs, rel));
  files_.push_back(rel);

  std::size_t g_open = 0, g_define = 0, g_close = 0;
  const bool guarded = find_guard(lines, g_open, g_define, g_close);
  const bool once = std::any_of(lines.begin(), lines.end(), [](const Line& l) {
    return l.directive && l.word == "pragma" && first_word(l.arg) == "once";
  });
  if (is_header && !guarded && !once)
    throw FuseError(rel +
                    ": a project header without #pragma once or an include guard; fuse "
                    "inlines each header once, so add #pragma once");

  out_ += "// ===== " + rel + " =====\n";
  const fs::path dir = abs.parent_path();
  int depth = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    const std::string where = rel + ":" + std::to_string(i + 1);
    if (guarded && (i == g_open || i == g_define || i == g_close)) continue;
    if (!l.directive) {
      out_ += l.text + '\n';
      continue;
    }
    if (l.word == "if" || l.word == "ifdef" || l.word == "ifndef") ++depth;
    if (l.word == "endif") --depth;
    if (l.word == "pragma" && first_word(l.arg) == "once") continue;
    if (l.word != "include") {
      out_ += l.text + '\n';
      continue;
    }
    // #include "name" or <name>
    const char open = l.arg.empty() ? '\0' : l.arg[0];
    const char close = open == '"' ? '"' : '>';
    const auto end = l.arg.find(close, 1);
    if ((open != '"' && open != '<') || end == std::string::npos)
      throw FuseError(where + ": #include " + l.arg.substr(0, 40) +
                      ": only #include \"file\" and #include <file> can be fused");
    const std::string name = l.arg.substr(1, end - 1);
    const fs::path target = resolve(name, dir, open == '"');
    if (!target.empty()) {
      if (depth > 0)
        throw FuseError(where + ": #include " + l.arg.substr(0, end + 1) +
                        " inside #if: fuse inlines project headers unconditionally; move it out of "
                        "the #if");
      const std::string trel = relative(target);
      if (done_.count(trel)) continue;
      done_.insert(trel);
      inline_file(target, trel, true);
      out_ += "// ===== " + rel + " (continued) =====\n";
      continue;
    }
    if (open == '"' || !is_standard_header(name)) {
      std::string looked = open == '"' ? relative(dir) : std::string();
      for (const auto& d : include_dirs_) looked += (looked.empty() ? "" : ", ") + d;
      throw FuseError(where + ": #include " + l.arg.substr(0, end + 1) +
                      " is neither a project header (looked in " + looked +
                      ") nor a standard C++, C or POSIX header; a submission can use nothing else");
    }
    if (depth > 0)
      out_ += l.text + '\n';  // conditional: keep it where it is
    else
      system_.insert(name);
  }
  if (depth != 0) throw FuseError(rel + ": unbalanced #if/#endif");
}

}  // namespace tactica::fuse
