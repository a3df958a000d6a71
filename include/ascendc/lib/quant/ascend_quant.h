// lib/quant/ascend_quant.h — the kernel-side AscendQuant API of Ascend C
// (the contract: docs/quant.md): dstTensor[i] = int8(src[i] · scale +
// offset), through half and rounded to nearest even, per tensor (scalar
// scale and offset) or per channel (scale and offset repeating every
// scaleCount elements). The forms: dstTensor int8_t with T = half or float
// (config: AscendQuantConfig), and the dstT form of the Ascend 950 (dstT
// int8_t; srcT half, bfloat16_t or float); each with sharedTmpBuffer or the
// framework scratch, over calCount elements or the whole tensor.
#pragma once

#include "normgrad_ascendc/lib/quant/quant_call.h"

namespace normgrad_ascendc {

template <typename T>
constexpr bool kIsQuantSource =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

/// The srcT the dstT form takes: half, bfloat16_t, float.
template <typename T>
constexpr bool kIsQuantGenericSource =
    kIsQuantSource<T> || std::is_same_v<T, bfloat16_t>;

/// The dstT the dstT form takes: int8_t only, as the 8-bit and 4-bit float
/// types of the page are not modelled (docs/quant.md, "Left out").
template <typename T>
constexpr bool kIsQuantGenericDestination = std::is_same_v<T, int8_t>;

/// The arguments every overload shares; the caller adds its own.
template <typename S>
QuantArgs QuantBase(const TensorView& dst, const AscendC::LocalTensor<S>& src,
                    const AscendC::LocalTensor<uint8_t>* tmp, bool generic,
                    const AscendC::AscendQuantConfig& config) {
  QuantArgs a{};
  a.dst = dst;
  a.src = src.view();
  a.shared_tmp = tmp != nullptr ? &tmp->view() : nullptr;
  a.src_type = QuantTypeOf<S>();
  a.dst_generic = generic;
  a.config = config;
  return a;
}

/// A per-tensor call.
template <typename S>
void QuantPerTensor(const CallSite& site, const TensorView& dst,
                    const AscendC::LocalTensor<S>& src,
                    const AscendC::LocalTensor<uint8_t>* tmp, float scale,
                    float offset, uint32_t cal_count, bool generic,
                    const AscendC::AscendQuantConfig& config) {
  const ApiCall call(site);
  QuantArgs a = QuantBase(dst, src, tmp, generic, config);
  a.scale = scale;
  a.offset = offset;
  a.cal_count = cal_count;
  RunAscendQuant(a);
}

/// A per-channel call with an offset tensor (`offset_tensor`) or the scalar
/// `offset`.
template <typename S>
void QuantPerChannel(const CallSite& site, const TensorView& dst,
                     const AscendC::LocalTensor<S>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp,
                     const AscendC::LocalTensor<S>& scale,
                     const AscendC::LocalTensor<S>* offset_tensor, S offset,
                     uint32_t scale_count, uint32_t offset_count,
                     uint32_t cal_count, bool generic,
                     const AscendC::AscendQuantConfig& config) {
  const ApiCall call(site);
  QuantArgs a = QuantBase(dst, src, tmp, generic, config);
  a.scale_tensor = &scale.view();
  a.offset_tensor = offset_tensor != nullptr ? &offset_tensor->view() : nullptr;
  a.offset = static_cast<float>(offset);
  a.scale_count = scale_count;
  a.offset_count = offset_count;
  a.cal_count = cal_count;
  RunAscendQuant(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

#define NORMGRAD_QUANT_T_CHECK                       \
  static_assert(normgrad_ascendc::kIsQuantSource<T>, \
                "AscendQuant: T must be half or float");
#define NORMGRAD_QUANT_GENERIC_CHECK                                         \
  static_assert(normgrad_ascendc::kIsQuantGenericSource<srcT>,               \
                "AscendQuant: srcT must be half, bfloat16_t or float");      \
  static_assert(normgrad_ascendc::kIsQuantGenericDestination<dstT>,          \
                "AscendQuant: dstT must be int8_t (normgrad does not model " \
                "the 8-bit and 4-bit float types)");

// ---- dstTensor int8_t: per tensor -------------------------------------------

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const float scale, const float offset,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerTensor(site, dstTensor.view(), srcTensor,
                                   &sharedTmpBuffer, scale, offset, calCount,
                                   false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const float scale, const float offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerTensor(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scale, offset,
      normgrad_ascendc::QuantArgs::kWhole, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerTensor(site, dstTensor.view(), srcTensor, nullptr,
                                   scale, offset, calCount, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerTensor(
      site, dstTensor.view(), srcTensor, nullptr, scale, offset,
      normgrad_ascendc::QuantArgs::kWhole, false, config);
}

// ---- dstTensor int8_t: per channel ------------------------------------------

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor, nullptr,
      offset, scaleCount, 0, calCount, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(
    const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer,
    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
    const uint32_t scaleCount, const uint32_t offsetCount,
    const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor,
      &offsetTensor, T{}, scaleCount, offsetCount, calCount, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor,
                                   const T offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor, nullptr,
      offset, normgrad_ascendc::QuantArgs::kWhole, 0,
      normgrad_ascendc::QuantArgs::kWhole, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor,
      &offsetTensor, T{}, normgrad_ascendc::QuantArgs::kWhole,
      normgrad_ascendc::QuantArgs::kWhole, normgrad_ascendc::QuantArgs::kWhole,
      false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(site, dstTensor.view(), srcTensor,
                                       nullptr, scaleTensor, nullptr, offset,
                                       scaleCount, 0, calCount, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(
    const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
    const uint32_t scaleCount, const uint32_t offsetCount,
    const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, &offsetTensor,
      T{}, scaleCount, offsetCount, calCount, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor,
                                   const T offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, nullptr, offset,
      normgrad_ascendc::QuantArgs::kWhole, 0,
      normgrad_ascendc::QuantArgs::kWhole, false, config);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor,
                                   const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_T_CHECK
  normgrad_ascendc::QuantPerChannel<T>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, &offsetTensor,
      T{}, normgrad_ascendc::QuantArgs::kWhole,
      normgrad_ascendc::QuantArgs::kWhole, normgrad_ascendc::QuantArgs::kWhole,
      false, config);
}

// ---- The dstT form (Ascend 950): per tensor ---------------------------------

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const float scale, const float offset,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerTensor(site, dstTensor.view(), srcTensor,
                                   &sharedTmpBuffer, scale, offset, calCount,
                                   true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const float scale, const float offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerTensor(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scale, offset,
      normgrad_ascendc::QuantArgs::kWhole, true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const float scale, const float offset,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerTensor(site, dstTensor.view(), srcTensor, nullptr,
                                   scale, offset, calCount, true,
                                   ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const float scale, const float offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerTensor(
      site, dstTensor.view(), srcTensor, nullptr, scale, offset,
      normgrad_ascendc::QuantArgs::kWhole, true, ASCEND_QUANT_DEFAULT_CFG);
}

// ---- The dstT form (Ascend 950): per channel --------------------------------

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<srcT>& scaleTensor,
                                   const srcT offset, const uint32_t scaleCount,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor, nullptr,
      offset, scaleCount, 0, calCount, true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(
    const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer,
    const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor,
    const uint32_t scaleCount, const uint32_t offsetCount,
    const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor,
      &offsetTensor, srcT{}, scaleCount, offsetCount, calCount, true,
      ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<srcT>& scaleTensor,
                                   const srcT offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor, nullptr,
      offset, normgrad_ascendc::QuantArgs::kWhole, 0,
      normgrad_ascendc::QuantArgs::kWhole, true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const LocalTensor<srcT>& scaleTensor,
                                   const LocalTensor<srcT>& offsetTensor,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, &sharedTmpBuffer, scaleTensor,
      &offsetTensor, srcT{}, normgrad_ascendc::QuantArgs::kWhole,
      normgrad_ascendc::QuantArgs::kWhole, normgrad_ascendc::QuantArgs::kWhole,
      true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<srcT>& scaleTensor,
                                   const srcT offset, const uint32_t scaleCount,
                                   const uint32_t calCount,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, nullptr, offset,
      scaleCount, 0, calCount, true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(
    const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor,
    const uint32_t scaleCount, const uint32_t offsetCount,
    const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, &offsetTensor,
      srcT{}, scaleCount, offsetCount, calCount, true,
      ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<srcT>& scaleTensor,
                                   const srcT offset,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, nullptr, offset,
      normgrad_ascendc::QuantArgs::kWhole, 0,
      normgrad_ascendc::QuantArgs::kWhole, true, ASCEND_QUANT_DEFAULT_CFG);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<dstT>& dstTensor,
                                   const LocalTensor<srcT>& srcTensor,
                                   const LocalTensor<srcT>& scaleTensor,
                                   const LocalTensor<srcT>& offsetTensor,
                                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_QUANT_GENERIC_CHECK
  normgrad_ascendc::QuantPerChannel<srcT>(
      site, dstTensor.view(), srcTensor, nullptr, scaleTensor, &offsetTensor,
      srcT{}, normgrad_ascendc::QuantArgs::kWhole,
      normgrad_ascendc::QuantArgs::kWhole, normgrad_ascendc::QuantArgs::kWhole,
      true, ASCEND_QUANT_DEFAULT_CFG);
}

#undef NORMGRAD_QUANT_T_CHECK
#undef NORMGRAD_QUANT_GENERIC_CHECK

}  // namespace AscendC
