// normgrad_ascendc/cube/cube_memory.h — the memories of an emulated cube
// core (AIC) and their capacities per product profile (docs/cube.md,
// "Memories").
//
//   memory          positions      a2 (Atlas A2/A3)  950       alignment
//   L1              A1, B1, C1     512 KiB           512 KiB   32 bytes
//   L0A             A2             64 KiB            64 KiB    512 bytes
//   L0B             B2             64 KiB            64 KiB    512 bytes
//   L0C             CO1            128 KiB           256 KiB   64 bytes
//   bias table      C2             1 KiB             4 KiB     64 bytes
//   fixpipe buffer  C2PIPE2GM      2 KiB             4 KiB     128 bytes
//
// The 310p profile has no separate cube core: it reports 0 and refuses cube
// positions. On the 950, L0A holds A as Nz fractals instead of Zz
// (docs/cube.md, "The Ascend 950"). A core becomes a cube core when it runs a
// kernel declared __cube__ or one that states
// KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); a cube core has no unified
// buffer and a vector core no cube memories: a TPipe, a LocalTensor or an
// instruction that reaches the other kind's memory is a KernelError.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

/// The bytes of `memory` on `profile`'s cube core; 0 where there is none.
constexpr uint32_t CubeMemoryBytes(Profile profile, CubeMemory memory) {
  if (profile == Profile::k310P) return 0;
  const bool p950 = profile == Profile::k950;
  switch (memory) {
    case CubeMemory::kL1:
      return 512 * 1024;
    case CubeMemory::kL0A:
    case CubeMemory::kL0B:
      return 64 * 1024;
    case CubeMemory::kL0C:
      return (p950 ? 256 : 128) * 1024;
    case CubeMemory::kBiasTable:
      return (p950 ? 4 : 1) * 1024;
    case CubeMemory::kFixpipe:
      return (p950 ? 4 : 2) * 1024;
  }
  return 0;
}

/// The largest size of `memory` over the profiles: what a core reserves.
constexpr uint32_t MaxCubeMemoryBytes(CubeMemory memory) {
  const uint32_t a2 = CubeMemoryBytes(Profile::kA2, memory);
  const uint32_t p950 = CubeMemoryBytes(Profile::k950, memory);
  return a2 > p950 ? a2 : p950;
}

/// The alignment a tensor's start in `memory` must have, in bytes.
constexpr uint32_t CubeMemoryAlignment(CubeMemory memory) {
  switch (memory) {
    case CubeMemory::kL1:
      return 32;
    case CubeMemory::kL0A:
    case CubeMemory::kL0B:
      return 512;
    case CubeMemory::kL0C:
    case CubeMemory::kBiasTable:
      return 64;
    case CubeMemory::kFixpipe:
      return 128;
  }
  return 32;
}

/// The rule for a tensor at a cube position of the current core: a cube
/// core, an emulated memory, aligned and inside it. `api` names the call in
/// messages.
void CheckCubePlacement(const char* api, const char* type_name,
                        AscendC::TPosition position, uint32_t addr,
                        uint64_t bytes);

struct TensorView;

/// The rule for the LocalTensor end of a DataCopy between GM and a cube
/// memory: live, at an L1 position (A1, B1, C1), 32-byte aligned.
void CheckL1CopyEnd(const char* api, const char* which, const TensorView& end);

}  // namespace normgrad_ascendc
