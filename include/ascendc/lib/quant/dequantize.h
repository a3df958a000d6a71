// lib/quant/dequantize.h — the kernel-side Dequantize API of Ascend C on the
// Ascend 950 (the contract: docs/quant.md): dstTensor = DstT(src · scale)
// over an [m, n] source, with the scale per tensor, channel, token or group
// (config.policy). The types are the page's table (src int32_t, or float per
// token and per group); the offset is reserved (config.hasOffset false, the
// offset 0 or a tensor, unused). The overloads: sharedTmpBuffer or the
// framework scratch.
#pragma once

#include "normgrad_ascendc/lib/quant/quantize_call.h"

namespace normgrad_ascendc {

/// The page's (DstT, SrcT, scale) triples of a policy.
template <typename D, typename S, typename Sc>
constexpr bool DequantizeTriple(QuantPolicy policy) {
  constexpr bool i32 = std::is_same_v<S, int32_t>;
  constexpr bool dh = std::is_same_v<D, half>;
  constexpr bool db = std::is_same_v<D, bfloat16_t>;
  constexpr bool df = std::is_same_v<D, float>;
  constexpr bool sh = std::is_same_v<Sc, half>;
  constexpr bool sb = std::is_same_v<Sc, bfloat16_t>;
  constexpr bool sf = std::is_same_v<Sc, float>;
  switch (policy) {
    case QuantPolicy::kPerTensor:
      return i32 && (db || df) && (sb || sf);
    case QuantPolicy::kPerChannel:
      return i32 && ((dh && std::is_same_v<Sc, uint64_t>) ||
                     ((db || df) && (sb || sf)));
    case QuantPolicy::kPerToken:
    case QuantPolicy::kPerGroup:
      break;
  }
  const bool same = (dh && sh) || (db && sb) || (df && sf);
  return (i32 && (same || ((dh || db) && sf))) ||
         (std::is_same_v<S, float> && same);
}

template <const AscendC::DequantizeConfig& config, typename D, typename S,
          typename ScaleT, typename OffsetT>
constexpr bool DequantizeTypesOk() {
  constexpr auto policy = static_cast<QuantPolicy>(config.policy);
  static_assert(DequantizeTriple<D, S, QuantParamElement<ScaleT>>(policy),
                "Dequantize: (DstT, SrcT, scale type) is not in the page's "
                "table for this policy");
  static_assert(!config.hasOffset,
                "Dequantize: config.hasOffset is reserved: it must be false");
  static_assert(QuantParamFits<ScaleT>(policy, false),
                "Dequantize: the scale must be a scalar with PER_TENSOR and a "
                "LocalTensor with the other policies");
  static_assert(QuantParamFits<OffsetT>(policy, false),
                "Dequantize: the offset must be a scalar (0) with PER_TENSOR "
                "and a LocalTensor with the other policies");
  static_assert(config.kDim == 0 || config.kDim == 1,
                "Dequantize: config.kDim must be 0 or 1");
  return true;
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <const DequantizeConfig& config, typename DstT, typename SrcT,
          typename ScaleT, typename OffsetT>
__aicore__ inline void Dequantize(const LocalTensor<DstT>& dstTensor,
                                  const LocalTensor<SrcT>& srcTensor,
                                  const ScaleT& scale, const OffsetT& offset,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const DequantizeParams& params,
                                  normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::DequantizeTypesOk<config, DstT, SrcT, ScaleT,
                                                    OffsetT>());
  normgrad_ascendc::QuantizeCall(
      site, normgrad_ascendc::QuantizeApi::kDequantize, dstTensor, srcTensor,
      scale, offset, &sharedTmpBuffer,
      static_cast<normgrad_ascendc::QuantPolicy>(config.policy), false,
      RoundMode::CAST_RINT, config.kDim, params.m, params.n, params.groupSize);
}

template <const DequantizeConfig& config, typename DstT, typename SrcT,
          typename ScaleT, typename OffsetT>
__aicore__ inline void Dequantize(const LocalTensor<DstT>& dstTensor,
                                  const LocalTensor<SrcT>& srcTensor,
                                  const ScaleT& scale, const OffsetT& offset,
                                  const DequantizeParams& params,
                                  normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::DequantizeTypesOk<config, DstT, SrcT, ScaleT,
                                                    OffsetT>());
  normgrad_ascendc::QuantizeCall(
      site, normgrad_ascendc::QuantizeApi::kDequantize, dstTensor, srcTensor,
      scale, offset, nullptr,
      static_cast<normgrad_ascendc::QuantPolicy>(config.policy), false,
      RoundMode::CAST_RINT, config.kDim, params.m, params.n, params.groupSize);
}

}  // namespace AscendC
