// lib/activation/softmaxgrad.h — the kernel-side SoftmaxGrad and
// SoftmaxGradFront APIs of Ascend C (the contract: docs/softmax.md,
// "SoftmaxGrad and SoftmaxGradFront"): the backward of a row softmax. For
// each row r of gradTensor and srcTensor [srcM, srcK] (srcTensor the softmax
// output y, gradTensor its gradient):
//
//   d_r = Σ_j grad[r, j] · src[r, j]            (the first oriSrcK columns)
//   SoftmaxGrad:                dst[r, j] = (grad[r, j] - d_r) · src[r, j]
//   SoftmaxGrad with isFront,
//   SoftmaxGradFront:           dst[r] = d_r, one 32-byte block a row
//
// T = half or float on every profile; half is computed in float and each
// output narrowed once. dstTensor may be srcTensor (SoftmaxGrad). Checks and
// errors as softmax.h says; isDataFormatNZ = true is refused.
#pragma once

#include <type_traits>

#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The SoftmaxGrad or SoftmaxGradFront call on tensors of type T.
template <typename T>
SoftMaxArgs GradCall(SoftMaxApi api, bool front, bool basic, bool nz,
                     const TensorView& dst, const TensorView& grad,
                     const TensorView& src, const TensorView* shared_tmp,
                     const AscendC::SoftMaxTiling& tiling,
                     const AscendC::SoftMaxShapeInfo& shape) {
  static_assert(kIsHalfOrFloat<T>,
                "SoftmaxGrad, SoftmaxGradFront: T must be half or float");
  SoftMaxArgs args{};
  args.api = api;
  args.is_half = std::is_same_v<T, half>;
  args.stats_half = args.is_half;
  args.basic_block = basic;
  args.format_nz = nz;
  args.front = front;
  args.dst = dst;
  args.src = src;
  args.grad = &grad;
  args.shared_tmp = shared_tmp;
  args.tiling = &tiling;
  args.shape = shape;
  return args;
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// The framework scratch.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
    bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::GradCall<T>(
      normgrad_ascendc::SoftMaxApi::kGrad, isFront, false, isDataFormatNZ,
      dstTensor.view(), gradTensor.view(), srcTensor.view(), nullptr, tiling,
      softmaxShapeInfo));
}

/// sharedTmpBuffer.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
    const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::GradCall<T>(
      normgrad_ascendc::SoftMaxApi::kGrad, isFront, false, isDataFormatNZ,
      dstTensor.view(), gradTensor.view(), srcTensor.view(),
      &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

/// The framework scratch.
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::GradCall<T>(
      normgrad_ascendc::SoftMaxApi::kGradFront, true, isBasicBlock,
      isDataFormatNZ, dstTensor.view(), gradTensor.view(), srcTensor.view(),
      nullptr, tiling, softmaxShapeInfo));
}

/// sharedTmpBuffer.
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(
    const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
    const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSoftMaxFamily(normgrad_ascendc::GradCall<T>(
      normgrad_ascendc::SoftMaxApi::kGradFront, true, isBasicBlock,
      isDataFormatNZ, dstTensor.view(), gradTensor.view(), srcTensor.view(),
      &sharedTmpBuffer.view(), tiling, softmaxShapeInfo));
}

}  // namespace AscendC
