// lib/activation/softmaxflashv2.h — the kernel-side SoftmaxFlashV2 API of
// Ascend C and its kernel-side tiling function (the contract:
// docs/softmax.md, "SoftmaxFlashV2"): one tile of an online softmax. For
// each row r of srcTensor [srcM, srcK]:
//
//   isUpdate = false:  max_r = max_j x[r, j]
//                      dst[r, j] = exp(x[r, j] - max_r)
//                      expSum_r = Σ_j dst[r, j]
//   isUpdate = true:   rowMax_r = max_j x[r, j]      (outReduceMax)
//                      max_r = max(inMax_r, rowMax_r)
//                      expMax_r = exp(inMax_r - max_r)
//                      dst[r, j] = exp(x[r, j] - max_r)
//                      expSum_r = inExpSum_r · expMax_r + Σ_j dst[r, j]
//
// The per-row values are one 32-byte block per row (every element the row's
// value), or one element per row with config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC.
// T = half or float on every profile; half computes in float and narrows each
// output once; with half dst/src/expMax the max and sums may be float. The
// overloads with outReduceMax need SOFTMAX_OUTPUT_WITHOUT_BRC and are not on
// Atlas inference AI Core. Checks and errors as softmax.h says.
#pragma once

#include <type_traits>

#include "lib/activation/softmax.h"
#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The SoftmaxFlashV2 call on src, dst and expMax of type T with max and sums
/// of type U.
template <typename T, typename U>
SoftMaxArgs FlashV2Call(bool update, bool basic, bool nz,
                        const AscendC::SoftmaxConfig& config,
                        const TensorView& dst, const TensorView* reduce_max,
                        const TensorView& exp_sum, const TensorView& max,
                        const TensorView& src, const TensorView& exp_max,
                        const TensorView& in_exp_sum, const TensorView& in_max,
                        const TensorView* shared_tmp,
                        const AscendC::SoftMaxTiling& tiling,
                        const AscendC::SoftMaxShapeInfo& shape) {
  static_assert(kIsHalfOrFloat<T> && kIsHalfOrFloat<U>,
                "SoftmaxFlashV2: T must be half or float");
  SoftMaxArgs args{};
  args.api = SoftMaxApi::kFlashV2;
  args.is_half = std::is_same_v<T, half>;
  args.stats_half = std::is_same_v<U, half>;
  args.basic_block = basic;
  args.format_nz = nz;
  args.update = update;
  args.reduce_max_form = reduce_max != nullptr;
  args.config = config;
  args.dst = dst;
  args.src = src;
  args.sum = &exp_sum;
  args.max = &max;
  args.exp_max = &exp_max;
  args.in_sum = &in_exp_sum;
  args.in_max = &in_max;
  args.reduce_max = reduce_max;
  args.shared_tmp = shared_tmp;
  args.tiling = &tiling;
  args.shape = shape;
  return args;
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// The tiling of a SoftmaxFlashV2 call computed on the kernel: srcM rows of
/// srcK elements in chunks of as many rows as localWorkSpaceSize bytes hold
/// (a multiple of 8 with isBasicBlock), max and sums of dataTypeSize2 bytes
/// (one element per row with isFlashOutputBrc). A shape, size or scratch it
/// cannot tile gives the empty tiling, which the API refuses.
__aicore__ inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(
    const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
    const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
  static_cast<void>(isUpdate);  // the scratch is the same either way
  const uint32_t m = shapeInfo.srcM;
  const uint32_t k = shapeInfo.srcK;
  const bool sizes_ok = (dataTypeSize1 == 2 || dataTypeSize1 == 4) &&
                        (dataTypeSize2 == 2 || dataTypeSize2 == 4);
  if (!sizes_ok || isDataFormatNZ || m == 0 || k == 0 ||
      uint64_t{k} * dataTypeSize1 % 32 != 0 || uint64_t{m} * k > 0xFFFFFFFFu ||
      (isBasicBlock &&
       !normgrad_ascendc::SoftMaxBasicShape(m, k, dataTypeSize1))) {
    return SoftMaxTiling{};
  }
  const uint32_t rows = normgrad_ascendc::SoftMaxRowsFitting(
      m, k, localWorkSpaceSize, isBasicBlock);
  if (rows == 0) return SoftMaxTiling{};
  return normgrad_ascendc::SoftMaxTilingFor(
      m, k, isFlashOutputBrc ? 1 : 32 / dataTypeSize2, rows);
}

/// max, sums and dst of the same type, the framework scratch.
template <typename T, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashV2Call<T, T>(
      isUpdate, isBasicBlock, isDataFormatNZ, config, dstTensor.view(), nullptr,
      expSumTensor.view(), maxTensor.view(), srcTensor.view(),
      expMaxTensor.view(), inExpSumTensor.view(), inMaxTensor.view(), nullptr,
      tiling, softmaxShapeInfo));
}

/// With outReduceMax, the framework scratch.
template <typename T, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
    const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
    const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
    const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashV2Call<T, T>(
      isUpdate, isBasicBlock, isDataFormatNZ, config, dstTensor.view(),
      &outReduceMax.view(), outExpSum.view(), outMax.view(), srcTensor.view(),
      outExpMax.view(), inExpSum.view(), inMax.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// half dst, src and expMax, float max and sums, the framework scratch.
template <typename T, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
    const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inExpSumTensor,
    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SoftmaxFlashV2: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashV2Call<half, float>(
      isUpdate, isBasicBlock, isDataFormatNZ, config, dstTensor.view(), nullptr,
      expSumTensor.view(), maxTensor.view(), srcTensor.view(),
      expMaxTensor.view(), inExpSumTensor.view(), inMaxTensor.view(), nullptr,
      tiling, softmaxShapeInfo));
}

/// max, sums and dst of the same type, sharedTmpBuffer.
template <typename T, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& outExpSum,
    const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& outExpMax, const LocalTensor<T>& inExpSum,
    const LocalTensor<T>& inMax, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashV2Call<T, T>(
      isUpdate, isBasicBlock, isDataFormatNZ, config, dstTensor.view(), nullptr,
      outExpSum.view(), outMax.view(), srcTensor.view(), outExpMax.view(),
      inExpSum.view(), inMax.view(), &sharedTmpBuffer.view(), tiling,
      softmaxShapeInfo));
}

/// With outReduceMax, sharedTmpBuffer.
template <typename T, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
    const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashV2Call<T, T>(
      isUpdate, isBasicBlock, isDataFormatNZ, config, dstTensor.view(),
      &outReduceMax.view(), expSumTensor.view(), maxTensor.view(),
      srcTensor.view(), expMaxTensor.view(), inExpSumTensor.view(),
      inMaxTensor.view(), &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

/// half dst, src and expMax, float max and sums, sharedTmpBuffer.
template <typename T, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(
    const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
    const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inExpSumTensor,
    const LocalTensor<float>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "SoftmaxFlashV2: T must be half or float");
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::FlashV2Call<half, float>(
      isUpdate, isBasicBlock, isDataFormatNZ, config, dstTensor.view(), nullptr,
      expSumTensor.view(), maxTensor.view(), srcTensor.view(),
      expMaxTensor.view(), inExpSumTensor.view(), inMaxTensor.view(),
      &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

}  // namespace AscendC
