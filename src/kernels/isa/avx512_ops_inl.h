// kernels/isa/avx512_ops_inl.h — the "Ops" policies of the instruction set
// "avx512" (AVX-512F intrinsics, 16 floats per vector, hardware half
// conversions, non-temporal stores) for accumulate_inl.h and
// row_norms_inl.h, and the vector float → half / bfloat16 narrowing. Shared
// by avx512.cc and layer_norm_avx512.cc; everything here has internal
// linkage.
//
// Include it only after `#pragma GCC target("avx512f,avx2,fma,f16c")`, and
// only after the headers below have already been included before that
// pragma (see the comment at the top of avx2.cc).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "normgrad/float16.h"

namespace normgrad::kernels {
namespace {

struct Avx512F32 {
  using In = float;
  using Vec = __m512;
  static constexpr size_t kLanes = 16;
  static Vec Zero() { return _mm512_setzero_ps(); }
  static Vec Set1(float v) { return _mm512_set1_ps(v); }
  static float ToFloat(float v) { return v; }
  static float FromFloat(float v) { return v; }
  static Vec Load(const float* p) { return _mm512_loadu_ps(p); }
  static Vec LoadF32(const float* p) { return _mm512_loadu_ps(p); }
  static void StoreF32(float* p, Vec v) { _mm512_storeu_ps(p, v); }
  static void StreamF32(float* p, Vec v) { _mm512_stream_ps(p, v); }
  static void Store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
  static void Stream(float* p, Vec v) { _mm512_stream_ps(p, v); }
  static void Fence() { _mm_sfence(); }
  // TreeSum16 with the same pairs: each step adds to every lane its
  // neighbour at distance 1, 2, 4, 8; lane 0 then holds the left subtree's
  // sum plus the right one's at every level, as TreeSum16.
  static float Sum16(float* lanes) {
    __m512 v = _mm512_loadu_ps(lanes);
    v = _mm512_add_ps(v, _mm512_permute_ps(v, 0xB1));        // swap adjacent lanes
    v = _mm512_add_ps(v, _mm512_permute_ps(v, 0x4E));        // swap lane pairs
    v = _mm512_add_ps(v, _mm512_shuffle_f32x4(v, v, 0xB1));  // swap 128-bit blocks
    v = _mm512_add_ps(v, _mm512_shuffle_f32x4(v, v, 0x4E));  // swap 256-bit halves
    return _mm512_cvtss_f32(v);
  }
  static Vec Add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
  static Vec Sub(Vec a, Vec b) { return _mm512_sub_ps(a, b); }
  static Vec Mul(Vec a, Vec b) { return _mm512_mul_ps(a, b); }
  // Fused, one rounding: a·b + c, a·b − c, c − a·b.
  static Vec MulAdd(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
  static Vec MulSub(Vec a, Vec b, Vec c) { return _mm512_fmsub_ps(a, b, c); }
  static Vec NegMulAdd(Vec a, Vec b, Vec c) { return _mm512_fnmadd_ps(a, b, c); }
};

// 16-bit inputs: sixteen elements are one 256-bit load or store.
template <typename Convert>
struct Avx512Half16 : Avx512F32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return Convert::ToFloat(v); }
  static uint16_t FromFloat(float v) { return Convert::FromFloat(v); }
  static Vec Load(const uint16_t* p) {
    return Convert::Widen(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static void Store(uint16_t* p, Vec v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), Convert::Narrow(v));
  }
  static void Stream(uint16_t* p, Vec v) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), Convert::Narrow(v));
  }
};

struct F16Convert512 {
  static float ToFloat(uint16_t v) { return bits::HalfToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToHalf(v); }
  static __m512 Widen(__m256i h) { return _mm512_cvtph_ps(h); }
  static __m256i Narrow(__m512 v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
};

struct BF16Convert512 {
  static float ToFloat(uint16_t v) { return bits::Bfloat16ToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToBfloat16(v); }
  static __m512 Widen(__m256i b) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
  }
  // Round half to even as bits::FloatToBfloat16: add 0x7fff plus the lowest
  // kept bit and keep the top 16 bits; a NaN becomes quiet (| 0x40 in the
  // kept half). (The AVX512-BF16 instruction is not used: it treats
  // subnormal inputs as zero.)
  static __m256i Narrow(__m512 v) {
    const __m512i x = _mm512_castps_si512(v);
    const __m512i high = _mm512_srli_epi32(x, 16);
    const __m512i lsb = _mm512_and_si512(high, _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_srli_epi32(
        _mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7fff)), lsb), 16);
    const __m512i quiet_nan = _mm512_or_si512(high, _mm512_set1_epi32(0x40));
    const __mmask16 is_nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(is_nan, rounded, quiet_nan));
  }
};

using Avx512F16 = Avx512Half16<F16Convert512>;
using Avx512BF16 = Avx512Half16<BF16Convert512>;

}  // namespace
}  // namespace normgrad::kernels
