// lib/math/log.h — the advanced Log, Log2 and Log10 APIs of Ascend C (the
// contract: docs/math.md): dstTensor[i] = the logarithm of srcTensor[i] to
// base e, 2 or 10 (−inf at ±0, NaN below 0), computed in float within the
// bound of docs/numerics.md ("Math: transcendental"). T = half or float on
// every profile. The overloads, as the page gives them: Log and Log10 with
// the framework scratch only, Log2 also with a sharedTmpBuffer; each with
// calCount or over the whole srcTensor.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor,
                           const LocalTensor<T>& srcTensor, uint32_t calCount,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Log: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kLog, site,
                                       dstTensor, srcTensor, nullptr, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor,
                           const LocalTensor<T>& srcTensor,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Log: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kLog, site,
                                       dstTensor, srcTensor, nullptr,
                                       normgrad_ascendc::kWholeSource);
}

NORMGRAD_MATH_UNARY_COUNT_FORMS(Log2, kIsMathHalfOrFloat,
                                "Log2: T must be half or float")
NORMGRAD_MATH_UNARY_WHOLE_FORMS(Log2, kIsMathHalfOrFloat,
                                "Log2: T must be half or float")

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dstTensor,
                             const LocalTensor<T>& srcTensor, uint32_t calCount,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Log10: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kLog10, site,
                                       dstTensor, srcTensor, nullptr, calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dstTensor,
                             const LocalTensor<T>& srcTensor,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Log10: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kLog10, site,
                                       dstTensor, srcTensor, nullptr,
                                       normgrad_ascendc::kWholeSource);
}

}  // namespace AscendC
