// lib/sort/sort.h — the kernel-side Sort API of Ascend C and its size helpers
// (the contract: docs/sort.md).
//
// Without SortConfig: Sort<T, isFullSort>(dst, concat, index, tmp,
// repeatTime) sorts repeatTime·32 scores (half or float) with their uint32_t
// indices into (score, index) pairs, highest first, within each repeat of 32
// or, with isFullSort, across all of them. With SortConfig (Ascend 950): the
// six overloads sort calCount values ascending or descending, optionally
// with their indices (generated from 0, or carried from srcIndexTensor),
// into the framework scratch or sharedTmpBuffer. GetSortLen and
// GetSortOffset size the sorted region.
#pragma once

#include "normgrad_ascendc/lib/sort/sort_call.h"

namespace normgrad_ascendc {

/// Bytes of one sorted structure on the process profile: an 8-byte pair, or
/// a Region Proposal of 8 elements of `elem_bytes` on the Atlas inference
/// series.
uint32_t SortStructureBytes(uint32_t elem_bytes);

template <typename T, typename U>
void SortConfigCall(const CallSite& site, const AscendC::SortConfig& config,
                    bool has_src_index, bool has_dst_index,
                    const TensorView& dst, const TensorView* dst_index,
                    const TensorView& src, const TensorView* src_index,
                    const TensorView* shared_tmp, uint32_t count) {
  static_assert(kIsRadixType<T>,
                "Sort: T must be uint8_t, int8_t, uint16_t, int16_t, "
                "uint32_t, int32_t, half, bfloat16_t, float, uint64_t or "
                "int64_t");
  static_assert(SortElemOf<U>() == SortElem::kUint32 ||
                    SortElemOf<U>() == SortElem::kInt32 ||
                    SortElemOf<U>() == SortElem::kUint64 ||
                    SortElemOf<U>() == SortElem::kInt64,
                "Sort: U must be uint32_t, int32_t, uint64_t or int64_t");
  const ApiCall call(site);
  SortConfigArgs a{};
  a.value_type = SortElemOf<T>();
  a.index_type = SortElemOf<U>();
  a.config = config;
  a.has_src_index = has_src_index;
  a.has_dst_index = has_dst_index;
  a.dst = dst;
  a.src = src;
  if (dst_index != nullptr) a.dst_index = *dst_index;
  if (src_index != nullptr) a.src_index = *src_index;
  a.shared_tmp = shared_tmp;
  a.count = count;
  RunSortConfig(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// Bytes of the sorted region of elemCount scores: 8 per pair, or
/// 8·sizeof(T) per Region Proposal on the Atlas inference series.
template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(normgrad_ascendc::kIsSortScore<T>,
                "GetSortLen: T must be half or float");
  return elemCount * normgrad_ascendc::SortStructureBytes(sizeof(T));
}

/// Where structure elemOffset of a sorted region starts, in elements of T
/// (the unit a LocalTensor<T> is indexed in; docs/decisions.md, "Sort").
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
  static_assert(normgrad_ascendc::kIsSortScore<T>,
                "GetSortOffset: T must be half or float");
  return elemOffset * normgrad_ascendc::SortStructureBytes(sizeof(T)) /
         sizeof(T);
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst,
                            const LocalTensor<T>& concat,
                            const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime,
                            normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsSortScore<T>,
                "Sort: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SortRegionArgs a{};
  a.is_half = std::is_same_v<T, half>;
  a.full = isFullSort;
  a.dst = dst.view();
  a.concat = concat.view();
  a.index = index.view();
  a.tmp = tmp.view();
  a.repeat_time = repeatTime;
  normgrad_ascendc::RunSortRegion(a);
}

// ---- With SortConfig (Ascend 950) ------------------------------------------

template <typename T, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor,
                            const LocalTensor<T>& srcTensor,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SortConfigCall<T, uint32_t>(
      site, config, false, false, dstTensor.view(), nullptr, srcTensor.view(),
      nullptr, nullptr, calCount);
}

template <typename T, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor,
                            LocalTensor<uint32_t>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SortConfigCall<T, uint32_t>(
      site, config, false, true, dstTensor.view(), &dstIndexTensor.view(),
      srcTensor.view(), nullptr, nullptr, calCount);
}

template <typename T, typename U, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(const LocalTensor<T>& dstTensor,
                            const LocalTensor<U>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor,
                            const LocalTensor<U>& srcIndexTensor,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SortConfigCall<T, U>(
      site, config, true, true, dstTensor.view(), &dstIndexTensor.view(),
      srcTensor.view(), &srcIndexTensor.view(), nullptr, calCount);
}

template <typename T, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor,
                            const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SortConfigCall<T, uint32_t>(
      site, config, false, false, dstTensor.view(), nullptr, srcTensor.view(),
      nullptr, &sharedTmpBuffer.view(), calCount);
}

template <typename T, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor,
                            LocalTensor<uint32_t>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SortConfigCall<T, uint32_t>(
      site, config, false, true, dstTensor.view(), &dstIndexTensor.view(),
      srcTensor.view(), nullptr, &sharedTmpBuffer.view(), calCount);
}

template <typename T, typename U, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor,
                            LocalTensor<U>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor,
                            const LocalTensor<U>& srcIndexTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount,
                            normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::SortConfigCall<T, U>(
      site, config, true, true, dstTensor.view(), &dstIndexTensor.view(),
      srcTensor.view(), &srcIndexTensor.view(), &sharedTmpBuffer.view(),
      calCount);
}

}  // namespace AscendC
