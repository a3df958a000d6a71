// welfordfinalize_host_tiling.cc — the host tiling API of WelfordFinalize: the
// scratch-size range (the rule in welfordfinalize_tiling.h, shared with the
// kernel's check), with normgrad's error policy (one message on stderr, 0 and
// 0, nothing thrown).
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/welfordfinalize_host_tiling.h"

namespace AscendC {

void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape,
                                     uint32_t typeSize,
                                     bool /*isReuseSource: reserved*/,
                                     uint32_t& maxValue, uint32_t& minValue) {
  using normgrad_ascendc::host_tiling::CheckRank;
  using normgrad_ascendc::host_tiling::kU32Max;
  using normgrad_ascendc::host_tiling::Report;
  constexpr char kFn[] = "GetWelfordFinalizeMaxMinTmpSize";
  constexpr char kZero[] = "maxValue and minValue are 0";
  maxValue = 0;
  minValue = 0;
  if (typeSize != 4) {
    Report(kFn,
           "typeSize " + std::to_string(typeSize) +
               " is not supported: the means and variances are float (4)",
           kZero);
    return;
  }
  const std::string text =
      "srcShape " + normgrad_ascendc::host_tiling::ShapeText(srcShape);
  if (!CheckRank(kFn, text, srcShape, {"abLength"}, kZero)) return;
  const int64_t ab = srcShape.GetDim(0);
  if (ab < 1 || static_cast<uint64_t>(ab) > kU32Max || ab % 8 != 0) {
    Report(
        kFn,
        text + " has abLength = " + std::to_string(ab) +
            ": it must be a multiple of 32 / typeSize = 8 in [8, 4294967288]",
        kZero);
    return;
  }
  const uint64_t max_bytes = 4 * static_cast<uint64_t>(ab);
  maxValue = max_bytes > kU32Max ? static_cast<uint32_t>(kU32Max)
                                 : static_cast<uint32_t>(max_bytes);
  minValue = static_cast<uint32_t>(
      normgrad_ascendc::WelfordFinalizeMinTmpBytes(static_cast<uint32_t>(ab)));
}

}  // namespace AscendC
