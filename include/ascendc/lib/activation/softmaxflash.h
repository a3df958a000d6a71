// lib/activation/softmaxflash.h — the kernel-side SoftmaxFlash API of Ascend
// C (the contract: docs/softmax.md, "SoftmaxFlash"), the first flash softmax,
// which its page marks as to be retired in favour of SoftmaxFlashV2. For each
// row r of srcTensor [srcM, srcK]:
//
//   isUpdate = false:  SoftMax: max_r, sum_r, dst = exp(x - max_r) / sum_r
//   isUpdate = true:   max_r = max(inMax_r, max_j x[r, j])
//                      e = exp(inMax_r - max_r)
//                      sum_r = e · inSum_r + Σ_j exp(x[r, j] - max_r)
//                      expMax_r = e · inSum_r / sum_r
//                      dst[r, j] = exp(x[r, j] - max_r) / sum_r
//
// Per-row values are one 32-byte block a row. T = half or float on every
// profile; half computes in float and narrows each output once; with half
// dst/src/expMax the max and sums may be float. ND only. Checks and errors as
// softmax.h says.
#pragma once

#include <type_traits>

#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The SoftmaxFlash call on src, dst and expMax of type T with max and sums
/// of type U.
template <typename T, typename U>
SoftMaxArgs FlashCall(bool update, bool basic, const TensorView& dst,
                      const TensorView& sum, const TensorView& max,
                      const TensorView& src, const TensorView& exp_max,
                      const TensorView& in_sum, const TensorView& in_max,
                      const TensorView* shared_tmp,
                      const AscendC::SoftMaxTiling& tiling,
                      const AscendC::SoftMaxShapeInfo& shape) {
  static_assert(kIsHalfOrFloat<T> && kIsHalfOrFloat<U>,
                "SoftmaxFlash: T must be half or float");
  SoftMaxArgs args{};
  args.api = SoftMaxApi::kFlash;
  args.is_half = std::is_same_v<T, half>;
  args.stats_half = std::is_same_v<U, half>;
  args.basic_block = basic;
  args.update = update;
  args.dst = dst;
  args.src = src;
  args.sum = &sum;
  args.max = &max;
  args.exp_max = &exp_max;
  args.in_sum = &in_sum;
  args.in_max = &in_max;
  args.shared_tmp = shared_tmp;
  args.tiling = &tiling;
  args.shape = shape;
  return args;
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// max, sums and dst of the same type, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashCall<T, T>(
      isUpdate, isBasicBlock, dstTensor.view(), sumTensor.view(),
      maxTensor.view(), srcTensor.view(), expMaxTensor.view(),
      inSumTensor.view(), inMaxTensor.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// half dst, src and expMax, float max and sums, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
    const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inSumTensor,
    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SoftmaxFlash: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashCall<half, float>(
      isUpdate, isBasicBlock, dstTensor.view(), sumTensor.view(),
      maxTensor.view(), srcTensor.view(), expMaxTensor.view(),
      inSumTensor.view(), inMaxTensor.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// max, sums and dst of the same type, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
    const LocalTensor<T>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashCall<T, T>(
      isUpdate, isBasicBlock, dstTensor.view(), sumTensor.view(),
      maxTensor.view(), srcTensor.view(), expMaxTensor.view(),
      inSumTensor.view(), inMaxTensor.view(), &sharedTmpBuffer.view(), tiling,
      softmaxShapeInfo));
}

/// half dst, src and expMax, float max and sums, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
    const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inSumTensor,
    const LocalTensor<float>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SoftmaxFlash: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashCall<half, float>(
      isUpdate, isBasicBlock, dstTensor.view(), sumTensor.view(),
      maxTensor.view(), srcTensor.view(), expMaxTensor.view(),
      inSumTensor.view(), inMaxTensor.view(), &sharedTmpBuffer.view(), tiling,
      softmaxShapeInfo));
}

}  // namespace AscendC
