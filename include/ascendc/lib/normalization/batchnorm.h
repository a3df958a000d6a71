// lib/normalization/batchnorm.h — the kernel-side BatchNorm API of Ascend C
// (the contract: docs/batchnorm.md): for inputX [B, S, H], over the first
// originB = tiling.originalBLength rows, per feature j of the S·H features:
//
//   outputMean[j]     = the mean of x[0..originB), j]
//   outputVariance[j] = their population variance
//   output[b, j]      = (x[b, j] − mean[j]) / sqrt(var[j] + epsilon)
//                       · gamm[b] + beta[b]
//
// for T = half or float on every profile (a2, 310p, 950). Computed in float
// in the order of docs/batchnorm.md, "Numeric order", in chunks of
// tiling.shCurLength whole feature columns with the tiling's scratch layout;
// half is widened on the way in and narrowed once (round half to even,
// saturating on the 950 profile) on the way out. isReuseSource is reserved
// and changes nothing; isBasicBlock adds its shape rules (originB a multiple
// of 8, S·H a multiple of 64 below 2048) and computes the same values. Rows
// at and beyond originB are neither read nor written. The tiling is only
// read. Every check runs on every call; a violation is a KernelError
// (normgrad_ascendc/runtime/core.h) naming the argument, the value and the
// rule.
#pragma once

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/batchnorm_tiling.h"
#include "normgrad_ascendc/lib/normalization/norm_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One BatchNorm call with its element type erased.
using BatchNormArgs = NormArgs<AscendC::BatchNormTiling>;

/// Checks and runs one call (batchnorm.cc).
void RunBatchNorm(const BatchNormArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Nothing left is an error.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void BatchNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
    BatchNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "BatchNorm: T must be half or float");
  normgrad_ascendc::RunNormCall(
      site, normgrad_ascendc::RunBatchNorm, isReuseSource, isBasicBlock, output,
      outputMean, outputVariance, inputX, gamm, beta, nullptr, epsilon, tiling);
}

/// With a caller-provided scratch buffer of at least tiling.tmpBufSize
/// floats (GetBatchNormMaxMinTmpSize gives the range).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void BatchNorm(
    const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
    const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
    const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
    BatchNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "BatchNorm: T must be half or float");
  normgrad_ascendc::RunNormCall(site, normgrad_ascendc::RunBatchNorm,
                                isReuseSource, isBasicBlock, output, outputMean,
                                outputVariance, inputX, gamm, beta,
                                &sharedTmpBuffer.view(), epsilon, tiling);
}

}  // namespace AscendC
