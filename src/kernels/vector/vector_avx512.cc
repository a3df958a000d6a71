// kernels/vector/vector_avx512.cc — the emulated vector unit's loops (vector_inl.h) compiled
// for AVX-512 (16 floats, 32 halves or 64 bytes per vector: F, BW, DQ, VL). Only called
// after the run-time CPU check of avx512.cc.
#include "kernels/isa/avx512_intrinsics.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c")
#include "kernels/isa/avx512_ops_inl.h"

// Masked operations: GCC vectorizes a step taken in some lanes only
// (vector_cast_inl.h's RoundToIntegral). The target pragma defines no macro.
#define NORMGRAD_VECTOR_MASKED 1
#include "kernels/vector/vector_inl.h"
#undef NORMGRAD_VECTOR_MASKED
#pragma GCC pop_options

#include "kernels/vector/vector_entry_inl.h"

namespace normgrad::kernels {

VectorKernels Avx512VectorKernels() { return MakeVectorKernels<Avx512F16>(); }

}  // namespace normgrad::kernels
