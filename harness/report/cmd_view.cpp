// cmd_view.cpp — `tactica view REPLAY.json [-o game.html]`: a judged game as one self-contained
// HTML page to step through in a browser (harness/report/view.hpp, viewer.html).
#include <cstdio>
#include <memory>

#include "cli/common.hpp"
#include "report/view.hpp"

namespace tactica::cli {

void register_view(CLI::App& app, Context& ctx) {
  struct Options {
    std::string replay, out;
  };
  auto o = std::make_shared<Options>();
  auto* v = app.add_subcommand(
      "view",
      "A replay (tactica judge ... --replay FILE) as one HTML page that shows the game move "
      "by move beside a chart of the score and bank (and CPU) over the moves: step, play, jump, "
      "arrow keys, click the chart; opens offline in any browser");
  v->add_option("REPLAY", o->replay, "the replay JSON written by tactica judge --replay")
      ->required();
  v->add_option("-o,--out", o->out, "the page to write (default: REPLAY with .html)");
  v->callback([o, &ctx] {
    guarded(ctx, "view", [&] {
      try {
        const auto path = report::write_replay_html(o->replay, o->out);
        std::printf("%s\n", path.string().c_str());
        return 0;
      } catch (const report::ViewError& e) {  // bad input: like the other commands, exit 2
        std::fprintf(stderr, "tactica view: %s\n", e.what());
        return 2;
      }
    });
  });
}

}  // namespace tactica::cli
