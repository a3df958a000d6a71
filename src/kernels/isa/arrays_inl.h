// kernels/isa/arrays_inl.h — bulk array helpers over an instruction set's Ops
// policies (<isa>_ops_inl.h): adding, widening and narrowing 16-bit
// arrays. Shared by the registry entry's kernels (isa_inl.h) and the vector
// unit's loops that end in a narrowing to half (vector_inl.h); included
// inside a target region; everything here has internal linkage.
#pragma once

#include <cstddef>
#include <cstdint>

namespace normgrad::kernels {
namespace {

// dst[i] = fl(dst[i] + src[i]).
template <typename Ops>
void AddArrays(float* dst, const float* src, size_t n) {
  size_t i = 0;
  for (; i + Ops::kLanes <= n; i += Ops::kLanes) {
    Ops::StoreF32(dst + i, Ops::Add(Ops::LoadF32(dst + i), Ops::LoadF32(src + i)));
  }
  for (; i < n; ++i) dst[i] = dst[i] + src[i];
}

// 16-bit elements of Ops's type widened to float (exact).
template <typename Ops>
void WidenArray(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + Ops::kLanes <= n; i += Ops::kLanes) Ops::StoreF32(dst + i, Ops::Load(src + i));
  for (; i < n; ++i) dst[i] = Ops::ToFloat(src[i]);
}

// Floats narrowed to Ops's 16-bit type, round half to even. Inline: the
// dequantization (vector_cast_inl.h) narrows 16 lanes at a time with it.
template <typename Ops>
inline void NarrowArray(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + Ops::kLanes <= n; i += Ops::kLanes) Ops::Store(dst + i, Ops::LoadF32(src + i));
  for (; i < n; ++i) dst[i] = Ops::FromFloat(src[i]);
}

}  // namespace
}  // namespace normgrad::kernels
