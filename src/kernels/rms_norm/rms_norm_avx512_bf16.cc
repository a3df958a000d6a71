// kernels/rms_norm/rms_norm_avx512_bf16.cc — the bfloat16 RMS-norm kernels of the
// instruction set "avx512" on CPUs that also have AVX512-BF16 (with BW and
// DQ): rms_norm_avx512.cc's kernels, their float → bfloat16 narrowing done
// by vcvtne2ps2bf16 (one instruction for two vectors, where
// BF16Convert512::Narrow takes nine for one) or vcvtneps2bf16. These round
// to nearest even and quiet a NaN exactly as that narrowing does, but read
// subnormal inputs as zero; vectors with a subnormal lane (vfpclassps) take
// BF16Convert512::Narrow instead, so the bits are the same. Chosen by
// Avx512RmsNormKernels() after a run-time CPU check (CpuHasAvx512Bf16), in
// its own file because the whole kernel must be compiled for the larger
// instruction set for the narrowing to be inlined.
#include "kernels/isa/avx512_intrinsics.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512bf16,avx2,fma,f16c")
#include "kernels/isa/avx512_ops_inl.h"
#include "kernels/rms_norm/rms_norm_avx512_inl.h"
#include "kernels/rms_norm/rms_norm_inl.h"

namespace normgrad::kernels {
namespace {

constexpr int kSubnormal = 0x20;  // vfpclassps category: denormal

struct BF16NativeConvert512 : BF16Convert512 {
  static __m256i Narrow(__m512 v) {
    if (_mm512_fpclass_ps_mask(v, kSubnormal) != 0) return BF16Convert512::Narrow(v);
    return reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(v));
  }
};

// Two vectors narrowed by one vcvtne2ps2bf16 (a's elements first), one
// subnormal check for both: half the conversions and checks of two Stores.
struct Avx512BF16Native : Avx512Half16<BF16NativeConvert512> {
  static constexpr size_t kStoreVecs = 2;
  static constexpr size_t kForwardSideRows = 4;  // rms_norm_inl.h, ForwardSideRows
  static __m512i Narrow2(__m512 a, __m512 b) {
    if ((_mm512_fpclass_ps_mask(a, kSubnormal) | _mm512_fpclass_ps_mask(b, kSubnormal)) != 0) {
      return _mm512_inserti64x4(_mm512_castsi256_si512(BF16Convert512::Narrow(a)),
                                BF16Convert512::Narrow(b), 1);
    }
    return reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(b, a));
  }
  static void Store2(uint16_t* p, __m512 a, __m512 b) { _mm512_storeu_si512(p, Narrow2(a, b)); }
  static void Stream2(uint16_t* p, __m512 a, __m512 b) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), Narrow2(a, b));
  }
};

}  // namespace

void Avx512Bf16RmsForward(const RmsNormForwardArgs& a) {
  RmsForwardKernel<RmsOps<Avx512BF16Native>>(a);
}

void Avx512Bf16RmsBackward(const RmsNormBackwardArgs& a) {
  RmsBackwardKernel<RmsOps<Avx512BF16Native>>(a);
}

}  // namespace normgrad::kernels
#pragma GCC pop_options
