// lib/transform/transpose.h — the kernel-side Transpose API of Ascend C (the
// contract: docs/transform.md): the layout changes of TransposeType, with the
// shape from a ConfusionTransposeTiling that GetTransposeTilingInfo filled.
// The overloads: sharedTmpBuffer or the framework scratch. T is checked per
// scenario and profile when the kernel runs.
#pragma once

#include "normgrad_ascendc/lib/transform/transform_call.h"

namespace normgrad_ascendc {

/// The element types of some Transpose scenario (which scenario and profile
/// take which is checked when the kernel runs).
template <typename T>
inline constexpr bool kIsTransposeElement =
    kIsTransformElement<T> && !std::is_same_v<T, int64_t> &&
    !std::is_same_v<T, uint64_t>;

/// The body of Transpose's overloads.
template <typename T>
void TransposeCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src,
                   const TensorView* shared_tmp, AscendC::TransposeType type,
                   const AscendC::tiling::ConfusionTransposeTiling& tiling) {
  const ApiCall call(site);
  TransposeArgs a{};
  a.type = TransformElemOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.transpose_type = type;
  a.tiling = &tiling;
  RunTranspose(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst,
                                 const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling,
                                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsTransposeElement<T>,
                "Transpose: T must be int8_t, uint8_t, int16_t, uint16_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  normgrad_ascendc::TransposeCall(site, dst, src, &sharedTmpBuffer.view(),
                                  transposeType, tiling);
}

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst,
                                 const LocalTensor<T>& src,
                                 TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling,
                                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsTransposeElement<T>,
                "Transpose: T must be int8_t, uint8_t, int16_t, uint16_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  normgrad_ascendc::TransposeCall(site, dst, src, nullptr, transposeType,
                                  tiling);
}

}  // namespace AscendC
