// normgrad_ascendc/vector_ops.h — the basic vector operations of Ascend C
// (docs/runtime.md, "Vector operations"), level-2 "count" form: elementwise
// over the first `count` elements of LocalTensors in the unified buffer (UB).
//
//   Add Sub Mul Div Max Min     dst[i] = op(src0[i], src1[i])     half, float
//   Adds Muls                   dst[i] = op(src[i], scalar)       half, float
//   Duplicate                   dst[i] = scalar                   2/4-byte T
//   Cast                        dst[i] = round(src[i], mode)      half, float,
//                                                                 int32_t
//
// Numerics. float is IEEE binary32, each result rounded to nearest even.
// half is computed by widening both operands to float, computing in float and
// rounding the result back to half (nearest even). For +, −, ×, ÷ this equals
// correctly rounded binary16 arithmetic (float's 24-bit significand is at
// least 2·11+2 bits, so the double rounding is innocuous): the same bits as
// computing in half directly. Max and Min return NaN when either operand
// is NaN. Overflow gives ±inf. A NaN result's sign and payload are not
// specified. The loops run as SIMD code chosen for the CPU at run time.
//
// Cast rounds by RoundMode: CAST_RINT to nearest, ties to even; CAST_FLOOR
// toward −inf; CAST_CEIL toward +inf; CAST_TRUNC toward zero; CAST_ROUND to
// nearest, ties away from zero; CAST_NONE: exact conversions (half → float,
// int32 → float when |x| ≤ 2^24) need no rounding, and elsewhere it means
// CAST_RINT. Narrowing to half beyond its range gives ±inf, except where the
// mode rounds toward zero (CAST_FLOOR of 1e6 is 65504). To int32: NaN gives 0
// and values beyond the range saturate to INT32_MIN / INT32_MAX. The mode is
// accepted for every pair; exact conversions ignore it.
//
// Checks (every call): count ≥ 0 and every operand a non-empty UB tensor of
// at least `count` elements; otherwise a KernelError (core.h), e.g.
//   "Add<float>: src1 has 32 elements, fewer than count 64".
// Each operation takes a last, defaulted CallSite (core.h): messages start
// with the caller's file and line.
// Operands of one call may be the same tensor (dst == src for in-place use).
// Nothing allocates, reads the environment or starts a thread.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/half.h"
#include "normgrad_ascendc/sync.h"
#include "normgrad_ascendc/tensor.h"

namespace AscendC {

/// How Cast rounds (see the file comment).
enum class RoundMode : uint8_t {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One operand of a vector operation, for the checks.
struct Operand {
  const char* name;  ///< "dst", "src0", ...
  const TensorView* view;
  uint32_t elem_bytes;
};

/// Checks count ≥ 0 and that each operand holds at least `count` elements.
/// Messages start "<api><<type>>:" (or "<api><<type>, <src_type>>:" when
/// src_type is not null).
void CheckOperands(const char* api, const char* type, const char* src_type,
                   int64_t count, const Operand* operands, int n);

/// Element types Cast converts between.
enum class CastType : uint8_t { kHalf, kFloat, kInt32 };

template <typename T>
constexpr CastType CastTypeOf() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int32_t>,
                "Cast: element types must be half, float or int32_t");
  if constexpr (std::is_same_v<T, half>)
    return CastType::kHalf;
  else if constexpr (std::is_same_v<T, float>)
    return CastType::kFloat;
  else
    return CastType::kInt32;
}

/// Converts `count` elements (cast.cc).
void CastImpl(CastType dst_type, void* dst, CastType src_type, const void* src,
              AscendC::RoundMode mode, uint32_t count);

template <typename T>
inline constexpr bool kIsVectorFloat =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

/// T itself, in a context where it is not deduced (scalars take the
/// tensors' type: Adds(halfTensor, halfTensor, 2.0f, n) converts 2.0f).
template <typename T>
struct NonDeduced {
  using type = T;
};

/// The operations of Binary (op(src0[i], src1[i])) and WithScalar
/// (op(src[i], scalar)).
enum class ElementOp : uint8_t { kAdd, kSub, kMul, kDiv, kMax, kMin };

/// dst[i] = op(src0[i], src1[i]) over `count` elements of `type` (half or
/// float), computed in float (vector_ops.cc: SIMD chosen at run time, the
/// same bits as element by element; a dst that partly overlaps a source is
/// done element by element in index order).
void BinaryImpl(ElementOp op, CastType type, void* dst, const void* src0,
                const void* src1, uint32_t count);
/// dst[i] = op(src[i], scalar), as BinaryImpl.
void WithScalarImpl(ElementOp op, CastType type, void* dst, const void* src,
                    float scalar, uint32_t count);

template <typename T>
void Binary(const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src0,
            const AscendC::LocalTensor<T>& src1, int32_t count, ElementOp op) {
  static_assert(kIsVectorFloat<T>, "vector operations take half or float");
  const Operand operands[] = {{"dst", &dst.view(), sizeof(T)},
                              {"src0", &src0.view(), sizeof(T)},
                              {"src1", &src1.view(), sizeof(T)}};
  CheckOperands(api, TypeName<T>(), nullptr, count, operands, 3);
  BinaryImpl(op, CastTypeOf<T>(), dst.GetPhyAddr(), src0.GetPhyAddr(),
             src1.GetPhyAddr(), static_cast<uint32_t>(count));
}

template <typename T>
void WithScalar(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, T scalar, int32_t count,
                ElementOp op) {
  static_assert(kIsVectorFloat<T>, "vector operations take half or float");
  const Operand operands[] = {{"dst", &dst.view(), sizeof(T)},
                              {"src", &src.view(), sizeof(T)}};
  CheckOperands(api, TypeName<T>(), nullptr, count, operands, 2);
  WithScalarImpl(op, CastTypeOf<T>(), dst.GetPhyAddr(), src.GetPhyAddr(),
                 static_cast<float>(scalar), static_cast<uint32_t>(count));
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src0[i] + src1[i], i < count.
template <typename T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Binary("Add", dst, src0, src1, count,
                           normgrad_ascendc::ElementOp::kAdd);
}
/// dst[i] = src0[i] - src1[i], i < count.
template <typename T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Binary("Sub", dst, src0, src1, count,
                           normgrad_ascendc::ElementOp::kSub);
}
/// dst[i] = src0[i] * src1[i], i < count.
template <typename T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Binary("Mul", dst, src0, src1, count,
                           normgrad_ascendc::ElementOp::kMul);
}
/// dst[i] = src0[i] / src1[i], i < count (IEEE: x/0 is ±inf or NaN).
template <typename T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Binary("Div", dst, src0, src1, count,
                           normgrad_ascendc::ElementOp::kDiv);
}
/// dst[i] = max(src0[i], src1[i]), i < count (NaN if either is NaN).
template <typename T>
void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Binary("Max", dst, src0, src1, count,
                           normgrad_ascendc::ElementOp::kMax);
}
/// dst[i] = min(src0[i], src1[i]), i < count (NaN if either is NaN).
template <typename T>
void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Binary("Min", dst, src0, src1, count,
                           normgrad_ascendc::ElementOp::kMin);
}

/// dst[i] = src[i] + scalar, i < count.
template <typename T>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
          const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::WithScalar("Adds", dst, src, scalar, count,
                               normgrad_ascendc::ElementOp::kAdd);
}
/// dst[i] = src[i] * scalar, i < count.
template <typename T>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
          const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::WithScalar("Muls", dst, src, scalar, count,
                               normgrad_ascendc::ElementOp::kMul);
}

/// dst[i] = scalar, i < count, for any 2- or 4-byte element type.
template <typename T>
void Duplicate(const LocalTensor<T>& dst,
               const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
               const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Duplicate: T must be a 2- or 4-byte type");
  const normgrad_ascendc::Operand operands[] = {
      {"dst", &dst.view(), sizeof(T)}};
  normgrad_ascendc::CheckOperands("Duplicate", normgrad_ascendc::TypeName<T>(),
                                  nullptr, count, operands, 1);
  T* d = dst.GetPhyAddr();
  for (int32_t i = 0; i < count; ++i) d[i] = scalar;
}

/// dst[i] = src[i] converted to D and rounded by `mode`, i < count; D and S
/// are half, float or int32_t (see the file comment).
template <typename D, typename S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src,
          const RoundMode& mode, const uint32_t count,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  constexpr normgrad_ascendc::CastType kDst = normgrad_ascendc::CastTypeOf<D>();
  constexpr normgrad_ascendc::CastType kSrc = normgrad_ascendc::CastTypeOf<S>();
  static_assert(kDst != kSrc, "Cast: the element types must differ");
  const normgrad_ascendc::Operand operands[] = {
      {"dst", &dst.view(), sizeof(D)}, {"src", &src.view(), sizeof(S)}};
  normgrad_ascendc::CheckOperands("Cast", normgrad_ascendc::TypeName<D>(),
                                  normgrad_ascendc::TypeName<S>(), count,
                                  operands, 2);
  normgrad_ascendc::CastImpl(kDst, dst.GetPhyAddr(), kSrc, src.GetPhyAddr(),
                             mode, count);
}

}  // namespace AscendC
