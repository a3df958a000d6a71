// vector_advanced_test.cc — the advanced APIs' passes of every instruction
// set compiled in (kernels::AdvancedKernels: exp_rounded_f32,
// fold_lanes_f32, math_f32, activation_f32 and the binary call shape's
// loops; src/kernels/vector/advanced_inl.h):
//
// - exp_rounded_f32 against the float nearest to std::exp of the widened
//   value (SoftMax's exponential, docs/softmax.md), bit for bit, over a dense
//   sweep of [-110, 95] (which holds inputs whose result lies near a
//   midpoint between two floats, handed to the C library) and the special
//   values;
// - fold_lanes_f32 against the fold written here (the first step of the
//   documented row sum);
// - math_f32 and activation_f32 against the "scalar" set's loops, bit for
//   bit (the library's tests hold those to float64 references), on every
//   half value, random float bit patterns and the special values;
// - math_f32's exact passes (Ceil, Floor, the nearest even, Trunc, Frac,
//   Sign) on every set against the C library's functions, bit for bit, and
//   its double-lane passes (Sin, Cos, Tan, Tanh, Sinh, Cosh) against the
//   double functions: within half an ulp and 2^-16 ulp of them, and where
//   Sin, Cos and Tan hand an element to the C library, its float function's
//   bits; the inverse functions' passes (Asin, Acos, Atan, Asinh, Acosh,
//   Atanh) the same way, over a sweep of every exponent and dense near the
//   domains' edges; Erf, Erfc, Lgamma and Digamma against float64 references
//   within half an ulp and 2^-16 ulp (Erfc 2^-8), plus the absolute part of
//   Lgamma's and Digamma's bounds near their roots;
// - the binary call shape's loops (bits_u8, truths_u8, select_u8,
//   classify, clamp_to_scalar, fma_f32, hypot_f32) on every set against
//   the operations written here on the same bits;
// - Fmod's, Power's, Axpy's, CumSum's and Clamp's loops (fmod_f32,
//   power_f32, power_u32, axpy_f32, cumsum_f32, clamp) on every set: Fmod
//   against the remainder in double, Power against the C library's pow in
//   double rounded once, Axpy against its two steps in double, CumSum
//   against its documented order and Clamp against its rule written here,
//   bit for bit;
// - the loops of LogSoftMax, the scalar selections, Filter and Index
//   (log10_rounded_f32 against the float nearest to std::log10 of the
//   widened value, bit for bit; select_scalar_u8, bit_truths_u8,
//   scale_kept_f32 and arange_int against the operations written here;
//   philox_words against Philox4x32 written here from the paper, and its
//   known answer);
// - TopK's loops (topk_priorities, group_maxima, collect_at_least): the
//   priorities against the order of the values (every half and bfloat16,
//   the float inputs and the special values), the others against plain
//   loops;
// - the transpose loop (transpose_bits) for elements of 1, 2 and 4 bytes
//   against the index map written here, on shapes around the tile sizes
//   and with strides wider than the block.
//
// A NaN matches a NaN (compilers may swap the operands of + and ×, whose
// NaN payload then differs); every other value matches bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/vector/advanced.h"
#include "normgrad/float16.h"

namespace {

namespace k = normgrad::kernels;

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

bool SameFloat(float got, float want) {
  return (std::isnan(got) && std::isnan(want)) || Bits(got) == Bits(want);
}

// ±0, ±inf, NaNs with payloads, the smallest and largest subnormals and
// normals, and the edges of the exponentials' ranges and clamps.
std::vector<float> SpecialValues() {
  std::vector<float> v;
  for (const uint32_t b : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                           0xffc12345u, 0x7f800001u, 0x00000001u, 0x807fffffu, 0x00800000u,
                           0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u}) {
    v.push_back(FromBits(b));
  }
  for (const float edge : {-150.0f, -104.0f, -103.97f, -103.0f, -87.34f, -87.0f, -86.99f, 88.0f,
                           88.01f, 88.72f, 88.7228394f, 88.73f, 89.0f, 90.0f, 0.5f, -0.5f}) {
    v.push_back(edge);
    v.push_back(std::nextafter(edge, -INFINITY));
    v.push_back(std::nextafter(edge, INFINITY));
  }
  return v;
}

// Every half value as a float, the special values and `random` random bit
// patterns.
std::vector<float> MathInputs(size_t random) {
  std::vector<float> v = SpecialValues();
  for (uint32_t h = 0; h < 65536; ++h) {
    v.push_back(normgrad::bits::HalfToFloat(static_cast<uint16_t>(h)));
  }
  std::mt19937 gen(30);
  for (size_t i = 0; i < random; ++i) v.push_back(FromBits(static_cast<uint32_t>(gen())));
  return v;
}

// Calls `pass` on a copy of `in` split into pieces of uneven lengths (every
// loop's tail runs), returning the results.
template <typename Pass>
std::vector<float> InPieces(const std::vector<float>& in, Pass pass) {
  std::vector<float> out = in;
  size_t at = 0;
  for (size_t piece = 1; at < out.size(); piece = piece * 3 % 1021 + 1) {
    const size_t n = std::min(piece, out.size() - at);
    pass(out.data() + at, n);
    at += n;
  }
  return out;
}

void ExpectSame(const std::vector<float>& in, const std::vector<float>& got,
                const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  size_t shown = 0;
  for (size_t i = 0; i < got.size() && shown < 5; ++i) {
    if (SameFloat(got[i], want[i])) continue;
    ADD_FAILURE() << "input " << std::hexfloat << in[i] << " (0x" << std::hex << Bits(in[i])
                  << "): 0x" << Bits(got[i]) << ", want 0x" << Bits(want[i]);
    ++shown;
  }
}

TEST(VectorAdvanced, EverySetHasItsOwnLoops) {
  // Each set's table holds the loops compiled for it, not the scalar ones.
  const k::AdvancedKernels& scalar = k::AdvancedKernelsOf(k::ScalarIsa());
  for (const k::Isa& isa : k::Isas()) {
    if (std::string(isa.name) == "scalar") continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    EXPECT_NE(set.exp_rounded_f32, scalar.exp_rounded_f32);
    EXPECT_NE(set.fold_lanes_f32, scalar.fold_lanes_f32);
    for (int step = 0; step < k::kMathSteps; ++step) {
      EXPECT_NE(set.math_f32[step], scalar.math_f32[step]) << "math step " << step;
    }
    for (int step = 0; step < k::kActivationSteps; ++step) {
      EXPECT_NE(set.activation_f32[step], scalar.activation_f32[step]) << "activation " << step;
    }
    for (int step = 0; step < k::kBitSteps; ++step) {
      EXPECT_NE(set.bits_u8[step], scalar.bits_u8[step]) << "bit step " << step;
    }
    for (int step = 0; step < k::kClassSteps; ++step) {
      EXPECT_NE(set.classify[step], scalar.classify[step]) << "class step " << step;
    }
    EXPECT_NE(set.truths_u8, scalar.truths_u8);
    EXPECT_NE(set.select_u8, scalar.select_u8);
    EXPECT_NE(set.clamp_to_scalar, scalar.clamp_to_scalar);
    EXPECT_NE(set.fma_f32, scalar.fma_f32);
    EXPECT_NE(set.hypot_f32, scalar.hypot_f32);
    EXPECT_NE(set.fmod_f32, scalar.fmod_f32);
    EXPECT_NE(set.power_f32, scalar.power_f32);
    EXPECT_NE(set.power_u32, scalar.power_u32);
    EXPECT_NE(set.axpy_f32, scalar.axpy_f32);
    EXPECT_NE(set.cumsum_f32, scalar.cumsum_f32);
    EXPECT_NE(set.clamp, scalar.clamp);
  }
}

TEST(VectorAdvanced, ExpRoundedIsTheCLibrarysExpRoundedOnce) {
  // Every 2^13-th float in [-110, 95] (about 270 000), and the specials.
  std::vector<float> in = SpecialValues();
  for (uint32_t b = 0; b <= 0x42be0000u; b += 8192) in.push_back(FromBits(b));
  for (uint32_t b = 0x80000000u; b <= 0xc2dc0000u; b += 8192) in.push_back(FromBits(b));
  std::vector<float> want(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    want[i] = static_cast<float>(std::exp(static_cast<double>(in[i])));
  }
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    ExpectSame(
        in,
        InPieces(in, [&](float* v, size_t n) { k::AdvancedKernelsOf(isa).exp_rounded_f32(v, n); }),
        want);
  }
}

TEST(VectorAdvanced, FoldLanesFoldsTermsInOrder) {
  std::mt19937 gen(64);
  std::uniform_real_distribution<float> real(-1000.0f, 1000.0f);
  const std::vector<float> specials = SpecialValues();
  for (const size_t n : {1, 5, 63, 64, 65, 127, 128, 129, 1000, 1024, 4097}) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i % 41 == 7 ? specials[i % specials.size()] : real(gen);
    if (n >= 2) v[0] = -0.0f;  // a lane of one term keeps its sign
    float want[64] = {};
    for (size_t i = 0; i < n; ++i) want[i % 64] = i < 64 ? v[i] : v[i] + want[i % 64];
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << ", " << n << " terms");
      float got[64];
      std::memset(got, 0xff, sizeof got);
      k::AdvancedKernelsOf(isa).fold_lanes_f32(v.data(), n, got);
      for (int j = 0; j < 64; ++j) {
        ASSERT_TRUE(SameFloat(got[j], want[j]))
            << "lane " << j << ": " << got[j] << ", want " << want[j];
      }
    }
  }
}

TEST(VectorAdvanced, MathPassesGiveTheScalarSetsBits) {
  const std::vector<float> in = MathInputs(100000);
  const k::AdvancedKernels& scalar = k::AdvancedKernelsOf(k::ScalarIsa());
  const struct {
    k::MathStep step;
    uint32_t level;
    const char* name;
  } passes[] = {{k::MathStep::kExp, 0, "Exp"},         {k::MathStep::kExp, 1, "Exp level 1"},
                {k::MathStep::kExp, 4, "Exp level 4"}, {k::MathStep::kLog, 0, "Log"},
                {k::MathStep::kLog2, 0, "Log2"},       {k::MathStep::kLog10, 0, "Log10"},
                {k::MathStep::kSin, 0, "Sin"},         {k::MathStep::kCos, 0, "Cos"},
                {k::MathStep::kTan, 0, "Tan"},         {k::MathStep::kTanh, 0, "Tanh"},
                {k::MathStep::kSinh, 0, "Sinh"},       {k::MathStep::kCosh, 0, "Cosh"},
                {k::MathStep::kAsin, 0, "Asin"},       {k::MathStep::kAcos, 0, "Acos"},
                {k::MathStep::kAtan, 0, "Atan"},       {k::MathStep::kAsinh, 0, "Asinh"},
                {k::MathStep::kAcosh, 0, "Acosh"},     {k::MathStep::kAtanh, 0, "Atanh"},
                {k::MathStep::kErf, 0, "Erf"},         {k::MathStep::kErfc, 0, "Erfc"},
                {k::MathStep::kLgamma, 0, "Lgamma"},   {k::MathStep::kDigamma, 0, "Digamma"}};
  for (const auto& p : passes) {
    const auto of = [&](const k::AdvancedKernels& set) {
      return InPieces(
          in, [&](float* v, size_t n) { set.math_f32[static_cast<int>(p.step)](v, n, p.level); });
    };
    const std::vector<float> want = of(scalar);
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << ": " << p.name);
      ExpectSame(in, of(k::AdvancedKernelsOf(isa)), want);
    }
  }
}

TEST(VectorAdvanced, ActivationPassesGiveTheScalarSetsBits) {
  const std::vector<float> in = MathInputs(50000);
  // The gate: the inputs in another order (a gate's specials meet every kind
  // of value).
  std::vector<float> gate(in.rbegin(), in.rend());
  const k::AdvancedKernels& scalar = k::AdvancedKernelsOf(k::ScalarIsa());
  for (int step = 0; step < k::kActivationSteps; ++step) {
    for (const float beta : {1.0f, -0.75f}) {
      const auto of = [&](const k::AdvancedKernels& set) {
        std::vector<float> out = in;
        size_t at = 0;
        for (size_t piece = 1; at < out.size(); piece = piece * 3 % 1021 + 1) {
          const size_t n = std::min(piece, out.size() - at);
          set.activation_f32[step](out.data() + at, gate.data() + at, n, beta);
          at += n;
        }
        return out;
      };
      const std::vector<float> want = of(scalar);
      for (const k::Isa& isa : k::Isas()) {
        if (!isa.available()) continue;
        SCOPED_TRACE(testing::Message() << isa.name << ": step " << step << ", beta " << beta);
        ExpectSame(in, of(k::AdvancedKernelsOf(isa)), want);
      }
    }
  }
}

// The inputs of the exact passes: MathInputs, and every integer and
// half-integer near 0, 2^22 and 2^23 with its neighbours.
std::vector<float> RoundingInputs() {
  std::vector<float> v = MathInputs(100000);
  for (const float centre : {0.0f, 4194304.0f, 8388608.0f}) {
    for (int i = -40; i <= 40; ++i) {
      for (const float sign : {1.0f, -1.0f}) {
        const float x = sign * (centre + 0.5f * static_cast<float>(i));
        v.push_back(x);
        v.push_back(std::nextafter(x, -INFINITY));
        v.push_back(std::nextafter(x, INFINITY));
      }
    }
  }
  return v;
}

TEST(VectorAdvanced, ExactPassesAreTheCLibrarysFunctions) {
  const std::vector<float> in = RoundingInputs();
  const struct {
    k::MathStep step;
    float (*want)(float);
    const char* name;
  } passes[] = {
      {k::MathStep::kCeil, [](float x) { return std::ceil(x); }, "Ceil"},
      {k::MathStep::kFloor, [](float x) { return std::floor(x); }, "Floor"},
      {k::MathStep::kNearestEven, [](float x) { return std::nearbyint(x); }, "nearest even"},
      {k::MathStep::kTrunc, [](float x) { return std::trunc(x); }, "Trunc"},
      {k::MathStep::kFrac, [](float x) { return x - std::trunc(x); }, "Frac"},
      {k::MathStep::kSign, [](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); },
       "Sign"}};
  for (const auto& p : passes) {
    std::vector<float> want(in.size());
    for (size_t i = 0; i < in.size(); ++i) want[i] = p.want(in[i]);
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << ": " << p.name);
      ExpectSame(in,
                 InPieces(in,
                          [&](float* v, size_t n) {
                            k::AdvancedKernelsOf(isa).math_f32[static_cast<int>(p.step)](v, n, 0);
                          }),
                 want);
    }
  }
}

// The ulp of float at y (that of the subnormals below the normals).
double UlpAt(double y) {
  int e = 0;
  std::frexp(std::fabs(y), &e);
  return std::ldexp(1.0, std::max(e - 1, -126) - 23);
}

TEST(VectorAdvanced, DoubleLanePassesRoundTheFunctionOnce) {
  std::vector<float> in = MathInputs(20000);
  // Dense in the reduced ranges: [-8, 8] and multiples of π/2 far out.
  for (int i = -20000; i <= 20000; ++i) in.push_back(static_cast<float>(i) * 0.0004f);
  for (int j = 1; j < 41000; j += 97) {
    const float x = static_cast<float>(j * 1.5707963267948966);
    in.insert(in.end(), {x, -x, std::nextafter(x, 0.0f), std::nextafter(x, INFINITY)});
  }
  const struct {
    k::MathStep step;
    double (*want)(double);
    float (*outside)(float);  // the C library's float function, beyond 65536
    const char* name;
  } passes[] = {{k::MathStep::kSin, [](double x) { return std::sin(x); },
                 [](float x) { return std::sin(x); }, "Sin"},
                {k::MathStep::kCos, [](double x) { return std::cos(x); },
                 [](float x) { return std::cos(x); }, "Cos"},
                {k::MathStep::kTan, [](double x) { return std::tan(x); },
                 [](float x) { return std::tan(x); }, "Tan"},
                {k::MathStep::kTanh, [](double x) { return std::tanh(x); }, nullptr, "Tanh"},
                {k::MathStep::kSinh, [](double x) { return std::sinh(x); }, nullptr, "Sinh"},
                {k::MathStep::kCosh, [](double x) { return std::cosh(x); }, nullptr, "Cosh"}};
  for (const auto& p : passes) {
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << ": " << p.name);
      const std::vector<float> got = InPieces(in, [&](float* v, size_t n) {
        k::AdvancedKernelsOf(isa).math_f32[static_cast<int>(p.step)](v, n, 0);
      });
      size_t shown = 0;
      for (size_t i = 0; i < in.size() && shown < 5; ++i) {
        const float x = in[i];
        const bool by_library = p.outside != nullptr && !(std::fabs(x) <= 65536.0f);
        if (by_library) {
          if (SameFloat(got[i], p.outside(x))) continue;
        } else {
          const double y = p.want(static_cast<double>(x));
          // Past float's largest value (from the halfway point on): ±inf.
          const bool overflows = std::fabs(y) >= 0x1.ffffffp127;
          if (std::isnan(y) ? std::isnan(got[i])
              : overflows
                  ? got[i] == static_cast<float>(std::copysign(INFINITY, y))
                  : std::fabs(static_cast<double>(got[i]) - y) <= (0.5 + 0x1p-16) * UlpAt(y) &&
                        std::signbit(got[i]) == std::signbit(y)) {
            continue;
          }
        }
        ADD_FAILURE() << "input " << std::hexfloat << x << ": " << got[i];
        ++shown;
      }
    }
  }
}

// ψ(x) in double, written for this test: the poles (−inf at +0, +inf at
// −0, NaN at the negative integers and −inf), the reflection
// ψ(x) = ψ(1 − x) − π/tan(πx) below 0, the recurrence up to 20 and the
// asymptotic series there.
double DigammaOf(double x) {
  if (std::isnan(x) || x == -INFINITY) return NAN;
  if (x == INFINITY) return INFINITY;
  if (x == 0) return std::signbit(x) ? INFINITY : -INFINITY;
  double reflection = 0;
  if (x < 0) {
    const double r = x - std::nearbyint(x);
    if (r == 0) return NAN;
    reflection = -M_PI / std::tan(M_PI * r);
    x = 1 - x;
  }
  double sum = 0;
  for (; x < 20; x += 1) sum += 1 / x;
  const double z = 1 / (x * x);
  const double series =
      z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z / 132))));
  return std::log(x) - 0.5 / x - series - sum + reflection;
}

// ln|Γ(x)| with the C library's poles: +inf at 0, the negative integers and
// ±inf.
double LgammaOf(double x) { return std::lgamma(x); }

// Erf, Erfc, Lgamma and Digamma on every set against float64 references:
// the double result rounded once, so within half an ulp and 2^-16 ulp
// (Erfc: 2^-8, where 1 − erf x cancels), plus (Lgamma, Digamma) the absolute part their sums leave
// near the roots (docs/numerics.md, "Math: transcendental"); the special values exactly. Dense over
// the ranges where the functions turn: every 2^-11 in [-12, 12] (Erf, Erfc), every 2^-9 in [-40,
// 40] (Lgamma, Digamma), and the 400 floats around each of their roots and around the ends of Erf's
// two methods.
TEST(VectorAdvanced, SpecialFunctionPassesRoundTheFunctionOnce) {
  std::vector<float> common = MathInputs(20000);
  for (const float f : {1.0f, 2.0f, 3.0f, -1.5f, 1e-30f, -1e-30f, 9.0f, 10.0f, 10.06f, 10.5f, -4.0f,
                        4.0f, 0x1p23f, -0x1p23f, -0x1.fffffep22f, 1e37f, 3e38f}) {
    common.insert(common.end(), {f, -f});
  }
  const auto around = [](std::vector<float>& v, float at) {
    float below = at, above = at;
    for (int i = 0; i < 200; ++i) {
      below = std::nextafter(below, -INFINITY);
      above = std::nextafter(above, INFINITY);
      v.insert(v.end(), {below, above});
    }
  };
  std::vector<float> erf_in = common;
  for (int i = -12 * 2048; i <= 12 * 2048; ++i) erf_in.push_back(std::ldexp(float(i), -11));
  for (const float at : {2.5f, -2.5f, 10.5f}) around(erf_in, at);
  std::vector<float> gamma_in = common;
  for (int i = -40 * 512; i <= 40 * 512; ++i) gamma_in.push_back(std::ldexp(float(i), -9));
  for (const float at : {1.0f, 2.0f, 1.46163214f, -0.504083008f, -2.45705485f, -2.74768233f,
                         -3.14358479f, -9.99999751f, 10.0f, 9.0f, 0.25f, -0.25f}) {
    around(gamma_in, at);
  }
  const struct {
    k::MathStep step;
    double (*want)(double);
    double beyond_half;  // ulps beyond half an ulp: the double result's error
    double (*absolute)(double);
    const std::vector<float>* in;
    const char* name;
  } passes[] = {
      {k::MathStep::kErf, [](double x) { return std::erf(x); }, 0x1p-16, nullptr, &erf_in, "Erf"},
      {k::MathStep::kErfc, [](double x) { return std::erfc(x); }, 0x1p-8, nullptr, &erf_in, "Erfc"},
      {k::MathStep::kLgamma, LgammaOf, 0x1p-16,
       [](double x) {
         const double t = std::fabs(x) + 11;
         return std::ldexp(t * std::log(t), -49);
       },
       &gamma_in, "Lgamma"},
      {k::MathStep::kDigamma, DigammaOf, 0x1p-16,
       [](double x) { return std::ldexp(2 + std::log1p(std::fabs(x)), -46); }, &gamma_in,
       "Digamma"}};
  for (const auto& p : passes) {
    const std::vector<float>& in = *p.in;
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << ": " << p.name);
      const std::vector<float> got = InPieces(in, [&](float* v, size_t n) {
        k::AdvancedKernelsOf(isa).math_f32[static_cast<int>(p.step)](v, n, 0);
      });
      size_t shown = 0;
      for (size_t i = 0; i < in.size() && shown < 5; ++i) {
        const double x = in[i];
        const double y = p.want(x);
        const bool overflows = std::fabs(y) >= 0x1.ffffffp127;
        bool ok;
        if (std::isnan(y)) {
          ok = std::isnan(got[i]);
        } else if (std::isinf(y) || overflows) {
          ok = got[i] == static_cast<float>(std::copysign(INFINITY, y));
        } else {
          const double bound =
              (0.5 + p.beyond_half) * UlpAt(y) + (p.absolute ? p.absolute(x) : 0.0);
          ok = std::fabs(static_cast<double>(got[i]) - y) <= bound &&
               (y == 0 || std::signbit(got[i]) == std::signbit(y));
        }
        if (ok) continue;
        ADD_FAILURE() << "input " << std::hexfloat << in[i] << ": " << got[i] << ", want " << y;
        ++shown;
      }
    }
  }
}

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(n);
  // Every fourth byte is 0 or 0x80, so that zeros and negative zeros of
  // every width occur.
  for (size_t i = 0; i < n; ++i) v[i] = i % 4 == 0 ? (gen() % 2 ? 0x80 : 0) : gen() & 0xff;
  for (size_t i = 0; i + 8 <= n; i += 40) std::memset(&v[i], 0, 8);
  return v;
}

TEST(VectorAdvanced, BitTruthAndSelectLoopsWorkOnTheBytes) {
  constexpr size_t kBytes = 8 * 1003;
  const std::vector<uint8_t> a = RandomBytes(kBytes, 1), b = RandomBytes(kBytes, 2);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    std::vector<uint8_t> got(kBytes);
    for (int step = 0; step < k::kBitSteps; ++step) {
      set.bits_u8[step](got.data(), a.data(), b.data(), kBytes);
      for (size_t i = 0; i < kBytes; ++i) {
        const int want = step == 0   ? a[i] & b[i]
                         : step == 1 ? a[i] | b[i]
                         : step == 2 ? a[i] ^ b[i]
                                     : static_cast<uint8_t>(~a[i]);
        ASSERT_EQ(got[i], want) << "bit step " << step << ", byte " << i;
      }
    }
    for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
      const size_t n = kBytes / bytes;
      for (const bool floating : {false, true}) {
        if (floating && bytes != 2 && bytes != 4) continue;
        for (const bool negate : {false, true}) {
          std::vector<uint8_t> truth(n, 7);
          set.truths_u8(truth.data(), a.data(), n, bytes, floating, negate);
          for (size_t i = 0; i < n; ++i) {
            bool nonzero = false;  // any bit set, the top one aside if floating
            for (uint32_t j = 0; j < bytes; ++j) {
              const uint8_t byte = a[i * bytes + j];
              nonzero |= (j == bytes - 1 && floating ? byte & 0x7f : byte) != 0;
            }
            ASSERT_EQ(truth[i], nonzero != negate ? 1 : 0)
                << bytes << " bytes, element " << i << ", floating " << floating;
          }
        }
      }
      std::vector<uint8_t> condition(n), selected(kBytes);
      for (size_t i = 0; i < n; ++i) condition[i] = a[i] & 1;
      set.select_u8(selected.data(), a.data(), b.data(), condition.data(), n, bytes);
      for (size_t i = 0; i < kBytes; ++i) {
        ASSERT_EQ(selected[i], condition[i / bytes] ? a[i] : b[i]) << bytes << " bytes, byte " << i;
      }
    }
  }
}

// The 16-bit formats by their bits, and float.
struct Format16 {
  const char* name;
  k::FloatFormat format;
  float (*to_float)(uint16_t);
};

const Format16 kFormats16[] = {
    {"half", {2, 0x7c00u, 0x3c00u}, [](uint16_t h) { return normgrad::bits::HalfToFloat(h); }},
    {"bfloat16", {2, 0x7f80u, 0x3f80u}, [](uint16_t h) { return FromBits(uint32_t{h} << 16); }}};
constexpr k::FloatFormat kFloatFormat{4, 0x7f800000u, 0x3f800000u};

bool Predicate(int step, float x) {
  return step == 0 ? std::isfinite(x) : step == 1 ? std::isinf(x) : std::isnan(x);
}

// x past s (above for max, below for min) by value; NaN on either side
// never is.
bool Past(float x, float s, bool is_max) { return is_max ? x > s : x < s; }

TEST(VectorAdvanced, ClassifyAndClampLoopsCompareByValue) {
  std::vector<uint16_t> every16(65536);
  for (uint32_t h = 0; h < 65536; ++h) every16[h] = static_cast<uint16_t>(h);
  std::vector<float> floats = MathInputs(20000);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (int step = 0; step < k::kClassSteps; ++step) {
      for (const Format16& f : kFormats16) {
        std::vector<uint8_t> as_bool(65536);
        std::vector<uint16_t> as_value(65536);
        set.classify[step](as_bool.data(), every16.data(), 65536, f.format, true);
        set.classify[step](as_value.data(), every16.data(), 65536, f.format, false);
        for (uint32_t h = 0; h < 65536; ++h) {
          const bool holds = Predicate(step, f.to_float(static_cast<uint16_t>(h)));
          ASSERT_EQ(as_bool[h], holds ? 1 : 0) << f.name << " 0x" << std::hex << h;
          ASSERT_EQ(as_value[h], holds ? f.format.one : 0u) << f.name << " 0x" << std::hex << h;
        }
      }
      std::vector<uint32_t> as_value(floats.size());
      set.classify[step](as_value.data(), floats.data(), floats.size(), kFloatFormat, false);
      for (size_t i = 0; i < floats.size(); ++i) {
        ASSERT_EQ(as_value[i], Predicate(step, floats[i]) ? 0x3f800000u : 0u) << floats[i];
      }
    }
    const float scalars[] = {0.0f, -0.0f, 1.5f, -2.25f, INFINITY, -INFINITY, NAN, 6.1e-5f};
    for (const float s : scalars) {
      for (const bool is_max : {true, false}) {
        SCOPED_TRACE(testing::Message() << "scalar " << s << (is_max ? ", max" : ", min"));
        const uint16_t half_s = normgrad::bits::FloatToHalf(s);
        std::vector<uint16_t> got16(65536);
        set.clamp_to_scalar(got16.data(), every16.data(), 65536, kFormats16[0].format, half_s,
                            is_max);
        for (uint32_t h = 0; h < 65536; ++h) {
          const float x = normgrad::bits::HalfToFloat(static_cast<uint16_t>(h));
          const bool past = Past(x, normgrad::bits::HalfToFloat(half_s), is_max);
          ASSERT_EQ(got16[h], past ? half_s : h) << "half 0x" << std::hex << h;
        }
        std::vector<float> got(floats.size());
        set.clamp_to_scalar(got.data(), floats.data(), floats.size(), kFloatFormat, Bits(s),
                            is_max);
        for (size_t i = 0; i < floats.size(); ++i) {
          ASSERT_EQ(Bits(got[i]), Bits(Past(floats[i], s, is_max) ? s : floats[i])) << floats[i];
        }
      }
    }
  }
}

TEST(VectorAdvanced, FmaAndHypotLoopsRoundOnce) {
  const std::vector<float> a = MathInputs(20000);
  std::vector<float> b(a.rbegin(), a.rend()), c(a);
  std::mt19937 gen(5);
  std::shuffle(c.begin(), c.end(), gen);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    std::vector<float> fma(a.size()), hypot(a.size());
    set.fma_f32(fma.data(), a.data(), b.data(), c.data(), a.size());
    set.hypot_f32(hypot.data(), a.data(), b.data(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_TRUE(SameFloat(fma[i], std::fma(a[i], b[i], c[i])))
          << a[i] << " * " << b[i] << " + " << c[i] << ": " << fma[i];
      const double root = std::sqrt(double{a[i]} * a[i] + double{b[i]} * b[i]);
      const float want = std::isinf(a[i]) || std::isinf(b[i]) ? INFINITY
                         : root >= 0x1.ffffffp127             ? INFINITY
                                                              : static_cast<float>(root);
      ASSERT_TRUE(SameFloat(hypot[i], want)) << a[i] << ", " << b[i] << ": " << hypot[i];
    }
  }
}

// The inverse functions' passes against the double functions: within half
// an ulp and 2^-16 ulp of them (the infinities and the sign of a zero
// exact, NaN where they are NaN), on MathInputs, every 2^13-th float of
// either sign (all exponents), [-1.25, 1.25] in steps of 2^-13, and the
// 2048 floats on each side of ±1 (the edges of Asin's, Acos's, Acosh's and
// Atanh's domains).
TEST(VectorAdvanced, InversePassesRoundTheFunctionOnce) {
  std::vector<float> in = MathInputs(20000);
  for (uint32_t b = 0; b < 0x7f800000u; b += 8192) in.insert(in.end(), {FromBits(b), -FromBits(b)});
  for (int i = -10240; i <= 10240; ++i) in.push_back(static_cast<float>(i) * 0x1p-13f);
  for (uint32_t d = 1; d <= 2048; ++d) {
    for (const uint32_t b : {0x3f800000u - d, 0x3f800000u + d}) {
      in.insert(in.end(), {FromBits(b), -FromBits(b)});
    }
  }
  const struct {
    k::MathStep step;
    double (*want)(double);
    const char* name;
  } passes[] = {{k::MathStep::kAsin, [](double x) { return std::asin(x); }, "Asin"},
                {k::MathStep::kAcos, [](double x) { return std::acos(x); }, "Acos"},
                {k::MathStep::kAtan, [](double x) { return std::atan(x); }, "Atan"},
                {k::MathStep::kAsinh, [](double x) { return std::asinh(x); }, "Asinh"},
                {k::MathStep::kAcosh, [](double x) { return std::acosh(x); }, "Acosh"},
                {k::MathStep::kAtanh, [](double x) { return std::atanh(x); }, "Atanh"}};
  for (const auto& p : passes) {
    std::vector<double> want(in.size());
    for (size_t i = 0; i < in.size(); ++i) want[i] = p.want(static_cast<double>(in[i]));
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << ": " << p.name);
      const std::vector<float> got = InPieces(in, [&](float* v, size_t n) {
        k::AdvancedKernelsOf(isa).math_f32[static_cast<int>(p.step)](v, n, 0);
      });
      size_t shown = 0;
      for (size_t i = 0; i < in.size() && shown < 5; ++i) {
        const double y = want[i];
        const bool close = std::isinf(y) ? static_cast<double>(got[i]) == y
                                         : std::fabs(static_cast<double>(got[i]) - y) <=
                                               (0.5 + 0x1p-16) * UlpAt(y);
        if (std::isnan(y) ? std::isnan(got[i]) : close && std::signbit(got[i]) == std::signbit(y)) {
          continue;
        }
        ADD_FAILURE() << "input " << std::hexfloat << in[i] << ": " << got[i] << ", want " << y;
        ++shown;
      }
    }
  }
}

// ---- Fmod, Power, Axpy, CumSum and Clamp -------------------------------------

// Pairs of floats: every special value with every other, and `random`
// pairs of random bit patterns whose exponents lie within `spread` of each
// other (by the top bits), so that the quotients range from below 1 to
// 2^spread and past.
void PairsInto(std::vector<float>& a, std::vector<float>& b, size_t random, uint32_t spread,
               uint32_t seed) {
  for (const float x : SpecialValues()) {
    for (const float y : SpecialValues()) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  std::mt19937 gen(seed);
  for (size_t i = 0; i < random; ++i) {
    const uint32_t x = gen();
    const int32_t shift =
        static_cast<int32_t>(gen() % (2 * spread + 1)) - static_cast<int32_t>(spread);
    const int64_t exponent = std::clamp<int64_t>(((x >> 23) & 0xff) + shift, 0, 254);
    const uint32_t y = (gen() & 0x807fffffu) | static_cast<uint32_t>(exponent) << 23;
    a.push_back(FromBits(x));
    b.push_back(FromBits(y));
  }
}

TEST(VectorAdvanced, FmodLoopIsTheExactRemainder) {
  std::vector<float> a, b;
  PairsInto(a, b, 60000, 20, 11);   // quotients up to about 2^20
  PairsInto(a, b, 20000, 255, 12);  // any gap, up to 2^276
  // Quotients just below and at integers, and the page's examples.
  for (const float y : {1.5f, 1.1f, 3.0f, 0.1f, 7.0e-45f}) {
    for (int q = 1; q < 40; ++q) {
      const float x = y * static_cast<float>(q);
      for (const float z : {x, std::nextafter(x, 0.0f), std::nextafter(x, INFINITY), -x}) {
        a.push_back(z);
        b.push_back(y);
      }
    }
  }
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    std::vector<float> got(a.size());
    k::AdvancedKernelsOf(isa).fmod_f32(got.data(), a.data(), b.data(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      // fmod of the widened values: exact, and a float.
      const float want = static_cast<float>(std::fmod(double{a[i]}, double{b[i]}));
      ASSERT_TRUE(SameFloat(got[i], want))
          << std::hexfloat << a[i] << " fmod " << b[i] << ": " << got[i] << ", want " << want;
    }
  }
}

// pow of the widened values rounded once to float (±inf from halfway past
// the largest float).
float PowRounded(float x, float y) {
  const double p = std::pow(double{x}, double{y});
  if (std::fabs(p) >= 0x1.ffffffp127) return p < 0 ? -INFINITY : INFINITY;
  return static_cast<float>(p);
}

TEST(VectorAdvanced, PowerLoopIsPowRoundedOnce) {
  std::vector<float> a, b;
  PairsInto(a, b, 2000, 0, 13);
  std::mt19937 gen(14);
  std::uniform_real_distribution<float> exponents(-40.0f, 40.0f);
  std::uniform_real_distribution<float> small(-1.0f, 1.0f);
  // Bases across the float range with exponents that keep most results in
  // range, bases near 1 with large exponents, negative bases with integral
  // exponents, and every half as a base.
  for (int i = 0; i < 150000; ++i) {
    const float base = FromBits((gen() % 0x7f800000u));
    a.push_back(base);
    const float e = exponents(gen);
    b.push_back(i % 4 == 0 ? std::round(e) : e / (1.0f + std::fabs(std::log2(base)) / 8.0f));
  }
  for (int i = 0; i < 30000; ++i) {
    a.push_back(1.0f + small(gen) * 0x1p-10f);
    b.push_back(exponents(gen) * 2048.0f);
    a.push_back(-FromBits(0x3c000000u + gen() % 0x8000000u));
    b.push_back(std::round(exponents(gen)));
  }
  for (uint32_t h = 0; h < 65536; ++h) {
    a.push_back(normgrad::bits::HalfToFloat(static_cast<uint16_t>(h)));
    b.push_back(h % 3 == 0 ? 2.5f : -1.25f);
  }
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    std::vector<float> got(a.size());
    k::AdvancedKernelsOf(isa).power_f32(got.data(), a.data(), b.data(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      const float want = PowRounded(a[i], b[i]);
      ASSERT_TRUE(SameFloat(got[i], want))
          << std::hexfloat << a[i] << " ^ " << b[i] << ": " << got[i] << ", want " << want;
    }
  }
}

// base^exp modulo 2^32 by plain multiplication of the halves of exp.
uint32_t WrappedPower(uint32_t base, uint32_t exp) {
  if (exp == 0) return 1;
  const uint32_t root = WrappedPower(base, exp / 2);
  const uint32_t square = root * root;
  return exp % 2 != 0 ? square * base : square;
}

TEST(VectorAdvanced, IntegerPowerLoopWrapsAround) {
  std::vector<uint32_t> base, exp;
  std::mt19937 gen(15);
  for (const uint32_t x : {0u, 1u, 2u, 3u, 0xffffffffu, 0xfffffffeu, 0x80000000u, 7u}) {
    for (const uint32_t e :
         {0u, 1u, 2u, 31u, 32u, 33u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu, 5u}) {
      base.push_back(x);
      exp.push_back(e);
    }
  }
  for (int i = 0; i < 20000; ++i) {
    base.push_back(gen() >> (gen() % 32));
    exp.push_back(i % 2 == 0 ? gen() % 40 : gen());
  }
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    for (const bool is_signed : {false, true}) {
      std::vector<uint32_t> got(base.size());
      k::AdvancedKernelsOf(isa).power_u32(got.data(), base.data(), exp.data(), base.size(),
                                          is_signed);
      for (size_t i = 0; i < base.size(); ++i) {
        uint32_t want = WrappedPower(base[i], exp[i]);
        if (is_signed && static_cast<int32_t>(exp[i]) < 0) {
          want = base[i] == 1u ? 1u : base[i] == 0xffffffffu ? (exp[i] % 2 ? 0xffffffffu : 1u) : 0u;
        }
        ASSERT_EQ(got[i], want) << base[i] << " ^ " << exp[i] << (is_signed ? " signed" : "");
      }
    }
  }
}

TEST(VectorAdvanced, AxpyLoopRoundsTheProductThenTheSum) {
  std::vector<float> src, acc;
  for (uint32_t h = 0; h < 65536; ++h) {
    src.push_back(normgrad::bits::HalfToFloat(static_cast<uint16_t>(h)));
    acc.push_back(normgrad::bits::HalfToFloat(static_cast<uint16_t>(h * 40503u)));
  }
  const std::vector<float> floats = MathInputs(20000);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (const float s : {1.0f, -2.5f, 0.3330078125f, 1024.0f, 6.1035156e-05f, 0.0f}) {
      std::vector<float> got = acc;
      set.axpy_f32(got.data(), src.data(), src.size(), s, true);
      for (size_t i = 0; i < src.size(); ++i) {
        // The product of two halves is exact in double; rounded to half,
        // then added to the half in double and rounded to float.
        const double product = double{src[i]} * s;
        const float product_half =
            normgrad::bits::HalfToFloat(normgrad::bits::FloatToHalf(static_cast<float>(product)));
        const float want = static_cast<float>(double{acc[i]} + product_half);
        ASSERT_TRUE(SameFloat(got[i], want)) << src[i] << " * " << s << " + " << acc[i];
      }
      std::vector<float> sums(floats.rbegin(), floats.rend());
      const std::vector<float> before = sums;
      set.axpy_f32(sums.data(), floats.data(), floats.size(), s, false);
      for (size_t i = 0; i < floats.size(); ++i) {
        const float product = static_cast<float>(double{floats[i]} * s);
        const float want = static_cast<float>(double{before[i]} + product);
        ASSERT_TRUE(SameFloat(sums[i], want)) << floats[i] << " * " << s << " + " << before[i];
      }
    }
  }
}

// CumSum's documented orders, written plainly: each line the previous
// line's sums plus its own terms, or Sklansky's halving steps.
void CumSumReference(std::vector<float>& v, size_t rows, size_t cols, bool last_axis,
                     bool sklansky) {
  const size_t k = last_axis ? cols : rows;
  const size_t lines = last_axis ? rows : cols;
  const size_t stride = last_axis ? 1 : cols;
  const size_t step = last_axis ? cols : 1;
  for (size_t line = 0; line < lines; ++line) {
    float* x = v.data() + line * step;
    if (!sklansky) {
      for (size_t i = 1; i < k; ++i) x[i * stride] = x[i * stride] + x[(i - 1) * stride];
      continue;
    }
    for (size_t half = 1; half < k; half *= 2) {
      for (size_t block = 0; block < k; block += 2 * half) {
        for (size_t j = block + half; j < std::min(k, block + 2 * half); ++j) {
          x[j * stride] = x[j * stride] + x[(block + half - 1) * stride];
        }
      }
    }
  }
}

TEST(VectorAdvanced, CumSumLoopKeepsTheDocumentedOrder) {
  std::mt19937 gen(16);
  std::uniform_real_distribution<float> terms(-100.0f, 100.0f);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    for (const size_t rows : {1u, 3u, 16u, 17u, 40u}) {
      for (const size_t cols : {1u, 8u, 63u, 64u, 65u, 200u}) {
        std::vector<float> in(rows * cols);
        for (float& x : in) x = terms(gen);
        in[0] = -0.0f;  // a first term of −0 stays −0
        if (in.size() > 5) in[5] = NAN;
        for (const bool last_axis : {false, true}) {
          for (const bool sklansky : {false, true}) {
            std::vector<float> want = in, got = in;
            CumSumReference(want, rows, cols, last_axis, sklansky);
            k::AdvancedKernelsOf(isa).cumsum_f32(got.data(), rows, cols, last_axis, sklansky);
            SCOPED_TRACE(testing::Message()
                         << rows << " x " << cols << (last_axis ? " last" : " first")
                         << (sklansky ? " Sklansky" : ""));
            ExpectSame(in, got, want);
          }
        }
      }
    }
  }
}

// Clamp's rule on values: NaN x kept; hi where lo > hi or x > hi; lo where
// lo > x; else x (a NaN bound compares false).
template <typename V>
V ClampReference(V x, V lo, V hi) {
  if (x != x) return x;
  if (lo > hi || x > hi) return hi;
  if (lo > x) return lo;
  return x;
}

template <typename T, typename V = T>
void ExpectClamp(const k::AdvancedKernels& set, k::ClampType type, V (*value)(T),
                 const std::vector<T>& x, const std::vector<T>& lo, const std::vector<T>& hi) {
  std::vector<T> got(x.size());
  set.clamp(got.data(), x.data(), lo.data(), hi.data(), x.size(), type);
  for (size_t i = 0; i < x.size(); ++i) {
    const V want = ClampReference(value(x[i]), value(lo[i]), value(hi[i]));
    // The element chosen, by its bits: x, lo or hi (±0 are equal values,
    // so the rule decides which zero).
    const T chosen = want != want                                                  ? x[i]
                     : (value(lo[i]) > value(hi[i]) || value(x[i]) > value(hi[i])) ? hi[i]
                     : value(lo[i]) > value(x[i])                                  ? lo[i]
                                                                                   : x[i];
    ASSERT_EQ(got[i], chosen) << "element " << i << " of type " << static_cast<int>(type);
  }
}

template <typename T>
T Itself(T v) {
  return v;
}

template <typename T>
std::vector<T> RandomElements(size_t n, std::mt19937& gen) {
  std::vector<T> v(n);
  for (T& e : v) {
    const uint64_t bits = (uint64_t{gen()} << 32) | gen();
    std::memcpy(&e, &bits, sizeof e);
  }
  return v;
}

TEST(VectorAdvanced, ClampLoopHoldsEveryTypeToItsBounds) {
  std::mt19937 gen(17);
  constexpr size_t kN = 5003;
  std::vector<uint16_t> every16(65536);
  for (uint32_t h = 0; h < 65536; ++h) every16[h] = static_cast<uint16_t>(h);
  const std::vector<float> floats = MathInputs(20000);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    auto ints = [&](auto tag, k::ClampType type) {
      using T = decltype(tag);
      // Bounds from few values, so that x, lo and hi often tie.
      auto narrow = [&] {
        std::vector<T> v = RandomElements<T>(kN, gen);
        for (size_t i = 0; i < kN; i += 2) v[i] = static_cast<T>(v[i] % 5);
        return v;
      };
      ExpectClamp<T>(set, type, Itself<T>, narrow(), narrow(), narrow());
    };
    ints(int8_t{}, k::ClampType::kInt8);
    ints(uint8_t{}, k::ClampType::kUint8);
    ints(int16_t{}, k::ClampType::kInt16);
    ints(uint16_t{}, k::ClampType::kUint16);
    ints(int32_t{}, k::ClampType::kInt32);
    ints(uint32_t{}, k::ClampType::kUint32);
    ints(int64_t{}, k::ClampType::kInt64);
    ints(uint64_t{}, k::ClampType::kUint64);
    // Every half and bfloat16 value against shuffled bounds.
    std::vector<uint16_t> lo = every16, hi = every16;
    std::shuffle(lo.begin(), lo.end(), gen);
    std::shuffle(hi.begin(), hi.end(), gen);
    ExpectClamp<uint16_t, float>(set, k::ClampType::kHalf, kFormats16[0].to_float, every16, lo, hi);
    ExpectClamp<uint16_t, float>(set, k::ClampType::kBfloat16, kFormats16[1].to_float, every16, hi,
                                 lo);
    std::vector<float> flo = floats, fhi = floats;
    std::shuffle(flo.begin(), flo.end(), gen);
    std::shuffle(fhi.begin(), fhi.end(), gen);
    std::vector<uint32_t> x(floats.size()), l(floats.size()), h(floats.size());
    for (size_t i = 0; i < floats.size(); ++i) {
      x[i] = Bits(floats[i]);
      l[i] = Bits(flo[i]);
      h[i] = Bits(fhi[i]);
    }
    ExpectClamp<uint32_t, float>(set, k::ClampType::kFloat, FromBits, x, l, h);
  }
}

// ---- LogSoftMax, the scalar selections, Filter and Index (advanced_filter_inl.h)

TEST(VectorAdvanced, FilterLoopsAreEachSetsOwn) {
  const k::AdvancedKernels& scalar = k::AdvancedKernelsOf(k::ScalarIsa());
  for (const k::Isa& isa : k::Isas()) {
    if (std::string(isa.name) == "scalar") continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    EXPECT_NE(set.log10_rounded_f32, scalar.log10_rounded_f32);
    EXPECT_NE(set.select_scalar_u8, scalar.select_scalar_u8);
    EXPECT_NE(set.bit_truths_u8, scalar.bit_truths_u8);
    EXPECT_NE(set.scale_kept_f32, scalar.scale_kept_f32);
    EXPECT_NE(set.arange_int, scalar.arange_int);
    EXPECT_NE(set.philox_words, scalar.philox_words);
  }
}

TEST(VectorAdvanced, Log10RoundedIsTheCLibrarysLog10RoundedOnce) {
  // Every 2^12-th float of either sign (about 2 · 520 000 with the negative
  // ones in half the steps), every 2^6-th in [0.5, 2) where the results
  // come near 0, and the special values.
  std::vector<float> in = SpecialValues();
  for (uint32_t b = 0; b <= 0x7f800000u; b += 4096) in.push_back(FromBits(b));
  for (uint32_t b = 0x80000000u; b <= 0xff800000u; b += 1u << 20) in.push_back(FromBits(b));
  for (uint32_t b = 0x3f000000u; b < 0x40000000u; b += 64) in.push_back(FromBits(b));
  std::vector<float> want(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    want[i] = static_cast<float>(std::log10(static_cast<double>(in[i])));
  }
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    ExpectSame(in,
               InPieces(in, [&](float* v,
                                size_t n) { k::AdvancedKernelsOf(isa).log10_rounded_f32(v, n); }),
               want);
  }
}

TEST(VectorAdvanced, SelectScalarPutsTheScalarOnItsSide) {
  constexpr size_t kBytes = 8 * 1003;
  const std::vector<uint8_t> tensor = RandomBytes(kBytes, 3), mask = RandomBytes(kBytes, 4);
  const uint64_t scalar = 0x0123456789abcdefu;
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
      const size_t n = kBytes / bytes;
      std::vector<uint8_t> truth(n);
      for (size_t i = 0; i < n; ++i) truth[i] = mask[i] % 3;  // 0, 1 or 2
      for (const bool when_true : {false, true}) {
        for (const bool in_place : {false, true}) {
          std::vector<uint8_t> got = in_place ? tensor : std::vector<uint8_t>(kBytes, 0x5a);
          set.select_scalar_u8(got.data(), in_place ? got.data() : tensor.data(), scalar,
                               truth.data(), n, bytes, when_true);
          for (size_t i = 0; i < kBytes; ++i) {
            const size_t e = i / bytes;
            const bool pick_scalar = (truth[e] != 0) == when_true;
            const auto scalar_byte = static_cast<uint8_t>(scalar >> (8 * (i % bytes)));
            ASSERT_EQ(got[i], pick_scalar ? scalar_byte : tensor[i])
                << bytes << " bytes, byte " << i << ", scalar when true " << when_true
                << ", in place " << in_place;
          }
        }
      }
    }
  }
}

TEST(VectorAdvanced, BitTruthsReadEachByteFromItsTopBit) {
  const std::vector<uint8_t> bits = RandomBytes(300, 5);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    for (const uint64_t first : {0u, 1u, 7u, 8u, 13u, 64u, 100u}) {
      const size_t n = 300 * 8 - first;
      std::vector<uint8_t> truth(n, 9);
      k::AdvancedKernelsOf(isa).bit_truths_u8(truth.data(), bits.data(), first, n);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t j = first + i;
        // Bit j counts from the top of byte j / 8: 0x80 is its first.
        const int want = (bits[j / 8] & (0x80 >> (j % 8))) != 0 ? 1 : 0;
        ASSERT_EQ(truth[i], want) << "first bit " << first << ", element " << i;
      }
    }
  }
  // The page's example: 169 = 0b10101001 keeps elements 0, 2, 4 and 7.
  const uint8_t example = 169;
  uint8_t truth[8];
  k::AdvancedKernelsOf(k::ScalarIsa()).bit_truths_u8(truth, &example, 0, 8);
  EXPECT_EQ(std::vector<uint8_t>(truth, truth + 8), (std::vector<uint8_t>{1, 0, 1, 0, 1, 0, 0, 1}));
}

TEST(VectorAdvanced, ScaleKeptRoundsTheProductOnceAndDropsToPlusZero) {
  std::vector<float> in = MathInputs(20000);
  const std::vector<uint8_t> mask = RandomBytes(in.size(), 6);
  for (const float scale : {1.25f, 10.0f, 1.0f / 0.3f, 3.0e38f}) {
    std::vector<float> want(in.size());
    for (size_t i = 0; i < in.size(); ++i) want[i] = (mask[i] & 1) != 0 ? in[i] * scale : 0.0f;
    std::vector<uint8_t> truth(in.size());
    for (size_t i = 0; i < in.size(); ++i) truth[i] = (mask[i] & 1) != 0 ? (mask[i] | 1) : 0;
    for (const k::Isa& isa : k::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(std::string(isa.name) + ", scale " + std::to_string(scale));
      std::vector<float> got(in.size(), 7.0f);
      k::AdvancedKernelsOf(isa).scale_kept_f32(got.data(), in.data(), truth.data(), scale,
                                               in.size());
      ExpectSame(in, got, want);
      got = in;  // in place
      k::AdvancedKernelsOf(isa).scale_kept_f32(got.data(), got.data(), truth.data(), scale,
                                               in.size());
      ExpectSame(in, got, want);
    }
  }
}

TEST(VectorAdvanced, ArangeIntWrapsInTheElementsWidth) {
  struct Case {
    uint64_t first, diff;
  };
  const Case cases[] = {{0, 1},
                        {5, 3},
                        {0xfff0u, 7},
                        {0x7ffffff0u, 0x10001u},
                        {0xfffffffffffffff0u, 0x123456789u},
                        {0x8000u, 0xffffu}};
  constexpr size_t kN = 1037;
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    for (const Case& c : cases) {
      for (const uint32_t bytes : {2u, 4u, 8u}) {
        std::vector<uint8_t> got(kN * bytes);
        k::AdvancedKernelsOf(isa).arange_int(got.data(), c.first, c.diff, kN, bytes);
        for (size_t i = 0; i < kN; ++i) {
          const uint64_t full = c.first + i * c.diff;  // modulo 2^64
          uint64_t element = 0;
          std::memcpy(&element, got.data() + i * bytes, bytes);
          const uint64_t mask = bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
          ASSERT_EQ(element, full & mask)
              << bytes << " bytes, first " << c.first << ", diff " << c.diff << ", i " << i;
        }
      }
    }
  }
}

// Philox4x32 as the paper writes it, one counter at a time.
void PhiloxReference(uint32_t c[4], const uint32_t key[2], uint32_t rounds) {
  uint32_t k0 = key[0], k1 = key[1];
  for (uint32_t r = 0; r < rounds; ++r) {
    const uint64_t p0 = uint64_t{0xD2511F53u} * c[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * c[2];
    const uint32_t next[4] = {
        static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
        static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
    std::memcpy(c, next, sizeof next);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

TEST(VectorAdvanced, PhiloxWordsAreThePapersGeneratorPerCounter) {
  // Counters whose low words carry into the next ones as first + g grows.
  const uint32_t counters[][4] = {{0, 0, 0, 0},
                                  {0xfffffff0u, 0, 0, 0},
                                  {0xfffffff8u, 0xffffffffu, 0xffffffffu, 7},
                                  {0x12345678u, 0x9abcdef0u, 0x0fedcba9u, 0x87654321u}};
  const uint32_t key[2] = {0xa4093822u, 0x299f31d0u};
  const uint64_t firsts[] = {0, 5, 0xfffffffeu, 0x100000003u};
  constexpr size_t kGroups = 37;
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (const auto& counter : counters) {
      for (const uint64_t first : firsts) {
        for (const uint32_t rounds : {7u, 10u}) {
          for (const bool unit : {false, true}) {
            std::vector<uint32_t> got(4 * kGroups);
            set.philox_words(got.data(), counter, first, kGroups, key, rounds, unit);
            for (size_t g = 0; g < kGroups; ++g) {
              // counter + first + g as 128-bit numbers: word by word with
              // the carry.
              const uint64_t add = first + g;
              uint32_t c[4];
              uint64_t carry = 0;
              for (int i = 0; i < 4; ++i) {
                const uint64_t part = i < 2 ? (add >> (32 * i)) & 0xFFFFFFFFu : 0;
                const uint64_t sum = uint64_t{counter[i]} + part + carry;
                c[i] = static_cast<uint32_t>(sum);
                carry = sum >> 32;
              }
              PhiloxReference(c, key, rounds);
              for (int i = 0; i < 4; ++i) {
                const uint32_t want =
                    unit ? Bits(static_cast<float>(c[i] & 0x7FFFFFu) * 0x1p-23f) : c[i];
                ASSERT_EQ(got[4 * g + i], want) << "group " << g << ", word " << i << ", first "
                                                << first << ", rounds " << rounds;
              }
            }
          }
        }
      }
    }
  }
  // The known answer of the paper's Philox4x32-10 at counter 0, key 0.
  const uint32_t zero[4] = {0, 0, 0, 0}, zero_key[2] = {0, 0};
  uint32_t words[4];
  k::AdvancedKernelsOf(k::ScalarIsa()).philox_words(words, zero, 0, 1, zero_key, 10, false);
  EXPECT_EQ(std::vector<uint32_t>(words, words + 4),
            (std::vector<uint32_t>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
}

// TopK's priorities order the values as the Sort family does (docs/sort.md,
// "Order"): by value, −0 equal to +0, every NaN above every number and all
// NaNs equal; inverted for the smallest, but NaN first either way. Checked
// on every half, bfloat16 and float pattern of the set below, sorted by
// value here: equal values equal priorities, larger values larger ones.
template <typename Bits>
void ExpectPrioritiesOrderValues(const k::AdvancedKernels& set, const std::vector<Bits>& patterns,
                                 k::FloatFormat format, float (*value)(Bits)) {
  for (const bool largest : {true, false}) {
    std::vector<uint32_t> priority(patterns.size());
    set.topk_priorities(priority.data(), patterns.data(), patterns.size(), format, largest);
    std::vector<size_t> order(patterns.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Numbers by value, then the NaNs.
    const auto key = [&](size_t i) {
      const float x = value(patterns[i]);
      return std::make_pair(std::isnan(x), std::isnan(x) ? 0.0f : x);
    };
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return key(x) < key(y); });
    for (size_t n = 1; n < order.size(); ++n) {
      const size_t lo = order[n - 1], hi = order[n];
      const bool nan = std::isnan(value(patterns[hi]));
      uint32_t p_lo = priority[lo], p_hi = priority[hi];
      if (nan) {
        ASSERT_EQ(p_hi, UINT32_MAX) << "NaN pattern " << +patterns[hi];
        continue;
      }
      ASSERT_NE(p_hi, UINT32_MAX) << "number " << +patterns[hi];  // NaN's alone
      if (!largest) std::swap(p_lo, p_hi);                        // the order turned over
      if (key(lo) == key(hi)) {
        ASSERT_EQ(priority[lo], priority[hi]) << +patterns[lo] << " and " << +patterns[hi];
      } else {
        ASSERT_LT(p_lo, p_hi) << +patterns[lo] << " below " << +patterns[hi] << ", largest "
                              << largest;
      }
    }
  }
}

TEST(VectorAdvanced, TopKPrioritiesOrderEveryValue) {
  std::vector<uint16_t> every16(65536);
  for (size_t i = 0; i < every16.size(); ++i) every16[i] = static_cast<uint16_t>(i);
  std::vector<uint32_t> floats;
  for (const float x : MathInputs(20000)) floats.push_back(Bits(x));
  for (const uint32_t special : {0x7fc00001u, 0xffc00000u, 0x7f800001u, 0x80000000u, 0u}) {
    floats.push_back(special);  // NaNs of either sign, ±0
  }
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (const Format16& f : kFormats16) {
      SCOPED_TRACE(f.name);
      ExpectPrioritiesOrderValues<uint16_t>(set, every16, f.format, f.to_float);
    }
    ExpectPrioritiesOrderValues<uint32_t>(set, floats, kFloatFormat, FromBits);
  }
}

TEST(VectorAdvanced, TopKGroupMaximaAndCollectMatchPlainLoops) {
  std::mt19937 gen(7);
  std::vector<uint32_t> priorities(1001);
  for (uint32_t& p : priorities) p = static_cast<uint32_t>(gen()) >> (gen() % 32);
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (const size_t n : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{1001}}) {
      for (const size_t groups : {size_t{1}, size_t{3}, n}) {
        if (groups > n) continue;
        std::vector<uint32_t> maxima(groups, 7);
        set.group_maxima(maxima.data(), priorities.data(), n, groups);
        const size_t size = n / groups;
        for (size_t g = 0; g < groups; ++g) {
          const auto first = priorities.begin() + static_cast<long>(g * size);
          const auto last = g + 1 == groups ? priorities.begin() + static_cast<long>(n)
                                            : first + static_cast<long>(size);
          ASSERT_EQ(maxima[g], *std::max_element(first, last)) << n << " in " << groups;
        }
      }
      for (const uint32_t floor : {0u, 1u << 20, 1u << 30, 3u << 30, UINT32_MAX}) {
        std::vector<uint32_t> positions(n, 9), want;
        const size_t count = set.collect_at_least(positions.data(), priorities.data(), n, floor);
        for (size_t i = 0; i < n; ++i) {
          if (priorities[i] >= floor) want.push_back(static_cast<uint32_t>(i));
        }
        ASSERT_EQ(count, want.size()) << n << " at floor " << floor;
        positions.resize(count);
        ASSERT_EQ(positions, want) << n << " at floor " << floor;
      }
    }
  }
}

// Every element of a rows × cols block of `bytes`-byte elements moved by
// transpose_bits with strides src_stride and dst_stride, against the index
// map; the destination's elements outside the block keep their marker.
void ExpectTransposed(const k::AdvancedKernels& set, size_t rows, size_t cols, size_t src_stride,
                      size_t dst_stride, uint32_t bytes) {
  std::vector<uint8_t> src(rows * src_stride * bytes);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7 + i / 251);
  std::vector<uint8_t> dst(cols * dst_stride * bytes, 0xA5);
  std::vector<uint8_t> want = dst;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      std::memcpy(&want[(c * dst_stride + r) * bytes], &src[(r * src_stride + c) * bytes], bytes);
    }
  }
  set.transpose_bits(dst.data(), src.data(), rows, cols, src_stride, dst_stride, bytes);
  ASSERT_EQ(dst, want) << rows << " x " << cols << " strides " << src_stride << ", " << dst_stride
                       << " of " << bytes << "-byte elements";
}

TEST(VectorAdvanced, TransposeBitsIsTheIndexMap) {
  const size_t sizes[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 37, 64};
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    SCOPED_TRACE(isa.name);
    const k::AdvancedKernels& set = k::AdvancedKernelsOf(isa);
    for (const uint32_t bytes : {1u, 2u, 4u}) {
      for (const size_t rows : sizes) {
        for (const size_t cols : sizes) {
          ExpectTransposed(set, rows, cols, cols, rows, bytes);
        }
      }
      ExpectTransposed(set, 1, 257, 257, 1, bytes);
      ExpectTransposed(set, 257, 1, 1, 257, bytes);
      ExpectTransposed(set, 19, 23, 29, 31, bytes);
      ExpectTransposed(set, 48, 40, 53, 61, bytes);
    }
  }
}

}  // namespace
