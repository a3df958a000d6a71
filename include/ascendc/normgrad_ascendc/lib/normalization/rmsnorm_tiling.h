// normgrad_ascendc/lib/normalization/rmsnorm_tiling.h — the kernel-side tiling
// struct of RmsNorm and its field list: eleven uint32_t fields and one float,
// 48 bytes, every field 0 by default, in the documented order (host code copies
// the byte-identical optiling::RmsNormTiling word by word). Visible as
// AscendC::tiling::RmsNormTiling, AscendC::RmsNormTiling and, as Ascend C
// programs write it, unqualified at global scope.
//
// The rows (B·S of them) are processed in chunks of mainBsLength rows and a
// tail of tailBsLength rows; docs/rmsnorm.md, "Tiling fields", derives each
// field.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
#define NORMGRAD_RMSNORM_TILING_FIELDS(X)                                     \
  X(uint32_t, bLength)           /* B */                                      \
  X(uint32_t, sLength)           /* S */                                      \
  X(uint32_t, hLength)           /* H, 32-byte aligned (storage) */           \
  X(uint32_t, originalHLength)   /* H before padding, 1 ≤ it ≤ hLength */ \
  X(float, reciprocalOfHLength)  /* 1.0f / (float)originalHLength */          \
  X(uint32_t, mainBshLength)     /* mainBsLength · hLength */                \
  X(uint32_t, mainBsLength)      /* rows per chunk, ≤ B·S */               \
  X(uint32_t, mainBsLengthAlign) /* roundup(mainBsLength, 8) */               \
  X(uint32_t, loopRound)         /* B·S / mainBsLength full chunks */        \
  X(uint32_t, inputTailPos)      /* loopRound · mainBshLength */             \
  X(uint32_t, tailBshLength)     /* tailBsLength · hLength */                \
  X(uint32_t, tailBsLength)      /* B·S % mainBsLength */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct RmsNormTiling {
  NORMGRAD_RMSNORM_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(RmsNormTiling) == 48,
              "RmsNormTiling is eleven uint32_t words and one float");

}  // namespace tiling
using tiling::RmsNormTiling;
}  // namespace AscendC

using AscendC::tiling::RmsNormTiling;
