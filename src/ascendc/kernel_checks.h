// src/ascendc/kernel_checks.h — what the kernel-side normalization APIs
// share (internal, not installed): the placement check every tensor argument
// passes, and the narrowing of float results to half per product profile.
// Used by layernormgradbeta.cc and layernormgrad.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/position.h"
#include "normgrad_ascendc/tensor.h"

namespace normgrad_ascendc {

/// The unified buffer's block: addresses and lengths are multiples of it.
inline constexpr uint32_t kBlockBytes = 32;

/// Fails (KernelError naming `api` and `argument`) unless the tensor has
/// unified-buffer memory, is in VECIN, VECOUT or VECCALC, and starts at a
/// 32-byte aligned UB address.
inline void CheckPlacement(const char* api, const char* argument,
                           const TensorView& t) {
  if (t.core == nullptr) {
    Fail("%s: %s is an empty tensor (it has no unified-buffer memory)", api,
         argument);
  }
  if (!IsVectorPosition(t.position)) {
    Fail("%s: %s is in position %s; it must be VECIN, VECOUT or VECCALC", api,
         argument, PositionName(t.position));
  }
  if (t.offset % kBlockBytes != 0) {
    Fail("%s: %s UB address %u is not 32-byte aligned", api, argument,
         t.offset);
  }
}

/// Narrows n floats to half, round half to even. With `saturate` (the Ascend
/// 950 profile) a result that overflowed to ±inf, or was ±inf, becomes
/// ±65504; NaN stays NaN.
inline void NarrowToHalf(const float* src, normgrad::float16* dst, size_t n,
                         bool saturate) {
  normgrad::Narrow(src, dst, n);
  if (!saturate) return;
  for (size_t i = 0; i < n; ++i) {
    const uint16_t bits = dst[i].Bits();
    if ((bits & 0x7fffu) == 0x7c00u) {
      dst[i] = normgrad::float16::FromBits(
          static_cast<uint16_t>((bits & 0x8000u) | 0x7bffu));
    }
  }
}

}  // namespace normgrad_ascendc
