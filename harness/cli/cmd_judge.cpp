// cmd_judge.cpp — `tactica judge hanpang|icebreaking`: one game, a one-line result, a replay.
#include <cstdio>
#include <memory>

#include "cli/common.hpp"
#include "runner/records.hpp"

namespace tactica::cli {
namespace {

struct JudgeOptions {
  std::uint64_t seed = 1;
  std::string agent, first, second, label, first_label, second_label, replay;
  bool json = false;
  LimitOptions limits;
  AgentSetOptions sets;
};

// Plays one game through the runner, so Ctrl-C stops it cleanly (agents killed, nothing left).
template <class Play>
int play_one(const Play& play) {
  harness::run_jobs(
      1, 1, [&](std::size_t, const std::atomic<bool>& abort) { return play(abort); },
      [](std::size_t, const nlohmann::json&) { return true; }, nullptr);
  return 0;
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
  h->add_option("--replay", o->replay, "write the whole game as a JSON replay (docs/FORMATS.md)");
  h->add_flag("--json", o->json, "print the result as a results line (JSON) instead of text");
  h->add_option("--set", o->sets.set,
                "key=value (repeat): override a key of the config, e.g. --set params.width=300")
      ->type_name("KEY=VALUE");
  o->limits.add(h);
  h->callback([o, &ctx] {
    guarded(ctx, "judge", [&] {
      auto agents = resolve_agents(
          {o->agent},
          o->label.empty() ? std::vector<std::string>{} : std::vector<std::string>{o->label},
          "hanpang", o->sets);
      const auto limits = o->limits.limits();
      harness::HanpangResult result;
      bool played = false;
      play_one([&](const std::atomic<bool>& abort) {
        result = harness::judge_hanpang(agents[0], o->seed, limits, {&abort, !o->replay.empty()});
        played = true;
        return nlohmann::json::object();
      });
      if (!played) {
        std::fprintf(stderr, "tactica judge: interrupted\n");
        return 130;
      }
      if (!o->replay.empty()) write_json_file(o->replay, result.replay);
      if (o->json) {
        harness::BenchRecord r{agents[0].label,  0,
                               o->seed,          result.score,
                               result.actions,   result.verdict,
                               result.time_ms,   result.detail,
                               result.accounting};
        std::printf("%s\n", harness::to_json(r)
                                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                                .c_str());
      } else {
        std::printf("%s\n", harness::summary_line(result, agents[0].label, o->seed).c_str());
      }
      return 0;
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
  ib->add_option("--replay", o->replay, "write the whole game as a JSON replay (docs/FORMATS.md)");
  ib->add_flag("--json", o->json, "print the result as a results line (JSON) instead of text");
  o->sets.add(ib);
  o->limits.add(ib);
  ib->callback([o, &ctx] {
    guarded(ctx, "judge", [&] {
      auto agents = resolve_agents({o->first, o->second}, {}, "icebreaking", o->sets);
      if (!o->first_label.empty()) agents[0].label = o->first_label;
      if (!o->second_label.empty()) agents[1].label = o->second_label;
      if (!o->first_label.empty() || !o->second_label.empty()) harness::make_labels_unique(agents);
      const auto limits = o->limits.limits();
      harness::IcebreakingResult result;
      bool played = false;
      play_one([&](const std::atomic<bool>& abort) {
        result = harness::judge_icebreaking(agents[0], agents[1], o->seed, limits,
                                            {&abort, !o->replay.empty()});
        played = true;
        return nlohmann::json::object();
      });
      if (!played) {
        std::fprintf(stderr, "tactica judge: interrupted\n");
        return 130;
      }
      if (!o->replay.empty()) write_json_file(o->replay, result.replay);
      if (o->json) {
        harness::TourneyRecord r;
        r.seed = o->seed;
        r.pair = 1;
        r.first = agents[0].label;
        r.second = agents[1].label;
        r.totals = result.totals;
        r.winner = result.winner;
        r.verdict = result.verdict;
        r.time_ms = result.time_ms;
        r.detail = result.detail;
        r.accounting = result.accounting;
        std::printf("%s\n", harness::to_json(r)
                                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                                .c_str());
      } else {
        std::printf(
            "%s\n",
            harness::summary_line(result, agents[0].label, agents[1].label, o->seed).c_str());
      }
      return 0;
    });
  });
}

}  // namespace tactica::cli
