// normgrad_ascendc/runtime/tensor_trait.h — TensorTrait, the description of a
// tensor's element type, position and Layout (docs/runtime.md, "Layout,
// Coordinate and TensorTrait"): the struct with GetLayout/SetLayout,
// MakeTensorTrait, is_tensorTrait and PrimT (a TensorTrait's element type, or
// the type itself).
//
// LocalTensor and GlobalTensor over a TensorTrait (LocalTensor<TensorTrait<
// float>>) are in tensor.h and global_tensor.h; the APIs of the page's table
// take them through normgrad_ascendc::Plain and PrimT (the vector headers,
// data_copy.h, cube/cube_tensor_trait.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/layout.h"
#include "normgrad_ascendc/runtime/position.h"

namespace normgrad_ascendc {

/// The element types the TensorTrait page lists (int4b_t aside, which
/// normgrad does not have as an element type).
template <typename T>
inline constexpr bool kTensorTraitElement =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, int64_t> ||
    std::is_same_v<T, uint64_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, half>;

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T, TPosition pos = TPosition::GM,
          typename LayoutType = Layout<Shape<>, Stride<>>>
struct TensorTrait {
  static_assert(normgrad_ascendc::kTensorTraitElement<T>,
                "TensorTrait<T>: T must be one of uint8_t, int8_t, int16_t, "
                "uint16_t, bfloat16_t, int32_t, uint32_t, int64_t, uint64_t, "
                "float, half");
  static_assert(is_layout<LayoutType>::value,
                "TensorTrait<T, pos, LayoutType>: LayoutType must be a Layout");

  using LiteType = T;
  using LiteLayoutType = LayoutType;
  static constexpr const TPosition tPos = pos;

  TensorTrait(const LayoutType& t = {}) : layout_(t) {}

  LayoutType& GetLayout() { return layout_; }
  const LayoutType& GetLayout() const { return layout_; }
  void SetLayout(const LayoutType& t) { layout_ = t; }

  /// The layout's shape and stride (the page's examples read them here).
  decltype(auto) GetShape() { return layout_.GetShape(); }
  decltype(auto) GetShape() const { return layout_.GetShape(); }
  decltype(auto) GetStride() { return layout_.GetStride(); }
  decltype(auto) GetStride() const { return layout_.GetStride(); }

 private:
  LayoutType layout_;
};

template <typename T, TPosition pos, typename LayoutType>
constexpr auto MakeTensorTrait(const LayoutType& t) {
  return TensorTrait<T, pos, LayoutType>(t);
}

/// value is true for a TensorTrait, false for anything else.
template <typename T>
struct is_tensorTrait : Std::false_type {};
template <typename T, TPosition pos, typename LayoutType>
struct is_tensorTrait<TensorTrait<T, pos, LayoutType>> : Std::true_type {};

namespace detail_prim {
template <typename T, bool = is_tensorTrait<T>::value>
struct Prim {
  using type = T;
};
template <typename T>
struct Prim<T, true> {
  using type = typename T::LiteType;
};
}  // namespace detail_prim

/// The element type: a TensorTrait's LiteType, or T itself.
template <typename T>
using PrimT = typename detail_prim::Prim<T>::type;

}  // namespace AscendC
