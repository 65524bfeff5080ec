// The seeded generator and the seeded games built on it. The pinned values below are the
// specification of our seeded games: if one of these tests fails, the generator (or the way a
// game draws from it) changed, and every recorded seed result changes with it.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "tactica/hanpang.hpp"
#include "tactica/icebreaking.hpp"
#include "tactica/rng.hpp"

namespace {

using namespace tactica;

// Same numbers at compile time: no implementation-defined library code is involved.
static_assert(Rng(1).next() == 0xB3F2AF6D0FC710C5ULL);

TEST_CASE("rng: SplitMix64 matches its published output") {
  std::uint64_t x = 0;
  CHECK(splitmix64(x) == 0xE220A8397B1DCDAFULL);
  CHECK(splitmix64(x) == 0x6E789E6AA1B965F4ULL);
  CHECK(splitmix64(x) == 0x06C45D188009454FULL);
  x = 1234567;
  CHECK(splitmix64(x) == 6457827717110365317ULL);
}

TEST_CASE("rng: xoshiro256** matches its published output from state {1, 2, 3, 4}") {
  Rng r = Rng::from_state(1, 2, 3, 4);
  CHECK(r.next() == 11520ULL);
  CHECK(r.next() == 0ULL);
  CHECK(r.next() == 1509978240ULL);
  CHECK(r.next() == 1215971899390074240ULL);
}

TEST_CASE("rng: the first values of Rng(seed) are pinned") {
  const std::array<std::pair<std::uint64_t, std::array<std::uint64_t, 4>>, 3> pins{{
      {0, {0x99EC5F36CB75F2B4ULL, 0xBF6E1F784956452AULL, 0x1A5F849D4933E6E0ULL,
           0x6AA594F1262D2D2CULL}},
      {1, {0xB3F2AF6D0FC710C5ULL, 0x853B559647364CEAULL, 0x92F89756082A4514ULL,
           0x642E1C7BC266A3A7ULL}},
      {42, {0x15780B2E0C2EC716ULL, 0x6104D9866D113A7EULL, 0xAE17533239E499A1ULL,
            0xECB8AD4703B360A1ULL}},
  }};
  for (const auto& pin : pins) {
    const std::uint64_t seed = pin.first;
    CAPTURE(seed);
    Rng r(seed);
    for (std::uint64_t v : pin.second) CHECK(r.next() == v);
  }
  // reseed restarts the same sequence.
  Rng r(5);
  r.next();
  r.reseed(1);
  CHECK(r.next() == 0xB3F2AF6D0FC710C5ULL);
  // below and uniform draw from the same stream.
  Rng b(7);
  const std::array<std::uint32_t, 10> below10{7, 2, 8, 9, 9, 8, 0, 1, 4, 1};
  for (std::uint32_t v : below10) CHECK(b.below(10) == v);
  Rng u(7);
  CHECK(u.uniform() == doctest::Approx(0.7005764821796896).epsilon(1e-15));
}

TEST_CASE("rng: below(n) is in range and close to uniform") {
  Rng r(2024);
  for (std::uint32_t n : {1u, 2u, 3u, 5u, 6u, 7u, 100u, 6561u}) {
    for (int i = 0; i < 2000; ++i) {
      const std::uint32_t v = r.below(n);
      CHECK(v < n);
    }
  }
  // Chi-square over 6 and 3 buckets (the die of Icebreaking scores and Hanpang colours are
  // 5 and 3): with 600,000 draws a fair generator stays far below these bounds.
  for (std::uint32_t n : {3u, 5u, 6u}) {
    CAPTURE(n);
    constexpr int kDraws = 600000;
    std::array<int, 6> count{};
    for (int i = 0; i < kDraws; ++i) ++count[r.below(n)];
    const double expect = static_cast<double>(kDraws) / n;
    double chi2 = 0;
    for (std::uint32_t k = 0; k < n; ++k) chi2 += (count[k] - expect) * (count[k] - expect) / expect;
    CHECK(chi2 < 25.0);  // p < 1e-4 for up to 5 degrees of freedom
  }
  // A large n that is not a power of two exercises the rejection step; the mean stays at n/2.
  const std::uint32_t big = 3u << 30;
  double mean = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t v = r.below(big);
    REQUIRE(v < big);
    mean += v;
  }
  mean /= 200000;
  CHECK(std::abs(mean / big - 0.5) < 0.005);
  // uniform() is in [0, 1).
  for (int i = 0; i < 10000; ++i) {
    const double x = r.uniform();
    CHECK(x >= 0.0);
    CHECK(x < 1.0);
  }
}

TEST_CASE("rng: the rows of Hanpang seed 1 and 2 are pinned") {
  hanpang::RowSource one(1);
  for (const char* row : {"32223112", "32333323", "12112222", "21233313", "22211322", "11221222"})
    CHECK(one.next().str() == row);
  hanpang::RowSource two(2);
  for (const char* row : {"13133121", "23323331", "33221212"}) CHECK(two.next().str() == row);
  Rng r(5);
  CHECK(hanpang::Row::random(r).str() == "31123231");
  CHECK(hanpang::Row::random(r).str() == "33131232");
}

TEST_CASE("rng: the Icebreaking boards of seed 1 and 2 are pinned") {
  CHECK(icebreaking::Board::from_seed(1).to_text() ==
        "0 2 2 2 1 0 2 -2 0\n"
        "-2 -2 # 0 0 1 # -1 0\n"
        "-1 -1 2 1 2 -2 2 0 -1\n"
        "1 -1 -1 2 -1 0 # -2 #\n"
        "-2 0 1 -1 0 0 # 0 2\n"
        "0 -1 # 1 2 2 2 -1 1\n"
        "-1 0 # # 1 1 1 -1 2\n"
        "0 2 0 2 0 2 -2 1 #\n"
        "0 -1 -2 2 -1 2 2 0 -1\n");
  CHECK(icebreaking::Board::from_seed(2).to_text() ==
        "1 1 -1 1 2 2 -2 1 #\n"
        "1 -1 -1 -2 0 -2 1 # 1\n"
        "0 -2 -2 -1 # # 1 0 -1\n"
        "2 -1 -2 -1 -2 1 -1 -2 2\n"
        "0 -1 1 2 1 1 0 -1 2\n"
        "-2 1 -2 0 -2 -1 -1 # 1\n"
        "# 1 # -1 -1 # 2 # 0\n"
        "-1 1 0 2 -2 2 -2 0 -2\n"
        "-1 0 0 0 0 0 1 -2 1\n");
}

TEST_CASE("rng: seeded rows and boards are roughly uniform") {
  // Colours of Hanpang rows over many seeds: each about a third.
  std::array<int, 4> colours{};
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    hanpang::RowSource rows(seed);
    for (int i = 0; i < 5; ++i)
      for (auto c : rows.next().colour) ++colours[c];
  }
  const double n = 3000.0 * 5 * 8;
  for (int k = 1; k <= 3; ++k) CHECK(std::abs(colours[k] / n - 1.0 / 3) < 0.01);
  // Icebreaking: holes spread over all 81 cells, each cell a hole about 9/81 of the time.
  std::array<int, 100> holes{};
  std::array<int, 5> scores{};
  constexpr int kBoards = 20000;
  for (std::uint64_t seed = 0; seed < kBoards; ++seed) {
    const auto b = icebreaking::Board::from_seed(seed);
    for (int c : bits{b.holes}) ++holes[c];
    for (int c : bits{b.ice()}) ++scores[b.score[c] + 2];
  }
  for (int r = 0; r < icebreaking::kSize; ++r)
    for (int c = 0; c < icebreaking::kSize; ++c) {
      const double f = holes[icebreaking::cell(r, c)] / static_cast<double>(kBoards);
      CHECK(std::abs(f - 1.0 / 9) < 0.015);
    }
  for (int s : scores) CHECK(std::abs(s / (kBoards * 72.0) - 0.2) < 0.01);
}

}  // namespace
