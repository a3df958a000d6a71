// kernels/vector/advanced_special_inl.h — the float passes of the special
// functions Erf, Erfc, Lgamma and Digamma (kernels::AdvancedKernels::math_f32,
// MathStep::kErf … kDigamma), written once beside advanced_inl.h and compiled
// with it by each instruction set's advanced_<isa>.cc inside its target
// region. Each is computed in double lanes from the exact float input and
// rounded once to float; the error of the double result is derived in
// docs/numerics.md ("Math: transcendental"). No branches and no library
// calls: the special values are selects made of bit operations (Pick), and
// every loop whose length is fixed (a series, a continued fraction, a
// recurrence) runs over a block of elements at a time, so that each of its
// steps is a loop the compiler vectorizes. Built without contraction into
// fused multiply-add, as the rest: the same bits on every set.
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

constexpr double kTwoOverSqrtPi = 0x1.20dd750429b6dp+0;
constexpr double kOneOverSqrtPi = 0x1.20dd750429b6dp-1;
constexpr double kHalfLnTwoPi = 0x1.d67f1c864beb5p-1;  // ln(2π)/2
// 2^23: from it on every float is an integer.
constexpr double kFloatIntegral = 8388608.0;

// `chosen ? a : b` by the bits. A conditional expression whose arm is
// computed only for it lets g++ move that arithmetic into a branch (it may
// trap, as the build leaves -ftrapping-math on), and a loop with a branch
// is not vectorized; masks keep both arms computed and the loop straight.
inline double Pick(bool chosen, double a, double b) {
  const uint64_t mask = uint64_t{0} - static_cast<uint64_t>(chosen);
  return DoubleOf((BitsOfDouble(a) & mask) | (BitsOfDouble(b) & ~mask));
}

inline float PickFloat(bool chosen, float a, float b) {
  const uint32_t mask = uint32_t{0} - static_cast<uint32_t>(chosen);
  return FloatOf((BitsOf(a) & mask) | (BitsOf(b) & ~mask));
}

// A double result rounded once to float, ±inf from the halfway point past
// the largest float on (a conversion beyond float's range is undefined).
inline float RoundToFloat(double d) {
  return static_cast<float>(Pick(std::fabs(d) >= kFloatOverflow, std::copysign(INFINITY, d), d));
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
  const double arg = kPi * Pick(low, a, 0.5 - a);
  const double s = SinOfReduced(arg);
  const double c = CosOfReduced(arg);
  return {std::copysign(Pick(low, s, c), r), Pick(low, c, s)};
}

// The parts of x the gamma functions share: r = x − the nearest integer
// (0 for |x| >= 2^23, where every float is one, and at ±inf and NaN), and
// the argument y > 0 the recurrence starts from: x, or 1 − x below 0 (the
// reflection; exact); 1 where y is not a positive finite value (0, ±inf,
// NaN: the callers select those results).
struct GammaArgument {
  double r;
  double y;
};

inline GammaArgument GammaArgumentOf(float x) {
  const double xd = static_cast<double>(x);
  const double held = Pick(std::fabs(xd) < kFloatIntegral, xd, 0.0);
  const double r = held - ((held + kExpShifter) - kExpShifter);
  const double y = Pick(xd < 0.0, 1.0 - xd, xd);
  return {r, Pick((y > 0.0) & (y <= static_cast<double>(FLT_MAX)), y, 1.0)};
}

// Whether x is a pole of both functions below 0: a negative integer or −inf.
inline bool NegativePole(float x, double r) {
  return (x < 0.0f) & ((r == 0.0) | !(std::fabs(x) < static_cast<float>(kFloatIntegral)));
}

// ---- Erf and Erfc --------------------------------------------------------------

// Below kErfSplit, erf|x| by the series of positive terms
// erf a = (2/√π)·a·e^(−a²)·Σ_{n>=0} (2a²)^n / (3·5···(2n+1)), to n = 36
// (nested as 1 + (2a²/3)(1 + (2a²/5)(…)); the rest is below 2^-55 of the
// sum at a = 2.5); from it on erfc|x| by the even part of Laplace's
// continued fraction, erfc a = (e^(−a²)/√π) · 2a/(2a² + 1 − 1·2/(2a² + 5 −
// 3·4/(2a² + 9 − …))), 20 levels, evaluated forwards as the quotient of its
// convergents' numerator and denominator (one division; within 2^-48 of the
// fraction's value from a = 2.5 on, roundings included). e^(−a²) is
// ExpInDouble's: a² of a float is exact in double, and |a| is held to 10.5
// (a² <= 110.25, where erfc has long rounded to +0), so its reduction stays
// exact and 2^k (k >= −160) a normal double.
constexpr double kErfSplit = 2.5;
constexpr double kErfHold = 10.5;
constexpr int kErfSeriesTerms = 36;
constexpr int kErfcFractionLevels = 20;

// erf|x| and erfc|x| of a block of m floats, in double.
inline void ErfOfMagnitudes(const float* x, size_t m, double* erf_of, double* erfc_of) {
  double a[kSpecialBlock], small[kSpecialBlock], twice_square[kSpecialBlock];
  double series[kSpecialBlock], num[kSpecialBlock], den[kSpecialBlock];
  double num_prev[kSpecialBlock], den_prev[kSpecialBlock];
  for (size_t i = 0; i < m; ++i) {
    const double magnitude = std::fabs(static_cast<double>(x[i]));
    a[i] = Pick(magnitude < kErfHold, magnitude, kErfHold);  // NaN: held too
    const bool below = a[i] < kErfSplit;
    const double of_series = Pick(below, a[i], kErfSplit);
    small[i] = of_series * of_series;
    const double large = Pick(below, kErfSplit, a[i]);
    twice_square[i] = 2.0 * (large * large);
    series[i] = 1.0;
    // The convergents 0/1 and 2a/(2a² + 1) (the first level).
    num_prev[i] = 0.0;
    den_prev[i] = 1.0;
    num[i] = 2.0 * large;
    den[i] = twice_square[i] + 1.0;
  }
  for (int n = kErfSeriesTerms; n >= 1; --n) {
    const double ratio = 2.0 / (2 * n + 1);
    for (size_t i = 0; i < m; ++i) series[i] = 1.0 + series[i] * (small[i] * ratio);
  }
  for (int level = 2; level <= kErfcFractionLevels; ++level) {
    // Level n: the partial numerator −(2n − 3)(2n − 2), denominator 2a² + 4n − 3.
    const double partial = -static_cast<double>((2 * level - 3) * (2 * level - 2));
    const double offset = 4.0 * level - 3.0;
    for (size_t i = 0; i < m; ++i) {
      const double b = twice_square[i] + offset;
      const double next_num = b * num[i] + partial * num_prev[i];
      const double next_den = b * den[i] + partial * den_prev[i];
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
    erf_of[i] = Pick(below, by_series, 1.0 - by_fraction);
    erfc_of[i] = Pick(below, 1.0 - by_series, by_fraction);
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
      x[i] = PickFloat(x[i] == x[i], std::copysign(magnitude, x[i]), x[i]);
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
      const float rounded = static_cast<float>(Pick(x[i] < 0.0f, 1.0 + erf_of[i], erfc_of[i]));
      x[i] = PickFloat(x[i] == x[i], rounded, x[i]);
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
  return ((t - 0.5) * LnInDouble(t) - t) + (kHalfLnTwoPi + w * p);
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
  return (LnInDouble(t) - 0.5 * w) - w2 * p;
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
        product[i] = product[i] * Pick(below, t[i], 1.0);
        t[i] = Pick(below, t[i] + 1.0, t[i]);
      }
    }
    for (size_t i = 0; i < m; ++i) {
      const GammaArgument g = GammaArgumentOf(x[i]);
      const bool negative = x[i] < 0.0f;
      const bool pole = NegativePole(x[i], g.r);
      const double sin_pi = std::fabs(SinCosOfPiTimes(g.r).sin);
      // At a pole sin(πr) is 0: Q is the product there (the result is +inf).
      const double q = Pick(negative & !pole, kPi * product[i] / sin_pi, product[i]);
      const double ln_q = LnInDouble(q);
      const double ln_gamma_t = LnGammaAsymptotic(t[i]);
      const float rounded = RoundToFloat(Pick(negative, ln_q - ln_gamma_t, ln_gamma_t - ln_q));
      // Γ(1) = Γ(2) = 1: +0 exactly there, where the difference would leave
      // its rounding error (about 2^-49).
      const float value = PickFloat((x[i] == 1.0f) | (x[i] == 2.0f), 0.0f, rounded);
      const bool infinite = (x[i] == 0.0f) | (std::fabs(x[i]) == INFINITY) | pole;
      x[i] = PickFloat(x[i] == x[i], PickFloat(infinite, INFINITY, value), x[i]);
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
        num[i] = Pick(below, num[i] * t[i] + den[i], num[i]);
        den[i] = Pick(below, den[i] * t[i], den[i]);
        t[i] = Pick(below, t[i] + 1.0, t[i]);
      }
    }
    for (size_t i = 0; i < m; ++i) {
      const GammaArgument g = GammaArgumentOf(x[i]);
      const SinCosPi sc = SinCosOfPiTimes(g.r);
      const double of_y = DigammaAsymptotic(t[i]) - num[i] / den[i];
      const double reflected = of_y - kPi * sc.cos / sc.sin;
      const float value = RoundToFloat(Pick(x[i] < 0.0f, reflected, of_y));
      const float nonzero = PickFloat(x[i] == INFINITY, INFINITY, value);
      const float finite_or_pole = PickFloat(NegativePole(x[i], g.r), NAN, nonzero);
      const float special = PickFloat(x[i] == 0.0f, std::copysign(INFINITY, -x[i]), finite_or_pole);
      x[i] = PickFloat(x[i] == x[i], special, x[i]);
    }
  }
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
