// normgrad_ascendc/lib/normalization/layernormgradbeta_tiling.h — the
// kernel-side tiling struct of LayerNormGradBeta and its field list: 20
// uint32_t fields, 80 bytes, every field 0 by default. Host code fills the
// byte-identical optiling::LayerNormGradBetaTiling and copies it word by word,
// so the field order is part of the interface. Visible as AscendC::tiling::
// LayerNormGradBetaTiling, AscendC::LayerNormGradBetaTiling and, as Ascend C
// programs write it, unqualified at global scope.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
/// Sizes and positions are in floats.
#define NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS(X)                         \
  X(uint32_t, stackBufferSize)    /* scratch in floats */                   \
  X(uint32_t, bLength)            /* B */                                   \
  X(uint32_t, sLength)            /* S */                                   \
  X(uint32_t, hLength)            /* H (storage) */                         \
  X(uint32_t, originalHLength)    /* original H (must equal hLength) */     \
  X(uint32_t, bshLength)          /* B·S·H */                             \
  X(uint32_t, bsLength)           /* B·S */                                \
  X(uint32_t, oneCalSize)         /* per chunk: a multiple of H, ≤ bsh */ \
  X(uint32_t, numberOfTmpBuf)     /* 1 for float, 2 for half */             \
  X(uint32_t, loopRound)          /* bsh / oneCalSize */                    \
  X(uint32_t, inputTailSize)      /* bsh % oneCalSize */                    \
  X(uint32_t, inputTailPos)       /* bsh − inputTailSize */               \
  X(uint32_t, bsTailSize)         /* inputTailSize / H */                   \
  X(uint32_t, bshCurLength)       /* oneCalSize */                          \
  X(uint32_t, bsCurLength)        /* oneCalSize / H */                      \
  X(uint32_t, gammaTempTensorPos) /* scratch offsets (half only) */         \
  X(uint32_t, betaTempTensorPos)                                            \
  X(uint32_t, inputDyTmpTensorPos)                                          \
  X(uint32_t, resForGammaTmpTensorPos)                                      \
  X(uint32_t, reserved)

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct LayerNormGradBetaTiling {
  NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(LayerNormGradBetaTiling) == 80,
              "LayerNormGradBetaTiling is 20 uint32_t words");

}  // namespace tiling
using tiling::LayerNormGradBetaTiling;
}  // namespace AscendC

using AscendC::tiling::LayerNormGradBetaTiling;
