// lib/normalization/layernorm.h — the kernel-side LayerNorm API of Ascend C
// (the contract: docs/layernorm.md): per row r of inputX [B, S, H],
//
//   outputMean[r]     = mean of the row
//   outputVariance[r] = population variance of the row
//   output[r, h]      = (x[r, h] − mean) / sqrt(var + epsilon) · gamma[h]
//                       + beta[h]
//
// for T = half or float, bit-exact to the documented vector algorithm
// (docs/layernorm.md, "Numeric order": float lane-wise, single roundings, no
// fused multiply-add; row sums by the 64-lane fold and adjacent-pair tree; half
// widened on the way in and narrowed with round half to even on the way out),
// processed in the chunks of the tiling (GetLayerNormNDTilingInfo) with its
// scratch layout:
// - half: the float means and variances of all B·S rows live in the scratch
//   (meanTmpTensorPos, varianceTmpTensorPos) and are narrowed at the end.
// - float: outputMean and outputVariance are the accumulators.
// - float with isReuseSource = true: inputX[0, oneTmpSize) serves as the
//   third chunk buffer and is overwritten (with each chunk's normalized
//   values (x − mean)·rstd, see docs/decisions.md); half ignores
//   isReuseSource (a warning, once per process).
// - The tiling is written: when the data ends in a tail chunk,
//   tiling.bshCurLength and tiling.bsCurLength are set to the tail's sizes,
//   as on the device, so a second call with the same tiling processes only
//   the first meanVarTailSize rows of each chunk (docs/decisions.md).
// On every profile the same algorithm runs; the Ascend 950 profile narrows
// half with saturation (±65504), as for LayerNormGradBeta.
// Every check runs on every call; a violation is a KernelError
// (normgrad_ascendc/core.h) whose message names the argument, the value and
// the rule. A call allocates nothing, reads no environment, starts no thread.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/half.h"
#include "normgrad_ascendc/layernorm_tiling.h"
#include "normgrad_ascendc/pipe.h"
#include "normgrad_ascendc/qualifiers.h"
#include "normgrad_ascendc/tensor.h"

namespace normgrad_ascendc {

/// One LayerNorm call with its element type erased.
struct LayerNormArgs {
  bool is_half;
  bool reuse_source;
  TensorView output;
  TensorView output_mean;
  TensorView output_variance;
  TensorView input_x;
  TensorView gamma;
  TensorView beta;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float epsilon;                 ///< T's value, widened
  AscendC::LayerNormTiling* tiling;
};

/// Checks and runs one call (layernorm.cc).
void RunLayerNorm(const LayerNormArgs& args);

template <typename T>
inline constexpr bool kIsLayerNormType =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least tiling.tmpBufSize
/// floats (GetLayerNormMaxMinTmpSize gives the range).
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
    LayerNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsLayerNormType<T>,
                "LayerNorm: T must be half or float");
  normgrad_ascendc::RunLayerNorm(
      {std::is_same_v<T, half>, isReuseSource, output.view(), outputMean.view(),
       outputVariance.view(), inputX.view(), gamma.view(), beta.view(),
       &sharedTmpBuffer.view(), static_cast<float>(epsilon), &tiling});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Nothing left is an error.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
    LayerNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsLayerNormType<T>,
                "LayerNorm: T must be half or float");
  normgrad_ascendc::RunLayerNorm(
      {std::is_same_v<T, half>, isReuseSource, output.view(), outputMean.view(),
       outputVariance.view(), inputX.view(), gamma.view(), beta.view(), nullptr,
       static_cast<float>(epsilon), &tiling});
}

}  // namespace AscendC
