// icebreaking_beam.hpp — forwards to games/icebreaking/model_beam.hpp (common::ice::ModelBeam,
// ModelBeamConfig, play_fast), where the beam against a greedy opponent now lives; kept while the
// expectimax plugin includes it by this name.
#pragma once

#include "games/icebreaking/model_beam.hpp"
