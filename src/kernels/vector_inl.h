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

// Integers: +, −, × in unsigned arithmetic of at least 32 bits (modulo
// 2^bits once narrowed; no promoted int overflows), Max and Min.
template <typename T, VectorOp kOp>
void IntBinary(T* d, const T* a, const T* b, size_t n) {
  using U = std::conditional_t<(sizeof(T) < sizeof(uint32_t)), uint32_t, std::make_unsigned_t<T>>;
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const T x = a[i], y = b[i];
    switch (kOp) {
      case VectorOp::kAdd:
        d[i] = static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
        break;
      case VectorOp::kSub:
        d[i] = static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
        break;
      case VectorOp::kMul:
        d[i] = static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
        break;
      case VectorOp::kMax:
        d[i] = x > y ? x : y;
        break;
      default:  // kMin (kDiv has no loop)
        d[i] = x < y ? x : y;
        break;
    }
  }
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
void CompareWords(uint8_t* __restrict bits, const float* __restrict a,
                  const float* __restrict b, float s, size_t n) {
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

#include "kernels/vector_cast_inl.h"  // the conversion loops

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
