// float8_test.cc — every code of the 950's 8-bit floats (and every nibble of
// the 4-bit ones) decoded by normgrad_ascendc/runtime/float8.h, against a
// decoder written here from the formats' definitions (the built-in data type
// page's formula and hifloat8_t's dot-field table), in double, reading the
// code as a string of bits; and the encoders from float into fp8_e4m3fn_t
// and hifloat8_t against encoders written here as a search for the nearest
// value among those decoded codes. To extend: add a format's reference
// decoder and a TEST that walks its codes.
#include "normgrad_ascendc/runtime/float8.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

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

// ---- Encoding -------------------------------------------------------------

using normgrad_ascendc::EncodeFp8E4m3fn;
using normgrad_ascendc::EncodeHif8;
using normgrad_ascendc::Hif8Round;

const float kInfF = std::numeric_limits<float>::infinity();

// The non-negative finite values of a format by code (from the reference
// decoders above), with `overflow` standing for the first value past the
// largest one: a value that rounds there has no finite code.
struct Candidate {
  double value;
  uint32_t code;  // 256: overflow
};
std::vector<Candidate> Candidates(double (*ref)(uint32_t), double overflow) {
  std::vector<Candidate> c;
  for (uint32_t code = 0; code < 128; ++code) {
    const double v = ref(code);
    if (std::isfinite(v)) c.push_back({v, code});
  }
  c.push_back({overflow, 256});
  return c;
}

// The candidates just below (or at) and just above `a`.
std::pair<Candidate, Candidate> Bracket(const std::vector<Candidate>& c,
                                        double a) {
  Candidate down{-1, 0};
  Candidate up{kInf, 0};
  for (const Candidate& x : c) {
    if (x.value <= a && x.value > down.value) down = x;
    if (x.value > a && x.value < up.value) up = x;
  }
  return {down, up};
}

// fp8_e4m3fn_t: the nearest value, ties to the even code (the mantissa's
// last bit); 480 (code 0x7F, odd) stands for overflow, which gives NaN.
uint8_t RefEncodeE4m3fn(float v) {
  static const std::vector<Candidate> c = Candidates(RefE4m3fn, 480.0);
  const uint8_t sign = std::signbit(v) ? 0x80 : 0;
  if (!std::isfinite(v)) return sign | 0x7F;
  const double a = std::fabs(static_cast<double>(v));
  const auto [down, up] = Bracket(c, a);
  if (up.value == kInf) return sign | 0x7F;
  const double below = a - down.value;
  const double above = up.value - a;
  uint32_t code = below < above          ? down.code
                  : above < below        ? up.code
                  : (down.code % 2 == 0) ? down.code
                                         : up.code;
  if (code == 256) code = 0x7F;
  return sign | static_cast<uint8_t>(code);
}

// hifloat8_t: 49152 (2^15 x 1.5, the infinity code's place) stands for
// overflow, which gives infinity. Half away from zero: the nearest, ties to
// the larger magnitude. Hybrid: away from zero when the fraction of the gap
// crossed, in 14 bits, is at least the float's low 14 bits, except for the
// exponents -3 .. 3, which round half away, and below 2^-23, which gives 0.
uint8_t RefEncodeHif8(float v, Hif8Round round) {
  static const std::vector<Candidate> c = Candidates(RefHif8, 49152.0);
  if (std::isnan(v)) return 0x80;
  const uint8_t sign = std::signbit(v) ? 0x80 : 0;
  if (std::isinf(v)) return sign | 0x6F;
  const double a = std::fabs(static_cast<double>(v));
  const auto [down, up] = Bracket(c, a);
  if (up.value == kInf) return sign | 0x6F;
  const double f = (a - down.value) / (up.value - down.value);
  bool away = f >= 0.5;
  const int exponent = a == 0 ? 0 : std::ilogb(a);
  if (round == Hif8Round::kHybrid && exponent < -23) {
    away = false;  // below half the smallest denormal: 0 in both modes
  } else if (round == Hif8Round::kHybrid && (exponent < -3 || exponent > 3)) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    away = std::floor(f * 16384.0) >= static_cast<double>(bits & 0x3FFFu);
  }
  uint32_t code = down.value == a ? down.code : away ? up.code : down.code;
  if (code == 256) code = 0x6F;
  if (code == 0) return 0x00;  // one zero, no sign
  return sign | static_cast<uint8_t>(code);
}

// Each value, its neighbouring floats, and the same negated.
std::vector<float> AroundEach(const std::vector<float>& values) {
  std::vector<float> out;
  for (float x : values) {
    for (float y : {x, std::nextafter(x, 0.0f), std::nextafter(x, kInfF)}) {
      out.push_back(y);
      out.push_back(-y);
    }
  }
  return out;
}

// Every finite code's value, the midpoints between neighbours, the edges
// past the largest value, and the special values.
std::vector<float> EdgeValues(double (*ref)(uint32_t), double overflow) {
  std::vector<Candidate> c = Candidates(ref, overflow);
  std::vector<double> values;
  for (const Candidate& x : c) values.push_back(x.value);
  std::sort(values.begin(), values.end());
  std::vector<float> points;
  for (size_t i = 0; i < values.size(); ++i) {
    points.push_back(static_cast<float>(values[i]));
    if (i + 1 < values.size()) {
      points.push_back(static_cast<float>((values[i] + values[i + 1]) / 2));
    }
  }
  for (float x : {1e30f, std::numeric_limits<float>::max(), 65536.0f,
                  std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(), std::ldexp(1.0f, -23),
                  std::ldexp(1.0f, -24), std::ldexp(1.5f, -23)}) {
    points.push_back(x);
  }
  std::vector<float> out = AroundEach(points);
  out.push_back(kInfF);
  out.push_back(-kInfF);
  out.push_back(std::numeric_limits<float>::quiet_NaN());
  out.push_back(-std::numeric_limits<float>::quiet_NaN());
  return out;
}

// Random floats across the formats' binades (and past them), every low bit
// pattern likely: the seed is fixed.
std::vector<float> RandomValues() {
  std::mt19937 rng(20260407u);
  std::uniform_int_distribution<uint32_t> mantissa(0, 0x7FFFFF);
  std::uniform_int_distribution<int> exponent(-26, 17);
  std::vector<float> out;
  for (int i = 0; i < 100000; ++i) {
    const float m = 1.0f + static_cast<float>(mantissa(rng)) / 8388608.0f;
    const float v = std::ldexp(m, exponent(rng));
    out.push_back(i % 2 == 0 ? v : -v);
  }
  return out;
}

std::string Hex(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  char s[48];
  std::snprintf(s, sizeof s, "%.9g (0x%08x)", static_cast<double>(v), bits);
  return s;
}

TEST(Float8Encode, E4m3fnEdgesAndRandom) {
  std::vector<float> values = EdgeValues(RefE4m3fn, 480.0);
  const std::vector<float> random = RandomValues();
  values.insert(values.end(), random.begin(), random.end());
  int mismatches = 0;
  for (float v : values) {
    const uint8_t want = RefEncodeE4m3fn(v);
    const uint8_t got = EncodeFp8E4m3fn(v);
    if (want != got && ++mismatches <= 8) {
      ADD_FAILURE() << Hex(v) << ": got 0x" << std::hex << int{got}
                    << ", want 0x" << int{want};
    }
  }
  EXPECT_EQ(mismatches, 0);
  // Ties to even (2.5 + 0.125 lies between 2.5, mantissa 010, and 2.75) and
  // the overflow edge: 464 is the tie between 448 and the missing 480.
  EXPECT_EQ(EncodeFp8E4m3fn(2.625f), 0x42);
  EXPECT_EQ(EncodeFp8E4m3fn(2.875f), 0x44);
  EXPECT_EQ(EncodeFp8E4m3fn(464.0f), 0x7E);
  EXPECT_EQ(EncodeFp8E4m3fn(std::nextafter(464.0f, kInfF)), 0x7F);
  EXPECT_EQ(EncodeFp8E4m3fn(-kInfF), 0xFF);
}

void CheckHif8(Hif8Round round) {
  std::vector<float> values = EdgeValues(RefHif8, 49152.0);
  const std::vector<float> random = RandomValues();
  values.insert(values.end(), random.begin(), random.end());
  int mismatches = 0;
  for (float v : values) {
    const uint8_t want = RefEncodeHif8(v, round);
    const uint8_t got = EncodeHif8(v, round);
    if (want != got && ++mismatches <= 8) {
      ADD_FAILURE() << Hex(v) << ": got 0x" << std::hex << int{got}
                    << ", want 0x" << int{want};
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Float8Encode, Hif8HalfAwayEdgesAndRandom) {
  CheckHif8(Hif8Round::kHalfAway);
  // A tie between 1 and 1.125 goes away from zero.
  EXPECT_EQ(DecodeFloat8(Float8Kind::kHif8,
                         EncodeHif8(1.0625f, Hif8Round::kHalfAway)),
            1.125f);
  EXPECT_EQ(EncodeHif8(-2.5f * 1024.0f, Hif8Round::kHalfAway),
            EncodeHif8(-3.0f * 1024.0f, Hif8Round::kHalfAway));
  EXPECT_EQ(EncodeHif8(40960.0f, Hif8Round::kHalfAway), 0x6F);
  EXPECT_EQ(EncodeHif8(std::nextafter(40960.0f, 0.0f), Hif8Round::kHalfAway),
            0x6E);
}

TEST(Float8Encode, Hif8HybridEdgesAndRandom) {
  CheckHif8(Hif8Round::kHybrid);
  // 17 lies a quarter of the way from 16 to 20 (exponent 4, two mantissa
  // bits) and its low 14 bits are 0: hybrid rounding takes it up, half away
  // down; 16 plus 0x3FFF float ulps (low bits 0x3FFF) stays at 16.
  const auto hif8 = [](float v, Hif8Round r) {
    return DecodeFloat8(Float8Kind::kHif8, EncodeHif8(v, r));
  };
  EXPECT_EQ(hif8(17.0f, Hif8Round::kHybrid), 20.0f);
  EXPECT_EQ(hif8(17.0f, Hif8Round::kHalfAway), 16.0f);
  EXPECT_EQ(hif8(16.0f + 0x3FFF * std::ldexp(1.0f, -19), Hif8Round::kHybrid),
            16.0f);
  // Exponents -3 .. 3 round half away in both modes; a value on a code
  // stays (its dropped bits are all 0, as are its low 14).
  EXPECT_EQ(hif8(1.03125f, Hif8Round::kHybrid), 1.0f);
  EXPECT_EQ(hif8(16.0f, Hif8Round::kHybrid), 16.0f);
  EXPECT_EQ(hif8(std::ldexp(1.0f, -20), Hif8Round::kHybrid),
            std::ldexp(1.0f, -20));
}

}  // namespace
