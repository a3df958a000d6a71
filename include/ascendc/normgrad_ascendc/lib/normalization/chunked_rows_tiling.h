// normgrad_ascendc/lib/normalization/chunked_rows_tiling.h — the field list
// that LayerNormTiling and DeepNormTiling share: B·S rows of H elements cut
// into chunks of oneTmpSize elements, worked in chunk buffers of the scratch
// after half's float means and variances. 25 uint32_t fields then one float,
// 104 bytes. Each struct keeps its own name and type (layernorm_tiling.h,
// deepnorm_tiling.h); only the list is written once.
//
// Positions and sizes are in floats, counted from the start of the scratch.
// Both APIs write bshCurLength and bsCurLength: after a call whose data ends
// in a tail chunk they hold the tail's sizes (inputTailSize,
// meanVarTailSize).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_CHUNKED_ROWS_TILING_FIELDS(X)                                   \
  X(uint32_t, bLength)               /* B */                                     \
  X(uint32_t, sLength)               /* S */                                     \
  X(uint32_t, hLength)               /* H (storage, 32-byte aligned) */          \
  X(uint32_t, originalHLength)       /* data columns: LayerNorm = H, ≤ H */    \
  X(uint32_t, inputXSize)            /* B·S·H */                               \
  X(uint32_t, meanVarSize)           /* B·S */                                  \
  X(uint32_t, numberOfTmpBuf)        /* 2 for float with reuse, else 3 */        \
  X(uint32_t, meanTmpTensorPos)      /* half: float means, B·S of them */       \
  X(uint32_t, meanTmpTensorSize)     /* roundup(B·S, 8) */                      \
  X(uint32_t, varianceTmpTensorPos)  /* half: float variances */                 \
  X(uint32_t, varianceTmpTensorSize) /* roundup(B·S, 8) */                      \
  X(uint32_t, tmpBufSize)            /* scratch in floats */                     \
  X(uint32_t, oneTmpSize) /* elements per chunk, a multiple of H, ≤ B·S·H */ \
  X(uint32_t, firstTmpStartPos) /* the chunk buffers, oneTmpSize each */         \
  X(uint32_t, secondTmpStartPos)                                                 \
  X(uint32_t, thirdTmpStartPos)                                                  \
  X(uint32_t, loopRound)        /* inputXSize / oneTmpSize full chunks */        \
  X(uint32_t, inputRoundSize)   /* oneTmpSize */                                 \
  X(uint32_t, inputTailSize)    /* inputXSize % oneTmpSize */                    \
  X(uint32_t, inputTailPos)     /* inputXSize − inputTailSize */               \
  X(uint32_t, meanVarRoundSize) /* oneTmpSize / H rows per chunk */              \
  X(uint32_t, meanVarTailSize)  /* inputTailSize / H rows in the tail */         \
  X(uint32_t, meanVarTailPos)   /* B·S − meanVarTailSize */                   \
  X(uint32_t, bshCurLength)     /* oneTmpSize (inputTailSize after a tail) */    \
  X(uint32_t, bsCurLength)      /* oneTmpSize / H (meanVarTailSize after) */     \
  X(float, lastDimValueBack)    /* 1.0f / (float)originalHLength */
