// The greedy plugin's descriptor and its parameter tables (greedy/params.hpp).
#include "greedy/params.hpp"
#include "greedy/plugin.hpp"

namespace tactica::plugins::greedy {

const ParamTable<HanpangConfig>& hanpang_table() {
  using C = HanpangConfig;
  static const ParamTable<C> table{
      {"flat_ties", &C::flat_ties, 0, 1,
       "equal sizes: prefer the lower, flatter board after the move (off: lowest cell)"}};
  return table;
}

const ParamTable<IcebreakingConfig>& icebreaking_table() {
  using C = IcebreakingConfig;
  static const ParamTable<C> table{
      {"reply_ties", &C::reply_ties, 0, 1,
       "equal gains: prefer the move leaving the opponent the smallest best gain (off: lowest cell)"}};
  return table;
}

PluginInfo describe() {
  return describe_plugin(
      "greedy", "1.0.0",
      "largest safe group now (Hanpang); largest immediate gain with captures (Icebreaking)",
      hanpang_table(), icebreaking_table());
}

}  // namespace tactica::plugins::greedy
