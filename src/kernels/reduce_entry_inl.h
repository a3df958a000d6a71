// kernels/reduce_entry_inl.h — sets the reduction entries of an instruction
// set's VectorKernels (kernels.h, "reductions") to reduce_inl.h's loops on
// its half Ops. Included by src/kernels/<isa>.cc after its target region:
// the table is filled by baseline code (see isa_entry_inl.h for why).
#pragma once

#include "kernels/kernels.h"
#include "kernels/reduce_inl.h"

namespace normgrad::kernels {
namespace {

template <typename F16>
VectorKernels WithReductions(VectorKernels vector) {
  vector.half_tree = HalfTree<F16>;
  return vector;
}

}  // namespace
}  // namespace normgrad::kernels
