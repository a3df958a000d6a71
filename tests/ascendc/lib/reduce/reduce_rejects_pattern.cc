// reduce_rejects_pattern.cc — must not compile: the Reduce pages support the
// patterns AR and RA only (the ctest compat:reduce_rejects_pattern expects
// the static_assert's message).
#include "kernel_operator.h"

void ReduceSumOverAra(const AscendC::LocalTensor<float>& dst,
                      const AscendC::LocalTensor<float>& src,
                      const AscendC::LocalTensor<uint8_t>& tmp) {
  const uint32_t shape[] = {2, 8};
  AscendC::ReduceSum<float, AscendC::Pattern::Reduce::ARA>(dst, src, tmp, shape,
                                                           true);
}
