// Report seed 22 before action 160, as the Hanpang submit met it on the clock (session 27): a
// 53-tile colour-1 mass holds columns 0, 3 and 7 at 14 tiles. Taking the colour-1 pair at the
// bottom of column 5 splits the mass; on a phantom row its halves rejoin two moves later, on the
// seed's real row (kSeed22Row) they do not, and the board is lost at action 162. Shared by
// hanpang_eval_test.cpp (sampled_survivals) and beam_test.cpp (guard_rows).
#pragma once

namespace beam_testing {

inline constexpr const char* kSeed22Board =
    "00000000\n10010001\n10010001\n11010101\n11010311\n11110331\n11211131\n12111111\n"
    "11213111\n12123111\n23121111\n33312111\n12332311\n12232131\n31133133\n";
inline constexpr int kSeed22Actions = 159;             // actions made before this board's decision
inline constexpr const char* kSeed22Row = "31113312";  // the row that follows the move

}  // namespace beam_testing
