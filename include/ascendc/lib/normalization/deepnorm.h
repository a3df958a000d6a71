// lib/normalization/deepnorm.h — the kernel-side DeepNorm API of Ascend C
// (the contract: docs/deepnorm.md): a layer norm of z = alpha·x + gx, per
// row r of srcLocal and gxLocal [B, S, H] whose first originalH columns are
// data:
//
//   meanLocal[r]      = mean of z over the row's data columns
//   rstdLocal[r]      = population variance of z over them (the device
//                       writes the variance here, see docs/deepnorm.md)
//   dstLocal[r, h]    = (z[r, h] − mean) / sqrt(var + epsilon) · gamma[h]
//                       + beta[h]              (every column h < H)
//
// for T = half or float on every profile, in the numeric order of
// docs/deepnorm.md (float lane-wise, single roundings, no fused
// multiply-add; row sums by the 64-lane fold and adjacent-pair tree; half
// widened on the way in and narrowed with round half to even on the way out,
// saturating at ±65504 on the Ascend 950 profile), processed in the chunks of
// the tiling (GetDeepNormTilingInfo) with its scratch layout. float with
// isReuseSrc = true overwrites srcLocal (each chunk with its normalized
// values) and may write dstLocal over srcLocal; half refuses isReuseSrc.
// isBasicBlock = true requires the basic-block shape (H a multiple of 64,
// B·S a multiple of 8, originalH == H) and computes the same values.
// The tiling is written as on the device: after a call whose data ends in a
// tail chunk, bshCurLength and bsCurLength hold the tail's sizes.
// Every check runs on every call; a violation is a KernelError
// (normgrad_ascendc/runtime/core.h) whose message names the argument, the value
// and the rule. A call allocates nothing, reads no environment, starts no
// thread.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/deepnorm_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One DeepNorm call with its element type erased.
struct DeepNormArgs {
  bool is_half;
  bool reuse_source;
  bool basic_block;
  TensorView dst;
  TensorView mean;
  TensorView rstd;
  TensorView src;
  TensorView gx;
  TensorView beta;
  TensorView gamma;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float alpha;                   ///< T's value, widened
  float epsilon;                 ///< T's value, widened
  AscendC::DeepNormTiling* tiling;
};

/// Checks and runs one call (deepnorm.cc).
void RunDeepNorm(const DeepNormArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer of at least tiling.tmpBufSize
/// floats (GetDeepNormMaxMinTmpSize gives the range).
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(
    const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
    const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
    const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
    const LocalTensor<T>& gammaLocal,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha, const T epsilon,
    DeepNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "DeepNorm: T must be half or float");
  normgrad_ascendc::RunDeepNorm(
      {std::is_same_v<T, half>, isReuseSrc, isBasicBlock, dstLocal.view(),
       meanLocal.view(), rstdLocal.view(), srcLocal.view(), gxLocal.view(),
       betaLocal.view(), gammaLocal.view(), &sharedTmpBuffer.view(),
       static_cast<float>(alpha), static_cast<float>(epsilon), &tiling});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Nothing left is an error.
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(
    const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
    const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
    const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
    const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
    DeepNormTiling& tiling, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "DeepNorm: T must be half or float");
  normgrad_ascendc::RunDeepNorm(
      {std::is_same_v<T, half>, isReuseSrc, isBasicBlock, dstLocal.view(),
       meanLocal.view(), rstdLocal.view(), srcLocal.view(), gxLocal.view(),
       betaLocal.view(), gammaLocal.view(), nullptr, static_cast<float>(alpha),
       static_cast<float>(epsilon), &tiling});
}

}  // namespace AscendC
