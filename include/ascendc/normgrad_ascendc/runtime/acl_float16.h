// normgrad_ascendc/runtime/acl_float16.h — the host's half type of the ACL
// runtime (docs/program-surface.md, "Host-side helpers"), reached through
// acl/acl.h: aclFloat16 with aclFloatToFloat16 and aclFloat16ToFloat.
//
// aclFloat16 holds the 16 bits of an IEEE 754 binary16 value. The
// conversions are exact both ways where a value fits: float → half rounds to
// nearest, ties to even, overflows to ±infinity, keeps subnormals and turns
// a NaN into a quiet NaN of the same sign; half → float is exact. They are
// normgrad's own conversions (normgrad/float16.h), so a half computed on the
// host and one computed by a kernel have the same bits.
#pragma once

#include <cstdint>

#include "normgrad/float16.h"

/// A binary16 value as its bits.
typedef uint16_t aclFloat16;

/// `value` rounded to the nearest half (ties to even).
inline aclFloat16 aclFloatToFloat16(float value) {
  return normgrad::bits::FloatToHalf(value);
}

/// The half `value` as a float (exact).
inline float aclFloat16ToFloat(aclFloat16 value) {
  return normgrad::bits::HalfToFloat(value);
}
