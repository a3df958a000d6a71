// lib/activation/reglu.h — the kernel-side ReGlu API of Ascend C (the
// contract: docs/activation.md): dstTensor[i] = x0 · max(x1, 0), x0 =
// srcTensor0[i], x1 = srcTensor1[i], for i < calCount. T = half or float on
// every profile, and bfloat16_t on Atlas A2/A3 and Ascend 950 (a call with
// bfloat16_t on Atlas inference AI Core is a KernelError naming the
// profile); the overloads: sharedTmpBuffer or the framework scratch, with
// calCount. Every check of docs/activation.md runs on every call; a
// violation is a KernelError naming the API, the argument, the value and the
// rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

NORMGRAD_ACTIVATION_GLU_COUNT_FORMS(
    ReGlu, kIsHalfFloatOrBfloat16, "ReGlu: T must be half, float or bfloat16_t")

}  // namespace AscendC
