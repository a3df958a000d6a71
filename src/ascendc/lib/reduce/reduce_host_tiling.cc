// reduce_host_tiling.cc — the scratch-size queries of the Reduce family
// (normgrad_ascendc/lib/reduce/reduce_host_tiling.h states the rule and the
// error policy): one checked body for the pattern APIs, one for Sum and
// Mean, ReduceXorSum's, and Mean's factor query. The host has no profile, so
// a type is taken when any profile takes it (the kernel checks its own).
#include "normgrad_ascendc/lib/reduce/reduce_host_tiling.h"

#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/reduce/reduce_rules.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::kU32Max;
using host_tiling::Report;

constexpr char kZero[] = "maxValue and minValue are 0";

// The ReduceElemType of a ge::DataType (kOther for a type the family lacks).
ReduceElemType ElemOf(ge::DataType t) {
  switch (t) {
    case ge::DT_INT8:
      return ReduceElemType::kInt8;
    case ge::DT_UINT8:
      return ReduceElemType::kUint8;
    case ge::DT_INT16:
      return ReduceElemType::kInt16;
    case ge::DT_UINT16:
      return ReduceElemType::kUint16;
    case ge::DT_FLOAT16:
      return ReduceElemType::kHalf;
    case ge::DT_BF16:
      return ReduceElemType::kBfloat16;
    case ge::DT_INT32:
      return ReduceElemType::kInt32;
    case ge::DT_UINT32:
      return ReduceElemType::kUint32;
    case ge::DT_FLOAT:
      return ReduceElemType::kFloat;
    case ge::DT_INT64:
      return ReduceElemType::kInt64;
    case ge::DT_UINT64:
      return ReduceElemType::kUint64;
    default:
      break;
  }
  return ReduceElemType::kOther;
}

void SetBoth(uint64_t bytes, uint32_t& max_value, uint32_t& min_value,
             const char* fn) {
  if (bytes > kU32Max) {
    Report(fn,
           "the scratch of " + std::to_string(bytes) +
               " bytes does not fit 32 bits",
           kZero);
    return;
  }
  max_value = static_cast<uint32_t>(bytes);
  min_value = max_value;
}

void PatternSizes(ReduceApi api, const ge::Shape& shape, ge::DataType type,
                  AscendC::ReducePattern pattern, bool inner_pad,
                  uint32_t& max_value, uint32_t& min_value) {
  const ReduceRule& r = RuleOf(api);
  const std::string fn_text = std::string("Get") + r.name + "MaxMinTmpSize";
  const char* fn = fn_text.c_str();
  max_value = 0;
  min_value = 0;
  const ReduceElemType e = ElemOf(type);
  const ReduceTypes any_profile = r.a2 | r.p310 | r.p950;
  if (e == ReduceElemType::kOther || (any_profile & ReduceTypeBit(e)) == 0) {
    Report(fn,
           "dataType " + std::to_string(static_cast<int32_t>(type)) +
               " is not supported: " + r.name + " takes " +
               TypesText(any_profile) +
               " (Ascend 950; Atlas A2/A3: " + TypesText(r.a2) + ")",
           kZero);
    return;
  }
  if (pattern != AscendC::ReducePattern::AR &&
      pattern != AscendC::ReducePattern::RA) {
    Report(fn,
           "pattern " + std::to_string(static_cast<uint32_t>(pattern)) +
               " is not supported: it must be ReducePattern::AR (0) or "
               "ReducePattern::RA (1)",
           kZero);
    return;
  }
  if (!inner_pad && r.inner_pad == InnerPad::kTrueOnly) {
    Report(fn,
           std::string("isSrcInnerPad is false: ") + r.name +
               " supports true only (rows padded to whole 32-byte blocks)",
           kZero);
    return;
  }
  uint64_t dims[2] = {};
  if (!host_tiling::CheckDims(fn, "srcShape " + host_tiling::ShapeText(shape),
                              shape, {"rows", "cols"}, kZero, dims)) {
    return;
  }
  const uint32_t work =
      ReduceWorkBytes(ElemBytes(e), e == ReduceElemType::kHalf ||
                                        e == ReduceElemType::kBfloat16);
  SetBoth(ReducePatternTmpBytes(dims[0], dims[1], work,
                                pattern == AscendC::ReducePattern::RA),
          max_value, min_value, fn);
}

// Sum and Mean: n >= 1; the type size (`type_arg`) 2 or 4; accTypeSize
// srcTypeSize or 4.
void RowSizes(const char* fn, const char* type_arg, uint32_t n,
              uint32_t type_size, uint32_t acc_type_size, uint32_t& max_size,
              uint32_t& min_size) {
  max_size = 0;
  min_size = 0;
  constexpr char kZeroSizes[] = "maxSize and minSize are 0";
  if (!host_tiling::CheckTypeSize(fn, type_arg, type_size, "half",
                                  kZeroSizes)) {
    return;
  }
  if (acc_type_size != type_size && acc_type_size != 4) {
    Report(fn,
           "accTypeSize " + std::to_string(acc_type_size) +
               " is not supported: it must be srcTypeSize (" +
               std::to_string(type_size) + ") or 4 (float)",
           kZeroSizes);
    return;
  }
  if (n == 0) {
    Report(fn, "n is 0: a row has at least one element", kZeroSizes);
    return;
  }
  max_size = static_cast<uint32_t>(
      ReduceRowBytes(n, ReduceWorkBytes(type_size, type_size == 2)));
  min_size = max_size;
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::PatternSizes;
using normgrad_ascendc::ReduceApi;

#define NORMGRAD_REDUCE_PATTERN_QUERY(Api)                                     \
  void Get##Api##MaxMinTmpSize(const ge::Shape& srcShape,                      \
                               const ge::DataType dataType,                    \
                               ReducePattern pattern, bool isSrcInnerPad,      \
                               bool, uint32_t& maxValue, uint32_t& minValue) { \
    PatternSizes(ReduceApi::k##Api, srcShape, dataType, pattern,               \
                 isSrcInnerPad, maxValue, minValue);                           \
  }
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceSum)
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceMax)
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceMin)
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceMean)
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceProd)
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceAny)
NORMGRAD_REDUCE_PATTERN_QUERY(ReduceAll)
#undef NORMGRAD_REDUCE_PATTERN_QUERY

void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape,
                                  const uint32_t typeSize, const bool,
                                  uint32_t& maxValue, uint32_t& minValue) {
  constexpr char kFn[] = "GetReduceXorSumMaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  if (typeSize != 2) {
    normgrad_ascendc::host_tiling::Report(
        kFn,
        "typeSize " + std::to_string(typeSize) +
            " is not supported: it must be 2 (int16_t)",
        normgrad_ascendc::kZero);
    return;
  }
  uint64_t n = 0;
  if (!normgrad_ascendc::host_tiling::CountElements(
          kFn, srcShape, "calCount", normgrad_ascendc::kZero, &n)) {
    return;
  }
  normgrad_ascendc::SetBoth(normgrad_ascendc::ReduceRowBytes(n, 2), maxValue,
                            minValue, kFn);
}

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool,
                         uint32_t& maxSize, uint32_t& minSize) {
  normgrad_ascendc::RowSizes("GetSumMaxMinTmpSize", "typeSize", n, typeSize,
                             typeSize, maxSize, minSize);
}

void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize,
                          const uint32_t accTypeSize, const bool,
                          uint32_t& maxSize, uint32_t& minSize) {
  normgrad_ascendc::RowSizes("GetMeanMaxMinTmpSize", "srcTypeSize", n,
                             srcTypeSize, accTypeSize, maxSize, minSize);
}

void GetMeanTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer) {
  maxLiveNodeCount = 0;
  extraBuffer = 0;
  if (!normgrad_ascendc::host_tiling::CheckTypeSize(
          "GetMeanTmpBufferFactorSize", "typeSize", typeSize, "half",
          "maxLiveNodeCount and extraBuffer are 0")) {
    return;
  }
  maxLiveNodeCount = 4 / typeSize;
}

}  // namespace AscendC
