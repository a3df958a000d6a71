// lib/quant/ascend_antiquant.h — the kernel-side AscendAntiQuant API of
// Ascend C (the contract: docs/quant.md): dst = scale · (src + offset) from
// int8_t (or, on Atlas A2/A3, int4b_t) to half or bfloat16_t, per channel
// (scale and offset tensors, one row of them per group of groupSize rows, or
// per group of columns when isTranspose) or per tensor (scalars), with or
// without the offset. The overloads: sharedTmpBuffer or the framework scratch;
// k is the length of the K axis (src [K, N], or [N, K] when isTranspose).
#pragma once

#include "normgrad_ascendc/lib/quant/quant_call.h"
#include "normgrad_ascendc/runtime/int4.h"

namespace normgrad_ascendc {

template <typename In>
constexpr bool kIsAntiQuantSource =
    std::is_same_v<In, int8_t> || std::is_same_v<In, AscendC::int4b_t>;

template <typename In, typename Out>
constexpr bool kIsAntiQuantPair = kIsAntiQuantSource<In> &&
                                  (std::is_same_v<Out, half> ||
                                   std::is_same_v<Out, bfloat16_t>);

/// The arguments every overload shares; the caller adds its own.
template <typename In, typename Out>
AntiQuantArgs AntiQuantBase(const AscendC::LocalTensor<Out>& dst,
                            const AscendC::LocalTensor<In>& src,
                            const AscendC::LocalTensor<uint8_t>* tmp,
                            bool transpose, uint32_t k) {
  AntiQuantArgs a{};
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = tmp != nullptr ? &tmp->view() : nullptr;
  a.dst_type = QuantTypeOf<Out>();
  a.src_int4 = std::is_same_v<In, AscendC::int4b_t>;
  a.transpose = transpose;
  a.k = k;
  return a;
}

/// A per-channel call; `offset` null for the form without it.
template <typename In, typename Out, bool transpose>
void AntiQuantPerChannel(const CallSite& site,
                         const AscendC::LocalTensor<Out>& dst,
                         const AscendC::LocalTensor<In>& src,
                         const AscendC::LocalTensor<Out>* offset,
                         const AscendC::LocalTensor<Out>& scale,
                         const AscendC::LocalTensor<uint8_t>* tmp, uint32_t k,
                         const AscendC::AntiQuantShapeInfo& shape_info) {
  const ApiCall call(site);
  AntiQuantArgs a = AntiQuantBase(dst, src, tmp, transpose, k);
  a.scale_tensor = &scale.view();
  a.scale_shape = scale.GetShapeInfo();
  if (offset != nullptr) {
    a.offset_tensor = &offset->view();
    a.offset_shape = offset->GetShapeInfo();
  }
  a.has_offset = offset != nullptr;
  a.shape_info = shape_info;
  RunAscendAntiQuant(a);
}

/// A per-tensor call; `has_offset` false for the form without it.
template <typename In, typename Out, bool transpose>
void AntiQuantPerTensor(const CallSite& site,
                        const AscendC::LocalTensor<Out>& dst,
                        const AscendC::LocalTensor<In>& src, bool has_offset,
                        Out offset, Out scale,
                        const AscendC::LocalTensor<uint8_t>* tmp, uint32_t k) {
  const ApiCall call(site);
  AntiQuantArgs a = AntiQuantBase(dst, src, tmp, transpose, k);
  a.has_offset = has_offset;
  a.offset = static_cast<float>(offset);
  a.scale = static_cast<float>(scale);
  RunAscendAntiQuant(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

#define NORMGRAD_ANTIQUANT_CHECK                                         \
  static_assert(                                                         \
      normgrad_ascendc::kIsAntiQuantPair<InputDataType, OutputDataType>, \
      "AscendAntiQuant: InputDataType must be int8_t or int4b_t and "    \
      "OutputDataType half or bfloat16_t");

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(
    const LocalTensor<OutputDataType>& dst,
    const LocalTensor<InputDataType>& src,
    const LocalTensor<OutputDataType>& offset,
    const LocalTensor<OutputDataType>& scale,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
    const AntiQuantShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_ANTIQUANT_CHECK
  normgrad_ascendc::AntiQuantPerChannel<InputDataType, OutputDataType,
                                        isTranspose>(
      site, dst, src, &offset, scale, &sharedTmpBuffer, k, shapeInfo);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(
    const LocalTensor<OutputDataType>& dst,
    const LocalTensor<InputDataType>& src,
    const LocalTensor<OutputDataType>& scale,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
    const AntiQuantShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_ANTIQUANT_CHECK
  normgrad_ascendc::AntiQuantPerChannel<InputDataType, OutputDataType,
                                        isTranspose>(
      site, dst, src, nullptr, scale, &sharedTmpBuffer, k, shapeInfo);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(
    const LocalTensor<OutputDataType>& dst,
    const LocalTensor<InputDataType>& src, const OutputDataType offset,
    const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_ANTIQUANT_CHECK(void)
  shapeInfo;  // per tensor: the page uses it per channel only
  normgrad_ascendc::AntiQuantPerTensor<InputDataType, OutputDataType,
                                       isTranspose>(
      site, dst, src, true, offset, scale, &sharedTmpBuffer, k);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(
    const LocalTensor<OutputDataType>& dst,
    const LocalTensor<InputDataType>& src, const OutputDataType scale,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
    const AntiQuantShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_ANTIQUANT_CHECK(void)
  shapeInfo;  // per tensor: the page uses it per channel only
  normgrad_ascendc::AntiQuantPerTensor<InputDataType, OutputDataType,
                                       isTranspose>(
      site, dst, src, false, OutputDataType{}, scale, &sharedTmpBuffer, k);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(
    const LocalTensor<OutputDataType>& dst,
    const LocalTensor<InputDataType>& src,
    const LocalTensor<OutputDataType>& offset,
    const LocalTensor<OutputDataType>& scale, const uint32_t k,
    const AntiQuantShapeInfo& shapeInfo = {},
    normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_ANTIQUANT_CHECK
  normgrad_ascendc::AntiQuantPerChannel<InputDataType, OutputDataType,
                                        isTranspose>(
      site, dst, src, &offset, scale, nullptr, k, shapeInfo);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,
                                       const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset,
                                       const OutputDataType scale,
                                       const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {},
                                       normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_ANTIQUANT_CHECK(void)
  shapeInfo;  // per tensor: the page uses it per channel only
  normgrad_ascendc::AntiQuantPerTensor<InputDataType, OutputDataType,
                                       isTranspose>(site, dst, src, true,
                                                    offset, scale, nullptr, k);
}

#undef NORMGRAD_ANTIQUANT_CHECK

}  // namespace AscendC
