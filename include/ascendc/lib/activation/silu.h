// lib/activation/silu.h — the kernel-side Silu API of Ascend C (the
// contract: docs/activation.md): dstLocal[i] = x / (1 + e^-x), x =
// srcLocal[i], for i < dataSize. T = half or float on every profile; one
// overload, on the framework scratch (GetSiluTmpSize gives its range). Every
// check of docs/activation.md runs on every call; a violation is a
// KernelError naming the API, the argument, the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal,
                            const LocalTensor<T>& srcLocal, uint32_t dataSize,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "Silu: T must be half or float");
  normgrad_ascendc::ActivationCall<T>(normgrad_ascendc::ActivationApi::kSilu,
                                      site, dstLocal, srcLocal, nullptr,
                                      nullptr, dataSize);
}

}  // namespace AscendC
