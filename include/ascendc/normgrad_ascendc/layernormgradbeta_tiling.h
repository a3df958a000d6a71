// normgrad_ascendc/layernormgradbeta_tiling.h — the kernel-side tiling struct
// of LayerNormGradBeta (spec layernormgradbeta.md §4): 20 uint32_t fields, 80
// bytes, every field 0 by default. Host code fills the byte-identical
// optiling::LayerNormGradBetaTiling and copies it word by word, so the field
// order is part of the interface. Visible as AscendC::tiling::
// LayerNormGradBetaTiling, AscendC::LayerNormGradBetaTiling and, as Ascend C
// programs write it, unqualified at global scope.
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormGradBetaTiling {
  uint32_t stackBufferSize = 0;  ///< scratch in floats
  uint32_t bLength = 0;          ///< B
  uint32_t sLength = 0;          ///< S
  uint32_t hLength = 0;          ///< H (storage)
  uint32_t originalHLength = 0;  ///< original H (must equal hLength)
  uint32_t bshLength = 0;        ///< B·S·H
  uint32_t bsLength = 0;         ///< B·S
  uint32_t oneCalSize = 0;       ///< elements per chunk, a multiple of H, ≤ bsh
  uint32_t numberOfTmpBuf = 0;   ///< 1 for float, 2 for half
  uint32_t loopRound = 0;        ///< bsh / oneCalSize
  uint32_t inputTailSize = 0;    ///< bsh % oneCalSize
  uint32_t inputTailPos = 0;     ///< bsh − inputTailSize
  uint32_t bsTailSize = 0;       ///< inputTailSize / H
  uint32_t bshCurLength = 0;     ///< oneCalSize
  uint32_t bsCurLength = 0;      ///< oneCalSize / H
  uint32_t gammaTempTensorPos = 0;       ///< scratch offsets, in floats
  uint32_t betaTempTensorPos = 0;
  uint32_t inputDyTmpTensorPos = 0;
  uint32_t resForGammaTmpTensorPos = 0;
  uint32_t reserved = 0;
};
#pragma pack(pop)

static_assert(sizeof(LayerNormGradBetaTiling) == 80,
              "LayerNormGradBetaTiling is 20 uint32_t words");

}  // namespace tiling
using tiling::LayerNormGradBetaTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormGradBetaTiling;
