// GreedyHanpang Hanpang: the largest safe group now.
#include <climits>

#include "greedy/greedy.hpp"
#include "greedy/params.hpp"
#include "greedy/plugin.hpp"

namespace tactica::plugins::greedy {

namespace {

// (max column height, sum of squared column heights) of a board: lower is better.
std::pair<int, int> shape(const hanpang::State& s) {
  int mx = 0, sq = 0;
  for (int c = 0; c < hanpang::kCols; ++c) {
    const int h = s.height(c);
    mx = std::max(mx, h);
    sq += h * h;
  }
  return {mx, sq};
}

class GreedyHanpang final : public HanpangStrategy {
 public:
  explicit GreedyHanpang(const HanpangConfig& c) : flat_ties_(c.flat_ties) {}
  int choose(const hanpang::State& s, const SearchLimits&, BestMove& best) override {
    const int c = hanpang_move(s, flat_ties_);
    best.publish(c);
    stats_.nodes = 1;
    return c;
  }
  SearchStats stats() const override { return stats_; }

 private:
  bool flat_ties_;
  SearchStats stats_;
};

}  // namespace

int hanpang_move(const hanpang::State& s, bool flat_ties) {
  hanpang::GroupList gl;
  s.groups(gl);
  // Lexicographic key: safe first, then size, then (with flat_ties) the shape after the move,
  // then the lowest representative cell. Shapes are only computed for candidates that tie.
  int best = hanpang::kNoCell, best_size = -1;
  bool best_safe = false;
  std::pair<int, int> best_shape{0, 0};
  for (const auto& g : gl) {
    const bool safe = !s.overflows(g.cells);
    if (best != hanpang::kNoCell) {
      if (safe != best_safe) {
        if (!safe) continue;
      } else if (g.size < best_size) {
        continue;
      }
    }
    std::pair<int, int> sh{0, 0};
    if (flat_ties) {
      hanpang::State t = s;
      t.remove(g.cells);
      sh = shape(t);
    }
    const bool better = best == hanpang::kNoCell || safe != best_safe || g.size > best_size ||
                        sh < best_shape || (sh == best_shape && g.rep < best);
    if (better) best = g.rep, best_size = g.size, best_safe = safe, best_shape = sh;
  }
  return best;
}

std::unique_ptr<HanpangStrategy> make_hanpang(const Params& p) {
  return std::make_unique<GreedyHanpang>(hanpang_table().read(p));
}

}  // namespace tactica::plugins::greedy
