// lib/quant/antiquantize.h — the kernel-side AntiQuantize API of Ascend C on
// the Ascend 950 (the contract: docs/quant.md): dstTensor = DstT((src +
// offset) · scale) over an [m, n] int8_t source, with scale and offset per
// tensor, channel, token or group (config.policy); without offset when
// config.hasOffset is false. The types are the page's tables for int8_t
// sources. The overloads: sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/quant/quantize_call.h"

namespace normgrad_ascendc {

/// The page's (DstT, scale) pairs of a policy for an int8_t source.
template <typename D, typename Sc>
constexpr bool AntiQuantizePair(QuantPolicy policy) {
  constexpr bool same =
      (std::is_same_v<D, half> && std::is_same_v<Sc, half>) ||
      (std::is_same_v<D, bfloat16_t> && std::is_same_v<Sc, bfloat16_t>);
  if (policy == QuantPolicy::kPerTensor || policy == QuantPolicy::kPerChannel) {
    return same;
  }
  return same || (std::is_same_v<Sc, float> &&
                  (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> ||
                   std::is_same_v<D, float>));
}

template <const AscendC::AntiQuantizeConfig& config, typename D, typename S,
          typename ScaleT, typename OffsetT>
constexpr bool AntiQuantizeTypesOk() {
  constexpr auto policy = static_cast<QuantPolicy>(config.policy);
  static_assert(std::is_same_v<S, int8_t>,
                "AntiQuantize: SrcT must be int8_t (normgrad does not model "
                "the 8-bit and 4-bit float types)");
  static_assert(AntiQuantizePair<D, QuantParamElement<ScaleT>>(policy),
                "AntiQuantize: (DstT, scale type) is not in the page's table "
                "for this policy");
  static_assert(
      std::is_same_v<QuantParamElement<OffsetT>, QuantParamElement<ScaleT>>,
      "AntiQuantize: the offset must have the scale's type");
  static_assert(QuantParamFits<ScaleT>(policy, false) &&
                    QuantParamFits<OffsetT>(policy, false),
                "AntiQuantize: scale and offset must be scalars with "
                "PER_TENSOR and LocalTensors with the other policies");
  static_assert(config.kDim == 0 || config.kDim == 1,
                "AntiQuantize: config.kDim must be 0 or 1");
  return true;
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <const AntiQuantizeConfig& config, typename DstT, typename SrcT,
          typename ScaleT, typename OffsetT>
__aicore__ inline void AntiQuantize(const LocalTensor<DstT>& dstTensor,
                                    const LocalTensor<SrcT>& srcTensor,
                                    const ScaleT& scale, const OffsetT& offset,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const AntiQuantizeParams& params,
                                    normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::AntiQuantizeTypesOk<config, DstT, SrcT,
                                                      ScaleT, OffsetT>());
  normgrad_ascendc::QuantizeCall(
      site, normgrad_ascendc::QuantizeApi::kAntiQuantize, dstTensor, srcTensor,
      scale, offset, &sharedTmpBuffer,
      static_cast<normgrad_ascendc::QuantPolicy>(config.policy),
      config.hasOffset, RoundMode::CAST_RINT, config.kDim, params.m, params.n,
      params.groupSize);
}

template <const AntiQuantizeConfig& config, typename DstT, typename SrcT,
          typename ScaleT, typename OffsetT>
__aicore__ inline void AntiQuantize(const LocalTensor<DstT>& dstTensor,
                                    const LocalTensor<SrcT>& srcTensor,
                                    const ScaleT& scale, const OffsetT& offset,
                                    const AntiQuantizeParams& params,
                                    normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::AntiQuantizeTypesOk<config, DstT, SrcT,
                                                      ScaleT, OffsetT>());
  normgrad_ascendc::QuantizeCall(
      site, normgrad_ascendc::QuantizeApi::kAntiQuantize, dstTensor, srcTensor,
      scale, offset, nullptr,
      static_cast<normgrad_ascendc::QuantPolicy>(config.policy),
      config.hasOffset, RoundMode::CAST_RINT, config.kDim, params.m, params.n,
      params.groupSize);
}

}  // namespace AscendC
