// kernels/vector/reduce_inl.h — the vector unit's reduction trees of float and
// half values and its half compounds, half converted with an instruction
// set's Ops policies (<isa>_ops_inl.h) (kernels::VectorKernels). Included
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
[[gnu::always_inline]] inline void PairSums16(const Floats16& x, const Floats16& y, Floats16& sum) {
  sum = __builtin_shufflevector(x, y, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30) +
        __builtin_shufflevector(x, y, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}

// 16 floats rounded to half (nearest even) and back with the set's
// conversions, in place.
template <typename F16>
[[gnu::always_inline]] inline void RoundThroughHalf(Floats16& v) {
  float s[16];
  uint16_t h[16];
  std::memcpy(s, &v, sizeof s);
  for (size_t j = 0; j < 16; j += F16::kLanes) F16::Store(h + j, F16::LoadF32(s + j));
  for (size_t j = 0; j < 16; j += F16::kLanes) F16::StoreF32(s + j, F16::Load(h + j));
  std::memcpy(&v, s, sizeof s);
}

// Level kLevel of the trees over the 16 << kLevel values from `first` on,
// 16 values: level 0 the values themselves (`leaf(first, v, kWhole)`), each
// level above the sums of the neighbouring pairs of the one below, rounded by
// `round`. Depth first and inlined whole, so that the vectors of every
// level stay in registers (kLevel + 1 at a time) instead of a pass over
// memory per level. In a span that is not whole, a subtree that starts at
// or past n is zeros, not computed: a call over a few groups costs their
// trees, not 16 groups'.
template <uint32_t kLevel, bool kWhole, typename Leaf, typename Round>
[[gnu::always_inline]] inline void TreeLevel(const Leaf& leaf, size_t n, size_t first,
                                             const Round& round, Floats16& out) {
  if (!kWhole && first >= n) {
    out = Floats16{};
  } else if constexpr (kLevel == 0) {
    leaf(first, out, kWhole);
  } else {
    Floats16 x, y;
    TreeLevel<kLevel - 1, kWhole>(leaf, n, first, round, x);
    TreeLevel<kLevel - 1, kWhole>(leaf, n, first + (size_t{16} << (kLevel - 1)), round, y);
    PairSums16(x, y, out);
    round(out);
  }
}

// The trees of consecutive groups of 2^kLevel among n values (a multiple
// of the group), 16 groups at a time: `store(g, sums, k)` gets the sums of
// groups g to g + k − 1 (k ≤ 16) in sums' first lanes. `leaf(first, v,
// whole)` gives the 16 values from `first` on; whole is false only for the
// last span, where it gives zeros past n: those lanes form groups of their
// own, never added to a group of values. Leaf and Round are classes whose
// call operator is always inlined (a lambda's is not, in a function this
// long, and a call per leaf costs more than its additions).
template <uint32_t kLevel, typename Leaf, typename Round, typename Store>
void GroupTrees(size_t n, const Leaf& leaf, const Round& round, const Store& store) {
  constexpr size_t kSpan = size_t{16} << kLevel;
  Floats16 sums;
  size_t at = 0;
  for (; at + kSpan <= n; at += kSpan) {
    TreeLevel<kLevel, true>(leaf, n, at, round, sums);
    store(at >> kLevel, sums, size_t{16});
  }
  if (at < n) {
    TreeLevel<kLevel, false>(leaf, n, at, round, sums);
    store(at >> kLevel, sums, (n - at) >> kLevel);
  }
}

// GroupTrees for `group` a power of two from 2 to 128.
template <typename Leaf, typename Round, typename Store>
void GroupTrees(size_t n, uint32_t group, const Leaf& leaf, const Round& round,
                const Store& store) {
  switch (group) {
    case 2:
      return GroupTrees<1>(n, leaf, round, store);
    case 4:
      return GroupTrees<2>(n, leaf, round, store);
    case 8:
      return GroupTrees<3>(n, leaf, round, store);
    case 16:
      return GroupTrees<4>(n, leaf, round, store);
    case 32:
      return GroupTrees<5>(n, leaf, round, store);
    case 64:
      return GroupTrees<6>(n, leaf, round, store);
    default:  // 128
      return GroupTrees<7>(n, leaf, round, store);
  }
}

// Leaves of floats: the 16 of v from `first` on, zeros past n unless
// `whole`.
struct FloatLeaf {
  const float* v;
  size_t n;
  [[gnu::always_inline]] void operator()(size_t first, Floats16& out, bool whole) const {
    if (whole || first + 16 <= n) {
      std::memcpy(&out, v + first, sizeof out);
      return;
    }
    float lanes[16] = {};
    if (first < n) std::copy(v + first, v + n, lanes);
    std::memcpy(&out, lanes, sizeof out);
  }
};

// Leaves of halves (bits): the 16 of v from `first` on widened with the
// set's conversions, zeros past n unless `whole`.
template <typename F16>
struct HalfLeaf {
  const uint16_t* v;
  size_t n;
  [[gnu::always_inline]] void operator()(size_t first, Floats16& out, bool whole) const {
    uint16_t h[16] = {};
    const uint16_t* from = v + first;
    if (!whole && first + 16 > n) {
      if (first < n) std::copy(v + first, v + n, h);
      from = h;
    }
    float x[16];
    for (size_t j = 0; j < 16; j += F16::kLanes) F16::StoreF32(x + j, F16::Load(from + j));
    std::memcpy(&out, x, sizeof out);
  }
};

struct KeepFloat {
  [[gnu::always_inline]] void operator()(Floats16&) const {}
};

template <typename F16>
struct RoundHalf {
  [[gnu::always_inline]] void operator()(Floats16& v) const { RoundThroughHalf<F16>(v); }
};

// VectorKernels::tree_sums_f32: the trees of consecutive groups of
// `group` floats, one sum each.
void FloatTreeSums(const float* src, size_t n, uint32_t group, float* sums) {
  GroupTrees(n, group, FloatLeaf{src, n}, KeepFloat{}, [&](size_t g, const Floats16& s, size_t k) {
    std::memcpy(sums + g, &s, k * sizeof(float));
  });
}

// VectorKernels::half_tree: the tree of n (8 to 128, a power of two) floats
// of half values.
template <typename F16>
float HalfTree(const float* v, uint32_t n) {
  float sum = 0.0f;
  GroupTrees(n, n, FloatLeaf{v, n}, RoundHalf<F16>{},
             [&](size_t, const Floats16& s, size_t) { sum = s[0]; });
  return sum;
}

// VectorKernels::half_tree_sums: the trees of consecutive groups of `group`
// halves (bits).
template <typename F16>
void HalfTreeSums(const uint16_t* src, size_t n, uint32_t group, uint16_t* sums) {
  GroupTrees(n, group, HalfLeaf<F16>{src, n}, RoundHalf<F16>{},
             [&](size_t g, const Floats16& s, size_t k) {
               for (size_t j = 0; j < k; ++j) sums[g + j] = F16::FromFloat(s[j]);
             });
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
