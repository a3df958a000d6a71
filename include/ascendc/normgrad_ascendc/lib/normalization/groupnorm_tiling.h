// normgrad_ascendc/lib/normalization/groupnorm_tiling.h — the kernel-side
// tiling struct of GroupNorm and its field list: 28 uint32_t fields, one float
// and one bool, 120 bytes, every field 0 by default. Host code fills the
// optiling:: GroupNormTiling with the same fields in the same order and copies
// it field by field, so the field order is part of the interface. Visible as
// AscendC::tiling::GroupNormTiling, AscendC::GroupNormTiling and, as Ascend C
// programs write it, unqualified at global scope.
//
// The input [N, C, H, W] is seen as N·G groups ("rows") of D·H·W contiguous
// elements (D = C / G channels each). Positions and sizes in the scratch are
// in floats, counted from its start; docs/groupnorm.md, "Tiling fields",
// gives every field's value.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_GROUPNORM_TILING_FIELDS(X)                                      \
  X(uint32_t, n)                     /* N */                                     \
  X(uint32_t, c)                     /* C */                                     \
  X(uint32_t, hw)                    /* H·W */                                  \
  X(uint32_t, g)                     /* groupNum */                              \
  X(uint32_t, d)                     /* C / groupNum channels per group */       \
  X(uint32_t, hwAlignSize)           /* H·W rounded up to 32 bytes of T */      \
  X(uint32_t, dhwAlignSize)          /* d · hwAlignSize */                      \
  X(uint32_t, inputXSize)            /* N·C·H·W */                            \
  X(uint32_t, meanVarSize)           /* N·G */                                  \
  X(uint32_t, numberOfTmpBuf)        /* 2 for float with reuse, else 3 */        \
  X(uint32_t, meanTmpTensorPos)      /* half: float means, N·G of them */       \
  X(uint32_t, meanTmpTensorSize)     /* roundup(N·G, 8) */                      \
  X(uint32_t, varianceTmpTensorPos)  /* half: float variances */                 \
  X(uint32_t, varianceTmpTensorSize) /* roundup(N·G, 8) */                      \
  X(uint32_t, tmpBufSize)            /* scratch in floats */                     \
  X(uint32_t, oneTmpSize) /* elements per chunk, whole groups, ≤ N·C·H·W */ \
  X(uint32_t, firstTmpStartPos) /* the chunk buffers, oneTmpSize each */         \
  X(uint32_t, secondTmpStartPos)                                                 \
  X(uint32_t, thirdTmpStartPos)                                                  \
  X(uint32_t, loopRound)        /* inputXSize / oneTmpSize full chunks */        \
  X(uint32_t, inputRoundSize)   /* oneTmpSize */                                 \
  X(uint32_t, inputTailSize)    /* inputXSize % oneTmpSize */                    \
  X(uint32_t, inputTailPos)     /* inputXSize − inputTailSize */               \
  X(uint32_t, meanVarRoundSize) /* groups per chunk */                           \
  X(uint32_t, meanVarTailSize)  /* groups in the tail */                         \
  X(uint32_t, meanVarTailPos)   /* N·G − meanVarTailSize */                   \
  X(uint32_t, bshCurLength)     /* oneTmpSize */                                 \
  X(uint32_t, bsCurLength)      /* meanVarRoundSize */                           \
  X(float, factor)              /* 1.0f / (float)(d·hw) */                      \
  X(bool, smallShape)           /* the whole input is one chunk */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct GroupNormTiling {
  NORMGRAD_GROUPNORM_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(GroupNormTiling) == 120,
              "GroupNormTiling is 28 uint32_t words, one float and one bool "
              "(padded to 4 bytes)");

}  // namespace tiling
using tiling::GroupNormTiling;
}  // namespace AscendC

using AscendC::tiling::GroupNormTiling;
