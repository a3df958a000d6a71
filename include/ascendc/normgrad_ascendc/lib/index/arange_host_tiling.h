// normgrad_ascendc/lib/index/arange_host_tiling.h — Arange's scratch-size
// query (docs/filter.md, "Arange"): Arange needs no scratch, so both sizes
// are 0, under the current name and the deprecated one.
#pragma once

#include <cstdint>

namespace AscendC {

/// Sets maxValue and minValue to 0: Arange uses no scratch.
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
}

/// The deprecated name of GetArangeMaxMinTmpSize.
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue,
                                             uint32_t& minValue) {
  GetArangeMaxMinTmpSize(maxValue, minValue);
}

}  // namespace AscendC
