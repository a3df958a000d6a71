// engine/write_output.h — a float result written in the output type: copied
// for float outputs, narrowed (round half to even) for 16-bit ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// Writes the `n` floats of `src` to `dst` as `out`, with the instruction
/// set's conversions.
inline void WriteOutput(const kernels::Isa& isa, DType out, const float* src, size_t n, void* dst) {
  switch (out) {
    case DType::kF32:
      std::memcpy(dst, src, n * sizeof(float));
      break;
    case DType::kF16:
      isa.narrow_f16(src, static_cast<uint16_t*>(dst), n);
      break;
    case DType::kBF16:
      isa.narrow_bf16(src, static_cast<uint16_t*>(dst), n);
      break;
  }
}

/// Element `i` of an output array of `out`.
inline void* OutputAt(void* base, DType out, size_t i) {
  return static_cast<unsigned char*>(base) + i * SizeOf(out);
}

}  // namespace normgrad::engine
