// kernels/vector_avx512.cc — the emulated vector unit's loops (vector_inl.h) compiled
// for AVX-512 (16 floats per vector). Only called after the run-time CPU check of avx512.cc.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma,f16c")
#include "kernels/vector_inl.h"
#pragma GCC pop_options

#include "kernels/vector_entry_inl.h"

namespace normgrad::kernels {

VectorKernels Avx512VectorKernels() { return MakeVectorKernels(); }

}  // namespace normgrad::kernels
