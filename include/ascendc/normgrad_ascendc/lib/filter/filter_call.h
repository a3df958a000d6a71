// normgrad_ascendc/lib/filter/filter_call.h — the calls of the Filter
// family (the contract: docs/filter.md) with their element types erased:
// SelectArgs and DropOutArgs, and RunSelect / RunDropOut
// (src/ascendc/lib/filter/), which check and run them. The shape structs are
// the documented SelectWithBytesMaskShapeInfo and DropOutShapeInfo.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// Select's shape: firstAxis rows; src rows of srcLastAxis elements, mask
/// rows of maskLastAxis elements (maskLastAxis >= srcLastAxis; the extra
/// mask elements are ignored).
struct SelectWithBytesMaskShapeInfo {
  __aicore__ SelectWithBytesMaskShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

/// DropOut's shape: firstAxis rows of srcLastAxis elements; maskLastAxis
/// is the mask row's length in uint8_t elements, padding included.
struct DropOutShapeInfo {
  __aicore__ DropOutShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One advanced Select call (the mask-tensor form) with T and U erased.
struct SelectArgs {
  TensorView dst;
  TensorView src;  ///< the tensor operand
  TensorView mask;
  const TensorView* shared_tmp;  ///< sharedTmpBuffer
  bool is_half;                  ///< T is half (else float)
  uint32_t mask_bytes;           ///< sizeof(U): 1, 2 or 4
  bool scalar_first;             ///< src0 is the scalar, src1 the tensor
  float scalar;                  ///< the scalar operand, exact for half
  bool reuse_mask;               ///< isReuseMask
  AscendC::SelectWithBytesMaskShapeInfo info;
};

/// Checks and runs one Select call (src/ascendc/lib/filter/select.cc).
void RunSelect(const SelectArgs& args);

/// One DropOut call with T erased.
struct DropOutArgs {
  TensorView dst;
  TensorView src;
  TensorView mask;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  ElementType type;
  float keep_prob;
  uint32_t mode;  ///< the template's dropOutMode, 0 to 4
  AscendC::DropOutShapeInfo info;
};

/// Checks and runs one DropOut call (src/ascendc/lib/filter/dropout.cc).
void RunDropOut(const DropOutArgs& args);

}  // namespace normgrad_ascendc
