// lib/math/tanh.h — the kernel-side Tanh API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = the hyperbolic tangent of srcTensor[i],
// computed in float within the bound of docs/numerics.md ("Math:
// transcendental"). T = half or float on every profile; the overloads:
// sharedTmpBuffer or the framework scratch, each with calCount or over the
// whole srcTensor. TanhConfig picks the device's algorithm: an algo other than
// the default is taken on Ascend 950 only (elsewhere a KernelError), and
// every algo gives the same, bounded results here (docs/decisions.md).
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"
#include "normgrad_ascendc/lib/math/math_configs.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_CONFIG_FORMS(Tanh, TanhConfig, DEFAULT_TANH_CONFIG,
                                 kIsMathHalfOrFloat,
                                 "Tanh: T must be half or float")

}  // namespace AscendC
