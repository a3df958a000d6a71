// kernels/vector_inl.h — the elementwise loops of the emulated vector unit
// (kernels::VectorKernels), written once and compiled by each instruction
// set's src/kernels/vector_<isa>.cc inside its target region, where the
// compiler vectorizes them for that set. The binary and scalar-operand
// float loops exist once per way their operands may share memory
// (separate, or the destination being a source itself), every pointer
// restrict-qualified, so that the compiler needs no run-time alias check to
// vectorize; the others say so with NORMGRAD_SAME_INDEX (below). Float
// arithmetic is IEEE: no contraction into fused multiply-add (the build
// compiles with -ffp-contract=off), so every instruction set gives the same
// bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/kernels.h"

namespace normgrad::kernels {
namespace {

template <VectorOp kOp>
inline float ApplyOp(float a, float b) {
  switch (kOp) {
    case VectorOp::kAdd:
      return a + b;
    case VectorOp::kSub:
      return a - b;
    case VectorOp::kMul:
      return a * b;
    case VectorOp::kDiv:
      return a / b;
    case VectorOp::kMax:  // NaN when either is NaN
      return (a != a || a > b) ? a : b;
    case VectorOp::kMin:
      return (a != a || a < b) ? a : b;
  }
  return 0.0f;
}

template <VectorOp kOp>
void BinaryDisjoint(float* __restrict d, const float* __restrict a,
                    const float* __restrict b, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(a[i], b[i]);
}
template <VectorOp kOp>
void BinaryIntoFirst(float* __restrict d, const float* __restrict b, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(d[i], b[i]);
}
template <VectorOp kOp>
void BinaryIntoSecond(float* __restrict d, const float* __restrict a, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(a[i], d[i]);
}
template <VectorOp kOp>
void BinaryIntoBoth(float* d, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(d[i], d[i]);
}

// d[i] = op(a[i], b[i]); d is a, b, or apart from both.
template <VectorOp kOp>
void Binary(float* d, const float* a, const float* b, size_t n) {
  if (d == a && d == b) {
    BinaryIntoBoth<kOp>(d, n);
  } else if (d == a) {
    BinaryIntoFirst<kOp>(d, b, n);
  } else if (d == b) {
    BinaryIntoSecond<kOp>(d, a, n);
  } else {
    BinaryDisjoint<kOp>(d, a, b, n);
  }
}

void PairSums(const float* __restrict from, float* __restrict to, size_t pairs) {
  for (size_t i = 0; i < pairs; ++i) to[i] = from[2 * i] + from[2 * i + 1];
}

template <VectorOp kOp>
void ScalarDisjoint(float* __restrict d, const float* __restrict a, float s,
                    size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(a[i], s);
}
template <VectorOp kOp>
void ScalarInPlace(float* d, float s, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(d[i], s);
}

// d[i] = op(a[i], s); d is a or apart from it.
template <VectorOp kOp>
void WithScalar(float* d, const float* a, float s, size_t n) {
  if (d == a) {
    ScalarInPlace<kOp>(d, s, n);
  } else {
    ScalarDisjoint<kOp>(d, a, s, n);
  }
}

// The one-source, compound and conversion loops below may be called with
// the destination being a source (never overlapping it otherwise): each
// element reads its own index only, so NORMGRAD_SAME_INDEX (GCC's ivdep,
// clang's assume_safety) lets the compiler vectorize without a run-time
// alias check (one loop serves every way of sharing). Sqrt vectorizes
// because these files compile with -fno-math-errno.
#if defined(__clang__)
#define NORMGRAD_SAME_INDEX _Pragma("clang loop vectorize(assume_safety)")
#else
#define NORMGRAD_SAME_INDEX _Pragma("GCC ivdep")
#endif

template <UnaryOp kOp>
void Unary(float* d, const float* a, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const float x = a[i];
    switch (kOp) {
      case UnaryOp::kAbs:
        d[i] = __builtin_fabsf(x);  // clears the sign bit, NaN included
        break;
      case UnaryOp::kRelu:
        d[i] = (x != x || x > 0.0f) ? x : 0.0f;
        break;
      case UnaryOp::kSqrt:
        d[i] = __builtin_sqrtf(x);
        break;
      case UnaryOp::kRsqrt:
        d[i] = static_cast<float>(1.0 / __builtin_sqrt(static_cast<double>(x)));
        break;
      case UnaryOp::kReciprocal:
        d[i] = 1.0f / x;
        break;
    }
  }
}

void LeakyRelu(float* d, const float* a, float slope, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) d[i] = a[i] >= 0.0f ? a[i] : a[i] * slope;
}

void AbsHalfBits(uint16_t* d, const uint16_t* a, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) d[i] = static_cast<uint16_t>(a[i] & 0x7fffu);
}

// Kept: positive (sign clear, not zero; +inf included) or NaN (exponent all
// ones, fraction not zero), else +0.
void ReluHalfBits(uint16_t* d, const uint16_t* a, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const uint16_t h = a[i];
    const bool keep = (h < 0x8000u && h != 0) || (h & 0x7fffu) > 0x7c00u;
    d[i] = keep ? h : uint16_t{0};
  }
}

inline float Relu(float x) { return (x != x || x > 0.0f) ? x : 0.0f; }

template <CompoundOp kOp>
void Compound(float* d, const float* a, const float* b, float s, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    switch (kOp) {
      case CompoundOp::kAxpy:
        d[i] = a[i] * s + d[i];
        break;
      case CompoundOp::kFusedMulAdd:
        d[i] = a[i] * d[i] + b[i];
        break;
      case CompoundOp::kMulAddDst:
        d[i] = a[i] * b[i] + d[i];
        break;
      case CompoundOp::kAddRelu:
        d[i] = Relu(a[i] + b[i]);
        break;
      case CompoundOp::kSubRelu:
        d[i] = Relu(a[i] - b[i]);
        break;
      case CompoundOp::kMulAddRelu:
        d[i] = Relu(a[i] * d[i] + b[i]);
        break;
    }
  }
}

template <CompareOp kOp>
inline bool Holds(float x, float y) {
  switch (kOp) {
    case CompareOp::kLt:
      return x < y;
    case CompareOp::kGt:
      return x > y;
    case CompareOp::kEq:
      return x == y;
    case CompareOp::kLe:
      return x <= y;
    case CompareOp::kGe:
      return x >= y;
    case CompareOp::kNe:
      return !(x == y);
  }
  return false;
}

// 64 lanes at a time into a word, stored a byte (8 lanes) at a time.
template <CompareOp kOp, bool kScalar>
void CompareWords(uint8_t* __restrict bits, const float* __restrict a,
                  const float* __restrict b, float s, size_t n) {
  for (size_t w = 0; w < n / 64; ++w) {
    uint64_t word = 0;
    for (unsigned j = 0; j < 64; ++j) {
      const float y = kScalar ? s : b[64 * w + j];
      word |= static_cast<uint64_t>(Holds<kOp>(a[64 * w + j], y)) << j;
    }
    for (unsigned k = 0; k < 8; ++k) {
      bits[8 * w + k] = static_cast<uint8_t>(word >> (8 * k));
    }
  }
}

template <CompareOp kOp>
void Compare(uint8_t* bits, const float* a, const float* b, float s, size_t n) {
  if (b == nullptr) {
    CompareWords<kOp, true>(bits, a, nullptr, s, n);
  } else {
    CompareWords<kOp, false>(bits, a, b, s, n);
  }
}

// One shift of V (an integer of bits U, or a vector of them; VS: the same
// bits signed) by a count below the width, plus bit `bit` of x when
// kRound, into r (operands by reference: a 64-byte vector passed by value
// would change the calling convention between instruction sets).
template <typename V, typename VS, bool kSigned, bool kRight, bool kRound>
inline void ShiftBits(const V& x, uint32_t count, uint32_t bit, const V& one,
                      const V& sign, V& r) {
  if constexpr (kRight) {
    if constexpr (kSigned) {
      r = (V)((VS)x >> count);  // arithmetic
    } else {
      r = (V)(x >> count);
    }
  } else if constexpr (kSigned) {
    r = (V)((x & sign) | ((V)(x << count) & (V)~sign));  // the sign bit stays
  } else {
    r = (V)(x << count);
  }
  if constexpr (kRound) r = (V)(r + ((V)(x >> bit) & one));
}

// 64 bytes of T as a GCC vector (an attribute on a dependent type is
// ignored, so each type is spelled out).
template <typename T>
struct Vec64;
template <>
struct Vec64<uint16_t> {
  typedef uint16_t type __attribute__((vector_size(64)));
};
template <>
struct Vec64<int16_t> {
  typedef int16_t type __attribute__((vector_size(64)));
};
template <>
struct Vec64<uint32_t> {
  typedef uint32_t type __attribute__((vector_size(64)));
};
template <>
struct Vec64<int32_t> {
  typedef int32_t type __attribute__((vector_size(64)));
};

// U holds the bits; kSigned: they are a two's complement integer. The body
// shifts 64-byte vectors by the one count (GCC's vector extension: a shift
// of each element as one, where a loop over promoted elements would widen
// 16-bit elements to int).
template <typename U, bool kSigned, bool kRight, bool kRound>
void ShiftLoop(U* d, const U* a, uint32_t count, uint32_t bit, size_t n) {
  using S = std::make_signed_t<U>;
  using VU = typename Vec64<U>::type;
  using VS = typename Vec64<S>::type;
  constexpr size_t kLanes = 64 / sizeof(U);
  constexpr U kSign = static_cast<U>(U{1} << (sizeof(U) * 8 - 1));
  const VU one = VU{} + U{1}, sign = VU{} + kSign;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    VU x, r;
    std::memcpy(&x, a + i, sizeof x);
    ShiftBits<VU, VS, kSigned, kRight, kRound>(x, count, bit, one, sign, r);
    std::memcpy(d + i, &r, sizeof r);
  }
  for (; i < n; ++i) {
    ShiftBits<U, S, kSigned, kRight, kRound>(a[i], count, bit, U{1}, kSign, d[i]);
  }
}

template <typename U, bool kSigned, bool kRight>
void Shift(U* d, const U* a, uint32_t count, int round_bit, size_t n) {
  if (round_bit >= 0) {
    ShiftLoop<U, kSigned, kRight, true>(d, a, count, static_cast<uint32_t>(round_bit), n);
  } else {
    ShiftLoop<U, kSigned, kRight, false>(d, a, count, 0, n);
  }
}

// x rounded to an integral value of its type F (float or double).
template <typename F, CastRound kRound>
inline F RoundToIntegral(F x) {
  constexpr bool kFloat = std::is_same_v<F, float>;
  switch (kRound) {
    case CastRound::kFloor:
      return kFloat ? __builtin_floorf(x) : __builtin_floor(x);
    case CastRound::kCeil:
      return kFloat ? __builtin_ceilf(x) : __builtin_ceil(x);
    case CastRound::kTrunc:
      return kFloat ? __builtin_truncf(x) : __builtin_trunc(x);
    case CastRound::kRound: {
      // x − trunc(x) is exact; a half or more away moves one further out.
      const F t = kFloat ? __builtin_truncf(x) : __builtin_trunc(x);
      const F one = kFloat ? __builtin_copysignf(1.0f, x) : __builtin_copysign(1.0, x);
      return (kFloat ? __builtin_fabsf(x - t) : __builtin_fabs(x - t)) >= F(0.5) ? t + one : t;
    }
    default:  // kRint (kOdd never reaches here)
      return kFloat ? __builtin_nearbyintf(x) : __builtin_nearbyint(x);
  }
}

template <CastRound kRound>
void ToInt32(int32_t* d, const float* a, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const float r = RoundToIntegral<float, kRound>(a[i]);
    d[i] = r != r                ? 0
           : r >= 0x1p31f       ? INT32_MAX
           : r < -0x1p31f       ? INT32_MIN
                                : static_cast<int32_t>(r);
  }
}

void FromInt32(float* d, const int32_t* a, size_t n) {
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) d[i] = static_cast<float>(a[i]);
}

// ---- The generic conversions (VectorKernels::cast) -------------------------
//
// Every source but int64 is exact in double, so each element goes through
// its double: into an integer it is rounded to an integral double (exact)
// and saturated; into a float format RoundToBinary rounds its bits once.
// Both are the rules of the element conversion (sign · m · 2^e rounded
// once, vector_convert.cc), computed on the double's bits.

// The storage of each CastType (half and bfloat16 as their bits).
template <CastType kT>
struct CastStorage;
template <> struct CastStorage<CastType::kI8> { using type = int8_t; };
template <> struct CastStorage<CastType::kU8> { using type = uint8_t; };
template <> struct CastStorage<CastType::kI16> { using type = int16_t; };
template <> struct CastStorage<CastType::kU16> { using type = uint16_t; };
template <> struct CastStorage<CastType::kI32> { using type = int32_t; };
template <> struct CastStorage<CastType::kU32> { using type = uint32_t; };
template <> struct CastStorage<CastType::kI64> { using type = int64_t; };
template <> struct CastStorage<CastType::kF16> { using type = uint16_t; };
template <> struct CastStorage<CastType::kBf16> { using type = uint16_t; };
template <> struct CastStorage<CastType::kF32> { using type = uint32_t; };

constexpr bool IsFloatType(CastType t) {
  return t == CastType::kF16 || t == CastType::kBf16 || t == CastType::kF32;
}

inline float FloatFromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// A half's value: its magnitude bits shifted into a float's place read as
// a float are the value · 2^−112 (subnormals too), so one exact
// multiplication scales them; exponent all ones is infinity or NaN.
inline float HalfValue(uint16_t h) {
  const uint32_t mag = static_cast<uint32_t>(h & 0x7fffu) << 13;
  const float scaled = FloatFromBits(mag) * 0x1p112f;
  uint32_t bits;
  std::memcpy(&bits, &scaled, sizeof bits);
  bits = mag >= 0x0f800000u ? mag | 0x7f800000u : bits;
  return FloatFromBits(bits | static_cast<uint32_t>(h & 0x8000u) << 16);
}

template <CastType kS>
inline double CastSourceValue(typename CastStorage<kS>::type v) {
  if constexpr (kS == CastType::kF16) {
    return HalfValue(v);
  } else if constexpr (kS == CastType::kBf16) {
    return FloatFromBits(static_cast<uint32_t>(v) << 16);
  } else if constexpr (kS == CastType::kF32) {
    return FloatFromBits(v);
  } else {
    return static_cast<double>(v);
  }
}

// The bits of x (finite, infinite or NaN, never a double subnormal: no
// source has one) rounded once into the binary format of kP significand
// bits (the leading one included), normal exponents kEmin..kEmax, kBits
// wide. The significand m (53 bits) is shifted right to the format's last
// place (below kEmin the subnormal one; 54 places or more leave nothing,
// and what is dropped is then below one half); the dropped bits against
// one half decide the rounding; exponent and significand are added as one
// integer, so a carry out of the significand moves into the exponent and
// past the largest exponent reaches infinity's bits.
template <int kP, int kEmin, int kEmax, int kBits, CastRound kRound>
inline uint32_t RoundToBinary(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  const bool neg = (b >> 63) != 0;
  const uint64_t abs = b & ~(uint64_t{1} << 63);
  const int64_t top = static_cast<int64_t>(abs >> 52) - 1023;
  const uint64_t m = (abs & ((uint64_t{1} << 52) - 1)) | uint64_t{1} << 52;
  const int64_t below = kEmin - top;  // > 0: subnormal in the format
  int64_t shift = (53 - kP) + (below > 0 ? below : 0);
  shift = shift > 54 ? 54 : shift;
  const uint64_t q = m >> shift;
  const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  uint64_t r = q;
  switch (kRound) {
    case CastRound::kRint:
      r = q + (rem > half || (rem == half && (q & 1u) != 0));
      break;
    case CastRound::kFloor:
      r = q + (rem != 0 && neg);
      break;
    case CastRound::kCeil:
      r = q + (rem != 0 && !neg);
      break;
    case CastRound::kTrunc:
      break;
    case CastRound::kRound:
      r = q + (rem >= half);
      break;
    case CastRound::kOdd:
      r = q | (rem != 0);
      break;
  }
  constexpr uint64_t kInf = ((uint64_t{1} << (kBits - kP)) - 1) << (kP - 1);
  constexpr bool kUpIsInf = kRound == CastRound::kRint || kRound == CastRound::kRound;
  const uint64_t exponent = below > 0 ? 0 : static_cast<uint64_t>(top + kEmax - 1);
  uint64_t mag = (exponent << (kP - 1)) + r;
  const bool to_inf = kUpIsInf || (kRound == CastRound::kFloor && neg) ||
                      (kRound == CastRound::kCeil && !neg);
  mag = mag >= kInf ? (to_inf ? kInf : kInf - 1) : mag;
  constexpr uint64_t kDoubleInf = uint64_t{0x7ff} << 52;
  mag = abs == 0 ? 0 : abs == kDoubleInf ? kInf : mag;
  const uint64_t sign = neg ? uint64_t{1} << (kBits - 1) : 0;
  return static_cast<uint32_t>(abs > kDoubleInf ? kInf | uint64_t{1} << (kP - 2) : sign | mag);
}

template <CastType kD, CastRound kRound>
inline uint32_t ToFloatBits(double x) {
  if constexpr (kD == CastType::kF16) {
    return RoundToBinary<11, -14, 15, 16, kRound>(x);
  } else if constexpr (kD == CastType::kBf16) {
    return RoundToBinary<8, -126, 127, 16, kRound>(x);
  } else {
    return RoundToBinary<24, -126, 127, 32, kRound>(x);
  }
}

// x rounded to an integer of D and saturated; NaN gives 0.
template <typename D, CastRound kRound>
inline D ToInteger(double x) {
  constexpr double kLow = static_cast<double>(std::numeric_limits<D>::min());
  // 2^digits: one past the largest, exact where the largest is not.
  constexpr double kPastHigh =
      2.0 * static_cast<double>(std::numeric_limits<D>::max() / 2 + 1);
  const double r = RoundToIntegral<double, kRound>(x);
  return r != r               ? D{0}
         : r >= kPastHigh     ? std::numeric_limits<D>::max()
         : r < kLow           ? std::numeric_limits<D>::min()
                              : static_cast<D>(r);
}

template <CastType kS, CastType kD, CastRound kRound>
void CastLoop(void* dv, const void* av, size_t n) {
  using S = typename CastStorage<kS>::type;
  using D = typename CastStorage<kD>::type;
  D* d = static_cast<D*>(dv);
  const S* a = static_cast<const S*>(av);
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const double x = CastSourceValue<kS>(a[i]);
    if constexpr (!IsFloatType(kD)) {
      d[i] = ToInteger<D, kRound>(x);
    } else if constexpr (kS == kD) {  // float → float: to an integral value
      d[i] = ToFloatBits<kD, CastRound::kRint>(RoundToIntegral<double, kRound>(x));
    } else {
      d[i] = static_cast<D>(ToFloatBits<kD, kRound>(x));
    }
  }
}

// 32 bytes in a vector register (two SSE moves, or one AVX move).
using Bytes32 = uint8_t __attribute__((vector_size(32)));

// Copies `bytes` between regions that do not overlap as kCopyStreams equal
// parts, 64 bytes from each in turn (a hardware prefetcher follows each
// part as a stream: four streams reach the bandwidth one does not); what the
// parts leave (under kCopyStreams·64 bytes) goes last.
void CopyStreams(uint8_t* __restrict dst, const uint8_t* __restrict src,
                 size_t bytes) {
  constexpr size_t kCopyStreams = 4;
  const size_t part = bytes / kCopyStreams / 64 * 64;
  for (size_t i = 0; i < part; i += 64) {
    for (size_t k = 0; k < kCopyStreams; ++k) {
      const size_t at = k * part + i;
      Bytes32 low, high;
      std::memcpy(&low, src + at, 32);
      std::memcpy(&high, src + at + 32, 32);
      std::memcpy(dst + at, &low, 32);
      std::memcpy(dst + at + 32, &high, 32);
    }
  }
  const size_t done = kCopyStreams * part;
  std::memcpy(dst + done, src + done, bytes - done);
}

#undef NORMGRAD_SAME_INDEX

}  // namespace
}  // namespace normgrad::kernels
