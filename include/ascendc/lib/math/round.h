// lib/math/round.h — the kernel-side Round API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = srcTensor[i] rounded to the nearest
// integer, a tie to the even one, for i < calCount.
// T = half or float on every profile that has it; the
// overloads: sharedTmpBuffer or the framework scratch, with calCount. Every
// check of docs/math.md runs on every call; a violation is a KernelError naming
// the API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Round, kIsMathHalfOrFloat,
                                "Round: T must be half or float")

}  // namespace AscendC
