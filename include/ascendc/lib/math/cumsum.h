// lib/math/cumsum.h — the kernel-side CumSum API of Ascend C (the contract:
// docs/math.md, "CumSum"): dstTensor = the running sums of srcTensor, an
// outter x inner matrix, down its rows (isLastAxis false: row i is the sum
// of rows 0..i) or along each row (isLastAxis true: element j of a row is
// the sum of its elements 0..j); with outputLastRow, lastRowTensor gets the
// last row (first axis) or the last element of each row (last axis).
// T = half or float on every profile; CumSumConfig::algorithm SKLANSKY on
// Ascend 950 only. The overloads: sharedTmpBuffer or the framework scratch.
#pragma once

#include "normgrad_ascendc/lib/math/cumsum_call.h"
#include "normgrad_ascendc/lib/math/elementwise_call.h"

namespace AscendC {

enum class CumSumAlgorithm {
  CUMSUM_ALGORITHM_LINEBYLINE = 0,
  CUMSUM_ALGORITHM_SKLANSKY = 1
};

struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

inline constexpr CumSumConfig defaultCumSumConfig = {};

/// The shape of srcTensor: outter rows of inner elements.
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};

namespace cumsum_detail {

template <typename T, const CumSumConfig& config>
void Run(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
         const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>* tmp,
         const CumSumInfo& cumSumInfo, normgrad_ascendc::CallSite site) {
  static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,
                "CumSum: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunCumSum(
      {std::is_same_v<T, half>, dstTensor.view(), lastRowTensor.view(),
       srcTensor.view(), tmp != nullptr ? &tmp->view() : nullptr,
       cumSumInfo.outter, cumSumInfo.inner, config.isLastAxis,
       config.outputLastRow,
       config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY});
}

}  // namespace cumsum_detail

/// With a caller's scratch (GetCumSumMaxMinTmpSize gives its size).
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor,
                              LocalTensor<T>& lastRowTensor,
                              const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer,
                              const CumSumInfo& cumSumInfo,
                              normgrad_ascendc::CallSite site = {}) {
  cumsum_detail::Run<T, config>(dstTensor, lastRowTensor, srcTensor,
                                &sharedTmpBuffer, cumSumInfo, site);
}

/// With the framework scratch.
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor,
                              LocalTensor<T>& lastRowTensor,
                              const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo,
                              normgrad_ascendc::CallSite site = {}) {
  cumsum_detail::Run<T, config>(dstTensor, lastRowTensor, srcTensor, nullptr,
                                cumSumInfo, site);
}

}  // namespace AscendC
