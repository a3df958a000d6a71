// lib/sort/concat.h — the kernel-side Concat API of Ascend C (the contract:
// docs/sort.md): prepares the scores a Sort reads, repeatTime·16 elements of
// src into concat. T half or float; tmp is the scratch GetConcatTmpSize
// sizes.
#pragma once

#include "normgrad_ascendc/lib/sort/sort_call.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src,
                              const LocalTensor<T>& tmp,
                              const int32_t repeatTime,
                              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsSortScore<T>,
                "Concat: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ConcatArgs a{};
  a.is_half = std::is_same_v<T, half>;
  a.concat = concat.view();
  a.src = src.view();
  a.tmp = tmp.view();
  a.repeat_time = repeatTime;
  normgrad_ascendc::RunConcat(a);
}

}  // namespace AscendC
