// lib/activation/logsoftmax.h — the kernel-side LogSoftMax API of Ascend C
// (the contract: docs/softmax.md, "LogSoftMax"): for each row r of src
// [srcM, srcK] (its first oriSrcK columns the data), SoftMax's max_r and
// sum_r, and
//
//   dst[r, j] = log10(exp(x[r, j] - max_r) / sum_r)
//
// (base 10, as the page's steps and script say). T = half or float on Atlas
// A2/A3, Atlas inference AI Core and Ascend 950; half is computed in float and
// each output narrowed once. dst must not share memory with src; inputs must
// lie in [-2147483647, 2147483647]. Checks and errors as softmax.h says.
#pragma once

#include <type_traits>

#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/lib/activation/log_softmax_tiling.h"
#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst,
                                  const LocalTensor<T>& sum,
                                  const LocalTensor<T>& max,
                                  const LocalTensor<T>& src,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const LogSoftMaxTiling& tiling,
                                  const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                  normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,
                "LogSoftMax: T must be half or float");
  const SoftMaxTiling same = normgrad_ascendc::AsSoftMaxTiling(tiling);
  normgrad_ascendc::SoftMaxArgs args{};
  args.api = normgrad_ascendc::SoftMaxApi::kLogSoftMax;
  args.is_half = std::is_same_v<T, half>;
  args.stats_half = args.is_half;
  args.format_nz = isDataFormatNZ;
  args.dst = dst.view();
  args.src = src.view();
  args.sum = &sum.view();
  args.max = &max.view();
  args.shared_tmp = &sharedTmpBuffer.view();
  args.tiling = &same;
  args.shape = softmaxShapeInfo;
  normgrad_ascendc::RunSoftMaxFamily(args);
}

}  // namespace AscendC
