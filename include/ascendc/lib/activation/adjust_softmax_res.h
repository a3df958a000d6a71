// lib/activation/adjust_softmax_res.h — the kernel-side AdjustSoftMaxRes API
// of Ascend C (the contract: docs/softmax.md, "AdjustSoftMaxRes"): a
// softmax result's rows set to `to` where the row's max is `from`. For each
// row r of softMaxRes [srcM, srcK]: when the bits of maxTensor's value for
// row r (the first element of its 32-byte block, or element r with
// stepSizeMode != 0) equal `from` (a float's 32 bits; a half's 16 bits),
// every element of the row becomes `to`. Returns whether any row matched.
// T1 (softMaxRes) and T2 (maxTensor) are half or float on every profile.
// softMaxRes must not share memory with maxTensor; isDataFormatNZ = true is
// refused. A violation is a KernelError naming the argument, the value and
// the rule.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One AdjustSoftMaxRes call with its element types erased.
struct AdjustSoftMaxResArgs {
  bool res_half;
  bool max_half;
  bool format_nz;
  uint8_t step_size_mode;
  TensorView res;
  TensorView max;
  uint32_t from;
  float to;  ///< T1's value, widened
  AscendC::SoftMaxShapeInfo shape;
};

/// Checks and runs one call (adjust_softmax_res.cc).
bool RunAdjustSoftMaxRes(const AdjustSoftMaxResArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T1, typename T2, bool isDataFormatNZ = false,
          uint8_t stepSizeMode = 0>
__aicore__ inline bool AdjustSoftMaxRes(
    const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
    const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T1> &&
                    normgrad_ascendc::kIsHalfOrFloat<T2>,
                "AdjustSoftMaxRes: T1 and T2 must be half or float");
  return normgrad_ascendc::RunAdjustSoftMaxRes(
      {std::is_same_v<T1, half>, std::is_same_v<T2, half>, isDataFormatNZ,
       stepSizeMode, softMaxRes.view(), maxTensor.view(), from,
       static_cast<float>(to), softmaxShapeInfo});
}

}  // namespace AscendC
