// normgrad/float16.h — 16-bit floating-point storage types: `normgrad::float16`
// (IEEE 754 binary16, Ascend C's `half`) and `normgrad::bfloat16`.
//
// Both are trivially copyable 2-byte types whose bytes are the raw bits, so an
// array of them is the array of 16-bit patterns. They convert implicitly from
// and to float; narrowing rounds half to even, handles subnormals, overflows
// to infinity and keeps NaN a (quiet) NaN with its sign. Arithmetic between two
// values of one type is computed in float and rounded back; mixing with another
// arithmetic type computes in that type's promotion with float (the result is
// float, or double for double operands).
//
// The scalar conversions here are portable C++ and constexpr (so
// `constexpr half x = (half)99.0;` compiles). Bulk conversions that use the
// CPU's conversion instructions (F16C on x86) live in normgrad/convert.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace normgrad {

/// Bit patterns ↔ float, portable, round-half-to-even.
namespace bits {

// __builtin_bit_cast (GCC 11, clang 9): std::bit_cast before C++20, usable in
// constant expressions, compiled as a plain move.
constexpr uint32_t FromFloat(float f) {
  return __builtin_bit_cast(uint32_t, f);
}

constexpr float ToFloat(uint32_t u) { return __builtin_bit_cast(float, u); }

/// binary16 bits → float (exact; a NaN becomes quiet, as F16C does).
constexpr float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) {  // inf, or NaN made quiet with its payload kept
    const uint32_t quiet = mantissa != 0 ? 0x200u : 0u;
    return ToFloat(sign | 0x7f800000u | ((mantissa | quiet) << 13));
  }
  if (exponent != 0) {  // normal
    return ToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return ToFloat(sign);  // ±0
  // Subnormal: value = mantissa · 2^-24; normalize.
  int shift = 0;
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    ++shift;
  }
  mantissa &= 0x3ffu;
  return ToFloat(sign | (static_cast<uint32_t>(113 - shift) << 23) |
                 (mantissa << 13));
}

/// float → binary16 bits, round half to even. NaN becomes a quiet NaN with
/// the top 10 bits of the float's payload (as the F16C instructions do).
constexpr uint16_t FloatToHalf(float f) {
  uint32_t x = FromFloat(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) {  // NaN
    return static_cast<uint16_t>(sign | 0x7e00u | ((x >> 13) & 0x3ffu));
  }
  if (x >= 0x47800000u) return static_cast<uint16_t>(sign | 0x7c00u);  // ≥ 2^16
  if (x >= 0x38800000u) {  // normal in half (≥ 2^-14); may round up to inf
    const uint32_t rebased = x - 0x38000000u;
    const uint32_t rounded = rebased + 0xfffu + ((rebased >> 13) & 1u);
    return static_cast<uint16_t>(sign | (rounded >> 13));
  }
  if (x <= 0x33000000u) return sign;  // ≤ 2^-25: rounds to ±0
  // Subnormal in half: value / 2^-24 = m >> (126 - e).
  const uint32_t e = x >> 23;
  const uint32_t m = (x & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126u - e;  // 14 … 24
  const uint32_t q = m >> shift;
  const uint32_t rem = m & ((1u << shift) - 1u);
  const uint32_t midpoint = 1u << (shift - 1u);
  const uint32_t up =
      (rem > midpoint || (rem == midpoint && (q & 1u))) ? 1u : 0u;
  return static_cast<uint16_t>(sign | (q + up));
}

/// bfloat16 bits → float (exact).
constexpr float Bfloat16ToFloat(uint16_t b) {
  return ToFloat(static_cast<uint32_t>(b) << 16);
}

/// float → bfloat16 bits, round half to even; NaN stays a quiet NaN.
constexpr uint16_t FloatToBfloat16(float f) {
  const uint32_t x = FromFloat(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  }
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace bits

/// A 16-bit float stored as its bits; `Codec` supplies the two conversions.
template <typename Codec>
class Float16Storage {
 public:
  Float16Storage() = default;
  constexpr Float16Storage(float f)
      : bits_(Codec::Narrow(f)) {}  // NOLINT: implicit, as Ascend C
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U> &&
                                                    !std::is_same_v<U, float>>>
  constexpr Float16Storage(U v)  // NOLINT
      : Float16Storage(static_cast<float>(v)) {}
  constexpr operator float() const { return Codec::Widen(bits_); }  // NOLINT

  static constexpr Float16Storage FromBits(uint16_t b) {
    return Float16Storage(RawBits{}, b);
  }
  constexpr uint16_t Bits() const { return bits_; }

  friend Float16Storage operator+(Float16Storage a, Float16Storage b) {
    return float(a) + float(b);
  }
  friend Float16Storage operator-(Float16Storage a, Float16Storage b) {
    return float(a) - float(b);
  }
  friend Float16Storage operator*(Float16Storage a, Float16Storage b) {
    return float(a) * float(b);
  }
  friend Float16Storage operator/(Float16Storage a, Float16Storage b) {
    return float(a) / float(b);
  }
  friend Float16Storage operator-(Float16Storage a) {
    return FromBits(static_cast<uint16_t>(a.bits_ ^ 0x8000u));
  }
  friend bool operator==(Float16Storage a, Float16Storage b) {
    return float(a) == float(b);
  }
  friend bool operator!=(Float16Storage a, Float16Storage b) {
    return float(a) != float(b);
  }
  friend bool operator<(Float16Storage a, Float16Storage b) {
    return float(a) < float(b);
  }
  friend bool operator>(Float16Storage a, Float16Storage b) {
    return float(a) > float(b);
  }
  friend bool operator<=(Float16Storage a, Float16Storage b) {
    return float(a) <= float(b);
  }
  friend bool operator>=(Float16Storage a, Float16Storage b) {
    return float(a) >= float(b);
  }

  Float16Storage& operator+=(Float16Storage o) { return *this = *this + o; }
  Float16Storage& operator-=(Float16Storage o) { return *this = *this - o; }
  Float16Storage& operator*=(Float16Storage o) { return *this = *this * o; }
  Float16Storage& operator/=(Float16Storage o) { return *this = *this / o; }

 private:
  struct RawBits {};
  constexpr Float16Storage(RawBits, uint16_t b) : bits_(b) {}

  uint16_t bits_;
};

// Mixed arithmetic with built-in types: computed in float (or wider), as if
// the 16-bit operand had been converted to float first. These templates match
// exactly and so win over the built-in operators (no ambiguity).
#define NORMGRAD_MIXED_OP(op)                                     \
  template <typename C, typename U,                               \
            typename = std::enable_if_t<std::is_arithmetic_v<U>>> \
  auto operator op(Float16Storage<C> a, U b) {                    \
    return float(a) op b;                                         \
  }                                                               \
  template <typename C, typename U,                               \
            typename = std::enable_if_t<std::is_arithmetic_v<U>>> \
  auto operator op(U a, Float16Storage<C> b) {                    \
    return a op float(b);                                         \
  }
NORMGRAD_MIXED_OP(+)
NORMGRAD_MIXED_OP(-)
NORMGRAD_MIXED_OP(*)
NORMGRAD_MIXED_OP(/)
NORMGRAD_MIXED_OP(==)
NORMGRAD_MIXED_OP(!=)
NORMGRAD_MIXED_OP(<)
NORMGRAD_MIXED_OP(>)
NORMGRAD_MIXED_OP(<=)
NORMGRAD_MIXED_OP(>=)
#undef NORMGRAD_MIXED_OP

struct HalfCodec {
  static constexpr uint16_t Narrow(float f) { return bits::FloatToHalf(f); }
  static constexpr float Widen(uint16_t b) { return bits::HalfToFloat(b); }
};
struct Bfloat16Codec {
  static constexpr uint16_t Narrow(float f) { return bits::FloatToBfloat16(f); }
  static constexpr float Widen(uint16_t b) { return bits::Bfloat16ToFloat(b); }
};

/// IEEE 754 binary16 (Ascend C's `half`).
using float16 = Float16Storage<HalfCodec>;
/// bfloat16: the top 16 bits of a float.
using bfloat16 = Float16Storage<Bfloat16Codec>;

static_assert(sizeof(float16) == 2 && std::is_trivially_copyable_v<float16>);
static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>);

}  // namespace normgrad
