// normgrad_ascendc/lib/math/math_host_tiling.h — the host-side scratch-size
// queries of the elementwise Math APIs (docs/math.md, "Scratch sizes"):
// Get<Api>MaxMinTmpSize and Get<Api>TmpBufferFactorSize, and the sizing rule
// the kernel side checks the scratch against.
//
// The rule (docs/decisions.md, "Math: the first batch"): a call computes in
// passes, each holding one intermediate per element in the scratch (a float
// for half and float, an int64_t for int64_t), at least 256 bytes of input
// per pass. So maxLiveNodeCount = intermediate / typeSize (2 for half, 1
// for float and int64_t), extraBuf = 0, minValue = one pass of 256 / typeSize
// elements, maxValue = one pass over every element of srcShape (at least
// minValue).
//
// Error policy: the functions return void, as documented. On bad input — a
// typeSize the API does not take, a shape with no dimension, a dimension
// below 1, more than 2^32-1 elements, an API the platform does not have —
// they print one message on stderr naming the function, the argument, the
// value and the rule, and set their outputs to 0. Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/math/math_configs.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "tiling/platform/platform_ascendc.h"

namespace normgrad_ascendc {

/// Bytes of the intermediates each element takes in the scratch: 8 for
/// int64_t (type_size 8), else 4 (float), for each of its `outputs` (2 for
/// SinCos, else 1).
constexpr uint32_t MathIntermediateBytes(uint32_t type_size,
                                         uint32_t outputs = 1) {
  return (type_size == 8 ? 8 : 4) * outputs;
}

/// Elements of the smallest pass: 256 bytes of input.
constexpr uint32_t MathMinPassElements(uint32_t type_size) {
  return 256 / type_size;
}

/// minValue: the scratch of the smallest pass, in bytes.
constexpr uint32_t MathMinTmpBytes(uint32_t type_size, uint32_t outputs = 1) {
  return MathMinPassElements(type_size) *
         MathIntermediateBytes(type_size, outputs);
}

/// maxValue before saturation: one pass over n elements, at least minValue.
constexpr uint64_t MathMaxTmpBytes(uint32_t type_size, uint64_t n,
                                   uint32_t outputs = 1) {
  const uint64_t pass =
      n > MathMinPassElements(type_size) ? n : MathMinPassElements(type_size);
  return pass * MathIntermediateBytes(type_size, outputs);
}

}  // namespace normgrad_ascendc

namespace AscendC {

// typeSize: 2 (half) or 4 (float); for Sign also 8 (int64_t, Ascend 950).

void GetCeilMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue,
                          uint32_t& minValue);
void GetCeilTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetFloorMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);
void GetFloorTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

/// Round's queries take the platform, as documented; every profile has
/// Round.
void GetRoundMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const uint32_t typeSize,
    const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetRoundTmpBufferFactorSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetTruncMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);
void GetTruncTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

void GetFracMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue,
                          uint32_t& minValue);
void GetFracTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

/// Rint's queries take the platform, as documented: on a platform other
/// than Ascend 950 (which alone has Rint) they report that and give 0.
void GetRintMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const uint32_t typeSize,
    const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetRintTmpBufferFactorSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t typeSize, uint32_t& maxLivedNodeCount, uint32_t& extraBuf);

void GetSignMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue,
                          uint32_t& minValue);
void GetSignTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer);

// The transcendental APIs (half and float). Exp's MaxMin query returns
// whether it could give the sizes; SinCos's take the platform (Ascend 950
// alone has SinCos) and size two floats per element; Sin's and Cos's have a
// second form with their config (the same sizes for every algo).

bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue,
                         uint32_t& minValue);
void GetExpTmpBufferFactorSize(const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer);

/// Get<Api>MaxMinTmpSize and Get<Api>TmpBufferFactorSize with the
/// documented signatures of the APIs below.
#define NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Api)                         \
  void Get##Api##MaxMinTmpSize(                                          \
      const ge::Shape& srcShape, const uint32_t typeSize,                \
      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue); \
  void Get##Api##TmpBufferFactorSize(const uint32_t typeSize,            \
                                     uint32_t& maxLiveNodeCount,         \
                                     uint32_t& extraBuf);

NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Log)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Log2)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Log10)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Tanh)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Sin)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Cos)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Erf)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Erfc)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Sinh)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Cosh)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Tan)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Asin)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Acos)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Atan)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Asinh)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Acosh)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Atanh)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Digamma)
NORMGRAD_MATH_TMP_SIZE_DECLARATIONS(Lgamma)

#undef NORMGRAD_MATH_TMP_SIZE_DECLARATIONS

void GetSinMaxMinTmpSize(const SinConfig& config, const ge::Shape& srcShape,
                         const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue);
void GetSinTmpBufferFactorSize(const SinConfig& config, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf);
void GetCosMaxMinTmpSize(const CosConfig& config, const ge::Shape& srcShape,
                         const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue);
void GetCosTmpBufferFactorSize(const CosConfig& config, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetSinCosMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const uint32_t typeSize,
    const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetSinCosTmpBufferFactorSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t typeSize, uint32_t& maxLivedNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

// ---- The binary call shape (docs/math.md, "Binary, logical and bitwise") --
//
// ClampMax, ClampMin, IsInf, IsNan, Xor, Fma, Fmod, Hypot and Axpy compute
// through a scratch sized by the rule above (typeSize: of the source; 2 or
// 4, Xor 2; Hypot's bfloat16_t is 2). The Ascend 950
// APIs without a scratch overload (Clamp, the Bitwise and Logical APIs,
// Where) need none: their queries give 0 (docs/decisions.md, "Math part:
// binary, logical and bitwise"); typeSize 1, 2, 4 or 8. The queries that
// take the platform report any platform but Ascend 950 and give 0.

namespace AscendC {

/// For ClampMax, ClampMin and Clamp (Clamp itself needs no scratch).
void GetClampMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);
void GetClampTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

void GetXorMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue,
                         uint32_t& minValue);
void GetXorTmpBufferFactorSize(const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer);

/// Power: typeSize 1, 2 or 4; the shapes of the tensor operands (a scalar's
/// may be {1}); the rule above over the larger. typeIsInt changes nothing.
void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1,
                           const ge::Shape& srcShape2, const bool typeIsInt,
                           const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue);
void GetPowerTmpBufferFactorSize(const bool baseIsTensor,
                                 const bool expIsTensor, const bool typeIsInt,
                                 const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuffer);

/// CumSum: srcShape {outter, inner}, typeSize 2 or 4, inner * typeSize a
/// multiple of 32; maxValue = minValue = a line of inner floats (4 * inner
/// bytes) on either axis.
void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isLastAxis, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue);

void GetAxpyMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue,
                          uint32_t& minValue);
void GetAxpyTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetFmodMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool isReuseSource, uint32_t& maxValue,
                          uint32_t& minValue);
void GetFmodTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetHypotMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);
void GetHypotTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

#define NORMGRAD_MATH_950_QUERIES(Api)                                   \
  void Get##Api##MaxMinTmpSize(                                          \
      const platform_ascendc::PlatformAscendC& ascendcPlatform,          \
      const ge::Shape& srcShape, const uint32_t typeSize,                \
      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue); \
  void Get##Api##TmpBufferFactorSize(                                    \
      const platform_ascendc::PlatformAscendC& ascendcPlatform,          \
      const uint32_t typeSize, uint32_t& maxLivedNodeCount,              \
      uint32_t& extraBuf);

NORMGRAD_MATH_950_QUERIES(IsInf)
NORMGRAD_MATH_950_QUERIES(IsNan)
NORMGRAD_MATH_950_QUERIES(BitwiseAnd)
NORMGRAD_MATH_950_QUERIES(BitwiseOr)
NORMGRAD_MATH_950_QUERIES(BitwiseXor)
NORMGRAD_MATH_950_QUERIES(BitwiseNot)
NORMGRAD_MATH_950_QUERIES(LogicalAnd)
NORMGRAD_MATH_950_QUERIES(LogicalAnds)
NORMGRAD_MATH_950_QUERIES(LogicalOr)
NORMGRAD_MATH_950_QUERIES(LogicalOrs)
NORMGRAD_MATH_950_QUERIES(LogicalNot)
NORMGRAD_MATH_950_QUERIES(LogicalXor)
NORMGRAD_MATH_950_QUERIES(Where)
NORMGRAD_MATH_950_QUERIES(Fma)

#undef NORMGRAD_MATH_950_QUERIES

}  // namespace AscendC
