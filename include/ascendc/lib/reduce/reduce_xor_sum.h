// lib/reduce/reduce_xor_sum.h — the kernel-side ReduceXorSum API of Ascend C
// (the contract: docs/reduce.md): dstTensor[0] = the sum of
// src0Tensor[i] ^ src1Tensor[i] for i < calCount, saturated to int16_t.
// T = int16_t; the overloads: sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/reduce/reduce_call.h"

namespace normgrad_ascendc {

/// The body of ReduceXorSum's overloads.
inline void XorSumCall(const CallSite& site, const TensorView& dst,
                       const TensorView& src0, const TensorView& src1,
                       const TensorView* shared_tmp, uint32_t count) {
  const ApiCall call(site);
  ReduceArgs a{};
  a.api = ReduceApi::kReduceXorSum;
  a.type = ReduceElemType::kInt16;
  a.dst = dst;
  a.src = src0;
  a.src1 = src1;
  a.shared_tmp = shared_tmp;
  a.rows = 1;
  a.cols = count;
  a.inner = count;
  a.inner_pad = true;
  RunReduce(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void ReduceXorSum(LocalTensor<T>& dstTensor,
                                    const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor,
                                    LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const uint32_t calCount,
                                    normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, int16_t>, "ReduceXorSum: T must be int16_t");
  normgrad_ascendc::XorSumCall(site, dstTensor.view(), src0Tensor.view(),
                               src1Tensor.view(), &sharedTmpBuffer.view(),
                               calCount);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void ReduceXorSum(LocalTensor<T>& dstTensor,
                                    const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor,
                                    const uint32_t calCount,
                                    normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, int16_t>, "ReduceXorSum: T must be int16_t");
  normgrad_ascendc::XorSumCall(site, dstTensor.view(), src0Tensor.view(),
                               src1Tensor.view(), nullptr, calCount);
}

}  // namespace AscendC
