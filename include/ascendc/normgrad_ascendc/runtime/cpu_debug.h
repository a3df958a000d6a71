// normgrad_ascendc/runtime/cpu_debug.h — the older CPU-debug way to run a
// kernel (docs/runtime.md, "Blocks and launch"): ICPU_RUN_KF, GmAlloc, GmFree
// and SetKernelMode, as programs written for the vendor's CPU debug library use
// them:
//
//   uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
//   AscendC::SetKernelMode(KernelMode::AIV_MODE);
//   ICPU_RUN_KF(add_custom, 8, x, y, z);
//   AscendC::GmFree((void*)x);
//
// ICPU_RUN_KF(func, numBlocks, args...) launches like func<<<numBlocks, 0,
// nullptr>>>(args...) (launch.h), with "func" as the kernel's name in
// messages; it needs at least one kernel argument.
#pragma once

#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/runtime/launch.h"

namespace AscendC {

/// The core types a CPU-debug launch can emulate. normgrad emulates vector
/// cores whatever is set.
enum class KernelMode {
  MIX_MODE,
  AIC_MODE,
  AIV_MODE,
};

/// Accepted for compatibility; has no effect.
void SetKernelMode(KernelMode mode);

/// `bytes` of zeroed "global memory" (host memory), 64-byte aligned; never
/// null (an allocation failure is reported on stderr and exits with status
/// 1). GmAlloc(0) returns a valid pointer too.
void* GmAlloc(size_t bytes);

/// Frees memory from GmAlloc (null is ignored).
void GmFree(void* ptr);

}  // namespace AscendC

/// Programs write KernelMode::AIV_MODE without the namespace.
using AscendC::KernelMode;

/// Runs `func(args...)` on `numBlocks` emulated cores (launch.h).
#define ICPU_RUN_KF(func, numBlocks, ...)                                \
  ::normgrad_ascendc::LaunchKernel(#func, (numBlocks), 0, nullptr, func, \
                                   __VA_ARGS__)
