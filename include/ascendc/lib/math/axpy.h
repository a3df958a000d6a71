// lib/math/axpy.h — the kernel-side advanced Axpy API of Ascend C (the
// contract: docs/math.md, "Binary, logical and bitwise"): dstTensor[i] +=
// srcTensor[i] * scalarValue, for i < calCount, as a Muls then an Add (the
// product rounded to dstTensor's type, then the sum). (T, U) = (half,
// half), (float, float) or (float, half) on every profile; one overload,
// with sharedTmpBuffer. The basic API's Axpy (dst, src, scalar, count) is
// vector_compound.h's; this one takes the scratch.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor,
                            const LocalTensor<U>& srcTensor,
                            const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<U> &&
                    (std::is_same_v<T, U> || std::is_same_v<T, float>),
                "Axpy: (T, U) must be (half, half), (float, float) or "
                "(float, half)");
  normgrad_ascendc::MathCall<T>(
      normgrad_ascendc::MathCallApi::kAxpy, site, dstTensor,
      normgrad_ascendc::MathScratch::kShared, &sharedTmpBuffer, calCount,
      {normgrad_ascendc::OperandOf(srcTensor),
       normgrad_ascendc::OperandOf(scalarValue)});
}

}  // namespace AscendC
