// quant_rejects_type.cc — must not compile: Dequantize takes the (DstT,
// SrcT, scale) triples of its page's table only, and PER_CHANNEL has no
// (half, int32_t, float) (the ctest compat:quant_rejects_type expects the
// static_assert's message).
#include "kernel_operator.h"

constexpr AscendC::DequantizeConfig kChannel = {
    AscendC::DequantizePolicy::PER_CHANNEL, false, 1};

void DequantizeHalfFromFloatScale(const AscendC::LocalTensor<half>& dst,
                                  const AscendC::LocalTensor<int32_t>& src,
                                  const AscendC::LocalTensor<float>& scale) {
  AscendC::Dequantize<kChannel>(dst, src, scale, scale, {1, 32, 0});
}
