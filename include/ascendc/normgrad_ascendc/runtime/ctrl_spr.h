// normgrad_ascendc/runtime/ctrl_spr.h — the core's CTRL register
// (docs/program-surface.md, "Control register"): SetCtrlSpr, GetCtrlSpr and
// ResetCtrlSpr.
//
// Each emulated core holds a 64-bit CTRL register (Core::ctrl), set to the
// profile's default when a block starts: every bit 0, except CTRL[60] (the
// saturation setting applies to every instruction) on the 950 profile. The
// documented fields can be written, read back and reset; none of them
// changes what the emulated core computes (saturation modes, atomic modes
// and the hifloat8 switch are not emulated through this register: atomics
// are set with SetAtomicAdd and the like, atomic.h).
//
// Set and Reset accept the bit ranges the documentation lists per product:
// CTRL[48] on Atlas A2/A3; on the 950 CTRL[8:6], CTRL[10:9], CTRL[45] (Set
// only), CTRL[48], CTRL[50], CTRL[53], CTRL[59] and CTRL[60]; the Atlas
// inference series has no such API. Any other range, or a value wider than
// its range, is a KernelError naming the call, the range and the rule. The
// bit indices are checked when the program compiles (0 … 63, start <= end).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

/// CTRL's value when a block starts on `profile`.
uint64_t DefaultCtrl(Profile profile);

/// The untyped parts of the APIs below (ctrl_spr.cc).
void SetCtrlSprImpl(int start, int end, int64_t value);
int64_t GetCtrlSprImpl(int start, int end);
void ResetCtrlSprImpl(int start, int end);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Writes `value` into CTRL[endBit:startBit].
template <int8_t startBit, int8_t endBit>
inline void SetCtrlSpr(int64_t value, normgrad_ascendc::CallSite site = {}) {
  static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit,
                "SetCtrlSpr: the bits must satisfy 0 <= startBit <= endBit "
                "<= 63");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetCtrlSprImpl(startBit, endBit, value);
}

/// The value of CTRL[endBit:startBit].
template <int8_t startBit, int8_t endBit>
inline int64_t GetCtrlSpr(normgrad_ascendc::CallSite site = {}) {
  static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit,
                "GetCtrlSpr: the bits must satisfy 0 <= startBit <= endBit "
                "<= 63");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::GetCtrlSprImpl(startBit, endBit);
}

/// Sets CTRL[endBit:startBit] back to its default.
template <int8_t startBit, int8_t endBit>
inline void ResetCtrlSpr(normgrad_ascendc::CallSite site = {}) {
  static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit,
                "ResetCtrlSpr: the bits must satisfy 0 <= startBit <= endBit "
                "<= 63");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ResetCtrlSprImpl(startBit, endBit);
}

}  // namespace AscendC
