// lib/activation/softmaxflashv3.h — the kernel-side SoftmaxFlashV3 API of
// Ascend C and its parameter struct SoftMaxParams (the contract:
// docs/softmax.md, "SoftmaxFlashV3"): one tile of an online softmax whose
// rows are first shifted by pseudo-averages (the PASA form). Each row of
// srcTensor [srcM, srcK] is cut into splitMeanCnt = 8 pieces of
// baseK = srcK / 8 columns; with s = alpha / (1 - alpha), G the row's mean
// and L_j piece j's mean, every element of piece j becomes
// x' = x - (G - L_j)·s, and then:
//
//   isUpdate = false:  mean = G, max = max x', dst = exp(x' - max),
//                      expSum = Σ dst
//   isUpdate = true:   mean = (G + inMean·(loopCnt - 1)) / loopCnt,
//                      c = (G - mean)·s, p = (inMean - mean)·s,
//                      max = max(c + max x', p + inMax),
//                      dst = exp(x' - (max - c)),
//                      expMax = exp(inMax - max + p),
//                      expSum = expMax·inExpSum + Σ dst
//
// T (src, dst, expMax) is half and U (mean, sums, max) float, each per-row
// value one 32-byte block a row. Every step is in float; each half output is
// narrowed once. Atlas A2/A3 and Ascend 950 only; the reserved template
// arguments must keep their defaults. A broken rule is a KernelError naming
// the API, the argument, the value and the rule.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/softmax_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// The shape and parameters of a SoftmaxFlashV3 call: srcM rows of srcK
/// elements (oriSrcM, oriSrcK the same: no padding), loopCnt the number of
/// tiles the running mean covers with isUpdate, splitMeanCnt the pieces a
/// row's local means come from (8), alpha the shift's weight.
struct SoftMaxParams {
  constexpr SoftMaxParams() = default;
  constexpr SoftMaxParams(uint32_t srcM_, uint32_t srcK_, uint32_t oriSrcM_,
                          uint32_t oriSrcK_, uint32_t loopCnt_,
                          uint32_t splitMeanCnt_, float alpha_)
      : srcM(srcM_),
        srcK(srcK_),
        oriSrcM(oriSrcM_),
        oriSrcK(oriSrcK_),
        loopCnt(loopCnt_),
        splitMeanCnt(splitMeanCnt_),
        alpha(alpha_) {}
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  uint32_t loopCnt = 0;
  uint32_t splitMeanCnt = 0;
  float alpha = 0.0f;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One SoftmaxFlashV3 call with its template arguments as values.
struct SoftmaxFlashV3Args {
  bool update;                    ///< isUpdate
  bool reuse_source;              ///< isReuseSource (reserved)
  bool basic_block;               ///< isBasicBlock (reserved)
  bool format_nz;                 ///< isDataFormatNZ (reserved)
  AscendC::SoftmaxConfig config;  ///< reserved: SOFTMAX_DEFAULT_CFG's values
  TensorView dst, mean, exp_sum, max, src, exp_max, in_mean, in_exp_sum, in_max;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  const AscendC::tiling::SoftMaxTiling* tiling;
  AscendC::SoftMaxParams params;
};

/// Checks and runs one call (softmax_flash_v3.cc).
void RunSoftmaxFlashV3(const SoftmaxFlashV3Args& args);

/// The call of either overload.
template <typename T, typename U, bool isUpdate, bool isReuseSource,
          bool isBasicBlock, bool isDataFormatNZ,
          const AscendC::SoftmaxConfig& config>
void SoftmaxFlashV3Call(const TensorView& dst, const TensorView& mean,
                        const TensorView& exp_sum, const TensorView& max,
                        const TensorView& src, const TensorView& exp_max,
                        const TensorView& in_mean, const TensorView& in_exp_sum,
                        const TensorView& in_max, const TensorView* shared_tmp,
                        const AscendC::SoftMaxTiling& tiling,
                        const AscendC::SoftMaxParams& params) {
  static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                "SoftmaxFlashV3: T must be half and U float");
  RunSoftmaxFlashV3({isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ,
                     config, dst, mean, exp_sum, max, src, exp_max, in_mean,
                     in_exp_sum, in_max, shared_tmp, &tiling, params});
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// The framework scratch.
template <typename T, typename U, bool isUpdate = false,
          bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(
    const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
    const SoftMaxParams& params, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SoftmaxFlashV3Call<T, U, isUpdate, isReuseSource,
                                       isBasicBlock, isDataFormatNZ, config>(
      dstTensor.view(), meanTensor.view(), expSumTensor.view(),
      maxTensor.view(), srcTensor.view(), expMaxTensor.view(),
      inMeanTensor.view(), inExpSumTensor.view(), inMaxTensor.view(), nullptr,
      tiling, params);
}

/// The caller's sharedTmpBuffer as scratch.
template <typename T, typename U, bool isUpdate = false,
          bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(
    const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
    const LocalTensor<U>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxParams& params, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SoftmaxFlashV3Call<T, U, isUpdate, isReuseSource,
                                       isBasicBlock, isDataFormatNZ, config>(
      dstTensor.view(), meanTensor.view(), expSumTensor.view(),
      maxTensor.view(), srcTensor.view(), expMaxTensor.view(),
      inMeanTensor.view(), inExpSumTensor.view(), inMaxTensor.view(),
      &sharedTmpBuffer.view(), tiling, params);
}

}  // namespace AscendC
