// escape.hpp — text made safe inside HTML and SVG/XML markup, shared by the viewer page and
// the plots: the five special characters as entities (&#39; works in both HTML and XML) and
// control characters, which XML 1.0 forbids even escaped, as spaces.
#pragma once

#include <string>
#include <string_view>

namespace tactica::report {

inline std::string escape_markup(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
    }
  }
  return out;
}

}  // namespace tactica::report
