// kernels/vector/reduce_avx512_fp16.cc — the vector unit's trees of half values
// (VectorKernels::half_tree_sums) for the instruction set "avx512" on CPUs
// that also have AVX512-FP16: 32 halves per vector added as halves
// (vaddph), where the other sets add 16 in float and convert each level's
// sums to half and back. The bits are the same: the float sum of two
// halves rounded once to half is their binary16 sum (float's 24 bits are
// at least 2 × 11 + 2, so rounding twice is innocuous), which vaddph
// computes; it reads and writes subnormals whatever MXCSR's DAZ and FTZ
// say, and like the float addition it returns the first operand's NaN,
// quieted, where there is one, else the default NaN (0xfe00 after the
// conversion).
//
// Chosen by Avx512Isa() after a run-time CPU check (CpuHasAvx512Fp16). The
// file is compiled with -mavx512fp16 (clang 14 has no half vector types
// otherwise), so it includes no header with inline functions or templates
// that another file could share: the linker could keep this file's copy.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace normgrad::kernels {
namespace {

// The lanes of two vectors picked by vpermt2w: the even ones, then the odd.
struct PairIndex {
  __m512i even, odd;
};

// Level kLevel of the trees over the 32 << kLevel halves from `first` on,
// 32 values: level 0 the halves themselves (zeros past n unless kWhole:
// those lanes form groups of their own), each level above the sums of the
// neighbouring pairs of the one below. Depth first and inlined whole, so
// that the vectors stay in registers; where not kWhole, a subtree that
// starts at or past n is zeros, not computed.
template <unsigned kLevel, bool kWhole>
[[gnu::always_inline]] inline __m512h Level(const uint16_t* src, size_t n, size_t first,
                                            const PairIndex& pick) {
  if (!kWhole && first >= n) {
    return _mm512_setzero_ph();
  } else if constexpr (kLevel == 0) {
    if constexpr (kWhole) {
      return _mm512_castsi512_ph(_mm512_loadu_si512(src + first));
    } else {
      const size_t left = first < n ? n - first : 0;
      const __mmask32 lanes = left >= 32 ? ~__mmask32{0} : (__mmask32{1} << left) - 1;
      return _mm512_castsi512_ph(_mm512_maskz_loadu_epi16(lanes, src + first));
    }
  } else {
    const __m512h x = Level<kLevel - 1, kWhole>(src, n, first, pick);
    const __m512h y = Level<kLevel - 1, kWhole>(src, n, first + (size_t{32} << (kLevel - 1)), pick);
    return _mm512_add_ph(_mm512_permutex2var_ph(x, pick.even, y),
                         _mm512_permutex2var_ph(x, pick.odd, y));
  }
}

// The sums of the groups of 2^kLevel halves among n (a multiple of the
// group), 32 groups at a time.
template <unsigned kLevel>
void GroupSums(const uint16_t* src, size_t n, uint16_t* sums, const PairIndex& pick) {
  constexpr size_t kSpan = size_t{32} << kLevel;
  size_t at = 0;
  for (; at + kSpan <= n; at += kSpan) {
    _mm512_storeu_si512(sums + (at >> kLevel),
                        _mm512_castph_si512(Level<kLevel, true>(src, n, at, pick)));
  }
  if (at < n) {
    const size_t groups = (n - at) >> kLevel;
    _mm512_mask_storeu_epi16(sums + (at >> kLevel), (__mmask32{1} << groups) - 1,
                             _mm512_castph_si512(Level<kLevel, false>(src, n, at, pick)));
  }
}

}  // namespace

// VectorKernels::half_tree_sums (declared in kernels.h).
void Avx512Fp16HalfTreeSums(const uint16_t* src, size_t n, uint32_t group, uint16_t* sums) {
  PairIndex pick;
  alignas(64) uint16_t even[32], odd[32];
  for (uint16_t j = 0; j < 32; ++j) {
    even[j] = static_cast<uint16_t>(2 * j);
    odd[j] = static_cast<uint16_t>(2 * j + 1);
  }
  pick.even = _mm512_load_si512(even);
  pick.odd = _mm512_load_si512(odd);
  switch (group) {
    case 2:
      return GroupSums<1>(src, n, sums, pick);
    case 4:
      return GroupSums<2>(src, n, sums, pick);
    case 8:
      return GroupSums<3>(src, n, sums, pick);
    case 16:
      return GroupSums<4>(src, n, sums, pick);
    case 32:
      return GroupSums<5>(src, n, sums, pick);
    case 64:
      return GroupSums<6>(src, n, sums, pick);
    default:  // 128
      return GroupSums<7>(src, n, sums, pick);
  }
}

}  // namespace normgrad::kernels
