// kernels/vector/advanced_special_inl.h — the float passes of the special
// functions Erf, Erfc, Lgamma and Digamma (kernels::AdvancedKernels::math_f32,
// MathStep::kErf … kDigamma), written once beside advanced_inl.h and compiled
// with it by each instruction set's advanced_<isa>.cc inside its target
// region. Each is computed in double lanes from the exact float input and
// rounded once to float; the error of the double result is derived in
// docs/numerics.md ("Math: transcendental"). No branches and no library
// calls: the special values are selects, and every loop whose length is
// fixed (a series, a continued fraction, a recurrence) runs over a block of
// elements at a time, so that each of its steps is a loop the compiler
// vectorizes. Built without contraction into fused multiply-add, as the
// rest: the same bits on every set.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced_inl.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

// Elements per block of the passes below.
constexpr size_t kSpecialBlock = 64;

constexpr double kPi = 0x1.921fb54442d18p+1;
constexpr double kTwoOverSqrtPi = 0x1.20dd750429b6dp+0;
constexpr double kOneOverSqrtPi = 0x1.20dd750429b6dp-1;
constexpr double kHalfLnTwoPi = 0x1.d67f1c864beb5p-1;  // ln(2π)/2
// 2^23: from it on every float is an integer.
constexpr double kFloatIntegral = 8388608.0;

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

// A double result rounded once to float, ±inf from the halfway point past
// the largest float on (a conversion beyond float's range is undefined).
inline float RoundToFloat(double d) {
  return static_cast<float>(std::fabs(d) >= kFloatOverflow ? std::copysign(INFINITY, d) : d);
}

// ln y for a finite normal y > 0, in double: y = 2^e · m with m in [√½, √2)
// read from the bits, ln m = 2·atanh(s) with s = (m − 1)/(m + 1), |s| <=
// 0.1716, by its odd series to s^21 (the rest is below 2^-60 of the sum),
// then e·ln2 in the two parts of ExpInDouble (e·kExpLn2Hi exact). Unsigned
// 64-bit steps only (shifts, adds), which every set vectorizes: e comes out
// biased by 1024 and becomes a double through the bits of 2^52 + e.
inline double LogInDouble(double y) {
  constexpr uint64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdull;
  constexpr uint64_t kBias = uint64_t{1024} << 52;
  constexpr uint64_t kTwo52Bits = 0x4330000000000000ull;
  const uint64_t bits = BitsOfDouble(y);
  const uint64_t biased = (bits - kSqrtHalfBits + kBias) >> 52;
  const double e = DoubleOf(kTwo52Bits | biased) - (4503599627370496.0 + 1024.0);
  const double m = DoubleOf(bits - ((biased - 1024) << 52));
  const double s = (m - 1.0) / (m + 1.0);  // m − 1 is exact
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
  return e * kExpLn2Hi + (e * kExpLn2Lo + (s + s) * q);
}

// sin(πr) and cos(πr) for |r| <= 1/2 (r = x − the nearest integer, exact):
// for |r| <= 1/4 from π|r|, else as cos and sin of π(1/2 − |r|) (1/2 − |r|
// exact), so the Taylor polynomials of Trigonometric see at most π/4. sin
// takes r's sign.
struct SinCosPi {
  double sin;
  double cos;
};

inline SinCosPi SinCosOfPiTimes(double r) {
  const double a = std::fabs(r);
  const bool low = a <= 0.25;
  const double arg = kPi * (low ? a : 0.5 - a);
  const double s = SinOfReduced(arg);
  const double c = CosOfReduced(arg);
  return {std::copysign(low ? s : c, r), low ? c : s};
}

// The parts of x the gamma functions share: whether x is below 0, x −
// nearest integer (0 for |x| >= 2^23, where every float is one), and the
// argument y > 0 the recurrence starts from: x, or 1 − x below 0 (the
// reflection); 1 where y is not a positive finite value (0, ±inf, NaN: the
// callers select those results).
struct GammaArgument {
  bool negative;
  bool integral;
  double r;
  double y;
};

inline GammaArgument GammaArgumentOf(float x) {
  const double xd = static_cast<double>(x);
  const bool inside = std::fabs(xd) < kFloatIntegral;  // false at ±inf, NaN
  const double held = inside ? xd : 0.0;
  const double r = held - ((held + kExpShifter) - kExpShifter);
  const bool negative = xd < 0.0;
  const double y = negative ? 1.0 - xd : xd;  // exact
  const bool usable = y > 0.0 && y <= static_cast<double>(FLT_MAX);
  return {negative, !inside || r == 0.0, r, usable ? y : 1.0};
}

// ---- Erf and Erfc --------------------------------------------------------------

// Below kErfSplit, erf|x| by the series of positive terms
// erf a = (2/√π)·a·e^(−a²)·Σ_{n>=0} (2a²)^n / (3·5···(2n+1)), to n = 36
// (nested as 1 + (2a²/3)(1 + (2a²/5)(…)); the rest is below 2^-52 of the
// sum at a = 2.5); from it on erfc|x| by the continued fraction
// erfc a = (e^(−a²)/√π) · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …)))), 40
// levels, evaluated forwards as the quotient of its convergents' numerator
// and denominator (every term positive: no cancellation; below 2^-50 of it at
// a = 2.5). e^(−a²) is ExpInDouble's: a² of a float is exact in double, and
// |a| is held to 10.5 (a² <= 110.25), where erfc has long rounded to +0.
constexpr double kErfSplit = 2.5;
constexpr double kErfHold = 10.5;
constexpr int kErfSeriesTerms = 36;
constexpr int kErfcFractionLevels = 40;

// erf|x| and erfc|x| of a block of m floats, in double.
inline void ErfOfMagnitudes(const float* x, size_t m, double* erf_of, double* erfc_of) {
  double a[kSpecialBlock], small[kSpecialBlock], large[kSpecialBlock], series[kSpecialBlock];
  double num[kSpecialBlock], den[kSpecialBlock], num_prev[kSpecialBlock], den_prev[kSpecialBlock];
  for (size_t i = 0; i < m; ++i) {
    const double magnitude = std::fabs(static_cast<double>(x[i]));
    a[i] = magnitude < kErfHold ? magnitude : kErfHold;  // NaN: held too
    const double below = a[i] < kErfSplit ? a[i] : kErfSplit;
    small[i] = below * below;
    large[i] = a[i] < kErfSplit ? kErfSplit : a[i];
    series[i] = 1.0;
    // The convergents 0/1 and 1/a (the first level).
    num_prev[i] = 0.0;
    den_prev[i] = 1.0;
    num[i] = 1.0;
    den[i] = large[i];
  }
  for (int n = kErfSeriesTerms; n >= 1; --n) {
    const double ratio = 2.0 / (2 * n + 1);
    for (size_t i = 0; i < m; ++i) series[i] = 1.0 + series[i] * (small[i] * ratio);
  }
  for (int level = 2; level <= kErfcFractionLevels; ++level) {
    const double partial = 0.5 * (level - 1);
    for (size_t i = 0; i < m; ++i) {
      const double next_num = large[i] * num[i] + partial * num_prev[i];
      const double next_den = large[i] * den[i] + partial * den_prev[i];
      num_prev[i] = num[i];
      den_prev[i] = den[i];
      num[i] = next_num;
      den[i] = next_den;
    }
  }
  for (size_t i = 0; i < m; ++i) {
    const double e = ExpInDouble(-(a[i] * a[i]));
    const double by_series = kTwoOverSqrtPi * a[i] * e * series[i];
    const double by_fraction = kOneOverSqrtPi * e * (num[i] / den[i]);
    const bool below = a[i] < kErfSplit;
    const double erf_by_fraction = 1.0 - by_fraction;
    const double erfc_by_series = 1.0 - by_series;
    erf_of[i] = below ? by_series : erf_by_fraction;
    erfc_of[i] = below ? erfc_by_series : by_fraction;
  }
}

// erf(−x) = −erf x: erf|x| with x's sign (±0 kept, ±1 at ±inf); NaN kept.
void ErfFloats(float* v, size_t n, uint32_t) {
  double erf_of[kSpecialBlock], erfc_of[kSpecialBlock];
  for (size_t start = 0; start < n; start += kSpecialBlock) {
    float* x = v + start;
    const size_t m = n - start < kSpecialBlock ? n - start : kSpecialBlock;
    ErfOfMagnitudes(x, m, erf_of, erfc_of);
    for (size_t i = 0; i < m; ++i) {
      const float magnitude = static_cast<float>(erf_of[i]);
      x[i] = x[i] == x[i] ? std::copysign(magnitude, x[i]) : x[i];
    }
  }
}

// erfc(−a) = 1 + erf a (no cancellation): 2 at −inf, +0 past about 10.06;
// NaN kept.
void ErfcFloats(float* v, size_t n, uint32_t) {
  double erf_of[kSpecialBlock], erfc_of[kSpecialBlock];
  for (size_t start = 0; start < n; start += kSpecialBlock) {
    float* x = v + start;
    const size_t m = n - start < kSpecialBlock ? n - start : kSpecialBlock;
    ErfOfMagnitudes(x, m, erf_of, erfc_of);
    for (size_t i = 0; i < m; ++i) {
      const double of_negative = 1.0 + erf_of[i];
      const float rounded = static_cast<float>(x[i] < 0.0f ? of_negative : erfc_of[i]);
      x[i] = x[i] == x[i] ? rounded : x[i];
    }
  }
}

// ---- Lgamma and Digamma ---------------------------------------------------------

// Both move y up to t = y + k >= 10 by the recurrence (Γ(y+1) = y·Γ(y),
// ψ(y+1) = ψ(y) + 1/y): kGammaSteps steps in which an element below 10 takes
// one more factor, so every y > 0 arrives; there the asymptotic series, whose
// first omitted term is below 5·10^-17 at t = 10.
constexpr double kAsymptoticFrom = 10.0;
constexpr int kGammaSteps = 10;

// ln Γ(t) for t >= 10 by Stirling's series: (t − ½)·ln t − t + ln(2π)/2 +
// Σ_{k=1..7} B_2k / (2k(2k−1)·t^(2k−1)).
inline double LnGammaAsymptotic(double t) {
  const double w = 1.0 / t;
  const double w2 = w * w;
  double p = 1.0 / 156;
  p = p * w2 - 691.0 / 360360;
  p = p * w2 + 1.0 / 1188;
  p = p * w2 - 1.0 / 1680;
  p = p * w2 + 1.0 / 1260;
  p = p * w2 - 1.0 / 360;
  p = p * w2 + 1.0 / 12;
  return ((t - 0.5) * LogInDouble(t) - t) + (kHalfLnTwoPi + w * p);
}

// ψ(t) for t >= 10: ln t − 1/(2t) − Σ_{k=1..7} B_2k / (2k·t^2k).
inline double DigammaAsymptotic(double t) {
  const double w = 1.0 / t;
  const double w2 = w * w;
  double p = 1.0 / 12;
  p = p * w2 - 691.0 / 32760;
  p = p * w2 + 1.0 / 132;
  p = p * w2 - 1.0 / 240;
  p = p * w2 + 1.0 / 252;
  p = p * w2 - 1.0 / 120;
  p = p * w2 + 1.0 / 12;
  return (LogInDouble(t) - 0.5 * w) - w2 * p;
}

// ln|Γ(x)|: for y = x > 0, ln Γ(t) − ln P with P = y(y+1)···(t−1); below 0
// the reflection Γ(x)·Γ(1−x) = π / sin(πx) gives ln π − ln|sin(πr)| −
// ln Γ(1−x) = ln(π·P / |sin(πr)|) − ln Γ(t) with y = 1 − x. One logarithm of
// the quotient Q (P, or π·P/|sin(πr)|) either way. +0 at 1 and 2; +inf at
// ±0, the negative integers and ±inf; NaN kept; +inf past float's range.
void LgammaFloats(float* v, size_t n, uint32_t) {
  double t[kSpecialBlock], product[kSpecialBlock];
  for (size_t start = 0; start < n; start += kSpecialBlock) {
    float* x = v + start;
    const size_t m = n - start < kSpecialBlock ? n - start : kSpecialBlock;
    for (size_t i = 0; i < m; ++i) {
      t[i] = GammaArgumentOf(x[i]).y;
      product[i] = 1.0;
    }
    for (int step = 0; step < kGammaSteps; ++step) {
      for (size_t i = 0; i < m; ++i) {
        const bool below = t[i] < kAsymptoticFrom;
        product[i] = product[i] * (below ? t[i] : 1.0);
        t[i] = below ? t[i] + 1.0 : t[i];
      }
    }
    for (size_t i = 0; i < m; ++i) {
      const GammaArgument g = GammaArgumentOf(x[i]);
      const double sin_pi = std::fabs(SinCosOfPiTimes(g.r).sin);
      const double reflected = kPi * product[i] / sin_pi;
      const bool pole = g.integral && g.negative;
      // At a pole sin(πr) is 0: Q is held to 1 there (the result is +inf).
      const double q = g.negative && !pole ? reflected : product[i];
      const double ln_q = LogInDouble(q);
      const double ln_gamma_t = LnGammaAsymptotic(t[i]);
      const double of_negative = ln_q - ln_gamma_t;
      const double of_positive = ln_gamma_t - ln_q;
      const float rounded = RoundToFloat(g.negative ? of_negative : of_positive);
      // Γ(1) = Γ(2) = 1: +0 exactly there, where the difference would leave
      // its rounding error (about 2^-49).
      const float value = x[i] == 1.0f || x[i] == 2.0f ? 0.0f : rounded;
      const bool infinite = x[i] == 0.0f || std::fabs(x[i]) == INFINITY || pole;
      const float special = infinite ? INFINITY : value;
      x[i] = x[i] == x[i] ? special : x[i];
    }
  }
}

// ψ(x): for y = x > 0, ψ(t) − Σ_{j<k} 1/(y + j), the sum kept as one
// quotient num/den (num·u + den over den·u for each new factor u: positive
// terms, one division at the end); below 0 the reflection ψ(x) = ψ(1 − x) −
// π·cos(πr)/sin(πr). −inf at +0, +inf at −0 (as −1/x), NaN at the negative
// integers, −inf and NaN, +inf at +inf; ±inf past float's range.
void DigammaFloats(float* v, size_t n, uint32_t) {
  double t[kSpecialBlock], num[kSpecialBlock], den[kSpecialBlock];
  for (size_t start = 0; start < n; start += kSpecialBlock) {
    float* x = v + start;
    const size_t m = n - start < kSpecialBlock ? n - start : kSpecialBlock;
    for (size_t i = 0; i < m; ++i) {
      t[i] = GammaArgumentOf(x[i]).y;
      num[i] = 0.0;
      den[i] = 1.0;
    }
    for (int step = 0; step < kGammaSteps; ++step) {
      for (size_t i = 0; i < m; ++i) {
        const bool below = t[i] < kAsymptoticFrom;
        const double next_num = num[i] * t[i] + den[i];
        const double next_den = den[i] * t[i];
        num[i] = below ? next_num : num[i];
        den[i] = below ? next_den : den[i];
        t[i] = below ? t[i] + 1.0 : t[i];
      }
    }
    for (size_t i = 0; i < m; ++i) {
      const GammaArgument g = GammaArgumentOf(x[i]);
      const SinCosPi sc = SinCosOfPiTimes(g.r);
      const double of_y = DigammaAsymptotic(t[i]) - num[i] / den[i];
      const double reflected = of_y - kPi * sc.cos / sc.sin;
      const float value = RoundToFloat(g.negative ? reflected : of_y);
      const float at_zero = std::copysign(INFINITY, -x[i]);
      const float nonzero = x[i] == INFINITY ? INFINITY : value;
      const float finite_or_pole = g.negative && g.integral ? NAN : nonzero;
      const float special = x[i] == 0.0f ? at_zero : finite_or_pole;
      x[i] = x[i] == x[i] ? special : x[i];
    }
  }
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
