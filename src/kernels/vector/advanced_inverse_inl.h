// kernels/vector/advanced_inverse_inl.h — the inverse trigonometric and
// inverse hyperbolic Math APIs' passes (Asin, Acos, Atan, Asinh, Acosh,
// Atanh: MathStep's kAsin to kAtanh), written once and compiled by each
// instruction set's advanced_<isa>.cc with advanced_inl.h, whose helpers
// they use. Each is computed in double lanes from the exact float input and
// rounded once to float: the double result is within 2^-40 of the
// function's value (docs/numerics.md, "Math: transcendental"), so the float
// is within half an ulp and 2^-16 of an ulp of it. The six share two
// functions: an arctangent of a quotient (for Asin, Acos and Atan) and
// ln(1 + t) (for Asinh, Acosh and Atanh). No branches, no library calls:
// the special values and domain edges are selects.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced_inl.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

// ---- The arctangent of a quotient --------------------------------------------

// tan(π/8) = √2 − 1 and tan(3π/8) = √2 + 1: the edges of the reduction.
constexpr double kTanEighthPi = 0.41421356237309503;
constexpr double kTanThreeEighthsPi = 2.414213562373095;
constexpr double kQuarterPi = 0x1.921fb54442d18p-1;
constexpr double kHalfPi = 0x1.921fb54442d18p+0;

// atan u for |u| <= tan(π/8) (and a rounding more): its Taylor series to
// u^31 by Horner in u²; the first term left out is below 2^-45 of the sum.
inline double AtanOfReduced(double u) {
  const double z = u * u;
  double p = -1.0 / 31;
  p = p * z + 1.0 / 29;
  p = p * z - 1.0 / 27;
  p = p * z + 1.0 / 25;
  p = p * z - 1.0 / 23;
  p = p * z + 1.0 / 21;
  p = p * z - 1.0 / 19;
  p = p * z + 1.0 / 17;
  p = p * z - 1.0 / 15;
  p = p * z + 1.0 / 13;
  p = p * z - 1.0 / 11;
  p = p * z + 1.0 / 9;
  p = p * z - 1.0 / 7;
  p = p * z + 1.0 / 5;
  p = p * z - 1.0 / 3;
  return u + u * z * p;
}

// atan(y/x) in [0, π/2] for y, x >= 0, not both 0 (x = 0 gives π/2, y = +inf
// too), with one quotient: y/x = t is taken to u = t below tan(π/8), to
// (t − 1)/(t + 1) (atan t = π/4 + atan u) up to tan(3π/8), and to −1/t
// (atan t = π/2 + atan u) beyond, so that |u| <= tan(π/8).
inline double AtanOfQuotient(double y, double x) {
  const bool small = y <= kTanEighthPi * x;
  const bool large = y >= kTanThreeEighthsPi * x;
  const double difference = y - x;
  const double sum = y + x;
  const double minus_x = -x;
  const double middle_num = large ? minus_x : difference;
  const double middle_den = large ? y : sum;
  const double num = small ? y : middle_num;
  const double den = small ? x : middle_den;
  const double middle_offset = large ? kHalfPi : kQuarterPi;
  const double offset = small ? 0.0 : middle_offset;
  return offset + AtanOfReduced(num / den);
}

// √(1 − a²) for a in [0, 1] as √((1 − a)(1 + a)): both factors are exact
// for a float a, the product rounds once. NaN for a > 1.
inline double CoSide(double a) { return std::sqrt((1.0 - a) * (1.0 + a)); }

// asin x = atan(|x| / √(1 − x²)) with x's sign; NaN outside [−1, 1].
inline float AsinInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const float magnitude = static_cast<float>(AtanOfQuotient(a, CoSide(a)));
  return x == x ? std::copysign(magnitude, x) : x;
}

// acos x = atan(√(1 − x²) / |x|), or π minus it below 0; NaN outside
// [−1, 1].
inline float AcosInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const double angle = AtanOfQuotient(CoSide(a), a);
  const double reflected = kPi - angle;
  const float result = static_cast<float>(x < 0.0f ? reflected : angle);
  return x == x ? result : x;
}

// atan x = atan(|x| / 1) with x's sign: ±π/2 at ±inf.
inline float AtanInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const float magnitude = static_cast<float>(AtanOfQuotient(a, 1.0));
  return x == x ? std::copysign(magnitude, x) : x;
}

// ---- ln(1 + t) -----------------------------------------------------------------

// ln(1 + t) for t in [0, +inf]: s = 1 + t rounds, and its rounding error e
// (Knuth's two-sum, exact) enters as e/s (ln(s + e) = ln s + e/s, the next
// term below 2^-106). +inf at +inf.
inline double LnOnePlus(double t) {
  const double s = 1.0 + t;
  const double t_part = s - t;
  const double e = (1.0 - t_part) + (t - (s - t_part));
  const double finite = LnInDouble(s) + e / s;
  return t == INFINITY ? INFINITY : finite;
}

// asinh |x| = ln(1 + t), t = |x| + x²/(1 + √(x² + 1)) (x² exact; every
// term positive, so nothing cancels), then x's sign; ±inf at ±inf.
inline float AsinhInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const double square = a * a;
  const double t = a + square / (1.0 + std::sqrt(square + 1.0));
  const double finite = LnOnePlus(t);
  const float magnitude = static_cast<float>(a == INFINITY ? INFINITY : finite);
  return x == x ? std::copysign(magnitude, x) : x;
}

// acosh x = ln(1 + t), t = (x − 1) + √((x − 1)(x + 1)) (both factors exact,
// every term >= 0), for x >= 1; NaN below 1, +inf at +inf.
inline float AcoshInDouble(float x) {
  const double w = static_cast<double>(x);
  const double below = w - 1.0;
  const double t = below + std::sqrt(below * (w + 1.0));
  const double finite = LnOnePlus(t);
  const double nan_or_x = x == x ? NAN : w;
  return static_cast<float>(w >= 1.0 ? finite : nan_or_x);
}

// atanh |x| = ln(1 + t)/2, t = 2|x|/(1 − |x|) (1 − |x| exact), then x's
// sign: ±inf at ±1, NaN outside [−1, 1].
inline float AtanhInDouble(float x) {
  const double a = std::fabs(static_cast<double>(x));
  const double half_ln = 0.5 * LnOnePlus((2.0 * a) / (1.0 - a));
  const float magnitude = static_cast<float>(a <= 1.0 ? half_ln : NAN);
  return x == x ? std::copysign(magnitude, x) : x;
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
