// normgrad_ascendc/runtime/float8.h — the Ascend 950's 8-bit floating types
// and its packed 4-bit floating types, as the cube reads them (docs/cube.md,
// "The Ascend 950: 8-bit floats and MX"): fp8_e4m3fn_t, fp8_e5m2_t,
// hifloat8_t, fp8_e8m0_t (an MX scale), fp4x2_e2m1_t and fp4x2_e1m2_t.
//
// Each is a one-byte storage type whose byte is the raw code; normgrad
// decodes the codes exactly to float (every value of every type is a float).
// The formats, with what normgrad chose where the reference leaves a code
// open (docs/decisions.md, "The 950's 8-bit floats and MX"):
//
//   fp8_e4m3fn_t  1 sign, 4 exponent (bias 7), 3 mantissa; subnormals; no
//                 infinity; S.1111.111 is NaN; largest 448.
//   fp8_e5m2_t    1 sign, 5 exponent (bias 15), 2 mantissa; subnormals;
//                 exponent 31: infinity (mantissa 0) or NaN; largest 57344.
//   hifloat8_t    1 sign, a prefix-coded dot field D that sets the widths of
//                 the exponent (sign-magnitude, with an implied leading 1) and
//                 the mantissa; D 0000 is the denormal form 2^(M - 23); 0x00
//                 is 0, 0x80 NaN, 0x6F / 0xEF ±infinity; largest 32768.
//   fp8_e8m0_t    8 exponent bits, bias 127, no sign, no mantissa: code c is
//                 2^(c - 127); 0xFF is NaN.
//   fp4x2_*       two 4-bit values a byte, element 2i in the low nibble:
//                 e2m1 (bias 1, ±0 .. ±6) and e1m2 (bias 1, ±0 .. ±1.75), every
//                 code a finite number.
//
// Encoding from float is provided for the two types the 950's Fixpipe
// writes (fp8_e4m3fn_t and hifloat8_t), in the non-saturating mode
// (docs/cube.md, "The Ascend 950: out of L0C, and UB ↔ L1").
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The 8-bit formats, and the two 4-bit ones by their nibble.
enum class Float8Kind : uint8_t {
  kE4m3fn,
  kE5m2,
  kHif8,
  kE8m0,
  kE2m1,  ///< one nibble of fp4x2_e2m1_t
  kE1m2,  ///< one nibble of fp4x2_e1m2_t
};

/// The value of `code` (for the 4-bit kinds, its low four bits) as a float,
/// exactly; NaN for the NaN codes.
float DecodeFloat8(Float8Kind kind, uint8_t code);

/// The 256 values of an 8-bit kind by code (the 4-bit kinds: 16), for loops
/// that decode runs of codes.
const float* Float8Table(Float8Kind kind);

/// The type's name, as the pages spell it.
const char* Float8KindName(Float8Kind kind);

/// `v` rounded to fp8_e4m3fn_t, to the nearest code with ties to the even
/// mantissa, subnormals included (zero keeps v's sign). A rounded magnitude
/// above 448, an infinity or a NaN gives the NaN code with v's sign: the
/// type has no infinity and this is the non-saturating mode.
uint8_t EncodeFp8E4m3fn(float v);

/// The two roundings into hifloat8_t: half away from zero, and the hybrid
/// rounding, which rounds up when the dropped bits (the first 14 of them)
/// are at least the low 14 bits of the float itself, except for the
/// exponents -3 .. 3 (three mantissa bits), where it rounds half away from
/// zero too.
enum class Hif8Round : uint8_t { kHalfAway, kHybrid };

/// `v` as a hifloat8_t code under `round` (the float → hifloat8_t rule of
/// the vector Cast page): NaN 0x80; ±inf and magnitudes from 2^16, or that
/// round up past 32768, ±inf (0x6F / 0xEF); below 2^-23, 0x00 (the type has
/// one zero).
uint8_t EncodeHif8(float v, Hif8Round round);

}  // namespace normgrad_ascendc

namespace AscendC {

#define NORMGRAD_FLOAT8_TYPE(name, kind_)                                     \
  struct name {                                                               \
    static constexpr normgrad_ascendc::Float8Kind kKind =                     \
        normgrad_ascendc::Float8Kind::kind_;                                  \
    name() = default;                                                         \
    /** The value whose code is `code_bits` (not a conversion from float). */ \
    static constexpr name FromBits(uint8_t code_bits) {                       \
      name v{};                                                               \
      v.bits = code_bits;                                                     \
      return v;                                                               \
    }                                                                         \
    explicit operator float() const {                                         \
      return normgrad_ascendc::DecodeFloat8(kKind, bits);                     \
    }                                                                         \
    uint8_t bits;                                                             \
  }

/// 8-bit floats: E4M3 without infinity, E5M2, HiFloat8, and the MX scale.
NORMGRAD_FLOAT8_TYPE(fp8_e4m3fn_t, kE4m3fn);
NORMGRAD_FLOAT8_TYPE(fp8_e5m2_t, kE5m2);
NORMGRAD_FLOAT8_TYPE(hifloat8_t, kHif8);
NORMGRAD_FLOAT8_TYPE(fp8_e8m0_t, kE8m0);
/// Two 4-bit floats a byte (element 2i in the low nibble); float() reads the
/// low one.
NORMGRAD_FLOAT8_TYPE(fp4x2_e2m1_t, kE2m1);
NORMGRAD_FLOAT8_TYPE(fp4x2_e1m2_t, kE1m2);

#undef NORMGRAD_FLOAT8_TYPE

}  // namespace AscendC

/// The types without the namespace, as programs and the C API write them.
using fp8_e4m3fn_t = AscendC::fp8_e4m3fn_t;
using fp8_e5m2_t = AscendC::fp8_e5m2_t;
using hifloat8_t = AscendC::hifloat8_t;
using fp8_e8m0_t = AscendC::fp8_e8m0_t;
using fp4x2_e2m1_t = AscendC::fp4x2_e2m1_t;
using fp4x2_e1m2_t = AscendC::fp4x2_e1m2_t;

namespace normgrad_ascendc {

template <>
constexpr const char* TypeName<AscendC::fp8_e4m3fn_t>() {
  return "fp8_e4m3fn_t";
}
template <>
constexpr const char* TypeName<AscendC::fp8_e5m2_t>() {
  return "fp8_e5m2_t";
}
template <>
constexpr const char* TypeName<AscendC::hifloat8_t>() {
  return "hifloat8_t";
}
template <>
constexpr const char* TypeName<AscendC::fp8_e8m0_t>() {
  return "fp8_e8m0_t";
}
template <>
constexpr const char* TypeName<AscendC::fp4x2_e2m1_t>() {
  return "fp4x2_e2m1_t";
}
template <>
constexpr const char* TypeName<AscendC::fp4x2_e1m2_t>() {
  return "fp4x2_e1m2_t";
}

// Debug output (LocalTensor::Print, DumpTensor) prints these types' codes as
// unsigned bytes: they are not the 16- or 32-bit floats it decodes.
template <>
constexpr char DumpKind<AscendC::fp8_e4m3fn_t>() {
  return 'u';
}
template <>
constexpr char DumpKind<AscendC::fp8_e5m2_t>() {
  return 'u';
}
template <>
constexpr char DumpKind<AscendC::hifloat8_t>() {
  return 'u';
}
template <>
constexpr char DumpKind<AscendC::fp8_e8m0_t>() {
  return 'u';
}
template <>
constexpr char DumpKind<AscendC::fp4x2_e2m1_t>() {
  return 'u';
}
template <>
constexpr char DumpKind<AscendC::fp4x2_e1m2_t>() {
  return 'u';
}

}  // namespace normgrad_ascendc
