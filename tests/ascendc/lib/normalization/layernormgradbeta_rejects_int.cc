// layernormgradbeta_rejects_int.cc — must NOT compile: LayerNormGradBeta
// accepts only half and float. Built by the ctest
// compat:layernormgradbeta_rejects_int, which expects the static_assert's
// message in the compiler output.
#include "kernel_operator.h"

void Kernel(const AscendC::LocalTensor<int32_t>& t,
            AscendC::LayerNormGradBetaTiling& tiling) {
  AscendC::LayerNormGradBeta<int32_t>(t, t, t, t, tiling);
}
