// normgrad_ascendc/lib/normalization/normalize_host_tiling.h — the host-side
// API of Normalize: the scratch-size query AscendC::GetNormalizeMaxMinTmpSize
// (Normalize has no tiling struct; the kernel takes a NormalizePara).
//
// Error policy: the function returns void, as documented. On bad input it
// prints one message on stderr naming the function, the argument, the value
// and the rule, and sets maxValue and minValue to 0. Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/round_up.h"
#include "normgrad_ascendc/tiling/shape.h"

namespace AscendC {

/// Scratch sizes in bytes for Normalize on srcShape = {A, R} (R unpadded),
/// gamma/beta of typeSizeU bytes and inputX of typeSizeT bytes. A chunk of k
/// rows takes k·roundup(R, 8) + roundup(k, 8) floats:
///   minValue = 4·(roundup(R, 8) + 8)            (one row)
///   maxValue = 4·(A·roundup(R, 8) + roundup(A, 8))  (every row; saturates)
/// Bad input — typeSizeT or typeSizeU not 2 or 4, typeSizeU < typeSizeT,
/// rank not 2, a dimension outside [1, 2^32-1], A·R beyond 32 bits,
/// isComputeRstd false or isOnlyOutput true (both unsupported) — prints a
/// message on stderr and sets both to 0. isReuseSource is reserved and
/// changes nothing.
void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape,
                               const uint32_t typeSizeU,
                               const uint32_t typeSizeT,
                               const bool isReuseSource,
                               const bool isComputeRstd,
                               const bool isOnlyOutput, uint32_t& maxValue,
                               uint32_t& minValue);

}  // namespace AscendC

namespace normgrad_ascendc {

/// Floats of scratch a chunk of `rows` rows of r elements takes:
/// rows·roundup(r, 8) + roundup(rows, 8). The host sizes and the kernel's
/// scratch check both use it.
inline uint64_t NormalizeScratchFloats(uint64_t rows, uint64_t r) {
  return rows * RoundUp(r, 8) + RoundUp(rows, 8);
}

}  // namespace normgrad_ascendc
