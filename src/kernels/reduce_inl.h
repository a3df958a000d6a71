// kernels/reduce_inl.h — the vector unit's loops that convert half with an
// instruction set's Ops policies (<isa>_ops_inl.h): the reductions' trees
// of half values and the half compounds (kernels::VectorKernels). Included
// by src/kernels/<isa>.cc inside its target region, after its Ops, so that
// the compiler vectorizes them for that set and converts with its half
// instructions. The table entries are set by reduce_entry_inl.h, in
// baseline code.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/kernels.h"

namespace normgrad::kernels {
namespace {

// 16 floats as one GCC vector (the set's registers: one AVX-512, two AVX2,
// four SSE or NEON ones).
typedef float Floats16 __attribute__((vector_size(64)));

// The sums of the 16 neighbouring pairs of the 32 floats x, y, in order:
// their even lanes plus their odd lanes (operands by reference: a 64-byte
// vector passed or returned by value would change the calling convention
// between instruction sets).
inline void PairSums16(const Floats16& x, const Floats16& y, Floats16& sum) {
  sum = __builtin_shufflevector(x, y, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30) +
        __builtin_shufflevector(x, y, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}

// 16 floats rounded to half (nearest even) and back with the set's
// conversions, in place.
template <typename F16>
inline void RoundThroughHalf(Floats16& v) {
  float s[16];
  uint16_t h[16];
  std::memcpy(s, &v, sizeof s);
  for (size_t j = 0; j < 16; j += F16::kLanes) F16::Store(h + j, F16::LoadF32(s + j));
  for (size_t j = 0; j < 16; j += F16::kLanes) F16::StoreF32(s + j, F16::Load(h + j));
  std::memcpy(&v, s, sizeof s);
}

// The levels of trees of `group` lanes (a power of two) over w floats of
// half values in a, down to one sum per group: neighbours 2i and 2i+1
// added in float and rounded to half (the binary16 sum, as a float sum of
// two halves rounded once is) with the set's conversions, 16 sums at a
// time — through b (room for w / 2) while the values fill more than two
// vectors, then in registers. a has room for w rounded up to 32 (zeroed
// past w, so that every lane read is set); returns where the sums are.
template <typename F16>
float* HalfLevels(float* a, float* b, size_t w, uint32_t group) {
  uint32_t g = group;
  for (; g > 1 && w > 32; g /= 2, w /= 2) {
    std::fill(a + w, a + (w + 31) / 32 * 32, 0.0f);
    for (size_t i = 0; i < w / 2; i += 16) {
      Floats16 x, y;
      std::memcpy(&x, a + 2 * i, sizeof x);
      std::memcpy(&y, a + 2 * i + 16, sizeof y);
      Floats16 sum;
      PairSums16(x, y, sum);
      RoundThroughHalf<F16>(sum);
      std::memcpy(b + i, &sum, sizeof sum);
    }
    std::swap(a, b);
  }
  if (g > 1) {
    std::fill(a + w, a + 32, 0.0f);
    Floats16 x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, a + 16, sizeof y);
    const Floats16 zero = {};
    for (; g > 1; g /= 2) {
      Floats16 sum;
      PairSums16(x, y, sum);
      RoundThroughHalf<F16>(sum);
      x = sum;
      y = zero;
    }
    std::memcpy(a, &x, sizeof x);
  }
  return a;
}

// VectorKernels::half_tree: the tree of kN (8 to 128) floats of half values.
template <typename F16>
float HalfTree(const float* v, uint32_t n) {
  alignas(64) float a[128], b[64];
  std::copy(v, v + n, a);
  return HalfLevels<F16>(a, b, n, n)[0];
}

// VectorKernels::half_tree_sums: the trees of consecutive groups of `group`
// halves (bits), a chunk of them at a time, widened with the set's
// conversions.
template <typename F16>
void HalfTreeSums(const uint16_t* src, size_t n, uint32_t group, uint16_t* sums) {
  constexpr size_t kChunk = 1024;
  alignas(64) float a[kChunk], b[kChunk / 2];
  for (size_t at = 0; at < n; at += kChunk) {
    const size_t m = n - at < kChunk ? n - at : kChunk;
    size_t i = 0;
    for (; i + F16::kLanes <= m; i += F16::kLanes) F16::StoreF32(a + i, F16::Load(src + at + i));
    for (; i < m; ++i) a[i] = F16::ToFloat(src[at + i]);
    const float* s = HalfLevels<F16>(a, b, m, group);
    for (size_t g = 0; g < m / group; ++g) sums[at / group + g] = F16::FromFloat(s[g]);
  }
}

// A vector of floats rounded to half and back.
template <typename F16>
inline typename F16::Vec RoundF16(typename F16::Vec v) {
  uint16_t h[F16::kLanes];
  F16::Store(h, v);
  return F16::Load(h);
}

// One step of a half compound on F16 vectors: x, y, w the widened a, b and
// old d; products rounded to half before the addition, the result rounded
// by the store.
template <typename F16, CompoundOp kOp, typename Vec>
inline Vec HalfCompoundStep(Vec x, Vec y, Vec w, Vec s) {
  switch (kOp) {
    case CompoundOp::kAxpy:  // a·s + d
      return F16::Add(RoundF16<F16>(F16::Mul(x, s)), w);
    case CompoundOp::kFusedMulAdd:  // a·d + b
    case CompoundOp::kMulAddRelu:
      return F16::Add(RoundF16<F16>(F16::Mul(x, w)), y);
    case CompoundOp::kMulAddDst:  // a·b + d
      return F16::Add(RoundF16<F16>(F16::Mul(x, y)), w);
    case CompoundOp::kAddRelu:
      return F16::Add(x, y);
    default:  // kSubRelu
      return F16::Sub(x, y);
  }
}

// VectorKernels::compound_f16: each step of the element function rounded
// to half (a float step rounded to half is the half step: float holds more
// than twice half's digits plus two), kLanes elements at a time in the
// set's registers; Relu then on the bits (kept: positive or NaN, else +0).
template <typename F16, CompoundOp kOp>
void HalfCompound(uint16_t* d, const uint16_t* a, const uint16_t* b, float s, size_t n) {
  constexpr bool kReadsB = kOp != CompoundOp::kAxpy;
  constexpr bool kReadsD = kOp == CompoundOp::kAxpy || kOp == CompoundOp::kFusedMulAdd ||
                           kOp == CompoundOp::kMulAddDst || kOp == CompoundOp::kMulAddRelu;
  using Vec = typename F16::Vec;
  const Vec scalar = F16::Set1(s);
  size_t i = 0;
  for (; i + F16::kLanes <= n; i += F16::kLanes) {
    const Vec x = F16::Load(a + i);
    const Vec y = kReadsB ? F16::Load(b + i) : x;
    const Vec w = kReadsD ? F16::Load(d + i) : x;
    F16::Store(d + i, HalfCompoundStep<F16, kOp>(x, y, w, scalar));
  }
  for (; i < n; ++i) {
    const float x = F16::ToFloat(a[i]);
    const float y = kReadsB ? F16::ToFloat(b[i]) : x;
    const float w = kReadsD ? F16::ToFloat(d[i]) : x;
    float r;
    switch (kOp) {
      case CompoundOp::kAxpy:
        r = F16::ToFloat(F16::FromFloat(x * s)) + w;
        break;
      case CompoundOp::kFusedMulAdd:
      case CompoundOp::kMulAddRelu:
        r = F16::ToFloat(F16::FromFloat(x * w)) + y;
        break;
      case CompoundOp::kMulAddDst:
        r = F16::ToFloat(F16::FromFloat(x * y)) + w;
        break;
      case CompoundOp::kAddRelu:
        r = x + y;
        break;
      default:
        r = x - y;
        break;
    }
    d[i] = F16::FromFloat(r);
  }
  if constexpr (kOp == CompoundOp::kMulAddRelu || kOp == CompoundOp::kAddRelu ||
                kOp == CompoundOp::kSubRelu) {
    for (size_t k = 0; k < n; ++k) {
      const uint16_t h = d[k];
      const bool keep = (h < 0x8000u && h != 0) || (h & 0x7fffu) > 0x7c00u;
      d[k] = keep ? h : uint16_t{0};
    }
  }
}

}  // namespace
}  // namespace normgrad::kernels
