// ceil_rejects_int.cc — must not compile: Ceil takes half or float only
// (the ctest compat:ceil_rejects_int expects the static_assert's message).
#include "kernel_operator.h"

void CeilOnInt(const AscendC::LocalTensor<int32_t>& dst,
               const AscendC::LocalTensor<int32_t>& src) {
  AscendC::Ceil(dst, src, 8u);
}
