// kernels/layer_norm/layer_norm_avx2.cc — the layer-norm kernels of the instruction set
// "avx2": layer_norm_inl.h over AVX2 + F16C intrinsics (8 floats per vector,
// hardware half conversions, non-temporal stores). Only called after the
// run-time CPU check of avx2.cc; fused multiply-adds only where layer_norm_inl.h
// asks for them (hardware FMA, as the scalar kernels' std::fma), so its bits
// equal the scalar kernels'. The target pragma follows the shared headers, as in
// avx2.cc; the Ops policies are avx2_ops_inl.h's.
#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

// The kernels, compiled for the instruction set; the table that lists them
// below is baseline code (see isa_entry_inl.h).
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#include "kernels/isa/avx2_ops_inl.h"
#include "kernels/layer_norm/layer_norm_inl.h"
#pragma GCC pop_options

#include "kernels/isa/row_norms_entry_inl.h"

namespace normgrad::kernels {

LayerNormKernels Avx2LayerNormKernels() {
  return RowNormKernelsOf<LayerNormEntries, Avx2F32, Avx2F16, Avx2BF16>();
}

}  // namespace normgrad::kernels
