// lib/reduce/mean.h — the kernel-side Mean API of Ascend C (the contract:
// docs/reduce.md): dstTensor[i] = the sum of the n elements of row i of
// srcTensor (Sum's tree, in accType), divided by n, rounded to T. T = half
// or float; accType = T, or float for half (never less precise than T);
// reduceDim must stay -1 and isBasicBlock false (the page reserves both);
// isReuseSource is reserved and changes nothing. The overloads:
// sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/reduce/reduce_call.h"

namespace normgrad_ascendc {

/// Mean's element and accumulation types: half or float, accType T or a
/// float for half.
template <typename T, typename Acc>
inline constexpr bool kIsMeanTypes =
    (std::is_same_v<T, half> ||
     std::is_same_v<T, float>)&&(std::is_same_v<Acc, T> ||
                                 std::is_same_v<Acc, float>);

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T, typename accType = T, bool isReuseSource = false,
          bool isBasicBlock = false, int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor,
                            const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const MeanParams& meanParams,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMeanTypes<T, accType>,
                "Mean: T must be half or float and accType T or float");
  static_assert(reduceDim == -1,
                "Mean: reduceDim must be -1 (Mean reduces the last axis)");
  static_assert(!isBasicBlock,
                "Mean: isBasicBlock is reserved: leave it false");
  normgrad_ascendc::RowsCall<T>(
      normgrad_ascendc::ReduceApi::kMean, site, dstTensor, srcTensor,
      &sharedTmpBuffer.view(), meanParams,
      std::is_same_v<T, half> && std::is_same_v<accType, float>);
}

template <typename T, typename accType = T, bool isReuseSource = false,
          bool isBasicBlock = false, int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor,
                            const LocalTensor<T>& srcTensor,
                            const MeanParams& meanParams,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMeanTypes<T, accType>,
                "Mean: T must be half or float and accType T or float");
  static_assert(reduceDim == -1,
                "Mean: reduceDim must be -1 (Mean reduces the last axis)");
  static_assert(!isBasicBlock,
                "Mean: isBasicBlock is reserved: leave it false");
  normgrad_ascendc::RowsCall<T>(
      normgrad_ascendc::ReduceApi::kMean, site, dstTensor, srcTensor, nullptr,
      meanParams, std::is_same_v<T, half> && std::is_same_v<accType, float>);
}

}  // namespace AscendC
