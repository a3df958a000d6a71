// normgrad_ascendc/vector/vector_ops.h — the basic vector operations of Ascend
// C (docs/runtime.md, "Vector operations") on LocalTensors in the unified
// buffer (UB), each in its level-2 "count" form (the first `count`
// elements) and, where documented, its level-0 forms (a bit mask or a
// continuous mask, repeatTime and repeat parameters; vector_unit.h).
//
//   Add Sub Mul Div Max Min     dst[i] = op(src0[i], src1[i])
//   Adds Muls Maxs Mins         dst[i] = op(src[i], scalar)
//   Subs Divs                   dst[i] = op(src[i], scalar)      (950)
//   Adds Subs Muls Divs Maxs    dst[i] = op(scalar, src[i])      (950: the
//   Mins                        flexible scalar position)
//   (Cast and the other conversions: vector_convert.h; Duplicate:
//   vector_layout.h)
//
// Element types. Each instruction takes the types its page lists for the
// profile in effect (profile.h; the table beside each instruction below):
// a type the profile does not list, or lists for the count form only, is a
// KernelError naming the instruction, the type and the profile, e.g.
//   "Add<int8_t>: element type int8_t is not supported on profile Atlas
//    A2/A3 (Add takes int16_t, half, int32_t, float there)".
//
// Numerics. float is IEEE binary32, each result rounded to nearest even.
// half and bfloat16_t are computed by widening both operands to float,
// computing in float and rounding the result back (nearest even). For +, −,
// ×, ÷ this equals correctly rounded arithmetic in the 16-bit type (float's
// 24-bit significand is at least 2·p+2 bits for half's p = 11 and
// bfloat16's p = 8, so the double rounding is innocuous): the same bits as
// computing in the 16-bit type directly. Max and Min return NaN when either
// operand is NaN. Overflow gives ±inf. A NaN result's sign and payload are
// not specified. Integers wrap around (two's complement, modulo 2^bits) on
// overflow; integer Div truncates toward zero, x / 0 gives all bits set
// (−1 signed, the maximum unsigned) and INT_MIN / −1 gives INT_MIN.
// Div on the 950 profile follows its DivConfig (Div's comment); elsewhere it
// is correctly rounded with subnormals kept. The half and float loops run as
// SIMD code chosen for the CPU at run time.
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

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace normgrad_ascendc {

/// The floating element types of the SIMD loops below.
enum class CastType : uint8_t { kHalf, kFloat };

template <typename T>
constexpr CastType CastTypeOf() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "the SIMD loops take half or float elements");
  return std::is_same_v<T, half> ? CastType::kHalf : CastType::kFloat;
}

template <typename T>
inline constexpr bool kIsVectorFloat =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

/// half, bfloat16_t or float: computed in float.
template <typename T>
inline constexpr bool kIsFloatElement =
    kIsVectorFloat<T> || std::is_same_v<T, bfloat16_t>;

/// The operations of Binary (op(src0[i], src1[i])) and WithScalar
/// (op(src[i], scalar)).
enum class ElementOp : uint8_t { kAdd, kSub, kMul, kDiv, kMax, kMin };

/// dst[i] = op(src0[i], src1[i]) over `count` contiguous elements of `type`
/// (half or float), computed in float (vector_ops.cc: SIMD chosen at run
/// time). dst may be src0 or src1; it does not partly overlap either.
void BinaryImpl(ElementOp op, CastType type, void* dst, const void* src0,
                const void* src1, uint32_t count);
/// dst[i] = op(src0[i], src1[i]), or op(src0[i], scalar) where src1 is
/// null (the scalar's low `bytes` bytes), over `count` integers of `bytes`
/// bytes (1, 2, 4, 8), signed or not, as IntegerOp, op not Div, on the
/// engine's loops (vector_ops.cc); dst may be src0 or src1.
void IntegerImpl(ElementOp op, uint32_t bytes, bool is_signed, void* dst,
                 const void* src0, const void* src1, uint64_t scalar,
                 uint32_t count);
/// dst[i] = op(src[i], scalar), as BinaryImpl.
void WithScalarImpl(ElementOp op, CastType type, void* dst, const void* src,
                    float scalar, uint32_t count);
/// x, or zero of its sign when it is subnormal in `type` (half or float).
float FlushSubnormal(CastType type, float x);
/// dst[i] = src0[i] / src1[i] over `count` elements of `type` (half or
/// float) with subnormal inputs and results flushed to zero of their sign.
void DivFlushImpl(CastType type, void* dst, const void* src0, const void* src1,
                  uint32_t count);

/// Integers: +, −, × modulo 2^bits; ÷ truncating, x / 0 all bits set,
/// INT_MIN / −1 = INT_MIN.
template <ElementOp kOp, typename T>
T IntegerOp(T x, T y) {
  // At least unsigned int, so that products of 16-bit values do not
  // overflow a promoted int.
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                               std::make_unsigned_t<T>>;
  switch (kOp) {
    case ElementOp::kAdd:
      return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
    case ElementOp::kSub:
      return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
    case ElementOp::kMul:
      return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
    case ElementOp::kDiv:
      if (y == 0) return static_cast<T>(~T{0});
      if (std::is_signed_v<T> && y == static_cast<T>(-1)) {
        return static_cast<T>(U{0} - static_cast<U>(x));
      }
      return static_cast<T>(x / y);
    case ElementOp::kMax:
      return x > y ? x : y;
    case ElementOp::kMin:
      return x < y ? x : y;
  }
  return x;
}

/// float: each result rounded once; Max and Min give NaN when either is.
template <ElementOp kOp>
float FloatOp(float x, float y) {
  switch (kOp) {
    case ElementOp::kAdd:
      return x + y;
    case ElementOp::kSub:
      return x - y;
    case ElementOp::kMul:
      return x * y;
    case ElementOp::kDiv:
      return x / y;
    case ElementOp::kMax:
      return x != x || y != y ? x + y : (x > y ? x : y);
    case ElementOp::kMin:
      return x != x || y != y ? x + y : (x < y ? x : y);
  }
  return x;
}

/// op(x, y) in T: integers as IntegerOp, bfloat16_t through float.
template <ElementOp kOp, typename T>
T ElementValue(T x, T y) {
  if constexpr (kIsFloatElement<T>) {
    return static_cast<T>(
        FloatOp<kOp>(static_cast<float>(x), static_cast<float>(y)));
  } else {
    return IntegerOp<kOp>(x, y);
  }
}

/// d[i] = op(x[i], y[i]) over n contiguous lanes; d is x, y, or apart.
template <ElementOp kOp, typename T>
void BinaryLanes(void* d, const void* x, const void* y, uint32_t n) {
  if constexpr (kIsVectorFloat<T>) {
    BinaryImpl(kOp, CastTypeOf<T>(), d, x, y, n);
  } else if constexpr (std::is_integral_v<T> && kOp != ElementOp::kDiv) {
    IntegerImpl(kOp, sizeof(T), std::is_signed_v<T>, d, x, y, 0, n);
  } else {
    T* to = static_cast<T*>(d);
    const T* a = static_cast<const T*>(x);
    const T* b = static_cast<const T*>(y);
    for (uint32_t i = 0; i < n; ++i) to[i] = ElementValue<kOp>(a[i], b[i]);
  }
}

/// d[i] = op(x[i], scalar) over n contiguous lanes; d is x or apart.
template <ElementOp kOp, typename T>
void ScalarLanes(void* d, const void* x, T scalar, uint32_t n) {
  if constexpr (kIsVectorFloat<T>) {
    WithScalarImpl(kOp, CastTypeOf<T>(), d, x, static_cast<float>(scalar), n);
  } else if constexpr (std::is_integral_v<T> && kOp != ElementOp::kDiv) {
    IntegerImpl(kOp, sizeof(T), std::is_signed_v<T>, d, x, nullptr,
                static_cast<uint64_t>(scalar), n);
  } else {
    T* to = static_cast<T*>(d);
    const T* a = static_cast<const T*>(x);
    for (uint32_t i = 0; i < n; ++i) to[i] = ElementValue<kOp>(a[i], scalar);
  }
}

template <ElementOp kOp, typename T>
void BinarySpan(const SpanArgs& a) {
  BinaryLanes<kOp, T>(a.operand[0], a.operand[1], a.operand[2], a.n);
}

/// Div of half or float with subnormals flushed (DivConfig on the 950).
template <typename T>
void DivFlushSpan(const SpanArgs& a) {
  DivFlushImpl(CastTypeOf<T>(), a.operand[0], a.operand[1], a.operand[2], a.n);
}

/// params: the scalar, a T.
template <ElementOp kOp, typename T>
void ScalarSpan(const SpanArgs& a) {
  T scalar;
  std::memcpy(static_cast<void*>(&scalar), a.params, sizeof(T));
  ScalarLanes<kOp, T>(a.operand[0], a.operand[1], scalar, a.n);
}

/// dst[i] = op(scalar, src[i]): the scalar as the left operand.
template <ElementOp kOp, typename T>
void ScalarFirstSpan(const SpanArgs& a) {
  T scalar;
  std::memcpy(static_cast<void*>(&scalar), a.params, sizeof(T));
  T* d = static_cast<T*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  for (uint32_t i = 0; i < a.n; ++i) d[i] = ElementValue<kOp>(scalar, x[i]);
}

/// dst = op(src0, src1) as an instruction of the executor.
template <ElementOp kOp, typename T>
VecInstruction BinaryInstruction(const char* api,
                                 const AscendC::LocalTensor<T>& dst,
                                 const AscendC::LocalTensor<T>& src0,
                                 const AscendC::LocalTensor<T>& src1) {
  VecInstruction in = BinaryOf(api, dst, src0, src1, &BinarySpan<kOp, T>);
  in.dst_feeds_src1 = kOp == ElementOp::kAdd || kOp == ElementOp::kSub ||
                      kOp == ElementOp::kMul || kOp == ElementOp::kMax ||
                      kOp == ElementOp::kMin;
  return in;
}

/// dst = op(src, scalar), or op(scalar, src), as an instruction of the
/// executor; `scalar` must outlive the call.
template <ElementOp kOp, typename T>
VecInstruction ScalarInstruction(const char* api,
                                 const AscendC::LocalTensor<T>& dst,
                                 const AscendC::LocalTensor<T>& src,
                                 const T& scalar, bool scalar_first) {
  return UnaryOf(api, dst, src,
                 scalar_first ? &ScalarFirstSpan<kOp, T> : &ScalarSpan<kOp, T>,
                 &scalar);
}

// The element types of each instruction, per profile, as documented.
inline constexpr uint32_t kTypesA2Arith =
    kTypeInt16 | kTypeHalf | kTypeInt32 | kTypeFloat;
inline constexpr TypeRule kAddSubTypes{
    kTypesA2Arith, kTypesA2Arith,
    kTypeInt16 | kTypeUint16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 |
        kTypeUint32 | kTypeFloat,
    kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kMulTypes{kTypesA2Arith, kTypesA2Arith,
                                    kTypeInt16 | kTypeUint16 | kTypeHalf |
                                        kTypeBfloat16 | kTypeInt32 |
                                        kTypeUint32 | kTypeFloat,
                                    kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kDivTypes{kTypeHalf | kTypeFloat,
                                    kTypeHalf | kTypeFloat,
                                    kTypeInt16 | kTypeUint16 | kTypeHalf |
                                        kTypeInt32 | kTypeUint32 | kTypeFloat,
                                    kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kMaxMinTypes = kAddSubTypes;
inline constexpr TypeRule kScalarArithTypes{
    kTypesA2Arith, kTypesA2Arith,
    kTypeInt16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 | kTypeFloat,
    kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kMulsTypes{
    kTypesA2Arith, kTypesA2Arith,
    kTypeInt16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 | kTypeFloat,
    kTypeInt64 | kTypeUint64};
// The flexible-scalar-position forms (950 only).
inline constexpr TypeRule kAddsFlexTypes{
    0, 0, kTypeInt16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 | kTypeFloat,
    kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kSubsMulsFlexTypes{
    0, 0, kTypeInt16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 | kTypeFloat,
    kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kDivsFlexTypes{0, 0, kTypeHalf | kTypeFloat,
                                         kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kMaxsMinsFlexTypes = kAddsFlexTypes;

// ---- The flat path of the count and level-0 forms ----
//
// A call whose operands meet the flat run's conditions (FlatDst, FlatSrc:
// vector_unit.h) and, in the level-0 forms, take the default strides under
// a mask register that selects every lane, computes its lanes right here:
// no call site recorded, no instruction built, no executor — the fixed cost
// of a short call is mostly those. It is taken only for the element types
// every profile takes in that form, so the type check it skips cannot fail;
// every other call, and every call that breaks a rule, takes the executor,
// whose checks report it. The lanes and their order are the flat run's.

/// Whether every profile takes `bit` in this form (the API's type check
/// cannot fail).
constexpr bool TakenEverywhere(const TypeRule& r, uint32_t bit,
                               bool count_form) {
  return (r.a2 & r.p310 & (r.p950 | (count_form ? r.p950_count : 0)) & bit) !=
         0;
}

/// Whether level-0 strides are each operand's defaults for T (blocks
/// contiguous, 8 blocks — 256 bytes, a repeat of T — between repeats).
template <typename T>
constexpr bool HasDefaultStrides(const AscendC::BinaryRepeatParams& p) {
  return LanesOf(sizeof(T)) * sizeof(T) == 256 && p.dstBlkStride == 1 &&
         p.src0BlkStride == 1 && p.src1BlkStride == 1 && p.dstRepStride == 8 &&
         p.src0RepStride == 8 && p.src1RepStride == 8;
}
template <typename T>
constexpr bool HasDefaultStrides(const AscendC::UnaryRepeatParams& p) {
  return LanesOf(sizeof(T)) * sizeof(T) == 256 && p.dstBlkStride == 1 &&
         p.srcBlkStride == 1 && p.dstRepStride == 8 && p.srcRepStride == 8;
}

/// dst = op(src0, src1) over the first n lanes when the flat conditions
/// hold; false (nothing done) otherwise, or when FlatCount(n) does not.
template <ElementOp kOp, typename T>
bool FlatBinary(const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src0,
                const AscendC::LocalTensor<T>& src1, int64_t n) {
  if (!FlatCount(n)) return false;
  const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
  const TensorView& d = dst.view();
  if (!FlatDst(d, bytes) || !FlatSrc(d, src0.view(), bytes) ||
      !FlatSrc(d, src1.view(), bytes)) {
    return false;
  }
  BinaryLanes<kOp, T>(d.data(), src0.view().data(), src1.view().data(),
                      static_cast<uint32_t>(n));
  return true;
}

/// dst = op(src, scalar) over the first n lanes, as FlatBinary.
template <ElementOp kOp, typename T>
bool FlatScalar(const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, T scalar, int64_t n) {
  if (!FlatCount(n)) return false;
  const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
  const TensorView& d = dst.view();
  if (!FlatDst(d, bytes) || !FlatSrc(d, src.view(), bytes)) return false;
  ScalarLanes<kOp, T>(d.data(), src.view().data(), scalar,
                      static_cast<uint32_t>(n));
  return true;
}

/// The lanes a form covers when it may take the flat path: the count form's
/// count; for a level-0 form with the default strides, the leading lanes
/// the mask register selects (FullMaskLanes; it puts the mask argument in
/// the register first, and `mask_set` says so), else none.
template <typename T>
int64_t FlatLanes(const CountForm& form, bool& /*mask_set*/) {
  return form.count;
}
template <typename T, bool isSetMask, typename Mask, typename Strides>
int64_t FlatLanes(const RepeatForm<isSetMask, Mask, Strides>& form,
                  bool& mask_set) {
  if (!HasDefaultStrides<T>(form.strides)) return 0;
  mask_set = true;
  return FullMaskLanes(isSetMask, form.mask, LanesOf(sizeof(T)),
                       form.repeat_time);
}

/// A two-source instruction `api` in any form: on the flat path when every
/// profile takes T in that form and its operands allow, else through the
/// executor.
template <ElementOp kOp, const TypeRule& kRule, typename T, typename Form>
void BinaryCall(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src0,
                const AscendC::LocalTensor<T>& src1, const Form& form) {
  bool mask_set = false;
  if constexpr (TakenEverywhere(kRule, TypeBitOf<T>(), Form::kCountForm)) {
    if (FlatBinary<kOp>(dst, src0, src1, FlatLanes<T>(form, mask_set))) {
      return;
    }
  }
  const InstructionCall<T> call(api, kRule, form);
  RunForm(BinaryInstruction<kOp>(api, dst, src0, src1), form, mask_set);
}

/// An instruction `api` with a tensor and a scalar source in any form, as
/// BinaryCall; with `scalar_first`, dst[i] = op(scalar, src[i]) (the 950's
/// flexible scalar position, never on the flat path).
template <ElementOp kOp, const TypeRule& kRule, bool kScalarFirst, typename T,
          typename Form>
void ScalarCall(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const T scalar,
                const Form& form) {
  bool mask_set = false;
  if constexpr (!kScalarFirst &&
                TakenEverywhere(kRule, TypeBitOf<T>(), Form::kCountForm)) {
    if (FlatScalar<kOp>(dst, src, scalar, FlatLanes<T>(form, mask_set))) {
      return;
    }
  }
  const InstructionCall<T> call(api, kRule, form);
  RunForm(ScalarInstruction<kOp>(api, dst, src, scalar, kScalarFirst), form,
          mask_set);
}

}  // namespace normgrad_ascendc

// The three forms of a two-source instruction: the first count elements, and
// level 0 with a bit mask or a continuous mask.
#define NORMGRAD_BINARY_INSTRUCTION(Name, kOp, kRule)                         \
  template <typename T>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const int32_t& count,                 \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::BinaryCall<kOp, kRule>(                                 \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        normgrad_ascendc::Plain(src1),                                        \
        normgrad_ascendc::CountForm{count, site});                            \
  }                                                                           \
  template <typename T, bool isSetMask = true>                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const uint64_t mask[],                \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::BinaryCall<kOp, kRule>(                                 \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        normgrad_ascendc::Plain(src1),                                        \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,           \
                                                  repeatParams, site));       \
  }                                                                           \
  template <typename T, bool isSetMask = true>                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const uint64_t mask,                  \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::BinaryCall<kOp, kRule>(                                 \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        normgrad_ascendc::Plain(src1),                                        \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,           \
                                                  repeatParams, site));       \
  }

// The three forms of an instruction with a tensor and a scalar source.
#define NORMGRAD_SCALAR_INSTRUCTION(Name, kOp, kRule)                      \
  template <typename T>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,          \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,  \
            const int32_t& count, normgrad_ascendc::CallSite site = {}) {  \
    normgrad_ascendc::ScalarCall<kOp, kRule, false>(                       \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), \
        scalar, normgrad_ascendc::CountForm{count, site});                 \
  }                                                                        \
  template <typename T, bool isSetMask = true>                             \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,          \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,  \
            const uint64_t mask[], const uint8_t repeatTime,               \
            const UnaryRepeatParams& repeatParams,                         \
            normgrad_ascendc::CallSite site = {}) {                        \
    normgrad_ascendc::ScalarCall<kOp, kRule, false>(                       \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), \
        scalar,                                                            \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,        \
                                                  repeatParams, site));    \
  }                                                                        \
  template <typename T, bool isSetMask = true>                             \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,          \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,  \
            const uint64_t mask, const uint8_t repeatTime,                 \
            const UnaryRepeatParams& repeatParams,                         \
            normgrad_ascendc::CallSite site = {}) {                        \
    normgrad_ascendc::ScalarCall<kOp, kRule, false>(                       \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), \
        scalar,                                                            \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,        \
                                                  repeatParams, site));    \
  }

// The two forms of a flexible-scalar-position instruction with the scalar
// as the left operand, dst[i] = op(scalar, src[i]): the first count
// elements, and level 0 with either mask.
#define NORMGRAD_SCALAR_FIRST_INSTRUCTION(Name, kOp, kRule)                  \
  template <typename T>                                                      \
  void Name(const LocalTensor<T>& dst,                                       \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,    \
            const LocalTensor<T>& src, const int32_t& count,                 \
            normgrad_ascendc::CallSite site = {}) {                          \
    normgrad_ascendc::ScalarCall<kOp, kRule, true>(                          \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),   \
        scalar, normgrad_ascendc::CountForm{count, site});                   \
  }                                                                          \
  template <typename T, bool isSetMask = true, typename Mask>                \
  void Name(const LocalTensor<T>& dst,                                       \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,    \
            const LocalTensor<T>& src, const Mask& mask,                     \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                          \
    normgrad_ascendc::ScalarCall<kOp, kRule, true>(                          \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),   \
        scalar,                                                              \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,          \
                                                  repeatParams, site));      \
  }

namespace AscendC {

/// dst[i] = src0[i] + src1[i].
NORMGRAD_BINARY_INSTRUCTION(Add, normgrad_ascendc::ElementOp::kAdd,
                            normgrad_ascendc::kAddSubTypes)
/// dst[i] = src0[i] - src1[i].
NORMGRAD_BINARY_INSTRUCTION(Sub, normgrad_ascendc::ElementOp::kSub,
                            normgrad_ascendc::kAddSubTypes)
/// dst[i] = src0[i] * src1[i].
NORMGRAD_BINARY_INSTRUCTION(Mul, normgrad_ascendc::ElementOp::kMul,
                            normgrad_ascendc::kMulTypes)
/// dst[i] = max(src0[i], src1[i]) (NaN if either is NaN).
NORMGRAD_BINARY_INSTRUCTION(Max, normgrad_ascendc::ElementOp::kMax,
                            normgrad_ascendc::kMaxMinTypes)
/// dst[i] = min(src0[i], src1[i]) (NaN if either is NaN).
NORMGRAD_BINARY_INSTRUCTION(Min, normgrad_ascendc::ElementOp::kMin,
                            normgrad_ascendc::kMaxMinTypes)
/// dst[i] = src[i] + scalar.
NORMGRAD_SCALAR_INSTRUCTION(Adds, normgrad_ascendc::ElementOp::kAdd,
                            normgrad_ascendc::kScalarArithTypes)
/// dst[i] = src[i] * scalar.
NORMGRAD_SCALAR_INSTRUCTION(Muls, normgrad_ascendc::ElementOp::kMul,
                            normgrad_ascendc::kMulsTypes)
/// dst[i] = max(src[i], scalar).
NORMGRAD_SCALAR_INSTRUCTION(Maxs, normgrad_ascendc::ElementOp::kMax,
                            normgrad_ascendc::kScalarArithTypes)
/// dst[i] = min(src[i], scalar).
NORMGRAD_SCALAR_INSTRUCTION(Mins, normgrad_ascendc::ElementOp::kMin,
                            normgrad_ascendc::kScalarArithTypes)
/// dst[i] = src[i] - scalar (the 950 profile).
NORMGRAD_SCALAR_INSTRUCTION(Subs, normgrad_ascendc::ElementOp::kSub,
                            normgrad_ascendc::kSubsMulsFlexTypes)
/// dst[i] = src[i] / scalar (the 950 profile; Div's numbers, subnormals
/// kept).
NORMGRAD_SCALAR_INSTRUCTION(Divs, normgrad_ascendc::ElementOp::kDiv,
                            normgrad_ascendc::kDivsFlexTypes)
// The scalar as the left operand (the 950 profile).
/// dst[i] = scalar + src[i].
NORMGRAD_SCALAR_FIRST_INSTRUCTION(Adds, normgrad_ascendc::ElementOp::kAdd,
                                  normgrad_ascendc::kAddsFlexTypes)
/// dst[i] = scalar - src[i].
NORMGRAD_SCALAR_FIRST_INSTRUCTION(Subs, normgrad_ascendc::ElementOp::kSub,
                                  normgrad_ascendc::kSubsMulsFlexTypes)
/// dst[i] = scalar * src[i].
NORMGRAD_SCALAR_FIRST_INSTRUCTION(Muls, normgrad_ascendc::ElementOp::kMul,
                                  normgrad_ascendc::kSubsMulsFlexTypes)
/// dst[i] = scalar / src[i].
NORMGRAD_SCALAR_FIRST_INSTRUCTION(Divs, normgrad_ascendc::ElementOp::kDiv,
                                  normgrad_ascendc::kDivsFlexTypes)
/// dst[i] = max(scalar, src[i]).
NORMGRAD_SCALAR_FIRST_INSTRUCTION(Maxs, normgrad_ascendc::ElementOp::kMax,
                                  normgrad_ascendc::kMaxsMinsFlexTypes)
/// dst[i] = min(scalar, src[i]).
NORMGRAD_SCALAR_FIRST_INSTRUCTION(Mins, normgrad_ascendc::ElementOp::kMin,
                                  normgrad_ascendc::kMaxsMinsFlexTypes)

#undef NORMGRAD_BINARY_INSTRUCTION
#undef NORMGRAD_SCALAR_INSTRUCTION
#undef NORMGRAD_SCALAR_FIRST_INSTRUCTION

/// Div's algorithms on the 950 profile: INTRINSIC and PRECISION_1ULP_FTZ_TRUE
/// (the default) flush subnormal inputs and results to zero of their sign;
/// the FTZ_FALSE ones keep them. normgrad computes every algorithm
/// correctly rounded (within the 0 and 1 ulp the page allows);
/// DIFF_COMPENSATION and the PRECISION_0ULP ones take float only.
enum class DivAlgo {
  INTRINSIC = 0,
  DIFF_COMPENSATION,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_FALSE,
  PRECISION_1ULP_FTZ_FALSE
};
struct DivConfig {
  DivAlgo algo = DivAlgo::INTRINSIC;
};
inline constexpr DivConfig DEFAULT_DIV_CONFIG = {DivAlgo::INTRINSIC};

}  // namespace AscendC

namespace normgrad_ascendc {

/// Div as an instruction of the executor under `config`: integers as
/// IntegerOp; half and float on the 950 profile with the algorithm's
/// subnormal handling, elsewhere IEEE (a config other than the default is a
/// KernelError off the 950 profile).
template <typename T>
VecInstruction DivInstruction(const AscendC::LocalTensor<T>& dst,
                              const AscendC::LocalTensor<T>& src0,
                              const AscendC::LocalTensor<T>& src1,
                              const AscendC::DivConfig& config) {
  using AscendC::DivAlgo;
  VecInstruction in =
      BinaryInstruction<ElementOp::kDiv>("Div", dst, src0, src1);
  const bool on950 = OnProfile950();
  if (!on950 && config.algo != DivAlgo::INTRINSIC) {
    Fail("Div<%s>: config.algo %d is available on profile Ascend 950 only",
         TypeName<T>(), static_cast<int>(config.algo));
  }
  const bool float_only = config.algo == DivAlgo::DIFF_COMPENSATION ||
                          config.algo == DivAlgo::PRECISION_0ULP_FTZ_TRUE ||
                          config.algo == DivAlgo::PRECISION_0ULP_FTZ_FALSE;
  if (float_only && !std::is_same_v<T, float>) {
    Fail("Div<%s>: config.algo %d takes float only", TypeName<T>(),
         static_cast<int>(config.algo));
  }
  const bool flush = config.algo == DivAlgo::INTRINSIC ||
                     config.algo == DivAlgo::DIFF_COMPENSATION ||
                     config.algo == DivAlgo::PRECISION_1ULP_FTZ_TRUE ||
                     config.algo == DivAlgo::PRECISION_0ULP_FTZ_TRUE;
  if constexpr (kIsVectorFloat<T>) {
    if (on950 && flush) in.span = &DivFlushSpan<T>;
  }
  return in;
}

/// Div in any form under `config`.
template <typename T, typename Form>
void DivCall(const AscendC::LocalTensor<T>& dst,
             const AscendC::LocalTensor<T>& src0,
             const AscendC::LocalTensor<T>& src1,
             const AscendC::DivConfig& config, const Form& form) {
  const InstructionCall<T> call("Div", kDivTypes, form);
  RunForm(DivInstruction(dst, src0, src1, config), form);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src0[i] / src1[i]: IEEE off the 950 profile (x/0 is ±inf or
/// NaN); on it, as `config` says (DivAlgo); integers as the file comment.
template <typename T, const DivConfig& config = DEFAULT_DIV_CONFIG>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const int32_t& count,
         normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DivCall(normgrad_ascendc::Plain(dst),
                            normgrad_ascendc::Plain(src0),
                            normgrad_ascendc::Plain(src1), config,
                            normgrad_ascendc::CountForm{count, site});
}
/// Div's repeat form with a bit mask.
template <typename T, bool isSetMask = true,
          const DivConfig& config = DEFAULT_DIV_CONFIG>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const uint64_t mask[],
         const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
         normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DivCall(normgrad_ascendc::Plain(dst),
                            normgrad_ascendc::Plain(src0),
                            normgrad_ascendc::Plain(src1), config,
                            normgrad_ascendc::RepeatFormOf<isSetMask>(
                                mask, repeatTime, repeatParams, site));
}
/// Div's repeat form with a continuous mask.
template <typename T, bool isSetMask = true,
          const DivConfig& config = DEFAULT_DIV_CONFIG>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
         const LocalTensor<T>& src1, const uint64_t mask,
         const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
         normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DivCall(normgrad_ascendc::Plain(dst),
                            normgrad_ascendc::Plain(src0),
                            normgrad_ascendc::Plain(src1), config,
                            normgrad_ascendc::RepeatFormOf<isSetMask>(
                                mask, repeatTime, repeatParams, site));
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

/// Copy's repeat form as an instruction of the executor (UB to UB); its
/// strides, checked here, are set by SetStrides.
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
          {{"dst", &dst.view(), sizeof(T)}, {"src", &src.view(), sizeof(T)}},
          2,
          &CopySpan<T>};
}

/// Sets Copy's level-0 strides from CopyRepeatParams.
inline void SetStrides(VecInstruction& in, const AscendC::CopyRepeatParams& p) {
  in.operand[0].block_stride = p.dstStride;
  in.operand[1].block_stride = p.srcStride;
  in.operand[0].repeat_stride = p.dstRepeatSize;
  in.operand[1].repeat_stride = p.srcRepeatSize;
}

/// Copy in a level-0 form. It takes any 2- or 4-byte type on every
/// profile: there is no TypeRule to check.
template <typename T, typename Form>
void CopyCall(const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const Form& form) {
  const ApiCall call(form.site);
  RunForm(CopyInstruction(dst, src, form.strides), form);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// Copy's repeat form with a bit mask: UB to UB under the mask register.
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CopyCall(normgrad_ascendc::Plain(dst),
                             normgrad_ascendc::Plain(src),
                             normgrad_ascendc::RepeatFormOf<isSetMask>(
                                 mask, repeatTime, repeatParams, site));
}
/// Copy's repeat form with a continuous mask.
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CopyCall(normgrad_ascendc::Plain(dst),
                             normgrad_ascendc::Plain(src),
                             normgrad_ascendc::RepeatFormOf<isSetMask>(
                                 mask, repeatTime, repeatParams, site));
}

}  // namespace AscendC
