// math_host_tiling.cc — the scratch-size queries of the elementwise Math
// APIs (normgrad_ascendc/lib/math/math_host_tiling.h states the rule and
// the error policy): one checked body for the MaxMin queries and one for the
// factor queries, each API's pair naming itself and the type sizes it takes.
#include "normgrad_ascendc/lib/math/math_host_tiling.h"

#include <string>

#include "ascendc/lib/common/tiling_checks.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::kU32Max;
using host_tiling::Report;

// The type sizes an API takes: 2 and 4, and 8 where it takes int64_t.
bool CheckMathTypeSize(const char* fn, uint32_t type_size, bool takes_int64,
                       const char* consequence) {
  if (type_size == 2 || type_size == 4 || (takes_int64 && type_size == 8)) {
    return true;
  }
  Report(fn,
         "typeSize " + std::to_string(type_size) +
             (takes_int64 ? " is not supported: it must be 2 (half), 4 "
                            "(float) or 8 (int64_t, Ascend 950)"
                          : " is not supported: it must be 2 (half) or 4 "
                            "(float)"),
         consequence);
  return false;
}

// Ascend 950 alone has the 950-only APIs.
bool CheckPlatform(const char* fn, const char* api,
                   const platform_ascendc::PlatformAscendC& platform,
                   const char* consequence) {
  if (platform.GetCurNpuArch() == NpuArch::DAV_3510) return true;
  Report(fn,
         std::string("ascendcPlatform is architecture ") +
             std::to_string(static_cast<uint32_t>(platform.GetCurNpuArch())) +
             ": " + api + " exists on Ascend 950 (3510) only",
         consequence);
  return false;
}

// Returns whether the inputs were valid (the outputs 0 when not).
bool MaxMin(const char* fn, const ge::Shape& shape, uint32_t type_size,
            bool takes_int64, uint32_t& max_value, uint32_t& min_value,
            uint32_t outputs = 1) {
  constexpr char kZero[] = "maxValue and minValue are 0";
  max_value = 0;
  min_value = 0;
  uint64_t n = 0;
  if (!CheckMathTypeSize(fn, type_size, takes_int64, kZero) ||
      !host_tiling::CountElements(fn, shape, "calCount", kZero, &n)) {
    return false;
  }
  const uint64_t max_bytes = MathMaxTmpBytes(type_size, n, outputs);
  max_value = max_bytes > kU32Max ? static_cast<uint32_t>(kU32Max)
                                  : static_cast<uint32_t>(max_bytes);
  min_value = MathMinTmpBytes(type_size, outputs);
  return true;
}

void Factor(const char* fn, uint32_t type_size, bool takes_int64,
            uint32_t& max_live_node_count, uint32_t& extra_buf,
            uint32_t outputs = 1) {
  max_live_node_count = 0;
  extra_buf = 0;
  if (!CheckMathTypeSize(fn, type_size, takes_int64,
                         "maxLiveNodeCount and extraBuf are 0")) {
    return;
  }
  max_live_node_count = MathIntermediateBytes(type_size, outputs) / type_size;
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::Factor;
using normgrad_ascendc::MaxMin;

// The APIs on every profile, half and float.
#define NORMGRAD_MATH_TMP_SIZE_QUERIES(Api)                                 \
  void Get##Api##MaxMinTmpSize(const ge::Shape& srcShape,                   \
                               const uint32_t typeSize, const bool,         \
                               uint32_t& maxValue, uint32_t& minValue) {    \
    MaxMin("Get" #Api "MaxMinTmpSize", srcShape, typeSize, false, maxValue, \
           minValue);                                                       \
  }                                                                         \
  void Get##Api##TmpBufferFactorSize(const uint32_t typeSize,               \
                                     uint32_t& maxLiveNodeCount,            \
                                     uint32_t& extraBuf) {                  \
    Factor("Get" #Api "TmpBufferFactorSize", typeSize, false,               \
           maxLiveNodeCount, extraBuf);                                     \
  }

NORMGRAD_MATH_TMP_SIZE_QUERIES(Ceil)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Floor)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Trunc)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Frac)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Log)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Log2)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Log10)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Tanh)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Sin)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Cos)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Erf)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Erfc)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Sinh)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Cosh)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Tan)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Asin)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Acos)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Atan)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Asinh)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Acosh)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Atanh)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Digamma)
NORMGRAD_MATH_TMP_SIZE_QUERIES(Lgamma)

#undef NORMGRAD_MATH_TMP_SIZE_QUERIES

void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                           const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetRoundMaxMinTmpSize", srcShape, typeSize, false, maxValue,
         minValue);
}

void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC&,
                                 const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  Factor("GetRoundTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuf);
}

void GetRintMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const uint32_t typeSize, const bool,
    uint32_t& maxValue, uint32_t& minValue) {
  constexpr char kFn[] = "GetRintMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (!normgrad_ascendc::CheckPlatform(kFn, "Rint", ascendcPlatform,
                                       "maxValue and minValue are 0")) {
    return;
  }
  MaxMin(kFn, srcShape, typeSize, false, maxValue, minValue);
}

void GetRintTmpBufferFactorSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t typeSize, uint32_t& maxLivedNodeCount, uint32_t& extraBuf) {
  constexpr char kFn[] = "GetRintTmpBufferFactorSize";
  maxLivedNodeCount = 0;
  extraBuf = 0;
  if (!normgrad_ascendc::CheckPlatform(
          kFn, "Rint", ascendcPlatform,
          "maxLivedNodeCount and extraBuf are 0")) {
    return;
  }
  Factor(kFn, typeSize, false, maxLivedNodeCount, extraBuf);
}

void GetSignMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetSignMaxMinTmpSize", srcShape, typeSize, true, maxValue, minValue);
}

void GetSignTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer) {
  Factor("GetSignTmpBufferFactorSize", typeSize, true, maxLiveNodeCount,
         extraBuffer);
}

// Exp's MaxMin query returns whether it could give the sizes.
bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         const bool, uint32_t& maxValue, uint32_t& minValue) {
  return MaxMin("GetExpMaxMinTmpSize", srcShape, typeSize, false, maxValue,
                minValue);
}

void GetExpTmpBufferFactorSize(const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer) {
  Factor("GetExpTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuffer);
}

// Sin's and Cos's queries with the config: every algo has the same sizes.
void GetSinMaxMinTmpSize(const SinConfig&, const ge::Shape& srcShape,
                         const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue) {
  GetSinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}

void GetSinTmpBufferFactorSize(const SinConfig&, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}

void GetCosMaxMinTmpSize(const CosConfig&, const ge::Shape& srcShape,
                         const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue) {
  GetCosMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}

void GetCosTmpBufferFactorSize(const CosConfig&, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  GetCosTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}

// SinCos (Ascend 950 only) keeps both results of a pass: two floats per
// element.
void GetSinCosMaxMinTmpSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const ge::Shape& srcShape, const uint32_t typeSize, const bool,
    uint32_t& maxValue, uint32_t& minValue) {
  constexpr char kFn[] = "GetSinCosMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (!normgrad_ascendc::CheckPlatform(kFn, "SinCos", ascendcPlatform,
                                       "maxValue and minValue are 0")) {
    return;
  }
  MaxMin(kFn, srcShape, typeSize, false, maxValue, minValue, 2);
}

void GetSinCosTmpBufferFactorSize(
    const platform_ascendc::PlatformAscendC& ascendcPlatform,
    const uint32_t typeSize, uint32_t& maxLivedNodeCount, uint32_t& extraBuf) {
  constexpr char kFn[] = "GetSinCosTmpBufferFactorSize";
  maxLivedNodeCount = 0;
  extraBuf = 0;
  if (!normgrad_ascendc::CheckPlatform(
          kFn, "SinCos", ascendcPlatform,
          "maxLivedNodeCount and extraBuf are 0")) {
    return;
  }
  Factor(kFn, typeSize, false, maxLivedNodeCount, extraBuf, 2);
}

}  // namespace AscendC

// ---- The binary call shape --------------------------------------------------
// (math_host_tiling.h states which APIs use the scratch rule above and which
// need no scratch.)

namespace normgrad_ascendc {
namespace {

// Xor takes int16_t and uint16_t only.
void XorMaxMin(const ge::Shape& shape, uint32_t type_size, uint32_t& max_value,
               uint32_t& min_value) {
  constexpr char kFn[] = "GetXorMaxMinTmpSize";
  max_value = 0;
  min_value = 0;
  if (type_size != 2) {
    Report(kFn,
           "typeSize " + std::to_string(type_size) +
               " is not supported: it must be 2 (int16_t or uint16_t)",
           "maxValue and minValue are 0");
    return;
  }
  MaxMin(kFn, shape, type_size, false, max_value, min_value);
}

// The type sizes of the APIs without a scratch: 1, 2, 4 or 8 bytes.
bool CheckAnyTypeSize(const char* fn, uint32_t type_size,
                      const char* consequence) {
  if (type_size == 1 || type_size == 2 || type_size == 4 || type_size == 8) {
    return true;
  }
  Report(fn,
         "typeSize " + std::to_string(type_size) +
             " is not supported: it must be 1, 2, 4 or 8",
         consequence);
  return false;
}

// The Ascend 950 queries: on that platform, by the scratch rule (IsInf,
// IsNan) or 0 (the APIs without a scratch), after the arguments' checks.
void MaxMin950(const char* fn, const char* api, bool uses_scratch,
               const platform_ascendc::PlatformAscendC& platform,
               const ge::Shape& shape, uint32_t type_size, uint32_t& max_value,
               uint32_t& min_value) {
  constexpr char kZero[] = "maxValue and minValue are 0";
  max_value = 0;
  min_value = 0;
  if (!CheckPlatform(fn, api, platform, kZero)) return;
  if (uses_scratch) {
    MaxMin(fn, shape, type_size, false, max_value, min_value);
    return;
  }
  if (!CheckAnyTypeSize(fn, type_size, kZero)) return;
  // The shape's checks are MaxMin's; float stands in for the type size,
  // already checked, and the sizes it gives are not this API's.
  MaxMin(fn, shape, 4, false, max_value, min_value);
  max_value = 0;
  min_value = 0;
}

void Factor950(const char* fn, const char* api, bool uses_scratch,
               const platform_ascendc::PlatformAscendC& platform,
               uint32_t type_size, uint32_t& max_lived_node_count,
               uint32_t& extra_buf) {
  constexpr char kZero[] = "maxLivedNodeCount and extraBuf are 0";
  max_lived_node_count = 0;
  extra_buf = 0;
  if (!CheckPlatform(fn, api, platform, kZero)) return;
  if (uses_scratch) {
    Factor(fn, type_size, false, max_lived_node_count, extra_buf);
    return;
  }
  CheckAnyTypeSize(fn, type_size, kZero);
}

// Power's type sizes: 1 (int8_t, uint8_t), 2 or 4.
bool CheckPowerTypeSize(const char* fn, uint32_t type_size,
                        const char* consequence) {
  if (type_size == 1 || type_size == 2 || type_size == 4) return true;
  Report(fn,
         "typeSize " + std::to_string(type_size) +
             " is not supported: it must be 1, 2 or 4",
         consequence);
  return false;
}

// The elements of a shape MaxMin accepted (every dimension at least 1).
uint64_t Elements(const ge::Shape& shape) {
  uint64_t n = 1;
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    n *= static_cast<uint64_t>(shape.GetDim(i));
  }
  return n;
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1,
                           const ge::Shape& srcShape2, const bool,
                           const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  constexpr char kFn[] = "GetPowerMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (!normgrad_ascendc::CheckPowerTypeSize(kFn, typeSize,
                                            "maxValue and minValue are 0")) {
    return;
  }
  // Each shape passes MaxMin's checks (float standing in for the type size,
  // checked above); the sizes are the rule's over the larger.
  for (const ge::Shape* shape : {&srcShape1, &srcShape2}) {
    MaxMin(kFn, *shape, 4, false, maxValue, minValue);
    if (maxValue == 0) return;
  }
  const uint64_t n1 = normgrad_ascendc::Elements(srcShape1);
  const uint64_t n2 = normgrad_ascendc::Elements(srcShape2);
  const uint64_t n = n1 > n2 ? n1 : n2;
  const uint64_t max_bytes = normgrad_ascendc::MathMaxTmpBytes(typeSize, n);
  maxValue = max_bytes > normgrad_ascendc::host_tiling::kU32Max
                 ? static_cast<uint32_t>(normgrad_ascendc::host_tiling::kU32Max)
                 : static_cast<uint32_t>(max_bytes);
  minValue = normgrad_ascendc::MathMinTmpBytes(typeSize);
}

void GetPowerTmpBufferFactorSize(const bool baseIsTensor,
                                 const bool expIsTensor, const bool,
                                 const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuffer) {
  constexpr char kFn[] = "GetPowerTmpBufferFactorSize";
  constexpr char kZero[] = "maxLiveNodeCount and extraBuffer are 0";
  maxLiveNodeCount = 0;
  extraBuffer = 0;
  if (!baseIsTensor && !expIsTensor) {
    normgrad_ascendc::host_tiling::Report(
        kFn,
        "baseIsTensor and expIsTensor are both false: Power takes a tensor "
        "base, a tensor exponent or both",
        kZero);
    return;
  }
  if (!normgrad_ascendc::CheckPowerTypeSize(kFn, typeSize, kZero)) return;
  maxLiveNodeCount =
      normgrad_ascendc::MathIntermediateBytes(typeSize) / typeSize;
}

void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool, const bool, uint32_t& maxValue,
                            uint32_t& minValue) {
  constexpr char kFn[] = "GetCumSumMaxMinTmpSize";
  constexpr char kZero[] = "maxValue and minValue are 0";
  maxValue = 0;
  minValue = 0;
  // typeSize and each dimension pass MaxMin's checks.
  MaxMin(kFn, srcShape, typeSize, false, maxValue, minValue);
  if (maxValue == 0) return;
  maxValue = 0;
  minValue = 0;
  const std::string text =
      "srcShape " + normgrad_ascendc::host_tiling::ShapeText(srcShape);
  if (srcShape.GetDimNum() != 2) {
    normgrad_ascendc::host_tiling::Report(
        kFn, text + " must have two dimensions: {outter, inner}", kZero);
    return;
  }
  const uint64_t inner = static_cast<uint64_t>(srcShape.GetDim(1));
  if (inner * typeSize % 32 != 0) {
    normgrad_ascendc::host_tiling::Report(
        kFn,
        text + ": inner " + std::to_string(inner) + " * typeSize " +
            std::to_string(typeSize) + " must be a multiple of 32 bytes",
        kZero);
    return;
  }
  const uint64_t line_bytes = inner * 4;
  maxValue = line_bytes > normgrad_ascendc::host_tiling::kU32Max
                 ? static_cast<uint32_t>(normgrad_ascendc::host_tiling::kU32Max)
                 : static_cast<uint32_t>(line_bytes);
  minValue = maxValue;
}

void GetClampMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetClampMaxMinTmpSize", srcShape, typeSize, false, maxValue,
         minValue);
}

void GetClampTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  Factor("GetClampTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuf);
}

void GetAxpyMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetAxpyMaxMinTmpSize", srcShape, typeSize, false, maxValue, minValue);
}

void GetAxpyTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf) {
  Factor("GetAxpyTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuf);
}

void GetFmodMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetFmodMaxMinTmpSize", srcShape, typeSize, false, maxValue, minValue);
}

void GetFmodTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf) {
  Factor("GetFmodTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuf);
}

void GetHypotMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetHypotMaxMinTmpSize", srcShape, typeSize, false, maxValue,
         minValue);
}

void GetHypotTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  Factor("GetHypotTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuf);
}

void GetXorMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         const bool, uint32_t& maxValue, uint32_t& minValue) {
  normgrad_ascendc::XorMaxMin(srcShape, typeSize, maxValue, minValue);
}

void GetXorTmpBufferFactorSize(const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer) {
  maxLiveNodeCount = 0;
  extraBuffer = 0;
  if (typeSize != 2) {
    normgrad_ascendc::host_tiling::Report(
        "GetXorTmpBufferFactorSize",
        "typeSize " + std::to_string(typeSize) +
            " is not supported: it must be 2 (int16_t or uint16_t)",
        "maxLiveNodeCount and extraBuffer are 0");
    return;
  }
  Factor("GetXorTmpBufferFactorSize", typeSize, false, maxLiveNodeCount,
         extraBuffer);
}

#define NORMGRAD_MATH_950_QUERIES(Api, uses_scratch)                     \
  void Get##Api##MaxMinTmpSize(                                          \
      const platform_ascendc::PlatformAscendC& ascendcPlatform,          \
      const ge::Shape& srcShape, const uint32_t typeSize, const bool,    \
      uint32_t& maxValue, uint32_t& minValue) {                          \
    normgrad_ascendc::MaxMin950("Get" #Api "MaxMinTmpSize", #Api,        \
                                uses_scratch, ascendcPlatform, srcShape, \
                                typeSize, maxValue, minValue);           \
  }                                                                      \
  void Get##Api##TmpBufferFactorSize(                                    \
      const platform_ascendc::PlatformAscendC& ascendcPlatform,          \
      const uint32_t typeSize, uint32_t& maxLivedNodeCount,              \
      uint32_t& extraBuf) {                                              \
    normgrad_ascendc::Factor950("Get" #Api "TmpBufferFactorSize", #Api,  \
                                uses_scratch, ascendcPlatform, typeSize, \
                                maxLivedNodeCount, extraBuf);            \
  }

NORMGRAD_MATH_950_QUERIES(IsInf, true)
NORMGRAD_MATH_950_QUERIES(IsNan, true)
NORMGRAD_MATH_950_QUERIES(BitwiseAnd, false)
NORMGRAD_MATH_950_QUERIES(BitwiseOr, false)
NORMGRAD_MATH_950_QUERIES(BitwiseXor, false)
NORMGRAD_MATH_950_QUERIES(BitwiseNot, false)
NORMGRAD_MATH_950_QUERIES(LogicalAnd, false)
NORMGRAD_MATH_950_QUERIES(LogicalAnds, false)
NORMGRAD_MATH_950_QUERIES(LogicalOr, false)
NORMGRAD_MATH_950_QUERIES(LogicalOrs, false)
NORMGRAD_MATH_950_QUERIES(LogicalNot, false)
NORMGRAD_MATH_950_QUERIES(LogicalXor, false)
NORMGRAD_MATH_950_QUERIES(Where, false)
NORMGRAD_MATH_950_QUERIES(Fma, true)

#undef NORMGRAD_MATH_950_QUERIES

}  // namespace AscendC
