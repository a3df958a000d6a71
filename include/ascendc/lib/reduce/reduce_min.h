// lib/reduce/reduce_min.h — the kernel-side ReduceMin API of Ascend C (the
// contract: docs/reduce.md): dstTensor gets the smallest element of each row
// (AR) or column (RA); a NaN wins. template <T, pattern, isReuseSource =
// false>; the overloads: sharedTmpBuffer or the framework scratch, with
// srcShape and srcInnerPad. The types per profile and every check of
// docs/reduce.md run on every call; a violation is a KernelError naming the
// API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/reduce/reduce_call.h"

namespace AscendC {

NORMGRAD_REDUCE_PATTERN_FORMS(ReduceMin)

}  // namespace AscendC
