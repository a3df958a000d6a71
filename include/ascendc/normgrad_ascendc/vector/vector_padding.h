// normgrad_ascendc/vector/vector_padding.h — VectorPadding (docs/runtime.md,
// "Padding by data block"), on the Atlas inference series.
//
// Each destination data block (32 bytes: 16 elements of 2 bytes, 8 of 4)
// is the padding its page draws beside the matching source block a … p,
// filling the whole block (the page's example turns a block into 16 copies
// of its first value):
//   padMode 0: the nearest value repeated — a…a (padSide false), p…p (true);
//   padMode 1: the block mirrored — p o … b a on either side;
//   padMode 2: mirrored past the edge value, 0 where it runs out —
//              0 p o … c b (false), o n … b a 0 (true).
// The count form writes dst's first `count` elements (block k of dst from
// block k of src); the level-0 forms run repeatTime repeats of 8 blocks with
// UnaryRepeatParams' strides, writing the lanes the mask selects (normal
// mode; counter mode is an error). The source is read whole, whatever the
// mask or count.
//
// Checks (KernelError naming VectorPadding, the argument, the value and the
// rule): another profile than the Atlas inference series; padMode above 2;
// operands that are not live UB tensors at 32-byte multiples; a block read
// or element written past its tensor.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace normgrad_ascendc {

/// The untyped call (vector_padding.cc). count_form: `count` elements;
/// else `repeats` repeats with `params` under the mask register.
struct PaddingArgs {
  const char* type;
  const TensorView* dst;
  const TensorView* src;
  uint32_t elem_bytes;
  uint8_t pad_mode;
  bool pad_side;
  bool count_form;
  uint32_t count;
  uint32_t repeats;
  AscendC::UnaryRepeatParams params;
};
/// Fails unless the profile has VectorPadding (before the mask is set).
void CheckPaddingProfile();
void VectorPaddingImpl(const PaddingArgs& a);

template <typename T>
constexpr bool kPaddingType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

}  // namespace normgrad_ascendc

namespace AscendC {

/// The first `count` elements of dst.
template <typename T>
void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const uint8_t padMode, const bool padSide,
                   const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPaddingType<PrimT<T>>,
                "VectorPadding: T must be int16_t, uint16_t, half, int32_t, "
                "uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckPaddingProfile();
  normgrad_ascendc::VectorPaddingImpl({normgrad_ascendc::TypeName<PrimT<T>>(),
                                       &normgrad_ascendc::Plain(dst).view(),
                                       &normgrad_ascendc::Plain(src).view(),
                                       sizeof(PrimT<T>),
                                       padMode,
                                       padSide,
                                       true,
                                       count,
                                       0,
                                       {}});
}

/// Repeats under a bit mask (mask[1]: the high lanes of 16-bit types).
template <typename T, bool isSetMask = true>
void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const uint8_t padMode, const bool padSide,
                   const uint64_t mask[], const uint8_t repeatTime,
                   const UnaryRepeatParams& repeatParams,
                   normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPaddingType<PrimT<T>>,
                "VectorPadding: T must be int16_t, uint16_t, half, int32_t, "
                "uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckPaddingProfile();
  if (isSetMask)
    normgrad_ascendc::SetMaskArgument(mask, 256 / sizeof(PrimT<T>));
  normgrad_ascendc::VectorPaddingImpl({normgrad_ascendc::TypeName<PrimT<T>>(),
                                       &normgrad_ascendc::Plain(dst).view(),
                                       &normgrad_ascendc::Plain(src).view(),
                                       sizeof(PrimT<T>), padMode, padSide,
                                       false, 0, repeatTime, repeatParams});
}

/// Repeats under a continuous mask (the first `mask` lanes).
template <typename T, bool isSetMask = true>
void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const uint8_t padMode, const bool padSide,
                   const uint64_t mask, const uint8_t repeatTime,
                   const UnaryRepeatParams& repeatParams,
                   normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPaddingType<PrimT<T>>,
                "VectorPadding: T must be int16_t, uint16_t, half, int32_t, "
                "uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckPaddingProfile();
  if (isSetMask)
    normgrad_ascendc::SetMaskArgument(mask, 256 / sizeof(PrimT<T>));
  normgrad_ascendc::VectorPaddingImpl({normgrad_ascendc::TypeName<PrimT<T>>(),
                                       &normgrad_ascendc::Plain(dst).view(),
                                       &normgrad_ascendc::Plain(src).view(),
                                       sizeof(PrimT<T>), padMode, padSide,
                                       false, 0, repeatTime, repeatParams});
}

}  // namespace AscendC
