// lib/activation/gelu.h — the kernel-side Gelu, FasterGelu and FasterGeluV2
// APIs of Ascend C (the contract: docs/activation.md), dstLocal[i] from
// x = srcLocal[i] for i < dataSize:
//   Gelu:         x / (1 + e^(a·(x³ + b·x))), the tanh approximation,
//                 a = -0.0713548162726, b = 22.363860002236;
//   FasterGelu:   x / (1 + e^(-1.702·x));
//   FasterGeluV2: x·(1/2 + sgn(x)·(1/2 + p·(min(c·|x|, -q) + q)²)),
//                 p = -0.1444, q = -1.769, c = 1/√2.
// T = half or float on every profile; the overloads: the framework scratch
// or sharedTmpBuffer, with dataSize; dstLocal may be srcLocal itself. Every
// check of docs/activation.md runs on every call; a violation is a
// KernelError naming the API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

NORMGRAD_ACTIVATION_GELU_FORMS(Gelu)
NORMGRAD_ACTIVATION_GELU_FORMS(FasterGelu)
NORMGRAD_ACTIVATION_GELU_FORMS(FasterGeluV2)

}  // namespace AscendC
