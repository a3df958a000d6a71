// lib/math/rint.h — the kernel-side Rint API of Ascend C (the contract:
// docs/math.md): dst[i] = src[i] rounded to the nearest integer, a tie to
// the even one, for i < count. Ascend 950 only (a call on another profile is
// a KernelError naming the profile); T = half or float, deduced, after the
// RintConfig. RintConfig::isReuseSource is reserved by the documentation
// and changes nothing.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

/// Rint's configuration.
struct RintConfig {
  bool isReuseSource;
};

inline constexpr RintConfig DEFAULT_RINT_CONFIG = {false};

/// With a caller-provided scratch buffer (GetRintMaxMinTmpSize gives the
/// range).
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
__aicore__ inline void Rint(const LocalTensor<T>& dst,
                            const LocalTensor<T>& src,
                            const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t count,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Rint: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kRint, site,
                                       dst, src, &sharedTmpBuffer.view(),
                                       count);
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers.
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
__aicore__ inline void Rint(const LocalTensor<T>& dst,
                            const LocalTensor<T>& src, const uint32_t count,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "Rint: T must be half or float");
  normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::kRint, site,
                                       dst, src, nullptr, count);
}

}  // namespace AscendC
