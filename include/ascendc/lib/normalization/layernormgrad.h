// lib/normalization/layernormgrad.h — the kernel-side LayerNormGrad API of
// Ascend C (the contract: docs/layernormgrad.md): the layer-norm backward of
// the input and the normalized input LayerNormGradBeta needs, per row r of
// [B, S, H] tensors in the unified buffer (T = half or float, sums over the
// row's H elements, Ho = originalHLength = H):
//
//   x1 = dy·gamma,  x2 = x − mean[r],  rstd = (var[r] + eps)^(−1/2)
//   pd_var  = Σ −0.5·x1·x2·rstd³
//   pd_mean = Σ −x1·rstd + pd_var·(1/Ho)·Σ −2·x2
//   outputPdX   = x1·rstd + pd_var·(2/Ho)·x2 + pd_mean·(1/Ho)
//   resForGamma = x2·rstd
//
// computed bit-exact to the documented device algorithm (docs/layernormgrad.md,
// "Numeric order": float lane-wise, every operation rounded separately, row
// sums as trees of 64-lane adjacent-pair sums; docs/numerics.md), in the chunks
// of the tiling (GetLayerNormGradNDTilingInfo) with the scratch regions it
// places. Per product profile:
// - Atlas A2/A3 and inference series: chunks of tiling.nohCalSize rows and
//   a tail of nohTailSize rows, the intermediates in the tiling's scratch
//   regions; half is widened into the scratch and narrowed with round half
//   to even. float with isReuseSource = true computes x1 over inputDy and x2
//   over inputX: afterwards inputDy holds dy·gamma and inputX holds x − mean
//   (every element). half ignores isReuseSource (a warning, once per
//   process).
// - Ascend 950: row after row (the tiling's chunk fields are not read); the
//   scratch holds x1 and x2 of one row, 2·roundup(H, 8) floats (none for
//   float with isReuseSource, which clobbers as above); half narrowing
//   saturates at ±65504. The same bits as the other profiles otherwise.
// Every check runs on every call; a violation is a KernelError
// (normgrad_ascendc/runtime/core.h) whose message names the API, the argument,
// the value and the rule.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/layernormgrad_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/shape_info.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// The layout of LayerNormGrad's tensors: only DataFormat::ND is supported.
struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One LayerNormGrad call with its element type erased.
struct LayerNormGradArgs {
  bool is_half;
  bool reuse_source;
  TensorView pd_x;
  TensorView res_for_gamma;
  TensorView input_dy;
  TensorView input_x;
  TensorView input_variance;
  TensorView input_mean;
  TensorView input_gamma;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float epsilon;                 ///< widened from T (exact)
  const AscendC::LayerNormGradTiling* tiling;
  AscendC::DataFormat data_format;
};

/// Checks and runs one call (layernormgrad.cc).
void RunLayerNormGrad(const LayerNormGradArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least tiling.stackBufferSize
/// bytes (GetLayerNormGradMaxMinTmpSize gives the range). inputVariance and
/// inputMean hold B·S elements, inputGamma H; the others B·S·H.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(
    const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
    const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
    const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
    const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer,
    T epsilon, LayerNormGradTiling& tiling,
    const LayerNormGradShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LayerNormGrad: T must be half or float");
  normgrad_ascendc::RunLayerNormGrad(
      {std::is_same_v<T, half>, isReuseSource, outputPdX.view(),
       resForGamma.view(), inputDy.view(), inputX.view(), inputVariance.view(),
       inputMean.view(), inputGamma.view(), &sharedTmpBuffer.view(),
       static_cast<float>(epsilon), &tiling, shapeInfo.dataFormat});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Too little left is an error.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(
    const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
    const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
    const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
    const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
    const LayerNormGradShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LayerNormGrad: T must be half or float");
  normgrad_ascendc::RunLayerNormGrad(
      {std::is_same_v<T, half>, isReuseSource, outputPdX.view(),
       resForGamma.view(), inputDy.view(), inputX.view(), inputVariance.view(),
       inputMean.view(), inputGamma.view(), nullptr,
       static_cast<float>(epsilon), &tiling, shapeInfo.dataFormat});
}

}  // namespace AscendC
