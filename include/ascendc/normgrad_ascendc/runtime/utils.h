// normgrad_ascendc/runtime/utils.h — scalar helpers kernels use beside the
// documented APIs (docs/program-surface.md, "Utilities"): AscendC::DivCeil
// and the static helpers of AscendC::AscendCUtils that the documentation's
// examples call (SetOverflow, SetMask).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/ctrl_spr.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace AscendC {

/// a / b rounded up, for non-negative a and positive b, in the type of
/// a + b; 0 when b is 0 (as CeilDivision). Usable in constant expressions.
template <typename T, typename U>
constexpr auto DivCeil(T a, U b) {
  static_assert(std::is_integral_v<T> && std::is_integral_v<U>,
                "DivCeil: both operands must be integers");
  using R = decltype(a + b);
  return b == 0 ? R{0} : static_cast<R>((a + b - 1) / b);
}

/// Helpers of the core's state that kernel examples call.
struct AscendCUtils {
  /// Sets CTRL[48] to (ctrlValue != 0): 0 turns the FLOAT saturation mode
  /// on (ctrl_spr.h), as the Mmad and Fixpipe pages' examples do with
  /// SetOverflow(0); no effect on the Atlas inference series.
  static void SetOverflow(uint64_t ctrlValue) {
    normgrad_ascendc::SetOverflowImpl(ctrlValue);
  }
  /// With isSetMask, sets the mask register as SetVectorMask<T>(maskHigh,
  /// maskLow) does; without, leaves it.
  template <typename T, bool isSetMask = true>
  static void SetMask(const uint64_t maskHigh, const uint64_t maskLow) {
    if constexpr (isSetMask) SetVectorMask<T>(maskHigh, maskLow);
  }
};

}  // namespace AscendC
