// normgrad_ascendc/lib/normalization/layernorm_tiling.h — the kernel-side tiling structs of
// LayerNorm (LayerNormSeparateTiling, of the [A, R] form, at the end of this
// file) and their field lists. LayerNormTiling: 25 uint32_t fields then one
// float, 104 bytes, every field 0 by default. Host code fills the byte-identical
// optiling::LayerNormTiling and copies it word by word, so the field order is
// part of the interface. Visible as AscendC::tiling::LayerNormTiling,
// AscendC::LayerNormTiling and, as Ascend C programs write it, unqualified at
// global scope.
//
// Positions and sizes are in floats, counted from the start of the scratch.
// LayerNorm writes bshCurLength and bsCurLength: after a call whose data ends
// in a tail chunk they hold the tail's sizes (inputTailSize, meanVarTailSize).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_LAYERNORM_TILING_FIELDS(X)                                    \
  X(uint32_t, bLength)                /* B */                                  \
  X(uint32_t, sLength)                /* S */                                  \
  X(uint32_t, hLength)                /* H (storage) */                        \
  X(uint32_t, originalHLength)        /* original H (must equal hLength) */    \
  X(uint32_t, inputXSize)             /* B·S·H */                              \
  X(uint32_t, meanVarSize)            /* B·S */                                \
  X(uint32_t, numberOfTmpBuf)         /* 2 for float with reuse, else 3 */     \
  X(uint32_t, meanTmpTensorPos)       /* half: float means, B·S of them */     \
  X(uint32_t, meanTmpTensorSize)      /* roundup(B·S, 8) */                    \
  X(uint32_t, varianceTmpTensorPos)   /* half: float variances */              \
  X(uint32_t, varianceTmpTensorSize)  /* roundup(B·S, 8) */                    \
  X(uint32_t, tmpBufSize)             /* scratch in floats */                  \
  X(uint32_t, oneTmpSize)    /* elements per chunk, a multiple of H, ≤ B·S·H */ \
  X(uint32_t, firstTmpStartPos)       /* the chunk buffers, oneTmpSize each */ \
  X(uint32_t, secondTmpStartPos)                                               \
  X(uint32_t, thirdTmpStartPos)                                                \
  X(uint32_t, loopRound)          /* inputXSize / oneTmpSize full chunks */    \
  X(uint32_t, inputRoundSize)     /* oneTmpSize */                             \
  X(uint32_t, inputTailSize)      /* inputXSize % oneTmpSize */                \
  X(uint32_t, inputTailPos)       /* inputXSize − inputTailSize */             \
  X(uint32_t, meanVarRoundSize)   /* oneTmpSize / H rows per chunk */          \
  X(uint32_t, meanVarTailSize)    /* inputTailSize / H rows in the tail */     \
  X(uint32_t, meanVarTailPos)     /* B·S − meanVarTailSize */                  \
  X(uint32_t, bshCurLength)   /* oneTmpSize (inputTailSize after a tail) */    \
  X(uint32_t, bsCurLength)    /* oneTmpSize / H (meanVarTailSize after) */     \
  X(float, lastDimValueBack)  /* 1.0f / (float)originalHLength */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormTiling {
  NORMGRAD_LAYERNORM_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(LayerNormTiling) == 104,
              "LayerNormTiling is 25 uint32_t words and one float");

}  // namespace tiling
using tiling::LayerNormTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormTiling;

// The tiling of LayerNorm's second form ([A, R] rows, mean and rstd or
// variance in float; docs/layernorm.md, "The [A, R] form"): 22 uint32_t
// fields and 4 floats in the documented order, 104 bytes, filled by
// GetLayerNormNDTilingInfo's isComputeRstd overloads. Positions and sizes are
// in floats from the start of the scratch.
#define NORMGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(X)                           \
  X(uint32_t, aLength)             /* A (the most rows a call may take) */     \
  X(uint32_t, rLength)             /* R (the 32-byte aligned row) */           \
  X(uint32_t, halfAddRepeatTimes)  /* log2(rHeadLength / 64), 0 if ≤ 64 */     \
  X(uint32_t, rHeadLength)         /* the largest power of two ≤ R */          \
  X(float, k2Rec)                  /* 1.0f / rHeadLength */                    \
  X(float, k2RRec)                 /* (float)rHeadLength / R */                \
  X(uint32_t, inputXSize)          /* A·R */                                   \
  X(uint32_t, meanVarSize)         /* A */                                     \
  X(uint32_t, numberOfTmpBuf)      /* 2 */                                     \
  X(uint32_t, varianceTmpTensorPos)   /* 0: the statistics are outputs */      \
  X(uint32_t, varianceTmpTensorSize)  /* 0 */                                  \
  X(uint32_t, tmpBufSize)          /* scratch in floats */                     \
  X(uint32_t, oneTmpSize)          /* a multiple of R, ≤ A·R */                \
  X(uint32_t, firstTmpStartPos)    /* 0 */                                     \
  X(uint32_t, secondTmpStartPos)   /* oneTmpSize */                            \
  X(uint32_t, thirdTmpStartPos)    /* 2·oneTmpSize (no third buffer) */        \
  X(uint32_t, loopRound)           /* inputXSize / oneTmpSize */               \
  X(uint32_t, inputRoundSize)      /* oneTmpSize */                            \
  X(uint32_t, inputTailSize)       /* inputXSize % oneTmpSize */               \
  X(uint32_t, inputTailPos)        /* inputXSize − inputTailSize */            \
  X(uint32_t, meanVarRoundSize)    /* oneTmpSize / R */                        \
  X(uint32_t, meanVarTailSize)     /* inputTailSize / R */                     \
  X(uint32_t, meanVarTailPos)      /* A − meanVarTailSize */                   \
  X(uint32_t, arCurLength)         /* oneTmpSize */                            \
  X(uint32_t, aCurLength)          /* oneTmpSize / R */                        \
  X(float, rValueBack)             /* 1.0f / R */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormSeparateTiling {
  NORMGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(LayerNormSeparateTiling) == 104,
              "LayerNormSeparateTiling is 26 four-byte fields");

}  // namespace tiling
using tiling::LayerNormSeparateTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormSeparateTiling;
