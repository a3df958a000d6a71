// kernels/isa/avx512.cc — the instruction set "avx512": AVX-512F intrinsics (16
// floats per vector, hardware half conversions). Only called after a
// run-time check of the CPU (AVX-512 F, BW, DQ and VL, which every AVX-512
// processor since Skylake-SP has: the vector unit's loops use 8- and 16-bit
// lanes); it never uses fused multiply-add, so its bits
// equal the scalar fallback's. The target pragma follows the shared headers,
// as in avx2.cc.
#include "kernels/isa/avx512_intrinsics.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

// The kernels, compiled for the instruction set; the entry that lists them
// (isa_entry_inl.h) and the CPU check below are baseline code.
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma,f16c")
#include "kernels/isa/avx512_ops_inl.h"
#include "kernels/isa/isa_inl.h"
#include "kernels/vector/reduce_inl.h"
#pragma GCC pop_options

#include "kernels/isa/isa_entry_inl.h"
#include "kernels/vector/reduce_entry_inl.h"

namespace normgrad::kernels {
namespace {

bool CpuHasAvx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c");
}

VectorKernels Avx512Vector() {
  VectorKernels k = WithReductions<Avx512F16>(Avx512VectorKernels());
  if (CpuHasAvx512Fp16()) k.half_tree_sums = Avx512Fp16HalfTreeSums;
  return k;
}

}  // namespace

bool CpuHasAvx512Fp16() {
  return __builtin_cpu_supports("avx512fp16") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq");
}

const Isa& Avx512Isa() {
  static const Isa isa = MakeIsa<Avx512F32, Avx512F16, Avx512BF16>(
      "avx512", CpuHasAvx512, Avx512LayerNormKernels(), Avx512RmsNormKernels(), Avx512Vector());
  return isa;
}

}  // namespace normgrad::kernels
