// lib/activation/swiglu.h — the kernel-side SwiGLU API of Ascend C (the
// contract: docs/activation.md): dstTensor[i] = x0 · x1 / (1 + e^(-β·x1)),
// x0 = srcTensor0[i], x1 = srcTensor1[i], β = scalarValue, for i < calCount
// or every element of srcTensor0. T = half or float on every profile; the
// overloads: sharedTmpBuffer or the framework scratch, each with calCount or
// over the whole srcTensor0. Every check of docs/activation.md runs on every
// call; a violation is a KernelError naming the API, the argument, the value
// and the rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor,
                              const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1,
                              const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer,
                              const uint32_t calCount,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SwiGLU: T must be half or float");
  normgrad_ascendc::ActivationCall<T>(
      normgrad_ascendc::ActivationApi::kSwiGLU, site, dstTensor, srcTensor0,
      &srcTensor1, &sharedTmpBuffer.view(), calCount, scalarValue);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor,
                              const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1,
                              const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SwiGLU: T must be half or float");
  normgrad_ascendc::ActivationCall<T>(
      normgrad_ascendc::ActivationApi::kSwiGLU, site, dstTensor, srcTensor0,
      &srcTensor1, &sharedTmpBuffer.view(),
      normgrad_ascendc::kEverySourceElement, scalarValue);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor,
                              const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1,
                              const float& scalarValue, const uint32_t calCount,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SwiGLU: T must be half or float");
  normgrad_ascendc::ActivationCall<T>(normgrad_ascendc::ActivationApi::kSwiGLU,
                                      site, dstTensor, srcTensor0, &srcTensor1,
                                      nullptr, calCount, scalarValue);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(const LocalTensor<T>& dstTensor,
                              const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1,
                              const float& scalarValue,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SwiGLU: T must be half or float");
  normgrad_ascendc::ActivationCall<T>(
      normgrad_ascendc::ActivationApi::kSwiGLU, site, dstTensor, srcTensor0,
      &srcTensor1, nullptr, normgrad_ascendc::kEverySourceElement, scalarValue);
}

}  // namespace AscendC
