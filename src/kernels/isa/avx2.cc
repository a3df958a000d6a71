// kernels/isa/avx2.cc — the instruction set "avx2": AVX2 + F16C intrinsics (8
// floats per vector, hardware half conversions). Only called after a run-time
// check of the CPU; it never uses fused multiply-add, so its bits equal the
// scalar fallback's.
//
// The target switch is a pragma placed after the shared headers, not a
// -mavx2 flag on the file: inline functions with external linkage from those
// headers (float16.h, <algorithm>) must be compiled for the baseline CPU, or
// the linker could keep an AVX2 copy that the scalar path then calls.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

// The kernels, compiled for the instruction set; the entry that lists them
// (isa_entry_inl.h) and the CPU check below are baseline code.
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#include "kernels/isa/avx2_ops_inl.h"
#include "kernels/isa/isa_inl.h"
#include "kernels/vector/reduce_inl.h"
#pragma GCC pop_options

#include "kernels/isa/isa_entry_inl.h"
#include "kernels/vector/reduce_entry_inl.h"

namespace normgrad::kernels {
namespace {

bool CpuHasAvx2() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c");
}

}  // namespace

const Isa& Avx2Isa() {
  static const Isa isa = MakeIsa<Avx2F32, Avx2F16, Avx2BF16>(
      "avx2", CpuHasAvx2, Avx2LayerNormKernels(), Avx2RmsNormKernels(),
      WithReductions<Avx2F16>(Avx2VectorKernels()));
  return isa;
}

}  // namespace normgrad::kernels
