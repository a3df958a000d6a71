// kernels/isa/avx2_ops_inl.h — the "Ops" policies of the instruction set "avx2"
// (AVX2 + F16C intrinsics, 8 floats per vector, hardware half conversions,
// non-temporal stores) for accumulate_inl.h and row_norms_inl.h, and the
// vector float → half / bfloat16 narrowing. Shared by avx2.cc and
// layer_norm_avx2.cc; everything here has internal linkage.
//
// Include it only after `#pragma GCC target("avx2,fma,f16c")`, and only
// after the headers below have already been included before that pragma
// (see the comment at the top of avx2.cc): the includes here must not be the
// first, or inline functions from them would be compiled for AVX2.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "normgrad/float16.h"

namespace normgrad::kernels {
namespace {

struct Avx2F32 {
  using In = float;
  using Vec = __m256;
  static constexpr size_t kLanes = 8;
  static Vec Zero() { return _mm256_setzero_ps(); }
  static Vec Set1(float v) { return _mm256_set1_ps(v); }
  static float ToFloat(float v) { return v; }
  static float FromFloat(float v) { return v; }
  static Vec Load(const float* p) { return _mm256_loadu_ps(p); }
  static Vec LoadF32(const float* p) { return _mm256_loadu_ps(p); }
  static void StoreF32(float* p, Vec v) { _mm256_storeu_ps(p, v); }
  static void StreamF32(float* p, Vec v) { _mm256_stream_ps(p, v); }
  static void Store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
  static void Stream(float* p, Vec v) { _mm256_stream_ps(p, v); }
  static void Fence() { _mm_sfence(); }
  // TreeSum16 with the same pairs: adjacent lanes, then pairs of those, …
  static float Sum16(float* lanes) {
    const __m256 pairs = _mm256_hadd_ps(_mm256_loadu_ps(lanes), _mm256_loadu_ps(lanes + 8));
    const __m256 quads = _mm256_hadd_ps(pairs, pairs);  // l0–3, l8–11 | l4–7, l12–15
    const __m128 octets =
        _mm_add_ps(_mm256_castps256_ps128(quads), _mm256_extractf128_ps(quads, 1));
    return _mm_cvtss_f32(_mm_add_ss(octets, _mm_movehdup_ps(octets)));
  }
  static Vec Add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
  static Vec Sub(Vec a, Vec b) { return _mm256_sub_ps(a, b); }
  static Vec Mul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
  // Fused, one rounding: a·b + c, a·b − c, c − a·b.
  static Vec MulAdd(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
  static Vec MulSub(Vec a, Vec b, Vec c) { return _mm256_fmsub_ps(a, b, c); }
  static Vec NegMulAdd(Vec a, Vec b, Vec c) { return _mm256_fnmadd_ps(a, b, c); }
};

// 16-bit inputs: eight elements are one 128-bit load or store.
template <typename Convert>
struct Avx2Half16 : Avx2F32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return Convert::ToFloat(v); }
  static uint16_t FromFloat(float v) { return Convert::FromFloat(v); }
  static Vec Load(const uint16_t* p) {
    return Convert::Widen(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static void Store(uint16_t* p, Vec v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), Convert::Narrow(v));
  }
  static void Stream(uint16_t* p, Vec v) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), Convert::Narrow(v));
  }
};

struct F16Convert {
  static float ToFloat(uint16_t v) { return bits::HalfToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToHalf(v); }
  static __m256 Widen(__m128i h) { return _mm256_cvtph_ps(h); }
  static __m128i Narrow(__m256 v) { return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
};

struct BF16Convert {
  static float ToFloat(uint16_t v) { return bits::Bfloat16ToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToBfloat16(v); }
  static __m256 Widen(__m128i b) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(b), 16));
  }
  // Round half to even: add 0x7fff plus the lowest kept bit, keep the top 16
  // bits; a NaN becomes quiet (| 0x40 in the kept half). As
  // bits::FloatToBfloat16. Values are < 2^16 after the shift, so the pack
  // does not saturate.
  static __m128i Narrow(__m256 v) {
    const __m256i x = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_srli_epi32(
        _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), lsb), 16);
    const __m256i quiet_nan = _mm256_or_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(0x40));
    const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    const __m256i result = _mm256_blendv_epi8(rounded, quiet_nan, is_nan);
    const __m256i packed = _mm256_packus_epi32(result, result);  // values < 2^16
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(packed, 0x08));
  }
};

using Avx2F16 = Avx2Half16<F16Convert>;
using Avx2BF16 = Avx2Half16<BF16Convert>;

}  // namespace
}  // namespace normgrad::kernels
