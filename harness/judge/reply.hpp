// reply.hpp — the strict checks of what an agent answers (the platform's "output that does not
// match the format"). The words and the lines the judge sends are tactica/protocol.hpp's, the
// codec the agent speaks too (protocol::words, protocol::hanpang_io::turn, ...).
//
// An answer is valid only if it is exactly the expected words and integers separated by single
// spaces: no leading or trailing blanks, no CR, no other control byte, valid UTF-8 (any
// non-ASCII byte is already wrong for these lines, but the message says which rule failed).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tactica/protocol.hpp"

namespace tactica::harness::reply {

// ---- checks of what the agent writes --------------------------------------------------------

// Empty if every byte is fine; else what is wrong and where, e.g.
// "invalid UTF-8 at byte 10", "control byte 0x0d (CR) at byte 9".
std::string check_bytes(std::string_view line);

// The line is exactly `word`. Empty on success, else the problem.
std::string expect_word(std::string_view line, std::string_view word);

// "<word> <int> <int>": on success fills a, b and returns empty; else the problem.
std::string parse_word_int_int(std::string_view line, std::string_view word, int& a, int& b);

// The line quoted for messages and logs: printable ASCII kept, other bytes as \xNN, cut to
// `max` bytes with the full length noted.
std::string quote(std::string_view line, std::size_t max = 80);

}  // namespace tactica::harness::reply
