// kernels/isa/neon.cc — the instruction set "neon": 64-bit Arm Advanced SIMD
// (4 floats per vector, the base architecture's half conversions), on every
// aarch64 CPU. It never uses fused multiply-add, so its bits equal the
// scalar fallback's.
#include <arm_neon.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/isa/isa_entry_inl.h"
#include "kernels/isa/neon_ops_inl.h"
#include "kernels/kernels.h"
#include "kernels/vector/reduce_entry_inl.h"

namespace normgrad::kernels {
namespace {

bool Always() { return true; }

}  // namespace

const Isa& NeonIsa() {
  static const Isa isa = MakeIsa<NeonF32, NeonF16, NeonBF16>(
      "neon", Always, NeonLayerNormKernels(), NeonRmsNormKernels(),
      WithReductions<NeonF16>(NeonVectorKernels()));
  return isa;
}

}  // namespace normgrad::kernels
