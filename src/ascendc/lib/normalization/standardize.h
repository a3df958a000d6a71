// src/ascendc/lib/normalization/standardize.h — the standardization that LayerNorm, DeepNorm
// and GroupNorm share on the emulated core (internal, not installed): per
// row, the mean and the population variance as row sums of pre-scaled terms,
// then the row centred and scaled by 1 / sqrt(variance + epsilon), in the
// documented numeric order (docs/layernorm.md, "Numeric order", steps 1–6);
// and the walk over the chunks of a tiling shaped like LayerNorm's.
#pragma once

#include <cmath>
#include <cstdint>

#include "ascendc/lib/common/kernel_checks.h"

namespace normgrad_ascendc {

/// Where StandardizeRows keeps its values, all floats: two work buffers of
/// rows · stride, one mean and one variance per row, and the result.
struct StandardizeBuffers {
  float* d;           ///< x − mean
  float* q;           ///< x·inv, then (d·d)·inv: the terms of the row sums
  float* mean;        ///< rows means
  float* var;         ///< rows variances
  float* normalized;  ///< rstd·d; may be x itself
};

/// Standardizes `rows` rows of `stride` floats at x. Each row's mean and
/// variance are FoldedRowSum over its first `count` terms (x·inv, then
/// (d·d)·inv); d = x − mean and normalized = rstd·d cover the whole stride,
/// rstd = 1 / sqrt(var + epsilon) (IEEE square root, then 1.0f divided by
/// it). Each step runs over all rows before the next, so x is read only
/// before anything is written to `normalized`.
inline void StandardizeRows(const float* x, uint32_t rows, uint32_t stride,
                            uint32_t count, float inv, float epsilon,
                            const StandardizeBuffers& b) {
  const uint64_t n = uint64_t{rows} * stride;
  for (uint64_t i = 0; i < n; ++i) b.q[i] = x[i] * inv;
  for (uint32_t r = 0; r < rows; ++r) {
    b.mean[r] = FoldedRowSum(b.q + uint64_t{r} * stride, count);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const float mean = b.mean[r];
    const uint64_t row = uint64_t{r} * stride;
    for (uint32_t j = 0; j < stride; ++j) b.d[row + j] = x[row + j] - mean;
  }
  for (uint64_t i = 0; i < n; ++i) b.q[i] = (b.d[i] * b.d[i]) * inv;
  for (uint32_t r = 0; r < rows; ++r) {
    b.var[r] = FoldedRowSum(b.q + uint64_t{r} * stride, count);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const float rstd = 1.0f / std::sqrt(b.var[r] + epsilon);
    const uint64_t row = uint64_t{r} * stride;
    for (uint32_t j = 0; j < stride; ++j) {
      b.normalized[row + j] = rstd * b.d[row + j];
    }
  }
}

/// Walks the chunks of a tiling shaped like LayerNorm's (LayerNorm,
/// DeepNorm): chunk(element_pos, row_pos, rows) for each of the loopRound
/// chunks of bsCurLength rows, then for the tail, if any, after rewriting
/// bshCurLength and bsCurLength to the tail's sizes as the device does (a
/// later call with the same tiling sees them).
template <typename Tiling, typename Chunk>
void ForEachChunk(Tiling& t, Chunk chunk) {
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    chunk(i * t.inputRoundSize, i * t.meanVarRoundSize, t.bsCurLength);
  }
  if (t.inputTailSize != 0) {
    t.bshCurLength = t.inputTailSize;
    t.bsCurLength = t.meanVarTailSize;
    chunk(t.inputTailPos, t.meanVarTailPos, t.bsCurLength);
  }
}

}  // namespace normgrad_ascendc
