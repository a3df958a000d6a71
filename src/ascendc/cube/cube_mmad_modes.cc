// cube_mmad_modes.cc — Mmad's mode registers (normgrad_ascendc/cube/
// cube_mmad_modes.h) and the HF32 rounding (hf32_round.h), which
// cube_ops.cc's Mmad applies to float inputs.
#include "ascendc/cube/hf32_round.h"

#include <cstdint>
#include <cstring>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_mmad_modes.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

float RoundToHf32(float x, bool ties_away) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  if ((bits & 0x7f800000u) == 0x7f800000u) return x;  // inf, NaN
  constexpr uint32_t kDropped = 23 - kHf32FractionBits;
  constexpr uint32_t kUnit = 1u << kDropped;  // HF32's last place
  const uint32_t rest = bits & (kUnit - 1);
  bits -= rest;
  // The magnitude rounds; a carry runs into the exponent (to inf at most).
  const uint32_t half = kUnit / 2;
  if (rest > half || (rest == half && (ties_away || (bits & kUnit) != 0))) {
    bits += kUnit;
  }
  float rounded;
  std::memcpy(&rounded, &bits, 4);
  return rounded;
}

void RunSetHF32Mode(AscendC::HF32Mode mode) {
  const auto value = static_cast<uint32_t>(mode);
  CheckRange("SetHF32Mode", "mode", value, 0, 1);
  CurrentCore().mmad_modes().hf32 = value == 1;
}

void RunSetHF32TransMode(AscendC::HF32TransMode mode) {
  const auto value = static_cast<uint32_t>(mode);
  CheckRange("SetHF32TransMode", "mode", value, 0, 1);
  CurrentCore().mmad_modes().hf32_trans = static_cast<uint8_t>(value);
}

}  // namespace normgrad_ascendc
