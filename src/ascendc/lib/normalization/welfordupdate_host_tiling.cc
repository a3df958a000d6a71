// welfordupdate_host_tiling.cc — the host tiling API of WelfordUpdate: the
// scratch-size range (the rule in welfordupdate_tiling.h, shared with the
// kernel's check), with normgrad's error policy (one message on stderr, 0 and
// 0, nothing thrown).
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/welfordupdate_host_tiling.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace AscendC {

void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape,
                                   uint32_t typeSizeT, uint32_t typeSizeU,
                                   bool isReuseSource,
                                   bool /*isInplace: no effect on the sizes*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  using normgrad_ascendc::host_tiling::CheckDims;
  using normgrad_ascendc::host_tiling::CheckTypeSize;
  using normgrad_ascendc::host_tiling::kU32Max;
  using normgrad_ascendc::host_tiling::Report;
  constexpr char kFn[] = "GetWelfordUpdateMaxMinTmpSize";
  constexpr char kZero[] = "maxValue and minValue are 0";
  maxValue = 0;
  minValue = 0;
  if (!CheckTypeSize(kFn, "typeSizeT", typeSizeT, "half, bfloat16_t", kZero))
    return;
  if (typeSizeU != 4) {
    Report(kFn,
           "typeSizeU " + std::to_string(typeSizeU) +
               " is not supported: the mean and variance are float (4)",
           kZero);
    return;
  }
  const std::string text =
      "srcShape " + normgrad_ascendc::host_tiling::ShapeText(srcShape);
  uint64_t dims[2];
  if (!CheckDims(kFn, text, srcShape, {"rnLength", "abLength"}, kZero, dims))
    return;
  const uint64_t rn = dims[0];
  const uint64_t ab = dims[1];
  const uint32_t multiple = 32 / typeSizeT;
  if (ab % multiple != 0) {
    Report(kFn,
           text + " has abLength = " + std::to_string(ab) +
               ": it must be a multiple of 32 / typeSizeT = " +
               std::to_string(multiple),
           kZero);
    return;
  }
  const bool reuse = isReuseSource && normgrad_ascendc::CurrentProfile() !=
                                          normgrad_ascendc::Profile::k310P;
  const uint64_t floats =
      normgrad_ascendc::WelfordUpdateScratchFloats(typeSizeT, reuse);
  const uint64_t elements = rn * ab;  // both < 2^32: fits in 64 bits
  const uint64_t max_bytes =
      elements > kU32Max ? kU32Max : 4 * floats * elements;  // saturated below
  const uint64_t min_bytes = normgrad_ascendc::WelfordUpdateMinTmpBytes(
      static_cast<uint32_t>(ab), typeSizeT, reuse);
  maxValue = max_bytes > kU32Max ? static_cast<uint32_t>(kU32Max)
                                 : static_cast<uint32_t>(max_bytes);
  minValue = static_cast<uint32_t>(min_bytes);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kWelfordUpdateParamFieldCount> WelfordUpdateParamFields(
    const AscendC::WelfordUpdateParam& tiling) {
  return {{NORMGRAD_WELFORDUPDATE_PARAM_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc
