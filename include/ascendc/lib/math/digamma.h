// lib/math/digamma.h — the kernel-side Digamma API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = ψ(x), the derivative of ln Γ(x) of
// srcTensor[i], computed in float within the bound of docs/numerics.md ("Math:
// transcendental"). T = half or float on every profile; the overloads:
// sharedTmpBuffer or the framework scratch, with calCount. Every check of
// docs/math.md runs on every call; a violation is a KernelError naming the API,
// the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_COUNT_FORMS(Digamma, kIsMathHalfOrFloat,
                                "Digamma: T must be half or float")

}  // namespace AscendC
