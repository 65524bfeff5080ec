// compact.hpp — `tactica fuse --compact`: the same program in fewer bytes.
#pragma once

#include <string>
#include <string_view>

namespace tactica::fuse {

// C++ source without comments and blank lines: every // and /* */ comment outside string,
// character and raw string literals is removed (a block comment leaves one space, so tokens
// never join), trailing blanks are cut and empty lines dropped. The leading comment block (the
// fused file's header: game, plugin, config, version) is kept. Digit separators (1'000) are not
// character literals. Preprocessor lines and everything else are left as they are, so the
// program compiles to the same code.
std::string compact_source(std::string_view text);

}  // namespace tactica::fuse
