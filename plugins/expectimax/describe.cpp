// The expectimax plugin's descriptor: parameters of both games with their measured defaults.
#include "expectimax/plugin.hpp"

namespace tactica::plugins::expectimax {

PluginInfo describe() {
  using T = ParamType;
  PluginInfo info;
  info.name = "expectimax";
  info.version = "1.0.0";
  info.summary =
      "expectimax over sampled rows (Hanpang); alpha-beta with TT and exact endgame (Icebreaking)";
  info.plays_hanpang = info.plays_icebreaking = true;
  info.hanpang_params = {
      {"depth", T::integer, 3, 1, 6, "our moves searched, the root's included"},
      {"width", T::integer, 3, 1, 120, "moves expanded below the root at each decision node"},
      {"root_width", T::integer, 12, 1, 120, "root moves expanded beyond depth 1"},
      {"samples", T::integer, 3, 1, 32, "sampled next rows per chance node"},
      {"iter_start", T::real, 0.5, 0.05, 1, "start another depth only before this fraction of the move's soft time"},
      {"danger", T::real, -20, -1000, 0, "evaluation: per squared height above the danger line, per column"},
      {"group_sq", T::real, 2, 0, 8, "evaluation: per k^2 of every group of two or more"},
  };
  info.icebreaking_params = {
      {"tt_mb", T::integer, 32, 1, 1024, "transposition table size in MiB"},
      {"qdepth", T::integer, 0, 0, 16, "plies of capture-only quiescence at the horizon"},
      {"solve_at", T::integer, 16, 0, 72, "search straight to the end with this many ice cells or fewer"},
      {"aspiration", T::integer, 0, 0, 50, "aspiration window half-width in points (0: full window)"},
      {"pvs", T::boolean, 1, 0, 1, "principal variation search (null windows after the first move)"},
      {"iter_start", T::real, 0.6, 0.05, 1, "start another iteration only before this fraction of the move's soft time"},
      {"time_scale", T::real, 1, 0.25, 3, "use this multiple of the host's soft time per move (the hard limit still holds)"},
      {"w_pool", T::real, 0, 0, 4, "evaluation: weight of the alternating sum of the cells left"},
      {"w_threat", T::real, 0, -2, 2, "evaluation: weight of the best capture open to the side to move"},
      {"w_plus", T::real, 0, 0, 4, "evaluation: weight of the alternating sum of the positive cells left"},
      {"w_tempo", T::real, 0.5, 0, 2, "evaluation: weight of the side to move's best immediate gain"},
      {"w_alt", T::real, 0, 0, 2, "evaluation: weight of g1 - g2 + g3 ... over the alt_k best move gains"},
      {"alt_k", T::integer, 2, 1, 72, "evaluation: move gains in w_alt's alternating sum"},
      {"model", T::boolean, 1, 0, 1, "opponent modelling: an opponent whose every move was greedy's is played by a beam against greedy"},
      {"model_after", T::integer, 2, 1, 36, "opponent moves that must all match greedy before the model is trusted"},
      {"model_width", T::integer, 64, 1, 4096, "model beam: first width (cut to the time)"},
      {"model_max_width", T::integer, 4096, 1, 65536, "model beam: widest pass"},
  };
  return info;
}

}  // namespace tactica::plugins::expectimax
