// normgrad_ascendc/lib/normalization/layernormgrad_tiling.h — the kernel-side
// tiling struct of LayerNormGrad and its field list: 30 uint32_t fields, 120
// bytes, every field 0 by default. Host code fills the byte-identical
// optiling::LayerNormGradTiling and copies it word by word, so the field
// order is part of the interface. Visible as AscendC::tiling::
// LayerNormGradTiling, AscendC::LayerNormGradTiling and, as Ascend C programs
// write it, unqualified at global scope.
//
// The scratch regions (tmpTensorBSH … tmpTensor2) have a position and a size
// in floats. float with isReuseSource computes x1 in inputDy and x2 in
// inputX; tmp, tmp1 and tmp2 are half's.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_LAYERNORMGRAD_TILING_FIELDS(X)                                \
  X(uint32_t, stackBufferSize) /* scratch in BYTES (not floats) */             \
  X(uint32_t, bLength)         /* B */                                         \
  X(uint32_t, sLength)         /* S */                                         \
  X(uint32_t, hLength)         /* H (storage) */                               \
  X(uint32_t, originalHLength) /* original H (must equal hLength) */           \
  X(uint32_t, oneCalSize)      /* elements per chunk: nohCalSize · H */       \
  X(uint32_t, nohCalSize)      /* rows per chunk */                            \
  X(uint32_t, loopNum)         /* B·S·H / oneCalSize (full chunks) */        \
  X(uint32_t, tailSize)        /* B·S·H % oneCalSize (the last chunk) */     \
  X(uint32_t, nohTailSize)     /* tailSize / H (its rows) */                   \
  X(uint32_t, tmpTensorBSHPos) /* the terms of the row sums */                 \
  X(uint32_t, tmpTensorBSHSize)                                                \
  X(uint32_t, pdVarTensorPos) /* pd_var, broadcast over each row */            \
  X(uint32_t, pdVarTensorSize)                                                 \
  X(uint32_t, pdMeanTensorPos) /* pd_mean, broadcast over each row */          \
  X(uint32_t, pdMeanTensorSize)                                                \
  X(uint32_t, x1TensorPos) /* x1 = dy · gamma */                              \
  X(uint32_t, x1TensorSize)                                                    \
  X(uint32_t, x2TensorPos) /* x2 = x − mean */                               \
  X(uint32_t, x2TensorSize)                                                    \
  X(uint32_t, x3TensorPos) /* x3 = x1 · rstd */                               \
  X(uint32_t, x3TensorSize)                                                    \
  X(uint32_t, tmpTensorPos) /* dy widened, then pd_x */                        \
  X(uint32_t, tmpTensorSize)                                                   \
  X(uint32_t, tmpTensor1Pos) /* x widened, then resForGamma */                 \
  X(uint32_t, tmpTensor1Size)                                                  \
  X(uint32_t, tmpTensor2Pos) /* gamma widened */                               \
  X(uint32_t, tmpTensor2Size)                                                  \
  X(uint32_t, lastDimValueBack)       /* bits of the float 1.0f / originalH */ \
  X(uint32_t, lastDimValueBackMulTwo) /* bits of the float 2.0f / originalH */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormGradTiling {
  NORMGRAD_LAYERNORMGRAD_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(LayerNormGradTiling) == 120,
              "LayerNormGradTiling is 30 uint32_t words");

}  // namespace tiling
using tiling::LayerNormGradTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormGradTiling;
