// kernels/layer_norm/layer_norm_neon.cc — the layer-norm kernels of the instruction set
// "neon": layer_norm_inl.h over 64-bit Arm Advanced SIMD (4 floats per
// vector, the base architecture's half conversions). Fused multiply-adds
// (vfmaq) only where layer_norm_inl.h asks for them, as the scalar kernels'
// std::fma, so its bits equal the scalar kernels'; the Ops policies are
// neon_ops_inl.h's.
#include <arm_neon.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/isa/neon_ops_inl.h"
#include "kernels/isa/row_norms_entry_inl.h"
#include "kernels/kernels.h"
#include "kernels/layer_norm/layer_norm_inl.h"

namespace normgrad::kernels {

LayerNormKernels NeonLayerNormKernels() {
  return RowNormKernelsOf<LayerNormEntries, NeonF32, NeonF16, NeonBF16>();
}

}  // namespace normgrad::kernels
