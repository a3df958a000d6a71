// normgrad_ascendc/cube/cube_mmad_modes.h — Mmad's mode registers for Atlas
// A2/A3 (docs/cube.md, "Mmad modes"): SetHF32Mode and SetHF32TransMode (float
// inputs rounded to HF32 before the products; the rule is in
// docs/numerics.md, "Cube: Mmad") and SetMMColumnMajor / SetMMRowMajor (the
// order the cube walks the output, which changes no value on the CPU). The
// modes are the core's; a block starts with HF32 off, NEAREST_EVEN.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"

namespace AscendC {

/// Whether Mmad rounds float inputs to HF32.
enum class HF32Mode : uint8_t {
  DISABLE = 0,
  ENABLE = 1,
};

/// How Mmad rounds a float to HF32: to nearest with ties to even, or to
/// nearest with ties away from zero.
enum class HF32TransMode : uint8_t {
  NEAREST_EVEN = 0,
  NEAREST_ZERO = 1,
};

}  // namespace AscendC

namespace normgrad_ascendc {

void RunSetHF32Mode(AscendC::HF32Mode mode);
void RunSetHF32TransMode(AscendC::HF32TransMode mode);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Turns the rounding of Mmad's float inputs to HF32 on or off.
inline void SetHF32Mode(HF32Mode mode, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetHF32Mode(mode);
}

/// Chooses how a float is rounded to HF32.
inline void SetHF32TransMode(HF32TransMode mode,
                             normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetHF32TransMode(mode);
}

/// The cube walks the output along M first. Every C value is computed on its
/// own and lands at the same L0C place either way: nothing changes on the
/// CPU.
inline void SetMMColumnMajor() {}

/// The cube walks the output along N first (as SetMMColumnMajor: nothing
/// changes on the CPU).
inline void SetMMRowMajor() {}

}  // namespace AscendC
