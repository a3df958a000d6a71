// normgrad_ascendc/runtime/position.h — the logical memory positions of Ascend
// C (docs/runtime.md, "Positions and tensors"): where a tensor or queue lives.
// normgrad emulates the unified buffer (UB), which holds VECIN, VECOUT and
// VECCALC, and on a cube core (AIC) the cube memories (cube/cube_memory.h):
// L1 (A1, B1, C1), L0A (A2), L0B (B2), L0C (CO1), the bias table (C2) and the
// fixpipe buffer (C2PIPE2GM).
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

/// The memories of a cube core, each addressed from its own byte 0.
enum class CubeMemory : uint8_t { kL1, kL0A, kL0B, kL0C, kBiasTable, kFixpipe };
inline constexpr uint32_t kCubeMemoryCount = 6;

/// True for the positions that live in a cube memory.
constexpr bool IsCubePosition(AscendC::TPosition position) {
  using AscendC::TPosition;
  return position == TPosition::A1 || position == TPosition::B1 ||
         position == TPosition::C1 || position == TPosition::A2 ||
         position == TPosition::B2 || position == TPosition::CO1 ||
         position == TPosition::C2 || position == TPosition::C2PIPE2GM;
}

/// The cube memory a cube position lives in (IsCubePosition).
constexpr CubeMemory CubeMemoryOf(AscendC::TPosition position) {
  using AscendC::TPosition;
  switch (position) {
    case TPosition::A2:
      return CubeMemory::kL0A;
    case TPosition::B2:
      return CubeMemory::kL0B;
    case TPosition::CO1:
      return CubeMemory::kL0C;
    case TPosition::C2:
      return CubeMemory::kBiasTable;
    case TPosition::C2PIPE2GM:
      return CubeMemory::kFixpipe;
    default:
      return CubeMemory::kL1;
  }
}

/// The memory's name for messages ("L1", "L0A", ...).
constexpr const char* CubeMemoryName(CubeMemory memory) {
  switch (memory) {
    case CubeMemory::kL1:
      return "L1";
    case CubeMemory::kL0A:
      return "L0A";
    case CubeMemory::kL0B:
      return "L0B";
    case CubeMemory::kL0C:
      return "L0C";
    case CubeMemory::kBiasTable:
      return "bias table";
    case CubeMemory::kFixpipe:
      return "fixpipe buffer";
  }
  return "(invalid)";
}

}  // namespace normgrad_ascendc
