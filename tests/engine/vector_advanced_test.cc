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
//   bits;
// - the binary call shape's loops (bits_u8, truths_u8, select_u8,
//   classify, clamp_to_scalar, fma_f32, hypot_f32) on every set against
//   the operations written here on the same bits;
// - TopK's loops (topk_priorities, group_maxima, collect_at_least): the
//   priorities against the order of the values (every half and bfloat16,
//   the float inputs and the special values), the others against plain
//   loops.
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
                {k::MathStep::kSinh, 0, "Sinh"},       {k::MathStep::kCosh, 0, "Cosh"}};
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

}  // namespace
