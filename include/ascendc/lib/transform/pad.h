// lib/transform/pad.h — the kernel-side Pad API of Ascend C (the contract:
// docs/transform.md): each row of a height x width tensor widened to its
// 32-byte aligned width, with leftPad and rightPad columns of padValue around
// the data. The overloads: sharedTmpBuffer or the framework scratch; the
// shape comes from a PadTiling that PadTilingFunc filled.
#pragma once

#include "normgrad_ascendc/lib/transform/transform_call.h"

namespace normgrad_ascendc {

/// The element types of Pad and UnPad (every profile).
template <typename T>
inline constexpr bool kIsPadElement =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

/// The body of Pad's overloads.
template <typename T>
void PadCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
             const AscendC::LocalTensor<T>& src,
             const AscendC::PadParams& params, const TensorView* shared_tmp,
             const AscendC::tiling::PadTiling& tiling) {
  const ApiCall call(site);
  PadArgs a{};
  a.unpad = false;
  a.type = TransformElemOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.left = params.leftPad;
  a.right = params.rightPad;
  a.pad_value = params.padValue;
  a.pad_tiling = &tiling;
  RunPad(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor,
                           const LocalTensor<T>& srcTensor,
                           PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                           PadTiling& tiling,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsPadElement<T>,
                "Pad: T must be int16_t, uint16_t, half, int32_t, uint32_t or "
                "float");
  normgrad_ascendc::PadCall(site, dstTensor, srcTensor, padParams,
                            &sharedTmpBuffer.view(), tiling);
}

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor,
                           const LocalTensor<T>& srcTensor,
                           PadParams& padParams, PadTiling& tiling,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsPadElement<T>,
                "Pad: T must be int16_t, uint16_t, half, int32_t, uint32_t or "
                "float");
  normgrad_ascendc::PadCall(site, dstTensor, srcTensor, padParams, nullptr,
                            tiling);
}

}  // namespace AscendC
