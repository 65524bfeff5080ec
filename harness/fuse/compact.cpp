// compact.cpp — see compact.hpp.
#include "fuse/compact.hpp"

#include <cctype>

namespace tactica::fuse {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Cuts trailing blanks of every line and drops the lines left empty.
std::string drop_blank_lines(const std::string& s) {
  std::string out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    auto nl = s.find('\n', pos);
    if (nl == std::string::npos) nl = s.size();
    std::string_view line(s.data() + pos, nl - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      out.append(line);
      out += '\n';
    }
    pos = nl + 1;
  }
  return out;
}

}  // namespace

std::string compact_source(std::string_view text) {
  // The header: the leading lines that are line comments, kept as they are.
  std::size_t start = 0;
  std::string head;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(start, nl - start);
    if (line.rfind("//", 0) != 0) break;
    head.append(line);
    head += '\n';
    start = nl + 1;
  }
  std::string out;
  out.reserve(text.size());
  const std::size_t n = text.size();
  std::size_t i = start;
  while (i < n) {
    const char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {  // line comment: up to the newline
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {  // block comment: one space
      const auto end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
      out += ' ';
      continue;
    }
    if (c == '"' && !out.empty() && out.back() == 'R' &&
        (out.size() < 2 || !ident_char(out[out.size() - 2]) || out[out.size() - 2] == 'u' ||
         out[out.size() - 2] == 'U' || out[out.size() - 2] == 'L' || out[out.size() - 2] == '8')) {
      // Raw string R"delim( ... )delim": copied whole.
      const auto open = text.find('(', i);
      if (open != std::string_view::npos) {
        const std::string close = ")" + std::string(text.substr(i + 1, open - i - 1)) + "\"";
        const auto end = text.find(close, open);
        const std::size_t stop = end == std::string_view::npos ? n : end + close.size();
        out.append(text.substr(i, stop - i));
        i = stop;
        continue;
      }
    }
    if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1])) &&
                                    !out.empty() && ident_char(out.back()) &&
                                    i + 1 < n && std::isxdigit(static_cast<unsigned char>(text[i + 1]))))) {
      // A string or character literal (not a digit separator): copied with its escapes.
      out += c;
      ++i;
      while (i < n && text[i] != c && text[i] != '\n') {
        if (text[i] == '\\' && i + 1 < n) out += text[i++];
        out += text[i++];
      }
      if (i < n && text[i] == c) out += text[i++];
      continue;
    }
    out += c;
    ++i;
  }
  return head + drop_blank_lines(out);
}

}  // namespace tactica::fuse
