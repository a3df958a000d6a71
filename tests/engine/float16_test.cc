// float16_test.cc — float ↔ binary16/bfloat16 conversions (scalar types of
// normgrad/float16.h and the dispatched bulk conversions of convert.h)
// against an independent model written here from the definition of
// round-half-to-even: the 16-bit values in order, and the midpoints between
// neighbours; a float below a midpoint rounds down, above it up, on it to
// the neighbour with an even last bit. The model decodes with std::ldexp and
// compares doubles: no bit tricks shared with the library, no F16C.
//
// Widening is checked for all 65536 patterns. Narrowing is checked for every
// one of the 2^32 floats when NORMGRAD_EXHAUSTIVE_TESTS is on (release
// builds), else for every midpoint and its neighbours ±2 ulp plus random
// floats. To add a 16-bit format, give it a Format below.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "normgrad/convert.h"
#include "normgrad/float16.h"

namespace {

float FloatFromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
uint32_t BitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// A 16-bit format: 1 sign bit, `exponent_bits`, `mantissa_bits`.
struct Format {
  int exponent_bits;
  int mantissa_bits;
  int Bias() const { return (1 << (exponent_bits - 1)) - 1; }
  uint16_t InfBits() const {
    return static_cast<uint16_t>(((1 << exponent_bits) - 1) << mantissa_bits);
  }
  // Value of a finite positive pattern h; for h == InfBits() the value the
  // next binade would start at (2^(emax+1)), the boundary for overflow.
  double Value(uint16_t h) const {
    const int e = h >> mantissa_bits;
    const int m = h & ((1 << mantissa_bits) - 1);
    if (e == 0) return std::ldexp(m, 1 - Bias() - mantissa_bits);
    return std::ldexp((1 << mantissa_bits) + m, e - Bias() - mantissa_bits);
  }
};

constexpr Format kHalf{5, 10};
constexpr Format kBf16{8, 7};

// upper[h] = the midpoint between pattern h and h+1, for h < InfBits().
std::vector<double> Midpoints(const Format& f) {
  std::vector<double> mid(f.InfBits());
  for (uint32_t h = 0; h < f.InfBits(); ++h) {
    mid[h] = (f.Value(static_cast<uint16_t>(h)) + f.Value(static_cast<uint16_t>(h + 1))) / 2;
  }
  return mid;
}

// Expected narrowing of a non-NaN float, by the definition of RNE.
uint16_t ExpectedNarrow(const std::vector<double>& mid, float x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(x));
  // First pattern whose midpoint with its successor is ≥ a.
  const auto it = std::lower_bound(mid.begin(), mid.end(), a);
  uint16_t h = static_cast<uint16_t>(it - mid.begin());
  if (it != mid.end() && *it == a && (h & 1)) ++h;  // tie: to even
  return static_cast<uint16_t>(sign | h);
}

// Quiet NaN with the float's sign and top payload bits (the F16C rule).
uint16_t ExpectedNaN(const Format& f, uint32_t u) {
  const uint16_t sign = (u >> 31) ? 0x8000 : 0;
  const uint32_t payload = (u & 0x7fffff) >> (23 - f.mantissa_bits);
  const uint16_t quiet = static_cast<uint16_t>(1u << (f.mantissa_bits - 1));
  return static_cast<uint16_t>(sign | f.InfBits() | quiet | payload);
}

uint16_t Expected(const Format& f, const std::vector<double>& mid, uint32_t u) {
  const float x = FloatFromBits(u);
  return std::isnan(x) ? ExpectedNaN(f, u) : ExpectedNarrow(mid, x);
}

template <typename T>
std::vector<uint16_t> NarrowBulk(const std::vector<float>& in) {
  std::vector<T> out(in.size());
  normgrad::Narrow(in.data(), out.data(), in.size());
  std::vector<uint16_t> bits(in.size());
  std::memcpy(bits.data(), out.data(), in.size() * 2);
  return bits;
}

// Checks bulk and scalar narrowing of `inputs` against the model.
template <typename T>
void CheckNarrow(const Format& f, const std::vector<double>& mid, const std::vector<float>& inputs,
                 int* failures) {
  const std::vector<uint16_t> bulk = NarrowBulk<T>(inputs);
  for (size_t i = 0; i < inputs.size() && *failures < 10; ++i) {
    const uint32_t u = BitsOf(inputs[i]);
    const uint16_t want = Expected(f, mid, u);
    const uint16_t scalar = T(inputs[i]).Bits();
    if (bulk[i] != want || scalar != want) {
      ++*failures;
      ADD_FAILURE() << std::hex << "float bits 0x" << u << ": expected 0x" << want << ", bulk 0x"
                    << bulk[i] << ", scalar 0x" << scalar;
    }
  }
}

// Every float, in 2^22-float chunks. Within a run of increasing floats of
// one sign the expected pattern only moves up, so the model walks the
// midpoints instead of searching them.
template <typename T>
void NarrowAllFloats(const Format& f) {
  const std::vector<double> mid = Midpoints(f);
  constexpr uint64_t kChunk = uint64_t{1} << 22;
  constexpr long long kRun = 1 << 16;
  std::vector<float> inputs(kChunk);
  bool failed = false;
  for (uint64_t base = 0; base < (uint64_t{1} << 32) && !failed; base += kChunk) {
    for (uint64_t i = 0; i < kChunk; ++i) {
      inputs[i] = FloatFromBits(static_cast<uint32_t>(base + i));
    }
    const std::vector<uint16_t> bulk = NarrowBulk<T>(inputs);
    long long bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad)
    for (long long run = 0; run < static_cast<long long>(kChunk) / kRun; ++run) {
      const size_t first = static_cast<size_t>(run * kRun);
      size_t h = static_cast<size_t>(
          std::lower_bound(mid.begin(), mid.end(), std::fabs(double(inputs[first]))) - mid.begin());
      for (size_t i = first; i < first + kRun; ++i) {
        const uint32_t u = static_cast<uint32_t>(base + i);
        uint16_t want;
        const double a = std::fabs(static_cast<double>(inputs[i]));
        if (std::isnan(inputs[i])) {
          want = ExpectedNaN(f, u);
        } else {
          while (h < mid.size() && mid[h] < a) ++h;
          uint16_t pattern = static_cast<uint16_t>(h);
          if (h < mid.size() && mid[h] == a && (h & 1)) ++pattern;  // tie: even
          want = static_cast<uint16_t>((u >> 31 ? 0x8000 : 0) | pattern);
        }
        if (bulk[i] != want) bad = std::max(bad, static_cast<long long>(i));
      }
    }
    if (bad >= 0) {
      const uint32_t u = static_cast<uint32_t>(base + static_cast<uint64_t>(bad));
      failed = true;
      ADD_FAILURE() << std::hex << "float bits 0x" << u << ": expected 0x" << Expected(f, mid, u)
                    << ", bulk 0x" << bulk[static_cast<size_t>(bad)];
    }
  }
}

// Midpoints, their neighbours ±2 ulp (as floats), specials and random floats.
std::vector<float> InterestingFloats(const Format& f) {
  std::vector<float> v;
  const std::vector<double> mid = Midpoints(f);
  for (double m : mid) {
    const uint32_t u = BitsOf(static_cast<float>(m));
    for (int d = -2; d <= 2; ++d) {
      const uint32_t w = u + static_cast<uint32_t>(d);
      v.push_back(FloatFromBits(w));
      v.push_back(FloatFromBits(w | 0x80000000u));
    }
  }
  for (uint32_t u :
       {0u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffbfffffu,
        0x00000001u, 0x007fffffu, 0x7f7fffffu, 0x477fe000u, 0x477ff000u, 0x477ff001u}) {
    v.push_back(FloatFromBits(u));
  }
  std::mt19937 rng(12345);
  for (int i = 0; i < 1 << 20; ++i) v.push_back(FloatFromBits(rng()));
  return v;
}

TEST(Float16, WidenEveryHalfPattern) {
  std::vector<normgrad::float16> in(65536);
  for (uint32_t h = 0; h < 65536; ++h)
    in[h] = normgrad::float16::FromBits(static_cast<uint16_t>(h));
  std::vector<float> bulk(65536);
  normgrad::Widen(in.data(), bulk.data(), in.size());
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t mag = h & 0x7fff;
    const float scalar = in[h];
    if (mag > kHalf.InfBits()) {  // NaN: made quiet, sign and payload kept
      const uint32_t want = (h & 0x8000u) << 16 | 0x7fc00000u | (h & 0x1ffu) << 13;
      EXPECT_EQ(BitsOf(bulk[h]), want) << std::hex << h;
      EXPECT_EQ(BitsOf(scalar), want) << std::hex << h;
      continue;
    }
    const double magnitude = mag == kHalf.InfBits() ? INFINITY : kHalf.Value(mag);
    const double want = (h & 0x8000) ? -magnitude : magnitude;
    EXPECT_EQ(BitsOf(bulk[h]), BitsOf(static_cast<float>(want))) << std::hex << h;
    EXPECT_EQ(BitsOf(scalar), BitsOf(static_cast<float>(want))) << std::hex << h;
  }
}

TEST(Float16, WidenEveryBfloat16Pattern) {
  std::vector<normgrad::bfloat16> in(65536);
  for (uint32_t h = 0; h < 65536; ++h)
    in[h] = normgrad::bfloat16::FromBits(static_cast<uint16_t>(h));
  std::vector<float> bulk(65536);
  normgrad::Widen(in.data(), bulk.data(), in.size());
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t mag = h & 0x7fff;
    const float scalar = in[h];
    if (mag > kBf16.InfBits()) {  // NaN: bits are the float's top half
      EXPECT_EQ(BitsOf(bulk[h]), h << 16) << std::hex << h;
      EXPECT_EQ(BitsOf(scalar), h << 16) << std::hex << h;
      continue;
    }
    const double magnitude = mag == kBf16.InfBits() ? INFINITY : kBf16.Value(mag);
    const double want = (h & 0x8000) ? -magnitude : magnitude;
    EXPECT_EQ(BitsOf(bulk[h]), BitsOf(static_cast<float>(want))) << std::hex << h;
    EXPECT_EQ(BitsOf(scalar), BitsOf(static_cast<float>(want))) << std::hex << h;
  }
}

TEST(Float16, NarrowMidpointsNeighboursAndSpecialsToHalf) {
  int failures = 0;
  CheckNarrow<normgrad::float16>(kHalf, Midpoints(kHalf), InterestingFloats(kHalf), &failures);
  EXPECT_EQ(failures, 0);
}

TEST(Float16, NarrowMidpointsNeighboursAndSpecialsToBfloat16) {
  int failures = 0;
  CheckNarrow<normgrad::bfloat16>(kBf16, Midpoints(kBf16), InterestingFloats(kBf16), &failures);
  EXPECT_EQ(failures, 0);
}

#if NORMGRAD_EXHAUSTIVE_TESTS
TEST(Float16, NarrowEveryFloatToHalf) { NarrowAllFloats<normgrad::float16>(kHalf); }
TEST(Float16, NarrowEveryFloatToBfloat16) { NarrowAllFloats<normgrad::bfloat16>(kBf16); }
#endif

TEST(Float16, BulkConversionsNeverThrow) {
  const normgrad::float16* h = nullptr;
  const normgrad::bfloat16* b = nullptr;
  float* f = nullptr;
  static_assert(noexcept(normgrad::Widen(h, f, 0))&& noexcept(normgrad::Widen(b, f, 0)));
  static_assert(noexcept(normgrad::Narrow(f, static_cast<normgrad::float16*>(nullptr), 0)));
  static_assert(noexcept(normgrad::Narrow(f, static_cast<normgrad::bfloat16*>(nullptr), 0)));
  normgrad::Widen(h, f, 0);  // n = 0 touches nothing
}

TEST(Float16, KnownValues) {
  // 65504 is the largest half; 65520 is the midpoint to 2^16 and rounds to
  // even (inf); 2^-24 the smallest subnormal, 2^-25 rounds to even (0).
  EXPECT_EQ(normgrad::float16(65504.0f).Bits(), 0x7bff);
  EXPECT_EQ(normgrad::float16(65519.99f).Bits(), 0x7bff);
  EXPECT_EQ(normgrad::float16(65520.0f).Bits(), 0x7c00);
  EXPECT_EQ(normgrad::float16(std::ldexp(1.0f, -24)).Bits(), 0x0001);
  EXPECT_EQ(normgrad::float16(std::ldexp(1.0f, -25)).Bits(), 0x0000);
  EXPECT_EQ(normgrad::float16(std::ldexp(1.5f, -25)).Bits(), 0x0001);
  EXPECT_EQ(normgrad::float16(-2.0f).Bits(), 0xc000);
  EXPECT_EQ(normgrad::bfloat16(1.0f).Bits(), 0x3f80);
  EXPECT_EQ(normgrad::bfloat16(FloatFromBits(0x3f808000u)).Bits(), 0x3f80);  // tie → even
  EXPECT_EQ(normgrad::bfloat16(FloatFromBits(0x3f818000u)).Bits(), 0x3f82);  // tie → even
}

TEST(Float16, ArithmeticComputesInFloatAndRoundsBack) {
  const normgrad::float16 a = 1.0f, b = std::ldexp(1.0f, -11);
  EXPECT_EQ(float(a + b), 1.0f);  // 1 + 2^-11 is a tie: rounds to even (1)
  EXPECT_EQ(a + 0.5f, 1.5f);      // mixed with float: a float result
  normgrad::float16 c = 3;
  c *= normgrad::float16(2.0f);
  EXPECT_EQ(float(c), 6.0f);
  EXPECT_TRUE(c > a && a < c && c == 6 && c != a);
  EXPECT_EQ(float(-c), -6.0f);
}

}  // namespace
