// plain_loops.cc — plain_loops_inl.h compiled for the baseline and, on
// x86-64 builds with AVX-512, for AVX-512 (the target the library's
// src/kernels/vector/vector_avx512.cc uses), picked by a run-time CPU check.
#include "plain_loops.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(NORMGRAD_HAVE_AVX512)
#include <immintrin.h>
#endif

namespace plain_loops {

#define PLAIN_F16C 0
namespace baseline {
#include "plain_loops_inl.h"
}  // namespace baseline

#if defined(NORMGRAD_HAVE_AVX512)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c")
// GCC 12's own _mm512_cvtph_ps starts from an undefined vector.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#undef PLAIN_F16C
#define PLAIN_F16C 1
namespace avx512 {
#include "plain_loops_inl.h"
}  // namespace avx512
#pragma GCC pop_options
#endif

namespace {
bool HaveAvx512() {
#if defined(NORMGRAD_HAVE_AVX512)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c");
#else
  return false;
#endif
}
}  // namespace

const Fn* Best() {
#if defined(NORMGRAD_HAVE_AVX512)
  if (HaveAvx512()) return avx512::kTable;
#endif
  return baseline::kTable;
}

const char* BestName() { return HaveAvx512() ? "avx512" : "baseline"; }

}  // namespace plain_loops
