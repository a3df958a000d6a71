// kernels/rms_norm/rms_norm_avx512.cc — the RMS-norm kernels of the instruction
// set "avx512": rms_norm_inl.h over AVX-512F intrinsics (16 floats per
// vector, hardware half conversions, non-temporal stores). Only called after
// the run-time CPU check of avx512.cc; fused multiply-adds only where
// rms_norm_inl.h asks for them (hardware FMA, as the scalar kernels' std::fma),
// so its bits equal the scalar kernels'. The target pragma follows the shared headers,
// as in avx2.cc; the Ops policies are avx512_ops_inl.h's, with RmsOps
// (rms_norm_avx512_inl.h) adding what finishes 16 short rows at once in
// vectors. On CPUs with AVX512-BF16 the bfloat16 kernels are
// rms_norm_avx512_bf16.cc's, which narrow with it (the same bits).
#include "kernels/isa/avx512_intrinsics.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

// The kernels, compiled for the instruction set; the table that lists them
// below is baseline code (see isa_entry_inl.h).
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma,f16c")
#include "kernels/isa/avx512_ops_inl.h"
#include "kernels/rms_norm/rms_norm_avx512_inl.h"
#include "kernels/rms_norm/rms_norm_inl.h"
#pragma GCC pop_options

#include "kernels/isa/row_norms_entry_inl.h"

namespace normgrad::kernels {

RmsNormKernels Avx512RmsNormKernels(bool native_bf16) {
  RmsNormKernels k =
      RowNormKernelsOf<RmsNormEntries, RmsOps<Avx512F32>, RmsOps<Avx512F16>, RmsOps<Avx512BF16>>();
  if (native_bf16) {
    k.forward_bf16 = Avx512Bf16RmsForward;
    k.backward_bf16 = Avx512Bf16RmsBackward;
  }
  return k;
}

bool CpuHasAvx512Bf16() {
  return __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq");
}

RmsNormKernels Avx512RmsNormKernels() { return Avx512RmsNormKernels(CpuHasAvx512Bf16()); }

}  // namespace normgrad::kernels
