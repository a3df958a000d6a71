// lib/normalization/groupnorm.h — the kernel-side GroupNorm API of Ascend C
// (the contract: docs/groupnorm.md): inputX [N, C, H, W] splits its C
// channels into G = tiling.g groups of D = C / G; per sample n and group k,
// over the D·H·W elements of channels [k·D, (k+1)·D):
//
//   outputMean[n, k]     = their mean
//   outputVariance[n, k] = their population variance
//   output[n, c, h, w]   = (x − mean) / sqrt(var + epsilon) · gamma[c]
//                          + beta[c]
//
// for T = half or float, on the Atlas A2/A3 and Ascend 950 profiles (the
// Atlas inference series AI Core has no GroupNorm: a KernelError). Computed
// in float in the order of docs/groupnorm.md, "Numeric order", in the chunks
// of the tiling (GetGroupNormNDTilingInfo) with its scratch layout; half is
// widened on the way in and narrowed once (round half to even, saturating on
// the 950 profile) on the way out. Float with isReuseSource = true uses
// inputX[0, oneTmpSize) as a chunk buffer and overwrites it; half ignores
// isReuseSource (a warning, once per process). The tiling is only read.
// Every check runs on every call; a violation is a KernelError
// (normgrad_ascendc/runtime/core.h) whose message names the argument, the value
// and the rule. A call allocates nothing, reads no environment, starts no
// thread.
#pragma once

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/groupnorm_tiling.h"
#include "normgrad_ascendc/lib/normalization/norm_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One GroupNorm call with its element type erased.
using GroupNormArgs = NormArgs<AscendC::GroupNormTiling>;

/// Checks and runs one call (groupnorm.cc).
void RunGroupNorm(const GroupNormArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least tiling.tmpBufSize
/// floats (GetGroupNormMaxMinTmpSize gives the range).
template <typename T, bool isReuseSource = false>
__aicore__ inline void GroupNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
    GroupNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "GroupNorm: T must be half or float");
  normgrad_ascendc::RunNormCall(site, normgrad_ascendc::RunGroupNorm,
                                isReuseSource, false, output, outputMean,
                                outputVariance, inputX, gamma, beta,
                                &sharedTmpBuffer.view(), epsilon, tiling);
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Nothing left is an error.
template <typename T, bool isReuseSource = false>
__aicore__ inline void GroupNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
    GroupNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "GroupNorm: T must be half or float");
  normgrad_ascendc::RunNormCall(site, normgrad_ascendc::RunGroupNorm,
                                isReuseSource, false, output, outputMean,
                                outputVariance, inputX, gamma, beta, nullptr,
                                epsilon, tiling);
}

}  // namespace AscendC
