// normgrad_ascendc/lib/matmul/matmul_batch_layout.h — where a batch's matrix
// lies in the batch layouts of IterateBatch (docs/matmul.md, "Batches"):
// BSNGD, SBNGD and BNGS1S2, each a tensor of five axes whose (S, D) planes
// are the batches' matrices. Batches are counted over B, N and G with G
// fastest; a matrix has S rows of D elements, its rows a layout's row
// length apart. Pure arithmetic, so the kernel-side Matmul and its tests
// share no more than these definitions.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/matmul/cube_tiling.h"
#include "normgrad_ascendc/lib/matmul/matmul_config.h"

namespace normgrad_ascendc {
namespace matmul {

/// One operand's five axes from the tiling (C's S1 and S2 stand for S and D).
struct LayoutAxes {
  uint64_t b = 0, s = 0, n = 0, g = 0, d = 0;
};

inline LayoutAxes LayoutAxesA(const TCubeTiling& t) {
  return {uint64_t(t.ALayoutInfoB), uint64_t(t.ALayoutInfoS),
          uint64_t(t.ALayoutInfoN), uint64_t(t.ALayoutInfoG),
          uint64_t(t.ALayoutInfoD)};
}
inline LayoutAxes LayoutAxesB(const TCubeTiling& t) {
  return {uint64_t(t.BLayoutInfoB), uint64_t(t.BLayoutInfoS),
          uint64_t(t.BLayoutInfoN), uint64_t(t.BLayoutInfoG),
          uint64_t(t.BLayoutInfoD)};
}
inline LayoutAxes LayoutAxesC(const TCubeTiling& t) {
  return {uint64_t(t.CLayoutInfoB), uint64_t(t.CLayoutInfoS1),
          uint64_t(t.CLayoutInfoN), uint64_t(t.CLayoutInfoG),
          uint64_t(t.CLayoutInfoS2)};
}

/// The elements from one row of a matrix to the next: BSNGD's rows step
/// over N · G · D, SBNGD's over B · N · G · D, BNGS1S2's matrices are
/// contiguous.
inline uint64_t LayoutRowLength(AscendC::LayoutMode mode, const LayoutAxes& x) {
  switch (mode) {
    case AscendC::LayoutMode::BSNGD:
      return x.n * x.g * x.d;
    case AscendC::LayoutMode::SBNGD:
      return x.b * x.n * x.g * x.d;
    default:
      return x.d;
  }
}

/// The first element of batch `batch` (B, N, G flattened, G fastest).
inline uint64_t LayoutBatchOffset(AscendC::LayoutMode mode, const LayoutAxes& x,
                                  uint64_t batch) {
  switch (mode) {
    case AscendC::LayoutMode::BSNGD: {
      const uint64_t per_b = x.n * x.g;  // the (N, G) matrices of one B
      return batch / per_b * x.s * per_b * x.d + batch % per_b * x.d;
    }
    case AscendC::LayoutMode::SBNGD:
      return batch * x.d;
    default:
      return batch * x.s * x.d;
  }
}

/// The layout's name in messages.
inline const char* LayoutName(AscendC::LayoutMode mode) {
  switch (mode) {
    case AscendC::LayoutMode::BSNGD:
      return "BSNGD";
    case AscendC::LayoutMode::SBNGD:
      return "SBNGD";
    case AscendC::LayoutMode::BNGS1S2:
      return "BNGS1S2";
    case AscendC::LayoutMode::NORMAL:
      return "NORMAL";
    default:
      return "NONE";
  }
}

}  // namespace matmul
}  // namespace normgrad_ascendc
