// float8.cc — exact decoding of the Ascend 950's 8-bit and 4-bit floating
// codes (normgrad_ascendc/runtime/float8.h), by bit arithmetic, into tables
// built once; and the encoders from float into fp8_e4m3fn_t and hifloat8_t.
#include "normgrad_ascendc/runtime/float8.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace normgrad_ascendc {

namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A sign, exponent and mantissa format with `e_bits` exponent bits and
// `m_bits` mantissa bits (an IEEE-style bias of 2^(e_bits - 1) - 1 unless
// `bias` says otherwise), subnormals at exponent 0; what the all-ones
// exponent means is the caller's.
float DecodeSem(uint32_t code, int e_bits, int m_bits, int bias) {
  const uint32_t m = code & ((1u << m_bits) - 1);
  const uint32_t e = (code >> m_bits) & ((1u << e_bits) - 1);
  const bool negative = ((code >> (m_bits + e_bits)) & 1u) != 0;
  const float magnitude =
      e == 0 ? std::ldexp(static_cast<float>(m), 1 - bias - m_bits)
             : std::ldexp(static_cast<float>((1u << m_bits) | m),
                          static_cast<int>(e) - bias - m_bits);
  return negative ? -magnitude : magnitude;
}

float DecodeE4m3fn(uint8_t code) {
  if ((code & 0x7F) == 0x7F) return kNan;  // S.1111.111: no infinity
  return DecodeSem(code, 4, 3, 7);
}

float DecodeE5m2(uint8_t code) {
  if ((code & 0x7C) == 0x7C) {  // exponent 31
    if ((code & 0x03) != 0) return kNan;
    return (code & 0x80) != 0 ? -kInf : kInf;
  }
  return DecodeSem(code, 5, 2, 15);
}

// HiFloat8: after the sign, the dot field D is a prefix code (11, 10, 01,
// 001, 0001, 0000) giving the exponent's width (4, 3, 2, 1, 0 bits) and the
// mantissa's (1, 2, 3, 3, 3 bits). The exponent's top bit is its sign; its
// other bits, with a 1 put in front, its magnitude (so D 001 is ±1, D 01
// ±2..3, D 10 ±4..7, D 11 ±8..15, D 0001 exponent 0). D 0000 is the denormal
// form 2^(M - 23).
float DecodeHif8(uint8_t code) {
  if (code == 0x00) return 0.0f;
  if (code == 0x80) return kNan;
  if (code == 0x6F) return kInf;
  if (code == 0xEF) return -kInf;
  const bool negative = (code & 0x80) != 0;
  const uint32_t rest = code & 0x7F;  // D, E and M in 7 bits
  int e_bits = 0;
  int m_bits = 3;
  uint32_t payload = 0;  // E and M
  if ((rest >> 5) == 0x3) {
    e_bits = 4, m_bits = 1, payload = rest & 0x1F;
  } else if ((rest >> 5) == 0x2) {
    e_bits = 3, m_bits = 2, payload = rest & 0x1F;
  } else if ((rest >> 5) == 0x1) {
    e_bits = 2, m_bits = 3, payload = rest & 0x1F;
  } else if ((rest >> 4) == 0x1) {
    e_bits = 1, m_bits = 3, payload = rest & 0x0F;
  } else if ((rest >> 3) == 0x1) {
    e_bits = 0, m_bits = 3, payload = rest & 0x07;
  } else {  // D 0000: denormal, 2^(M - 23) for M 1..7
    const float magnitude = std::ldexp(1.0f, static_cast<int>(rest) - 23);
    return negative ? -magnitude : magnitude;
  }
  const uint32_t m = payload & ((1u << m_bits) - 1);
  int exponent = 0;
  if (e_bits > 0) {
    const uint32_t e = payload >> m_bits;
    const uint32_t low = e & ((1u << (e_bits - 1)) - 1);
    const int magnitude = static_cast<int>((1u << (e_bits - 1)) | low);
    exponent = (e >> (e_bits - 1)) != 0 ? -magnitude : magnitude;
  }
  const float value =
      std::ldexp(static_cast<float>((1u << m_bits) | m), exponent - m_bits);
  return negative ? -value : value;
}

float DecodeE8m0(uint8_t code) {
  if (code == 0xFF) return kNan;
  return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

using Table = std::array<float, 256>;

Table BuildTable(Float8Kind kind) {
  Table t{};
  for (uint32_t c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    switch (kind) {
      case Float8Kind::kE4m3fn:
        t[c] = DecodeE4m3fn(code);
        break;
      case Float8Kind::kE5m2:
        t[c] = DecodeE5m2(code);
        break;
      case Float8Kind::kHif8:
        t[c] = DecodeHif8(code);
        break;
      case Float8Kind::kE8m0:
        t[c] = DecodeE8m0(code);
        break;
      case Float8Kind::kE2m1:  // the low nibble: bias 1, no special codes
        t[c] = DecodeSem(code & 0xF, 2, 1, 1);
        break;
      case Float8Kind::kE1m2:  // bias 1 (not 2^0 - 1 = 0): ±0 .. ±1.75
        t[c] = DecodeSem(code & 0xF, 1, 2, 1);
        break;
    }
  }
  return t;
}

}  // namespace

const float* Float8Table(Float8Kind kind) {
  static const std::array<Table, 6> tables = {
      BuildTable(Float8Kind::kE4m3fn), BuildTable(Float8Kind::kE5m2),
      BuildTable(Float8Kind::kHif8),   BuildTable(Float8Kind::kE8m0),
      BuildTable(Float8Kind::kE2m1),   BuildTable(Float8Kind::kE1m2)};
  return tables[static_cast<uint32_t>(kind)].data();
}

float DecodeFloat8(Float8Kind kind, uint8_t code) {
  return Float8Table(kind)[code];
}

const char* Float8KindName(Float8Kind kind) {
  switch (kind) {
    case Float8Kind::kE4m3fn:
      return "fp8_e4m3fn_t";
    case Float8Kind::kE5m2:
      return "fp8_e5m2_t";
    case Float8Kind::kHif8:
      return "hifloat8_t";
    case Float8Kind::kE8m0:
      return "fp8_e8m0_t";
    case Float8Kind::kE2m1:
      return "fp4x2_e2m1_t";
    case Float8Kind::kE1m2:
      return "fp4x2_e1m2_t";
  }
  return "float8";
}

uint8_t EncodeFp8E4m3fn(float v) {
  const uint8_t sign = std::signbit(v) ? 0x80 : 0x00;
  if (!std::isfinite(v)) return sign | 0x7F;
  const float a = std::fabs(v);
  // The quantum of a's binade: 2^(e - 3) for the normal exponents e >= -6,
  // 2^-9 for the subnormals below.
  int frexp_e = 0;
  std::frexp(a, &frexp_e);
  const int e = a == 0.0f ? -6 : std::max(frexp_e - 1, -6);
  const float quantum = std::ldexp(1.0f, e - 3);
  const float r = a / quantum;  // exact: below 16
  float n = std::floor(r);
  const float rest = r - n;
  if (rest > 0.5f || (rest == 0.5f && std::fmod(n, 2.0f) != 0.0f)) n += 1.0f;
  if (n * quantum > 448.0f) return sign | 0x7F;
  // Codes count up with the value: binade e starts at (e + 7) * 8, the
  // subnormals (e = -6, n < 8) at 0; n = 16 is the next binade's first code.
  return sign | static_cast<uint8_t>(((e + 7) << 3) + static_cast<int>(n) - 8);
}

namespace {

// The hifloat8_t code of the finite magnitude 2^e x (1 + m / 2^m_bits) for
// -15 <= e <= 15 (m_bits as the dot field gives it), or of 2^e for the
// denormal exponents -22 .. -16, without the sign.
uint8_t PackHif8(int e, uint32_t m) {
  if (e <= -16) return static_cast<uint8_t>(e + 23);  // D 0000
  const uint32_t mag = static_cast<uint32_t>(e < 0 ? -e : e);
  const uint32_t e_sign = e < 0 ? 1u : 0u;
  uint32_t rest = 0;
  if (mag == 0) {
    rest = 0x08 | m;  // D 0001
  } else if (mag == 1) {
    rest = 0x10 | e_sign << 3 | m;  // D 001
  } else if (mag <= 3) {
    rest = 0x20 | (e_sign << 1 | (mag & 1u)) << 3 | m;  // D 01
  } else if (mag <= 7) {
    rest = 0x40 | (e_sign << 2 | (mag & 3u)) << 2 | m;  // D 10
  } else {
    rest = 0x60 | (e_sign << 3 | (mag & 7u)) << 1 | m;  // D 11
  }
  return static_cast<uint8_t>(rest);
}

}  // namespace

uint8_t EncodeHif8(float v, Hif8Round round) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  const uint8_t sign = (bits >> 31) != 0 ? 0x80 : 0x00;
  const int ev = static_cast<int>((bits >> 23) & 0xFFu) - 127;
  const uint32_t mant = bits & 0x7FFFFFu;
  // The hybrid rounding's threshold. A value on a code (its dropped bits,
  // and so these, all 0) is kept, not rounded up by 0 >= 0.
  const uint32_t thr = bits & 0x3FFFu;
  const bool hybrid = round == Hif8Round::kHybrid;
  constexpr uint8_t kInfCode = 0x6F;
  if (ev == 128) return mant != 0 ? 0x80 : sign | kInfCode;
  if (ev > 15) return sign | kInfCode;
  if (ev < -23) return 0x00;
  if (ev == -23) {  // between 0 and the smallest denormal, 2^-22
    const uint32_t frac = 1u << 13 | mant >> 10;
    return !hybrid || frac >= thr ? sign | 0x01 : 0x00;
  }
  int e = ev;
  uint32_t m = 0;
  bool up = false;
  if (ev <= -16) {  // the denormals are powers of two: 2^ev or 2^(ev + 1)
    up = hybrid ? mant != 0 && (mant >> 9) >= thr : (mant >> 22) != 0;
    if (up) ++e;
  } else {
    const int mag = ev < 0 ? -ev : ev;
    const int m_bits = mag <= 3 ? 3 : mag <= 7 ? 2 : 1;
    const int drop = 23 - m_bits;
    m = mant >> drop;
    const bool a_bit = ((mant >> (drop - 1)) & 1u) != 0;
    const uint32_t frac = (mant >> (drop - 14)) & 0x3FFFu;
    const bool exact = (mant & ((1u << drop) - 1)) == 0;
    up = hybrid && mag > 3 ? !exact && frac >= thr : a_bit;
    if (up && ++m == (1u << m_bits)) {
      m = 0;
      ++e;
    }
  }
  // 2^15 x 1.5 is the infinity code itself; the carry out of 2^15 also
  // overflows.
  if (e > 15) return sign | kInfCode;
  return sign | PackHif8(e, m);
}

}  // namespace normgrad_ascendc
