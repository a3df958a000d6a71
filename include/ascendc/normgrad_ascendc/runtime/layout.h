// normgrad_ascendc/runtime/layout.h — Layout, Shape, Stride and Coord, the
// tensor-layout templates of the documentation's auxiliary data structures
// (docs/runtime.md, "Layout, Coordinate and TensorTrait"): MakeShape,
// MakeStride, MakeCoord, MakeLayout, Crd2Idx, is_layout and Layout's members
// (layout, GetShape, GetStride, operator()).
//
// Shape, Stride and Coord are AscendC::Std::tuple (std::tuple here); their
// elements are integers or Std::Int<v>, and may be tuples again (a
// hierarchical layout). Crd2Idx maps a coordinate to an element index:
//   - a tuple coordinate adds up the indices of its modes, mode by mode;
//   - an integer coordinate against a tuple shape is first split over the
//     shape's modes, first mode fastest (c % d0, then (c / d0) % d1, ...);
//     the last mode takes what is left, so a coordinate past the shape keeps
//     counting in the last mode, as the page's first example (590) needs;
//   - an integer against an integer shape is coordinate * stride.
// When every input is a Std::Int the index is a Std::Int too (the pages read
// it as decltype(index)::value); otherwise it is a size_t.
#pragma once

#include <cstddef>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/type_traits.h"

namespace AscendC {

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;
template <typename... Coords>
using Coord = Std::tuple<Coords...>;

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return Shape<Ts...>(t...);
}
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return Stride<Ts...>(t...);
}
template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
  return Coord<Ts...>(t...);
}

template <typename ShapeType, typename StrideType>
struct Layout;

template <typename CoordType, typename ShapeType, typename StrideType>
constexpr auto Crd2Idx(const CoordType& coord, const ShapeType& shape,
                       const StrideType& stride);

/// A shape and a stride: a map from coordinates to element indices.
template <typename ShapeType, typename StrideType>
struct Layout : private Std::tuple<ShapeType, StrideType> {
  constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
      : Std::tuple<ShapeType, StrideType>(shape, stride) {}

  /// This layout object itself.
  constexpr decltype(auto) layout() { return *this; }
  constexpr decltype(auto) layout() const { return *this; }

  constexpr decltype(auto) GetShape() { return std::get<0>(Base()); }
  constexpr decltype(auto) GetShape() const { return std::get<0>(Base()); }
  constexpr decltype(auto) GetStride() { return std::get<1>(Base()); }
  constexpr decltype(auto) GetStride() const { return std::get<1>(Base()); }

  /// The index of `coord` (Crd2Idx).
  template <typename CoordType>
  constexpr auto operator()(const CoordType& coord) const {
    return Crd2Idx(coord, GetShape(), GetStride());
  }

 private:
  constexpr Std::tuple<ShapeType, StrideType>& Base() { return *this; }
  constexpr const Std::tuple<ShapeType, StrideType>& Base() const {
    return *this;
  }
};

template <typename ShapeType, typename StrideType>
constexpr auto MakeLayout(const ShapeType& shape, const StrideType& stride) {
  return Layout<ShapeType, StrideType>(shape, stride);
}

/// value is true for a Layout, false for anything else.
template <typename T>
struct is_layout : Std::false_type {};
template <typename ShapeType, typename StrideType>
struct is_layout<Layout<ShapeType, StrideType>> : Std::true_type {};

}  // namespace AscendC

namespace normgrad_ascendc::layout {

template <typename T>
struct IsTuple : std::false_type {};
template <typename... Ts>
struct IsTuple<std::tuple<Ts...>> : std::true_type {};
template <typename T>
inline constexpr bool kIsTuple = IsTuple<std::decay_t<T>>::value;

template <typename T>
struct IsConstant : std::false_type {};
template <typename I, I v>
struct IsConstant<std::integral_constant<I, v>> : std::true_type {};
template <typename T>
inline constexpr bool kIsConstant = IsConstant<std::decay_t<T>>::value;

// The arithmetic of Crd2Idx: a Std::Int when both sides are constants (so the
// index of constant inputs is a constant), else a size_t.
template <typename A, typename B>
constexpr auto Add(const A& a, const B& b) {
  if constexpr (kIsConstant<A> && kIsConstant<B>) {
    return AscendC::Std::Int<A::value + B::value>{};
  } else {
    return static_cast<size_t>(a) + static_cast<size_t>(b);
  }
}
template <typename A, typename B>
constexpr auto Mul(const A& a, const B& b) {
  if constexpr (kIsConstant<A> && kIsConstant<B>) {
    return AscendC::Std::Int<A::value * B::value>{};
  } else {
    return static_cast<size_t>(a) * static_cast<size_t>(b);
  }
}

[[noreturn]] inline void FailZeroMode(size_t mode) {
  Fail(
      "Crd2Idx: shape mode %zu has size 0; a mode before the last one must "
      "have a size to split an integer coordinate",
      mode);
}

// c / d and c % d for splitting a coordinate over a shape's mode of size d;
// a mode of size 0 that is not the last cannot split anything.
template <typename A, typename B>
constexpr auto Div(const A& c, const B& d, size_t mode) {
  if constexpr (kIsConstant<A> && kIsConstant<B>) {
    static_assert(B::value != 0,
                  "Crd2Idx: a shape mode of size 0 before the last one "
                  "cannot split an integer coordinate");
    return AscendC::Std::Int<A::value / B::value>{};
  } else {
    if (static_cast<size_t>(d) == 0) FailZeroMode(mode);
    return static_cast<size_t>(c) / static_cast<size_t>(d);
  }
}
template <typename A, typename B>
constexpr auto Mod(const A& c, const B& d, size_t mode) {
  if constexpr (kIsConstant<A> && kIsConstant<B>) {
    static_assert(B::value != 0,
                  "Crd2Idx: a shape mode of size 0 before the last one "
                  "cannot split an integer coordinate");
    return AscendC::Std::Int<A::value % B::value>{};
  } else {
    if (static_cast<size_t>(d) == 0) FailZeroMode(mode);
    return static_cast<size_t>(c) % static_cast<size_t>(d);
  }
}

// Add and Mul folded over any number of operands.
template <typename A>
constexpr auto Sum(const A& a) {
  return a;
}
template <typename A, typename B, typename... Rest>
constexpr auto Sum(const A& a, const B& b, const Rest&... rest) {
  return Sum(Add(a, b), rest...);
}
template <typename A>
constexpr auto Product(const A& a) {
  return a;
}
template <typename A, typename B, typename... Rest>
constexpr auto Product(const A& a, const B& b, const Rest&... rest) {
  return Product(Mul(a, b), rest...);
}

// The number of elements of a shape: the product of its modes.
template <typename S>
constexpr auto Size(const S& shape) {
  if constexpr (kIsTuple<S>) {
    return std::apply(
        [](const auto&... mode) {
          return Product(AscendC::Std::Int<1>{}, Size(mode)...);
        },
        shape);
  } else {
    return shape;
  }
}

// Index of an integer coordinate c split over modes I.. of a tuple shape.
template <size_t I, typename C, typename S, typename D>
constexpr auto SplitIndex(const C& c, const S& shape, const D& stride) {
  constexpr size_t kLast = std::tuple_size_v<S> - 1;
  if constexpr (I == kLast) {
    return AscendC::Crd2Idx(c, std::get<I>(shape), std::get<I>(stride));
  } else {
    const auto size = Size(std::get<I>(shape));
    return Add(AscendC::Crd2Idx(Mod(c, size, I), std::get<I>(shape),
                                std::get<I>(stride)),
               SplitIndex<I + 1>(Div(c, size, I), shape, stride));
  }
}

// Index of a tuple coordinate: the sum of its modes' indices.
template <typename C, typename S, typename D, size_t... I>
constexpr auto SumOfModes(const C& coord, const S& shape, const D& stride,
                          std::index_sequence<I...>) {
  return Sum(AscendC::Std::Int<0>{},
             AscendC::Crd2Idx(std::get<I>(coord), std::get<I>(shape),
                              std::get<I>(stride))...);
}

}  // namespace normgrad_ascendc::layout

namespace AscendC {

/// The element index of `coord` in a shape and stride (see the file comment).
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr auto Crd2Idx(const CoordType& coord, const ShapeType& shape,
                       const StrideType& stride) {
  namespace L = normgrad_ascendc::layout;
  if constexpr (L::kIsTuple<CoordType>) {
    static_assert(L::kIsTuple<ShapeType> && L::kIsTuple<StrideType>,
                  "Crd2Idx: a tuple coordinate needs a tuple shape and "
                  "stride");
    static_assert(
        std::tuple_size_v<CoordType> == std::tuple_size_v<ShapeType> &&
            std::tuple_size_v<ShapeType> == std::tuple_size_v<StrideType>,
        "Crd2Idx: the coordinate, the shape and the stride must "
        "have the same number of modes");
    return L::SumOfModes(
        coord, shape, stride,
        std::make_index_sequence<std::tuple_size_v<CoordType>>{});
  } else if constexpr (L::kIsTuple<ShapeType>) {
    static_assert(L::kIsTuple<StrideType> && std::tuple_size_v<ShapeType> ==
                                                 std::tuple_size_v<StrideType>,
                  "Crd2Idx: the shape and the stride must have the same "
                  "number of modes");
    if constexpr (std::tuple_size_v<ShapeType> == 0) {
      return Std::Int<0>{};
    } else {
      return L::SplitIndex<0>(coord, shape, stride);
    }
  } else {
    static_assert(!L::kIsTuple<StrideType>,
                  "Crd2Idx: an integer shape mode needs an integer stride");
    return L::Mul(coord, stride);
  }
}

/// The element index of `coord` in `layout`.
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr auto Crd2Idx(const CoordType& coord,
                       const Layout<ShapeType, StrideType>& layout) {
  return Crd2Idx(coord, layout.GetShape(), layout.GetStride());
}

}  // namespace AscendC
