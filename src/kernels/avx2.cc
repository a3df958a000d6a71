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

namespace normgrad::kernels {
namespace {

struct Avx2F32 {
  using In = float;
  using Vec = __m256;
  static constexpr size_t kLanes = 8;
  static float ToFloat(float v) { return v; }
  static Vec Load(const float* p) { return _mm256_loadu_ps(p); }
  static Vec LoadF32(const float* p) { return _mm256_loadu_ps(p); }
  static void StoreF32(float* p, Vec v) { _mm256_storeu_ps(p, v); }
  static Vec Add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
  static Vec Mul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
};

struct Avx2F16 : Avx2F32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return bits::HalfToFloat(v); }
  static Vec Load(const uint16_t* p) {
    return _mm256_cvtph_ps(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
};

struct Avx2BF16 : Avx2F32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return bits::Bfloat16ToFloat(v); }
  static Vec Load(const uint16_t* p) {
    const __m256i wide = _mm256_cvtepu16_epi32(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
  }
};

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
    const __m128i h =
        _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
  for (; i < n; ++i) dst[i] = bits::FloatToHalf(src[i]);
}

void WidenBF16(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, Avx2BF16::Load(src + i));
  for (; i < n; ++i) dst[i] = bits::Bfloat16ToFloat(src[i]);
}

// float → bfloat16, round half to even: add 0x7fff plus the lowest kept bit,
// keep the top 16 bits; NaN becomes quiet (| 0x40 in the kept half).
__m128i NarrowBF16x8(__m256 v) {
  const __m256i x = _mm256_castps_si256(v);
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16),
                                       _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_srli_epi32(
      _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), lsb),
      16);
  const __m256i quiet_nan =
      _mm256_or_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(0x40));
  const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  const __m256i result = _mm256_blendv_epi8(rounded, quiet_nan, is_nan);
  // Pack the low 16 bits of each 32-bit lane (values are < 2^16: no saturation).
  const __m256i packed = _mm256_packus_epi32(result, result);
  return _mm256_castsi256_si128(_mm256_permute4x64_epi64(packed, 0x08));
}

void NarrowBF16(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     NarrowBF16x8(_mm256_loadu_ps(src + i)));
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
