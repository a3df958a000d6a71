// kernels/rms_norm_avx512_bf16.cc — the bfloat16 RMS-norm kernels of the
// instruction set "avx512" on CPUs that also have AVX512-BF16 (with BW and
// DQ): rms_norm_avx512.cc's kernels, their float → bfloat16 narrowing done
// by vcvtneps2bf16 (one instruction where BF16Convert512::Narrow takes
// nine). The instruction rounds to nearest even and quiets a NaN exactly
// as that narrowing does, but reads subnormal inputs as zero; a vector with
// a subnormal lane (vfpclassps) takes BF16Convert512::Narrow instead, so the
// bits are the same. Chosen by Avx512RmsNormKernels() after a run-time CPU
// check (CpuHasAvx512Bf16), in its own file because the whole kernel must be
// compiled for the larger instruction set for the narrowing to be inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512bf16,avx2,fma,f16c")
#include "kernels/avx512_ops_inl.h"
#include "kernels/rms_norm_avx512_inl.h"
#include "kernels/rms_norm_inl.h"

namespace normgrad::kernels {
namespace {

struct BF16NativeConvert512 : BF16Convert512 {
  static __m256i Narrow(__m512 v) {
    constexpr int kSubnormal = 0x20;  // vfpclassps category: denormal
    if (_mm512_fpclass_ps_mask(v, kSubnormal) != 0) return BF16Convert512::Narrow(v);
    return reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(v));
  }
};

using Avx512BF16Native = Avx512Half16<BF16NativeConvert512>;

}  // namespace

void Avx512Bf16RmsForward(const RmsNormForwardArgs& a) {
  RmsForwardKernel<RmsOps<Avx512BF16Native>>(a);
}

void Avx512Bf16RmsBackward(const RmsNormBackwardArgs& a) {
  RmsBackwardKernel<RmsOps<Avx512BF16Native>>(a);
}

}  // namespace normgrad::kernels
#pragma GCC pop_options
