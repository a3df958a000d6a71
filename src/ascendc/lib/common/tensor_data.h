// src/ascendc/lib/common/tensor_data.h — a tensor argument's bytes as the
// values an advanced API computes with (internal, not installed): the typed
// views of a TensorView's data, half widened to float on the way in, and the
// narrowing of float results to half as the product profile rounds them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The tensor's bytes as floats.
inline float* FloatData(const TensorView& t) {
  return reinterpret_cast<float*>(t.data());
}

/// The tensor's bytes as halves.
inline normgrad::float16* HalfData(const TensorView& t) {
  return reinterpret_cast<normgrad::float16*>(t.data());
}

/// The tensor's bytes as bfloat16_t values.
inline normgrad::bfloat16* Bfloat16Data(const TensorView& t) {
  return reinterpret_cast<normgrad::bfloat16*>(t.data());
}

/// The n elements of a half or float tensor from element `pos` as floats:
/// half widened into `widened`, float read in place.
inline const float* AsFloats(const TensorView& t, bool is_half, uint64_t pos,
                             uint64_t n, float* widened) {
  if (!is_half) return FloatData(t) + pos;
  normgrad::Widen(HalfData(t) + pos, widened, n);
  return widened;
}

/// Whether the core's profile saturates when it narrows float to half: the
/// Ascend 950 profile does (NarrowToHalf's `saturate`).
inline bool NarrowSaturates(const Core& core) {
  return core.profile().profile == Profile::k950;
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
