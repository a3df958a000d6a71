// normgrad_ascendc/runtime/ctrl_spr.h — the core's CTRL register
// (docs/runtime.md, "Control register and saturation"): SetCtrlSpr,
// GetCtrlSpr and ResetCtrlSpr, and the saturation flags of Atlas A2/A3
// (SetSaturationFlag, GetSaturationFlag), which are two of its bits.
//
// Each emulated core holds a 64-bit CTRL register (Core::ctrl), set to the
// profile's default when a block starts: CTRL[48] = 1 on Atlas A2/A3 (the
// INF/NAN mode, docs/decisions.md), CTRL[60] = 1 on the 950, every other bit
// 0. On Atlas A2/A3 two bits change results: CTRL[48] = 0 (the FLOAT
// saturation mode) saturates the half and bfloat16_t results of the vector
// instructions (vector_unit.cc) and the float results of the cube's Mmad and
// Fixpipe (cube_ops.cc), and CTRL[59] = 1 (the CAST mode turned off)
// makes Cast keep the low bits of an integer result that overflows
// (vector_convert.cc). The other fields are stored and read back only
// (atomic modes are set with SetAtomicAdd and the like, atomic.h; the 950's
// saturation is that profile's own fixed narrowing rule).
//
// Set and Reset accept the bit ranges the documentation lists per product:
// CTRL[48] on Atlas A2/A3; on the 950 CTRL[8:6], CTRL[10:9], CTRL[45] (Set
// only), CTRL[48], CTRL[50], CTRL[53], CTRL[59] and CTRL[60]; the Atlas
// inference series has no such API. Any other range, or a value wider than
// its range, is a KernelError naming the call, the range and the rule. The
// bit indices are checked when the program compiles (0 … 63, start <= end).
#pragma once

#include <atomic>
#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace AscendC {

/// What SetSaturationFlag and GetSaturationFlag set or read: FLOAT, the
/// half and bfloat16_t results of computations and conversions (CTRL[48]);
/// CAST, the integer results of conversions that overflow (CTRL[59]).
enum class SaturationMode : uint8_t { FLOAT, CAST };

}  // namespace AscendC

namespace normgrad_ascendc {

/// CTRL's value when a block starts on `profile`.
uint64_t DefaultCtrl(Profile profile);

/// Set by every write of some core's CTRL register (SetCtrlSpr,
/// ResetCtrlSpr, SetSaturationFlag, asc_set_ctrl): until then every core
/// holds its default, and the vector unit's reads below cost one relaxed
/// load.
extern std::atomic<bool> g_ctrl_written;
inline void NoteCtrlWritten() {
  g_ctrl_written.store(true, std::memory_order_relaxed);
}

/// The current core's modes as the Atlas A2/A3 vector unit obeys them
/// (false on the other profiles and while CTRL holds its default).
bool FloatSaturationOnCore();
bool CastTruncatesOnCore();
/// Whether half and bfloat16_t results saturate: ±inf to ±MAX, NaN to 0.
inline bool FloatSaturationOn() {
  return g_ctrl_written.load(std::memory_order_relaxed) &&
         FloatSaturationOnCore();
}
/// Whether Cast keeps the low bits of an overflowing integer result.
inline bool CastTruncates() {
  return g_ctrl_written.load(std::memory_order_relaxed) &&
         CastTruncatesOnCore();
}

/// The FLOAT mode's rule, the one place it is written: each of n half (or,
/// with `bfloat16`, bfloat16_t) values at `data` that is ±inf becomes the
/// type's ±MAX and each NaN becomes +0.
void SaturateFloat16(bool bfloat16, void* data, uint64_t n);
/// The same rule for float values (the cube's results: Mmad into L0C and
/// Fixpipe's float outputs): ±inf to ±FLT_MAX, NaN to +0.
void SaturateFloat32(float* data, uint64_t n);

/// AscendCUtils::SetOverflow(value): CTRL[48] = (value != 0), the FLOAT
/// saturation mode's bit, as the Mmad and Fixpipe pages use it; no effect on
/// the Atlas inference series, which has no such bit.
void SetOverflowImpl(uint64_t value);

/// The untyped parts of SetSaturationFlag and GetSaturationFlag
/// (ctrl_spr.cc): on profiles other than Atlas A2/A3 a KernelError naming
/// `api` and the profile.
void SetSaturationFlagImpl(const char* api, AscendC::SaturationMode mode,
                           bool enable);
bool GetSaturationFlagImpl(const char* api, AscendC::SaturationMode mode);

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

/// Turns saturation mode `mode` on or off (Atlas A2/A3): FLOAT writes
/// CTRL[48] = !enableSat, CAST writes CTRL[59] = !enableSat.
template <SaturationMode mode>
inline void SetSaturationFlag(bool enableSat,
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetSaturationFlagImpl(mode == SaturationMode::FLOAT
                                              ? "SetSaturationFlag<FLOAT>"
                                              : "SetSaturationFlag<CAST>",
                                          mode, enableSat);
}

/// Whether saturation mode `mode` is on (Atlas A2/A3).
template <SaturationMode mode>
inline bool GetSaturationFlag(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::GetSaturationFlagImpl(
      mode == SaturationMode::FLOAT ? "GetSaturationFlag<FLOAT>"
                                    : "GetSaturationFlag<CAST>",
      mode);
}

}  // namespace AscendC
