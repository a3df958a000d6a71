// lib/math/exp.h — the advanced Exp API of Ascend C (the contract:
// docs/math.md): dstLocal[i] = e^srcLocal[i] for i < calCount. T = half or
// float on Atlas A2/A3 and Ascend 950 (Atlas inference AI Core: a
// KernelError naming the profile). taylorExpandLevel 0 computes e^x itself;
// a level n above 0 follows the page: e^floor(x) times the Taylor series of
// the fraction x − floor(x) up to its n-th power (docs/numerics.md, "Math:
// transcendental", gives the bound of each). isReuseSource changes nothing.
// The overloads: sharedTmpBuffer or the framework scratch, with calCount.
// (The basic instruction Exp(dst, src, count) is another template: its
// second parameter is a config, not a level, so the two never meet.)
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal,
                           const LocalTensor<T>& srcLocal,
                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Exp: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(
      normgrad_ascendc::MathApi::kExp, site, dstLocal, srcLocal,
      &sharedTmpBuffer.view(), calCount, taylorExpandLevel);
}

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal,
                           const LocalTensor<T>& srcLocal,
                           const uint32_t calCount,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Exp: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kExp, site,
                                       dstLocal, srcLocal, nullptr, calCount,
                                       taylorExpandLevel);
}

}  // namespace AscendC
