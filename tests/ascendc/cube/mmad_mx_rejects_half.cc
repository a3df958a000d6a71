// mmad_mx_rejects_half.cc — must not compile: MmadMx takes fp4x2 or FP8
// inputs only (its page's table), so half inputs fail with the
// static_assert's message (tests/ascendc/cube/CMakeLists.txt checks it).
#include "kernel_operator.h"

void Call(const AscendC::LocalTensor<float>& dst,
          const AscendC::LocalTensor<half>& fm,
          const AscendC::LocalTensor<half>& filter) {
  AscendC::MmadParams params;
  AscendC::MmadMx(dst, fm, filter, params);
}
