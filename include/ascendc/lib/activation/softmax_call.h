// lib/activation/softmax_call.h — what the SoftMax family's kernel APIs
// (softmax.h: SoftMax, SimpleSoftMax; softmaxflashv2.h: SoftmaxFlashV2;
// softmaxgrad.h: SoftmaxGrad, SoftmaxGradFront; logsoftmax.h: LogSoftMax)
// share: the template configuration SoftmaxConfig and its default, and one
// call of any of them with its element types erased (SoftMaxArgs), which
// RunSoftMaxFamily (src/ascendc/lib/activation/softmax.cc) checks and runs.
// The contract is docs/softmax.md.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/activation/softmax_tiling.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// How SoftmaxFlashV2 writes its per-row outputs: each broadcast over a
/// 32-byte block (normal), or one element per row (without broadcast).
enum class SoftmaxMode {
  SOFTMAX_NORMAL = 0,
  SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};

/// The configuration template argument: isCheckTiling re-tiles a call whose
/// shape differs from its tiling's (else that is an error); nonzero
/// oriSrcM/oriSrcK fix the call's original shape at compile time (a call
/// with another one is an error); mode is SoftmaxFlashV2's output form.
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};

inline constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {
    true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC

namespace normgrad_ascendc {

/// Which API of the family a call is.
enum class SoftMaxApi : uint8_t {
  kSoftMax,
  kSimpleSoftMax,
  kFlash,
  kFlashV2,
  kGrad,
  kGradFront,
  kLogSoftMax,
};

/// One call of the family with its element types erased. Absent operands
/// (the overloads without them) are null.
struct SoftMaxArgs {
  SoftMaxApi api;
  bool is_half;          ///< T of src, dst (and SoftmaxFlashV2's expMax)
  bool stats_half;       ///< max and sum are half (else float)
  bool basic_block;      ///< isBasicBlock
  bool format_nz;        ///< isDataFormatNZ
  bool update;           ///< SoftmaxFlash's and SoftmaxFlashV2's isUpdate
  bool reduce_max_form;  ///< SoftmaxFlashV2's overload with outReduceMax
  bool front;            ///< SoftmaxGrad's isFront (and SoftmaxGradFront)
  AscendC::SoftmaxConfig config;
  TensorView dst;
  TensorView src;
  const TensorView* sum;         ///< output; SimpleSoftMax: input
  const TensorView* max;         ///< output; SimpleSoftMax: input
  const TensorView* exp_max;     ///< SoftmaxFlash(V2): output
  const TensorView* in_sum;      ///< SoftmaxFlash(V2): input
  const TensorView* in_max;      ///< SoftmaxFlash(V2): input
  const TensorView* reduce_max;  ///< SoftmaxFlashV2: output
  const TensorView* grad;        ///< SoftmaxGrad, SoftmaxGradFront: input
  const TensorView* shared_tmp;  ///< null: the framework scratch
  const AscendC::tiling::SoftMaxTiling* tiling;
  AscendC::SoftMaxShapeInfo shape;
};

/// Checks and runs one call (softmax.cc).
void RunSoftMaxFamily(const SoftMaxArgs& args);

}  // namespace normgrad_ascendc
