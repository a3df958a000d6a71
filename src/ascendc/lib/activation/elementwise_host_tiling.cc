// elementwise_host_tiling.cc — the scratch-size queries of the elementwise
// activation APIs (normgrad_ascendc/lib/activation/elementwise_host_tiling.h
// states the rule and the error policy): one checked body for the MaxMin
// queries and one for the factor queries, each query naming itself and how
// many inputs its API has.
#include "normgrad_ascendc/lib/activation/elementwise_host_tiling.h"

#include <string>

#include "ascendc/lib/common/tiling_checks.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::kU32Max;
using host_tiling::Report;

constexpr uint32_t kOneInput = 1;
constexpr uint32_t kGluInputs = 2;

bool CheckTypeSize(const char* fn, uint32_t type_size,
                   const char* consequence) {
  if (type_size == 2 || type_size == 4) return true;
  Report(fn,
         "typeSize " + std::to_string(type_size) +
             " is not supported: it must be 2 (half, bfloat16_t) or 4 "
             "(float)",
         consequence);
  return false;
}

// max and min of one API's scratch, or 0 and 0 after a message.
void MaxMin(const char* fn, uint32_t inputs, const ge::Shape& shape,
            uint32_t type_size, uint32_t& max_value, uint32_t& min_value) {
  constexpr char kZero[] = "maxValue and minValue are 0";
  max_value = 0;
  min_value = 0;
  uint64_t n = 0;
  if (!CheckTypeSize(fn, type_size, kZero) ||
      !host_tiling::CountElements(fn, shape, "the count", kZero, &n)) {
    return;
  }
  const uint64_t max_bytes = ActivationMaxTmpBytes(type_size, inputs, n);
  max_value = max_bytes > kU32Max ? static_cast<uint32_t>(kU32Max)
                                  : static_cast<uint32_t>(max_bytes);
  min_value = ActivationMinTmpBytes(type_size, inputs);
}

void Factor(const char* fn, uint32_t inputs, uint32_t type_size,
            uint32_t& max_live_node_count, uint32_t& extra_buf) {
  max_live_node_count = 0;
  extra_buf = 0;
  if (!CheckTypeSize(fn, type_size, "maxLiveNodeCount and extraBuf are 0")) {
    return;
  }
  max_live_node_count = ActivationBytesPerElement(inputs) / type_size;
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::Factor;
using normgrad_ascendc::kGluInputs;
using normgrad_ascendc::kOneInput;
using normgrad_ascendc::MaxMin;

void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetSigmoidMaxMinTmpSize", kOneInput, srcShape, typeSize, maxValue,
         minValue);
}

void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                    const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetSiluTmpSize", kOneInput, srcShape, typeSize, maxValue, minValue);
}

void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                     const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetSwishTmpSize", kOneInput, srcShape, typeSize, maxValue, minValue);
}

uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t max_value = 0;
  uint32_t min_value = 0;
  MaxMin("GetGeluMaxTmpSize", kOneInput, srcShape, typeSize, max_value,
         min_value);
  return max_value;
}

uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t max_value = 0;
  uint32_t min_value = 0;
  MaxMin("GetGeluMinTmpSize", kOneInput, srcShape, typeSize, max_value,
         min_value);
  return min_value;
}

void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                          uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetGeluMaxMinTmpSize", kOneInput, srcShape, typeSize, maxValue,
         minValue);
}

void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            uint32_t& maxValue, uint32_t& minValue,
                            const bool) {
  MaxMin("GetSwiGLUMaxMinTmpSize", kGluInputs, srcShape, typeSize, maxValue,
         minValue);
}

void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize,
                                  uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer) {
  Factor("GetSwiGLUTmpBufferFactorSize", kGluInputs, typeSize, maxLiveNodeCount,
         extraBuffer);
}

void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetGeGLUMaxMinTmpSize", kGluInputs, srcShape, typeSize, maxValue,
         minValue);
}

void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  Factor("GetGeGLUTmpBufferFactorSize", kGluInputs, typeSize, maxLiveNodeCount,
         extraBuf);
}

void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool, uint32_t& maxValue, uint32_t& minValue) {
  MaxMin("GetReGluMaxMinTmpSize", kGluInputs, srcShape, typeSize, maxValue,
         minValue);
}

}  // namespace AscendC
