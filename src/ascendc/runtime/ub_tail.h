// ub_tail.h — bytes at the end of a vector core's unified buffer that an API
// keeps for the rest of the block (internal to src/ascendc): the cube
// resource groups' messages (cube/cube_res_group.cc). The pipe hands out the
// UB up to the kept bytes (pipe.cc), and a block starts with none kept
// (Core::SetBlock).
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

class Core;

/// Keeps the last `bytes` of `core`'s UB for `api` (the larger of this and
/// an earlier request stays); a KernelError when the core's TPipe already
/// handed out some of them.
void KeepUbTail(Core& core, uint32_t bytes, const char* api);

/// The bytes kept at the end of `core`'s UB (0: none), and for whom.
uint32_t UbTailKept(const Core& core);
const char* UbTailKeeper(const Core& core);

/// Keeps nothing any more (a block starts).
void ClearUbTail(const Core& core);

}  // namespace normgrad_ascendc
