// lib/math/power.h — the kernel-side Power API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"): dstTensor[i] = base^exp,
// with base and exp each a tensor's element or a scalar (tensor/tensor,
// tensor/scalar, scalar/tensor), for i < calCount or every element of the
// source tensor(s). T = half, float and int32_t on every profile; also
// int8_t, uint8_t, int16_t, uint16_t, uint32_t and bfloat16_t on Ascend
// 950. PowerConfig (Ascend 950 only beyond the default): algo INTRINSIC
// (not bfloat16_t) or DOUBLE_FLOAT_TECH (half, bfloat16_t, float); both
// give the same results here. The overloads: sharedTmpBuffer or the
// framework scratch, each with calCount or over the whole source.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

enum class PowerAlgo {
  INTRINSIC = 0,
  DOUBLE_FLOAT_TECH,
};

struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};

inline constexpr PowerConfig defaultPowerConfig = {};

#define NORMGRAD_POWER_FORMS(FORMS, params, operands, ...)                    \
  FORMS(Power,                                                                \
        (template <typename T, bool isReuseSource = false,                    \
                   const PowerConfig& config = defaultPowerConfig>            \
         ),                                                                   \
        T, params, operands,                                                  \
        (static_assert(                                                       \
             std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||      \
                 std::is_same_v<T, float> || std::is_same_v<T, int8_t> ||     \
                 std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||  \
                 std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || \
                 std::is_same_v<T, uint32_t>,                                 \
             "Power: T must be half, bfloat16_t, float, int8_t, "             \
             "uint8_t, int16_t, uint16_t, int32_t or uint32_t");              \
         static_assert(config.algo == PowerAlgo::DOUBLE_FLOAT_TECH ||         \
                           !std::is_same_v<T, bfloat16_t>,                    \
                       "Power: bfloat16_t takes PowerConfig::algo "           \
                       "DOUBLE_FLOAT_TECH only");                             \
         static_assert(config.algo == PowerAlgo::INTRINSIC ||                 \
                           normgrad_ascendc::kIsMathFloating<T>,              \
                       "Power: PowerConfig::algo DOUBLE_FLOAT_TECH takes "    \
                       "half, bfloat16_t or float only")),                    \
        __VA_ARGS__)

#define NORMGRAD_POWER_SHAPE(params, operands)                              \
  NORMGRAD_POWER_FORMS(NORMGRAD_MATH_SCRATCH_FORMS, params, operands,       \
                       calCount, static_cast<uint32_t>(config.algo))        \
  NORMGRAD_POWER_FORMS(NORMGRAD_MATH_SCRATCH_WHOLE_FORMS, params, operands, \
                       static_cast<uint32_t>(config.algo))

// Tensor base, tensor exponent.
NORMGRAD_POWER_SHAPE((const LocalTensor<T>& src0Tensor,
                      const LocalTensor<T>& src1Tensor),
                     (normgrad_ascendc::OperandOf(src0Tensor),
                      normgrad_ascendc::OperandOf(src1Tensor)))
// Tensor base, scalar exponent.
NORMGRAD_POWER_SHAPE((const LocalTensor<T>& src0Tensor, const T& src1Scalar),
                     (normgrad_ascendc::OperandOf(src0Tensor),
                      normgrad_ascendc::OperandOf(src1Scalar)))
// Scalar base, tensor exponent.
NORMGRAD_POWER_SHAPE((const T& src0Scalar, const LocalTensor<T>& src1Tensor),
                     (normgrad_ascendc::OperandOf(src0Scalar),
                      normgrad_ascendc::OperandOf(src1Tensor)))

#undef NORMGRAD_POWER_SHAPE
#undef NORMGRAD_POWER_FORMS

}  // namespace AscendC
