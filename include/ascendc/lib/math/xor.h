// lib/math/xor.h — the kernel-side Xor API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"): dstTensor[i] =
// src0Tensor[i] ^ src1Tensor[i], bit by bit, for i < calCount or every
// element of src0Tensor (then src1Tensor holds as many). T = int16_t or
// uint16_t on every profile; the overloads: sharedTmpBuffer or the
// framework scratch, each with calCount or over the whole sources.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

#define NORMGRAD_XOR_TYPES                                                 \
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>, \
                "Xor: T must be int16_t or uint16_t")

NORMGRAD_MATH_SCRATCH_FORMS(
    Xor, (template <typename T, bool isReuseSource = false>), T,
    (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor),
    (normgrad_ascendc::OperandOf(src0Tensor),
     normgrad_ascendc::OperandOf(src1Tensor)),
    (NORMGRAD_XOR_TYPES), calCount, 0)

NORMGRAD_MATH_SCRATCH_WHOLE_FORMS(
    Xor, (template <typename T, bool isReuseSource = false>), T,
    (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor),
    (normgrad_ascendc::OperandOf(src0Tensor),
     normgrad_ascendc::OperandOf(src1Tensor)),
    (NORMGRAD_XOR_TYPES), 0)

#undef NORMGRAD_XOR_TYPES

}  // namespace AscendC
