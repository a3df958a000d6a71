// normalize_host_tiling.cc — the host API of Normalize: its scratch-size range
// (docs/normalize.md, "Host API"), with normgrad's error policy (one message
// on stderr, both sizes 0, nothing thrown).
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/normalize_host_tiling.h"

namespace AscendC {

void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape,
                               const uint32_t typeSizeU,
                               const uint32_t typeSizeT,
                               const bool /*isReuseSource*/,
                               const bool isComputeRstd,
                               const bool isOnlyOutput, uint32_t& maxValue,
                               uint32_t& minValue) {
  using normgrad_ascendc::host_tiling::CheckDimRanges;
  using normgrad_ascendc::host_tiling::CheckTypeSize;
  using normgrad_ascendc::host_tiling::kU32Max;
  using normgrad_ascendc::host_tiling::Report;
  using normgrad_ascendc::host_tiling::ShapeText;
  static constexpr char kFn[] = "GetNormalizeMaxMinTmpSize";
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  if (!CheckTypeSize(kFn, "typeSizeT", typeSizeT, "half, bfloat16_t",
                     kZeroed) ||
      !CheckTypeSize(kFn, "typeSizeU", typeSizeU, "half, bfloat16_t",
                     kZeroed)) {
    return;
  }
  if (typeSizeU < typeSizeT) {
    Report(kFn,
           "typeSizeU " + std::to_string(typeSizeU) +
               " is less than typeSizeT " + std::to_string(typeSizeT) +
               ": gamma and beta must be at least as precise as inputX",
           kZeroed);
    return;
  }
  if (!isComputeRstd || isOnlyOutput) {
    Report(kFn,
           std::string(!isComputeRstd ? "isComputeRstd is false"
                                      : "isOnlyOutput is true") +
               ": only isComputeRstd = true and isOnlyOutput = false are "
               "supported",
           kZeroed);
    return;
  }
  const std::string text = "srcShape " + ShapeText(srcShape);
  if (srcShape.GetDimNum() != 2) {
    Report(kFn,
           text + " has rank " + std::to_string(srcShape.GetDimNum()) +
               ": it must be [A, R]",
           kZeroed);
    return;
  }
  uint64_t dims[2];
  if (!CheckDimRanges(kFn, text, srcShape, {"A", "R"}, kZeroed, dims)) return;
  const uint64_t a = dims[0];
  const uint64_t r = dims[1];
  if (a * r > kU32Max) {
    Report(kFn, text + " has more than 4294967295 elements (A*R)", kZeroed);
    return;
  }
  const uint64_t max = 4 * normgrad_ascendc::NormalizeScratchFloats(a, r);
  const uint64_t min = 4 * normgrad_ascendc::NormalizeScratchFloats(1, r);
  if (min > kU32Max) {
    Report(kFn,
           text + " needs at least " + std::to_string(min) +
               " bytes of scratch: no 32-bit scratch size (at most 4294967295) "
               "is enough",
           kZeroed);
    return;
  }
  maxValue = static_cast<uint32_t>(max > kU32Max ? kU32Max : max);
  minValue = static_cast<uint32_t>(min);
}

}  // namespace AscendC
