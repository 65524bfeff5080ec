// beam — beam search for both games (issue 4).
//   Hanpang: beam search over our own moves on phantom rows (colours unknown, never joining),
//   the best root moves then re-valued on sampled next rows, each followed by a phantom beam.
//   Icebreaking: beam search over our move sequences, the opponent's replies predicted by the
//   greedy policy, re-searched every turn.
#pragma once

#include "tactica/registry.hpp"

TACTICA_PLUGIN_API(beam)
