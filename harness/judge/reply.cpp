// reply.cpp — see reply.hpp.
#include "judge/reply.hpp"

#include <cstdio>

namespace tactica::harness::reply {

namespace {

const char* control_name(unsigned char b) {
  switch (b) {
    case 0x00:
      return "NUL";
    case 0x09:
      return "TAB";
    case 0x0d:
      return "CR";
    case 0x1b:
      return "ESC";
    case 0x7f:
      return "DEL";
    default:
      return nullptr;
  }
}

std::string hex(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", b);
  return buf;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one (overlongs,
// surrogates and code points above U+10FFFF are invalid).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t n;
  std::uint32_t cp;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0)
    n = 2, cp = b0 & 0x1F;
  else if ((b0 & 0xF0) == 0xE0)
    n = 3, cp = b0 & 0x0F;
  else if ((b0 & 0xF8) == 0xF0)
    n = 4, cp = b0 & 0x07;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Parses a decimal integer token (optional '-', 1..9 digits). False if it is not one.
bool parse_int(std::string_view tok, int& out) {
  std::size_t i = 0;
  bool neg = false;
  if (!tok.empty() && tok[0] == '-') neg = true, i = 1;
  if (i >= tok.size() || tok.size() - i > 9) return false;
  int v = 0;
  for (; i < tok.size(); ++i) {
    if (tok[i] < '0' || tok[i] > '9') return false;
    v = v * 10 + (tok[i] - '0');
  }
  out = neg ? -v : v;
  return true;
}

}  // namespace

std::string check_bytes(std::string_view line) {
  for (std::size_t i = 0; i < line.size();) {
    const auto b = static_cast<unsigned char>(line[i]);
    if (b < 0x20 || b == 0x7f) {
      const char* name = control_name(b);
      return "control byte " + hex(b) + (name ? std::string(" (") + name + ")" : "") + " at byte " +
             std::to_string(i + 1);
    }
    const std::size_t n = utf8_length(line, i);
    if (n == 0) return "invalid UTF-8 at byte " + std::to_string(i + 1);
    i += n;
  }
  return {};
}

std::string expect_word(std::string_view line, std::string_view word) {
  if (line == word) return {};
  if (line.empty()) return "empty line, expected '" + std::string(word) + "'";
  return "expected '" + std::string(word) + "', got '" + quote(line) + "'";
}

std::string parse_word_int_int(std::string_view line, std::string_view word, int& a, int& b) {
  const std::string expected = "expected '" + std::string(word) + " <int> <int>'";
  if (line.empty()) return "empty line, " + expected;
  std::string_view toks[4];
  int n = 0;
  std::size_t pos = 0;
  for (;;) {
    const auto sp = line.find(' ', pos);
    const auto tok =
        line.substr(pos, sp == std::string_view::npos ? std::string_view::npos : sp - pos);
    if (tok.empty()) return expected + " with single spaces, got '" + quote(line) + "'";
    if (n == 3) return expected + ", got more tokens: '" + quote(line) + "'";
    toks[n++] = tok;
    if (sp == std::string_view::npos) break;
    pos = sp + 1;
  }
  if (toks[0] != word) return expected + ", got '" + quote(line) + "'";
  if (n != 3) return expected + ", got '" + quote(line) + "'";
  if (!parse_int(toks[1], a) || !parse_int(toks[2], b))
    return expected + ", got a non-integer in '" + quote(line) + "'";
  return {};
}

std::string quote(std::string_view line, std::size_t max) {
  std::string out;
  const std::size_t n = std::min(line.size(), max);
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(line[i]);
    if (b >= 0x20 && b < 0x7f && b != '\\') {
      out += static_cast<char>(b);
    } else if (b == '\\') {
      out += "\\\\";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", b);
      out += buf;
    }
  }
  if (line.size() > max) out += "... (" + std::to_string(line.size()) + " bytes)";
  return out;
}

}  // namespace tactica::harness::reply
