// kernels/vector/advanced_filter_inl.h — the loops of kernels::AdvancedKernels
// (advanced.h) that LogSoftMax, Where and the logical APIs with a scalar,
// Select, DropOut, Arange and PhiloxRandom use: log10_rounded_f32,
// select_scalar_u8, bit_truths_u8, scale_kept_f32, arange_int and
// philox_words. Written once, like
// advanced_inl.h, and compiled inside each instruction set's target region
// (advanced_<isa>.cc), so every set vectorizes them and gives the same bits:
// each is exact (a selection, an integer step) or one rounding per
// operation, and the logarithm hands the elements it cannot settle to the
// C library.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/vector/advanced.h"
#include "kernels/vector/advanced_inl.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

// ---- LogSoftMax's log10 rounded once -------------------------------------------

// log10 of a positive normal float in double lanes: ln x's parts from the
// shared LnPartsOf (advanced_inl.h: x = 2^e · m, ln m by the atanh series),
// then log10 x = e·log10(2) + ln m·log10(e). The error is below 2^-48 of the
// result (a dozen double roundings; the two parts have the same sign or
// |e·log10 2| >= 0.3 > 2·|ln m·log10 e|, so no cancellation).
inline double Log10InDouble(float x) {
  constexpr double kLog10Of2 = 0.30102999566398119521;
  constexpr double kLog10OfE = 0.43429448190325182765;
  const LnParts parts = LnPartsOf(static_cast<double>(x));
  return parts.exponent * kLog10Of2 + parts.ln_m * kLog10OfE;
}

inline float Log10OfWidened(float x) {
  return static_cast<float>(std::log10(static_cast<double>(x)));
}

// v[i] = the float nearest to the C library's log10 of the widened v[i]:
// the double-lane value where it is more than 2^-40 of itself from a
// midpoint between two floats (then both round alike, as for ExpRounded);
// the C library's elsewhere, and for every input that is not a positive
// normal float (zero, subnormals, negatives, infinities, NaN).
void Log10Rounded(float* v, size_t n) {
  constexpr size_t kBlock = 256;
  float result[kBlock];
  int32_t hard[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    float* x = v + start;
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t i = 0; i < m; ++i) {
      const bool normal = x[i] >= kMinNormal && x[i] <= 3.40282347e38f;  // false at NaN
      const double y = Log10InDouble(normal ? x[i] : 1.0f);
      result[i] = static_cast<float>(y);
      hard[i] = normal ? NearFloatMidpoint(y) : 1;
    }
    int32_t any_hard = 0;
    for (size_t i = 0; i < m; ++i) any_hard |= hard[i];
    if (any_hard != 0) {
      for (size_t i = 0; i < m; ++i) {
        if (hard[i] != 0) result[i] = Log10OfWidened(x[i]);
      }
    }
    std::memcpy(x, result, m * sizeof(float));
  }
}

// ---- Selections with a scalar operand ------------------------------------------

// dst[i] = truth[i] ? one : other, where one is the scalar and other the
// tensor's element (or the reverse without scalar_when_true). dst may be the
// tensor itself.
template <typename U>
void SelectScalarOf(void* dst, const void* tensor, U scalar, const uint8_t* __restrict truth,
                    size_t n, bool scalar_when_true) {
  for (size_t i = 0; i < n; ++i) {
    const U x = LoadAt<U>(tensor, i);
    const bool pick_scalar = (truth[i] != 0) == scalar_when_true;
    StoreAt<U>(dst, i, pick_scalar ? scalar : x);
  }
}

void SelectScalar(void* dst, const void* tensor, uint64_t scalar, const uint8_t* truth, size_t n,
                  uint32_t bytes, bool scalar_when_true) {
  switch (bytes) {
    case 1:
      return SelectScalarOf<uint8_t>(dst, tensor, static_cast<uint8_t>(scalar), truth, n,
                                     scalar_when_true);
    case 2:
      return SelectScalarOf<uint16_t>(dst, tensor, static_cast<uint16_t>(scalar), truth, n,
                                      scalar_when_true);
    case 4:
      return SelectScalarOf<uint32_t>(dst, tensor, static_cast<uint32_t>(scalar), truth, n,
                                      scalar_when_true);
    default:
      return SelectScalarOf<uint64_t>(dst, tensor, scalar, truth, n, scalar_when_true);
  }
}

// ---- DropOut: the bit masks and the kept products ------------------------------

// truth[i] = bit first_bit + i of `bits`, the bits of each byte read from
// the most significant down (bit j is bit 7 − j % 8 of byte j / 8).
void BitTruths(uint8_t* __restrict truth, const uint8_t* __restrict bits, uint64_t first_bit,
               size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint64_t j = first_bit + i;
    truth[i] = static_cast<uint8_t>((bits[j / 8] >> (7 - j % 8)) & 1);
  }
}

// dst[i] = truth[i] ? src[i] · scale (one rounding) : +0. dst may be src.
void ScaleKept(float* dst, const float* src, const uint8_t* __restrict truth, float scale,
               size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float product = src[i] * scale;
    dst[i] = truth[i] != 0 ? product : 0.0f;
  }
}

// ---- Arange's integers -----------------------------------------------------------

// dst[i] = first + i · diff modulo 2^(8·sizeof(U)): the low bits of the
// 64-bit value, computed in W, U's width or 32 bits for 16-bit U (unsigned,
// so every step wraps; the same low bits).
template <typename U, typename W = std::conditional_t<sizeof(U) < 4, uint32_t, U>>
void ArangeOf(void* dst, W first, W diff, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    StoreAt<U>(dst, i, static_cast<U>(first + static_cast<W>(i) * diff));
  }
}

void ArangeInt(void* dst, uint64_t first, uint64_t diff, size_t n, uint32_t bytes) {
  switch (bytes) {
    case 2:
      return ArangeOf<uint16_t>(dst, static_cast<uint32_t>(first), static_cast<uint32_t>(diff), n);
    case 4:
      return ArangeOf<uint32_t>(dst, static_cast<uint32_t>(first), static_cast<uint32_t>(diff), n);
    default:
      return ArangeOf<uint64_t>(dst, first, diff, n);
  }
}

// ---- PhiloxRandom: counters in lanes ---------------------------------------------

constexpr uint32_t kPhiloxMultiplier0 = 0xD2511F53u;
constexpr uint32_t kPhiloxMultiplier1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxWeyl0 = 0x9E3779B9u;
constexpr uint32_t kPhiloxWeyl1 = 0xBB67AE85u;

// words[4g .. 4g + 3] = Philox4x32 with `rounds` rounds of the 128-bit
// counter + first + g (counter[0] least significant, carries rippling up)
// under `key`, for g < groups; with as_unit_float each word w becomes the
// bits of the float (1 + (w mod 2^23) / 2^23) − 1 instead (exact). A block
// of 64 counters at a time, one lane each: every step is a loop over the
// block (32-bit products into 64 bits, exclusive-ors, additions).
void PhiloxWords(uint32_t* __restrict words, const uint32_t* __restrict counter, uint64_t first,
                 size_t groups, const uint32_t* __restrict key, uint32_t rounds,
                 bool as_unit_float) {
  constexpr size_t kBlock = 64;
  uint32_t c[4][kBlock];
  for (size_t start = 0; start < groups; start += kBlock) {
    const size_t m = groups - start < kBlock ? groups - start : kBlock;
    for (size_t j = 0; j < kBlock; ++j) {
      uint64_t carry = first + start + j;
      for (int i = 0; i < 4; ++i) {
        const uint64_t sum = uint64_t{counter[i]} + (carry & 0xFFFFFFFFu);
        c[i][j] = static_cast<uint32_t>(sum);
        carry = (carry >> 32) + (sum >> 32);
      }
    }
    uint32_t k0 = key[0];
    uint32_t k1 = key[1];
    for (uint32_t round = 0; round < rounds; ++round) {
      for (size_t j = 0; j < kBlock; ++j) {
        const uint64_t p0 = uint64_t{kPhiloxMultiplier0} * c[0][j];
        const uint64_t p1 = uint64_t{kPhiloxMultiplier1} * c[2][j];
        const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c[1][j] ^ k0;
        const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c[3][j] ^ k1;
        c[0][j] = n0;
        c[1][j] = static_cast<uint32_t>(p1);
        c[2][j] = n2;
        c[3][j] = static_cast<uint32_t>(p0);
      }
      k0 += kPhiloxWeyl0;
      k1 += kPhiloxWeyl1;
    }
    if (as_unit_float) {
      for (int i = 0; i < 4; ++i) {
        for (size_t j = 0; j < kBlock; ++j) {
          c[i][j] = BitsOf(FloatOf(0x3F800000u | (c[i][j] & 0x7FFFFFu)) - 1.0f);
        }
      }
    }
    for (size_t j = 0; j < m; ++j) {
      for (int i = 0; i < 4; ++i) words[4 * (start + j) + i] = c[i][j];
    }
  }
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
