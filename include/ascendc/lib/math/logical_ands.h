// lib/math/logical_ands.h — the kernel-side LogicalAnds API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"), Ascend 950 only:
// LogicalAnd with one source a scalar — a value, or element 0 of a LocalTensor
// — and the other a LocalTensor, in either order. When both are LocalTensors,
// config.scalarTensorIndex says which one stands for a scalar (0: src0,
// 1: src1, the default). T (dst) = bool; U, S (src0, src1) = bool, an
// integer type, half, bfloat16_t or float, or LocalTensors of them.
// LogicalAndsConfig::isReuseSource is reserved by the documentation and changes
// nothing.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

struct LogicalAndsConfig {
  bool isReuseSource;
  int8_t scalarTensorIndex;
};

inline constexpr LogicalAndsConfig DEFAULT_LOGICAL_ANDS_CONFIG = {false, 1};

template <const LogicalAndsConfig& config = DEFAULT_LOGICAL_ANDS_CONFIG,
          typename T, typename U, typename S>
__aicore__ inline void LogicalAnds(const LocalTensor<T>& dst, const U& src0,
                                   const S& src1, const uint32_t count,
                                   normgrad_ascendc::CallSite site = {}) {
  using normgrad_ascendc::OperandTraits;
  static_assert(std::is_same_v<T, bool> &&
                    normgrad_ascendc::kIsMathBoolOrNumber<
                        normgrad_ascendc::OperandElement<U>> &&
                    normgrad_ascendc::kIsMathBoolOrNumber<
                        normgrad_ascendc::OperandElement<S>>,
                "LogicalAnds: T (dst) must be bool and src0, src1 bool, an "
                "integer type, half, bfloat16_t or float (or LocalTensors "
                "of them)");
  static_assert(OperandTraits<U>::kIsTensor || OperandTraits<S>::kIsTensor,
                "LogicalAnds: src0 or src1 must be a LocalTensor (two scalars "
                "are not supported)");
  static_assert(config.scalarTensorIndex == 0 || config.scalarTensorIndex == 1,
                "LogicalAnds: config.scalarTensorIndex must be 0 (src0 is the "
                "scalar) or 1 (src1 is)");
  constexpr bool kBothTensors =
      OperandTraits<U>::kIsTensor && OperandTraits<S>::kIsTensor;
  normgrad_ascendc::MathCall<T>(
      normgrad_ascendc::MathCallApi::kLogicalAnds, site, dst,
      normgrad_ascendc::MathScratch::kNone, nullptr, count,
      {normgrad_ascendc::OperandOf(
           src0, kBothTensors && config.scalarTensorIndex == 0),
       normgrad_ascendc::OperandOf(
           src1, kBothTensors && config.scalarTensorIndex == 1)});
}

}  // namespace AscendC
