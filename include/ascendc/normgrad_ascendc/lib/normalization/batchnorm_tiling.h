// normgrad_ascendc/lib/normalization/batchnorm_tiling.h — the kernel-side
// tiling struct of BatchNorm and its field list: 16 uint32_t fields, one float,
// 3 uint32_t fields, 80 bytes, every field 0 by default. Host code fills the
// optiling::BatchNormTiling with the same fields in the same order. Visible
// as AscendC::tiling::BatchNormTiling, AscendC::BatchNormTiling and,
// unqualified, at global scope.
//
// inputX [B, S, H] is seen as originB rows of S·H features; the statistics
// run down each feature's column, and a chunk is shCurLength whole columns.
// Positions and sizes in the scratch are in floats; docs/batchnorm.md,
// "Tiling fields", gives every field's value.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_BATCHNORM_TILING_FIELDS(X)                                    \
  X(uint32_t, originalBLength)      /* originB, the rows reduced over */       \
  X(uint32_t, meanVarSize)          /* S·H features */                        \
  X(uint32_t, meanTmpTensorPos)     /* half: a chunk's float means */          \
  X(uint32_t, varianceTmpTensorPos) /* half: a chunk's float variances */      \
  X(uint32_t, tmpBufSize)           /* scratch in floats */                    \
  X(uint32_t, oneTmpSize)           /* originB · shCurLength */               \
  X(uint32_t, firstTmpStartPos)     /* the chunk buffers, oneTmpSize each */   \
  X(uint32_t, secondTmpStartPos)                                               \
  X(uint32_t, thirdTmpStartPos)                                                \
  X(uint32_t, loopRound)            /* S·H / shCurLength full chunks */       \
  X(uint32_t, inputTailSize)        /* originB · meanVarTailSize */           \
  X(uint32_t, inputTailPos)         /* the tail's first column */              \
  X(uint32_t, meanVarTailSize)      /* S·H % shCurLength columns */           \
  X(uint32_t, meanVarTailPos)       /* S·H − meanVarTailSize */             \
  X(uint32_t, bshCurLength)         /* originB · shCurLength */               \
  X(uint32_t, shCurLength)          /* columns per chunk */                    \
  X(float, firstDimValueBack)       /* 1.0f / (float)originB */                \
  X(uint32_t, castHalfRepStride)    /* half: shCurLength / 8 (float blocks) */ \
  X(uint32_t, shCurLengthBlockNum)  /* shCurLength · sizeof(T) / 32 */        \
  X(uint32_t, castHalfOutRepStride) /* half: shCurLength / 16 (half blocks) */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct BatchNormTiling {
  NORMGRAD_BATCHNORM_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(BatchNormTiling) == 80,
              "BatchNormTiling is 19 uint32_t words and one float");

}  // namespace tiling
using tiling::BatchNormTiling;
}  // namespace AscendC

using AscendC::tiling::BatchNormTiling;
