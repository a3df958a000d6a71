// lib/normalization/layernormgradbeta.h — the kernel-side LayerNormGradBeta
// API of Ascend C (the contract: docs/layernormgradbeta.md):
//
//   outputPdGamma[h] = Σ_{b,s} inputDy[b,s,h] · resForGamma[b,s,h]
//   outputPdBeta[h]  = Σ_{b,s} inputDy[b,s,h]
//
// on [B, S, H] tensors in the unified buffer, T = half or float, computed
// bit-exact to the device algorithm (float accumulation row after row,
// multiply and add rounded separately) with the scratch layout and chunking
// of the tiling (GetLayerNormGradBetaNDTilingInfo). Per product profile
// (profile.h; docs/layernormgradbeta.md, "Product profiles"):
// - Atlas A2/A3 and inference series: half accumulates in float in the
//   scratch (gammaTempTensorPos, betaTempTensorPos) and narrows with round
//   half to even (overflow gives ±inf). float with isReuseSource = true uses
//   no scratch and writes each chunk's products dy·res over the start of
//   resForGamma (docs/layernormgradbeta.md, "isReuseSource", says exactly
//   which elements); inputDy is never modified. half ignores isReuseSource
//   (a warning, once per process).
// - Ascend 950: no scratch is used or checked, nothing is chunked,
//   isReuseSource is ignored, half narrowing saturates at ±65504 (±inf too;
//   NaN stays NaN).
// Every kernel check of docs/layernormgradbeta.md runs on every call; a
// violation is a KernelError (normgrad_ascendc/runtime/core.h) whose message
// names the argument, the value and the rule. A call allocates nothing, reads
// no environment, starts no thread.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/layernormgradbeta_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One LayerNormGradBeta call with its element type erased.
struct LayerNormGradBetaArgs {
  bool is_half;
  bool reuse_source;
  TensorView pd_gamma;
  TensorView pd_beta;
  TensorView res_for_gamma;
  TensorView input_dy;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  const AscendC::LayerNormGradBetaTiling* tiling;
};

/// Checks and runs one call (layernormgradbeta.cc).
void RunLayerNormGradBeta(const LayerNormGradBetaArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least tiling.stackBufferSize
/// floats (GetLayerNormGradBetaMaxMinTmpSize gives the range).
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(
    const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
    const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
    const LocalTensor<uint8_t>& sharedTmpBuffer,
    const LayerNormGradBetaTiling& tiling,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LayerNormGradBeta: T must be half or float");
  normgrad_ascendc::RunLayerNormGradBeta(
      {std::is_same_v<T, half>, isReuseSource, outputPdGamma.view(),
       outputPdBeta.view(), resForGamma.view(), inputDy.view(),
       &sharedTmpBuffer.view(), &tiling});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Nothing left is an error.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma,
                                         const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma,
                                         const LocalTensor<T>& inputDy,
                                         LayerNormGradBetaTiling& tiling,
                                         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LayerNormGradBeta: T must be half or float");
  normgrad_ascendc::RunLayerNormGradBeta(
      {std::is_same_v<T, half>, isReuseSource, outputPdGamma.view(),
       outputPdBeta.view(), resForGamma.view(), inputDy.view(), nullptr,
       &tiling});
}

}  // namespace AscendC
