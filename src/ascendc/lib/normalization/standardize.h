// src/ascendc/lib/normalization/standardize.h — the arithmetic LayerNorm,
// DeepNorm and GroupNorm share on the emulated core (internal, not
// installed): per row, the mean and the population variance as row sums of
// pre-scaled terms, then the row centred and scaled by
// 1 / sqrt(variance + epsilon), in the documented numeric order
// (docs/layernorm.md, "Numeric order", steps 1–6); where a chunked call
// keeps these values in the tiling's scratch; half widened on the way in,
// LayerNorm's and DeepNorm's gamma and beta applied per column, and the
// results narrowed on the way out.
#pragma once

#include <cmath>
#include <cstdint>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/runtime/tensor.h"

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

/// Where a chunked call keeps its values, all floats, for a tiling shaped
/// like LayerNorm's.
struct ChunkBuffers {
  float* d;      ///< the first chunk buffer: x − mean
  float* q;      ///< the second: the terms of the row sums
  float* stage;  ///< the third, or the source's memory with float reuse: the
                 ///< input as floats, then the normalized values (half: then
                 ///< the results, before they are narrowed)
  float* mean;   ///< every row's mean: the mean output (float) or the
                 ///< scratch (half)
  float* var;    ///< every row's variance, likewise
};

/// The buffers the tiling places in the scratch floats `tmp`; `stage`, when not
/// null, takes the third chunk buffer's place. float keeps the means and
/// variances in the outputs `mean` and `var`.
template <typename Tiling>
ChunkBuffers PlaceChunkBuffers(const Tiling& t, float* tmp, float* stage,
                               bool is_half, const TensorView& mean,
                               const TensorView& var) {
  ChunkBuffers b;
  b.d = tmp + t.firstTmpStartPos;
  b.q = tmp + t.secondTmpStartPos;
  b.stage = stage != nullptr ? stage : tmp + t.thirdTmpStartPos;
  b.mean = is_half ? tmp + t.meanTmpTensorPos : FloatData(mean);
  b.var = is_half ? tmp + t.varianceTmpTensorPos : FloatData(var);
  return b;
}

/// half: the float means and variances of all meanVarSize rows, narrowed
/// into the outputs once every chunk is done.
template <typename Tiling>
void NarrowMeansAndVariances(const Tiling& t, const ChunkBuffers& b,
                             bool is_half, const TensorView& mean,
                             const TensorView& var, bool saturate) {
  if (!is_half) return;
  NarrowToHalf(b.mean, HalfData(mean), t.meanVarSize, saturate);
  NarrowToHalf(b.var, HalfData(var), t.meanVarSize, saturate);
}

/// y = normalized·gamma[j] + beta[j] for n elements of rows of h (j the
/// column), into `output` from element `pos`: half forms y in `normalized`
/// and narrows it (saturating with `saturate`), float writes y directly.
inline void ScaleShiftRows(float* normalized, uint32_t n, uint32_t h,
                           bool is_half, const TensorView& gamma,
                           const TensorView& beta, const TensorView& output,
                           uint32_t pos, bool saturate) {
  if (is_half) {
    const normgrad::float16* g = HalfData(gamma);
    const normgrad::float16* b = HalfData(beta);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = i % h;
      normalized[i] = (normalized[i] * float(g[j])) + float(b[j]);
    }
    NarrowToHalf(normalized, HalfData(output) + pos, n, saturate);
  } else {
    const float* g = FloatData(gamma);
    const float* b = FloatData(beta);
    float* y = FloatData(output) + pos;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = i % h;
      y[i] = (normalized[i] * g[j]) + b[j];
    }
  }
}

}  // namespace normgrad_ascendc
