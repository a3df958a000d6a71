// normgrad_ascendc/runtime/numeric_limits.h — AscendC::NumericLimits<T>
// (docs/runtime.md, "Numeric limits"): Max, Lowest, Min, Infinity,
// NegativeInfinity, QuietNaN, SignalingNaN and DeNormMin, each as a
// constexpr scalar and as a fill of a tensor's first `count` elements.
//
// Types, as documented: Max, Lowest and Min for int8_t, uint8_t, int16_t,
// uint16_t, int32_t, uint32_t, half, bfloat16_t and float; the others for
// the three float types only (another type does not compile). Min of an
// integer type is its lowest value, of a float type the smallest positive
// normal; the NaNs are positive with the top mantissa bit set (quiet) or the
// one below it set (signalling). The tensor forms are Duplicate's count form
// with the value (its checks and messages), and exist on the 950 only (a
// KernelError elsewhere); the scalar forms are constants and compile on
// every profile.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/system_query.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_layout.h"

namespace normgrad_ascendc {

/// The float types NumericLimits knows, by their bits: sign, exponent and
/// mantissa widths.
template <typename T>
struct FloatBits {
  static constexpr bool kIsFloat = std::is_same_v<T, half> ||
                                   std::is_same_v<T, bfloat16_t> ||
                                   std::is_same_v<T, float>;
  static constexpr int kMantissa = std::is_same_v<T, half>         ? 10
                                   : std::is_same_v<T, bfloat16_t> ? 7
                                                                   : 23;
  static constexpr int kExponent = std::is_same_v<T, half>         ? 5
                                   : std::is_same_v<T, bfloat16_t> ? 8
                                                                   : 8;
  static constexpr uint32_t kExpAll = ((1u << kExponent) - 1) << kMantissa;

  /// The value with these bits.
  static constexpr T Make(uint32_t bits) {
    if constexpr (std::is_same_v<T, float>) {
      return __builtin_bit_cast(float, bits);
    } else {
      return T::FromBits(static_cast<uint16_t>(bits));
    }
  }
};

template <typename T>
inline constexpr bool kLimitsIntegral =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;

/// Fills dst's first count elements with value (the tensor forms).
template <typename T>
void FillLimit(const char* api, const AscendC::LocalTensor<T>& dst, T value,
               uint32_t count, const CallSite& site) {
  {
    const ApiCall call(site);
    RequireProfile(api, {Profile::k950}, "the 950");
  }
  AscendC::Duplicate(dst, value, static_cast<int32_t>(count), site);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T>
struct NumericLimits {
  static_assert(normgrad_ascendc::kLimitsIntegral<T> ||
                    normgrad_ascendc::FloatBits<T>::kIsFloat,
                "NumericLimits: T must be int8_t, uint8_t, int16_t, "
                "uint16_t, int32_t, uint32_t, half, bfloat16_t or float");
  using Bits = normgrad_ascendc::FloatBits<T>;

  /// The largest finite value.
  static constexpr T Max() {
    if constexpr (Bits::kIsFloat) {
      return Bits::Make(Bits::kExpAll - 1);
    } else {
      return std::numeric_limits<T>::max();
    }
  }
  /// The most negative finite value.
  static constexpr T Lowest() {
    if constexpr (Bits::kIsFloat) {
      return Bits::Make((1u << (Bits::kExponent + Bits::kMantissa)) |
                        (Bits::kExpAll - 1));
    } else {
      return std::numeric_limits<T>::lowest();
    }
  }
  /// The smallest positive normal value (floats); the lowest (integers).
  static constexpr T Min() {
    if constexpr (Bits::kIsFloat) {
      return Bits::Make(1u << Bits::kMantissa);
    } else {
      return std::numeric_limits<T>::lowest();
    }
  }
  static constexpr T Infinity() {
    static_assert(Bits::kIsFloat,
                  "Infinity: T must be half, bfloat16_t or float");
    return Bits::Make(Bits::kExpAll);
  }
  static constexpr T NegativeInfinity() {
    static_assert(Bits::kIsFloat,
                  "NegativeInfinity: T must be half, bfloat16_t or float");
    return Bits::Make((1u << (Bits::kExponent + Bits::kMantissa)) |
                      Bits::kExpAll);
  }
  static constexpr T QuietNaN() {
    static_assert(Bits::kIsFloat,
                  "QuietNaN: T must be half, bfloat16_t or float");
    return Bits::Make(Bits::kExpAll | (1u << (Bits::kMantissa - 1)));
  }
  static constexpr T SignalingNaN() {
    static_assert(Bits::kIsFloat,
                  "SignalingNaN: T must be half, bfloat16_t or float");
    return Bits::Make(Bits::kExpAll | (1u << (Bits::kMantissa - 2)));
  }
  /// The smallest positive subnormal value.
  static constexpr T DeNormMin() {
    static_assert(Bits::kIsFloat,
                  "DeNormMin: T must be half, bfloat16_t or float");
    return Bits::Make(1);
  }

  static void Max(const LocalTensor<T>& dst, uint32_t count,
                  normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::Max", dst, Max(), count, site);
  }
  static void Lowest(const LocalTensor<T>& dst, uint32_t count,
                     normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::Lowest", dst, Lowest(), count,
                                site);
  }
  static void Min(const LocalTensor<T>& dst, uint32_t count,
                  normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::Min", dst, Min(), count, site);
  }
  static void Infinity(const LocalTensor<T>& dstLocal, uint32_t count,
                       normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::Infinity", dstLocal, Infinity(),
                                count, site);
  }
  static void NegativeInfinity(const LocalTensor<T>& dstLocal, uint32_t count,
                               normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::NegativeInfinity", dstLocal,
                                NegativeInfinity(), count, site);
  }
  static void QuietNaN(const LocalTensor<T>& dstLocal, uint32_t count,
                       normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::QuietNaN", dstLocal, QuietNaN(),
                                count, site);
  }
  static void SignalingNaN(const LocalTensor<T>& dstLocal, uint32_t count,
                           normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::SignalingNaN", dstLocal,
                                SignalingNaN(), count, site);
  }
  static void DeNormMin(const LocalTensor<T>& dstLocal, uint32_t count,
                        normgrad_ascendc::CallSite site = {}) {
    normgrad_ascendc::FillLimit("NumericLimits::DeNormMin", dstLocal,
                                DeNormMin(), count, site);
  }
};

}  // namespace AscendC
