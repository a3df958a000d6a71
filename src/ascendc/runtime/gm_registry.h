// gm_registry.h — the registry of global-memory blocks: every block that
// aclrtMalloc, aclrtMallocHost or GmAlloc handed out, live or released, by
// start address. The ACL runtime keeps its pools in it (acl_runtime.cc) and
// GmAlloc/GmFree register theirs (cpu_debug.cc); the kernel side checks every
// global-memory access against it (CheckGmAccess): an access that starts in a
// known block must end inside it, and a released block may be read but not
// written (an access is judged by the block its tensor's memory starts in,
// so one past the end is caught too). Memory the registry does not know
// (malloc, the stack) is not checked. Thread-safe; a kernel's lookups hit a
// per-thread cache of the last block (or gap between blocks) until the registry
// changes.
#pragma once

#include <cstdint>
#include <vector>

namespace normgrad_ascendc {

/// Which allocator handed a block out.
enum class GmOwner : uint8_t { kAclrtMalloc, kAclrtMallocHost, kGmAlloc };

/// The allocator's name for messages ("aclrtMalloc").
const char* GmOwnerName(GmOwner owner);

struct GmBlock {
  uintptr_t start = 0;
  uint64_t size = 0;  ///< bytes asked for
  GmOwner owner = GmOwner::kGmAlloc;
  bool released = false;  ///< freed by the program, memory still kept
};

/// Records a block (its start must not be in another block).
void RegisterGmBlock(const void* start, uint64_t size, GmOwner owner);
/// The block whose bytes [start, start + size) contain p; false if none.
bool FindGmBlock(const void* p, GmBlock* out);
/// Marks the block starting at `start` released.
void MarkGmBlockReleased(const void* start);
/// Forgets the block starting at `start`.
void ForgetGmBlock(const void* start);
/// Forgets every block of `owner` and returns them (to free their memory).
std::vector<GmBlock> TakeGmBlocks(GmOwner owner);

/// Checks a kernel's access to global memory [p, p + bytes) by `api` (its
/// name as messages give it, e.g. "DataCopy<float> UB->GM") through a tensor
/// whose memory starts at `base` (the address SetGlobalBuffer got): if base
/// is in a known block, the range must lie inside the block's size rounded
/// up to 32 bytes (data moves in 32-byte blocks and the allocators hand out
/// whole ones), and a write must not go to a released block. Else a
/// KernelError naming the API, the range, the block and its size. A read is
/// also checked against the block's deferred atomic writes (CheckGmLoad).
void CheckGmAccess(const char* api, const void* base, const void* p,
                   uint64_t bytes, bool write);
/// Whether CheckGmAccess's range checks would pass, without a message (the
/// deferred atomic writes are not looked at).
bool GmAccessOk(const void* base, const void* p, uint64_t bytes, bool write);

}  // namespace normgrad_ascendc
