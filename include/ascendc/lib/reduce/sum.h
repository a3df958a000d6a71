// lib/reduce/sum.h — the kernel-side Sum API of Ascend C (the contract:
// docs/reduce.md): dstTensor[i] = the sum of the n elements of row i of
// srcTensor (rows of inner elements, sumParams.outter of them), added in the
// binary tree of adjacent pairs the page documents. T = half or float;
// reduceDim must stay -1 and isBasicBlock false (the page reserves both);
// isReuseSource is reserved and changes nothing. The overloads:
// sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/reduce/reduce_call.h"

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false,
          bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor,
                           const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SumParams& sumParams,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Sum: T must be half or float");
  static_assert(reduceDim == -1,
                "Sum: reduceDim must be -1 (Sum reduces the last axis)");
  static_assert(!isBasicBlock, "Sum: isBasicBlock is reserved: leave it false");
  normgrad_ascendc::RowsCall<T>(normgrad_ascendc::ReduceApi::kSum, site,
                                dstTensor, srcTensor, &sharedTmpBuffer.view(),
                                sumParams, false);
}

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false,
          bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor,
                           const LocalTensor<T>& srcTensor,
                           const SumParams& sumParams,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Sum: T must be half or float");
  static_assert(reduceDim == -1,
                "Sum: reduceDim must be -1 (Sum reduces the last axis)");
  static_assert(!isBasicBlock, "Sum: isBasicBlock is reserved: leave it false");
  normgrad_ascendc::RowsCall<T>(normgrad_ascendc::ReduceApi::kSum, site,
                                dstTensor, srcTensor, nullptr, sumParams,
                                false);
}

}  // namespace AscendC
