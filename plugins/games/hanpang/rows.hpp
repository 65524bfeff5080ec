// games/hanpang/rows.hpp — the rows a Hanpang search foresees after its moves, and how it draws
// them. Header-only, standard library + core only.
//
// RowWorld is the world of a Hanpang beam (beam/search.hpp's BeamModel): after each of our moves
// a row rises — a sampled one for the first layers of a pass, then phantom rows (colours unknown,
// never joining a group: games/hanpang/eval.hpp's push_phantom_row), which lift the board only in
// the first lift_layers layers after our decision (0: in all). Lines are valued by the board
// evaluation; a layer whose best line overflowed is hopeless (real rows might still let a line
// live that phantom rows, which can never be removed, kill).
#pragma once

#include <cstdint>

#include "games/hanpang/eval.hpp"
#include "tactica/game.hpp"
#include "tactica/hanpang.hpp"

namespace tactica::plugins::common {

// Stratified rows: the same row with its colours cycled (1 -> 2 -> 3 -> 1), so that in three
// rounds every cell of the row takes each colour once.
inline void cycle_colours(hanpang::Row& r) {
  for (auto& c : r.colour) c = static_cast<std::uint8_t>(c % hanpang::kColours + 1);
}

class RowWorld {
 public:
  using Value = double;
  struct Reply {};  // the row of a layer is the pass's, nothing to keep per line
  static constexpr bool kIndexTies = false;

  RowWorld(const HanpangEval& eval, int lift_layers, int skip_singles = 0)
      : eval_(&eval), lift_layers_(lift_layers), skip_singles_(skip_singles) {}

  // The next pass's future: rows[0..n) rise after our moves in its first n layers, phantom rows
  // after that; layer 0 of the pass is our move number `first_move` from the decision (0 or 1:
  // what lift_layers counts from).
  void future(const hanpang::Row* rows, int n, int first_move) {
    rows_ = rows;
    nrows_ = n;
    first_ = first_move;
  }

  Reply world(hanpang::State& s, int layer) const {
    if (s.over()) return {};
    if (layer < nrows_)
      s.push_row(rows_[layer]);
    else if (lift_layers_ == 0 || layer + first_ < lift_layers_)
      push_phantom_row(s);
    return {};
  }
  void replay(hanpang::State& s, Reply, int layer) const { world(s, layer); }
  double value(const hanpang::State& s) const { return (*eval_)(s); }
  std::uint64_t key(const hanpang::State& s) const { return HanpangGame{}.key(s); }
  bool hopeless(double top) const { return top < eval_->weights().overflow / 2; }
  // Whether the beam leaves out our move m on s in layer `layer` (beam/search.hpp asks before it
  // makes the child; it keeps every move of a state whose moves are all left out). With
  // skip_singles, from our skip_singles-th move after the decision on (1: the second), a single
  // tile is left out when its removal joins nothing: the column above it drops one cell without
  // adding a same-coloured neighbour pair (useless_single). A single tile in a column above
  // danger_from is kept (its removal lowers a column in danger).
  bool skip(const hanpang::State& s, const hanpang::Group& m, int layer) const {
    if (skip_singles_ == 0 || m.size != 1 || layer + first_ < skip_singles_) return false;
    return useless_single(s, m.rep, eval_->weights().danger_from);
  }

 private:
  const HanpangEval* eval_;
  int lift_layers_;
  int skip_singles_;
  const hanpang::Row* rows_ = nullptr;
  int nrows_ = 0;
  int first_ = 0;
};

}  // namespace tactica::plugins::common
