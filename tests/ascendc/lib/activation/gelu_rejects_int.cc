// gelu_rejects_int.cc — must not compile: Gelu takes half or float only
// (the ctest compat:gelu_rejects_int expects the static_assert's message).
#include "kernel_operator.h"

void GeluOnInt(const AscendC::LocalTensor<int32_t>& dst,
               const AscendC::LocalTensor<int32_t>& src) {
  AscendC::Gelu(dst, src, 8u);
}
