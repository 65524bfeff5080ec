// check.hpp — checks before any game: every config AGENT is run once as
// `tactica-agent --config FILE [--set ...] --check`, so a typo in a config, a parameter out of
// range or a plugin that is not built stops the command before the first game, with the very
// line `--check` prints, instead of every game ending RUNTIME_ERROR.
#pragma once

#include <vector>

#include "judge/agent.hpp"

namespace tactica::harness {

// Runs `--check` for every config agent of `agents` (executables and command lines are left
// alone; the same config with the same --set is checked once). Throws AgentError whose what()
// is the full first error line tactica-agent gave (without its "tactica-agent: error: "
// prefix), e.g. "my.toml:7: params.deph: unknown parameter of plugin 'beam' for hanpang;
// allowed: ...". Throws SpawnError if tactica-agent cannot be run at all.
void check_agents(const std::vector<AgentSpec>& agents);

}  // namespace tactica::harness
