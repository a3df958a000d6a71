// lib/sort/topk.h — the kernel-side TopK API of Ascend C (the contract:
// docs/sort.md, "TopK"): the k largest (or smallest) of the first n
// elements of each of topKInfo.outter rows, with their indices. template
// <T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config =
// defaultTopKConfig>: one template per scratch form (the framework scratch,
// tmpLocal) stands for the pages' forms with and without TopKConfig, which
// two templates could not both be (a call naming five template arguments
// would match both). TopKConfig's RADIX_SELECT runs on Ascend 950 only.
#pragma once

#include "normgrad_ascendc/lib/sort/sort_call.h"

namespace normgrad_ascendc {

template <typename T, bool isInitIndex, bool isHasfinish,
          AscendC::TopKMode mode>
void TopKCall(const CallSite& site, const AscendC::TopKConfig& config,
              const AscendC::LocalTensor<T>& dst_value,
              const AscendC::LocalTensor<int32_t>& dst_index,
              const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<int32_t>& src_index,
              const AscendC::LocalTensor<bool>& finish,
              const TensorView* shared_tmp, int32_t k,
              const AscendC::TopkTiling& tiling, const AscendC::TopKInfo& info,
              bool is_largest) {
  static_assert(kIsRadixType<T>,
                "TopK: T must be half or float (RADIX_SELECT on Ascend 950 "
                "also uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, "
                "bfloat16_t, uint64_t, int64_t)");
  const ApiCall call(site);
  TopKArgs a{};
  a.type = SortElemOf<T>();
  a.init_index = isInitIndex;
  a.has_finish = isHasfinish;
  a.small = mode == AscendC::TopKMode::TOPK_NSMALL;
  a.config = config;
  a.dst_value = dst_value.view();
  a.dst_index = dst_index.view();
  a.src = src.view();
  a.src_index = src_index.view();
  a.finish = finish.view();
  a.shared_tmp = shared_tmp;
  a.k = k;
  a.tiling = &tiling;
  a.info = info;
  a.is_largest = is_largest;
  RunTopK(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false,
          bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal,
                            const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal,
                            const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal,
                            const int32_t k, const TopkTiling& tilling,
                            const TopKInfo& topKInfo,
                            const bool isLargest = true,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::TopKCall<T, isInitIndex, isHasfinish, topkMode>(
      site, config, dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
      finishLocal, nullptr, k, tilling, topKInfo, isLargest);
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false,
          bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
__aicore__ inline void TopK(
    const LocalTensor<T>& dstValueLocal,
    const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
    const LocalTensor<int32_t>& srcIndexLocal,
    const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
    const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
    const bool isLargest = true, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::TopKCall<T, isInitIndex, isHasfinish, topkMode>(
      site, config, dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
      finishLocal, &tmpLocal.view(), k, tilling, topKInfo, isLargest);
}

}  // namespace AscendC
