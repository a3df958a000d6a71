// kernels/rms_norm/rms_norm_avx512_inl.h — the Ops policy wrapper of the "avx512"
// RMS-norm kernels: an avx512_ops_inl.h policy plus what finishes 16 short
// rows at once in vectors (rms_norm_inl.h, kFinishRows) and the backward's
// factors of four rows. Shared by
// rms_norm_avx512.cc and rms_norm_avx512_bf16.cc; include it after
// avx512_ops_inl.h, inside the same target region. Internal linkage.
#pragma once

#include <immintrin.h>

#include <cstddef>

namespace normgrad::kernels {
namespace {

// An Ops policy plus what finishes 16 short rows in vectors
// (rms_norm_inl.h, kFinishRows).
template <typename Base>
struct RmsOps : Base {
  using Vec = __m512;
  static constexpr bool kFinishesRowsInVectors = true;
  static Vec Div(Vec a, Vec b) { return _mm512_div_ps(a, b); }
  static Vec Sqrt(Vec a) { return _mm512_sqrt_ps(a); }
  // The lanes of each 128-bit block of a and b added in neighbouring pairs
  // (the lower lane first): per block, [a0+a1, a2+a3, b0+b1, b2+b3].
  static Vec AddLanePairs(Vec a, Vec b) {
    return _mm512_add_ps(_mm512_shuffle_ps(a, b, 0x88), _mm512_shuffle_ps(a, b, 0xDD));
  }
  // The 128-bit blocks of a and b added in neighbouring pairs:
  // [A0+A1, A2+A3, B0+B1, B2+B3].
  static Vec AddBlockPairs(Vec a, Vec b) {
    return _mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x88), _mm512_shuffle_f32x4(a, b, 0xDD));
  }
  // factor[k] = (rstd[k]·rstd[k]) · (TreeSum16(lanes[k]) / h) for four
  // rows (rms_norm_inl.h, RmsBackwardRowFactors): the trees paired as in
  // SumsOf16Rows below, then the division and products on four lanes: one
  // row at a time, the four divisions wait on the divider, a large part of
  // the backward's time on short rows (rms_norm_inl.h, kFinishRows).
  static void BackwardFactorsOf4Rows(const float (&lanes)[4][16], const float* rstd, float h,
                                     float* factor) {
    Vec v[4];
    for (size_t k = 0; k < 4; ++k) v[k] = _mm512_loadu_ps(lanes[k]);
    // Levels 1 and 2: per block, the sums of its four lanes of rows 0 … 3.
    Vec sums = AddLanePairs(AddLanePairs(v[0], v[1]), AddLanePairs(v[2], v[3]));
    // Levels 3 and 4: block 0 plus block 1, then that plus blocks 2 + 3.
    sums = _mm512_add_ps(sums, _mm512_shuffle_f32x4(sums, sums, 0xB1));
    sums = _mm512_add_ps(sums, _mm512_shuffle_f32x4(sums, sums, 0x4E));
    const __m128 r = _mm_loadu_ps(rstd);
    _mm_storeu_ps(factor, _mm_mul_ps(_mm_mul_ps(r, r),
                                     _mm_div_ps(_mm512_castps512_ps128(sums), _mm_set1_ps(h))));
  }
  // Lane k: TreeSum16(lanes[k]), the 16 trees side by side. Each level adds
  // the same pairs as TreeSum16 (the lower lane first) for every row, and
  // packs two vectors' results into one: level 1 and 2 pair lanes within
  // 128-bit blocks of two rows' vectors, 3 and 4 pair blocks, until lane k
  // holds row k's sum.
  static Vec SumsOf16Rows(const float (&lanes)[16][16]) {
    Vec v[16];
    for (size_t k = 0; k < 16; ++k) v[k] = _mm512_loadu_ps(lanes[k]);
    // Level 1: per block, [a0+a1, a2+a3, b0+b1, b2+b3] of rows 2k, 2k + 1;
    // level 2: per block, the sums of its four lanes of rows 4k … 4k + 3.
    for (size_t k = 0; k < 8; ++k) v[k] = AddLanePairs(v[2 * k], v[2 * k + 1]);
    for (size_t k = 0; k < 4; ++k) v[k] = AddLanePairs(v[2 * k], v[2 * k + 1]);
    // Level 3: blocks 0 + 1 and 2 + 3, of rows 8k … 8k + 7; level 4: the
    // two halves of every row.
    for (size_t k = 0; k < 2; ++k) v[k] = AddBlockPairs(v[2 * k], v[2 * k + 1]);
    return AddBlockPairs(v[0], v[1]);
  }
};

}  // namespace
}  // namespace normgrad::kernels
