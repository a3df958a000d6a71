// float8_test.cc — every code of the 950's 8-bit floats (and every nibble of
// the 4-bit ones) decoded by normgrad_ascendc/runtime/float8.h, against a
// decoder written here from the formats' definitions (the built-in data type
// page's formula and hifloat8_t's dot-field table), in double, reading the
// code as a string of bits. To extend: add a format's reference decoder and
// a TEST that walks its codes.
#include "normgrad_ascendc/runtime/float8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace {

using normgrad_ascendc::DecodeFloat8;
using normgrad_ascendc::Float8Kind;

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// The code's `width` bits, most significant first, as '0'/'1'.
std::string Bits(uint32_t code, int width) {
  std::string s;
  for (int i = width - 1; i >= 0; --i) s += ((code >> i) & 1u) ? '1' : '0';
  return s;
}

uint32_t Field(const std::string& bits) {
  uint32_t v = 0;
  for (char c : bits) v = v * 2 + static_cast<uint32_t>(c == '1');
  return v;
}

// The data type page's formula: normal (-1)^S (1 + Mv) 2^(Ev - Bias),
// subnormal (-1)^S Mv 2^(1 - Bias), Mv = M / 2^Mbits.
double Formula(const std::string& s, const std::string& e, const std::string& m,
               int bias) {
  const double sign = s == "1" ? -1.0 : 1.0;
  const double mv = Field(m) / std::pow(2.0, static_cast<double>(m.size()));
  const double ev = Field(e);
  if (ev == 0) return sign * mv * std::pow(2.0, 1 - bias);
  return sign * (1 + mv) * std::pow(2.0, ev - bias);
}

double RefE4m3fn(uint32_t code) {
  const std::string b = Bits(code, 8);
  if (b.substr(1) == "1111111") return kNan;  // no infinity in "fn"
  return Formula(b.substr(0, 1), b.substr(1, 4), b.substr(5, 3), 7);
}

double RefE5m2(uint32_t code) {
  const std::string b = Bits(code, 8);
  if (b.substr(1, 5) == "11111") {
    if (b.substr(6) != "00") return kNan;
    return b[0] == '1' ? -kInf : kInf;
  }
  return Formula(b.substr(0, 1), b.substr(1, 5), b.substr(6, 2), 15);
}

// hifloat8_t: sign, then the dot field D (table 6 of the data type page),
// which fixes how many bits the exponent and mantissa take.
double RefHif8(uint32_t code) {
  const std::string b = Bits(code, 8);
  if (b == "00000000") return 0.0;
  if (b == "10000000") return kNan;
  if (b == "01101111") return kInf;
  if (b == "11101111") return -kInf;
  const double sign = b[0] == '1' ? -1.0 : 1.0;
  const std::string rest = b.substr(1);
  struct Dot {
    const char* d;
    int e_bits;
    int m_bits;
  };
  const Dot dots[] = {
      {"11", 4, 1}, {"10", 3, 2}, {"01", 2, 3}, {"001", 1, 3}, {"0001", 0, 3}};
  for (const Dot& dot : dots) {
    const std::string d = dot.d;
    if (rest.compare(0, d.size(), d) != 0) continue;
    const std::string e = rest.substr(d.size(), dot.e_bits);
    const std::string m = rest.substr(d.size() + dot.e_bits);
    EXPECT_EQ(static_cast<int>(m.size()), dot.m_bits);
    double ev = 0;
    if (!e.empty()) {
      // Es: the top bit is the exponent's sign; Em: the other bits with a
      // leading 1.
      const double es = e[0] == '1' ? -1.0 : 1.0;
      ev = es * Field("1" + e.substr(1));
    }
    const double mv = Field(m) / std::pow(2.0, dot.m_bits);
    return sign * std::pow(2.0, ev) * (1 + mv);
  }
  // D 0000: the denormal form Sv * 2^(M - 23).
  return sign * std::pow(2.0, static_cast<double>(Field(rest.substr(4))) - 23);
}

double RefE8m0(uint32_t code) {
  if (code == 255) return kNan;
  return std::pow(2.0, static_cast<double>(code) - 127);
}

// The 4-bit formats: every code finite, bias 1 for both (the page's ranges:
// e2m1 reaches 6 = 1.5 * 2^2, e1m2 reaches 1.75 = 7 * 2^-2).
double RefE2m1(uint32_t nibble) {
  const std::string b = Bits(nibble, 4);
  return Formula(b.substr(0, 1), b.substr(1, 2), b.substr(3, 1), 1);
}
double RefE1m2(uint32_t nibble) {
  const std::string b = Bits(nibble, 4);
  return Formula(b.substr(0, 1), b.substr(1, 1), b.substr(2, 2), 1);
}

void ExpectSame(double want, float got, Float8Kind kind, uint32_t code) {
  SCOPED_TRACE(std::string(normgrad_ascendc::Float8KindName(kind)) +
               " code 0x" + std::to_string(code));
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << got;
  } else {
    EXPECT_EQ(want, static_cast<double>(got));
    EXPECT_EQ(std::signbit(want), std::signbit(got));
  }
}

template <typename Ref>
void CheckAllCodes(Float8Kind kind, Ref ref) {
  for (uint32_t code = 0; code < 256; ++code) {
    ExpectSame(ref(code), DecodeFloat8(kind, static_cast<uint8_t>(code)), kind,
               code);
  }
}

TEST(Float8, E4m3fnEveryCode) {
  CheckAllCodes(Float8Kind::kE4m3fn, RefE4m3fn);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE4m3fn, 0x7E), 448.0f);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE4m3fn, 0x01), std::ldexp(1.0f, -9));
}

TEST(Float8, E5m2EveryCode) {
  CheckAllCodes(Float8Kind::kE5m2, RefE5m2);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE5m2, 0x7B), 57344.0f);
  // The page's example: 0 11110 11 is 1.75 * 2^15.
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE5m2, 0x7B), 1.75f * 32768.0f);
}

TEST(Float8, Hif8EveryCode) {
  CheckAllCodes(Float8Kind::kHif8, RefHif8);
  // The page's example: D 01, E 01 (Es +, Em 1 then 1: +3), M 110: 14.
  EXPECT_EQ(DecodeFloat8(Float8Kind::kHif8, 0b00101110), 14.0f);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kHif8, 0b01101110), 32768.0f);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kHif8, 0x01), std::ldexp(1.0f, -22));
}

TEST(Float8, E8m0EveryCode) {
  CheckAllCodes(Float8Kind::kE8m0, RefE8m0);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE8m0, 127), 1.0f);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE8m0, 0), std::ldexp(1.0f, -127));
}

TEST(Float8, Fp4EveryNibbleOfEveryByte) {
  // float() and the decoder read the low nibble; the high one is the next
  // element.
  CheckAllCodes(Float8Kind::kE2m1, [](uint32_t c) { return RefE2m1(c & 0xF); });
  CheckAllCodes(Float8Kind::kE1m2, [](uint32_t c) { return RefE1m2(c & 0xF); });
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE2m1, 0x7), 6.0f);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE1m2, 0x7), 1.75f);
  EXPECT_EQ(DecodeFloat8(Float8Kind::kE1m2, 0x1), 0.25f);
}

TEST(Float8, TypesAreOneByteCodes) {
  static_assert(sizeof(fp8_e4m3fn_t) == 1 && sizeof(fp8_e5m2_t) == 1 &&
                sizeof(hifloat8_t) == 1 && sizeof(fp8_e8m0_t) == 1 &&
                sizeof(fp4x2_e2m1_t) == 1 && sizeof(fp4x2_e1m2_t) == 1);
  EXPECT_EQ(static_cast<float>(fp8_e4m3fn_t::FromBits(0x38)), 1.0f);
  EXPECT_EQ(static_cast<float>(fp8_e5m2_t::FromBits(0xBC)), -1.0f);
  EXPECT_EQ(static_cast<float>(hifloat8_t::FromBits(0x08)), 1.0f);
  EXPECT_EQ(static_cast<float>(fp8_e8m0_t::FromBits(128)), 2.0f);
  EXPECT_STREQ(normgrad_ascendc::TypeName<hifloat8_t>(), "hifloat8_t");
  // Debug output prints the codes, not a 16-bit float read from them.
  static_assert(normgrad_ascendc::DumpKind<fp8_e5m2_t>() == 'u' &&
                normgrad_ascendc::DumpKind<fp4x2_e1m2_t>() == 'u');
}

}  // namespace
