// lib/activation/swish.h — the kernel-side Swish API of Ascend C (the
// contract: docs/activation.md): dstLocal[i] = x / (1 + e^(β·x)), x =
// srcLocal[i], β = scalarValue, for i < dataSize (the sign of β as the
// page's example computes it: β = -1.702 gives x·sigmoid(1.702·x)). T = half
// or float on every profile, β of type T (converted, as the page's example
// passes a double literal); one overload, on the framework scratch
// (GetSwishTmpSize gives its range). Every check of docs/activation.md runs
// on every call; a violation is a KernelError naming the API, the argument,
// the value and the rule.
#pragma once

#include "normgrad_ascendc/lib/activation/elementwise_call.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(
    const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
    uint32_t dataSize,
    const typename normgrad_ascendc::NonDeduced<T>::type scalarValue,
    normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "Swish: T must be half or float");
  normgrad_ascendc::ActivationCall<T>(
      normgrad_ascendc::ActivationApi::kSwish, site, dstLocal, srcLocal,
      nullptr, nullptr, dataSize, static_cast<float>(scalarValue));
}

}  // namespace AscendC
