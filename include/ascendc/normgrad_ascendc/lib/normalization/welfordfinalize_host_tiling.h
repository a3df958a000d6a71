// normgrad_ascendc/lib/normalization/welfordfinalize_host_tiling.h — the
// host-side tiling API of WelfordFinalize (docs/welfordfinalize.md, "Host
// tiling"): the scratch-size query AscendC::GetWelfordFinalizeMaxMinTmpSize.
// WelfordFinalize has no tiling struct: each call takes its
// WelfordFinalizePara.
//
// Error policy: the query returns void, as the vendor's does. On bad input it
// prints one message on stderr naming the function, the argument, the value
// and the rule, and returns 0 and 0. Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/normalization/welfordfinalize_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"

namespace AscendC {

/// Scratch sizes in bytes for WelfordFinalize on srcShape = {abLength} with
/// float inputs (typeSize 4): maxValue = 4·abLength, minValue =
/// 4·min(abLength, 64). isReuseSource is reserved and changes nothing. Bad
/// input — typeSize not 4, rank not 1, abLength outside [1, 2^32-1] or not a
/// multiple of 8 — prints a message on stderr and gives 0 and 0.
void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape,
                                     uint32_t typeSize, bool isReuseSource,
                                     uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
