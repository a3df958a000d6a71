// normgrad_ascendc/lib/activation/softmax_tiling.h — the kernel-side tiling
// struct of the SoftMax family (SoftMax, SimpleSoftMax, SoftmaxFlashV2) and
// its field list: sixteen uint32_t fields, 64 bytes, every field 0 by default,
// in the documented order; the shape argument SoftMaxShapeInfo; and the
// tiling rule both sides share (the host tiling functions and the kernel's
// own SoftMaxFlashV2TilingFunc and re-tiling), written once as constexpr
// functions. Visible as AscendC::tiling::SoftMaxTiling, AscendC::SoftMaxTiling
// and, as Ascend C programs write it, unqualified at global scope.
//
// The source is [srcM, srcK] (srcM the product of the leading axes); its rows
// are processed in chunks of splitM rows and a tail of tailM rows.
// docs/softmax.md, "Tiling fields", derives each field.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_SOFTMAX_TILING_FIELDS(X)                                   \
  X(uint32_t, srcM)           /* rows: the product of the leading axes */   \
  X(uint32_t, srcK)           /* row length, 32-byte aligned */             \
  X(uint32_t, srcSize)        /* srcM * srcK */                             \
  X(uint32_t, outMaxM)        /* srcM: rows of max and sum */               \
  X(uint32_t, outMaxK)        /* max/sum elements per row: 32 bytes or 1 */ \
  X(uint32_t, outMaxSize)     /* outMaxM * outMaxK */                       \
  X(uint32_t, splitM)         /* rows per chunk, 1 <= splitM <= srcM */     \
  X(uint32_t, splitK)         /* srcK */                                    \
  X(uint32_t, splitSize)      /* splitM * splitK: a chunk's float rows */   \
  X(uint32_t, reduceM)        /* splitM */                                  \
  X(uint32_t, reduceK)        /* 8: one float block per row */              \
  X(uint32_t, reduceSize)     /* reduceM * reduceK */                       \
  X(uint32_t, rangeM)         /* srcM / splitM full chunks */               \
  X(uint32_t, tailM)          /* srcM % splitM */                           \
  X(uint32_t, tailSplitSize)  /* tailM * splitK */                          \
  X(uint32_t, tailReduceSize) /* tailM * reduceK */

namespace AscendC {
namespace tiling {

struct SoftMaxTiling {
  NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

static_assert(sizeof(SoftMaxTiling) == 64,
              "SoftMaxTiling is sixteen uint32_t words");

}  // namespace tiling
using tiling::SoftMaxTiling;

/// The shape of a call's source: srcM rows of srcK elements (srcK 32-byte
/// aligned), of which the first oriSrcM rows and oriSrcK columns are data and
/// the rest padding. All zero (the default argument) means the tiling's
/// shape, unpadded.
struct SoftMaxShapeInfo {
  constexpr SoftMaxShapeInfo() = default;
  constexpr SoftMaxShapeInfo(uint32_t m, uint32_t k, uint32_t ori_m,
                             uint32_t ori_k)
      : srcM(m), srcK(k), oriSrcM(ori_m), oriSrcK(ori_k) {}
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

}  // namespace AscendC

using AscendC::tiling::SoftMaxTiling;

namespace normgrad_ascendc {

/// Floats of a row's reduction block in the scratch: one 32-byte block.
inline constexpr uint32_t kSoftMaxReduceFloats = 8;

/// Rows of a basic block: splitM, tailM and srcM are multiples of it.
inline constexpr uint32_t kSoftMaxBasicRows = 8;

/// Floats of scratch a chunk of `rows` rows of k elements needs: each row in
/// float, then one float block per row for its max and sum. The host sizes,
/// the tiling and the kernel's scratch check all use it.
constexpr uint64_t SoftMaxScratchFloats(uint64_t rows, uint64_t k) {
  return rows * (k + kSoftMaxReduceFloats);
}

/// The most rows per chunk a scratch of `bytes` bytes holds for m rows of k
/// elements, at most m; with `basic` a multiple of 8. 0: not even one row
/// (eight with `basic`).
constexpr uint32_t SoftMaxRowsFitting(uint32_t m, uint32_t k, uint64_t bytes,
                                      bool basic) {
  const uint64_t per_row = SoftMaxScratchFloats(1, k);
  uint64_t rows = per_row == 0 ? 0 : bytes / 4 / per_row;
  if (rows > m) rows = m;
  if (basic) rows -= rows % kSoftMaxBasicRows;
  return static_cast<uint32_t>(rows);
}

/// The tiling of m rows of k elements in chunks of split_m rows (1 ≤ split_m
/// ≤ m), max and sum holding out_k elements per row.
constexpr AscendC::tiling::SoftMaxTiling SoftMaxTilingFor(uint32_t m,
                                                          uint32_t k,
                                                          uint32_t out_k,
                                                          uint32_t split_m) {
  AscendC::tiling::SoftMaxTiling t{};
  t.srcM = m;
  t.srcK = k;
  t.srcSize = m * k;
  t.outMaxM = m;
  t.outMaxK = out_k;
  t.outMaxSize = m * out_k;
  t.splitM = split_m;
  t.splitK = k;
  t.splitSize = split_m * k;
  t.reduceM = split_m;
  t.reduceK = kSoftMaxReduceFloats;
  t.reduceSize = split_m * kSoftMaxReduceFloats;
  t.rangeM = m / split_m;
  t.tailM = m % split_m;
  t.tailSplitSize = t.tailM * k;
  t.tailReduceSize = t.tailM * kSoftMaxReduceFloats;
  return t;
}

/// Whether [m, k] of elements of `type_size` bytes has the basic-block
/// shape: k a multiple of 64 in [256 / type_size, 2048), m a multiple of 8.
constexpr bool SoftMaxBasicShape(uint64_t m, uint64_t k, uint32_t type_size) {
  return type_size != 0 && k % 64 == 0 && k >= 256 / type_size && k < 2048 &&
         m % kSoftMaxBasicRows == 0;
}

}  // namespace normgrad_ascendc
