// normgrad_ascendc/runtime/sys_var.h — the built-in variables and constants
// of kernel code (docs/program-surface.md, "System variables"): block_idx
// and block_num; g_coreType with AscendC::AIC/AIV and the ASCEND_IS_AIV /
// ASCEND_IS_AIC conditions; ASC_UB_SIZE and the cube memories' sizes; and
// GetRuntimeUBSize.
//
// block_idx and block_num are plain variables of the global namespace, one
// per host thread: whenever a block starts on a thread (Core::SetBlock,
// ScopedCore) they take its GetBlockIdx() and GetBlockNum(), so each block
// reads its own values in any expression, as an argument, in printf or in a
// template. They are meant to be read: writing one changes only what the
// writing block reads back.
//
// g_coreType follows the block's kind of core the same way: AscendC::AIC on a
// cube core (a __cube__ or KERNEL_TYPE_AIC_ONLY kernel, the cube side of a
// mixed one), AscendC::AIV on a vector core, so `if ASCEND_IS_AIC { ... }`
// picks a mixed kernel's cube part at run time (the device compiles the
// kernel once per kind of core instead). ASC_UB_SIZE is the UB of
// the profile the program was compiled for (__NPU_ARCH__: 2002 → 256 KiB,
// 3510 → 248 KiB, else 192 KiB), and ASC_L1_SIZE, ASC_L0A_SIZE,
// ASC_L0B_SIZE, ASC_L0C_SIZE and ASC_BT_SIZE are its cube memories.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"

// Defined here, inline and constant-initialized, not extern: an extern
// thread_local is reached through g++'s TLS wrapper function, which UBSan
// reports as a null reference in every program that reads the variable.
/// The block's index, as GetBlockIdx() (see the file comment).
inline thread_local int64_t block_idx = 0;
/// The launch's block count, as GetBlockNum().
inline thread_local int64_t block_num = 1;

namespace AscendC {

/// The kinds of core a kernel runs on (g_coreType).
inline constexpr int32_t AIC = 1;  ///< a cube core
inline constexpr int32_t AIV = 2;  ///< a vector core

}  // namespace AscendC

/// The kind of core running the block (see the file comment).
inline thread_local int32_t g_coreType = AscendC::AIV;
namespace AscendC {
using ::g_coreType;
}  // namespace AscendC

/// Conditions for `if ASCEND_IS_AIV { ... }`: true on vector cores (and
/// ASCEND_IS_AIC on cube cores).
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)

namespace normgrad_ascendc {

/// The profile the program was compiled for (see the file comment).
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
inline constexpr Profile kCompiledProfile = Profile::k310P;
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
inline constexpr Profile kCompiledProfile = Profile::k950;
#else
inline constexpr Profile kCompiledProfile = Profile::kA2;
#endif

}  // namespace normgrad_ascendc

/// The UB bytes of the compiled profile.
inline constexpr uint64_t ASC_UB_SIZE =
    normgrad_ascendc::kCompiledProfile == normgrad_ascendc::Profile::k310P
        ? 256 * 1024
    : normgrad_ascendc::kCompiledProfile == normgrad_ascendc::Profile::k950
        ? 248 * 1024
        : 192 * 1024;

/// The cube memories of the compiled profile, as normgrad emulates them
/// (docs/cube.md, "Memories"): 0 where it does not (the 310p and 950
/// profiles for now), as the page gives 0 for a memory a core lacks.
inline constexpr uint64_t ASC_L1_SIZE = normgrad_ascendc::CubeMemoryBytes(
    normgrad_ascendc::kCompiledProfile, normgrad_ascendc::CubeMemory::kL1);
inline constexpr uint64_t ASC_L0A_SIZE = normgrad_ascendc::CubeMemoryBytes(
    normgrad_ascendc::kCompiledProfile, normgrad_ascendc::CubeMemory::kL0A);
inline constexpr uint64_t ASC_L0B_SIZE = normgrad_ascendc::CubeMemoryBytes(
    normgrad_ascendc::kCompiledProfile, normgrad_ascendc::CubeMemory::kL0B);
inline constexpr uint64_t ASC_L0C_SIZE = normgrad_ascendc::CubeMemoryBytes(
    normgrad_ascendc::kCompiledProfile, normgrad_ascendc::CubeMemory::kL0C);
inline constexpr uint64_t ASC_BT_SIZE =
    normgrad_ascendc::CubeMemoryBytes(normgrad_ascendc::kCompiledProfile,
                                      normgrad_ascendc::CubeMemory::kBiasTable);

namespace AscendC {

/// The UB bytes of the running core: the profile's (248 KiB on the 950).
inline uint32_t GetRuntimeUBSize() {
  return normgrad_ascendc::CurrentCore().ub_size();
}

}  // namespace AscendC
