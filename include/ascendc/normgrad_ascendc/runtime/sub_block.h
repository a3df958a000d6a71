// normgrad_ascendc/runtime/sub_block.h — where a block sits inside its logical
// AI Core (docs/program-surface.md, "Blocks inside a core"; docs/cube.md,
// "Cube cores"): GetSubBlockIdx, GetSubBlockNum and GetTaskRatio, read from
// the running core's role (core.h: CoreRole). Outside mixed cube-and-vector
// kernels (vector-only or cube-only kernels, the coupled AI Cores of the
// Atlas inference series) each block is a core of its own: index 0 of 1,
// ratio 1. In a KERNEL_TYPE_MIX_AIC_1_2 kernel a vector core is sub-block 0
// or 1 of 2 with task ratio 2 (1 of 1 and ratio 1 in a _1_1 kernel), and a
// cube core sub-block 0 of 1 with ratio 1.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"

namespace AscendC {

/// The core's index among the cores of its kind in its logical AI Core.
inline int64_t GetSubBlockIdx() {
  return normgrad_ascendc::CurrentCore().role().sub_block_idx;
}
/// Cores of the running kind per logical AI Core.
inline int64_t GetSubBlockNum() {
  return normgrad_ascendc::CurrentCore().role().sub_block_num;
}
/// Started cores of the running kind per logical AI Core.
inline int64_t GetTaskRatio() {
  return normgrad_ascendc::CurrentCore().role().task_ratio;
}

}  // namespace AscendC
