// tools/normgrad/report.h — what `normgrad run`, `backward` and `forward`
// print after their work, and their computation, timed when --time asks.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "normgrad/status.h"

namespace normgrad::cli {

/// Runs `compute` once; with `time`, a few times instead (the first run also
/// starts the threads; the results are the same every time) and gives the
/// median time in *seconds. Stops at the first error.
Status Compute(bool time, const std::function<Status()>& compute, double* seconds);

/// Prints the "  shape ..." line of a command's report.
void PrintShape(const std::vector<uint64_t>& shape, uint64_t rows, uint64_t cols);

/// Prints the "  time ..." and "  bandwidth ..." lines for `bytes` moved,
/// `what` saying what they are (for --time).
void PrintTime(double seconds, const char* note, double bytes, const char* what);

}  // namespace normgrad::cli
