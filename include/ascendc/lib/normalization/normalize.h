// lib/normalization/normalize.h — the kernel-side Normalize API of Ascend C
// (the contract: docs/normalize.md): the second half of a layer norm whose
// mean and variance are already known. Per row a of inputX [A, R] (rows
// rLengthWithPadding elements apart):
//
//   outputRstd[a] = 1 / sqrt(inputVariance[a] + epsilon)
//   output[a, r]  = (inputX[a, r] − inputMean[a]) · outputRstd[a] · gamma[r]
//                   + beta[r]
//
// (NormalizeConfig::isNoGamma drops the product with gamma, isNoBeta the sum
// with beta). T (inputX, output) is half or float, and bfloat16_t on the
// Ascend 950 profile; U (gamma, beta) is T or float. Computed in float in the
// order of docs/normalize.md, narrowed once to T (round half to even; half
// saturating on Ascend 950). Every check runs on every call; a violation is a
// KernelError (normgrad_ascendc/runtime/core.h) naming the argument, the value
// and the rule. A call allocates nothing, reads no environment, starts no
// thread.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/common/reduce_pattern.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// What a Normalize call computes. reducePattern must be AR (R, the inner
/// axis, is reduced); aLength −1 takes para.aLength, any other value must
/// equal it (1 only on the Ascend 950 profile); isOnlyOutput must be false.
struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};

/// The four gamma/beta combinations.
inline constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false,
                                               false, false};
inline constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false,
                                                  true, false};
inline constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true,
                                                 false, false};
inline constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true,
                                                true, false};

/// A NormalizeConfig that uses or leaves out beta and gamma, the other
/// fields at their defaults (AR, aLength −1, isOnlyOutput false): programs
/// build their config with it, so it is usable as a template argument.
constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta = false,
                                             bool isNoGamma = false) {
  return {ReducePattern::AR, -1, isNoBeta, isNoGamma, false};
}

/// The shape of a call: A rows of rLength elements, rLengthWithPadding apart
/// (32-byte aligned).
struct NormalizePara {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t rLengthWithPadding = 0;
  constexpr NormalizePara() = default;
  constexpr NormalizePara(uint32_t a, uint32_t r, uint32_t r_with_padding)
      : aLength(a), rLength(r), rLengthWithPadding(r_with_padding) {}
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One Normalize call with its element types erased.
struct NormalizeArgs {
  ElementType t;
  ElementType u;
  AscendC::NormalizeConfig config;
  TensorView output;
  TensorView output_rstd;
  TensorView input_mean;
  TensorView input_variance;
  TensorView input_x;
  TensorView gamma;
  TensorView beta;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float epsilon;
  AscendC::NormalizePara para;
};

/// Checks and runs one call (normalize.cc).
void RunNormalize(const NormalizeArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least the minimum
/// GetNormalizeMaxMinTmpSize reports.
template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(
    const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
    const LocalTensor<float>& inputMean,
    const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
    const NormalizePara& para, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfFloatOrBfloat16<T>,
                "Normalize: T must be half, float or bfloat16_t");
  static_assert(normgrad_ascendc::kIsTOrFloat<U, T>,
                "Normalize: U (gamma, beta) must be T or float (at least as "
                "precise as T)");
  normgrad_ascendc::RunNormalize(
      {normgrad_ascendc::ElementTypeOf<T>(),
       normgrad_ascendc::ElementTypeOf<U>(), config, output.view(),
       outputRstd.view(), inputMean.view(), inputVariance.view(), inputX.view(),
       gamma.view(), beta.view(), &sharedTmpBuffer.view(), epsilon, para});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Too little left is an error.
template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output,
                                 const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean,
                                 const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma,
                                 const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para,
                                 normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfFloatOrBfloat16<T>,
                "Normalize: T must be half, float or bfloat16_t");
  static_assert(normgrad_ascendc::kIsTOrFloat<U, T>,
                "Normalize: U (gamma, beta) must be T or float (at least as "
                "precise as T)");
  normgrad_ascendc::RunNormalize(
      {normgrad_ascendc::ElementTypeOf<T>(),
       normgrad_ascendc::ElementTypeOf<U>(), config, output.view(),
       outputRstd.view(), inputMean.view(), inputVariance.view(), inputX.view(),
       gamma.view(), beta.view(), nullptr, epsilon, para});
}

}  // namespace AscendC
