// normalize_rejects_low_precision_gamma.cc — must not compile: Normalize
// with half gamma/beta for float input (U less precise than T) fails with the
// static_assert's message (tests/ascendc/lib/normalization/CMakeLists.txt
// checks it).
#include "kernel_operator.h"

void Call(const AscendC::LocalTensor<float>& y,
          const AscendC::LocalTensor<float>& f,
          const AscendC::LocalTensor<half>& gamma) {
  AscendC::Normalize<half, float>(y, f, f, f, f, gamma, gamma, 1e-5f,
                                  AscendC::NormalizePara(1, 8, 8));
}
