// lib/filter/select.h — the kernel-side Select advanced API of Ascend C (the
// contract: docs/filter.md): dst = mask == 0 ? src0 : src1 element by
// element, where one of src0 and src1 is a tensor of firstAxis rows of
// srcLastAxis elements and the other a scalar, and the mask (bool or an
// integer type, one value per element) has rows of maskLastAxis elements.
// T: half, float; U: bool, int8_t, uint8_t, int16_t, uint16_t, int32_t,
// uint32_t. These overloads take a mask *tensor* and a
// SelectWithBytesMaskShapeInfo; the basic Select instruction
// (vector_select.h, a bit mask and a SELMODE) is a different overload set.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/lib/filter/filter_call.h"
#include "normgrad_ascendc/vector/vector_instruction.h"

namespace normgrad_ascendc {

/// U is a mask type Select takes.
template <typename U>
inline constexpr bool kIsSelectMask =
    std::is_same_v<U, bool> || std::is_same_v<U, int8_t> ||
    std::is_same_v<U, uint8_t> || std::is_same_v<U, int16_t> ||
    std::is_same_v<U, uint16_t> || std::is_same_v<U, int32_t> ||
    std::is_same_v<U, uint32_t>;

/// The body of both overloads.
template <typename T, typename U>
void SelectCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, T scalar, bool scalar_first,
                const AscendC::LocalTensor<U>& mask,
                const AscendC::LocalTensor<uint8_t>& tmp, bool reuse_mask,
                const AscendC::SelectWithBytesMaskShapeInfo& info) {
  static_assert(kIsHalfOrFloat<T>, "Select: T must be half or float");
  static_assert(kIsSelectMask<U>,
                "Select: U must be bool, int8_t, uint8_t, int16_t, uint16_t, "
                "int32_t or uint32_t");
  const ApiCall call(site);
  SelectArgs a{};
  a.dst = dst.view();
  a.src = src.view();
  a.mask = mask.view();
  a.shared_tmp = &tmp.view();
  a.is_half = std::is_same_v<T, half>;
  a.mask_bytes = sizeof(U);
  a.scalar_first = scalar_first;
  a.scalar = static_cast<float>(scalar);
  a.reuse_mask = reuse_mask;
  a.info = info;
  RunSelect(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = mask[i] == 0 ? src0[i] : src1 (the tensor first).
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(
    const LocalTensor<T>& dst, const LocalTensor<T>& src0,
    typename normgrad_ascendc::NonDeduced<T>::type src1,
    const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const SelectWithBytesMaskShapeInfo& info,
    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<T, U>(site, dst, src0, src1, false, mask,
                                     sharedTmpBuffer, isReuseMask, info);
}

/// dst[i] = mask[i] == 0 ? src0 : src1[i] (the scalar first).
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(
    const LocalTensor<T>& dst,
    typename normgrad_ascendc::NonDeduced<T>::type src0,
    const LocalTensor<T>& src1, const LocalTensor<U>& mask,
    const LocalTensor<uint8_t>& sharedTmpBuffer,
    const SelectWithBytesMaskShapeInfo& info,
    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SelectCall<T, U>(site, dst, src1, src0, true, mask,
                                     sharedTmpBuffer, isReuseMask, info);
}

}  // namespace AscendC
