// kernels/vector/vector_avx2.cc — the emulated vector unit's loops (vector_inl.h) compiled
// for AVX2 (8 floats per vector). Only called after the run-time CPU check of avx2.cc.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#include "kernels/isa/avx2_ops_inl.h"
#include "kernels/vector/vector_inl.h"
#pragma GCC pop_options

#include "kernels/vector/vector_entry_inl.h"

namespace normgrad::kernels {

VectorKernels Avx2VectorKernels() { return MakeVectorKernels<Avx2F16>(); }

}  // namespace normgrad::kernels
