// The greedy plugin's descriptor.
#include "greedy/plugin.hpp"

namespace tactica::plugins::greedy {

PluginInfo describe() {
  PluginInfo info;
  info.name = "greedy";
  info.version = "1.0.0";
  info.summary = "largest safe group now (Hanpang); largest immediate gain with captures (Icebreaking)";
  info.plays_hanpang = info.plays_icebreaking = true;
  info.hanpang_params = {
      {"flat_ties", ParamType::boolean, 1, 0, 1,
       "equal sizes: prefer the lower, flatter board after the move (off: lowest cell)"}};
  info.icebreaking_params = {
      {"reply_ties", ParamType::boolean, 1, 0, 1,
       "equal gains: prefer the move leaving the opponent the smallest best gain (off: lowest cell)"}};
  return info;
}

}  // namespace tactica::plugins::greedy
