// normgrad_ascendc/layernorm_tiling.h — the kernel-side tiling struct of
// LayerNorm (spec layernorm.md §3): 25 uint32_t fields then one float, 104
// bytes, every field 0 by default. Host code fills the byte-identical
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

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormTiling {
  uint32_t bLength = 0;                ///< B
  uint32_t sLength = 0;                ///< S
  uint32_t hLength = 0;                ///< H (storage)
  uint32_t originalHLength = 0;        ///< original H (must equal hLength)
  uint32_t inputXSize = 0;             ///< B·S·H
  uint32_t meanVarSize = 0;            ///< B·S
  uint32_t numberOfTmpBuf = 0;         ///< 2 for float with reuse, else 3
  uint32_t meanTmpTensorPos = 0;       ///< half: float means, B·S of them
  uint32_t meanTmpTensorSize = 0;      ///< roundup(B·S, 8)
  uint32_t varianceTmpTensorPos = 0;   ///< half: float variances
  uint32_t varianceTmpTensorSize = 0;  ///< roundup(B·S, 8)
  uint32_t tmpBufSize = 0;             ///< scratch in floats
  uint32_t oneTmpSize = 0;  ///< elements per chunk, a multiple of H, ≤ B·S·H
  uint32_t firstTmpStartPos = 0;  ///< the chunk buffers, oneTmpSize each
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;         ///< inputXSize / oneTmpSize full chunks
  uint32_t inputRoundSize = 0;    ///< oneTmpSize
  uint32_t inputTailSize = 0;     ///< inputXSize % oneTmpSize
  uint32_t inputTailPos = 0;      ///< inputXSize − inputTailSize
  uint32_t meanVarRoundSize = 0;  ///< oneTmpSize / H rows per chunk
  uint32_t meanVarTailSize = 0;   ///< inputTailSize / H rows in the tail
  uint32_t meanVarTailPos = 0;    ///< B·S − meanVarTailSize
  uint32_t bshCurLength = 0;      ///< oneTmpSize (inputTailSize after a tail)
  uint32_t bsCurLength = 0;       ///< oneTmpSize / H (meanVarTailSize after)
  float lastDimValueBack = 0.0f;  ///< 1.0f / (float)originalHLength
};
#pragma pack(pop)

static_assert(sizeof(LayerNormTiling) == 104,
              "LayerNormTiling is 25 uint32_t words and one float");

}  // namespace tiling
using tiling::LayerNormTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormTiling;
