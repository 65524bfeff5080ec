// hanpang.hpp — Hanpang rules as a bitboard engine (see shared/spec/hanpang.md).
//
// Layout: column-major, 16 bits per column ("lane"): bit (col * 16 + h) is the cell of column
// `col` (0-based, left to right) at height `h` (0 = bottom row, protocol row 15; 14 = top row,
// protocol row 1). Bit 15 of each lane is a guard that is never set, so vertical shifts cannot
// leak into the next column and horizontal neighbours are 16 bits apart. Gravity keeps every
// column packed from height 0 up, so a column's occupancy is always a run of low bits.
// Protocol coordinates (1-based row from the top, 1-based column) appear only at the boundary.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#if defined(__SSE2__) && !defined(TACTICA_NO_SIMD)
#include <emmintrin.h>
#endif

#include "tactica/bitboard.hpp"
#include "tactica/rng.hpp"

namespace tactica::hanpang {

inline constexpr int kRows = 15;
inline constexpr int kCols = 8;
inline constexpr int kColours = 3;
inline constexpr int kMaxActions = 200;
inline constexpr int kLane = 16;
inline constexpr int kNumRows = 6561;  // 3^8 possible new rows
inline constexpr int kNoCell = -1;

constexpr int cell(int col, int height) { return col * kLane + height; }
constexpr int col_of(int cell) { return cell / kLane; }
constexpr int height_of(int cell) { return cell % kLane; }

// Protocol coordinates (1-based; row 1 is the top) <-> cell index.
constexpr int from_protocol(int row, int col) { return cell(col - 1, kRows - row); }
constexpr int protocol_row(int cell) { return kRows - height_of(cell); }
constexpr int protocol_col(int cell) { return col_of(cell) + 1; }

constexpr u128 lane_mask(int col) { return u128{0x7FFF} << (col * kLane); }
inline constexpr u128 kValid = [] {
  u128 m = 0;
  for (int c = 0; c < kCols; ++c) m |= lane_mask(c);
  return m;
}();
inline constexpr u128 kBottom = [] {
  u128 m = 0;
  for (int c = 0; c < kCols; ++c) m |= bit128(cell(c, 0));
  return m;
}();
inline constexpr u128 kTop = kBottom << (kRows - 1);
inline constexpr u128 kGuard = kBottom << (kLane - 1);  // bit 15 of every lane: never a tile

namespace detail {

// ---- Cell sets for the group search -------------------------------------------------------
// Set: a cell set with the few operations the group search needs, in an SSE2 register where
// there is one (every x86-64 processor has SSE2): a row shift is then one 16-bit lane shift and
// a column shift one 2-byte register shift. Elsewhere it is a u128 shifted a 64-bit half at a
// time. Both agree on every set without guard bits, which is all the search uses. Define
// TACTICA_NO_SIMD to test the portable version on x86-64.
#if defined(__SSE2__) && !defined(TACTICA_NO_SIMD)
struct Set {
  __m128i v;
  static Set of(u128 x) {
    return {_mm_set_epi64x(static_cast<long long>(x >> 64), static_cast<long long>(x))};
  }
  static Set load(const u128& x) { return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(&x))}; }
  u128 get() const {
    const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(v));
    const auto hi = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
    return (u128{hi} << 64) | lo;
  }
  friend Set operator|(Set a, Set b) { return {_mm_or_si128(a.v, b.v)}; }
  friend Set operator&(Set a, Set b) { return {_mm_and_si128(a.v, b.v)}; }
  friend Set operator^(Set a, Set b) { return {_mm_xor_si128(a.v, b.v)}; }
  friend Set but(Set a, Set b) { return {_mm_andnot_si128(b.v, a.v)}; }  // a & ~b
  friend bool operator==(Set a, Set b) {
    return _mm_movemask_epi8(_mm_cmpeq_epi8(a.v, b.v)) == 0xFFFF;
  }
  friend Set up(Set a) { return {_mm_slli_epi16(a.v, 1)}; }     // one row up
  friend Set down(Set a) { return {_mm_srli_epi16(a.v, 1)}; }   // one row down
  friend Set right(Set a) { return {_mm_slli_si128(a.v, 2)}; }  // one column right
  friend Set left(Set a) { return {_mm_srli_si128(a.v, 2)}; }   // one column left
};
#else
struct Set {
  u128 v;
  static constexpr Set of(u128 x) { return {x}; }
  static constexpr Set load(const u128& x) { return {x}; }
  constexpr u128 get() const { return v; }
  friend constexpr Set operator|(Set a, Set b) { return {a.v | b.v}; }
  friend constexpr Set operator&(Set a, Set b) { return {a.v & b.v}; }
  friend constexpr Set operator^(Set a, Set b) { return {a.v ^ b.v}; }
  friend constexpr Set but(Set a, Set b) { return {a.v & ~b.v}; }
  friend constexpr bool operator==(Set a, Set b) { return a.v == b.v; }
  // 128-bit shifts compile to double-precision shifts, slow on some processors; the guard bits
  // let a row shift ignore the carry between the halves, and a column shift carries only
  // between columns 3 and 4.
  static constexpr std::uint64_t lo(u128 x) { return static_cast<std::uint64_t>(x); }
  static constexpr std::uint64_t hi(u128 x) { return static_cast<std::uint64_t>(x >> 64); }
  static constexpr Set join(std::uint64_t l, std::uint64_t h) { return {(u128{h} << 64) | l}; }
  friend constexpr Set up(Set a) { return join(lo(a.v) << 1, hi(a.v) << 1); }
  friend constexpr Set down(Set a) { return join(lo(a.v) >> 1, hi(a.v) >> 1); }
  friend constexpr Set right(Set a) {
    return join(lo(a.v) << kLane, (hi(a.v) << kLane) | (lo(a.v) >> (64 - kLane)));
  }
  friend constexpr Set left(Set a) {
    return join((lo(a.v) >> kLane) | (hi(a.v) << (64 - kLane)), hi(a.v) >> kLane);
  }
};
#endif

inline Set grow(Set x, Set within) { return (x | up(x) | down(x) | right(x) | left(x)) & within; }

// Most groups left for a fill are complete after this many steps: those are taken without a
// test, so the loop after them usually stops at its first, well-predicted test.
inline constexpr int kBlindSteps = 6;

// The cells of `within` 4-connected to `seed` (a subset of `within`).
inline u128 fill(u128 seed, u128 within) {
  const Set w = Set::of(within);
  Set g = Set::of(seed);
  for (int i = 0; i < kBlindSteps; ++i) g = grow(g, w);
  for (;;) {
    const Set next = grow(g, w);
    if (next == g) return g.get();
    g = next;
  }
}

// Two fills at once: the steps of each are a chain of dependent operations, so interleaving two
// chains takes little more time than one.
inline std::array<u128, 2> fill2(u128 seed_a, u128 within_a, u128 seed_b, u128 within_b) {
  const Set wa = Set::of(within_a), wb = Set::of(within_b);
  Set a = Set::of(seed_a), b = Set::of(seed_b);
  for (int i = 0; i < kBlindSteps; ++i) a = grow(a, wa), b = grow(b, wb);
  for (;;) {
    const Set na = grow(a, wa), nb = grow(b, wb);
    if (na == a && nb == b) return {a.get(), b.get()};
    a = na, b = nb;
  }
}

// Every tile sorted by the kind of group it is in, from the same-coloured neighbours of each
// tile (all colours at once: `up` = the tile above has the same colour, and so on).
// A "star" is a tile whose same-coloured neighbours (2 to 4) touch nothing else of their colour;
// it makes a whole group with them (every group of 3 is one). An isolated pair is listed from its
// lower (or left) end. (Finding larger shapes in bulk, such as two adjacent centres, was tried:
// it cost more than the flood fills it saved.)
struct Shapes {
  u128 up, dn, rt, lf;
  u128 deg0, deg1, deg2;  // the number of same-coloured neighbours, bit-sliced: d0 + 2 d1 + 4 d2
  u128 single;            // tiles with no same-coloured neighbour: groups of 1
  u128 multi;             // the centre of each star and the lower end of each isolated pair
  u128 rest;              // every tile of the other groups (4 tiles or more each)
};

inline Shapes shapes(const std::array<u128, 3>& planes) {
  Set upm = Set::of(0), rtm = Set::of(0), occupied = Set::of(0);
  for (const u128& plane : planes) {
    const Set p = Set::load(plane);
    upm = upm | (p & down(p));
    rtm = rtm | (p & left(p));
    occupied = occupied | p;
  }
  const Set dnm = up(upm), lfm = right(rtm);
  // The degree up + dn + rt + lf, added bitwise (up & dn excludes up ^ dn, and so on).
  const Set s1 = upm ^ dnm, s2 = rtm ^ lfm, c1 = upm & dnm, c2 = rtm & lfm;
  const Set d0 = s1 ^ s2, d1 = (s1 & s2) ^ c1 ^ c2, d2 = c1 & c2;
  const Set any = upm | dnm | rtm | lfm;
  const Set two = d1 | d2;  // two neighbours or more
  const Set one = but(any, two);
  // Tiles with a same-coloured neighbour that has another same-coloured neighbour.
  const Set busy = but(upm, down(one)) | but(dnm, up(one)) | but(rtm, left(one)) |
                   but(lfm, right(one));
  const Set pair = but(one, busy) & (upm | rtm);
  const Set star = but(two, busy);
  const Set multi = pair | star;
  const Set covered = multi | up(multi & upm) | down(multi & dnm) | right(multi & rtm) |
                      left(multi & lfm);
  return {upm.get(), dnm.get(), rtm.get(), lfm.get(), d0.get(), d1.get(), d2.get(),
          but(occupied, any).get(), multi.get(), but(any, covered).get()};
}

}  // namespace detail

// A new row: the colour (1..3) of each column, left to right.
struct Row {
  std::array<std::uint8_t, kCols> colour{};

  // "12312312" -> Row; nullopt unless exactly 8 characters from '1'..'3'.
  static std::optional<Row> parse(std::string_view s) {
    if (s.size() != kCols) return std::nullopt;
    Row r;
    for (int c = 0; c < kCols; ++c) {
      if (s[c] < '1' || s[c] > '3') return std::nullopt;
      r.colour[c] = static_cast<std::uint8_t>(s[c] - '0');
    }
    return r;
  }
  std::string str() const {
    std::string s(kCols, '0');
    for (int c = 0; c < kCols; ++c) s[c] = static_cast<char>('0' + colour[c]);
    return s;
  }
  // Rows are numbered 0..6560 in base 3 (column 0 least significant) for chance nodes.
  int index() const {
    int x = 0;
    for (int c = kCols - 1; c >= 0; --c) x = x * 3 + (colour[c] - 1);
    return x;
  }
  static Row from_index(int x) {
    Row r;
    for (int c = 0; c < kCols; ++c, x /= 3) r.colour[c] = static_cast<std::uint8_t>(1 + x % 3);
    return r;
  }
  static Row random(Rng& rng) { return from_index(static_cast<int>(rng.below(kNumRows))); }
  friend bool operator==(const Row&, const Row&) = default;
};

// The rows of a seeded game, in order: the first is the initial bottom row.
class RowSource {
 public:
  explicit RowSource(std::uint64_t seed) : rng_(seed) {}
  Row next() {
    Row r;
    if constexpr (std::endian::native == std::endian::little) {
      // The same draws, gathered in a register and stored at once (byte stores followed by a
      // word load, as push_row does, would stall).
      std::uint64_t w = 0;
      for (int c = 0; c < kCols; ++c) w |= std::uint64_t{1 + rng_.below(3)} << (8 * c);
      std::memcpy(r.colour.data(), &w, sizeof w);
    } else {
      for (auto& c : r.colour) c = static_cast<std::uint8_t>(1 + rng_.below(3));
    }
    return r;
  }

 private:
  Rng rng_;
};

struct Group {
  u128 cells;
  int size;
  int rep;  // a representative cell (the lowest index of the group)
  int colour;
};

// Fixed capacity: a board has at most 120 tiles, so at most 120 groups.
struct GroupList {
  std::array<Group, kRows * kCols> items;
  int count = 0;
  const Group* begin() const { return items.data(); }
  const Group* end() const { return items.data() + count; }
  const Group& operator[](int i) const { return items[i]; }
  int size() const { return count; }
};

enum class End : std::uint8_t { none, overflow, max_actions };

class State {
 public:
  // planes[k] holds the tiles of colour k + 1.
  std::array<u128, kColours> planes{};
  std::int64_t score = 0;
  int actions = 0;
  End end = End::none;

  bool over() const { return end != End::none; }
  u128 occupied() const { return planes[0] | planes[1] | planes[2]; }
  int tiles() const { return popcount(occupied()); }
  int colour_at(int c) const {
    const u128 b = bit128(c);
    return (planes[0] & b) ? 1 : (planes[1] & b) ? 2 : (planes[2] & b) ? 3 : 0;
  }
  int height(int col) const {
    const auto lane = static_cast<std::uint32_t>(occupied() >> (col * kLane)) & 0xFFFF;
    return std::popcount(lane);
  }
  int max_height() const {
    int h = 0;
    for (int c = 0; c < kCols; ++c) h = std::max(h, height(c));
    return h;
  }

  // Adds a row at the bottom, moving every column up one. Returns false (and ends the game by
  // overflow) if that pushed a tile out over the top; the rules end the game before that can
  // happen, so this is a guard for hand-built states.
  bool push_row(const Row& row) {
    const bool out = (occupied() & kTop) != 0;
    const std::array<u128, kColours> add = row_planes(row);
    for (int k = 0; k < kColours; ++k) planes[k] = ((planes[k] << 1) & kValid) | add[k];
    if (out) end = End::overflow;
    return !out;
  }

  // The bottom-row cells of each colour of `row`, as three sets (colours outside 1..3: none).
  static std::array<u128, kColours> row_planes(const Row& row) {
    if constexpr (std::endian::native == std::endian::little) {
      // One byte per column, spread from bit 8c to bit 16c of the low (columns 0-3) or high
      // (columns 4-7) half; then the colour's two bits pick the plane.
      std::uint64_t w;
      std::memcpy(&w, row.colour.data(), sizeof w);
      w &= 0x0303030303030303ULL;
      auto spread = [](std::uint64_t x) {
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
        return (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
      };
      const u128 lanes = (u128{spread(w >> 32)} << 64) | spread(w & 0xFFFFFFFFULL);
      const u128 b0 = lanes & kBottom, b1 = (lanes >> 1) & kBottom;
      return {b0 & ~b1, b1 & ~b0, b0 & b1};
    } else {
      std::array<u128, kColours> m{};
      for (int c = 0; c < kCols; ++c)
        if (row.colour[c] >= 1 && row.colour[c] <= 3) m[row.colour[c] - 1] |= bit128(cell(c, 0));
      return m;
    }
  }

  // The group of same-coloured tiles 4-connected to cell c (empty set if c is empty).
  u128 group_at(int c) const {
    const int k = colour_at(c);
    return k ? detail::fill(bit128(c), planes[k - 1]) : 0;
  }

  // Lists every group once, in no particular order. Most groups of a playing board are tiny,
  // so they are found in bulk from same-colour neighbour masks (see detail::Shapes): single
  // tiles, isolated pairs and stars are read off the masks; only the rest needs a flood fill.
  void groups(GroupList& out) const {
    const detail::Shapes sh = detail::shapes(planes);
    Group* items = out.items.data();
    int n = 0;
    n = add_singles<0>(items, n, sh);
    n = add_singles<1>(items, n, sh);
    n = add_multis<0>(items, n, sh);
    n = add_multis<1>(items, n, sh);
    // The rest two groups at a time: from the lowest and the highest cell left (the same group
    // if the first fill reaches the second seed).
    for (u128 rest = sh.rest; rest;) {
      const u128 a = rest & (~rest + 1), b = highest(rest);
      const int ca = colour_of(a), cb = colour_of(b);
      const auto [ga, gb] = detail::fill2(a, rest & planes[ca - 1], b, rest & planes[cb - 1]);
      items[n++] = Group{ga, popcount(ga), lowest_bit(a), ca};
      rest ^= ga;
      if (!(ga & b)) {
        items[n++] = Group{gb, popcount(gb), lowest_bit(gb), cb};
        rest ^= gb;
      }
    }
    out.count = n;
  }

  // Number of groups, without listing them.
  int group_count() const {
    const detail::Shapes sh = detail::shapes(planes);
    int n = popcount(sh.single) + popcount(sh.multi);
    for (u128 rest = sh.rest; rest; ++n) {
      const u128 seed = rest & (~rest + 1);
      rest ^= detail::fill(seed, rest & planes[colour_of(seed) - 1]);
    }
    return n;
  }

  // Removes the given group (all of one colour, as from group_at or groups()), lets every
  // column fall, scores k^2 and applies the end rules. Returns the points scored.
  int remove(u128 g) {
    const int k = popcount(g);
    g &= kValid;
    // Each pass closes the lowest removed cell of every column at once: the part of the
    // column above it moves down one. Passes = the most cells removed from one column.
    while (g) {
      const u128 t = g | kGuard;                // a column with nothing removed stops at its guard
      const u128 lowest = t & ~(t - kBottom);   // lowest set bit of each lane (no borrow across)
      const u128 below = lowest - kBottom;      // the cells under it
      const u128 upper = kValid & ~below;       // the cells from it up (none if only the guard)
      for (auto& p : planes) p = (p & below) | ((p >> 1) & upper);
      g = ((g & ~lowest) >> 1) & upper;
    }
    score += static_cast<std::int64_t>(k) * k;
    ++actions;
    if (actions >= kMaxActions)
      end = End::max_actions;
    else if (occupied() & kTop)
      end = End::overflow;  // the next row would push a tile out: its points still count
    return k * k;
  }

  // Plays the group at cell c (which must hold a tile). Returns the points scored.
  int play(int c) { return remove(group_at(c)); }

  // True if playing this group would end the game by overflow.
  bool overflows(u128 g) const {
    // Bit 15 of a lane is set iff g has a cell in that column (15-bit sums cannot carry out).
    const u128 touched = ((g & kValid) + kValid) & kGuard;
    return (occupied() & kTop & ~(touched >> 1)) != 0;
  }

  // Text form: 15 lines (top row first) of 8 digits 0-3, each ending in '\n'.
  std::string to_text() const {
    std::string s;
    s.reserve(kRows * (kCols + 1));
    for (int h = kRows - 1; h >= 0; --h) {
      for (int c = 0; c < kCols; ++c) s += static_cast<char>('0' + colour_at(cell(c, h)));
      s += '\n';
    }
    return s;
  }
  // Parses the text form (lines may be separated by any whitespace); nullopt unless it is
  // 15 rows of 8 digits 0-3 with no tile floating above an empty cell.
  static std::optional<State> from_text(std::string_view text) {
    State st;
    int h = kRows - 1, c = 0;
    for (char ch : text) {
      if (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t') {
        if (c == kCols) c = 0, --h;
        else if (c != 0) return std::nullopt;
        continue;
      }
      if (ch < '0' || ch > '3' || h < 0 || c >= kCols) return std::nullopt;
      if (ch != '0') st.planes[ch - '1'] |= bit128(cell(c, h));
      ++c;
    }
    if (c == kCols) c = 0, --h;
    if (h != -1 || c != 0) return std::nullopt;
    for (int col = 0; col < kCols; ++col) {
      const auto lane = static_cast<std::uint32_t>(st.occupied() >> (col * kLane)) & 0x7FFF;
      if (lane & (lane + 1)) return std::nullopt;  // not a run of low bits: a floating tile
    }
    return st;
  }

  friend bool operator==(const State&, const State&) = default;

 private:
  // The highest cell of a non-empty set, as a set.
  static u128 highest(u128 s) {
    const auto hi = static_cast<std::uint64_t>(s >> 64), lo = static_cast<std::uint64_t>(s);
    return hi ? u128{std::uint64_t{1} << (63 - std::countl_zero(hi))} << 64
              : u128{std::uint64_t{1} << (63 - std::countl_zero(lo))};
  }

  // The colour (1..3) of the tile `b` (one cell, holding a tile), without branches.
  int colour_of(u128 b) const {
    return 1 + static_cast<int>((planes[1] & b) != 0) + 2 * static_cast<int>((planes[2] & b) != 0);
  }

  // Appends the single tiles of one 64-bit half of the board to items[n..]; returns the count.
  template <int Half>
  int add_singles(Group* items, int n, const detail::Shapes& sh) const {
    auto half = [](u128 x) { return static_cast<std::uint64_t>(x >> (64 * Half)); };
    const std::uint64_t p1 = half(planes[1]), p2 = half(planes[2]);
    for (std::uint64_t m = half(sh.single); m; m &= m - 1) {
      const int i = std::countr_zero(m);
      const auto colour = static_cast<int>(1 + ((p1 >> i) & 1) + 2 * ((p2 >> i) & 1));
      items[n++] = Group{u128{m & (~m + 1)} << (64 * Half), 1, 64 * Half + i, colour};
    }
    return n;
  }

  // Appends the pairs and stars centred in one 64-bit half: the centre and its same-coloured
  // neighbours (which may lie in the other half: columns 3 and 4 meet there).
  template <int Half>
  int add_multis(Group* items, int n, const detail::Shapes& sh) const {
    using std::uint64_t;
    auto half = [](u128 x) { return static_cast<uint64_t>(x >> (64 * Half)); };
    const uint64_t up = half(sh.up), dn = half(sh.dn), rt = half(sh.rt), lf = half(sh.lf);
    const uint64_t d0 = half(sh.deg0), d1 = half(sh.deg1), d2 = half(sh.deg2);
    const uint64_t p1 = half(planes[1]), p2 = half(planes[2]);
    for (uint64_t m = half(sh.multi); m; m &= m - 1) {
      const int i = std::countr_zero(m);
      const uint64_t b = m & (~m + 1);
      const uint64_t here =
          b | ((b & up) << 1) | ((b & dn) >> 1) | ((b & rt) << kLane) | ((b & lf) >> kLane);
      const u128 g = Half == 0 ? (u128{(b & rt) >> (64 - kLane)} << 64) | here
                               : (u128{here} << 64) | ((b & lf) << (64 - kLane));
      const auto size = static_cast<int>(1 + ((d0 >> i) & 1) + 2 * ((d1 >> i) & 1) + 4 * ((d2 >> i) & 1));
      const auto colour = static_cast<int>(1 + ((p1 >> i) & 1) + 2 * ((p2 >> i) & 1));
      items[n++] = Group{g, size, lowest_bit(g), colour};
    }
    return n;
  }
};

// The cheap move the agent falls back on: the largest group that does not end the game by
// overflow (any group if all do), ties to the lowest cell. Needs only the rules.
inline int fallback_move(const State& s) {
  GroupList gl;
  s.groups(gl);
  int best = kNoCell, best_size = -1;
  bool best_safe = false;
  for (const Group& g : gl) {
    const bool safe = !s.overflows(g.cells);
    if ((safe && !best_safe) ||
        (safe == best_safe && (g.size > best_size || (g.size == best_size && g.rep < best)))) {
      best = g.rep, best_size = g.size, best_safe = safe;
    }
  }
  return best;
}

}  // namespace tactica::hanpang
