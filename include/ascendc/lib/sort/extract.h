// lib/sort/extract.h — the kernel-side Extract API of Ascend C (the contract:
// docs/sort.md): the scores and indices of repeatTime·32 sorted (score,
// index) pairs, in order, into dstValue and dstIndex. T half or float.
#pragma once

#include "normgrad_ascendc/lib/sort/sort_call.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue,
                               const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted,
                               const int32_t repeatTime,
                               normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsSortScore<T>,
                "Extract: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ExtractArgs a{};
  a.is_half = std::is_same_v<T, half>;
  a.dst_value = dstValue.view();
  a.dst_index = dstIndex.view();
  a.sorted = sorted.view();
  a.repeat_time = repeatTime;
  normgrad_ascendc::RunExtract(a);
}

}  // namespace AscendC
