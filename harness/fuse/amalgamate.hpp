// amalgamate.hpp — turning a few project sources into one translation unit that compiles with no
// -I: every project header is inlined once, at its first #include (so in dependency order), and
// every standard or POSIX #include is hoisted to the top, once.
//
// What it understands of the preprocessor, and refuses otherwise (a FuseError naming file:line):
//   * `#include "x"` / `#include <x>` that names a project header: resolved like the compiler
//     would (the including file's folder, then each include directory), inlined the first time,
//     dropped afterwards. Each header must be include-once (`#pragma once` or a classic guard):
//     a header meant to be read twice would change meaning if inlined once.
//   * `#include <x>` of the C++ standard library, C, POSIX or compiler intrinsics: hoisted,
//   deduplicated. Inside an
//     `#if` it stays where it is (hoisting would drop the condition).
//   * a project include inside an `#if`, a computed `#include MACRO`, a header outside the
//     source tree, any other library: refused.
// `#pragma once` and the guard lines of inlined headers are removed (they mean nothing in one
// file and GCC warns about `#pragma once` in the main file). Everything else is copied as is.
#pragma once

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tactica::fuse {

// Anything that stops a fuse; what() is one line, "file:line: what; how to fix" where it can be.
struct FuseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// True if `name` (as written between <>) is a header of the C++20 standard library, of the C
// standard library, of POSIX.1-2017 or one of the compiler's intrinsics headers (<emmintrin.h>):
// what a submission may use.
bool is_standard_header(std::string_view name);

class Amalgamator {
 public:
  // `root`: the source tree; `include_dirs`: where project headers are looked for, relative to
  // root (e.g. "core/include", "plugins").
  Amalgamator(std::filesystem::path root, std::vector<std::string> include_dirs);

  // Inlines a source file (path relative to root) and, at their first #include, the project
  // headers it includes, recursively.
  void add_file(const std::string& rel_path);
  // Inlines the project header `name` (as `#include "name"` in a file at the root would).
  void add_include(const std::string& name);
  // Appends generated code as is.
  void add_text(std::string_view text);
  // Adds a standard header to the hoisted list (for generated code).
  void add_system_include(const std::string& name);

  // The project files inlined, in order, as paths relative to root with '/' separators.
  const std::vector<std::string>& files() const { return files_; }
  // The hoisted standard headers: C and POSIX (.h) first, then C++, each sorted.
  std::vector<std::string> system_includes() const;
  // The hoisted #include lines followed by the inlined code.
  std::string text() const;

 private:
  void inline_file(const std::filesystem::path& abs, const std::string& rel, bool is_header);
  // The project file `name` resolves to from a file in `from_dir` (empty if none).
  std::filesystem::path resolve(const std::string& name, const std::filesystem::path& from_dir,
                                bool quoted) const;
  std::string relative(const std::filesystem::path& abs) const;

  std::filesystem::path root_;
  std::vector<std::string> include_dirs_;
  std::set<std::string> done_;  // root-relative paths already inlined (or being inlined)
  std::vector<std::string> files_;
  std::set<std::string> system_;
  std::string out_;
};

}  // namespace tactica::fuse
