// normgrad_ascendc/lib/math/cumsum_call.h — CumSum's call with T erased (the
// contract: docs/math.md, "CumSum"): a 2-D srcTensor of outter rows of
// inner elements, summed along the rows (first axis) or along each row
// (last axis), line by line or by Sklansky's halving scheme, with the last
// line optionally copied out. RunCumSum (src/ascendc/lib/math/cumsum.cc)
// checks and runs it.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

struct CumSumArgs {
  bool is_half;
  TensorView dst;
  TensorView last_row;
  TensorView src;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  uint32_t outter;
  uint32_t inner;
  bool last_axis;
  bool output_last_row;
  bool sklansky;
};

void RunCumSum(const CumSumArgs& args);

}  // namespace normgrad_ascendc
