// kernels/avx2.cc — the instruction set "avx2": AVX2 + F16C intrinsics (8
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

#pragma GCC target("avx2,fma,f16c")

#include "kernels/accumulate_inl.h"
#include "kernels/avx2_ops_inl.h"

namespace normgrad::kernels {
namespace {

void Add(float* dst, const float* src, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(dst + i, _mm256_add_ps(_mm256_loadu_ps(dst + i),
                                            _mm256_loadu_ps(src + i)));
  }
  for (; i < n; ++i) dst[i] = dst[i] + src[i];
}

void WidenF16(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, Avx2F16::Load(src + i));
  for (; i < n; ++i) dst[i] = bits::HalfToFloat(src[i]);
}

void NarrowF16(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     F16Convert::Narrow(_mm256_loadu_ps(src + i)));
  }
  for (; i < n; ++i) dst[i] = bits::FloatToHalf(src[i]);
}

void WidenBF16(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, Avx2BF16::Load(src + i));
  for (; i < n; ++i) dst[i] = bits::Bfloat16ToFloat(src[i]);
}

void NarrowBF16(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     BF16Convert::Narrow(_mm256_loadu_ps(src + i)));
  }
  for (; i < n; ++i) dst[i] = bits::FloatToBfloat16(src[i]);
}

bool CpuHasAvx2() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c");
}

}  // namespace

const Isa& Avx2Isa() {
  static const Isa isa = {"avx2",
                          CpuHasAvx2,
                          AccumulateRows<Avx2F32>,
                          AccumulateRows<Avx2F16>,
                          AccumulateRows<Avx2BF16>,
                          Add,
                          WidenF16,
                          NarrowF16,
                          WidenBF16,
                          NarrowBF16,
                          Avx2LayerNormKernels()};
  return isa;
}

}  // namespace normgrad::kernels
