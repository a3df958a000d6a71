// cube_memory.cc — which kind of core a block runs on (a vector core or a
// cube core) and the placement rules of the cube memories
// (normgrad_ascendc/cube/cube_memory.h).
#include "normgrad_ascendc/cube/cube_memory.h"

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/launch.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

void SetCubeCore(bool cube) {
  Core& core = CurrentCore();
  if (core.is_cube() == cube) return;
  if (core.pipe() != nullptr) {
    Fail(
        "KERNEL_TASK_TYPE_DEFAULT: the core already has a TPipe as a %s "
        "core; state the kernel type before creating the TPipe",
        core.is_cube() ? "cube" : "vector");
  }
  core.set_cube(cube);
}

void DeclareKernelType(int type) {
  // In a mixed launch the launcher chose each core's kind.
  const bool mixed = CurrentCore().role().mixed;
  switch (type) {
    case KERNEL_TYPE_AIC_ONLY:
    case KERNEL_TYPE_MIX_AIC_1_0:
      if (!mixed) SetCubeCore(true);
      return;
    case KERNEL_TYPE_AIV_ONLY:
    case KERNEL_TYPE_MIX_AIV_1_0:
      if (!mixed) SetCubeCore(false);
      return;
    case KERNEL_TYPE_MIX_AIC_1_1:
      DeclareMixedKernel(1);
      return;
    case KERNEL_TYPE_MIX_AIC_1_2:
      DeclareMixedKernel(2);
      return;
    default:
      return;  // the types of products whose AI Core holds both units
  }
}

void CheckCubePlacement(const char* api, const char* type_name,
                        AscendC::TPosition position, uint32_t addr,
                        uint64_t bytes) {
  Core& core = CurrentCore();
  const CubeMemory memory = CubeMemoryOf(position);
  const char* name = CubeMemoryName(memory);
  if (!core.is_cube()) {
    Fail(
        "%s<%s>: position %s is in the cube core's %s; this kernel runs on a "
        "vector core (declare it __cube__ or "
        "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY))",
        api, type_name, PositionName(position), name);
  }
  const uint32_t size = CubeMemoryBytes(core.profile().profile, memory);
  if (size == 0) {
    Fail("%s<%s>: position %s (%s) is not emulated on profile %s", api,
         type_name, PositionName(position), name, core.profile().name);
  }
  const uint32_t align = CubeMemoryAlignment(memory);
  if (addr % align != 0) {
    Fail("%s<%s>: addr %u is not a multiple of %u bytes (%s addresses)", api,
         type_name, addr, align, name);
  }
  if (uint64_t{addr} + bytes > size) {
    Fail(
        "%s<%s>: %llu bytes at addr %u run past the end of the %s (%u bytes, "
        "profile %s)",
        api, type_name, static_cast<unsigned long long>(bytes), addr, name,
        size, core.profile().name);
  }
  core.cube_memory(memory);
  core.TouchCube(memory, static_cast<uint32_t>(addr + bytes));
}

void CheckL1CopyEnd(const char* api, const char* which, const TensorView& end) {
  end.Check(api);
  if (CubeMemoryOf(end.position) != CubeMemory::kL1) {
    Fail(
        "%s: %s LocalTensor is at position %s (%s); DataCopy moves between "
        "GM and L1 (A1, B1, C1) only: LoadData fills L0A/L0B and Fixpipe "
        "empties L0C",
        api, which, PositionName(end.position),
        CubeMemoryName(CubeMemoryOf(end.position)));
  }
  if (end.offset % 32 != 0) {
    Fail(
        "%s: %s LocalTensor starts at L1 offset %u, which is not 32-byte "
        "aligned (L1 addresses must be multiples of 32)",
        api, which, end.offset);
  }
}

}  // namespace normgrad_ascendc
