// lib/transform/fill.h — the kernel-side Fill API of Ascend C's Tensor
// transform family (the contract: docs/transform.md): `size` elements of a
// GlobalTensor set to `value`, for clearing a workspace or an output before
// the kernel's pipe carves the unified buffer.
#pragma once

#include "normgrad_ascendc/lib/transform/transform_call.h"
#include "normgrad_ascendc/runtime/global_tensor.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Fill(GlobalTensor<T>& gmWorkspaceAddr,
                            const uint64_t size, const T value,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsTransformElement<T>,
                "Fill: T must be uint8_t, int8_t, uint16_t, int16_t, "
                "bfloat16_t, half, uint32_t, int32_t, float, uint64_t or "
                "int64_t");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunFill(normgrad_ascendc::TransformElemOf<T>(),
                            gmWorkspaceAddr.GetPhyAddr(),
                            gmWorkspaceAddr.base(), gmWorkspaceAddr.sized(),
                            gmWorkspaceAddr.GetSize(), size, &value);
}

}  // namespace AscendC
