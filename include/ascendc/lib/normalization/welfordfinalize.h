// lib/normalization/welfordfinalize.h — the kernel-side WelfordFinalize API of
// Ascend C (the contract: docs/welfordfinalize.md): combines the abLength
// per-lane means m_i and sums of squared deviations M_i that WelfordUpdate
// left after a row was fed in chunks into the row's mean and variance, each
// written to element 0 of its output:
//
//   without counts, tailCountLength = 0 (every lane saw rnLength values):
//     mean = (Σ_i m_i)·abRec
//     var  = (Σ_i (rnLength·(m_i − mean)² + M_i))·k
//   with counts c_i (a counts tensor, or headCount for the first
//   headCountLength lanes and tailCount for the rest):
//     mean = (Σ_i c_i·m_i)·rRec
//     var  = (Σ_i (c_i·(m_i − mean)² + M_i))·k
//
// with k = rRec, or rRecWithCorrection when config.isCorrection (Ascend 950
// only). All in float, sums in lane order. isReuseSource is reserved. Every
// kernel check of docs/welfordfinalize.md runs on every call; a violation is a
// KernelError (normgrad_ascendc/runtime/core.h) naming the argument, the value
// and the rule.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/normalization/welfordfinalize_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One WelfordFinalize call.
struct WelfordFinalizeArgs {
  bool correction;
  TensorView output_mean;
  TensorView output_variance;
  TensorView input_mean;
  TensorView input_variance;
  const TensorView* counts;      ///< null: headCount / tailCount
  const TensorView* shared_tmp;  ///< null: the framework scratch
  AscendC::WelfordFinalizePara para;
};

/// Checks and runs one call (welfordfinalize.cc).
void RunWelfordFinalize(const WelfordFinalizeArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Without counts, with a caller-provided scratch buffer of at least the
/// minimum GetWelfordFinalizeMaxMinTmpSize reports.
template <bool isReuseSource = false,
          const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(
    const LocalTensor<float>& outputMean,
    const LocalTensor<float>& outputVariance,
    const LocalTensor<float>& inputMean,
    const LocalTensor<float>& inputVariance,
    const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunWelfordFinalize({config.isCorrection, outputMean.view(),
                                        outputVariance.view(), inputMean.view(),
                                        inputVariance.view(), nullptr,
                                        &sharedTmpBuffer.view(), para});
}

/// With counts (int32_t per lane) and a caller-provided scratch buffer.
template <bool isReuseSource = false,
          const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(
    const LocalTensor<float>& outputMean,
    const LocalTensor<float>& outputVariance,
    const LocalTensor<float>& inputMean,
    const LocalTensor<float>& inputVariance, const LocalTensor<int32_t>& counts,
    const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunWelfordFinalize({config.isCorrection, outputMean.view(),
                                        outputVariance.view(), inputMean.view(),
                                        inputVariance.view(), &counts.view(),
                                        &sharedTmpBuffer.view(), para});
}

/// Without counts, with the framework scratch (what the pipe leaves of the
/// unified buffer; it must hold the minimum).
template <bool isReuseSource = false,
          const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean,
                                       const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean,
                                       const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para,
                                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunWelfordFinalize(
      {config.isCorrection, outputMean.view(), outputVariance.view(),
       inputMean.view(), inputVariance.view(), nullptr, nullptr, para});
}

/// With counts and the framework scratch.
template <bool isReuseSource = false,
          const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean,
                                       const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean,
                                       const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts,
                                       WelfordFinalizePara& para,
                                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunWelfordFinalize(
      {config.isCorrection, outputMean.view(), outputVariance.view(),
       inputMean.view(), inputVariance.view(), &counts.view(), nullptr, para});
}

}  // namespace AscendC
