// command_line.hpp — commands printed for the user to run again (the resume hint).
#pragma once

#include <string>
#include <vector>

namespace tactica::harness {

// Quotes one word for a POSIX shell when it needs it: a'b -> 'a'\''b'.
std::string shell_quote(const std::string& word);

// The exact command that resumes an interrupted run: `argv` (the command line as given) with
// -o/--out FILE and --resume FILE left out and --resume RESULTS added, quoted for a shell.
std::string resume_command(const std::vector<std::string>& argv, const std::string& results);

}  // namespace tactica::harness
