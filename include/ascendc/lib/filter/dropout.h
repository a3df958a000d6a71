// lib/filter/dropout.h — the kernel-side DropOut API of Ascend C (the
// contract: docs/filter.md): dst = kept ? src / keepProb : 0 element by
// element, "kept" read from a uint8_t mask of one byte per element (byte
// mode) or one bit per element (bit mode), with or without padding in the
// mask rows (dropOutMode 1 to 4; 0 infers the mode from the shape).
// T: half, float (bfloat16_t too on the 950 profile); the overloads:
// sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/filter/filter_call.h"

namespace normgrad_ascendc {

/// The body of both overloads.
template <typename T, uint32_t dropOutMode>
void DropOutCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<uint8_t>& mask,
                 const TensorView* shared_tmp, float keep_prob,
                 const AscendC::DropOutShapeInfo& info) {
  static_assert(kIsHalfFloatOrBfloat16<T>,
                "DropOut: T must be half, float or bfloat16_t");
  static_assert(dropOutMode <= 4, "DropOut: dropOutMode must be 0 to 4");
  const ApiCall call(site);
  DropOutArgs a{};
  a.dst = dst.view();
  a.src = src.view();
  a.mask = mask.view();
  a.shared_tmp = shared_tmp;
  a.type = ElementTypeOf<T>();
  a.keep_prob = keep_prob;
  a.mode = dropOutMode;
  a.info = info;
  RunDropOut(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// isInitBitMode changes nothing here: the mask is only read
/// (docs/decisions.md, "Filter, index, random and the Std utilities").
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal,
                               const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal,
                               const float keepProb,
                               const DropOutShapeInfo& info,
                               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DropOutCall<T, dropOutMode>(
      site, dstLocal, srcLocal, maskLocal, nullptr, keepProb, info);
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal,
                               const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal,
                               const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb,
                               const DropOutShapeInfo& info,
                               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DropOutCall<T, dropOutMode>(
      site, dstLocal, srcLocal, maskLocal, &sharedTmpBuffer.view(), keepProb,
      info);
}

}  // namespace AscendC
