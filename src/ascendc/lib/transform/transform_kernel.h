// src/ascendc/lib/transform/transform_kernel.h — the kernel-side checks the
// Tensor transform APIs share (internal, not installed), on lib/common's
// pieces: the scratch argument, and the rule that what a call writes shares
// memory with no other operand (the pages refuse dst over src; normgrad
// applies it to every API of the family, docs/decisions.md).
#pragma once

#include <cstdint>

#include "ascendc/lib/common/advanced_api.h"

namespace normgrad_ascendc {

/// Checks the placement of a sharedTmpBuffer the call got (the APIs use no
/// scratch, so the framework scratch needs none), then that dst, `dst_bytes`
/// long, shares no memory with src (`src_bytes`) nor with the scratch.
inline void CheckTransformOperands(const char* api, const char* dst_name,
                                   const TensorView& dst, uint64_t dst_bytes,
                                   const char* src_name, const TensorView& src,
                                   uint64_t src_bytes,
                                   const TensorView* shared_tmp) {
  if (shared_tmp != nullptr) {
    CheckPlacement(api, "sharedTmpBuffer", *shared_tmp);
    const UbOperand ops[] = {
        {dst_name, &dst, dst_bytes, true},
        {src_name, &src, src_bytes, false},
        {"sharedTmpBuffer", shared_tmp, shared_tmp->bytes, true}};
    CheckOverlaps(api, ops, 3);
  } else {
    const UbOperand ops[] = {{dst_name, &dst, dst_bytes, true},
                             {src_name, &src, src_bytes, false}};
    CheckOverlaps(api, ops, 2);
  }
}

}  // namespace normgrad_ascendc
