// lib/quant/quantize.h — the kernel-side Quantize API of Ascend C on the
// Ascend 950 (the contract: docs/quant.md): dstTensor = int8(src · scale +
// offset) over an [m, n] source, rounded by config.roundMode, with scale and
// offset per tensor, channel, token or group (config.policy). DstT int8_t;
// SrcT half, bfloat16_t or float; scale and offset of SrcT or float. The
// overloads: sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/quant/quantize_call.h"

namespace normgrad_ascendc {

/// The compile-time rules of a Quantize call, one message each.
template <const AscendC::QuantizeConfig& config, typename D, typename S,
          typename ScaleT, typename OffsetT>
constexpr bool QuantizeTypesOk() {
  using Sc = QuantParamElement<ScaleT>;
  using Of = QuantParamElement<OffsetT>;
  constexpr auto policy = static_cast<QuantPolicy>(config.policy);
  static_assert(std::is_same_v<D, int8_t>,
                "Quantize: DstT must be int8_t (normgrad does not model the "
                "8-bit and 4-bit float types)");
  static_assert(std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t> ||
                    std::is_same_v<S, float>,
                "Quantize: SrcT must be half, bfloat16_t or float");
  static_assert(std::is_same_v<Sc, S> || std::is_same_v<Sc, float>,
                "Quantize: the scale's type must be SrcT or float");
  static_assert(!QuantParam<OffsetT>::kTensor || std::is_same_v<Of, Sc>,
                "Quantize: an offset tensor must have the scale's type");
  static_assert(std::is_arithmetic_v<Of> || kIsQuantType<Of>,
                "Quantize: the offset must be a LocalTensor or a scalar");
  static_assert(QuantParamFits<ScaleT>(policy, false),
                "Quantize: the scale must be a scalar with PER_TENSOR and a "
                "LocalTensor with the other policies");
  static_assert(QuantParamFits<OffsetT>(policy, true),
                "Quantize: the offset must be a scalar with PER_TENSOR");
  static_assert(config.kDim == 0 || config.kDim == 1,
                "Quantize: config.kDim must be 0 or 1");
  return true;
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <const QuantizeConfig& config, typename DstT, typename SrcT,
          typename ScaleT, typename OffsetT>
__aicore__ inline void Quantize(const LocalTensor<DstT>& dstTensor,
                                const LocalTensor<SrcT>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const ScaleT& scale, const OffsetT& offset,
                                const QuantizeParams& params,
                                normgrad_ascendc::CallSite site = {}) {
  static_assert(
      normgrad_ascendc::QuantizeTypesOk<config, DstT, SrcT, ScaleT, OffsetT>());
  normgrad_ascendc::QuantizeCall(
      site, normgrad_ascendc::QuantizeApi::kQuantize, dstTensor, srcTensor,
      scale, offset, &sharedTmpBuffer,
      static_cast<normgrad_ascendc::QuantPolicy>(config.policy),
      config.hasOffset, config.roundMode, config.kDim, params.m, params.n,
      params.groupSize);
}

template <const QuantizeConfig& config, typename DstT, typename SrcT,
          typename ScaleT, typename OffsetT>
__aicore__ inline void Quantize(const LocalTensor<DstT>& dstTensor,
                                const LocalTensor<SrcT>& srcTensor,
                                const ScaleT& scale, const OffsetT& offset,
                                const QuantizeParams& params,
                                normgrad_ascendc::CallSite site = {}) {
  static_assert(
      normgrad_ascendc::QuantizeTypesOk<config, DstT, SrcT, ScaleT, OffsetT>());
  normgrad_ascendc::QuantizeCall(
      site, normgrad_ascendc::QuantizeApi::kQuantize, dstTensor, srcTensor,
      scale, offset, nullptr,
      static_cast<normgrad_ascendc::QuantPolicy>(config.policy),
      config.hasOffset, config.roundMode, config.kDim, params.m, params.n,
      params.groupSize);
}

}  // namespace AscendC
