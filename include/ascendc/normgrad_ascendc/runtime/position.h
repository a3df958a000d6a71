// normgrad_ascendc/runtime/position.h — the logical memory positions of Ascend
// C (docs/runtime.md, "Positions and tensors"): where a tensor or queue lives.
// normgrad emulates the unified buffer (UB), which holds VECIN, VECOUT and
// VECCALC.
#pragma once

#include <cstdint>

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
  LCM = VECCALC,
  SHM = SPM,
};

using QuePosition = TPosition;

}  // namespace AscendC

namespace normgrad_ascendc {

/// The enumerator's name ("VECIN"), for messages.
constexpr const char* PositionName(AscendC::TPosition position) {
  using AscendC::TPosition;
  switch (position) {
    case TPosition::GM:
      return "GM";
    case TPosition::A1:
      return "A1";
    case TPosition::A2:
      return "A2";
    case TPosition::B1:
      return "B1";
    case TPosition::B2:
      return "B2";
    case TPosition::C1:
      return "C1";
    case TPosition::C2:
      return "C2";
    case TPosition::CO1:
      return "CO1";
    case TPosition::CO2:
      return "CO2";
    case TPosition::VECIN:
      return "VECIN";
    case TPosition::VECOUT:
      return "VECOUT";
    case TPosition::VECCALC:
      return "VECCALC";
    case TPosition::SPM:
      return "SPM";
    case TPosition::TSCM:
      return "TSCM";
    case TPosition::C2PIPE2GM:
      return "C2PIPE2GM";
    case TPosition::C2PIPE2LOCAL:
      return "C2PIPE2LOCAL";
    case TPosition::MAX:
      return "MAX";
  }
  return "(invalid)";
}

/// True for the positions that live in the unified buffer: VECIN, VECOUT and
/// VECCALC (alias LCM).
constexpr bool IsVectorPosition(AscendC::TPosition position) {
  return position == AscendC::TPosition::VECIN ||
         position == AscendC::TPosition::VECOUT ||
         position == AscendC::TPosition::VECCALC;
}

}  // namespace normgrad_ascendc
