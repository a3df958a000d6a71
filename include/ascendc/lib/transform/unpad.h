// lib/transform/unpad.h — the kernel-side UnPad API of Ascend C (the
// contract: docs/transform.md): rightPad columns removed from the right of
// each row of a height x width tensor whose rows are 32-byte aligned; the
// rows of the result are packed. The overloads: sharedTmpBuffer or the
// framework scratch; the shape comes from an UnPadTiling that
// UnPadTilingFunc filled.
#pragma once

#include "lib/transform/pad.h"

namespace normgrad_ascendc {

/// The body of UnPad's overloads.
template <typename T>
void UnPadCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src,
               const AscendC::UnPadParams& params, const TensorView* shared_tmp,
               const AscendC::tiling::UnPadTiling& tiling) {
  const ApiCall call(site);
  PadArgs a{};
  a.unpad = true;
  a.type = TransformElemOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.left = params.leftPad;
  a.right = params.rightPad;
  a.unpad_tiling = &tiling;
  RunPad(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor,
                             const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams,
                             LocalTensor<uint8_t>& sharedTmpBuffer,
                             UnPadTiling& tiling,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsPadElement<T>,
                "UnPad: T must be int16_t, uint16_t, half, int32_t, uint32_t "
                "or float");
  normgrad_ascendc::UnPadCall(site, dstTensor, srcTensor, unPadParams,
                              &sharedTmpBuffer.view(), tiling);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor,
                             const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, UnPadTiling& tiling,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsPadElement<T>,
                "UnPad: T must be int16_t, uint16_t, half, int32_t, uint32_t "
                "or float");
  normgrad_ascendc::UnPadCall(site, dstTensor, srcTensor, unPadParams, nullptr,
                              tiling);
}

}  // namespace AscendC
