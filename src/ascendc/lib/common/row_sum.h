// src/ascendc/lib/common/row_sum.h — the vector unit's sums as the advanced
// APIs document them (internal, not installed): the 64-lane tree sum of one
// vector repeat, and the row sum that folds a row onto 64 lanes first.
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

/// Floats in one 256-byte vector repeat.
inline constexpr uint32_t kVectorLanes = 64;

/// The vector unit's sum of 64 float lanes: a binary tree of adjacent pairs,
/// (l0 + l1), (l2 + l3), …, then pairs of those sums, six levels. Overwrites
/// the lanes.
inline float LaneTreeSum(float (&lanes)[kVectorLanes]) {
  for (uint32_t width = kVectorLanes; width > 1; width /= 2) {
    for (uint32_t j = 0; j < width / 2; ++j) {
      lanes[j] = lanes[2 * j] + lanes[2 * j + 1];
    }
  }
  return lanes[0];
}

/// The documented row sum of the normalization APIs (docs/layernorm.md, "Row
/// sum"): fold the n terms into 64 lanes in order (lane j adds term 64k + j
/// for k = 1, 2, …), then add the 64 lanes by a binary tree of adjacent
/// pairs. Lanes fewer than 64 terms do not fill count as +0. term(i) gives
/// term i.
template <typename Term>
float RowSum(uint64_t n, Term term) {
  float lanes[kVectorLanes] = {};
  for (uint64_t i = 0; i < n; ++i) {
    lanes[i % kVectorLanes] =
        i < kVectorLanes ? term(i) : term(i) + lanes[i % kVectorLanes];
  }
  return LaneTreeSum(lanes);
}

/// RowSum of the h floats at v.
inline float FoldedRowSum(const float* v, uint64_t h) {
  return RowSum(h, [v](uint64_t i) { return v[i]; });
}

}  // namespace normgrad_ascendc
