// normgrad_ascendc/lib/normalization/deepnorm_tiling.h — the kernel-side tiling
// struct of DeepNorm: the fields of chunked_rows_tiling.h (25 uint32_t fields
// then one float, 104 bytes), every field 0 by default, originalHLength in [1,
// hLength]. Host code fills the byte-identical optiling::DeepNormTiling and
// copies it word by word, so the field order is part of the interface. Visible
// as AscendC::tiling::DeepNormTiling, AscendC::DeepNormTiling and, as Ascend C
// programs write it, unqualified at global scope.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/normalization/chunked_rows_tiling.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order, those of every tiling shaped like LayerNorm's
/// (chunked_rows_tiling.h; tiling_fields.h says how the list is used).
#define NORMGRAD_DEEPNORM_TILING_FIELDS(X) \
  NORMGRAD_CHUNKED_ROWS_TILING_FIELDS(X)

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct DeepNormTiling {
  NORMGRAD_DEEPNORM_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(DeepNormTiling) == 104,
              "DeepNormTiling is 25 uint32_t words and one float");

}  // namespace tiling
using tiling::DeepNormTiling;
}  // namespace AscendC

using AscendC::tiling::DeepNormTiling;
