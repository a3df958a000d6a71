// lib/activation/geglu.h — the kernel-side GeGLU API of Ascend C (the
// contract: docs/activation.md): dstTensor[i] = x0 · Gelu(x1), x0 =
// srcTensor0[i], x1 = srcTensor1[i], Gelu the tanh approximation the page
// writes out: x1 / (1 + e^(a·(x1³ + b·x1))), a = -0.0713548162726,
// b = 22.363860002236; for i < calCount or every element of srcTensor0.
// T = half or float on every profile; the overloads: sharedTmpBuffer or the
// framework scratch, each with calCount or over the whole srcTensor0. Every
// check of docs/activation.md runs on every call; a violation is a
// KernelError naming the API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

NORMGRAD_ACTIVATION_GLU_COUNT_FORMS(GeGLU, kIsHalfOrFloat,
                                    "GeGLU: T must be half or float")
NORMGRAD_ACTIVATION_GLU_WHOLE_FORMS(GeGLU, kIsHalfOrFloat,
                                    "GeGLU: T must be half or float")

}  // namespace AscendC
