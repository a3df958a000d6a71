// kernels/vector/advanced_binary_inl.h — the loops of Fmod, Power, Axpy,
// CumSum and Clamp (kernels::AdvancedKernels: fmod_f32, power_f32,
// power_u32, axpy_f32, cumsum_f32, clamp). Like advanced_inl.h, whose
// helpers it uses, it is included by each instruction set's
// advanced_<isa>.cc inside its target region and compiled without
// contraction into fused multiply-add, so every set gives the same bits.
// Each result is the one the library computed element by element before
// these loops existed (docs/numerics.md, "Math: binary"): Fmod's exact
// remainder, Power's float nearest to the C library's pow, Axpy's two
// roundings, CumSum's documented order of additions and Clamp's selection.
// No branches on the data in the loops: selects, and loop counts taken once
// per block; the rare elements that Fmod and Power hand to the C library
// are gathered after a block, as ExpRounded does.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced.h"
#include "kernels/vector/advanced_inl.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

// The unbiased exponent of a positive double (−1023 at +0).
inline int64_t ExponentOf(double d) { return static_cast<int64_t>(BitsOfDouble(d) >> 52) - 1023; }

// 2^k for an integer k in [−1022, 1023], from its bits.
inline double Pow2Double(int64_t k) { return DoubleOf(static_cast<uint64_t>(k + 1023) << 52); }

constexpr double kLargestFloat = 0x1.fffffep127;

// The integer part of q, for 0 <= q < 2^52.
inline double TruncOfSmall(double q) {
  const double nearest = (q + kTwo52) - kTwo52;
  const double less_one = nearest - 1.0;
  return nearest > q ? less_one : nearest;
}

// ---- Fmod: the exact remainder ------------------------------------------------

// |a| is reduced modulo |b| in double, exactly, by steps that each take a
// quotient below 2^28: D = |b| · 2^j with j the exponents' gap less 27 (at
// least 0), q = Trunc(R / D), R − q·D. R is a multiple of g, D's last bit
// (|a| is, and each step keeps it so, j only falling), so q·D (at most 28
// + 24 bits) and the remainder, below D, are exact; and where R / D is not
// an integer it lies at least g / D > 2^-24 below the next one, more than
// the rounding of the division (below 2^-26 under 2^28) can cross: the
// rounded quotient truncates to q. Each step lowers R's exponent by at
// least 27, so a block takes ⌊gap / 27⌋ + 1 steps for its largest gap
// (one where every |a / b| < 2^27; at most 11 for floats). The remainder
// takes a's sign, zero included. Where b is ±0 or ±inf or a is ±inf or NaN
// the element is the C library's fmodf (NaN, or a itself).
constexpr int64_t kFmodStepBits = 27;

void FmodFloats(float* __restrict dst, const float* __restrict a, const float* __restrict b,
                size_t n) {
  constexpr size_t kBlock = 256;
  double rest[kBlock], divisor[kBlock];
  int32_t special[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = n - start < kBlock ? n - start : kBlock;
    const float* x = a + start;
    const float* y = b + start;
    int64_t widest = 0;
    for (size_t i = 0; i < m; ++i) {
      const double ax = std::fabs(static_cast<double>(x[i]));
      const double ay = std::fabs(static_cast<double>(y[i]));
      // false at NaN; & rather than && keeps the loop free of branches
      const bool regular = (ax <= kLargestFloat) & (ay > 0.0) & (ay <= kLargestFloat);
      // Special elements go through the steps too (their results, NaN or
      // anything, are replaced below) but do not count towards them.
      rest[i] = ax;
      divisor[i] = ay;
      const int64_t gap = ExponentOf(ax) - ExponentOf(ay);
      const int64_t counted = regular ? gap : 0;
      widest = counted > widest ? counted : widest;
      special[i] = !regular;
    }
    for (int64_t step = 0; step <= widest / kFmodStepBits; ++step) {
      for (size_t i = 0; i < m; ++i) {
        const int64_t g = ExponentOf(rest[i]) - ExponentOf(divisor[i]) - kFmodStepBits;
        const double d = divisor[i] * Pow2Double(g > 0 ? g : 0);
        rest[i] = rest[i] - TruncOfSmall(rest[i] / d) * d;
      }
    }
    int32_t any_special = 0;
    for (size_t i = 0; i < m; ++i) {
      dst[start + i] = std::copysign(static_cast<float>(rest[i]), x[i]);
      any_special |= special[i];
    }
    if (any_special != 0) {
      for (size_t i = 0; i < m; ++i) {
        if (special[i] != 0) dst[start + i] = std::fmod(x[i], y[i]);
      }
    }
  }
}

// ---- Power on floats: pow rounded once ---------------------------------------

// a^b = ±e^t, t = b · ln|a|, in double lanes: |a| = 2^e · m with m in
// [√½, √2), ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| <= 0.1716, by its
// series to s^21 (the remainder below 2^-60 of the sum), t = b·e·ln 2 (ln 2
// in ExpInDouble's two parts) + b · ln m, and e^t by ExpInDouble. Where the
// float result is normal (t in [−87, 88]) each part of t is at most 2|t|,
// so t is within 2^-42.8 of b · ln|a| and the result within 2^-42 of a^b
// (docs/numerics.md, "Math: binary"); the C library's pow is within 2^-52.
// So where the result is more than 2^-40 of itself from a midpoint between
// two floats both round to the same float (NearFloatMidpoint). Elsewhere,
// and where a is ±0, ±inf or NaN, b is ±inf or NaN, a < 0 with b not an
// integer, or t is outside [−87, 88], the element is the C library's pow of
// the widened values rounded to float, as before. For a < 0 and an integral
// b the sign is b's parity.
// From 2^24 on, every float is an even integer.
constexpr double kTwo24 = 16777216.0;

// A double rounded to float, to nearest: ±inf from halfway past the
// largest float on (a conversion of a larger double is undefined in C++).
inline float RoundedToFloat(double d) {
  const float infinite = d < 0.0 ? -INFINITY : INFINITY;
  return std::fabs(d) >= kFloatOverflow ? infinite : static_cast<float>(d);
}

void PowerFloats(float* __restrict dst, const float* __restrict a, const float* __restrict b,
                 size_t n) {
  constexpr size_t kBlock = 256;
  int32_t hard[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = n - start < kBlock ? n - start : kBlock;
    const float* x = a + start;
    const float* y = b + start;
    float* out = dst + start;
    for (size_t i = 0; i < m; ++i) {
      const double wx = static_cast<double>(x[i]);
      const double wy = static_cast<double>(y[i]);
      const double ax = std::fabs(wx);
      const double ay = std::fabs(wy);
      // b's integrality and parity, meaningful below 2^24.
      const double whole = (ay + kTwo52) - kTwo52;
      const double half_whole = whole * 0.5;
      // Conditions combined by & and |, not && and ||: no branches, so the
      // compiler vectorizes the loop.
      const bool odd = (ay < kTwo24) & ((half_whole + kTwo52) - kTwo52 != half_whole);
      const bool integral = (ay >= kTwo24) | (whole == ay);
      // false at NaN
      const bool finite = (ax > 0.0) & (ax <= kLargestFloat) & (ay <= kLargestFloat);
      const bool regular = finite & ((wx > 0.0) | integral);
      // Every lane computes every step (a meaningless t where a is not
      // regular, and e^0 out of range: neither is used). Out of range the
      // input of ExpInDouble is 0 as 0 · e (e is an integer, so this is ±0)
      // rather than the constant 0, which would let the compiler fold the
      // steps for it and branch around them: a loop with branches is not
      // vectorized.
      const LnParts ln = LnPartsOf(ax);
      const double scaled_exponent = wy * ln.exponent;
      const double t = scaled_exponent * kExpLn2Hi + (scaled_exponent * kExpLn2Lo + wy * ln.ln_m);
      const bool in_range = regular & (t >= -87.0) & (t <= 88.0);  // false at NaN
      const double magnitude = ExpInDouble(in_range ? t : 0.0 * ln.exponent);
      const double negated = -magnitude;
      const double value = (wx < 0.0) & odd ? negated : magnitude;
      out[i] = static_cast<float>(value);
      hard[i] = !in_range | NearFloatMidpoint(magnitude);
    }
    int32_t any_hard = 0;
    for (size_t i = 0; i < m; ++i) any_hard |= hard[i];
    if (any_hard != 0) {
      for (size_t i = 0; i < m; ++i) {
        if (hard[i] != 0) {
          out[i] = RoundedToFloat(std::pow(static_cast<double>(x[i]), static_cast<double>(y[i])));
        }
      }
    }
  }
}

// ---- Power on integers: repeated squaring ------------------------------------

// Each exponent bit from the lowest up multiplies the result by the base's
// square of that rank, modulo 2^32; a block runs as many ranks as its
// largest exponent has bits (a negative exponent's result is selected).
void PowerIntegers(uint32_t* __restrict dst, const uint32_t* __restrict base,
                   const uint32_t* __restrict exp, size_t n, bool is_signed) {
  constexpr size_t kBlock = 256;
  uint32_t result[kBlock], square[kBlock], rest[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = n - start < kBlock ? n - start : kBlock;
    uint32_t all_bits = 0;
    for (size_t i = 0; i < m; ++i) {
      const uint32_t e = exp[start + i];
      const bool negative = is_signed && e >= 0x80000000u;
      rest[i] = negative ? 0u : e;
      result[i] = 1;
      square[i] = base[start + i];
      all_bits |= rest[i];
    }
    for (; all_bits != 0; all_bits >>= 1) {
      for (size_t i = 0; i < m; ++i) {
        const uint32_t times = result[i] * square[i];
        result[i] = (rest[i] & 1u) != 0 ? times : result[i];
        square[i] = square[i] * square[i];
        rest[i] >>= 1;
      }
    }
    for (size_t i = 0; i < m; ++i) {
      const uint32_t e = exp[start + i];
      const uint32_t x = base[start + i];
      const bool negative = is_signed && e >= 0x80000000u;
      // 1 / x^|e| in integers: 1 for x = 1, ±1 for x = −1, else 0.
      const uint32_t minus_one_power = (e & 1u) != 0 ? 0xffffffffu : 1u;
      const uint32_t reciprocal = x == 1u ? 1u : (x == 0xffffffffu ? minus_one_power : 0u);
      dst[start + i] = negative ? reciprocal : result[i];
    }
  }
}

// ---- Axpy: Muls then Add -------------------------------------------------------

// x rounded to the nearest half value (ties to even), in float: adding and
// subtracting 2^(k+13), k the exponent of |x| held at half's smallest
// normal exponent −14, rounds |x| to a multiple of 2^(k−10), half's spacing
// at that exponent (2^-24 among its subnormals); from 65520 on the result
// is ±inf, as half's own rounding gives. NaN stays NaN.
inline float RoundedToHalf(float x) {
  const float magnitude = std::fabs(x);
  constexpr uint32_t kHalfMinExponent = (127u - 14u) << 23;  // 2^-14
  constexpr uint32_t kHalfMaxExponent = (127u + 16u) << 23;  // 2^16, past half's range
  const uint32_t field = BitsOf(magnitude) & 0x7f800000u;
  const uint32_t low = field < kHalfMinExponent ? kHalfMinExponent : field;
  const uint32_t held = low > kHalfMaxExponent ? kHalfMaxExponent : low;
  const float shifter = FloatOf(held + (13u << 23));
  const float rounded = (magnitude + shifter) - shifter;
  const float in_range = rounded >= 65536.0f ? INFINITY : rounded;
  return std::copysign(in_range, x);
}

void AxpyFloats(float* __restrict acc, const float* __restrict src, size_t n, float scalar,
                bool half_product) {
  if (half_product) {
    for (size_t i = 0; i < n; ++i) acc[i] = acc[i] + RoundedToHalf(src[i] * scalar);
    return;
  }
  for (size_t i = 0; i < n; ++i) acc[i] = acc[i] + src[i] * scalar;
}

// ---- CumSum: the running sums in their documented order ----------------------

// Down the columns: each row becomes itself plus the row above (already a
// running sum), a vector operation along the row.
void CumSumDown(float* v, size_t rows, size_t cols) {
  for (size_t i = 1; i < rows; ++i) {
    float* __restrict row = v + i * cols;
    const float* __restrict above = v + (i - 1) * cols;
    for (size_t j = 0; j < cols; ++j) row[j] = row[j] + above[j];
  }
}

// Along the rows: each row's sum is sequential, so a group of rows is
// copied into columns of a tile and summed down the tile, the rows' sums
// side by side in the lanes.
void CumSumAlong(float* v, size_t rows, size_t cols) {
  constexpr size_t kRows = 16;
  constexpr size_t kCols = 64;
  float tile[kCols][kRows];
  float acc[kRows];
  for (size_t r0 = 0; r0 < rows; r0 += kRows) {
    const size_t group = rows - r0 < kRows ? rows - r0 : kRows;
    // The lanes past the last row sum zeros (never stored).
    if (group < kRows) std::memset(tile, 0, sizeof tile);
    for (size_t g = 0; g < kRows; ++g) acc[g] = 0.0f;
    for (size_t c0 = 0; c0 < cols; c0 += kCols) {
      const size_t width = cols - c0 < kCols ? cols - c0 : kCols;
      for (size_t g = 0; g < group; ++g) {
        for (size_t c = 0; c < width; ++c) tile[c][g] = v[(r0 + g) * cols + c0 + c];
      }
      // The matrix's first column starts each sum: its terms are kept as
      // they are (+0 + x would turn −0 into +0).
      if (c0 != 0) {
        for (size_t g = 0; g < kRows; ++g) tile[0][g] = tile[0][g] + acc[g];
      }
      for (size_t c = 1; c < width; ++c) {
        for (size_t g = 0; g < kRows; ++g) tile[c][g] = tile[c][g] + tile[c - 1][g];
      }
      for (size_t g = 0; g < kRows; ++g) acc[g] = tile[width - 1][g];
      for (size_t g = 0; g < group; ++g) {
        for (size_t c = 0; c < width; ++c) v[(r0 + g) * cols + c0 + c] = tile[c][g];
      }
    }
  }
}

// Sklansky's scheme on the k lines of `width` floats at v, `stride` apart
// (lines are rows for the first axis, single elements for the last): at
// each halving step, the last line of every block's lower half is added to
// each line of its upper half.
void SklanskyLines(float* v, size_t k, size_t stride, size_t width) {
  for (size_t half = 1; half < k; half *= 2) {
    for (size_t block = 0; block + half < k; block += 2 * half) {
      const float* pivot = v + (block + half - 1) * stride;
      const size_t end = block + 2 * half < k ? block + 2 * half : k;
      for (size_t line = block + half; line < end; ++line) {
        float* __restrict target = v + line * stride;
        for (size_t j = 0; j < width; ++j) target[j] = target[j] + pivot[j];
      }
    }
  }
}

// Along a row, Sklansky's step adds one pivot to a run of the row: the run
// is the vector operation.
void SklanskyAlong(float* v, size_t rows, size_t cols) {
  for (size_t i = 0; i < rows; ++i) {
    float* row = v + i * cols;
    for (size_t half = 1; half < cols; half *= 2) {
      // Only blocks with an upper half: the last may end within its lower.
      for (size_t block = 0; block + half < cols; block += 2 * half) {
        const float pivot = row[block + half - 1];
        const size_t end = block + 2 * half < cols ? block + 2 * half : cols;
        for (size_t j = block + half; j < end; ++j) row[j] = row[j] + pivot;
      }
    }
  }
}

void CumSumFloats(float* v, size_t rows, size_t cols, bool last_axis, bool sklansky) {
  if (sklansky) {
    if (last_axis) return SklanskyAlong(v, rows, cols);
    return SklanskyLines(v, rows, cols, cols);
  }
  if (last_axis) return CumSumAlong(v, rows, cols);
  CumSumDown(v, rows, cols);
}

// ---- Clamp: x held to [lo, hi] ----------------------------------------------

// Whether a > b by value: floating elements by their order keys (advanced_inl.h's
// OrderKey; ±0 equal), false where either is NaN; integers directly.
template <typename U, bool kFloating>
struct ClampOrder {
  U magnitude_mask;
  U exponent_mask;
  bool IsNan(U x) const {
    if constexpr (kFloating) {
      return static_cast<U>(x & magnitude_mask) > exponent_mask;
    } else {
      return false;
    }
  }
  template <typename S>
  bool Greater(U a, U b) const {
    if constexpr (kFloating) {
      return !IsNan(a) && !IsNan(b) && OrderKey(a, magnitude_mask) > OrderKey(b, magnitude_mask);
    } else {
      return static_cast<S>(a) > static_cast<S>(b);
    }
  }
};

// S: the element type as compared (signed or unsigned), U: its bits.
template <typename S, typename U, bool kFloating>
void ClampOf(void* __restrict dst, const void* __restrict src, const void* __restrict lo,
             const void* __restrict hi, size_t n, U exponent_mask) {
  const ClampOrder<U, kFloating> order{static_cast<U>(exponent_mask | (exponent_mask - 1)),
                                       exponent_mask};
  for (size_t i = 0; i < n; ++i) {
    const U x = LoadAt<U>(src, i);
    const U l = LoadAt<U>(lo, i);
    const U h = LoadAt<U>(hi, i);
    const U raised = order.template Greater<S>(l, x) ? l : x;
    const bool to_hi = order.template Greater<S>(l, h) || order.template Greater<S>(x, h);
    const U held = to_hi ? h : raised;
    StoreAt<U>(dst, i, order.IsNan(x) ? x : held);
  }
}

void ClampElements(void* dst, const void* src, const void* lo, const void* hi, size_t n,
                   ClampType type) {
  switch (type) {
    case ClampType::kInt8:
      return ClampOf<int8_t, uint8_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kUint8:
      return ClampOf<uint8_t, uint8_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kInt16:
      return ClampOf<int16_t, uint16_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kUint16:
      return ClampOf<uint16_t, uint16_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kInt32:
      return ClampOf<int32_t, uint32_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kUint32:
      return ClampOf<uint32_t, uint32_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kInt64:
      return ClampOf<int64_t, uint64_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kUint64:
      return ClampOf<uint64_t, uint64_t, false>(dst, src, lo, hi, n, 0);
    case ClampType::kHalf:
      return ClampOf<uint16_t, uint16_t, true>(dst, src, lo, hi, n, 0x7c00u);
    case ClampType::kBfloat16:
      return ClampOf<uint16_t, uint16_t, true>(dst, src, lo, hi, n, 0x7f80u);
    case ClampType::kFloat:
      return ClampOf<uint32_t, uint32_t, true>(dst, src, lo, hi, n, 0x7f800000u);
  }
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
