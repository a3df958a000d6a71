// lib/math/floor.h — the kernel-side Floor API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = the largest integer not above
// srcTensor[i] (rounding toward -inf), for i < calCount.
// T = half or float on every profile that has it; the
// overloads: sharedTmpBuffer or the framework scratch, with calCount. Every
// check of docs/math.md runs on every call; a violation is a KernelError naming
// the API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Floor, kIsMathHalfOrFloat,
                                "Floor: T must be half or float")

}  // namespace AscendC
