// hf32_round.h — the HF32 rounding Mmad applies to float inputs while
// SetHF32Mode(ENABLE) holds (cube_mmad_modes.cc; docs/numerics.md, "Cube:
// Mmad").
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

/// HF32's fraction bits on Atlas A2/A3 (float has 23).
inline constexpr uint32_t kHf32FractionBits = 11;

/// `x` rounded to HF32: to nearest, ties to even (`ties_away` false) or away
/// from zero; inf and NaN pass unchanged, a carry out of the largest finite
/// values gives inf.
float RoundToHf32(float x, bool ties_away);

}  // namespace normgrad_ascendc
