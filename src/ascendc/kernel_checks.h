// src/ascendc/kernel_checks.h — what the kernel-side normalization APIs
// share (internal, not installed): the placement check every tensor argument
// passes, the row-length checks on a tiling, and the narrowing of float
// results to half per product profile, the documented 64-lane row sum, and
// the overlap rule of the Welford APIs. Used by the normalization APIs'
// sources (layernorm*.cc, rmsnorm.cc, normalize.cc, welford*.cc, ...).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/position.h"
#include "normgrad_ascendc/tensor.h"

namespace normgrad_ascendc {

/// The unified buffer's block: addresses and lengths are multiples of it.
inline constexpr uint32_t kBlockBytes = 32;

/// The element type of a call, for sizes and messages.
struct Element {
  uint32_t bytes;
  const char* plural;  ///< "floats", "halves"
};

/// What to do instead of originalHLength != hLength, for the APIs whose rows
/// may be zero-padded.
inline constexpr const char* kPadRowsAdvice =
    "pad each row with zeros to the 32-byte aligned H and pass that H as both";

/// Fails unless the tiling's originalHLength equals its hLength (`advice`
/// says what to do instead) and a row of hLength elements is a whole number
/// of 32-byte blocks.
inline void CheckRowLength(const char* api, uint32_t h, uint32_t original_h,
                           const Element& e, const char* advice) {
  if (original_h != h) {
    Fail(
        "%s: tiling.originalHLength %u differs from tiling.hLength %u; they "
        "must be equal (%s)",
        api, original_h, h, advice);
  }
  const uint64_t row_bytes = uint64_t{h} * e.bytes;
  if (row_bytes % kBlockBytes != 0) {
    Fail(
        "%s: tiling.hLength %u %s is %llu bytes, not a multiple of 32 (the "
        "last axis must be 32-byte aligned: H a multiple of %u)",
        api, h, e.plural, static_cast<unsigned long long>(row_bytes),
        kBlockBytes / e.bytes);
  }
}

/// Fails (KernelError naming `api` and `argument`) unless the tensor is live
/// (TensorView::Check), has unified-buffer memory, is in VECIN, VECOUT or
/// VECCALC, and starts at a 32-byte aligned UB address.
inline void CheckPlacement(const char* api, const char* argument,
                           const TensorView& t) {
  t.CheckUbOperand(api, argument);
  if (!IsVectorPosition(t.position)) {
    Fail("%s: %s is in position %s; it must be VECIN, VECOUT or VECCALC", api,
         argument, PositionName(t.position));
  }
}

/// Narrows n floats to half, round half to even. With `saturate` (the Ascend
/// 950 profile) a result that overflowed to ±inf, or was ±inf, becomes
/// ±65504; NaN stays NaN.
inline void NarrowToHalf(const float* src, normgrad::float16* dst, size_t n,
                         bool saturate) {
  normgrad::Narrow(src, dst, n);
  if (!saturate) return;
  for (size_t i = 0; i < n; ++i) {
    const uint16_t bits = dst[i].Bits();
    if ((bits & 0x7fffu) == 0x7c00u) {
      dst[i] = normgrad::float16::FromBits(
          static_cast<uint16_t>((bits & 0x8000u) | 0x7bffu));
    }
  }
}

/// Floats in one 256-byte vector repeat.
inline constexpr uint32_t kVectorLanes = 64;

/// The documented row sum of the normalization APIs (docs/layernorm.md, "Row
/// sum"): fold the n terms into 64 lanes in order (lane j adds term 64k + j
/// for k = 1, 2, …), then add the 64 lanes by a binary tree of adjacent
/// pairs. Lanes fewer than 64 terms do not fill count as +0. term(i) gives
/// term i.
template <typename Term>
float RowSum(uint64_t n, Term term) {
  float lanes[kVectorLanes] = {};
  for (uint64_t i = 0; i < n; ++i) {
    lanes[i % kVectorLanes] = i < kVectorLanes ? term(i) : term(i) + lanes[i % kVectorLanes];
  }
  for (uint32_t width = kVectorLanes; width > 1; width /= 2) {
    for (uint32_t j = 0; j < width / 2; ++j) lanes[j] = lanes[2 * j] + lanes[2 * j + 1];
  }
  return lanes[0];
}

/// RowSum of the h floats at v.
inline float FoldedRowSum(const float* v, uint64_t h) {
  return RowSum(h, [v](uint64_t i) { return v[i]; });
}

/// One operand of a call for CheckOverlaps: its memory, how many of its
/// bytes the call touches, and whether the call writes them.
struct UbOperand {
  const char* name;
  const TensorView* view;
  uint64_t bytes;
  bool written;
};

/// Fails (KernelError naming `api`) when two operands share unified-buffer
/// bytes and the call writes at least one of them. Operands only read may
/// share memory.
inline void CheckOverlaps(const char* api, const UbOperand* ops, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = i + 1; j < count; ++j) {
      const UbOperand& a = ops[i];
      const UbOperand& b = ops[j];
      if (!a.written && !b.written) continue;
      const uint64_t a_begin = a.view->offset, a_end = a_begin + a.bytes;
      const uint64_t b_begin = b.view->offset, b_end = b_begin + b.bytes;
      if (a.view->core != b.view->core || a_begin >= b_end || b_begin >= a_end) continue;
      Fail(
          "%s: %s (UB bytes [%llu, %llu)) and %s (UB bytes [%llu, %llu)) "
          "overlap; the call writes %s, so it must not share memory with "
          "another operand",
          api, a.name, static_cast<unsigned long long>(a_begin),
          static_cast<unsigned long long>(a_end), b.name,
          static_cast<unsigned long long>(b_begin),
          static_cast<unsigned long long>(b_end), a.written ? a.name : b.name);
    }
  }
}

}  // namespace normgrad_ascendc
