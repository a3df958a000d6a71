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
  if (!CheckMathTypeSize(fn, type_size, takes_int64, kZero)) return false;
  const std::string text = "srcShape " + host_tiling::ShapeText(shape);
  if (shape.GetDimNum() == 0) {
    Report(fn, text + " has no dimension: it must have at least one", kZero);
    return false;
  }
  uint64_t n = 1;
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    const int64_t d = shape.GetDim(i);
    if (d < 1 || static_cast<uint64_t>(d) > kU32Max ||
        n * static_cast<uint64_t>(d) > kU32Max) {
      Report(fn,
             text + " has dimension " + std::to_string(i) + " = " +
                 std::to_string(d) +
                 ": every dimension must be at least 1 and the elements at "
                 "most 4294967295 (calCount is 32 bits)",
             kZero);
      return false;
    }
    n *= static_cast<uint64_t>(d);
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
