// normgrad_ascendc/lib/normalization/norm_call.h — the call that LayerNorm
// (its first form), GroupNorm and BatchNorm share: each writes output, its
// means and its variances from inputX, gamma and beta, all of one element
// type T. NormArgs is such a call with T erased; RunNormCall is the body of
// every public overload of the three.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One call with its element type erased; Tiling is the API's tiling struct.
template <typename Tiling>
struct NormArgs {
  bool is_half;
  bool reuse_source;  ///< isReuseSource
  bool basic_block;   ///< isBasicBlock (BatchNorm; false for the others)
  TensorView output;
  TensorView output_mean;
  TensorView output_variance;
  TensorView input_x;
  TensorView gamma;
  TensorView beta;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  float epsilon;                 ///< T's value, widened
  Tiling* tiling;
};

/// Runs `run` (the API's checks and computation) on the call made at the
/// user's `site`, with T erased. The overloads differ only in their
/// signature and in `shared_tmp`: the sharedTmpBuffer's view, or null for
/// the framework scratch.
template <typename Tiling, typename T>
void RunNormCall(const CallSite& site, void (*run)(const NormArgs<Tiling>&),
                 bool reuse_source, bool basic_block,
                 const AscendC::LocalTensor<T>& output,
                 const AscendC::LocalTensor<T>& output_mean,
                 const AscendC::LocalTensor<T>& output_variance,
                 const AscendC::LocalTensor<T>& input_x,
                 const AscendC::LocalTensor<T>& gamma,
                 const AscendC::LocalTensor<T>& beta,
                 const TensorView* shared_tmp, T epsilon, Tiling& tiling) {
  const ApiCall call(site);
  run({std::is_same_v<T, half>, reuse_source, basic_block, output.view(),
       output_mean.view(), output_variance.view(), input_x.view(), gamma.view(),
       beta.view(), shared_tmp, static_cast<float>(epsilon), &tiling});
}

}  // namespace normgrad_ascendc
