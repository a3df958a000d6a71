// lib/activation/sigmoid.h — the kernel-side Sigmoid API of Ascend C (the
// contract: docs/activation.md): dstTensor[i] = 1 / (1 + e^-srcTensor[i]),
// for i < calCount or every element of srcTensor. T = half or float on
// every profile; the overloads: sharedTmpBuffer or the framework scratch,
// each with calCount or over the whole srcTensor. Every check of
// docs/activation.md runs on every call; a violation is a KernelError
// naming the API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

NORMGRAD_ACTIVATION_UNARY_FORMS(Sigmoid)

}  // namespace AscendC
