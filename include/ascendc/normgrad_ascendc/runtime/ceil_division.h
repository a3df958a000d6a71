// normgrad_ascendc/runtime/ceil_division.h — AscendC::CeilDivision, the
// rounding-up division of the documentation's scalar helpers
// (docs/program-surface.md, "Host helpers"), usable in kernels, in host code
// and in constant expressions.
#pragma once

#include <cstdint>

namespace AscendC {

/// num1 / num2 rounded up, for positive num1 and num2; 0 when num2 is 0, as
/// documented.
constexpr int32_t CeilDivision(int32_t num1, int32_t num2) {
  return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

}  // namespace AscendC
