// lib/activation/softmax.h — the kernel-side SoftMax and SimpleSoftMax APIs
// of Ascend C (the contract: docs/softmax.md). For each row r of srcTensor
// [srcM, srcK] (its first oriSrcK columns the data):
//
//   SoftMax:        max_r = max_j x[r, j]   sum_r = Σ_j exp(x[r, j] - max_r)
//                   dst[r, j] = exp(x[r, j] - max_r) / sum_r
//   SimpleSoftMax:  dst[r, j] = exp(x[r, j] - inMax_r) / inSum_r
//
// max and sum are written (read) as one 32-byte block per row, every element
// of the block the row's value. T = half or float on every profile; half is
// computed in float and each output narrowed once (round half to even;
// saturating on Ascend 950); with half dst/src the max and sum may be float.
// Every overload (sharedTmpBuffer or the framework scratch; with or without
// sumTensor and maxTensor) runs the same checks; a violation is a KernelError
// naming the API, the argument, the value and the rule. isReuseSource is
// reserved (no effect); isBasicBlock changes no result but its shape rules
// are checked; isDataFormatNZ = true is refused (the NZ layout is not
// supported, docs/decisions.md).
#pragma once

#include <type_traits>

#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The SoftMax or SimpleSoftMax call on src/dst of type T with max and sum of
/// type U (null when the overload has none).
template <typename T, typename U>
SoftMaxArgs SoftMaxCall(SoftMaxApi api, bool basic, bool nz,
                        const AscendC::SoftmaxConfig& config,
                        const TensorView& dst, const TensorView* sum,
                        const TensorView* max, const TensorView& src,
                        const TensorView* shared_tmp,
                        const AscendC::SoftMaxTiling& tiling,
                        const AscendC::SoftMaxShapeInfo& shape) {
  static_assert(kIsHalfOrFloat<T> && kIsHalfOrFloat<U>,
                "SoftMax, SimpleSoftMax, SoftmaxFlashV2: T must be half or "
                "float");
  SoftMaxArgs args{};
  args.api = api;
  args.is_half = std::is_same_v<T, half>;
  args.stats_half = std::is_same_v<U, half>;
  args.basic_block = basic;
  args.format_nz = nz;
  args.config = config;
  args.dst = dst;
  args.src = src;
  args.sum = sum;
  args.max = max;
  args.shared_tmp = shared_tmp;
  args.tiling = &tiling;
  args.shape = shape;
  return args;
}

}  // namespace normgrad_ascendc

namespace AscendC {

// ---- SoftMax ---------------------------------------------------------------

/// max, sum and dst of the same type, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor,
                               const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<T, T>(
      normgrad_ascendc::SoftMaxApi::kSoftMax, isBasicBlock, isDataFormatNZ,
      config, dstTensor.view(), &sumTensor.view(), &maxTensor.view(),
      srcTensor.view(), nullptr, tiling, softmaxShapeInfo));
}

/// half dst and src, float max and sum, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor,
                               const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor,
                               const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SoftMax: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<half, float>(
      normgrad_ascendc::SoftMaxApi::kSoftMax, isBasicBlock, isDataFormatNZ,
      config, dstTensor.view(), &sumTensor.view(), &maxTensor.view(),
      srcTensor.view(), nullptr, tiling, softmaxShapeInfo));
}

/// dst only, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor,
                               const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<T, T>(
      normgrad_ascendc::SoftMaxApi::kSoftMax, isBasicBlock, false, config,
      dstTensor.view(), nullptr, nullptr, srcTensor.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// max, sum and dst of the same type, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor,
                               const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<T, T>(
      normgrad_ascendc::SoftMaxApi::kSoftMax, isBasicBlock, isDataFormatNZ,
      config, dstTensor.view(), &sumTensor.view(), &maxTensor.view(),
      srcTensor.view(), &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

/// half dst and src, float max and sum, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor,
                               const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor,
                               const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SoftMax: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<half, float>(
      normgrad_ascendc::SoftMaxApi::kSoftMax, isBasicBlock, isDataFormatNZ,
      config, dstTensor.view(), &sumTensor.view(), &maxTensor.view(),
      srcTensor.view(), &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

/// dst only, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor,
                               const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<T, T>(
      normgrad_ascendc::SoftMaxApi::kSoftMax, isBasicBlock, false, config,
      dstTensor.view(), nullptr, nullptr, srcTensor.view(),
      &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

// ---- SimpleSoftMax ---------------------------------------------------------

/// inMax, inSum and dst of the same type, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
    const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<T, T>(
      normgrad_ascendc::SoftMaxApi::kSimpleSoftMax, isBasicBlock,
      isDataFormatNZ, config, dstTensor.view(), &inSumTensor.view(),
      &inMaxTensor.view(), srcTensor.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// half dst and src, float inMax and inSum, the framework scratch.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
    const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SimpleSoftMax: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<half, float>(
      normgrad_ascendc::SoftMaxApi::kSimpleSoftMax, isBasicBlock,
      isDataFormatNZ, config, dstTensor.view(), &inSumTensor.view(),
      &inMaxTensor.view(), srcTensor.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// inMax, inSum and dst of the same type, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
    const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<T, T>(
      normgrad_ascendc::SoftMaxApi::kSimpleSoftMax, isBasicBlock,
      isDataFormatNZ, config, dstTensor.view(), &inSumTensor.view(),
      &inMaxTensor.view(), srcTensor.view(), &sharedTmpBuffer.view(), tiling,
      softmaxShapeInfo));
}

/// half dst and src, float inMax and inSum, sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
    const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SimpleSoftMax: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::SoftMaxCall<half, float>(
      normgrad_ascendc::SoftMaxApi::kSimpleSoftMax, isBasicBlock,
      isDataFormatNZ, config, dstTensor.view(), &inSumTensor.view(),
      &inMaxTensor.view(), srcTensor.view(), &sharedTmpBuffer.view(), tiling,
      softmaxShapeInfo));
}

}  // namespace AscendC
