// normgrad_ascendc/layernormgrad_tiling.h — the kernel-side tiling struct of
// LayerNormGrad (spec layernormgrad.md §4): 30 uint32_t fields, 120 bytes,
// every field 0 by default. Host code fills the byte-identical
// optiling::LayerNormGradTiling and copies it word by word, so the field
// order is part of the interface. Visible as AscendC::tiling::
// LayerNormGradTiling, AscendC::LayerNormGradTiling and, as Ascend C programs
// write it, unqualified at global scope.
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormGradTiling {
  uint32_t stackBufferSize = 0;  ///< scratch in BYTES (not floats)
  uint32_t bLength = 0;          ///< B
  uint32_t sLength = 0;          ///< S
  uint32_t hLength = 0;          ///< H (storage)
  uint32_t originalHLength = 0;  ///< original H (must equal hLength)
  uint32_t oneCalSize = 0;       ///< elements per chunk: nohCalSize · H
  uint32_t nohCalSize = 0;       ///< rows per chunk
  uint32_t loopNum = 0;          ///< B·S·H / oneCalSize (full chunks)
  uint32_t tailSize = 0;         ///< B·S·H % oneCalSize (the last chunk)
  uint32_t nohTailSize = 0;      ///< tailSize / H (its rows)
  // Scratch regions, position and size in floats. float with isReuseSource
  // computes x1 in inputDy and x2 in inputX; tmp, tmp1 and tmp2 are half's.
  uint32_t tmpTensorBSHPos = 0;  ///< the terms of the row sums
  uint32_t tmpTensorBSHSize = 0;
  uint32_t pdVarTensorPos = 0;  ///< pd_var, broadcast over each row
  uint32_t pdVarTensorSize = 0;
  uint32_t pdMeanTensorPos = 0;  ///< pd_mean, broadcast over each row
  uint32_t pdMeanTensorSize = 0;
  uint32_t x1TensorPos = 0;  ///< x1 = dy · gamma
  uint32_t x1TensorSize = 0;
  uint32_t x2TensorPos = 0;  ///< x2 = x − mean
  uint32_t x2TensorSize = 0;
  uint32_t x3TensorPos = 0;  ///< x3 = x1 · rstd
  uint32_t x3TensorSize = 0;
  uint32_t tmpTensorPos = 0;  ///< dy widened, then pd_x
  uint32_t tmpTensorSize = 0;
  uint32_t tmpTensor1Pos = 0;  ///< x widened, then resForGamma
  uint32_t tmpTensor1Size = 0;
  uint32_t tmpTensor2Pos = 0;  ///< gamma widened
  uint32_t tmpTensor2Size = 0;
  uint32_t lastDimValueBack = 0;        ///< bits of the float 1.0f / originalH
  uint32_t lastDimValueBackMulTwo = 0;  ///< bits of the float 2.0f / originalH
};
#pragma pack(pop)

static_assert(sizeof(LayerNormGradTiling) == 120,
              "LayerNormGradTiling is 30 uint32_t words");

}  // namespace tiling
using tiling::LayerNormGradTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormGradTiling;
