// tools/normgrad-cc/cpp_scan.h — the small C++ scanner normgrad-cc's launch
// rewrite and kernel scan share: it knows comments, string, character and
// raw string literals and digit separators, so `<<<` or `__global__` inside
// them is not taken for code.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace normgrad_cc {

inline constexpr size_t kNpos = std::string_view::npos;

bool IsIdentChar(char c);
bool IsSpace(char c);

/// The identifier-like token that ends just before `end` (may be empty).
std::string_view TokenBefore(std::string_view s, size_t end);

/// If a comment or a literal starts at `i`, the index just past it; else `i`.
size_t SkipCommentOrLiteral(std::string_view s, size_t i);

/// The first index at or after `i` that is code, not inside a comment or a
/// literal (s.size() if none): the step of every scan over code positions.
size_t NextCode(std::string_view s, size_t i);

/// Index of the first non-space at or after `i`, skipping comments too.
size_t SkipSpaceAndComments(std::string_view s, size_t i);

/// Index just past the whitespace that ends at `end` (backwards), not below
/// `floor`.
size_t SkipSpaceBack(std::string_view s, size_t end, size_t floor);

/// Depth change of a bracket character: +1 for ( [ {, -1 for ) ] }, else 0.
int BracketDelta(char c);

/// `text` as a C/C++ narrow string literal that stands for exactly its bytes
/// (see cpp_scan.cc).
std::string StringLiteral(std::string_view text);

/// The 1-based line of `pos` in `s`.
int LineOf(std::string_view s, size_t pos);

}  // namespace normgrad_cc
