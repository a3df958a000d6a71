// normgrad_ascendc/runtime/sub_block.h — where a block sits inside its logical
// AI Core (docs/program-surface.md, "Blocks inside a core"): GetSubBlockIdx,
// GetSubBlockNum and GetTaskRatio. normgrad runs vector-only kernels
// (KERNEL_TYPE_AIV_ONLY, or the coupled AI Cores of the Atlas inference
// series), where each block is one vector core of its own: index 0 of 1, and
// the ratio of started vector cores to logical cores is 1.
#pragma once

#include <cstdint>

namespace AscendC {

/// The block's vector core inside its logical AI Core: always 0.
inline int64_t GetSubBlockIdx() { return 0; }
/// Vector cores per logical AI Core: 1.
inline int64_t GetSubBlockNum() { return 1; }
/// Started vector cores per logical AI Core: 1.
inline int64_t GetTaskRatio() { return 1; }

}  // namespace AscendC
