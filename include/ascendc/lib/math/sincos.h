// lib/math/sincos.h — the kernel-side SinCos API of Ascend C (the contract:
// docs/math.md): dst0[i] = sin(src[i]) and dst1[i] = cos(src[i]) for
// i < count, computed in float within the bound of docs/numerics.md ("Math:
// transcendental"). Ascend 950 only (elsewhere a KernelError naming the
// profile); T = half or float, deduced, after the SinCosConfig, whose
// isReuseSource is reserved by the documentation and changes nothing. The
// overloads: sharedTmpBuffer or the framework scratch, with count; the
// scratch holds two floats per element of a pass (both results).
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

/// SinCos's configuration.
struct SinCosConfig {
  bool isReuseSource;
};

inline constexpr SinCosConfig DEFAULT_SINCOS_CONFIG = {false};

template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
__aicore__ inline void SinCos(const LocalTensor<T>& dst0,
                              const LocalTensor<T>& dst1,
                              const LocalTensor<T>& src,
                              const LocalTensor<uint8_t>& sharedTmpBuffer,
                              const uint32_t count,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "SinCos: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kSinCos, site,
                                       dst0, src, &sharedTmpBuffer.view(),
                                       count, 0, &dst1.view());
}

template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
__aicore__ inline void SinCos(const LocalTensor<T>& dst0,
                              const LocalTensor<T>& dst1,
                              const LocalTensor<T>& src, const uint32_t count,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "SinCos: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kSinCos, site,
                                       dst0, src, nullptr, count, 0,
                                       &dst1.view());
}

}  // namespace AscendC
