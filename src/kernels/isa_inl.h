// kernels/isa_inl.h — the kernels of one registry entry (kernels::Isa) over an
// instruction set's Ops policies: the row accumulation of accumulate_inl.h
// and the bulk array helpers below, written once for every instruction set.
// Included only by src/kernels/<isa>.cc, inside its target region;
// everything here has internal linkage. isa_entry_inl.h builds the entry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/accumulate_inl.h"
#include "kernels/kernels.h"

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

// Floats narrowed to Ops's 16-bit type, round half to even.
template <typename Ops>
void NarrowArray(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + Ops::kLanes <= n; i += Ops::kLanes) Ops::Store(dst + i, Ops::LoadF32(src + i));
  for (; i < n; ++i) dst[i] = Ops::FromFloat(src[i]);
}

}  // namespace
}  // namespace normgrad::kernels
