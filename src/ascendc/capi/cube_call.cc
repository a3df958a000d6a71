// cube_call.cc — the cube side of the C API's pointer mapping and messages
// (normgrad_ascendc/capi/capi_cube.h).
#include <cstdint>
#include <cstring>
#include <string>

#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

CapiCubeName::CapiCubeName(const char* api, const char* type) {
  if (type == nullptr) {
    JoinName(text, sizeof text, {api});
  } else {
    JoinName(text, sizeof text, {api, "<", type, ">"});
  }
}

void CheckCapiCubeCore(const char* api) {
  if (CurrentCore().is_cube()) return;
  Fail(
      "%s: runs on the cube unit; this kernel runs on a vector core (declare "
      "it __cube__ or KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY))",
      api);
}

TensorView CubePointerView(const char* api, const char* type, const char* which,
                           const void* p, AscendC::TPosition position) {
  const CapiCubeName name(api, type);
  CheckCapiCubeCore(name.text);
  Core& core = CurrentCore();
  const CubeMemory memory = CubeMemoryOf(position);
  const uint32_t size = CubeMemoryBytes(core.profile().profile, memory);
  const auto at = reinterpret_cast<uintptr_t>(p);
  const auto base = reinterpret_cast<uintptr_t>(core.cube_memory(memory));
  uint64_t offset = 0;
  if (at >= kCubeAddressBase && at < kCubeAddressBase + size) {
    offset = at - kCubeAddressBase;  // from asc_get_phy_buf_addr
  } else if (at >= base && at < base + size) {
    offset = at - base;  // a LocalTensor's GetPhyAddr()
  } else {
    Fail(
        "%s: %s %p is not an address of the %s; on a cube core take one "
        "from asc_get_phy_buf_addr(offset), offset 0 to %u (%u bytes on "
        "profile %s); a __cbuf__/__ca__/__cb__/__cc__ array declared in the "
        "kernel lives in host memory, not in the %s",
        name.text, which, p, CubeMemoryName(memory), size - 1, size,
        core.profile().name, CubeMemoryName(memory));
  }
  const uint32_t align = CubeMemoryAlignment(memory);
  if (offset % align != 0) {
    Fail("%s: %s is at %s byte %llu, which is not a multiple of %u bytes",
         name.text, which, CubeMemoryName(memory),
         static_cast<unsigned long long>(offset), align);
  }
  TensorView view;
  view.core = &core;
  view.offset = static_cast<uint32_t>(offset);
  view.bytes = static_cast<uint32_t>(size - offset);
  view.position = position;
  // The memory's bytes may all be written: all are zeroed after the block.
  core.TouchCube(memory, size);
  return view;
}

void RethrowAsCapi(const char* name, const KernelError& error) {
  // Fail put the call site first; it puts it back before the name.
  std::string message = error.what();
  if (const CallSite* site = CurrentCallSite(); site != nullptr) {
    const std::string prefix =
        std::string(site->file) + ":" + std::to_string(site->line) + ": ";
    if (message.compare(0, prefix.size(), prefix) == 0) {
      message.erase(0, prefix.size());
    }
  }
  Fail("%s: %s", name, message.c_str());
}

}  // namespace normgrad_ascendc
