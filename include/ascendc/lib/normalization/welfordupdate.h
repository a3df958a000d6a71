// lib/normalization/welfordupdate.h — the kernel-side WelfordUpdate API of
// Ascend C (the contract: docs/welfordupdate.md): one step of Welford's online
// mean and variance over a row split into chunks. For the i-th chunk x of a
// row of abLength elements, with nRec = 1/i, element by element for
// j < abComputeLength:
//
//   outputMean[j]     = inputMean[j] + (x[j] − inputMean[j]) · nRec
//   outputVariance[j] = inputVariance[j]
//                       + (x[j] − inputMean[j]) · (x[j] − outputMean[j])
//
// in float (T = half or bfloat16_t widened exactly; U = float). With
// config.isInplace the outputs beyond abComputeLength copy the inputs; without
// it they are not written. Types per product profile (profile.h): half and
// float everywhere, bfloat16_t on Ascend 950 only. Every kernel check of
// docs/welfordupdate.md runs on every call; a violation is a KernelError
// (normgrad_ascendc/runtime/core.h) naming the argument, the value and the
// rule.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/welfordupdate_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One WelfordUpdate call with its element types erased.
struct WelfordUpdateArgs {
  ElementType type;  ///< inputX's
  bool reuse_source;
  bool inplace;
  TensorView output_mean;
  TensorView output_variance;
  TensorView input_mean;
  TensorView input_variance;
  TensorView input_x;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  AscendC::WelfordUpdateParam para;
};

/// Checks and runs one call (welfordupdate.cc).
void RunWelfordUpdate(const WelfordUpdateArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least the minimum
/// GetWelfordUpdateMaxMinTmpSize reports.
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(
    const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
    const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
    const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const WelfordUpdateParam& para, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfFloatOrBfloat16<T>,
                "WelfordUpdate: T must be half, float or bfloat16_t");
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: U must be float");
  normgrad_ascendc::RunWelfordUpdate(
      {normgrad_ascendc::ElementTypeOf<T>(), isReuseSource, config.isInplace,
       outputMean.view(), outputVariance.view(), inputMean.view(),
       inputVariance.view(), inputX.view(), &sharedTmpBuffer.view(), para});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer); it must hold the minimum scratch.
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean,
                                     const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean,
                                     const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX,
                                     const WelfordUpdateParam& para,
                                     normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfFloatOrBfloat16<T>,
                "WelfordUpdate: T must be half, float or bfloat16_t");
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: U must be float");
  normgrad_ascendc::RunWelfordUpdate(
      {normgrad_ascendc::ElementTypeOf<T>(), isReuseSource, config.isInplace,
       outputMean.view(), outputVariance.view(), inputMean.view(),
       inputVariance.view(), inputX.view(), nullptr, para});
}

}  // namespace AscendC
