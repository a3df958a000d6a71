// kernels/vector/vector_neon.cc — the emulated vector unit's loops (vector_inl.h) compiled
// for Advanced SIMD, the aarch64 baseline. Only called after the run-time CPU check of neon.cc.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/isa/neon_ops_inl.h"
#include "kernels/kernels.h"
#include "kernels/vector/vector_inl.h"

#include "kernels/vector/vector_entry_inl.h"

namespace normgrad::kernels {

VectorKernels NeonVectorKernels() { return MakeVectorKernels<NeonF16>(); }

}  // namespace normgrad::kernels
