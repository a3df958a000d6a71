// lib/math/cos.h — the kernel-side Cos API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = the cosine; inputs in [−65504, 65504] (any with
// RADIAN_REDUCTION on Ascend 950) of srcTensor[i], computed in float within the
// bound of docs/numerics.md ("Math: transcendental"). T = half or float on
// every profile; the overloads: sharedTmpBuffer or the framework scratch, each
// with calCount or over the whole srcTensor. CosConfig picks the device's
// algorithm: an algo other than the default is taken on Ascend 950 only
// (elsewhere a KernelError), and every algo gives the same, bounded results
// here (docs/decisions.md).
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"
#include "normgrad_ascendc/lib/math/math_configs.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_CONFIG_FORMS(Cos, CosConfig, defaultCosConfig,
                                 kIsMathHalfOrFloat,
                                 "Cos: T must be half or float")

}  // namespace AscendC
