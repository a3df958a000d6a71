// tools/normgrad/dims.h — the "B,S,H[,Ho]" shape arguments of the command
// line: a syntax check (for the argument parser: a malformed list is a
// command-line error, exit 2) and the value check (zero or overflowing
// dimensions are input errors, exit 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "normgrad/status.h"

namespace normgrad::cli {

/// True when `text` is between min_rank and max_rank comma-separated
/// decimal numbers (digits only, no signs or spaces).
bool IsDimList(std::string_view text, size_t min_rank, size_t max_rank);

/// Parses a list that IsDimList accepts. Every dimension must be at least 1
/// and at most `max_dim`, and their product must fit in 64 bits; otherwise
/// the error names the dimension and the rule.
Status ParseDims(std::string_view text, uint64_t max_dim, std::vector<uint64_t>* dims);

/// Parses a string of decimal digits (IsDimList(text, 1, 1)) as a number no
/// larger than `max`; the error says "<name> ... does not fit".
Status ParseNumber(std::string_view text, uint64_t max, const std::string& name, uint64_t* value);

/// "[4, 2048, 1024]".
std::string FormatDims(const std::vector<uint64_t>& dims);

/// "1 row", "3 rows": a count and a noun, plural unless the count is 1.
std::string FormatCount(uint64_t count, const std::string& noun);

}  // namespace normgrad::cli
