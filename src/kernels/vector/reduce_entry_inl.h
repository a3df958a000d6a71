// kernels/vector/reduce_entry_inl.h — sets the entries of an instruction set's
// VectorKernels that reduce_inl.h fills (the trees of float and half
// values, the half compounds). Included by src/kernels/<isa>.cc after its target region:
// the table is filled by baseline code (see isa_entry_inl.h for why).
#pragma once

#include "kernels/kernels.h"
#include "kernels/vector/reduce_inl.h"

namespace normgrad::kernels {
namespace {

template <typename F16>
VectorKernels WithReductions(VectorKernels vector) {
  vector.tree_sums_f32 = FloatTreeSums;
  vector.half_tree = HalfTree<F16>;
  vector.half_tree_sums = HalfTreeSums<F16>;
  vector.compound_f16[static_cast<int>(CompoundOp::kAxpy)] = HalfCompound<F16, CompoundOp::kAxpy>;
  vector.compound_f16[static_cast<int>(CompoundOp::kFusedMulAdd)] =
      HalfCompound<F16, CompoundOp::kFusedMulAdd>;
  vector.compound_f16[static_cast<int>(CompoundOp::kMulAddDst)] =
      HalfCompound<F16, CompoundOp::kMulAddDst>;
  vector.compound_f16[static_cast<int>(CompoundOp::kAddRelu)] =
      HalfCompound<F16, CompoundOp::kAddRelu>;
  vector.compound_f16[static_cast<int>(CompoundOp::kSubRelu)] =
      HalfCompound<F16, CompoundOp::kSubRelu>;
  vector.compound_f16[static_cast<int>(CompoundOp::kMulAddRelu)] =
      HalfCompound<F16, CompoundOp::kMulAddRelu>;
  return vector;
}

}  // namespace
}  // namespace normgrad::kernels
