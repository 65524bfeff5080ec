// cmd_judge.cpp — `tactica judge hanpang|icebreaking`: one game, a one-line result, a replay.
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/common.hpp"

namespace tactica::cli {
namespace {

struct JudgeOptions {
  std::uint64_t seed = 1;
  std::string agent, first, second, label, first_label, second_label, replay;
  bool json = false;
  LimitOptions limits;
  AgentSetOptions sets;
};

// Plays one game through the runner, so Ctrl-C stops it cleanly (agents killed, nothing left),
// then writes its replay (--replay) and prints it: a results line (--json, `record(result)`) or
// the text summary `line(result)`. 130 if it was interrupted.
template <class Play, class Record, class Line>
int play_one(const JudgeOptions& o, const Play& play, const Record& record, const Line& line) {
  std::optional<decltype(play(std::declval<const std::atomic<bool>&>()))> result;
  harness::run_jobs(
      1, 1,
      [&](std::size_t, const std::atomic<bool>& abort) {
        result = play(abort);
        return nlohmann::json::object();
      },
      [](std::size_t, const nlohmann::json&) { return true; }, nullptr);
  if (!result) {
    std::fprintf(stderr, "tactica judge: interrupted\n");
    return 130;
  }
  if (!o.replay.empty()) write_json_file(o.replay, result->replay);
  if (o.json)
    std::printf("%s\n", harness::to_json(record(*result))
                            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                            .c_str());
  else
    std::printf("%s\n", line(*result).c_str());
  return 0;
}

// --replay and --json, the same for both games.
void add_output_options(CLI::App* sub, JudgeOptions& o) {
  sub->add_option("--replay", o.replay, "write the whole game as a JSON replay (docs/FORMATS.md)");
  sub->add_flag("--json", o.json, "print the result as a results line (JSON) instead of text");
}

}  // namespace

void register_judge(CLI::App& app, Context& ctx) {
  auto* judge =
      app.add_subcommand("judge", "play one game under the platform's limits and print the result");
  judge->require_subcommand(1);
  auto o = std::make_shared<JudgeOptions>();

  auto* h = judge->add_subcommand("hanpang",
                                  "one Hanpang run: tactica judge hanpang --seed N --agent AGENT");
  h->add_option("--seed", o->seed, "the seed of the rows (a whole number >= 0)")
      ->required()
      ->check(seed_validator());
  h->add_option("--agent", o->agent,
                "AGENT: a config (.toml, run by tactica-agent), an executable, a .py file, or a "
                "command line in quotes")
      ->required();
  h->add_option("--label", o->label, "the agent's name in the output (default: from AGENT)");
  add_output_options(h, *o);
  h->add_option("--set", o->sets.set,
                "key=value (repeat): override a key of the config, e.g. --set params.width=300")
      ->type_name("KEY=VALUE");
  o->limits.add(h);
  on_run(h, ctx, "judge", o, [](const JudgeOptions& opts) {
    auto agents = resolve_agents(
        {opts.agent},
        opts.label.empty() ? std::vector<std::string>{} : std::vector<std::string>{opts.label},
        "hanpang", opts.sets);
    const auto limits = opts.limits.limits();
    return play_one(
        opts,
        [&](const std::atomic<bool>& abort) {
          return harness::judge_hanpang(agents[0], opts.seed, limits,
                                        {&abort, !opts.replay.empty()});
        },
        [&](const harness::HanpangResult& r) {
          return result_record(r, agents[0].label, 0, opts.seed);
        },
        [&](const harness::HanpangResult& r) {
          return harness::summary_line(r, agents[0].label, opts.seed);
        });
  });

  auto* ib = judge->add_subcommand(
      "icebreaking",
      "one Icebreaking game: tactica judge icebreaking --seed N --first AGENT --second AGENT");
  ib->add_option("--seed", o->seed, "the seed of the board (a whole number >= 0)")
      ->required()
      ->check(seed_validator());
  ib->add_option("--first", o->first, "AGENT playing first (a)")->required();
  ib->add_option("--second", o->second, "AGENT playing second (b)")->required();
  ib->add_option("--first-label", o->first_label, "the first agent's name (default: from AGENT)");
  ib->add_option("--second-label", o->second_label,
                 "the second agent's name (default: from AGENT)");
  add_output_options(ib, *o);
  o->sets.add(ib);
  o->limits.add(ib);
  on_run(ib, ctx, "judge", o, [](const JudgeOptions& opts) {
    auto agents = resolve_agents({opts.first, opts.second}, {}, "icebreaking", opts.sets);
    if (!opts.first_label.empty()) agents[0].label = opts.first_label;
    if (!opts.second_label.empty()) agents[1].label = opts.second_label;
    if (!opts.first_label.empty() || !opts.second_label.empty())
      harness::make_labels_unique(agents);
    const auto limits = opts.limits.limits();
    return play_one(
        opts,
        [&](const std::atomic<bool>& abort) {
          return harness::judge_icebreaking(agents[0], agents[1], opts.seed, limits,
                                            {&abort, !opts.replay.empty()});
        },
        [&](const harness::IcebreakingResult& r) {
          return result_record(r, opts.seed, 1, agents[0].label, agents[1].label);
        },
        [&](const harness::IcebreakingResult& r) {
          return harness::summary_line(r, agents[0].label, agents[1].label, opts.seed);
        });
  });
}

}  // namespace tactica::cli
