// gm_store.h — the two byte movers under every data-movement API of the
// emulated core. CopyBytes moves bytes whose checks have passed (data_copy.cc);
// StoreToGm is the one way kernel data reaches global memory (DataCopy and
// DataCopyPad to GM, GlobalTensor::SetValue), so that the block's atomic mode
// (SetAtomicAdd and the like) applies to every such write (gm_store.cc).
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

/// Copies `bytes` from src to dst; the ranges may overlap.
void CopyBytes(uint8_t* dst, const uint8_t* src, uint64_t bytes);

/// Writes `bytes` of kernel data at src to global memory at dst, under the
/// current core's atomic mode.
void StoreToGm(uint8_t* dst, const uint8_t* src, uint64_t bytes);

}  // namespace normgrad_ascendc
