// normgrad_ascendc/lib/quant/quantize_call.h — the call shape Quantize,
// Dequantize and AntiQuantize share (the Ascend 950's quantization APIs; the
// contract: docs/quant.md, "Quantize, Dequantize and AntiQuantize"): their
// documented configs and params, a call with its types erased
// (QuantizeArgs) that RunQuantize (src/ascendc/lib/quant/quantize.cc)
// checks and computes, and QuantizeCall, the body of every overload. A
// call computes on an [m, n] source with scale and offset per tensor
// (scalars), per channel ([1, n]), per token ([m, 1]) or per group of
// groupSize rows (kDim 0) or columns (kDim 1).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/lib/quant/quant_call.h"
#include "normgrad_ascendc/vector/vector_convert.h"

namespace AscendC {

enum class QuantizePolicy : int32_t {
  PER_TENSOR,
  PER_CHANNEL,
  PER_TOKEN,
  PER_GROUP
};

struct QuantizeConfig {
  QuantizePolicy policy;
  bool hasOffset;
  RoundMode roundMode = RoundMode::CAST_RINT;
  int32_t kDim = 1;
};

struct QuantizeParams {
  uint32_t m;
  uint32_t n;
  uint32_t groupSize = 0;
};

enum class DequantizePolicy : int32_t {
  PER_TENSOR,
  PER_CHANNEL,
  PER_TOKEN,
  PER_GROUP
};

/// hasOffset is reserved: false only.
struct DequantizeConfig {
  DequantizePolicy policy;
  bool hasOffset = false;
  int32_t kDim = 1;
};

struct DequantizeParams {
  uint32_t m;
  uint32_t n;
  uint32_t groupSize = 0;
};

enum class AntiQuantizePolicy : int32_t {
  PER_TENSOR,
  PER_CHANNEL,
  PER_TOKEN,
  PER_GROUP
};

struct AntiQuantizeConfig {
  AntiQuantizePolicy policy;
  bool hasOffset;
  int32_t kDim = 1;
};

struct AntiQuantizeParams {
  uint32_t m;
  uint32_t n;
  uint32_t groupSize = 0;
};

}  // namespace AscendC

namespace normgrad_ascendc {

enum class QuantizeApi : uint8_t { kQuantize, kDequantize, kAntiQuantize };

/// The policies of the three APIs, in their common order.
enum class QuantPolicy : uint8_t {
  kPerTensor,
  kPerChannel,
  kPerToken,
  kPerGroup
};

/// A Quantize, Dequantize or AntiQuantize call with its types erased. A
/// scale or offset given as a scalar has a null tensor and its value as a
/// float.
struct QuantizeArgs {
  QuantizeApi api = QuantizeApi::kQuantize;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp = nullptr;
  const TensorView* scale_tensor = nullptr;
  const TensorView* offset_tensor = nullptr;
  QuantType dst_type = QuantType::kInt8;
  QuantType src_type = QuantType::kHalf;
  QuantType scale_type = QuantType::kHalf;
  float scale = 0;
  float offset = 0;
  QuantPolicy policy = QuantPolicy::kPerTensor;
  bool has_offset = false;
  AscendC::RoundMode round = AscendC::RoundMode::CAST_RINT;
  int32_t k_dim = 1;
  uint32_t m = 0;
  uint32_t n = 0;
  uint32_t group_size = 0;
};

void RunQuantize(const QuantizeArgs& a);

/// A scale or offset argument: a LocalTensor or a scalar.
template <typename P>
struct QuantParam {
  static constexpr bool kTensor = false;
  using Element = P;
};
template <typename T>
struct QuantParam<AscendC::LocalTensor<T>> {
  static constexpr bool kTensor = true;
  using Element = T;
};

/// The element type of a scale or offset argument.
template <typename P>
using QuantParamElement = typename QuantParam<P>::Element;

/// Whether a policy takes this scale or offset argument: a scalar per
/// tensor, a tensor otherwise (`offset_scalar_ok`: Quantize's offset may be
/// a scalar with any policy).
template <typename P>
constexpr bool QuantParamFits(QuantPolicy policy, bool offset_scalar_ok) {
  if (policy == QuantPolicy::kPerTensor) return !QuantParam<P>::kTensor;
  return QuantParam<P>::kTensor || offset_scalar_ok;
}

/// The body of every overload of the three APIs.
template <typename D, typename S, typename ScaleT, typename OffsetT>
void QuantizeCall(const CallSite& site, QuantizeApi api,
                  const AscendC::LocalTensor<D>& dst,
                  const AscendC::LocalTensor<S>& src, const ScaleT& scale,
                  const OffsetT& offset,
                  const AscendC::LocalTensor<uint8_t>* tmp, QuantPolicy policy,
                  bool has_offset, AscendC::RoundMode round, int32_t k_dim,
                  uint32_t m, uint32_t n, uint32_t group_size) {
  const ApiCall call(site);
  QuantizeArgs a{};
  a.api = api;
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = tmp != nullptr ? &tmp->view() : nullptr;
  a.dst_type = QuantTypeOf<D>();
  a.src_type = QuantTypeOf<S>();
  a.scale_type = QuantTypeOf<QuantParamElement<ScaleT>>();
  if constexpr (QuantParam<ScaleT>::kTensor) {
    a.scale_tensor = &scale.view();
  } else {
    a.scale = static_cast<float>(scale);
  }
  if constexpr (QuantParam<OffsetT>::kTensor) {
    a.offset_tensor = &offset.view();
  } else {
    a.offset = static_cast<float>(offset);
  }
  a.policy = policy;
  a.has_offset = has_offset;
  a.round = round;
  a.k_dim = k_dim;
  a.m = m;
  a.n = n;
  a.group_size = group_size;
  RunQuantize(a);
}

}  // namespace normgrad_ascendc
