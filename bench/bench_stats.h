// bench_stats.h — the order statistics every bench program reports: the
// median of repeated runs and the quartiles of their ratios. One definition,
// so that a "median" means the same in every table of docs/performance.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace bench {

/// The q-quantile (0 ≤ q ≤ 1) of the samples, interpolated linearly
/// between the two nearest ranks; NaN when there are none.
inline double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

/// The median: the middle sample, or the mean of the middle two.
inline double Median(std::vector<double> v) { return Quantile(std::move(v), 0.5); }

}  // namespace bench
