// normgrad_ascendc/vector/vector_math.h — the one-source arithmetic
// instructions and the logic instructions of the vector unit (docs/runtime.md,
// "Vector operations"), each in its count form and, where documented, its
// level-0 forms (bit mask or continuous mask, repeatTime, UnaryRepeatParams or
// BinaryRepeatParams; vector_unit.h), on the element types the page lists
// per profile (vector_ops.h, "Element types").
//
//   Abs Relu Neg                 dst[i] = |x|, max(0, x), −x
//   Exp Ln Sqrt Rsqrt Reciprocal dst[i] = e^x, ln x, √x, 1/√x, 1/x
//   LeakyRelu                    dst[i] = x ≥ 0 ? x : scalar · x
//   And Or                       dst[i] = src0[i] & src1[i], src0[i] | src1[i]
//   Not                          dst[i] = ~src[i] (the bits, any type)
//   Ands Ors                     dst[i] = src[i] & scalar, src[i] | scalar
//                                (the scalar in either position)
//   ShiftLeft ShiftRight         dst[i] = src[i] << scalar, src[i] >> scalar,
//                                or by src1[i] (the 950's count form)
//   Prelu                        dst[i] = src0[i] ≥ 0 ? src0[i]
//                                : src0[i] · src1[i] (the 950's count form)
//   Mull                         dst0[i], dst1[i] = the low and high 32 bits
//                                of src0[i] · src1[i] (the 950's count form)
//
// Numerics (docs/numerics.md, "The vector unit's arithmetic"). Exp, Ln,
// Sqrt, Rsqrt and Reciprocal of float are computed in double and rounded
// once to float; half is widened to float, computed as float and rounded
// once to half. Abs, Neg and Not act on the bits and Relu compares (exact);
// LeakyRelu rounds the product x · scalar once. Integers: Abs and Neg
// wrap (Abs(INT_MIN) = INT_MIN), Reciprocal truncates (1/0 has all bits
// set). Subnormals are kept, except on the 950 profile under a configuration
// that flushes them (ExpConfig ...: INTRINSIC, the default, and
// PRECISION_1ULP_FTZ_TRUE): there a subnormal input or result becomes zero
// of its sign. A configuration other than the default is a KernelError on
// other profiles.
//
// Prelu rounds its product once (−0 and NaN sources: −0 ≥ 0 holds, so −0
// is kept; NaN fails the test and gives NaN). Mull forms the exact 64-bit
// product (signed for int32_t, unsigned for uint32_t); dst0 and dst1 may
// not overlap, and either may be a source lane for lane.
//
// Shifts: unsigned types shift logically, signed ones arithmetically: the
// sign bit stays on the left shift (the bit below it is dropped) and fills
// in on the right shift. The shift count is checked: on Atlas
// A2/A3 0..16 for 16-bit and 0..32 for 32-bit elements, on the 950 ≥ 0; a
// count of the width or more gives 0 (−1 for a negative element shifted
// right). ShiftRight's roundEn (int16_t and int32_t) adds the last bit
// shifted out.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace AscendC {

// The 950 profile's algorithm choices (see the file comment).
enum class ExpAlgo {
  INTRINSIC = 0,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_1ULP_FTZ_FALSE
};
struct ExpConfig {
  ExpAlgo algo = ExpAlgo::INTRINSIC;
};
inline constexpr ExpConfig DEFAULT_EXP_CONFIG = {ExpAlgo::INTRINSIC};

enum class LnAlgo {
  INTRINSIC = 0,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_1ULP_FTZ_FALSE
};
struct LnConfig {
  LnAlgo algo = LnAlgo::INTRINSIC;
};
inline constexpr LnConfig DEFAULT_LN_CONFIG = {LnAlgo::INTRINSIC};

enum class ReciprocalAlgo {
  INTRINSIC = 0,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_1ULP_FTZ_FALSE
};
struct ReciprocalConfig {
  ReciprocalAlgo algo = ReciprocalAlgo::INTRINSIC;
};
inline constexpr ReciprocalConfig DEFAULT_RECIPROCAL_CONFIG = {
    ReciprocalAlgo::INTRINSIC};

/// FAST_INVERSE and PRECISION_0ULP_FTZ_FALSE: float only, subnormals kept,
/// and an input above 2^126 gives 0.
enum class SqrtAlgo {
  INTRINSIC = 0,
  FAST_INVERSE,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_FALSE,
  PRECISION_1ULP_FTZ_FALSE,
};
struct SqrtConfig {
  SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};
inline constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {SqrtAlgo::INTRINSIC};

/// As SqrtAlgo; under FAST_INVERSE an input above 2^126 gives +inf.
enum class RsqrtAlgo {
  INTRINSIC = 0,
  FAST_INVERSE,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_FALSE,
  PRECISION_1ULP_FTZ_FALSE,
};
struct RsqrtConfig {
  RsqrtAlgo algo = RsqrtAlgo::INTRINSIC;
};
inline constexpr RsqrtConfig DEFAULT_RSQRT_CONFIG = {RsqrtAlgo::INTRINSIC};

}  // namespace AscendC

namespace normgrad_ascendc {

enum class MathOp : uint8_t { kExp, kLn, kSqrt, kRsqrt, kReciprocal };

/// How a MathOp runs: subnormals flushed, or the FAST_INVERSE range rule.
struct MathParams {
  MathOp op;
  bool flush = false;
  bool fast_inverse = false;
};

/// dst[i] = op(src[i]) over `count` elements of `type` (half or float)
/// (vector_math.cc).
void MathImpl(CastType type, const MathParams& p, void* dst, const void* src,
              uint32_t count);

/// The MathParams of an algorithm, after its checks: `algo` is the
/// configuration's algorithm as a number (0: INTRINSIC, the default),
/// `flushes` whether it flushes subnormals, `float_only` whether it takes
/// float only (vector_math.cc).
MathParams MathParamsOf(const char* api, const char* type, MathOp op, int algo,
                        bool flushes, bool fast_inverse, bool float_only,
                        bool is_float);

template <typename T>
void MathSpan(const SpanArgs& a) {
  const MathParams& p = *static_cast<const MathParams*>(a.params);
  if constexpr (kIsVectorFloat<T>) {
    MathImpl(CastTypeOf<T>(), p, a.operand[0], a.operand[1], a.n);
  } else {
    // Reciprocal of an integer: 1 / x, truncated.
    T* d = static_cast<T*>(a.operand[0]);
    const T* x = static_cast<const T*>(a.operand[1]);
    for (uint32_t i = 0; i < a.n; ++i) {
      d[i] = IntegerOp<ElementOp::kDiv>(T{1}, x[i]);
    }
  }
}

/// The unsigned integer holding T's bits.
template <typename T>
using BitsOf = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

enum class BitOp : uint8_t { kAnd, kOr, kNot, kAbs, kNeg, kRelu };

/// One element of a one-source instruction acting on T exactly.
template <BitOp kOp, typename T>
T ExactUnary(T x) {
  if constexpr (kIsFloatElement<T>) {
    using B = BitsOf<T>;
    constexpr B kSign = static_cast<B>(B{1} << (sizeof(T) * 8 - 1));
    B bits;
    std::memcpy(&bits, &x, sizeof bits);
    switch (kOp) {
      case BitOp::kAbs:
        bits = static_cast<B>(bits & ~kSign);
        break;
      case BitOp::kNeg:
        bits = static_cast<B>(bits ^ kSign);
        break;
      case BitOp::kNot:
        bits = static_cast<B>(~bits);
        break;
      default: {  // kRelu: NaN stays NaN
        const float f = static_cast<float>(x);
        return f != f || f > 0 ? x : T(0.0f);
      }
    }
    T out;
    std::memcpy(static_cast<void*>(&out), &bits, sizeof bits);
    return out;
  } else {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                 std::make_unsigned_t<T>>;
    switch (kOp) {
      case BitOp::kAbs:
        return x < 0 ? static_cast<T>(U{0} - static_cast<U>(x)) : x;
      case BitOp::kNeg:
        return static_cast<T>(U{0} - static_cast<U>(x));
      case BitOp::kNot:
        return static_cast<T>(~x);
      default:
        return x > 0 ? x : T{0};
    }
  }
}

/// Abs and Relu of half or float over `count` elements, on the engine's
/// loops (vector_math.cc); the bits of ExactUnary.
void UnaryBitsImpl(BitOp op, CastType type, void* dst, const void* src,
                   uint32_t count);

/// LeakyRelu of half or float (vector_math.cc): dst[i] = x ≥ 0 ? x :
/// x · slope rounded once to the type.
void LeakyReluImpl(CastType type, void* dst, const void* src, float slope,
                   uint32_t count);

/// And, Or (src1 null: with the scalar's low `bytes` bytes) or Not of the
/// bits of `count` elements of `bytes` bytes (1, 2, 4, 8) on the engine's
/// loops (vector_math.cc); dst may be src0 or src1.
void LogicImpl(BitOp op, uint32_t bytes, void* dst, const void* src0,
               const void* src1, uint64_t scalar, uint32_t count);

template <BitOp kOp, typename T>
void ExactUnarySpan(const SpanArgs& a) {
  if constexpr (kIsVectorFloat<T> &&
                (kOp == BitOp::kAbs || kOp == BitOp::kRelu)) {
    UnaryBitsImpl(kOp, CastTypeOf<T>(), a.operand[0], a.operand[1], a.n);
  } else if constexpr (kOp == BitOp::kNot) {
    LogicImpl(kOp, sizeof(T), a.operand[0], a.operand[1], nullptr, 0, a.n);
  } else {
    T* d = static_cast<T*>(a.operand[0]);
    const T* x = static_cast<const T*>(a.operand[1]);
    for (uint32_t i = 0; i < a.n; ++i) d[i] = ExactUnary<kOp>(x[i]);
  }
}

/// And / Or of T's bits; the second operand is a tensor (operand[2]) or,
/// for Ands and Ors, the scalar in params.
template <BitOp kOp, typename T, bool kScalar>
void LogicSpan(const SpanArgs& a) {
  BitsOf<T> s{};
  if (kScalar) std::memcpy(&s, a.params, sizeof s);
  LogicImpl(kOp, sizeof(T), a.operand[0], a.operand[1],
            kScalar ? nullptr : a.operand[2], s, a.n);
}

/// LeakyRelu: params is the slope, a T.
template <typename T>
void LeakyReluSpan(const SpanArgs& a) {
  T slope;
  std::memcpy(static_cast<void*>(&slope), a.params, sizeof slope);
  LeakyReluImpl(CastTypeOf<T>(), a.operand[0], a.operand[1],
                static_cast<float>(slope), a.n);
}

/// A shift by a checked count.
struct ShiftParams {
  uint64_t count;
  bool left;
  bool round;  ///< ShiftRight's roundEn
};

/// v shifted by `count` (left or right), roundEn's bit added when `round`.
template <typename T>
T ShiftValue(T v, uint64_t count, bool left, bool round) {
  constexpr uint64_t kBits = sizeof(T) * 8;
  using B = BitsOf<T>;
  T r;
  if (left) {
    // Signed: the sign bit stays, the bits below it shift.
    constexpr B kKept = std::is_signed_v<T> ? B(B{1} << (kBits - 1)) : B{0};
    const B bits = static_cast<B>(v);
    r = count >= kBits
            ? T{0}
            : static_cast<T>((bits & kKept) |
                             (static_cast<B>(bits << count) & B(~kKept)));
  } else if (count >= kBits) {
    r = v < 0 ? static_cast<T>(-1) : T{0};
  } else {
    r = static_cast<T>(v >> count);  // arithmetic for signed T
  }
  if (round && count >= 1) {
    const uint64_t bit = count - 1 < kBits ? count - 1 : kBits - 1;
    r = static_cast<T>(r + static_cast<T>((static_cast<B>(v) >> bit) & 1));
  }
  return r;
}

/// A shift of `bytes`-wide (2 or 4) integers by p.count, below the width,
/// on the engine's loops (vector_math.cc); the bits of ShiftValue.
void ShiftImpl(uint32_t bytes, bool is_signed, const ShiftParams& p, void* dst,
               const void* src, uint32_t count);

template <typename T>
void ShiftSpan(const SpanArgs& a) {
  const ShiftParams& p = *static_cast<const ShiftParams*>(a.params);
  if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
    if (p.count < sizeof(T) * 8) {
      ShiftImpl(sizeof(T), std::is_signed_v<T>, p, a.operand[0], a.operand[1],
                a.n);
      return;
    }
  }
  T* d = static_cast<T*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  for (uint32_t i = 0; i < a.n; ++i) {
    d[i] = ShiftValue(x[i], p.count, p.left, p.round);
  }
}

/// A shift by a tensor of counts: its direction, and its name for messages.
struct TensorShiftParams {
  bool left;
  const char* api;
  const char* type;
};

/// Fails: a negative count in the counts tensor of a tensor shift
/// (vector_math.cc).
[[noreturn]] void FailNegativeShift(const TensorShiftParams& p,
                                    long long count);

/// dst[i] = src0[i] shifted by src1[i]; params: a TensorShiftParams.
template <typename T, typename U>
void TensorShiftSpan(const SpanArgs& a) {
  const TensorShiftParams& p = *static_cast<const TensorShiftParams*>(a.params);
  T* d = static_cast<T*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  const U* n = static_cast<const U*>(a.operand[2]);
  for (uint32_t i = 0; i < a.n; ++i) {
    if (n[i] < 0) FailNegativeShift(p, static_cast<long long>(n[i]));
    d[i] = ShiftValue(x[i], static_cast<uint64_t>(n[i]), p.left, false);
  }
}

/// Fails unless `count` is a shift count the profile takes for T
/// (vector_math.cc).
void CheckShiftCount(const char* api, const char* type, int64_t count,
                     uint32_t bits);

inline constexpr uint32_t kTypesFloat = kTypeHalf | kTypeFloat;
inline constexpr TypeRule kAbsTypes{kTypesFloat, kTypesFloat,
                                    kTypeInt16 | kTypesFloat | kTypeInt32,
                                    kTypeInt8 | kTypeInt64};
inline constexpr TypeRule kMathTypes{kTypesFloat, kTypesFloat, kTypesFloat, 0};
inline constexpr TypeRule kReciprocalTypes{
    kTypesFloat, kTypesFloat, kTypesFloat, kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kReluTypes{kTypesFloat | kTypeInt32,
                                     kTypesFloat | kTypeInt32,
                                     kTypesFloat | kTypeInt32, kTypeInt64};
inline constexpr TypeRule kNegTypes{
    0, 0,
    kTypeInt8 | kTypeInt16 | kTypeHalf | kTypeInt32 | kTypeFloat | kTypeInt64,
    0};
inline constexpr uint32_t kTypesInt16 = kTypeInt16 | kTypeUint16;
inline constexpr uint32_t kTypesInt32 = kTypeInt32 | kTypeUint32;
inline constexpr uint32_t kTypesInt8And64 =
    kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64;
inline constexpr TypeRule kAndOrTypes{
    kTypesInt16, kTypesInt16, kTypesInt16 | kTypesInt32, kTypesInt8And64};
inline constexpr TypeRule kNotTypes{kTypesInt16, kTypesInt16,
                                    kTypesInt16 | kTypesInt32 | kTypesFloat,
                                    kTypesInt8And64};
inline constexpr TypeRule kAndsOrsTypes{0, 0, kTypesInt16,
                                        kTypeInt64 | kTypeUint64};
inline constexpr TypeRule kShiftTypes{
    kTypesInt16 | kTypesInt32, 0, kTypesInt16 | kTypesInt32, kTypesInt8And64};
inline constexpr TypeRule kTensorShiftTypes{
    0, 0, kTypesInt16 | kTypesInt32 | kTypesInt8And64, 0};

/// A shift whose counts are a tensor (the 950 profile's count form). Its
/// messages name both types, so it checks them by CheckTypeRule.
template <typename T, typename U>
void TensorShift(const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src0,
                 const AscendC::LocalTensor<U>& src1, int32_t count, bool left,
                 const CallSite& site) {
  const ApiCall call(site);
  static_assert(std::is_integral_v<T> && std::is_integral_v<U> &&
                    std::is_signed_v<U> && sizeof(U) == sizeof(T),
                "shifts by a tensor: U is the signed integer of T's size");
  char type[32];
  std::snprintf(type, sizeof type, "%s, %s", TypeName<T>(), TypeName<U>());
  CheckTypeRule(api, type, TypeBitOf<T>(), kTensorShiftTypes, true);
  VecInstruction in{api,
                    type,
                    LanesOf(sizeof(T)),
                    {{"dst", &dst.view(), sizeof(T)},
                     {"src0", &src0.view(), sizeof(T)},
                     {"src1", &src1.view(), sizeof(U)}},
                    3,
                    &TensorShiftSpan<T, U>};
  const TensorShiftParams params{left, api, type};
  in.params = &params;
  ExecuteCount(in, count);
}

/// A one-source instruction in any form (the count form on the flat path
/// where its operands allow): its lanes computed by `span` with `params`.
template <typename T, typename Form>
void UnaryCall(const char* api, const TypeRule& rule,
               const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, SpanFn span,
               const void* params, const Form& form) {
  const InstructionCall<T> call(api, rule, form);
  RunFormFlat(UnaryOf(api, dst, src, span, params), form);
}

/// And or Or in any form, as UnaryCall.
template <BitOp kOp, typename T, typename Form>
void LogicCall(const char* api, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src0,
               const AscendC::LocalTensor<T>& src1, const Form& form) {
  const InstructionCall<T> call(api, kAndOrTypes, form);
  RunFormFlat(BinaryOf(api, dst, src0, src1, &LogicSpan<kOp, T, false>), form);
}

/// A one-source instruction with a scalar (LeakyRelu's slope, the operand
/// of Ands and Ors) in any form, as UnaryCall; `span` reads the scalar,
/// this call's copy, through its params.
template <typename T, typename Form>
void UnaryScalarCall(const char* api, const TypeRule& rule,
                     const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<T>& src, SpanFn span,
                     const T scalar, const Form& form) {
  UnaryCall(api, rule, dst, src, span, &scalar, form);
}

}  // namespace normgrad_ascendc

// The three forms of a one-source instruction computing ExactUnary<kOp>.
#define NORMGRAD_UNARY_INSTRUCTION(Name, kRule, kOp)                      \
  template <typename T>                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,         \
            const int32_t& count, normgrad_ascendc::CallSite site = {}) { \
    normgrad_ascendc::UnaryCall(                                          \
        #Name, kRule, normgrad_ascendc::Plain(dst),                       \
        normgrad_ascendc::Plain(src),                                     \
        &normgrad_ascendc::ExactUnarySpan<kOp, PrimT<T>>, nullptr,        \
        normgrad_ascendc::CountForm{count, site});                        \
  }                                                                       \
  template <typename T, bool isSetMask = true>                            \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,         \
            const uint64_t mask[], const uint8_t repeatTime,              \
            const UnaryRepeatParams& repeatParams,                        \
            normgrad_ascendc::CallSite site = {}) {                       \
    normgrad_ascendc::UnaryCall(                                          \
        #Name, kRule, normgrad_ascendc::Plain(dst),                       \
        normgrad_ascendc::Plain(src),                                     \
        &normgrad_ascendc::ExactUnarySpan<kOp, PrimT<T>>, nullptr,        \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,       \
                                                  repeatParams, site));   \
  }                                                                       \
  template <typename T, bool isSetMask = true>                            \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,         \
            const uint64_t mask, const uint8_t repeatTime,                \
            const UnaryRepeatParams& repeatParams,                        \
            normgrad_ascendc::CallSite site = {}) {                       \
    normgrad_ascendc::UnaryCall(                                          \
        #Name, kRule, normgrad_ascendc::Plain(dst),                       \
        normgrad_ascendc::Plain(src),                                     \
        &normgrad_ascendc::ExactUnarySpan<kOp, PrimT<T>>, nullptr,        \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,       \
                                                  repeatParams, site));   \
  }

// The three forms of Exp, Ln, ... with their configuration (Config, whose
// algo is an Algo; MathCall).
#define NORMGRAD_MATH_INSTRUCTION(Name, kOp, Config, kDefault, kRule)     \
  template <typename T, const Config& config = kDefault>                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,         \
            const int32_t& count, normgrad_ascendc::CallSite site = {}) { \
    static_assert(normgrad_ascendc::kIsVectorFloat<PrimT<T>> ||           \
                      std::is_integral_v<PrimT<T>>,                       \
                  #Name ": T must be half or float");                     \
    normgrad_ascendc::MathCall<kOp, kRule>(                               \
        #Name, config, normgrad_ascendc::Plain(dst),                      \
        normgrad_ascendc::Plain(src),                                     \
        normgrad_ascendc::CountForm{count, site});                        \
  }                                                                       \
  template <typename T, bool isSetMask = true,                            \
            const Config& config = kDefault>                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,         \
            const uint64_t mask[], const uint8_t repeatTime,              \
            const UnaryRepeatParams& repeatParams,                        \
            normgrad_ascendc::CallSite site = {}) {                       \
    static_assert(normgrad_ascendc::kIsVectorFloat<PrimT<T>> ||           \
                      std::is_integral_v<PrimT<T>>,                       \
                  #Name ": T must be half or float");                     \
    normgrad_ascendc::MathCall<kOp, kRule>(                               \
        #Name, config, normgrad_ascendc::Plain(dst),                      \
        normgrad_ascendc::Plain(src),                                     \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,       \
                                                  repeatParams, site));   \
  }                                                                       \
  template <typename T, bool isSetMask = true,                            \
            const Config& config = kDefault>                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,         \
            const uint64_t mask, const uint8_t repeatTime,                \
            const UnaryRepeatParams& repeatParams,                        \
            normgrad_ascendc::CallSite site = {}) {                       \
    static_assert(normgrad_ascendc::kIsVectorFloat<PrimT<T>> ||           \
                      std::is_integral_v<PrimT<T>>,                       \
                  #Name ": T must be half or float");                     \
    normgrad_ascendc::MathCall<kOp, kRule>(                               \
        #Name, config, normgrad_ascendc::Plain(dst),                      \
        normgrad_ascendc::Plain(src),                                     \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,       \
                                                  repeatParams, site));   \
  }

namespace normgrad_ascendc {

// Which algorithms flush subnormals / use the FAST_INVERSE range rule; the
// tag argument picks the configuration's enum.
template <typename Algo>
constexpr bool MathFlushes(int algo, Algo) {
  // INTRINSIC (0) and PRECISION_1ULP_FTZ_TRUE flush.
  return algo == 0 || algo == static_cast<int>(Algo::PRECISION_1ULP_FTZ_TRUE);
}
template <typename Algo>
constexpr bool MathFastInverse(int algo, Algo) {
  if constexpr (std::is_same_v<Algo, AscendC::SqrtAlgo> ||
                std::is_same_v<Algo, AscendC::RsqrtAlgo>) {
    return algo == static_cast<int>(Algo::FAST_INVERSE) ||
           algo == static_cast<int>(Algo::PRECISION_0ULP_FTZ_FALSE);
  } else {
    return false;
  }
}

/// Exp, Ln, ... in any form under `config` (an ExpConfig, LnConfig, ...):
/// the type checked, then the configuration (MathParamsOf), then the run.
template <MathOp kOp, const TypeRule& kRule, typename T, typename Config,
          typename Form>
void MathCall(const char* api, const Config& config,
              const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const Form& form) {
  const InstructionCall<T> call(api, kRule, form);
  using Algo = decltype(config.algo);
  const int algo = static_cast<int>(config.algo);
  const bool fast = MathFastInverse(algo, Algo{});
  const MathParams p =
      MathParamsOf(api, TypeName<T>(), kOp, algo, MathFlushes(algo, Algo{}),
                   fast, fast, std::is_same_v<T, float>);
  RunFormFlat(UnaryOf(api, dst, src, &MathSpan<T>, &p), form);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = |src[i]|.
NORMGRAD_UNARY_INSTRUCTION(Abs, normgrad_ascendc::kAbsTypes,
                           normgrad_ascendc::BitOp::kAbs)
/// dst[i] = max(0, src[i]) (NaN stays NaN).
NORMGRAD_UNARY_INSTRUCTION(Relu, normgrad_ascendc::kReluTypes,
                           normgrad_ascendc::BitOp::kRelu)
/// dst[i] = ~src[i], the bits of any element type.
NORMGRAD_UNARY_INSTRUCTION(Not, normgrad_ascendc::kNotTypes,
                           normgrad_ascendc::BitOp::kNot)

/// dst[i] = e^src[i].
NORMGRAD_MATH_INSTRUCTION(Exp, normgrad_ascendc::MathOp::kExp, ExpConfig,
                          DEFAULT_EXP_CONFIG, normgrad_ascendc::kMathTypes)
/// dst[i] = ln src[i] (−inf at 0, NaN below).
NORMGRAD_MATH_INSTRUCTION(Ln, normgrad_ascendc::MathOp::kLn, LnConfig,
                          DEFAULT_LN_CONFIG, normgrad_ascendc::kMathTypes)
/// dst[i] = √src[i].
NORMGRAD_MATH_INSTRUCTION(Sqrt, normgrad_ascendc::MathOp::kSqrt, SqrtConfig,
                          DEFAULT_SQRT_CONFIG, normgrad_ascendc::kMathTypes)
/// dst[i] = 1 / √src[i].
NORMGRAD_MATH_INSTRUCTION(Rsqrt, normgrad_ascendc::MathOp::kRsqrt, RsqrtConfig,
                          DEFAULT_RSQRT_CONFIG, normgrad_ascendc::kMathTypes)
/// dst[i] = 1 / src[i].
NORMGRAD_MATH_INSTRUCTION(Reciprocal, normgrad_ascendc::MathOp::kReciprocal,
                          ReciprocalConfig, DEFAULT_RECIPROCAL_CONFIG,
                          normgrad_ascendc::kReciprocalTypes)

#undef NORMGRAD_UNARY_INSTRUCTION
#undef NORMGRAD_MATH_INSTRUCTION

/// dst[i] = −src[i] (the 950 profile's count form).
template <typename T>
void Neg(const LocalTensor<T>& dst, const LocalTensor<T>& src,
         const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::UnaryCall(
      "Neg", normgrad_ascendc::kNegTypes, dst, src,
      &normgrad_ascendc::ExactUnarySpan<normgrad_ascendc::BitOp::kNeg, T>,
      nullptr, normgrad_ascendc::CountForm{static_cast<int32_t>(count), site});
}

/// dst[i] = src[i] ≥ 0 ? src[i] : scalarValue · src[i].
template <typename T>
void LeakyRelu(
    const LocalTensor<T>& dst, const LocalTensor<T>& src,
    const typename normgrad_ascendc::NonDeduced<T>::type& scalarValue,
    const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsVectorFloat<PrimT<T>>,
                "LeakyRelu: T must be half or float");
  normgrad_ascendc::UnaryScalarCall(
      "LeakyRelu", normgrad_ascendc::kMathTypes, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), &normgrad_ascendc::LeakyReluSpan<PrimT<T>>,
      scalarValue, normgrad_ascendc::CountForm{count, site});
}
/// LeakyRelu's repeat forms (bit mask or continuous mask).
template <typename T, bool isSetMask = true, typename Mask>
void LeakyRelu(
    const LocalTensor<T>& dst, const LocalTensor<T>& src,
    const typename normgrad_ascendc::NonDeduced<T>::type& scalarValue,
    const Mask& mask, const uint8_t repeatTime,
    const UnaryRepeatParams& repeatParams,
    normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsVectorFloat<PrimT<T>>,
                "LeakyRelu: T must be half or float");
  normgrad_ascendc::UnaryScalarCall(
      "LeakyRelu", normgrad_ascendc::kMathTypes, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), &normgrad_ascendc::LeakyReluSpan<PrimT<T>>,
      scalarValue,
      normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime, repeatParams,
                                                site));
}

}  // namespace AscendC

// The three forms of And and Or.
#define NORMGRAD_LOGIC_INSTRUCTION(Name, kOp)                                 \
  template <typename T>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const int32_t& count,                 \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::LogicCall<kOp>(                                         \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        normgrad_ascendc::Plain(src1),                                        \
        normgrad_ascendc::CountForm{count, site});                            \
  }                                                                           \
  template <typename T, bool isSetMask = true, typename Mask>                 \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,            \
            const LocalTensor<T>& src1, const Mask& mask,                     \
            const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::LogicCall<kOp>(                                         \
        #Name, normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),   \
        normgrad_ascendc::Plain(src1),                                        \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,           \
                                                  repeatParams, site));       \
  }

// Ands and Ors, with the scalar after or before the tensor.
#define NORMGRAD_LOGIC_SCALAR_INSTRUCTION(Name, kOp)                          \
  template <typename T>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,             \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,     \
            const int32_t& count, normgrad_ascendc::CallSite site = {}) {     \
    normgrad_ascendc::UnaryScalarCall(                                        \
        #Name, normgrad_ascendc::kAndsOrsTypes, normgrad_ascendc::Plain(dst), \
        normgrad_ascendc::Plain(src),                                         \
        &normgrad_ascendc::LogicSpan<kOp, PrimT<T>, true>, scalar,            \
        normgrad_ascendc::CountForm{count, site});                            \
  }                                                                           \
  template <typename T>                                                       \
  void Name(const LocalTensor<T>& dst,                                        \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,     \
            const LocalTensor<T>& src, const int32_t& count,                  \
            normgrad_ascendc::CallSite site = {}) {                           \
    Name(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), scalar,  \
         count, site);                                                        \
  }                                                                           \
  template <typename T, bool isSetMask = true, typename Mask>                 \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,             \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,     \
            const Mask& mask, const uint8_t repeatTime,                       \
            const UnaryRepeatParams& repeatParams,                            \
            normgrad_ascendc::CallSite site = {}) {                           \
    normgrad_ascendc::UnaryScalarCall(                                        \
        #Name, normgrad_ascendc::kAndsOrsTypes, normgrad_ascendc::Plain(dst), \
        normgrad_ascendc::Plain(src),                                         \
        &normgrad_ascendc::LogicSpan<kOp, PrimT<T>, true>, scalar,            \
        normgrad_ascendc::RepeatFormOf<isSetMask>(mask, repeatTime,           \
                                                  repeatParams, site));       \
  }                                                                           \
  template <typename T, bool isSetMask = true, typename Mask>                 \
  void Name(const LocalTensor<T>& dst,                                        \
            const typename normgrad_ascendc::NonDeduced<T>::type& scalar,     \
            const LocalTensor<T>& src, const Mask& mask,                      \
            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,  \
            normgrad_ascendc::CallSite site = {}) {                           \
    Name<PrimT<T>, isSetMask>(normgrad_ascendc::Plain(dst),                   \
                              normgrad_ascendc::Plain(src), scalar, mask,     \
                              repeatTime, repeatParams, site);                \
  }

namespace AscendC {

/// dst[i] = src0[i] & src1[i].
NORMGRAD_LOGIC_INSTRUCTION(And, normgrad_ascendc::BitOp::kAnd)
/// dst[i] = src0[i] | src1[i].
NORMGRAD_LOGIC_INSTRUCTION(Or, normgrad_ascendc::BitOp::kOr)
/// dst[i] = src[i] & scalar (the 950 profile).
NORMGRAD_LOGIC_SCALAR_INSTRUCTION(Ands, normgrad_ascendc::BitOp::kAnd)
/// dst[i] = src[i] | scalar (the 950 profile).
NORMGRAD_LOGIC_SCALAR_INSTRUCTION(Ors, normgrad_ascendc::BitOp::kOr)

#undef NORMGRAD_LOGIC_INSTRUCTION
#undef NORMGRAD_LOGIC_SCALAR_INSTRUCTION

}  // namespace AscendC

namespace normgrad_ascendc {

inline constexpr TypeRule kPreluTypes{0, 0, 0, kTypesFloat};
inline constexpr TypeRule kMullTypes{0, 0, 0, kTypesInt32};

/// dst[i] = src0[i] ≥ 0 ? src0[i] : src0[i] · src1[i], the product rounded
/// once (half · half is exact in float).
template <typename T>
void PreluSpan(const SpanArgs& a) {
  T* d = static_cast<T*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  const T* y = static_cast<const T*>(a.operand[2]);
  for (uint32_t i = 0; i < a.n; ++i) {
    const float v = static_cast<float>(x[i]);
    d[i] = v >= 0.0f ? x[i] : static_cast<T>(v * static_cast<float>(y[i]));
  }
}

/// Mull's product of lane `first_lane + i`: the low word into operand[0],
/// the high word kept in `high` (indexed by lane) for dst1.
struct MullParams {
  uint32_t* high;
};
template <typename T>
void MullLowSpan(const SpanArgs& a) {
  const MullParams& p = *static_cast<const MullParams*>(a.params);
  T* d = static_cast<T*>(a.operand[0]);
  const T* x = static_cast<const T*>(a.operand[1]);
  const T* y = static_cast<const T*>(a.operand[2]);
  for (uint32_t i = 0; i < a.n; ++i) {
    using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    const uint64_t product = static_cast<uint64_t>(static_cast<Wide>(x[i]) *
                                                   static_cast<Wide>(y[i]));
    d[i] = static_cast<T>(static_cast<uint32_t>(product));
    p.high[a.first_lane + i] = static_cast<uint32_t>(product >> 32);
  }
}
/// dst1's lanes: the high words MullLowSpan kept.
template <typename T>
void MullHighSpan(const SpanArgs& a) {
  const MullParams& p = *static_cast<const MullParams*>(a.params);
  T* d = static_cast<T*>(a.operand[0]);
  for (uint32_t i = 0; i < a.n; ++i) {
    d[i] = static_cast<T>(p.high[a.first_lane + i]);
  }
}

/// Fails when Mull's dst0 and dst1 share a byte of their first `bytes`
/// (vector_math.cc).
void CheckMullDestinations(const char* type, const TensorView& dst0,
                           const TensorView& dst1, uint64_t bytes);

/// Mull: the products' low words into dst0 (which also checks dst0 and
/// the sources), then their high words into dst1 (its own checks); the
/// high words are kept between the two, so a destination may be a source.
template <typename T>
void MullCall(const AscendC::LocalTensor<T>& dst0,
              const AscendC::LocalTensor<T>& dst1,
              const AscendC::LocalTensor<T>& src0,
              const AscendC::LocalTensor<T>& src1, uint32_t count,
              const CallSite& site) {
  const InstructionCall<T> call("Mull", kMullTypes, /*count_form=*/true, site);
  CheckMullDestinations(TypeName<T>(), dst0.view(), dst1.view(),
                        uint64_t{count} * sizeof(T));
  const uint32_t lanes = LanesOf(sizeof(T));
  std::vector<uint32_t> high((uint64_t{count} + lanes - 1) / lanes * lanes);
  const MullParams params{high.data()};
  VecInstruction low = BinaryOf("Mull", dst0, src0, src1, &MullLowSpan<T>);
  low.operand[0].name = "dst0";
  low.params = &params;
  ExecuteCount(low, count);
  VecInstruction upper = BinaryOf("Mull", dst1, src0, src1, &MullHighSpan<T>);
  upper.operand[0].name = "dst1";
  upper.params = &params;
  ExecuteCount(upper, count);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src0[i] ≥ 0 ? src0[i] : src0[i] · src1[i], i < count (the 950
/// profile; half or float).
template <typename T>
void Prelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
           const LocalTensor<T>& src1, const uint32_t count,
           normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Prelu", normgrad_ascendc::kPreluTypes, /*count_form=*/true, site);
  normgrad_ascendc::ExecuteCount(
      normgrad_ascendc::BinaryOf("Prelu", normgrad_ascendc::Plain(dst),
                                 normgrad_ascendc::Plain(src0),
                                 normgrad_ascendc::Plain(src1),
                                 &normgrad_ascendc::PreluSpan<PrimT<T>>),
      count);
}

/// dst0[i] = the low 32 bits, dst1[i] = the high 32 bits of the 64-bit
/// product src0[i] · src1[i], i < count (the 950 profile; int32_t or
/// uint32_t).
template <typename T>
void Mull(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
          const LocalTensor<T>& src0, const LocalTensor<T>& src1,
          const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::MullCall(normgrad_ascendc::Plain(dst0),
                             normgrad_ascendc::Plain(dst1),
                             normgrad_ascendc::Plain(src0),
                             normgrad_ascendc::Plain(src1), count, site);
}

}  // namespace AscendC

namespace normgrad_ascendc {

/// A shift as an instruction of the executor, its count checked; `p` must
/// outlive it.
template <typename T>
VecInstruction ShiftInstruction(const char* api,
                                const AscendC::LocalTensor<T>& dst,
                                const AscendC::LocalTensor<T>& src, T count,
                                bool left, bool round, ShiftParams& p) {
  static_assert(std::is_integral_v<T>, "shifts take integer elements");
  CheckShiftCount(api, TypeName<T>(), static_cast<int64_t>(count),
                  sizeof(T) * 8);
  const bool rounds = std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;
  p = {static_cast<uint64_t>(count), left, round && rounds};
  return UnaryOf(api, dst, src, &ShiftSpan<T>, &p);
}

/// A shift by a scalar count in any form (ShiftRight's roundEn: `round`).
template <typename T, typename Form>
void ShiftCall(const char* api, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, T count, bool left,
               bool round, const Form& form) {
  const InstructionCall<T> call(api, kShiftTypes, form);
  ShiftParams p;
  RunForm(ShiftInstruction(api, dst, src, count, left, round, p), form);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = src[i] << scalarValue.
template <typename T>
void ShiftLeft(
    const LocalTensor<T>& dst, const LocalTensor<T>& src,
    const typename normgrad_ascendc::NonDeduced<T>::type& scalarValue,
    const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ShiftCall("ShiftLeft", normgrad_ascendc::Plain(dst),
                              normgrad_ascendc::Plain(src), scalarValue, true,
                              false, normgrad_ascendc::CountForm{count, site});
}
/// ShiftLeft's repeat forms.
template <typename T, bool isSetMask = true, typename Mask>
void ShiftLeft(
    const LocalTensor<T>& dst, const LocalTensor<T>& src,
    const typename normgrad_ascendc::NonDeduced<T>::type& scalarValue,
    const Mask& mask, const uint8_t repeatTime,
    const UnaryRepeatParams& repeatParams,
    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ShiftCall("ShiftLeft", normgrad_ascendc::Plain(dst),
                              normgrad_ascendc::Plain(src), scalarValue, true,
                              false,
                              normgrad_ascendc::RepeatFormOf<isSetMask>(
                                  mask, repeatTime, repeatParams, site));
}

/// dst[i] = src[i] >> scalarValue (logical for unsigned T, arithmetic for
/// signed).
template <typename T>
void ShiftRight(
    const LocalTensor<T>& dst, const LocalTensor<T>& src,
    const typename normgrad_ascendc::NonDeduced<T>::type& scalarValue,
    const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ShiftCall("ShiftRight", normgrad_ascendc::Plain(dst),
                              normgrad_ascendc::Plain(src), scalarValue, false,
                              false, normgrad_ascendc::CountForm{count, site});
}
/// ShiftRight's repeat forms; roundEn adds the last bit shifted out
/// (int16_t and int32_t).
template <typename T, bool isSetMask = true, typename Mask>
void ShiftRight(
    const LocalTensor<T>& dst, const LocalTensor<T>& src,
    const typename normgrad_ascendc::NonDeduced<T>::type& scalarValue,
    const Mask& mask, const uint8_t repeatTime,
    const UnaryRepeatParams& repeatParams, bool roundEn = false,
    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ShiftCall("ShiftRight", normgrad_ascendc::Plain(dst),
                              normgrad_ascendc::Plain(src), scalarValue, false,
                              roundEn,
                              normgrad_ascendc::RepeatFormOf<isSetMask>(
                                  mask, repeatTime, repeatParams, site));
}

/// dst[i] = src0[i] << src1[i] (the 950 profile; counts at least 0).
template <typename T, typename U>
void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
               const LocalTensor<U>& src1, const int32_t& count,
               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::TensorShift(
      "ShiftLeft", normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      normgrad_ascendc::Plain(src1), count, true, site);
}
/// dst[i] = src0[i] >> src1[i] (the 950 profile; counts at least 0).
template <typename T, typename U>
void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1, const int32_t& count,
                normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::TensorShift(
      "ShiftRight", normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src0),
      normgrad_ascendc::Plain(src1), count, false, site);
}

}  // namespace AscendC
