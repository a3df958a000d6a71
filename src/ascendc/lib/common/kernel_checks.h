// src/ascendc/lib/common/kernel_checks.h — what the kernel-side normalization APIs
// share (internal, not installed): the placement check every tensor argument
// passes, the row-length checks on a tiling, the length check of a tensor
// argument, the scratch of a call sized by tiling.tmpBufSize and the regions
// a LayerNorm-shaped tiling places in it, the narrowing
// of float results to half per product profile, the vector unit's 64-lane
// tree sum, and the documented row sum built on it. Used by the
// normalization APIs' sources (layernorm*.cc, rmsnorm.cc, normalize.cc,
// welford*.cc, ...); their overlap rule is ub_ranges.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/tensor.h"

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

/// A tensor argument and the elements it must hold; `rule` says where that
/// number comes from ("inputXSize").
struct NeededLength {
  const char* name;
  const TensorView& view;
  uint32_t needed;
  const char* rule;
};

/// Fails unless the tensor holds at least `needed` elements of type `e`.
inline void CheckLength(const char* api, const Element& e,
                        const NeededLength& tensor) {
  const uint32_t elements = tensor.view.bytes / e.bytes;
  if (elements < tensor.needed) {
    Fail("%s: %s holds %u %s, fewer than the %u it must hold (%s)", api,
         tensor.name, elements, e.plural, tensor.needed, tensor.rule);
  }
}

/// The scratch of a call whose tiling asks for tmpBufSize floats:
/// sharedTmpBuffer when the kernel passes one, else the framework scratch
/// (PopStackBuffer). Fails when no framework scratch is left.
inline TensorView TilingScratch(const char* api, const TensorView* shared_tmp,
                                uint32_t tmp_buf_size) {
  const TensorView scratch = shared_tmp != nullptr
                                 ? *shared_tmp
                                 : FrameworkScratch(AscendC::TPosition::VECCALC,
                                                    uint64_t{tmp_buf_size} * 4);
  if (shared_tmp == nullptr && scratch.bytes == 0) {
    Fail(
        "%s: no framework scratch is left: the pipe's buffers fill "
        "the unified buffer up to its scratch end (%u bytes, profile %s); "
        "leave tiling.tmpBufSize %u floats free or pass a sharedTmpBuffer",
        api, scratch.core->scratch_end(), scratch.core->profile().name,
        tmp_buf_size);
  }
  return scratch;
}

/// TilingScratch, placed for the vector unit (CheckPlacement) and holding
/// at least tmpBufSize floats; `name` is how messages call it.
inline TensorView CheckedTilingScratch(const char* api,
                                       const TensorView* shared_tmp,
                                       uint32_t tmp_buf_size,
                                       const char* name) {
  const TensorView scratch = TilingScratch(api, shared_tmp, tmp_buf_size);
  CheckPlacement(api, name, scratch);
  if (scratch.bytes / 4 < tmp_buf_size) {
    Fail(
        "%s: %s holds %u floats (%u bytes), fewer than "
        "tiling.tmpBufSize %u floats",
        api, name, scratch.bytes / 4, scratch.bytes, tmp_buf_size);
  }
  return scratch;
}

/// The hint that ends the message of a scratch region running past
/// tmpBufSize when the tiling has two chunk buffers.
inline constexpr const char* kTwoBuffersHint =
    " (tiling.numberOfTmpBuf is 2: a tiling made for float with "
    "isReuseSource = true has no third chunk buffer)";

/// Fails unless the scratch regions a tiling shaped like LayerNorm's places
/// (LayerNorm, DeepNorm, GroupNorm) lie inside tiling.tmpBufSize floats and
/// none overlaps another. The regions, in floats: for half the float means
/// and variances (meanVarSize each), then the chunk buffers of oneTmpSize —
/// first, second, and the third when `third` is true. `past_hint` ends the
/// message of a region that runs past tmpBufSize; with half the overlap
/// message adds that the tiling may be one made for float.
template <typename Tiling>
void CheckChunkScratchRegions(const char* api, const Tiling& t, bool is_half,
                              bool third, const char* past_hint) {
  struct PlacedRegion {
    const char* field;
    uint32_t pos;
    uint64_t end;
  };
  PlacedRegion regions[5];
  size_t count = 0;
  auto add = [&](const char* field, uint32_t pos, uint32_t length) {
    regions[count++] = {field, pos, uint64_t{pos} + length};
  };
  if (is_half) {
    add("meanTmpTensorPos", t.meanTmpTensorPos, t.meanVarSize);
    add("varianceTmpTensorPos", t.varianceTmpTensorPos, t.meanVarSize);
  }
  add("firstTmpStartPos", t.firstTmpStartPos, t.oneTmpSize);
  add("secondTmpStartPos", t.secondTmpStartPos, t.oneTmpSize);
  if (third) add("thirdTmpStartPos", t.thirdTmpStartPos, t.oneTmpSize);
  for (size_t i = 0; i < count; ++i) {
    const PlacedRegion& r = regions[i];
    if (r.end > t.tmpBufSize) {
      Fail(
          "%s: scratch region tiling.%s [%u, %llu) floats runs past "
          "tiling.tmpBufSize %u floats%s",
          api, r.field, r.pos, static_cast<unsigned long long>(r.end),
          t.tmpBufSize, past_hint);
    }
    for (size_t j = 0; j < i; ++j) {
      const PlacedRegion& q = regions[j];
      if (r.pos < q.end && q.pos < r.end) {
        Fail(
            "%s: scratch regions tiling.%s [%u, %llu) and tiling.%s "
            "[%u, %llu) floats overlap%s",
            api, q.field, q.pos, static_cast<unsigned long long>(q.end),
            r.field, r.pos, static_cast<unsigned long long>(r.end),
            is_half ? " (a tiling made for float?)" : "");
      }
    }
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

/// The vector unit's sum of 64 float lanes: a binary tree of adjacent pairs,
/// (l0 + l1), (l2 + l3), …, then pairs of those sums, six levels. Overwrites
/// the lanes.
inline float LaneTreeSum(float (&lanes)[kVectorLanes]) {
  for (uint32_t width = kVectorLanes; width > 1; width /= 2) {
    for (uint32_t j = 0; j < width / 2; ++j) {
      lanes[j] = lanes[2 * j] + lanes[2 * j + 1];
    }
  }
  return lanes[0];
}

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
  return LaneTreeSum(lanes);
}

/// RowSum of the h floats at v.
inline float FoldedRowSum(const float* v, uint64_t h) {
  return RowSum(h, [v](uint64_t i) { return v[i]; });
}

}  // namespace normgrad_ascendc
