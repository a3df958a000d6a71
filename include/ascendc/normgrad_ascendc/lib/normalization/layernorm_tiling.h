// normgrad_ascendc/lib/normalization/layernorm_tiling.h — the kernel-side
// tiling structs of LayerNorm (LayerNormSeparateTiling, of the [A, R] form, at
// the end of this file) and their field lists. LayerNormTiling: the fields of
// chunked_rows_tiling.h (25 uint32_t fields then one float, 104 bytes),
// every field 0 by default, originalHLength equal to hLength. Host code
// fills the byte-identical optiling::LayerNormTiling and copies it word by
// word, so the field order is part of the interface. Visible as
// AscendC::tiling::LayerNormTiling, AscendC::LayerNormTiling and, as Ascend C
// programs write it, unqualified at global scope.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/normalization/chunked_rows_tiling.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order, those of every tiling shaped like LayerNorm's
/// (chunked_rows_tiling.h; tiling_fields.h says how the list is used).
#define NORMGRAD_LAYERNORM_TILING_FIELDS(X) \
  NORMGRAD_CHUNKED_ROWS_TILING_FIELDS(X)

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
  X(uint32_t, aLength)               /* A (the most rows a call may take) */   \
  X(uint32_t, rLength)               /* R (the 32-byte aligned row) */         \
  X(uint32_t, halfAddRepeatTimes)    /* log2(rHeadLength / 64), 0 if ≤ 64 */ \
  X(uint32_t, rHeadLength)           /* the largest power of two ≤ R */      \
  X(float, k2Rec)                    /* 1.0f / rHeadLength */                  \
  X(float, k2RRec)                   /* (float)rHeadLength / R */              \
  X(uint32_t, inputXSize)            /* A·R */                                \
  X(uint32_t, meanVarSize)           /* A */                                   \
  X(uint32_t, numberOfTmpBuf)        /* 2 */                                   \
  X(uint32_t, varianceTmpTensorPos)  /* 0: the statistics are outputs */       \
  X(uint32_t, varianceTmpTensorSize) /* 0 */                                   \
  X(uint32_t, tmpBufSize)            /* scratch in floats */                   \
  X(uint32_t, oneTmpSize)            /* a multiple of R, ≤ A·R */           \
  X(uint32_t, firstTmpStartPos)      /* 0 */                                   \
  X(uint32_t, secondTmpStartPos)     /* oneTmpSize */                          \
  X(uint32_t, thirdTmpStartPos)      /* 2·oneTmpSize (no third buffer) */     \
  X(uint32_t, loopRound)             /* inputXSize / oneTmpSize */             \
  X(uint32_t, inputRoundSize)        /* oneTmpSize */                          \
  X(uint32_t, inputTailSize)         /* inputXSize % oneTmpSize */             \
  X(uint32_t, inputTailPos)          /* inputXSize − inputTailSize */        \
  X(uint32_t, meanVarRoundSize)      /* oneTmpSize / R */                      \
  X(uint32_t, meanVarTailSize)       /* inputTailSize / R */                   \
  X(uint32_t, meanVarTailPos)        /* A − meanVarTailSize */               \
  X(uint32_t, arCurLength)           /* oneTmpSize */                          \
  X(uint32_t, aCurLength)            /* oneTmpSize / R */                      \
  X(float, rValueBack)               /* 1.0f / R */

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
