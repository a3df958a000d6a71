// bitwise_rejects_half.cc — must not compile: BitwiseAnd takes the integer
// types only (the ctest compat:bitwise_rejects_half expects the
// static_assert's message).
#include "kernel_operator.h"

void BitwiseAndOnHalf(const AscendC::LocalTensor<half>& dst,
                      const AscendC::LocalTensor<half>& src0,
                      const AscendC::LocalTensor<half>& src1) {
  AscendC::BitwiseAnd(dst, src0, src1, 16u);
}
