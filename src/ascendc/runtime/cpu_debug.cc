// cpu_debug.cc — GmAlloc, GmFree and SetKernelMode of the CPU-debug launch
// (normgrad_ascendc/runtime/cpu_debug.h). GmAlloc's blocks are registered so
// that kernels' accesses are checked against them (gm_registry.h).
#include "normgrad_ascendc/runtime/cpu_debug.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ascendc/runtime/gm_registry.h"

namespace AscendC {

void SetKernelMode(KernelMode mode) { static_cast<void>(mode); }

void* GmAlloc(size_t bytes) {
  const size_t rounded = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
  void* p = rounded >= bytes ? std::aligned_alloc(64, rounded) : nullptr;
  if (p == nullptr) {
    std::fprintf(stderr, "normgrad: GmAlloc: cannot allocate %zu bytes\n",
                 bytes);
    std::exit(1);
  }
  std::memset(p, 0, rounded);
  normgrad_ascendc::RegisterGmBlock(p, bytes,
                                    normgrad_ascendc::GmOwner::kGmAlloc);
  return p;
}

void GmFree(void* ptr) {
  if (ptr == nullptr) return;
  normgrad_ascendc::ForgetGmBlock(ptr);
  std::free(ptr);
}

}  // namespace AscendC
