// kernels/vector/advanced_inl.h — the float passes of the advanced Math and
// Activation APIs (kernels::AdvancedKernels, advanced.h: exp_rounded_f32,
// fold_lanes_f32, math_f32, activation_f32), written once and compiled by each instruction
// set's src/kernels/vector/advanced_<isa>.cc inside its target region, where
// the compiler vectorizes them for that set. Each loop is the documented
// algorithm of its API evaluated in float (docs/math.md, docs/activation.md,
// docs/softmax.md), one rounding per operation in the order written: the
// build compiles without contraction into fused multiply-add
// (-ffp-contract=off), so every instruction set gives the same bits. The
// loops have no branches and no library calls, except the rare elements that
// ExpRounded and Trigonometric hand to the C library (below).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

inline uint32_t BitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

inline float FloatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// ---- e^x rounded once: SoftMax's exponential --------------------------------

// The vector unit's Exp, as the SoftMax family uses it (docs/softmax.md):
// e^x computed in double and rounded once to float, i.e. the float nearest
// to the C library's exp of the widened x. Here e^x is computed in double
// lanes: x = k·ln 2 + r (|r| <= ln2/2, ln 2 in two parts of which k times
// the first is exact), e^r by its Taylor polynomial of degree 11, times 2^k.
// Its error is below 2^-45 of e^x (the series' remainder under 2^-46.5, a
// dozen roundings of 2^-53), the C library's below one double ulp (2^-52);
// so where this result is more than 2^-40 of itself from a midpoint between
// two floats, both round to the same float. Elsewhere (one element in about
// 2^15), outside [-87, 88] (results that are not normal floats, infinities)
// and at NaN, the element is the C library's, as before; at or below -104
// it is +0 (e^x < 2^-150 rounds to +0).

constexpr double kExpLog2e = 1.4426950408889634;
constexpr double kExpLn2Hi = 6.93147180369123816490e-01;  // 32 low bits zero
constexpr double kExpLn2Lo = 1.90821492927058770002e-10;  // ln 2 - kExpLn2Hi
constexpr double kExpShifter = 6755399441055744.0;        // 1.5·2^52
// 1 ∓ 2^-40: the margin around a result within which a midpoint between two
// floats sends the element to the C library.
constexpr double kBelowOne = 1.0 - 0x1p-40;
constexpr double kAboveOne = 1.0 + 0x1p-40;

// ---- Doubles by their bits, and ln in double lanes ---------------------------
//
// Shared by the passes computed in double lanes (advanced_inverse_inl.h,
// advanced_special_inl.h, advanced_binary_inl.h).

constexpr double kPi = 0x1.921fb54442d18p+1;
// 2^52 and its bits: adding and subtracting 2^52 rounds a double below 2^51
// to the nearest integer (ties to even), and an integer k below 2^52
// becomes a double as the bits of 2^52 + k, less 2^52 (AVX2 has no
// conversion of 64-bit integers).
constexpr double kTwo52 = 4503599627370496.0;
constexpr uint64_t kTwo52Bits = 0x4330000000000000u;
// The bits of √½ as a double: subtracting them from a double's bits puts
// the exponent field of its mantissa m at 0 for m in [√½, √2).
constexpr uint64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdu;

inline uint64_t BitsOfDouble(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

inline double DoubleOf(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// ln x = exponent · ln 2 + ln_m, for a finite normal double x > 0.
struct LnParts {
  double exponent;
  double ln_m;
};

// x = 2^e · m with m in [√½, √2) read from the bits, ln m = 2·atanh(s) with
// s = (m − 1)/(m + 1) (m − 1 exact), |s| <= 0.1716, by its odd series to
// s^21 (the rest is below 2^-60 of the sum). Unsigned 64-bit steps only
// (shifts, adds), which every set vectorizes: e comes out biased by 1024
// and becomes a double through the bits of 2^52 + e.
inline LnParts LnPartsOf(double x) {
  constexpr uint64_t kBias = uint64_t{1024} << 52;
  const uint64_t bits = BitsOfDouble(x);
  const uint64_t biased = (bits - kSqrtHalfBits + kBias) >> 52;
  const double e = DoubleOf(kTwo52Bits | biased) - (kTwo52 + 1024.0);
  const double m = DoubleOf(bits - ((biased - 1024) << 52));
  const double s = (m - 1.0) / (m + 1.0);
  const double z = s * s;
  double q = 1.0 / 21;
  q = q * z + 1.0 / 19;
  q = q * z + 1.0 / 17;
  q = q * z + 1.0 / 15;
  q = q * z + 1.0 / 13;
  q = q * z + 1.0 / 11;
  q = q * z + 1.0 / 9;
  q = q * z + 1.0 / 7;
  q = q * z + 1.0 / 5;
  q = q * z + 1.0 / 3;
  q = q * z + 1.0;
  return {e, 2.0 * s * q};
}

// ln x for a finite normal double x > 0: e·ln2 in ExpInDouble's two parts
// of ln 2 (e·kExpLn2Hi exact) plus ln m.
inline double LnInDouble(double x) {
  const LnParts parts = LnPartsOf(x);
  return parts.exponent * kExpLn2Hi + (parts.exponent * kExpLn2Lo + parts.ln_m);
}

// e^c for c in [-87, 88] in double lanes.
inline double ExpInDouble(double c) {
  const double shifted = c * kExpLog2e + kExpShifter;
  const double k = shifted - kExpShifter;
  const double r = (c - k * kExpLn2Hi) - k * kExpLn2Lo;
  double p = 1.0 / 39916800;
  p = p * r + 1.0 / 3628800;
  p = p * r + 1.0 / 362880;
  p = p * r + 1.0 / 40320;
  p = p * r + 1.0 / 5040;
  p = p * r + 1.0 / 720;
  p = p * r + 1.0 / 120;
  p = p * r + 1.0 / 24;
  p = p * r + 1.0 / 6;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // k, an integer in [-126, 127], is the low bits of shifted.
  int64_t shifted_bits, shifter_bits;
  std::memcpy(&shifted_bits, &shifted, sizeof shifted_bits);
  std::memcpy(&shifter_bits, &kExpShifter, sizeof shifter_bits);
  const int64_t scale_bits = (shifted_bits - shifter_bits + 1023) << 52;
  double scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return p * scale;
}

// Whether y, a normal double approximating a float result, may lie on the
// other side of a midpoint between two floats than the value it stands for:
// whether y·(1 − 2^-40) and y·(1 + 2^-40) round to different floats.
// Rounding is monotonic, so where both round alike every value between them
// does, among them e^x and the C library's e^x (each within 2^-45 of y).
// Floating-point steps only, in the lanes of y: every instruction set
// vectorizes them.
inline bool NearFloatMidpoint(double y) {
  const double below = static_cast<double>(static_cast<float>(y * kBelowOne));
  const double above = static_cast<double>(static_cast<float>(y * kAboveOne));
  return below != above;
}

inline float ExpOfWidened(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

void ExpRounded(float* v, size_t n) {
  constexpr size_t kBlock = 256;
  float result[kBlock];
  int32_t hard[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    float* x = v + start;
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t i = 0; i < m; ++i) {
      // Every test on the widened value: the compiler vectorizes a loop
      // whose conditions are all of one lane width.
      const double wide = static_cast<double>(x[i]);
      const bool in_range = wide >= -87.0 && wide <= 88.0;  // false at NaN
      const bool zero = wide <= -104.0;
      const double y = ExpInDouble(in_range ? wide : 0.0);
      result[i] = static_cast<float>(zero ? 0.0 : y);
      hard[i] = in_range ? NearFloatMidpoint(y) : !zero;
    }
    int32_t any_hard = 0;
    for (size_t i = 0; i < m; ++i) any_hard |= hard[i];
    if (any_hard != 0) {
      for (size_t i = 0; i < m; ++i) {
        if (hard[i] != 0) result[i] = ExpOfWidened(x[i]);
      }
    }
    std::memcpy(x, result, m * sizeof(float));
  }
}

// ---- SoftMax's row sum: the fold onto 64 lanes ------------------------------

// lanes[j] = the fold of v's terms j, j + 64, j + 128, … in order: the first
// term itself, then each next term plus the lane (lanes no term reaches are
// +0). The first step of the documented row sum (docs/softmax.md).
void FoldLanes(const float* __restrict v, size_t n, float* __restrict lanes) {
  constexpr size_t kLanes = 64;
  float acc[kLanes];
  const size_t first = n < kLanes ? n : kLanes;
  for (size_t j = 0; j < kLanes; ++j) acc[j] = j < first ? v[j] : 0.0f;
  size_t at = kLanes;
  for (; at + kLanes <= n; at += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) acc[j] = v[at + j] + acc[j];
  }
  for (size_t j = 0; at + j < n; ++j) acc[j] = v[at + j] + acc[j];
  std::memcpy(lanes, acc, sizeof acc);
}

// ---- Math: Exp and the logarithms --------------------------------------------

constexpr float kLog2e = 1.44269504f;
// ln 2 in two parts: kLn2Hi has 15 significant bits, so k · kLn2Hi is exact
// for the |k| <= 255 used here.
constexpr float kLn2Hi = 0.693145751953125f;
constexpr float kLn2Lo = 1.42860677e-06f;
// log10(2) split the same way, and log10(e).
constexpr float kLog10Of2Hi = 0.301025390625f;
constexpr float kLog10Of2Lo = 4.60503898e-06f;
constexpr float kLog10e = 0.434294482f;
// 1.5 · 2^23: adding and subtracting it rounds a float below 2^22 in
// magnitude to the nearest integer (ties to even).
constexpr float kRoundMagic = 12582912.0f;
constexpr float kMinNormal = 1.17549435e-38f;

// 2^k for an integer-valued k in [-126, 127], from its bits.
inline float Pow2(float k) {
  return FloatOf(static_cast<uint32_t>(static_cast<int32_t>(k) + 127) << 23);
}

// Math's e^x: x = k·ln 2 + r with |r| <= ln2/2 (Cody and Waite's two-part
// ln 2), e^r by its Taylor polynomial of degree 7 (Horner), times 2^k in two
// factors so that subnormal results round once. x is clamped to [-104, 89]
// first (e^-104 rounds to 0 and e^89 overflows, as every x beyond them
// must); NaN is kept.
inline float ExpStep(float x) {
  // Each select's arms are computed first: the compiler turns only such
  // selects of ready values into vector blends.
  const float clamped = std::min(std::max(x, -104.0f), 89.0f);
  const float c = x == x ? clamped : 0.0f;
  const float k = (c * kLog2e + kRoundMagic) - kRoundMagic;
  const float r = (c - k * kLn2Hi) - k * kLn2Lo;
  float p = 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const float k1 = static_cast<float>(static_cast<int32_t>(k) / 2);
  const float result = p * Pow2(k1) * Pow2(k - k1);
  return x == x ? result : x;
}

// The parts of a logarithm: x = 2^exponent · m with m in [√½, √2), and
// ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| <= 0.1716, by its series to
// s^13 (the next term is below 2^-40 of the sum). Subnormal x is scaled by
// 2^23 first. Meaningful for finite x > 0; the callers select the rest.
struct LogParts {
  float exponent;
  float ln_m;
};

inline LogParts LogPartsOf(float x) {
  const bool subnormal = x < kMinNormal;
  const float raised = x * 8388608.0f;
  const uint32_t bits = BitsOf(subnormal ? raised : x);
  // The bits of √½: subtracting them puts m's exponent field at 0 for m in
  // [√½, √2); the arithmetic shift keeps the exponent's sign.
  const int32_t e = static_cast<int32_t>(bits - 0x3f3504f3u) >> 23;
  const float m = FloatOf(bits - (static_cast<uint32_t>(e) << 23));
  const float s = (m - 1.0f) / (m + 1.0f);
  const float z = s * s;
  float q = 1.0f / 13;
  q = q * z + 1.0f / 11;
  q = q * z + 1.0f / 9;
  q = q * z + 1.0f / 7;
  q = q * z + 1.0f / 5;
  q = q * z + 1.0f / 3;
  q = q * z + 1.0f;
  return {static_cast<float>(e) - (subnormal ? 23.0f : 0.0f), 2.0f * s * q};
}

// The special values every logarithm shares: −inf at ±0, NaN below 0 and at
// NaN, +inf at +inf; `finite` elsewhere.
inline float LogSpecials(float x, float finite) {
  const float r = x == 0.0f ? -INFINITY : finite;
  const float s = (x < 0.0f) | (x != x) ? NAN : r;
  return x == INFINITY ? INFINITY : s;
}

inline float LogStep(float x) {
  const LogParts p = LogPartsOf(x);
  return LogSpecials(x, p.exponent * kLn2Hi + (p.exponent * kLn2Lo + p.ln_m));
}

inline float Log2Step(float x) {
  const LogParts p = LogPartsOf(x);
  return LogSpecials(x, p.exponent + p.ln_m * kLog2e);
}

inline float Log10Step(float x) {
  const LogParts p = LogPartsOf(x);
  return LogSpecials(x, p.exponent * kLog10Of2Hi + (p.exponent * kLog10Of2Lo + p.ln_m * kLog10e));
}

// ---- Math: the rounding family, Frac and Sign (exact) -------------------------

// 2^23: below it in magnitude, adding and subtracting it rounds a float to
// the nearest integer, ties to even (the sum's ulp is 1); from it on every
// float is an integer already.
constexpr float kTwo23 = 8388608.0f;

// The nearest integer to |x|, ties to even, for |x| < 2^23.
inline float NearestOfMagnitude(float x) { return (std::fabs(x) + kTwo23) - kTwo23; }

// Each rounding below is exact: it works on |x| where its result, an integer
// of at most 2^23, is a float; takes x's sign back (a zero result keeps the
// sign of x, as the C library's functions do); and returns x itself from
// 2^23 on, at ±inf and at NaN (|x| < 2^23 is false there).
inline float OfMagnitude(float x, float magnitude) {
  return std::fabs(x) < kTwo23 ? std::copysign(magnitude, x) : x;
}

inline float NearestEvenStep(float x) { return OfMagnitude(x, NearestOfMagnitude(x)); }

inline float TruncStep(float x) {
  const float nearest = NearestOfMagnitude(x);
  const float less_one = nearest - 1.0f;
  return OfMagnitude(x, nearest > std::fabs(x) ? less_one : nearest);
}

// Floor and Ceil move away from zero or towards it by the sign of x: the
// magnitude of floor(x) is ⌊|x|⌋ for x >= 0 and ⌈|x|⌉ below 0.
inline float FloorStep(float x) {
  const float nearest = NearestOfMagnitude(x);
  const float less_one = nearest - 1.0f;
  const float more_one = nearest + 1.0f;
  const float down = nearest > std::fabs(x) ? less_one : nearest;
  const float up = nearest < std::fabs(x) ? more_one : nearest;
  return OfMagnitude(x, x < 0.0f ? up : down);
}

inline float CeilStep(float x) {
  const float nearest = NearestOfMagnitude(x);
  const float less_one = nearest - 1.0f;
  const float more_one = nearest + 1.0f;
  const float down = nearest > std::fabs(x) ? less_one : nearest;
  const float up = nearest < std::fabs(x) ? more_one : nearest;
  return OfMagnitude(x, x < 0.0f ? down : up);
}

// x − Trunc(x): +0 for an integral x of either sign, NaN at ±inf.
inline float FracStep(float x) { return x - TruncStep(x); }

// 1 or −1 by the sign; +0 for ±0 and NaN.
inline float SignStep(float x) {
  const float negative = x < 0.0f ? -1.0f : 0.0f;
  return x > 0.0f ? 1.0f : negative;
}

template <float (*f)(float)>
void Each(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = f(v[i]);
}

// Math's Exp: level 0 is e^x itself; above 0 the page's split into
// e^floor(x) and the Taylor series of the fraction, to the power `level`, a
// block of elements at a time so that each step is a loop over the block.
void MathExp(float* v, size_t n, uint32_t level) {
  if (level == 0) {
    Each<ExpStep>(v, n, 0);
    return;
  }
  constexpr size_t kBlock = 64;
  float whole[kBlock], fraction[kBlock], term[kBlock], sum[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    float* x = v + start;
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t i = 0; i < m; ++i) {
      whole[i] = FloorStep(x[i]);
      // ±inf: the fraction is 0 (e^±inf is the whole part's); NaN stays.
      const float difference = x[i] - whole[i];
      fraction[i] = std::fabs(x[i]) == INFINITY ? 0.0f : difference;
      term[i] = 1.0f;
      sum[i] = 1.0f;
    }
    for (uint32_t k = 1; k <= level; ++k) {
      const float kf = static_cast<float>(k);
      for (size_t i = 0; i < m; ++i) {
        term[i] = term[i] * fraction[i] / kf;
        sum[i] += term[i];
      }
    }
    for (size_t i = 0; i < m; ++i) x[i] = ExpStep(whole[i]) * sum[i];
  }
}

// ---- Math: sine, cosine, tangent and the hyperbolic functions ---------------

// Computed in double lanes from the exact float input and rounded once to
// float: each double result is within 2^-40 of the function's value
// (docs/numerics.md, "Math: transcendental"), so the float is within half
// an ulp and 2^-16 of an ulp of it.

// x = k·π/2 + r, |r| <= π/4 (and a little): π/2 in three parts, the first
// two of 32 bits, so that k·part is exact for |k| < 2^21 and x − k·first is
// exact; r carries two roundings of about 2^-53 of |r| + 2^-18.
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kHalfPi1 = 0x1.921fb544p+0;
constexpr double kHalfPi2 = 0x1.0b4611a6p-34;
constexpr double kHalfPi3 = 0x1.3198a2e037073p-69;
// Beyond it (and at ±inf and NaN) an element is the C library's float
// function, as before: no API's default range reaches it.
constexpr double kTrigLimit = 65536.0;

// sin r and cos r for |r| <= π/4 + 2^-20: their Taylor polynomials to r^15
// and r^16 (the remainders below 2^-54 of the result).
inline double SinOfReduced(double r) {
  const double z = r * r;
  double p = -1.0 / 1307674368000.0;
  p = p * z + 1.0 / 6227020800.0;
  p = p * z - 1.0 / 39916800.0;
  p = p * z + 1.0 / 362880.0;
  p = p * z - 1.0 / 5040.0;
  p = p * z + 1.0 / 120.0;
  p = p * z - 1.0 / 6.0;
  // At r = ±0 the sum would be +0: sin(−0) is −0. Elsewhere the sum has
  // r's sign already (|z·p| < 1); copysign, a bit operation, keeps the
  // callers' loops free of branches.
  const double sum = r + r * z * p;
  return std::copysign(sum, r);
}

inline double CosOfReduced(double r) {
  const double z = r * r;
  double p = 1.0 / 20922789888000.0;
  p = p * z - 1.0 / 87178291200.0;
  p = p * z + 1.0 / 479001600.0;
  p = p * z - 1.0 / 3628800.0;
  p = p * z + 1.0 / 40320.0;
  p = p * z - 1.0 / 720.0;
  p = p * z + 1.0 / 24.0;
  p = p * z - 0.5;
  return 1.0 + z * p;
}

enum class Trig { kSin, kCos, kTan };

// sin, cos or tan of x for |x| <= kTrigLimit, in double.
template <Trig kFunction>
inline double TrigInDouble(double x) {
  const double shifted = x * kTwoOverPi + kExpShifter;
  const double k = shifted - kExpShifter;
  const double r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  // The quadrant, k mod 4, is in the low bits of shifted.
  int64_t shifted_bits;
  std::memcpy(&shifted_bits, &shifted, sizeof shifted_bits);
  const int64_t quadrant = shifted_bits + (kFunction == Trig::kCos ? 1 : 0);
  const double s = SinOfReduced(r);
  const double c = CosOfReduced(r);
  const bool odd = (quadrant & 1) != 0;
  if constexpr (kFunction == Trig::kTan) {
    const double minus_c = -c;
    return odd ? minus_c / s : s / c;
  }
  // sin(x) is s, c, −s, −c by the quadrant; cos(x) is sin(x + π/2).
  const double value = odd ? c : s;
  const double negated = -value;
  return (quadrant & 2) != 0 ? negated : value;
}

template <Trig kFunction>
inline float TrigOfFloat(float x) {
  if constexpr (kFunction == Trig::kSin) return std::sin(x);
  if constexpr (kFunction == Trig::kCos) return std::cos(x);
  return std::tan(x);
}

template <Trig kFunction>
void Trigonometric(float* v, size_t n, uint32_t) {
  constexpr size_t kBlock = 256;
  float result[kBlock];
  int32_t outside[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    float* x = v + start;
    const size_t m = n - start < kBlock ? n - start : kBlock;
    for (size_t i = 0; i < m; ++i) {
      const double wide = static_cast<double>(x[i]);
      const bool inside = std::fabs(wide) <= kTrigLimit;  // false at NaN
      result[i] = static_cast<float>(TrigInDouble<kFunction>(inside ? wide : 0.0));
      outside[i] = !inside;
    }
    int32_t any_outside = 0;
    for (size_t i = 0; i < m; ++i) any_outside |= outside[i];
    if (any_outside != 0) {
      for (size_t i = 0; i < m; ++i) {
        if (outside[i] != 0) result[i] = TrigOfFloat<kFunction>(x[i]);
      }
    }
    std::memcpy(x, result, m * sizeof(float));
  }
}

// Below it, the hyperbolic functions are their Taylor series (the
// difference of exponentials would cancel); from it on, exponentials.
constexpr double kSeriesBelow = 0.125;
// The halfway point past the largest float: from it on a double rounds to
// +inf (a conversion of a larger double to float is undefined in C++).
constexpr double kFloatOverflow = 0x1.ffffffp127;

inline float ToFloat(double d) { return static_cast<float>(d >= kFloatOverflow ? INFINITY : d); }

// tanh |x| = (e^2|x| − 1) / (e^2|x| + 1), then x's sign; the series
// x − x³/3 + 2x⁵/15 − 17x⁷/315 + 62x⁹/2835 − 1382x¹¹/155925 below 1/8
// (remainder below 2^-44 of x). |x| is held to 10, where tanh rounds to 1.
inline float TanhInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const double z = a * a;
  double p = -1382.0 / 155925.0;
  p = p * z + 62.0 / 2835.0;
  p = p * z - 17.0 / 315.0;
  p = p * z + 2.0 / 15.0;
  p = p * z - 1.0 / 3.0;
  const double series = a + a * z * p;
  const double t = ExpInDouble(2.0 * (a < 10.0 ? a : 10.0));
  const double by_exp = (t - 1.0) / (t + 1.0);
  const float magnitude = static_cast<float>(a < kSeriesBelow ? series : by_exp);
  return x == x ? std::copysign(magnitude, x) : x;
}

// sinh |x| = (e^|x| − e^-|x|) / 2, then x's sign; the series x + x³/3! +
// … + x⁹/9! below 1/8. |x| is held to 90, where sinh is past float's range.
inline float SinhInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const double z = a * a;
  double p = 1.0 / 362880.0;
  p = p * z + 1.0 / 5040.0;
  p = p * z + 1.0 / 120.0;
  p = p * z + 1.0 / 6.0;
  const double series = a + a * z * p;
  const double t = ExpInDouble(a < 90.0 ? a : 90.0);
  const double by_exp = (t - 1.0 / t) * 0.5;
  const float magnitude = ToFloat(a < kSeriesBelow ? series : by_exp);
  return x == x ? std::copysign(magnitude, x) : x;
}

// cosh x = (e^|x| + e^-|x|) / 2, |x| held to 90.
inline float CoshInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const double t = ExpInDouble(a < 90.0 ? a : 90.0);
  const float rounded = ToFloat((t + 1.0 / t) * 0.5);
  return x == x ? rounded : x;
}

// ---- Math: the binary call shape's exact operations, on raw elements ---------

// Elements are read and written through memcpy (the buffers' types vary by
// call); the compiler turns each into a plain vector load or store.
template <typename U>
inline U LoadAt(const void* p, size_t i) {
  U u;
  std::memcpy(&u, static_cast<const uint8_t*>(p) + i * sizeof(U), sizeof u);
  return u;
}

template <typename U>
inline void StoreAt(void* p, size_t i, U u) {
  std::memcpy(static_cast<uint8_t*>(p) + i * sizeof(U), &u, sizeof u);
}

template <BitStep kStep>
void Bits(uint8_t* __restrict dst, const uint8_t* __restrict a, const uint8_t* __restrict b,
          size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if constexpr (kStep == BitStep::kAnd) dst[i] = static_cast<uint8_t>(a[i] & b[i]);
    if constexpr (kStep == BitStep::kOr) dst[i] = static_cast<uint8_t>(a[i] | b[i]);
    if constexpr (kStep == BitStep::kXor) dst[i] = static_cast<uint8_t>(a[i] ^ b[i]);
    if constexpr (kStep == BitStep::kNot) dst[i] = static_cast<uint8_t>(~a[i]);
  }
}

template <typename U>
void TruthsOf(uint8_t* __restrict truth, const void* __restrict src, size_t n, U mask,
              uint8_t when_set) {
  for (size_t i = 0; i < n; ++i) {
    truth[i] = (LoadAt<U>(src, i) & mask) != 0 ? when_set : static_cast<uint8_t>(1 - when_set);
  }
}

void Truths(uint8_t* truth, const void* src, size_t n, uint32_t bytes, bool floating, bool negate) {
  const uint8_t when_set = negate ? 0 : 1;
  switch (bytes) {
    case 1:
      return TruthsOf<uint8_t>(truth, src, n, 0xff, when_set);
    case 2:
      return TruthsOf<uint16_t>(truth, src, n, floating ? 0x7fff : 0xffff, when_set);
    case 4:
      return TruthsOf<uint32_t>(truth, src, n, floating ? 0x7fffffffu : 0xffffffffu, when_set);
    default:
      return TruthsOf<uint64_t>(truth, src, n, ~uint64_t{0}, when_set);
  }
}

template <typename U>
void SelectOf(void* __restrict dst, const void* __restrict a, const void* __restrict b,
              const uint8_t* __restrict truth, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const U x = LoadAt<U>(a, i);
    const U y = LoadAt<U>(b, i);
    StoreAt<U>(dst, i, truth[i] != 0 ? x : y);
  }
}

void SelectByTruth(void* dst, const void* a, const void* b, const uint8_t* truth, size_t n,
                   uint32_t bytes) {
  switch (bytes) {
    case 1:
      return SelectOf<uint8_t>(dst, a, b, truth, n);
    case 2:
      return SelectOf<uint16_t>(dst, a, b, truth, n);
    case 4:
      return SelectOf<uint32_t>(dst, a, b, truth, n);
    default:
      return SelectOf<uint64_t>(dst, a, b, truth, n);
  }
}

// A floating element by its bits: the exponent field all ones is ±inf (a
// zero fraction below it) or NaN; anything else is finite.
template <ClassStep kStep, typename U>
inline bool Holds(U bits, U exponent_mask) {
  // Every bit but the sign: the exponent field and the fraction below it.
  const U magnitude = static_cast<U>(bits & static_cast<U>(exponent_mask | (exponent_mask - 1)));
  if constexpr (kStep == ClassStep::kFinite) return (bits & exponent_mask) != exponent_mask;
  if constexpr (kStep == ClassStep::kInf) return magnitude == exponent_mask;
  return magnitude > exponent_mask;
}

template <ClassStep kStep, typename U>
void ClassifyOf(void* __restrict dst, const void* __restrict src, size_t n, U exponent_mask, U one,
                bool bool_dst) {
  if (bool_dst) {
    for (size_t i = 0; i < n; ++i) {
      StoreAt<uint8_t>(dst, i, Holds<kStep>(LoadAt<U>(src, i), exponent_mask) ? 1 : 0);
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    StoreAt<U>(dst, i, Holds<kStep>(LoadAt<U>(src, i), exponent_mask) ? one : U{0});
  }
}

template <ClassStep kStep>
void Classify(void* dst, const void* src, size_t n, FloatFormat format, bool bool_dst) {
  if (format.bytes == 2) {
    ClassifyOf<kStep, uint16_t>(dst, src, n, static_cast<uint16_t>(format.exponent_mask),
                                static_cast<uint16_t>(format.one), bool_dst);
  } else {
    ClassifyOf<kStep, uint32_t>(dst, src, n, format.exponent_mask, format.one, bool_dst);
  }
}

// The order of floating values as integers: the magnitude's bits (below
// 2^31), negated for a set sign bit, so ±0 are both 0. Meaningful for
// non-NaN bits.
template <typename U>
inline int32_t OrderKey(U bits, U magnitude_mask) {
  const auto magnitude = static_cast<int32_t>(bits & magnitude_mask);
  const int32_t negated = -magnitude;
  return bits > magnitude_mask ? negated : magnitude;
}

template <typename U>
void ClampOf(void* __restrict dst, const void* __restrict src, size_t n, U exponent_mask, U scalar,
             bool is_max) {
  const U magnitude_mask = static_cast<U>(exponent_mask | (exponent_mask - 1));
  const bool scalar_nan = static_cast<U>(scalar & magnitude_mask) > exponent_mask;
  const int32_t s = OrderKey(scalar, magnitude_mask);
  // x past s: above it for ClampMax, below it for ClampMin (sign: 1 or −1).
  const int32_t sign = is_max ? 1 : -1;
  for (size_t i = 0; i < n; ++i) {
    const U x = LoadAt<U>(src, i);
    const bool x_nan = static_cast<U>(x & magnitude_mask) > exponent_mask;
    const int32_t key = OrderKey(x, magnitude_mask);
    const bool past = !x_nan && !scalar_nan && sign * key > sign * s;
    StoreAt<U>(dst, i, past ? scalar : x);
  }
}

void ClampToScalar(void* dst, const void* src, size_t n, FloatFormat format, uint32_t scalar,
                   bool is_max) {
  if (format.bytes == 2) {
    ClampOf<uint16_t>(dst, src, n, static_cast<uint16_t>(format.exponent_mask),
                      static_cast<uint16_t>(scalar), is_max);
  } else {
    ClampOf<uint32_t>(dst, src, n, format.exponent_mask, scalar, is_max);
  }
}

// ---- Math: the binary call shape in float --------------------------------------

// std::fma is one fused operation on every set (the instruction where the
// set has it, else the C library's exact emulation): the same bits.
void FmaFloats(float* __restrict dst, const float* __restrict a, const float* __restrict b,
               const float* __restrict c, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = std::fma(a[i], b[i], c[i]);
}

// The squares of floats are exact in double, the sum and root round there
// once each; at or past the halfway point above the largest float, +inf.
void HypotFloats(float* __restrict dst, const float* __restrict a, const float* __restrict b,
                 size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double x = a[i];
    const double y = b[i];
    const double root = std::sqrt(x * x + y * y);
    const bool infinite = std::fabs(x) == INFINITY || std::fabs(y) == INFINITY;
    dst[i] = ToFloat(infinite ? INFINITY : root);
  }
}

// ---- Activation: the elementwise formulas -------------------------------------

// The tanh approximation of Gelu as GeGLU's page writes it:
// x / (1 + e^(a·(x³ + b·x))).
constexpr float kGeluA = -0.0713548162726f;
constexpr float kGeluB = 22.363860002236f;

// FasterGelu: x / (1 + e^(-1.702·x)).
constexpr float kFasterGeluScale = -1.702f;

// FasterGeluV2: x·(1/2 + sgn(x)·(1/2 + p·(min(c·|x|, -q) + q)²)).
constexpr float kV2P = -0.1444f;
constexpr float kV2Q = -1.769f;
constexpr float kV2C = 0.70710678118654752f;

// The activations' e^t in float, without branches: t = k·ln2 + r with
// |r| <= ln2/2 (k·ln2 split in two parts so that the reduction loses
// nothing), e^r by its Taylor polynomial of degree 7, and 2^k applied as two
// exact power-of-two factors, so that results below 2^-126 round once into
// the subnormals and results above float's range become +inf. Within 2.6u
// of e^t (docs/numerics.md, "Activation: elementwise"); t is clamped to
// [-104, 89], beyond which e^t rounds to 0 or +inf anyway; NaN stays NaN.
inline float ActivationExp(float t) {
  constexpr float kActLog2e = 1.44269502f;
  constexpr float kActLn2Hi = 0.693145751953125f;      // 16 bits: k·kActLn2Hi is exact
  constexpr float kActLn2Lo = 1.428606765330187e-06f;  // ln2 - kActLn2Hi
  constexpr float kShifter = 12582912.0f;              // 1.5·2^23: + rounds to an integer
  const float c = t < -104.0f ? -104.0f : (t > 89.0f ? 89.0f : t);
  const float shifted = c * kActLog2e + kShifter;
  const float k = shifted - kShifter;
  const float r = (c - k * kActLn2Hi) - k * kActLn2Lo;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // k in [-150, 128], the integer in shifted's low bits; 2^k = 2^k1 · 2^k2
  // with both factors normal floats.
  const int32_t ki = static_cast<int32_t>(BitsOf(shifted) - BitsOf(kShifter));
  const int32_t k1 = ki / 2;
  const int32_t k2 = ki - k1;
  return p * FloatOf(static_cast<uint32_t>(k1 + 127) << 23) *
         FloatOf(static_cast<uint32_t>(k2 + 127) << 23);
}

// x / (1 + e^t), the quotient every exponential form here shares.
inline float OverOnePlusExp(float x, float t) { return x / (1.0f + ActivationExp(t)); }

inline float GeluOf(float x) { return OverOnePlusExp(x, kGeluA * (x * x * x + kGeluB * x)); }

void SigmoidFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(1.0f, -v[i]);
}

void SiluFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(v[i], -v[i]);
}

// The sign of β as the page's example computes it (docs/decisions.md,
// "Activation: elementwise").
void SwishFloats(float* v, const float*, size_t n, float beta) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(v[i], beta * v[i]);
}

void GeluFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = GeluOf(v[i]);
}

void FasterGeluFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(v[i], kFasterGeluScale * v[i]);
}

// sgn(x)·h as h with x's sign: the same for x != 0, and for x = ±0 the
// product x·(…) is ±0 either way (the factor is positive); NaN stays NaN.
void FasterGeluV2Floats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) {
    const float x = v[i];
    const float scaled = kV2C * std::fabs(x);
    const float clipped = (scaled < -kV2Q ? scaled : -kV2Q) + kV2Q;
    const float half_erf = 0.5f + kV2P * (clipped * clipped);
    v[i] = x * (0.5f + std::copysign(half_erf, x));
  }
}

// x0 · Swish(x1) with Swish(x1) = x1 / (1 + e^(-β·x1)) (the page's example).
void SwiGluFloats(float* v, const float* gate, size_t n, float beta) {
  for (size_t i = 0; i < n; ++i) v[i] = v[i] * OverOnePlusExp(gate[i], -beta * gate[i]);
}

void GeGluFloats(float* v, const float* gate, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = v[i] * GeluOf(gate[i]);
}

// x0 · max(x1, 0): +0 for a negative or zero x1, NaN kept.
void ReGluFloats(float* v, const float* gate, size_t n, float) {
  for (size_t i = 0; i < n; ++i) {
    const float g = gate[i];
    v[i] = v[i] * (g > 0.0f || g != g ? g : 0.0f);
  }
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels

// TopK's passes, in the same target region.
#include "kernels/vector/topk_inl.h"
