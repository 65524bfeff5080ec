// view.hpp — a replay (docs/FORMATS.md, "tactica-replay/1") as one self-contained HTML page.
//
// The page carries the replay as JSON and a small script that draws the game move by move
// (step / play / jump controls, keyboard arrows, #move=N in the URL) beside an SVG chart of the
// score and bank (and CPU, for Icebreaking) over the moves, whose cursor follows the move shown
// and which shows the move clicked. It loads nothing from the
// network: no external scripts, styles, fonts or images, and a Content-Security-Policy that
// forbids them. On load the page replays every move with the rules and checks that what it
// shows matches the replay; the result is shown at the bottom and exposed in the DOM
// (#selfcheck data-result) for the browser test.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>

namespace tactica::report {

// Bad input to the viewer (unreadable file, not a replay, a field of the wrong shape).
// what() is one line: where, what is wrong, and how to fix it.
class ViewError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Checks that `replay` has the shape the page relies on (boards, coordinates, the per-move
// fields of its game). Throws ViewError naming the first bad field, e.g. "moves[3].after[2]".
// `source` (a file name) prefixes the message.
void validate_replay(const nlohmann::json& replay, const std::string& source = "replay");

// Reads and validates a replay file. Throws ViewError.
nlohmann::json read_replay(const std::filesystem::path& file);

// The HTML page for a validated replay. The JSON is embedded so that no byte sequence in it
// (an agent's line "</script>", "<!--", U+2028) can end the script element early.
std::string replay_html(const nlohmann::json& replay);

// The default output next to the replay: game.json -> game.html.
std::filesystem::path default_html_path(const std::filesystem::path& replay_file);

// `tactica view REPLAY.json [-o game.html]`: reads, validates, writes the page (an empty
// `out` means default_html_path). Returns the path written. Throws ViewError.
std::filesystem::path write_replay_html(const std::filesystem::path& replay_file,
                                        std::filesystem::path out = {});

// Writes `text` to `file` (replacing it). Throws ViewError with the path and the reason.
void write_text_file(const std::filesystem::path& file, const std::string& text);

}  // namespace tactica::report
