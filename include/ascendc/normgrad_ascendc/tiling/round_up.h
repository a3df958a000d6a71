// normgrad_ascendc/tiling/round_up.h — RoundUp, the rounding up to a multiple
// that tiling sizes are made of: the tiling-data layout (tiling_data.h), the
// advanced APIs' host tilings and scratch sizes, and the kernel checks that
// derive the same numbers. Usable in constant expressions.
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

/// n rounded up to a multiple of `multiple` (which must not be 0).
constexpr uint64_t RoundUp(uint64_t n, uint64_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace normgrad_ascendc
