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
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/half.h"
#include "normgrad_ascendc/sync.h"
#include "normgrad_ascendc/tensor.h"
#include "normgrad_ascendc/vector_unit.h"

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

/// dst[i] = op(src0[i], src1[i]) over `count` contiguous elements of `type`
/// (half or float), computed in float (vector_ops.cc: SIMD chosen at run
/// time). dst may be src0 or src1; it does not partly overlap either.
void BinaryImpl(ElementOp op, CastType type, void* dst, const void* src0,
                const void* src1, uint32_t count);
/// dst[i] = op(src[i], scalar), as BinaryImpl.
void WithScalarImpl(ElementOp op, CastType type, void* dst, const void* src,
                    float scalar, uint32_t count);

/// Elements of one full repeat of an instruction whose widest operand has
/// `bytes`-byte elements.
constexpr uint32_t LanesOf(size_t bytes) {
  return static_cast<uint32_t>(256 / bytes);
}

/// The mask argument of a level-0 call with isSetMask: bit words (mask[1]
/// is the high word, read for 16-bit lanes) or, in counter mode, the count.
inline void SetMaskArgument(const uint64_t mask[], uint32_t lanes) {
  SetMaskBits(lanes > 64 ? mask[1] : 0, mask[0]);
}
/// The "continuous" mask argument: the first `mask` lanes of each repeat,
/// or, in counter mode, the count.
inline void SetMaskArgument(uint64_t mask, uint32_t lanes) {
  SetMaskLength(mask, lanes, CurrentCore().vector_mask().mode);
}

/// A repeat form's call: the mask argument into the register (isSetMask),
/// then the repeats.
template <bool isSetMask, typename Mask>
void RunRepeatForm(const VecInstruction& in, const Mask& mask,
                   uint8_t repeat_time) {
  if (isSetMask) SetMaskArgument(mask, in.lanes);
  ExecuteRepeats(in, repeat_time);
}

template <ElementOp kOp, typename T>
void BinarySpan(const SpanArgs& a) {
  BinaryImpl(kOp, CastTypeOf<T>(), a.operand[0], a.operand[1], a.operand[2],
             a.n);
}

template <ElementOp kOp, typename T>
void ScalarSpan(const SpanArgs& a) {
  WithScalarImpl(kOp, CastTypeOf<T>(), a.operand[0], a.operand[1],
                 *static_cast<const float*>(a.params), a.n);
}

template <typename T>
void DuplicateSpan(const SpanArgs& a) {
  T value;
  std::memcpy(static_cast<void*>(&value), a.params, sizeof(T));
  T* d = static_cast<T*>(a.operand[0]);
  for (uint32_t i = 0; i < a.n; ++i) d[i] = value;
}

struct CastParams {
  AscendC::RoundMode mode;
};

template <typename D, typename S>
void CastSpan(const SpanArgs& a) {
  CastImpl(CastTypeOf<D>(), a.operand[0], CastTypeOf<S>(), a.operand[1],
           static_cast<const CastParams*>(a.params)->mode, a.n);
}

/// dst = op(src0, src1) as an instruction of the executor.
template <ElementOp kOp, typename T>
VecInstruction BinaryInstruction(const char* api,
                                 const AscendC::LocalTensor<T>& dst,
                                 const AscendC::LocalTensor<T>& src0,
                                 const AscendC::LocalTensor<T>& src1) {
  static_assert(kIsVectorFloat<T>, "vector operations take half or float");
  VecInstruction in{api,
                    TypeName<T>(),
                    LanesOf(sizeof(T)),
                    {{"dst", &dst.view(), sizeof(T)},
                     {"src0", &src0.view(), sizeof(T)},
                     {"src1", &src1.view(), sizeof(T)}},
                    3,
                    &BinarySpan<kOp, T>};
  in.dst_feeds_src1 = kOp == ElementOp::kAdd || kOp == ElementOp::kSub ||
                      kOp == ElementOp::kMul || kOp == ElementOp::kMax ||
                      kOp == ElementOp::kMin;
  return in;
}

/// Sets an instruction's level-0 strides from BinaryRepeatParams.
inline void SetStrides(VecInstruction& in,
                       const AscendC::BinaryRepeatParams& p) {
  in.operand[0].block_stride = p.dstBlkStride;
  in.operand[1].block_stride = p.src0BlkStride;
  in.operand[2].block_stride = p.src1BlkStride;
  in.operand[0].repeat_stride = p.dstRepStride;
  in.operand[1].repeat_stride = p.src0RepStride;
  in.operand[2].repeat_stride = p.src1RepStride;
}
/// Sets an instruction's level-0 strides from UnaryRepeatParams.
inline void SetStrides(VecInstruction& in,
                       const AscendC::UnaryRepeatParams& p) {
  in.operand[0].block_stride = p.dstBlkStride;
  in.operand[1].block_stride = p.srcBlkStride;
  in.operand[0].repeat_stride = p.dstRepStride;
  in.operand[1].repeat_stride = p.srcRepStride;
}

/// dst = op(src, scalar) as an instruction of the executor; the scalar is
/// widened to float in `scalar`, which must outlive the call.
template <ElementOp kOp, typename T>
VecInstruction ScalarInstruction(const char* api,
                                 const AscendC::LocalTensor<T>& dst,
                                 const AscendC::LocalTensor<T>& src,
                                 const float& scalar) {
  static_assert(kIsVectorFloat<T>, "vector operations take half or float");
  VecInstruction in{
      api,
      TypeName<T>(),
      LanesOf(sizeof(T)),
      {{"dst", &dst.view(), sizeof(T)}, {"src", &src.view(), sizeof(T)}},
      2,
      &ScalarSpan<kOp, T>};
  in.params = &scalar;
  return in;
}

}  // namespace normgrad_ascendc

// The three forms of a two-source instruction: the first count elements, and
// level 0 with a bit mask or a continuous mask.
#define NORMGRAD_BINARY_INSTRUCTION(Name, kOp)                                \
  template <typename T>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const int32_t& count,                 \
            normgrad_ascendc::CallSite site = {}) {                           \
    const normgrad_ascendc::ApiCall call(site);                               \
    normgrad_ascendc::ExecuteCount(                                           \
        normgrad_ascendc::BinaryInstruction<kOp>(#Name, dst, src0, src1),     \
        count);                                                               \
  }                                                                           \
  template <typename T, bool isSetMask = true>                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const uint64_t mask[],                \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    const normgrad_ascendc::ApiCall call(site);                               \
    auto in =                                                                 \
        normgrad_ascendc::BinaryInstruction<kOp>(#Name, dst, src0, src1);     \
    normgrad_ascendc::SetStrides(in, repeatParams);                           \
    normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);         \
  }                                                                           \
  template <typename T, bool isSetMask = true>                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const uint64_t mask,                  \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    const normgrad_ascendc::ApiCall call(site);                               \
    auto in =                                                                 \
        normgrad_ascendc::BinaryInstruction<kOp>(#Name, dst, src0, src1);     \
    normgrad_ascendc::SetStrides(in, repeatParams);                           \
    normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);         \
  }

// The three forms of an instruction with a tensor and a scalar source.
#define NORMGRAD_SCALAR_INSTRUCTION(Name, kOp)                              \
  template <typename T>                                                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,           \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,   \
            const int32_t& count, normgrad_ascendc::CallSite site = {}) {   \
    const normgrad_ascendc::ApiCall call(site);                             \
    const float widened = static_cast<float>(scalar);                       \
    normgrad_ascendc::ExecuteCount(                                         \
        normgrad_ascendc::ScalarInstruction<kOp>(#Name, dst, src, widened), \
        count);                                                             \
  }                                                                         \
  template <typename T, bool isSetMask = true>                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,           \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,   \
            const uint64_t mask[], const uint8_t repeatTime,                \
            const UnaryRepeatParams& repeatParams,                          \
            normgrad_ascendc::CallSite site = {}) {                         \
    const normgrad_ascendc::ApiCall call(site);                             \
    const float widened = static_cast<float>(scalar);                       \
    auto in =                                                               \
        normgrad_ascendc::ScalarInstruction<kOp>(#Name, dst, src, widened); \
    normgrad_ascendc::SetStrides(in, repeatParams);                         \
    normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);       \
  }                                                                         \
  template <typename T, bool isSetMask = true>                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,           \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,   \
            const uint64_t mask, const uint8_t repeatTime,                  \
            const UnaryRepeatParams& repeatParams,                          \
            normgrad_ascendc::CallSite site = {}) {                         \
    const normgrad_ascendc::ApiCall call(site);                             \
    const float widened = static_cast<float>(scalar);                       \
    auto in =                                                               \
        normgrad_ascendc::ScalarInstruction<kOp>(#Name, dst, src, widened); \
    normgrad_ascendc::SetStrides(in, repeatParams);                         \
    normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);       \
  }

namespace AscendC {

/// dst[i] = src0[i] + src1[i].
NORMGRAD_BINARY_INSTRUCTION(Add, normgrad_ascendc::ElementOp::kAdd)
/// dst[i] = src0[i] - src1[i].
NORMGRAD_BINARY_INSTRUCTION(Sub, normgrad_ascendc::ElementOp::kSub)
/// dst[i] = src0[i] * src1[i].
NORMGRAD_BINARY_INSTRUCTION(Mul, normgrad_ascendc::ElementOp::kMul)
/// dst[i] = src0[i] / src1[i] (IEEE: x/0 is ±inf or NaN).
NORMGRAD_BINARY_INSTRUCTION(Div, normgrad_ascendc::ElementOp::kDiv)
/// dst[i] = max(src0[i], src1[i]) (NaN if either is NaN).
NORMGRAD_BINARY_INSTRUCTION(Max, normgrad_ascendc::ElementOp::kMax)
/// dst[i] = min(src0[i], src1[i]) (NaN if either is NaN).
NORMGRAD_BINARY_INSTRUCTION(Min, normgrad_ascendc::ElementOp::kMin)
/// dst[i] = src[i] + scalar.
NORMGRAD_SCALAR_INSTRUCTION(Adds, normgrad_ascendc::ElementOp::kAdd)
/// dst[i] = src[i] * scalar.
NORMGRAD_SCALAR_INSTRUCTION(Muls, normgrad_ascendc::ElementOp::kMul)

#undef NORMGRAD_BINARY_INSTRUCTION
#undef NORMGRAD_SCALAR_INSTRUCTION

}  // namespace AscendC

namespace normgrad_ascendc {

/// Duplicate as an instruction of the executor; `value` must outlive it.
template <typename T>
VecInstruction DuplicateInstruction(const AscendC::LocalTensor<T>& dst,
                                    const T& value) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Duplicate: T must be a 2- or 4-byte type");
  VecInstruction in{"Duplicate",
                    TypeName<T>(),
                    LanesOf(sizeof(T)),
                    {{"dst", &dst.view(), sizeof(T)}},
                    1,
                    &DuplicateSpan<T>};
  in.params = &value;
  return in;
}

/// Cast as an instruction of the executor; `params` must outlive it.
template <typename D, typename S>
VecInstruction CastInstruction(const AscendC::LocalTensor<D>& dst,
                               const AscendC::LocalTensor<S>& src,
                               const CastParams& params, char (&type)[32]) {
  constexpr CastType kDst = CastTypeOf<D>();
  constexpr CastType kSrc = CastTypeOf<S>();
  static_assert(kDst != kSrc, "Cast: the element types must differ");
  std::snprintf(type, sizeof type, "%s, %s", TypeName<D>(), TypeName<S>());
  VecInstruction in{
      "Cast",
      type,
      LanesOf(sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S)),
      {{"dst", &dst.view(), sizeof(D)}, {"src", &src.view(), sizeof(S)}},
      2,
      &CastSpan<D, S>};
  in.params = &params;
  return in;
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = scalar, i < count, for any 2- or 4-byte element type.
template <typename T>
void Duplicate(const LocalTensor<T>& dst,
               const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
               const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const T value = scalar;
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::DuplicateInstruction(dst, value), count);
}
/// Duplicate's repeat form with a bit mask.
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst,
               const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
               const uint64_t mask[], const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const T value = scalar;
  auto in = normgrad_ascendc::DuplicateInstruction(dst, value);
  in.operand[0].block_stride = dstBlockStride;
  in.operand[0].repeat_stride = dstRepeatStride;
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}
/// Duplicate's repeat form with a continuous mask.
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst,
               const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
               const uint64_t mask, const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const T value = scalar;
  auto in = normgrad_ascendc::DuplicateInstruction(dst, value);
  in.operand[0].block_stride = dstBlockStride;
  in.operand[0].repeat_stride = dstRepeatStride;
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}

/// Strides of Copy's repeat form, in 32-byte blocks: between the blocks of a
/// repeat (dstStride, srcStride) and between repeats (dstRepeatSize,
/// srcRepeatSize), in the documented field order.
struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn,
                   uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = DEFAULT_BLK_STRIDE;
  uint16_t srcStride = DEFAULT_BLK_STRIDE;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace normgrad_ascendc {

template <typename T>
void CopySpan(const SpanArgs& a) {
  std::memcpy(a.operand[0], a.operand[1], uint64_t{a.n} * sizeof(T));
}

/// Copy's repeat form as an instruction of the executor (UB to UB).
template <typename T>
VecInstruction CopyInstruction(const AscendC::LocalTensor<T>& dst,
                               const AscendC::LocalTensor<T>& src,
                               const AscendC::CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Copy: T must be a 2- or 4-byte type");
  if (p.dstRepeatSize > 4095 || p.srcRepeatSize > 4095) {
    Fail("Copy<%s>: %s %u is out of range (0..4095 blocks)", TypeName<T>(),
         p.dstRepeatSize > 4095 ? "dstRepeatSize" : "srcRepeatSize",
         p.dstRepeatSize > 4095 ? p.dstRepeatSize : p.srcRepeatSize);
  }
  return {"Copy",
          TypeName<T>(),
          LanesOf(sizeof(T)),
          {{"dst", &dst.view(), sizeof(T), p.dstStride, p.dstRepeatSize},
           {"src", &src.view(), sizeof(T), p.srcStride, p.srcRepeatSize}},
          2,
          &CopySpan<T>};
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// Copy's repeat form with a bit mask: UB to UB under the mask register.
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  auto in = normgrad_ascendc::CopyInstruction(dst, src, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}
/// Copy's repeat form with a continuous mask.
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  auto in = normgrad_ascendc::CopyInstruction(dst, src, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}

/// dst[i] = src[i] converted to D and rounded by `mode`, i < count; D and S
/// are half, float or int32_t (see the file comment).
template <typename D, typename S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src,
          const RoundMode& mode, const uint32_t count,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::CastParams params{mode};
  char type[32];
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::CastInstruction(dst, src, params, type), count);
}
/// Cast's repeat form with a bit mask; lanes are those of the wider type.
template <typename D, typename S, bool isSetMask = true>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src,
          const RoundMode& mode, const uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::CastParams params{mode};
  char type[32];
  auto in = normgrad_ascendc::CastInstruction(dst, src, params, type);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}
/// Cast's repeat form with a continuous mask.
template <typename D, typename S, bool isSetMask = true>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src,
          const RoundMode& mode, const uint64_t mask, const uint8_t repeatTime,
          const UnaryRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::CastParams params{mode};
  char type[32];
  auto in = normgrad_ascendc::CastInstruction(dst, src, params, type);
  normgrad_ascendc::SetStrides(in, repeatParams);
  normgrad_ascendc::RunRepeatForm<isSetMask>(in, mask, repeatTime);
}

}  // namespace AscendC
