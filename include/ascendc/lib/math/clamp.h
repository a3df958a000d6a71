// lib/math/clamp.h — the kernel-side Clamp, ClampMax and ClampMin APIs of
// Ascend C (the contract: docs/math.md, "Binary, logical and bitwise").
// Clamp (Ascend 950 only): dst[i] = src[i] held to [min, max], min and max
// each a scalar or a LocalTensor (element by element), NaN kept, every
// non-NaN value max where min > max; T any integer type, half,
// bfloat16_t or float. ClampMax / ClampMin (every profile; half, float):
// dstTensor[i] = srcTensor[i] with the values above (below) scalar replaced
// by scalar; sharedTmpBuffer or the framework scratch. Every check runs on
// every call; a violation is a KernelError naming the API, the argument,
// the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

NORMGRAD_MATH_RESERVED_CONFIG(ClampConfig, DEFAULT_CLAMP_CONFIG)

template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T,
          typename U, typename S>
__aicore__ inline void Clamp(const LocalTensor<T>& dst,
                             const LocalTensor<T>& src, const U& min,
                             const S& max, const uint32_t count,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathNumber<T>,
                "Clamp: T must be int8_t, uint8_t, int16_t, uint16_t, half, "
                "bfloat16_t, int32_t, uint32_t, float, int64_t or uint64_t");
  static_assert(std::is_same_v<normgrad_ascendc::OperandElement<U>, T> &&
                    std::is_same_v<normgrad_ascendc::OperandElement<S>, T>,
                "Clamp: min and max must each be a T or a LocalTensor<T>");
  normgrad_ascendc::MathCall<T>(
      normgrad_ascendc::MathCallApi::kClamp, site, dst,
      normgrad_ascendc::MathScratch::kNone, nullptr, count,
      {normgrad_ascendc::OperandOf(src), normgrad_ascendc::OperandOf(min),
       normgrad_ascendc::OperandOf(max)});
}

// ClampMax and ClampMin: sharedTmpBuffer (before the scalar) or the
// framework scratch.
#define NORMGRAD_CLAMP_TO_SCALAR(Api)                                         \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,            \
      const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {        \
    static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,                    \
                  #Api ": T must be half or float");                          \
    normgrad_ascendc::MathCall<T>(                                            \
        normgrad_ascendc::MathCallApi::k##Api, site, dstTensor,               \
        normgrad_ascendc::MathScratch::kShared, &sharedTmpBuffer, calCount,   \
        {normgrad_ascendc::OperandOf(srcTensor),                              \
         normgrad_ascendc::OperandOf(scalar)});                               \
  }                                                                           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor, const T scalar, \
                             const uint32_t calCount,                         \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,                    \
                  #Api ": T must be half or float");                          \
    normgrad_ascendc::MathCall<T>(                                            \
        normgrad_ascendc::MathCallApi::k##Api, site, dstTensor,               \
        normgrad_ascendc::MathScratch::kFramework, nullptr, calCount,         \
        {normgrad_ascendc::OperandOf(srcTensor),                              \
         normgrad_ascendc::OperandOf(scalar)});                               \
  }

NORMGRAD_CLAMP_TO_SCALAR(ClampMax)
NORMGRAD_CLAMP_TO_SCALAR(ClampMin)

#undef NORMGRAD_CLAMP_TO_SCALAR

}  // namespace AscendC
