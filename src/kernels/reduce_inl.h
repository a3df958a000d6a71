// kernels/reduce_inl.h — the vector unit's reduction loops
// (kernels::VectorKernels, "reductions") on an instruction set's Ops
// policies (<isa>_ops_inl.h): included by src/kernels/<isa>.cc inside its
// target region, after its Ops, so that the compiler vectorizes them for
// that set and converts with its half instructions. The table entries are
// set by reduce_entry_inl.h, in baseline code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace normgrad::kernels {
namespace {

// Each of n floats (a multiple of F16::kLanes) rounded to half (nearest,
// ties to even) and back, in place.
template <typename F16>
void RoundThroughHalf(float* v, size_t n) {
  uint16_t h[F16::kLanes];
  for (size_t i = 0; i < n; i += F16::kLanes) {
    F16::Store(h, F16::LoadF32(v + i));
    F16::StoreF32(v + i, F16::Load(h));
  }
}

// The tree over kN floats (a power of two), level by level: neighbours 2i
// and 2i+1 added, every level's sums rounded to half.
template <typename F16, size_t kN>
float HalfTreeOf(const float* v) {
  constexpr size_t kRoom = kN / 2 < 16 ? 16 : kN / 2;  // whole vectors of any set
  alignas(64) float sums[kRoom] = {};
  for (size_t i = 0; i < kN / 2; ++i) sums[i] = v[2 * i] + v[2 * i + 1];
  RoundThroughHalf<F16>(sums, kRoom);
  if constexpr (kN == 2) {
    return sums[0];
  } else {
    return HalfTreeOf<F16, kN / 2>(sums);
  }
}

// VectorKernels::half_tree.
template <typename F16>
float HalfTree(const float* v, uint32_t n) {
  switch (n) {
    case 8:
      return HalfTreeOf<F16, 8>(v);
    case 16:
      return HalfTreeOf<F16, 16>(v);
    case 32:
      return HalfTreeOf<F16, 32>(v);
    case 64:
      return HalfTreeOf<F16, 64>(v);
    default:
      return HalfTreeOf<F16, 128>(v);
  }
}

}  // namespace
}  // namespace normgrad::kernels
