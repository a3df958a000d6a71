// lib/reduce/reduce_mean.h — the kernel-side ReduceMean API of Ascend C (the
// contract: docs/reduce.md): dstTensor gets the mean of each row (AR) or column
// (RA): the pairwise sum divided by the count. template <T, pattern,
// isReuseSource = false>; the overloads: sharedTmpBuffer or the framework
// scratch, with srcShape and srcInnerPad. The types per profile and every check
// of docs/reduce.md run on every call; a violation is a KernelError naming the
// API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/reduce/reduce_call.h"

namespace AscendC {

NORMGRAD_REDUCE_PATTERN_FORMS(ReduceMean)

}  // namespace AscendC
