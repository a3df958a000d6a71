// kernels/vector/topk_inl.h — TopK's passes (AdvancedKernels::
// topk_priorities, group_maxima and collect_at_least, advanced.h; their
// user is src/ascendc/lib/sort/topk.cc): a row's elements ranked as 32-bit
// priorities, the largest of each of a row's groups, and the positions of
// the priorities at or above a floor.
// Included at the end of advanced_inl.h, so compiled by each instruction
// set's advanced_<isa>.cc inside its target region, where the loops become
// vector code. Both are exact integer work: every set gives the same result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

// The rank of a float's bits in the Sort family's order (docs/sort.md,
// "Order": NaN above every number, −0 equal to +0), as an unsigned 32-bit
// integer: negative values' bits inverted, positive values' sign bit set,
// ±0 both 0x80000000, every NaN UINT32_MAX. Without branches.
inline uint32_t FloatRank32(uint32_t bits) {
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  const uint32_t turn = static_cast<uint32_t>(static_cast<int32_t>(bits) >> 31) | 0x80000000u;
  const uint32_t rank = magnitude == 0 ? 0x80000000u : bits ^ turn;
  return magnitude > 0x7F800000u ? UINT32_MAX : rank;
}

// The same order for a half's bits (in 16 bits; NaN UINT32_MAX).
inline uint32_t HalfRank32(uint32_t bits) {
  const uint32_t magnitude = bits & 0x7FFFu;
  const uint32_t turn = 0x8000u | (0x7FFFu * (bits >> 15));
  const uint32_t rank = magnitude == 0 ? 0x8000u : bits ^ turn;
  return magnitude > 0x7C00u ? UINT32_MAX : rank;
}

// bfloat16 is the high half of a float.
inline uint32_t Bfloat16Rank32(uint32_t bits) { return FloatRank32(bits << 16); }

template <typename Elem, uint32_t (*Rank)(uint32_t)>
void PrioritiesOf(uint32_t* priorities, const void* src, size_t n, bool largest) {
  const auto* bytes = static_cast<const uint8_t*>(src);
  const uint32_t flip = largest ? 0 : UINT32_MAX;
  for (size_t i = 0; i < n; ++i) {
    Elem e;
    std::memcpy(&e, bytes + i * sizeof(Elem), sizeof e);
    const uint32_t rank = Rank(e);
    priorities[i] = rank == UINT32_MAX ? rank : rank ^ flip;
  }
}

void TopKPriorities(uint32_t* priorities, const void* src, size_t n, FloatFormat format,
                    bool largest) {
  if (format.bytes == 4) {
    PrioritiesOf<uint32_t, FloatRank32>(priorities, src, n, largest);
  } else if (format.exponent_mask == 0x7c00u) {
    PrioritiesOf<uint16_t, HalfRank32>(priorities, src, n, largest);
  } else {
    PrioritiesOf<uint16_t, Bfloat16Rank32>(priorities, src, n, largest);
  }
}

void GroupMaxima(uint32_t* maxima, const uint32_t* priorities, size_t n, size_t groups) {
  const size_t size = n / groups;
  for (size_t g = 0; g < groups; ++g) {
    const size_t end = g + 1 == groups ? n : (g + 1) * size;
    uint32_t most = 0;
    for (size_t i = g * size; i < end; ++i) most = std::max(most, priorities[i]);
    maxima[g] = most;
  }
}

// The largest of p[0, 16) as a tree, which the compiler turns into a few
// vector steps (a chain of 16 would run one element at a time).
inline uint32_t MaxOf16(const uint32_t* p) {
  uint32_t t[8];
  for (int j = 0; j < 8; ++j) t[j] = std::max(p[j], p[j + 8]);
  for (int j = 0; j < 4; ++j) t[j] = std::max(t[j], t[j + 4]);
  for (int j = 0; j < 2; ++j) t[j] = std::max(t[j], t[j + 2]);
  return std::max(t[0], t[1]);
}

size_t CollectAtLeast(uint32_t* positions, const uint32_t* priorities, size_t n, uint32_t floor) {
  constexpr size_t kBlock = 16;  // MaxOf16's
  size_t count = 0;
  size_t i = 0;
  // A block at a time: one whose largest priority is below the floor is
  // passed over; in the others every position is written and kept where
  // its priority is at or above the floor.
  for (; i + kBlock <= n; i += kBlock) {
    if (MaxOf16(priorities + i) < floor) continue;
    for (size_t j = i; j < i + kBlock; ++j) {
      positions[count] = static_cast<uint32_t>(j);
      count += priorities[j] >= floor ? 1 : 0;
    }
  }
  for (; i < n; ++i) {
    positions[count] = static_cast<uint32_t>(i);
    count += priorities[i] >= floor ? 1 : 0;
  }
  return count;
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
