// normgrad_ascendc/lib/transform/transform_tiling.h — the kernel-side tiling
// structs of the Tensor transform family and their field lists: PadTiling,
// UnPadTiling, ConfusionTransposeTiling (six uint32_t fields each, filled by
// the host tiling functions of transform_host_tiling.h) and BroadcastTiling
// (filled on the kernel side by GetBroadcastTilingInfo). The pages name the
// structs but not their fields; these are normgrad's (docs/transform.md,
// "Tiling fields"). Visible as AscendC::tiling::<Name>, AscendC::<Name> and,
// as Ascend C programs write them, unqualified at global scope.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// Pad's fields: the source is srcHeight rows of srcWidth elements (the
/// first srcOriWidth of each row are data); typeSize checks the kernel's T.
#define NORMGRAD_PAD_TILING_FIELDS(X)                                   \
  X(uint32_t, srcHeight)       /* rows */                               \
  X(uint32_t, srcWidth)        /* elements per source row */            \
  X(uint32_t, srcOriWidth)     /* data elements per row, <= srcWidth */ \
  X(uint32_t, alignedWidth)    /* srcWidth rounded up to 32 bytes */    \
  X(uint32_t, typeSize)        /* bytes of an element */                \
  X(uint32_t, stackBufferSize) /* the scratch the host was given, bytes */

/// UnPad's fields: the source is srcHeight rows of srcWidth elements, a
/// whole number of 32-byte blocks each.
#define NORMGRAD_UNPAD_TILING_FIELDS(X)                                 \
  X(uint32_t, srcHeight)        /* rows */                              \
  X(uint32_t, srcWidth)         /* elements per row, 32-byte aligned */ \
  X(uint32_t, typeSize)         /* bytes of an element */               \
  X(uint32_t, elementsPerBlock) /* 32 / typeSize */                     \
  X(uint32_t, srcSize)          /* srcHeight * srcWidth */              \
  X(uint32_t, stackBufferSize)  /* the scratch the host was given, bytes */

/// Transpose's fields: the scenario and the source shape as the tiling
/// functions took it (unused trailing dimensions 0).
#define NORMGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(X)         \
  X(uint32_t, transposeType) /* the scenario, 1-7 or 13-16 */ \
  X(uint32_t, typeSize)      /* bytes of an element */        \
  X(uint32_t, shapeDim0)     /* srcShape[0] (B, H or N) */    \
  X(uint32_t, shapeDim1)     /* srcShape[1] */                \
  X(uint32_t, shapeDim2)     /* srcShape[2], or 0 */          \
  X(uint32_t, shapeDim3)     /* srcShape[3], or 0 */

namespace AscendC {
namespace tiling {

struct PadTiling {
  NORMGRAD_PAD_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

struct UnPadTiling {
  NORMGRAD_UNPAD_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

struct ConfusionTransposeTiling {
  NORMGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};

}  // namespace tiling

using tiling::ConfusionTransposeTiling;
using tiling::PadTiling;
using tiling::UnPadTiling;

/// The most dimensions the dynamic-shape Broadcast takes.
inline constexpr uint32_t kBroadcastMaxRank = 9;

/// The dynamic-shape Broadcast's tiling (Ascend 950), made on the kernel side
/// by GetBroadcastTilingInfo: the rank and both shapes.
struct BroadcastTiling {
  uint32_t rank = 0;
  uint32_t dstShape[kBroadcastMaxRank] = {};
  uint32_t srcShape[kBroadcastMaxRank] = {};
  bool srcInnerPad = false;
};

}  // namespace AscendC

using AscendC::BroadcastTiling;
using AscendC::tiling::ConfusionTransposeTiling;
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
