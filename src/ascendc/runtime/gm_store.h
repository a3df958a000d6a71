// gm_store.h — the two byte movers under every data-movement API of the
// emulated core. CopyBytes moves bytes whose checks have passed (data_copy.cc);
// StoreToGm is the one way kernel data reaches global memory (DataCopy and
// DataCopyPad to GM, GlobalTensor::SetValue), so that the block's atomic mode
// (SetAtomicAdd and the like) applies to every such write (gm_store.cc);
// CheckGmLoad guards reads against deferred atomic writes.
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

/// Copies `bytes` from src to dst; the ranges may overlap.
void CopyBytes(uint8_t* dst, const uint8_t* src, uint64_t bytes);

/// Writes `bytes` of kernel data at src to global memory at dst, under the
/// current block's atomic mode (atomic.h says when such writes apply), for
/// `api` (as messages name it; the race check logs the write with it).
void StoreToGm(const char* api, uint8_t* dst, const uint8_t* src,
               uint64_t bytes);

/// A read of `bytes` of global memory at src by `api` in the current block: a
/// KernelError when it covers bytes of the block's atomic writes that are
/// still deferred (they would read stale data). Every kernel read of GM calls
/// it before copying (through CheckGmAccess, gm_registry.h).
void CheckGmLoad(const char* api, const uint8_t* src, uint64_t bytes);
/// Whether CheckGmLoad would pass, without a message.
bool GmLoadOk(const uint8_t* src, uint64_t bytes);

}  // namespace normgrad_ascendc
