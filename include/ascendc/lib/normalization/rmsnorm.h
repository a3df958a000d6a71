// lib/normalization/rmsnorm.h — the kernel-side RmsNorm API of Ascend C (the
// contract: docs/rmsnorm.md): per row r of srcLocal [B, S, H],
//
//   dstLocal[r, h] = srcLocal[r, h] / sqrt(mean_h(srcLocal[r, h]²) + epsilon)
//                    · gammaLocal[h]
//
// with the mean over the original row length (tiling.originalHLength; padding
// columns up to the 32-byte aligned H are expected to be zero and are
// overwritten in dstLocal). T = half or float on every profile that has the
// API (Atlas A2/A3, Atlas inference AI Core, Ascend 950); half is computed in
// float and narrowed once (round half to even; saturating on Ascend 950).
// The numeric order is docs/rmsnorm.md, "Numeric order"; the rows are
// processed in the chunks of the tiling (GetRmsNormTilingInfo), the scratch
// holding a chunk's float squares (and, for half, its widened input) and its
// row sums. isBasicBlock changes no result: it asserts the basic-block shape
// (H a multiple of 64 below 2048, B·S and the rows per chunk multiples of 8),
// which is checked. Every check runs on every call; a violation is a
// KernelError (normgrad_ascendc/runtime/core.h) naming the argument, the value
// and the rule. A call allocates nothing, reads no environment, starts no
// thread.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/lib/normalization/rmsnorm_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One RmsNorm call with its element type erased.
struct RmsNormArgs {
  bool is_half;
  bool basic_block;
  TensorView dst;
  TensorView src;
  TensorView gamma;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float epsilon;                 ///< T's value, widened
  const AscendC::RmsNormTiling* tiling;
};

/// Checks and runs one call (rmsnorm.cc).
void RunRmsNorm(const RmsNormArgs& args);

}  // namespace normgrad_ascendc

namespace AscendC {

/// With a caller-provided scratch buffer (GetRmsNormMaxMinTmpSize gives the
/// range; it must hold what the tiling's chunk needs).
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal,
                               const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal,
                               const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const RmsNormTiling& tiling,
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "RmsNorm: T must be half or float");
  normgrad_ascendc::RunRmsNorm({std::is_same_v<T, half>, isBasicBlock,
                                dstLocal.view(), srcLocal.view(),
                                gammaLocal.view(), &sharedTmpBuffer.view(),
                                static_cast<float>(epsilon), &tiling});
}

/// With the framework scratch: what is left of the unified buffer after the
/// pipe's buffers (PopStackBuffer). Too little left is an error.
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal,
                               const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal,
                               const T epsilon, const RmsNormTiling& tiling,
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "RmsNorm: T must be half or float");
  normgrad_ascendc::RunRmsNorm(
      {std::is_same_v<T, half>, isBasicBlock, dstLocal.view(), srcLocal.view(),
       gammaLocal.view(), nullptr, static_cast<float>(epsilon), &tiling});
}

}  // namespace AscendC
