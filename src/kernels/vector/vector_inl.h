// kernels/vector/vector_inl.h — the elementwise loops of the emulated vector unit
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

#include "kernels/isa/arrays_inl.h"
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
void BinaryDisjoint(float* __restrict d, const float* __restrict a, const float* __restrict b,
                    size_t n) {
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

template <VectorOp kOp>
void ScalarDisjoint(float* __restrict d, const float* __restrict a, float s, size_t n) {
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

// 64 bytes of T as a GCC vector (an attribute on a dependent type is
// ignored, so each type is spelled out). Loops over such vectors are one
// source for every set: the compiler splits them into the set's registers
// (one AVX-512 register, two AVX2 ones, four of SSE or NEON).
template <typename T>
struct Vec64;
#define NORMGRAD_VEC64(T)                            \
  template <>                                        \
  struct Vec64<T> {                                  \
    typedef T type __attribute__((vector_size(64))); \
  };
NORMGRAD_VEC64(uint8_t)
NORMGRAD_VEC64(int8_t)
NORMGRAD_VEC64(uint16_t)
NORMGRAD_VEC64(int16_t)
NORMGRAD_VEC64(uint32_t)
NORMGRAD_VEC64(int32_t)
NORMGRAD_VEC64(uint64_t)
NORMGRAD_VEC64(int64_t)
NORMGRAD_VEC64(float)
#undef NORMGRAD_VEC64

// ---- Integers and bits (VectorKernels::int_ops, logic, arg_extreme_*) ----
//
// Each loop takes 64-byte vectors of the elements (Vec64) while whole ones
// are left, then the rest one element at a time with the same function, so
// that every set gives the same bits.

// One integer operation on T or a vector of T (operands by reference: a
// 64-byte vector passed by value would change the calling convention
// between instruction sets): +, −, × in the unsigned type of the same bits
// (modulo 2^bits, no signed overflow; VU is that type), Max, Min.
template <VectorOp kOp, typename VU, typename V>
inline void IntOp(const V& x, const V& y, V& r) {
  switch (kOp) {
    case VectorOp::kAdd:
      r = (V)((VU)x + (VU)y);
      break;
    case VectorOp::kSub:
      r = (V)((VU)x - (VU)y);
      break;
    case VectorOp::kMul:
      r = (V)((VU)x * (VU)y);
      break;
    case VectorOp::kMax:
      r = x > y ? x : y;
      break;
    default:  // kMin (kDiv has no loop)
      r = x < y ? x : y;
      break;
  }
}

// d[i] = op(a[i], b[i]), or op(a[i], s) (kScalar: s's low bytes); d is a,
// b, or apart from both (a vector is read whole before it is written).
template <typename T, VectorOp kOp, bool kScalar>
void IntLoop(void* dv, const void* av, const void* bv, uint64_t s, size_t n) {
  using U = std::make_unsigned_t<T>;
  // 8- and 16-bit elements computed in unsigned int (no promoted int overflows).
  using W = std::conditional_t<(sizeof(T) < sizeof(uint32_t)), uint32_t, U>;
  using V = typename Vec64<T>::type;
  using VU = typename Vec64<U>::type;
  constexpr size_t kLanes = 64 / sizeof(T);
  T* d = static_cast<T*>(dv);
  const T* a = static_cast<const T*>(av);
  const T* b = static_cast<const T*>(bv);
  const T scalar = static_cast<T>(s);
  const V splat = V{} + scalar;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    V x, y, r;
    std::memcpy(&x, a + i, sizeof x);
    if constexpr (kScalar) {
      y = splat;
    } else {
      std::memcpy(&y, b + i, sizeof y);
    }
    IntOp<kOp, VU>(x, y, r);
    std::memcpy(d + i, &r, sizeof r);
  }
  for (; i < n; ++i) {
    T r;
    IntOp<kOp, W>(a[i], kScalar ? scalar : b[i], r);
    d[i] = r;
  }
}

template <typename T, VectorOp kOp>
void IntOps(void* d, const void* a, const void* b, uint64_t s, size_t n) {
  if (b == nullptr) {
    IntLoop<T, kOp, true>(d, a, nullptr, s, n);
  } else {
    IntLoop<T, kOp, false>(d, a, b, s, n);
  }
}

// And, Or, Not of `bytes` bytes as 64-byte vectors; pattern: 64 bytes of
// the second operand where it is a scalar (kScalar).
template <LogicOp kOp, bool kScalar>
void LogicLoop(uint8_t* d, const uint8_t* a, const uint8_t* b, const uint8_t* pattern,
               size_t bytes) {
  using V = Vec64<uint8_t>::type;
  V p;
  std::memcpy(&p, pattern, sizeof p);
  const auto bits_at = [&](size_t i, V& r) {
    V x, y = p;
    std::memcpy(&x, a + i, sizeof x);
    if constexpr (!kScalar && kOp != LogicOp::kNot) std::memcpy(&y, b + i, sizeof y);
    r = kOp == LogicOp::kAnd ? (V)(x & y) : kOp == LogicOp::kOr ? (V)(x | y) : (V)~x;
  };
  size_t i = 0;
  // Two vectors a step: fewer loop instructions per byte, which a short
  // call's few steps feel.
  for (; i + 128 <= bytes; i += 128) {
    V r0, r1;
    bits_at(i, r0);
    bits_at(i + 64, r1);
    std::memcpy(d + i, &r0, sizeof r0);
    std::memcpy(d + i + 64, &r1, sizeof r1);
  }
  if (i + 64 <= bytes) {
    V r;
    bits_at(i, r);
    std::memcpy(d + i, &r, sizeof r);
    i += 64;
  }
  for (size_t k = 0; i < bytes; ++i, ++k) {
    const uint8_t y = kScalar ? pattern[k] : kOp != LogicOp::kNot ? b[i] : 0;
    d[i] = static_cast<uint8_t>(kOp == LogicOp::kAnd  ? a[i] & y
                                : kOp == LogicOp::kOr ? a[i] | y
                                                      : ~a[i]);
  }
}

// VectorKernels::logic: the bits of n elements of elem_bytes bytes.
template <LogicOp kOp>
void Logic(void* d, const void* a, const void* b, uint64_t scalar, uint32_t elem_bytes, size_t n) {
  uint8_t* to = static_cast<uint8_t*>(d);
  const uint8_t* x = static_cast<const uint8_t*>(a);
  const size_t bytes = n * elem_bytes;
  uint8_t pattern[64] = {};
  if (kOp != LogicOp::kNot && b == nullptr) {
    // The element in every elem_bytes-byte part of a uint64_t (whose bytes
    // in memory are then the element's, in either byte order), 8 times.
    uint64_t word = elem_bytes == 8 ? scalar : scalar & ((uint64_t{1} << (8 * elem_bytes)) - 1);
    for (uint32_t w = elem_bytes; w < 8; w *= 2) word |= word << (8 * w);
    for (size_t k = 0; k < 64; k += 8) std::memcpy(pattern + k, &word, 8);
    LogicLoop<kOp, true>(to, x, nullptr, pattern, bytes);
  } else {
    LogicLoop<kOp, false>(to, x, static_cast<const uint8_t*>(b), pattern, bytes);
  }
}

// VectorKernels::arg_extreme_f32: lane j of the vectors keeps the greatest
// (kMin: least) value it has seen and where, replacing it only by a
// strictly greater one (so the earliest of equal ones stays); the lanes are
// then combined, equal values (−0 and +0 too) by the smaller position. A
// NaN anywhere makes the first NaN the result, found by a second look.
template <bool kMin>
uint32_t ArgExtremeF32(const float* a, uint32_t n) {
  using VF = Vec64<float>::type;
  using VI = Vec64<int32_t>::type;
  constexpr uint32_t kLanes = 16;
  uint32_t i = 0, best_at = 0;
  float best = a[0];
  bool nan = false;
  if (n >= kLanes) {
    VF m, x;
    VI at, idx, seen_nan;
    std::memcpy(&m, a, sizeof m);
    for (uint32_t j = 0; j < kLanes; ++j) idx[j] = static_cast<int32_t>(j);
    at = idx;
    seen_nan = (VI)(m != m);
    for (i = kLanes; i + kLanes <= n; i += kLanes) {
      std::memcpy(&x, a + i, sizeof x);
      idx += static_cast<int32_t>(kLanes);
      const VI take = kMin ? (VI)(x < m) : (VI)(x > m);
      m = take ? x : m;
      at = take ? idx : at;
      seen_nan |= (VI)(x != x);
    }
    best = m[0];
    best_at = static_cast<uint32_t>(at[0]);
    for (uint32_t j = 1; j < kLanes; ++j) {
      const float v = m[j];
      const uint32_t k = static_cast<uint32_t>(at[j]);
      if ((kMin ? v < best : v > best) || (v == best && k < best_at)) {
        best = v;
        best_at = k;
      }
      nan |= seen_nan[j] != 0;
    }
    nan |= seen_nan[0] != 0;
  } else {
    i = 1;
    nan = a[0] != a[0];
  }
  for (; i < n; ++i) {
    const float v = a[i];
    nan |= v != v;
    if (kMin ? v < best : v > best) {
      best = v;
      best_at = i;
    }
  }
  if (nan) {
    best_at = 0;
    while (a[best_at] == a[best_at]) ++best_at;
  }
  return best_at;
}

// VectorKernels::arg_extreme_f16, as ArgExtremeF32 on each half's order
// key: the magnitude bits, negated when the sign is set (exact in int16_t;
// −0 and +0 both 0, equal as their values are); a magnitude above
// infinity's is a NaN. Lane j tracks vector numbers (at most 2^17 / 32).
template <bool kMin>
uint32_t ArgExtremeF16(const uint16_t* a, uint32_t n) {
  using VU = Vec64<uint16_t>::type;
  using VS = Vec64<int16_t>::type;
  constexpr uint32_t kLanes = 32;
  const auto key = [](uint16_t h) {
    const int m = h & 0x7fff;
    return (h & 0x8000) != 0 ? -m : m;
  };
  uint32_t i = 0, best_at = 0;
  int best = key(a[0]);
  bool nan = false;
  if (n >= kLanes) {
    VU h;
    VS m, at, seen_nan;
    const VS zero = VS{};
    std::memcpy(&h, a, sizeof h);
    VS mag = (VS)(h & 0x7fff);
    m = (VS)h < zero ? -mag : mag;
    at = zero;
    seen_nan = (VS)(mag > 0x7c00);
    VS vec = zero;
    for (i = kLanes; i + kLanes <= n; i += kLanes) {
      std::memcpy(&h, a + i, sizeof h);
      vec += 1;
      mag = (VS)(h & 0x7fff);
      const VS k = (VS)h < zero ? -mag : mag;
      const VS take = kMin ? (VS)(k < m) : (VS)(k > m);
      m = take ? k : m;
      at = take ? vec : at;
      seen_nan |= (VS)(mag > 0x7c00);
    }
    best = m[0];
    for (uint32_t j = 0; j < kLanes; ++j) {
      const int v = m[j];
      const uint32_t pos = static_cast<uint32_t>(static_cast<uint16_t>(at[j])) * kLanes + j;
      if (j == 0 || (kMin ? v < best : v > best) || (v == best && pos < best_at)) {
        best = v;
        best_at = pos;
      }
      nan |= seen_nan[j] != 0;
    }
  } else {
    i = 1;
    nan = (a[0] & 0x7fff) > 0x7c00;
  }
  for (; i < n; ++i) {
    const int v = key(a[i]);
    nan |= (a[i] & 0x7fff) > 0x7c00;
    if (kMin ? v < best : v > best) {
      best = v;
      best_at = i;
    }
  }
  if (nan) {
    best_at = 0;
    while ((a[best_at] & 0x7fff) <= 0x7c00) ++best_at;
  }
  return best_at;
}

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

// 8 lanes at a time into a byte (the compiler vectorizes the bytes).
template <CompareOp kOp, bool kScalar>
void CompareWords(uint8_t* __restrict bits, const float* __restrict a, const float* __restrict b,
                  float s, size_t n) {
  for (size_t i = 0; i < n / 8; ++i) {
    unsigned byte = 0;
    for (unsigned j = 0; j < 8; ++j) {
      const float y = kScalar ? s : b[8 * i + j];
      byte |= static_cast<unsigned>(Holds<kOp>(a[8 * i + j], y)) << j;
    }
    bits[i] = static_cast<uint8_t>(byte);
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
inline void ShiftBits(const V& x, uint32_t count, uint32_t bit, const V& one, const V& sign, V& r) {
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

#include "kernels/vector/vector_cast_inl.h"  // the conversion loops

// Select: the bits of a chunk expanded into a mask of whole elements (each
// byte's eight shifts are constants, which the compiler vectorizes), then a
// blend of the bits; kScalar: b is the scalar.
template <typename U, bool kScalar>
void SelectLoop(void* dv, const void* av, const void* bv, uint64_t scalar, bool invert,
                const uint8_t* bits, size_t n) {
  U* d = static_cast<U*>(dv);
  const U* a = static_cast<const U*>(av);
  const U* b = static_cast<const U*>(bv);
  const U s = static_cast<U>(scalar);
  const uint8_t flip = invert ? 0xffu : 0u;
  constexpr size_t kChunk = 256;
  U mask[kChunk];
  for (size_t at = 0; at < n; at += kChunk) {
    const size_t m = n - at < kChunk ? n - at : kChunk;
    for (size_t j = 0; j < (m + 7) / 8; ++j) {
      const uint8_t byte = static_cast<uint8_t>(bits[at / 8 + j] ^ flip);
      for (unsigned t = 0; t < 8; ++t) mask[8 * j + t] = static_cast<U>(U{0} - (byte >> t & 1u));
    }
    NORMGRAD_SAME_INDEX
    for (size_t i = 0; i < m; ++i) {
      const U other = kScalar ? s : b[at + i];
      d[at + i] = static_cast<U>((a[at + i] & mask[i]) | (other & static_cast<U>(~mask[i])));
    }
  }
}

template <typename U>
void Select(void* d, const void* a, const void* b, uint64_t scalar, bool invert,
            const uint8_t* bits, size_t n) {
  if (b == nullptr) {
    SelectLoop<U, true>(d, a, nullptr, scalar, invert, bits, n);
  } else {
    SelectLoop<U, false>(d, a, b, scalar, invert, bits, n);
  }
}

// 32 bytes in a vector register (two SSE moves, or one AVX move).
using Bytes32 = uint8_t __attribute__((vector_size(32)));

// Copies `bytes` between regions that do not overlap as kCopyStreams equal
// parts, 64 bytes from each in turn (a hardware prefetcher follows each
// part as a stream: four streams reach the bandwidth one does not); what the
// parts leave (under kCopyStreams·64 bytes) goes last.
void CopyStreams(uint8_t* __restrict dst, const uint8_t* __restrict src, size_t bytes) {
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
