// src/ascendc/lane_sum.h — the fixed summation order of the normalization
// APIs that reduce long runs of floats (internal, not installed): fold the
// run into 64 lanes in order (lane j adds element 64k + j for k = 1, 2, …),
// then add the 64 lanes by a binary tree of adjacent pairs; lanes a run
// shorter than 64 leaves empty are +0. It is the order of a 256-byte vector
// repeat followed by the pairwise lane reduction (docs/numerics.md).
#pragma once

#include <algorithm>
#include <cstdint>

namespace normgrad_ascendc {

inline float LaneSum(const float* v, uint64_t n) {
  constexpr uint64_t kLanes = 64;  // floats in one 256-byte vector repeat
  float lanes[kLanes] = {};
  const uint64_t first = std::min(n, kLanes);
  for (uint64_t j = 0; j < first; ++j) lanes[j] = v[j];
  for (uint64_t k = kLanes; k < n; k += kLanes) {
    const uint64_t m = std::min(kLanes, n - k);
    for (uint64_t j = 0; j < m; ++j) lanes[j] = v[k + j] + lanes[j];
  }
  for (uint64_t width = kLanes; width > 1; width /= 2) {
    for (uint64_t j = 0; j < width / 2; ++j) {
      lanes[j] = lanes[2 * j] + lanes[2 * j + 1];
    }
  }
  return lanes[0];
}

}  // namespace normgrad_ascendc
