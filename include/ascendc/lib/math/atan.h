// lib/math/atan.h — the kernel-side Atan API of Ascend C (the contract:
// docs/math.md): dstTensor[i] = the arctangent of srcTensor[i],
// computed in float within the bound of docs/numerics.md ("Math:
// transcendental"). T = half or float on every profile; the overloads:
// sharedTmpBuffer or the framework scratch, each with calCount or over the
// whole srcTensor. AtanConfig picks the device's algorithm: an algo other than
// the default is taken on Ascend 950 only (elsewhere a KernelError), and
// every algo gives the same, bounded results here (docs/decisions.md).
// POLYNOMIAL_APPROXIMATION takes float only.
#pragma once

#include "normgrad_ascendc/lib/math/elementwise_call.h"
#include "normgrad_ascendc/lib/math/math_configs.h"

namespace AscendC {

NORMGRAD_MATH_UNARY_CONFIG_FORMS(Atan, AtanConfig, defaultAtanConfig,
                                 kIsMathHalfOrFloat,
                                 "Atan: T must be half or float")

}  // namespace AscendC
