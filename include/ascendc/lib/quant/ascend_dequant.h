// lib/quant/ascend_dequant.h — the kernel-side AscendDequant API of Ascend C
// (the contract: docs/quant.md): for each of params.m rows of params.n
// int32_t, dst[i][j] = dstT(float(src[i][j]) · float(deqScale[j])) for
// j < params.calCount, rows of dst padded to whole 32-byte blocks. deqScale
// is a tensor (uint64_t — its low 32 bits a float —, float, bfloat16_t) or
// a scalar (float, bfloat16_t); dstT is half, float or bfloat16_t. The
// overloads: sharedTmpBuffer or the framework scratch, and the four forms
// the page no longer recommends (one row of the whole srcTensor).
#pragma once

#include "normgrad_ascendc/lib/quant/quant_call.h"

namespace normgrad_ascendc {

/// The (dstT, scaleT) pairs of a tensor deqScale on any profile.
template <typename D, typename S>
constexpr bool kIsDequantTensorPair =
    (std::is_same_v<D, half> && std::is_same_v<S, uint64_t>) ||
    (std::is_same_v<D, float> &&
     (std::is_same_v<S, float> || std::is_same_v<S, bfloat16_t>)) ||
    (std::is_same_v<D, bfloat16_t> &&
     (std::is_same_v<S, float> || std::is_same_v<S, bfloat16_t>));

/// The (dstT, scaleT) pairs of a scalar deqScale on any profile.
template <typename D, typename S>
constexpr bool kIsDequantScalarPair =
    (std::is_same_v<D, float> ||
     std::is_same_v<D, bfloat16_t>)&&(std::is_same_v<S, float> ||
                                      std::is_same_v<S, bfloat16_t>);

template <typename D, typename S, AscendC::DeQuantMode mode>
void DequantCall(const CallSite& site, const AscendC::LocalTensor<D>& dst,
                 const AscendC::LocalTensor<int32_t>& src,
                 const AscendC::LocalTensor<S>* scale_tensor, float scale,
                 const AscendC::LocalTensor<uint8_t>* tmp,
                 const AscendC::DequantParams& params) {
  const ApiCall call(site);
  DequantArgs a{};
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = tmp != nullptr ? &tmp->view() : nullptr;
  a.scale_tensor = scale_tensor != nullptr ? &scale_tensor->view() : nullptr;
  a.dst_type = QuantTypeOf<D>();
  a.scale_type = QuantTypeOf<S>();
  a.scale = scale;
  a.mode = mode;
  a.params = params;
  RunAscendDequant(a);
}

/// The shape of the forms without DequantParams: one row of the whole
/// srcTensor, its first `cal_count` elements.
inline AscendC::DequantParams DequantWholeRow(
    const AscendC::LocalTensor<int32_t>& src, uint32_t cal_count) {
  return {1, src.view().bytes / 4, cal_count};
}

}  // namespace normgrad_ascendc

namespace AscendC {

#define NORMGRAD_DEQUANT_TENSOR_CHECK                                         \
  static_assert(normgrad_ascendc::kIsDequantTensorPair<dstT, scaleT>,         \
                "AscendDequant: with a deqScale tensor, (dstT, scaleT) must " \
                "be (half, uint64_t), (float, float), (float, bfloat16_t), "  \
                "(bfloat16_t, bfloat16_t) or (bfloat16_t, float)");

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(
    const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale,
    const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params,
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DEQUANT_TENSOR_CHECK
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer, params);
}

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                                     const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale,
                                     DequantParams params,
                                     normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DEQUANT_TENSOR_CHECK
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor, &deqScale, 0, nullptr, params);
}

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(
    const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
    DequantParams params, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsDequantScalarPair<dstT, scaleT>,
                "AscendDequant: with a scalar deqScale, dstT must be float or "
                "bfloat16_t and scaleT float or bfloat16_t");
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor,
      static_cast<const LocalTensor<scaleT>*>(nullptr),
      static_cast<float>(deqScale), &sharedTmpBuffer, params);
}

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                                     const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale,
                                     DequantParams params,
                                     normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsDequantScalarPair<dstT, scaleT>,
                "AscendDequant: with a scalar deqScale, dstT must be float or "
                "bfloat16_t and scaleT float or bfloat16_t");
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor,
      static_cast<const LocalTensor<scaleT>*>(nullptr),
      static_cast<float>(deqScale), nullptr, params);
}

// ---- The forms the page no longer recommends: one row of srcTensor ----------

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(
    const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DEQUANT_TENSOR_CHECK
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer,
      normgrad_ascendc::DequantWholeRow(srcTensor, calCount));
}

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(
    const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale,
    const LocalTensor<uint8_t>& sharedTmpBuffer,
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DEQUANT_TENSOR_CHECK
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer,
      normgrad_ascendc::DequantWholeRow(srcTensor, srcTensor.view().bytes / 4));
}

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                                     const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale,
                                     const uint32_t calCount,
                                     normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DEQUANT_TENSOR_CHECK
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor, &deqScale, 0, nullptr,
      normgrad_ascendc::DequantWholeRow(srcTensor, calCount));
}

template <typename dstT, typename scaleT,
          DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                                     const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale,
                                     normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DEQUANT_TENSOR_CHECK
  normgrad_ascendc::DequantCall<dstT, scaleT, mode>(
      site, dstTensor, srcTensor, &deqScale, 0, nullptr,
      normgrad_ascendc::DequantWholeRow(srcTensor, srcTensor.view().bytes / 4));
}

#undef NORMGRAD_DEQUANT_TENSOR_CHECK

}  // namespace AscendC
