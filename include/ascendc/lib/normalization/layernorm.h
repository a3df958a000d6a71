// lib/normalization/layernorm.h — the kernel-side LayerNorm API of Ascend C
// (the contract: docs/layernorm.md) in its two forms; the second, [A, R]
// rows with LayerNormPara and LayerNormSeparateTiling, is declared at the end
// of this file. The first form, per row r of inputX [B, S, H]:
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
// (normgrad_ascendc/runtime/core.h) whose message names the argument, the value
// and the rule. A call allocates nothing, reads no environment, starts no
// thread.
#pragma once

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/layernorm_tiling.h"
#include "normgrad_ascendc/lib/normalization/norm_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One LayerNorm call with its element type erased.
using LayerNormArgs = NormArgs<AscendC::LayerNormTiling>;

/// Checks and runs one call (layernorm.cc).
void RunLayerNorm(const LayerNormArgs& args);

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
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LayerNorm: T must be half or float");
  normgrad_ascendc::RunNormCall(site, normgrad_ascendc::RunLayerNorm,
                                isReuseSource, false, output, outputMean,
                                outputVariance, inputX, gamma, beta,
                                &sharedTmpBuffer.view(), epsilon, tiling);
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Nothing left is an error.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
    LayerNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LayerNorm: T must be half or float");
  normgrad_ascendc::RunNormCall(site, normgrad_ascendc::RunLayerNorm,
                                isReuseSource, false, output, outputMean,
                                outputVariance, inputX, gamma, beta, nullptr,
                                epsilon, tiling);
}

}  // namespace AscendC

// ---- LayerNorm's second form: [A, R] rows (docs/layernorm.md, "The [A, R]
// form"): per row a of inputX [A, rLengthWithPadding] with rLength data
// columns, outputMean[a] = the mean, outputRstd[a] = 1 / sqrt(var + epsilon)
// (or the population variance with config.isOutputRstd = false, Ascend 950
// only), both float, and output[a, r] = (x − mean)·rstd·gamma[r] + beta[r]
// for the data columns (gamma, beta left out with config.isNoGamma /
// isNoBeta). T: half or float (and bfloat16_t on the Ascend 950 profile); U
// (gamma, beta): T or float. Row sums by the documented binary accumulation.

namespace AscendC {

/// What the [A, R] form reads and writes (a template argument).
struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;  ///< only false is supported
  bool isOutputRstd = true;   ///< false (the variance): Ascend 950 only
};

inline constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

/// The rows of one [A, R] call: aLength rows of rLengthWithPadding elements
/// (32-byte aligned), rLength of them data.
struct LayerNormPara {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t rLengthWithPadding = 0;

  LayerNormPara() = default;
  /// Rows without padding: rLength = rLengthWithPadding.
  __aicore__ LayerNormPara(uint32_t a, uint32_t rWithPadding)
      : aLength(a), rLength(rWithPadding), rLengthWithPadding(rWithPadding) {}
  __aicore__ LayerNormPara(uint32_t a, uint32_t r, uint32_t rWithPadding)
      : aLength(a), rLength(r), rLengthWithPadding(rWithPadding) {}
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One [A, R] call with its element types erased.
struct LayerNormSeparateArgs {
  ElementType t;  ///< inputX, output
  ElementType u;  ///< gamma, beta
  AscendC::LayerNormConfig config;
  TensorView output;
  TensorView output_mean;
  TensorView output_rstd;
  TensorView input_x;
  TensorView gamma;
  TensorView beta;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float epsilon;
  AscendC::LayerNormPara para;
  const AscendC::LayerNormSeparateTiling* tiling;
};

/// Checks and runs one call (layernorm_separate.cc).
void RunLayerNormSeparate(const LayerNormSeparateArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// The [A, R] form with a caller-provided scratch of at least
/// tiling.tmpBufSize floats.
template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(
    const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
    const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
    const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
    const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const LayerNormPara& para, const LayerNormSeparateTiling& tiling,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfFloatOrBfloat16<T>,
                "LayerNorm: T must be half, float or bfloat16_t");
  static_assert(normgrad_ascendc::kIsTOrFloat<U, T>,
                "LayerNorm: U (gamma, beta) must be T or float: no less "
                "precise than T");
  normgrad_ascendc::RunLayerNormSeparate(
      {normgrad_ascendc::ElementTypeOf<T>(),
       normgrad_ascendc::ElementTypeOf<U>(), config, output.view(),
       outputMean.view(), outputRstd.view(), inputX.view(), gamma.view(),
       beta.view(), &sharedTmpBuffer.view(), epsilon, para, &tiling});
}

/// The [A, R] form with the framework scratch.
template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output,
                                 const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd,
                                 const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma,
                                 const LocalTensor<U>& beta,
                                 const float epsilon, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling,
                                 normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfFloatOrBfloat16<T>,
                "LayerNorm: T must be half, float or bfloat16_t");
  static_assert(normgrad_ascendc::kIsTOrFloat<U, T>,
                "LayerNorm: U (gamma, beta) must be T or float: no less "
                "precise than T");
  normgrad_ascendc::RunLayerNormSeparate(
      {normgrad_ascendc::ElementTypeOf<T>(),
       normgrad_ascendc::ElementTypeOf<U>(), config, output.view(),
       outputMean.view(), outputRstd.view(), inputX.view(), gamma.view(),
       beta.view(), nullptr, epsilon, para, &tiling});
}

}  // namespace AscendC
