// tools/normgrad/report.cc — the commands' report lines and optional timing
// (see report.h).
#include "report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "dims.h"

namespace normgrad::cli {
namespace {

// Odd, so the median is one of the runs.
constexpr int kTimedRuns = 3;

}  // namespace

Status Compute(bool time, const std::function<Status()>& compute, double* seconds) {
  if (!time) return compute();
  std::vector<double> times;
  for (int i = 0; i < kTimedRuns; ++i) {
    const auto start = std::chrono::steady_clock::now();
    Status s = compute();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!s.ok()) return s;
  }
  std::sort(times.begin(), times.end());
  *seconds = times[kTimedRuns / 2];
  return Status::Ok();
}

void PrintShape(const std::vector<uint64_t>& shape, uint64_t rows, uint64_t cols) {
  std::printf("  shape      %s (rows %llu, H %llu)\n", FormatDims(shape).c_str(),
              static_cast<unsigned long long>(rows), static_cast<unsigned long long>(cols));
}

void PrintTime(double seconds, const char* note, double bytes, const char* what) {
  std::printf("  time       %.3f ms (%smedian of %d runs)\n", seconds * 1e3, note, kTimedRuns);
  std::printf("  bandwidth  %.1f GB/s (%s)\n", seconds > 0 ? bytes / seconds / 1e9 : 0.0, what);
}

}  // namespace normgrad::cli
