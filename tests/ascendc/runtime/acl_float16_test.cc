// acl_float16_test.cc — the host's half conversions of acl/acl.h
// (docs/program-surface.md, "Host-side helpers"): aclFloat16ToFloat for every
// one of the 65536 bit patterns, aclFloatToFloat16 back, and the rounding of
// the values between two halves (ties to even), overflow, subnormals and NaN.
// The reference decodes binary16 from its definition with ldexp; it shares no
// code with normgrad.
//
// Extending: add a TEST per rule, with values derived from the format.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "acl/acl.h"

namespace {

// binary16 from its definition: sign, 5-bit exponent (bias 15), 10-bit
// fraction; subnormals at exponent 0; inf and NaN at 31.
double ReferenceHalf(uint16_t h) {
  const int sign = (h >> 15) != 0 ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  if (exponent == 31) return fraction == 0 ? sign * HUGE_VAL : NAN;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST(AclFloat16, EveryHalfWidensExactlyAndNarrowsBack) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const aclFloat16 half = static_cast<aclFloat16>(h);
    const float f = aclFloat16ToFloat(half);
    const double expected = ReferenceHalf(half);
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << h;
      // Quiet NaN, sign and payload kept (the payload's top bit set).
      ASSERT_EQ(aclFloatToFloat16(f), h | 0x200u) << std::hex << h;
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), expected) << std::hex << h;
    ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << h;
    ASSERT_EQ(aclFloatToFloat16(f), h) << std::hex << h;
  }
}

TEST(AclFloat16, ValuesBetweenTwoHalvesRoundToNearestTiesToEven) {
  // Every pair of neighbouring finite positive halves (a, b): the midpoint
  // is exact in float (12 significant bits); it goes to the one whose last
  // bit is 0, and one float step either side goes to the nearer one.
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const double a = ReferenceHalf(static_cast<uint16_t>(h));
    const double b = ReferenceHalf(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((a + b) / 2);
    ASSERT_EQ(static_cast<double>(mid), (a + b) / 2) << h;
    const uint32_t even = (h & 1) == 0 ? h : h + 1;
    ASSERT_EQ(aclFloatToFloat16(mid), even) << std::hex << h;
    ASSERT_EQ(aclFloatToFloat16(std::nextafter(mid, 0.0f)), h) << std::hex << h;
    ASSERT_EQ(aclFloatToFloat16(std::nextafter(mid, 1e9f)), h + 1)
        << std::hex << h;
    ASSERT_EQ(aclFloatToFloat16(-mid), even | 0x8000u) << std::hex << h;
  }
}

TEST(AclFloat16, OverflowUnderflowAndSpecialValues) {
  // The largest half is 65504; the midpoint to the next binade step, 65520,
  // rounds (to even) to infinity, anything below it to 65504.
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7bffu);
  EXPECT_EQ(aclFloatToFloat16(std::nextafter(65520.0f, 0.0f)), 0x7bffu);
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7c00u);
  EXPECT_EQ(aclFloatToFloat16(1e10f), 0x7c00u);
  EXPECT_EQ(aclFloatToFloat16(-HUGE_VALF), 0xfc00u);
  // The smallest subnormal is 2^-24; half of it rounds to (even) zero, a
  // little more to it.
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -25)), 0x0000u);
  EXPECT_EQ(aclFloatToFloat16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)),
            0x0001u);
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000u);
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00u);
  EXPECT_EQ(aclFloatToFloat16(-2.5f), 0xc100u);
  // A signalling float NaN becomes a quiet half NaN of the same sign.
  float snan;
  const uint32_t snan_bits = 0xff800001u;
  std::memcpy(&snan, &snan_bits, sizeof snan);
  const aclFloat16 h = aclFloatToFloat16(snan);
  EXPECT_EQ(h & 0xfe00u, 0xfe00u);
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(h)));
  EXPECT_EQ(FloatBits(aclFloat16ToFloat(0x3c00)), FloatBits(1.0f));
}

}  // namespace
