// kernels/vector_entry_inl.h — the table of vector_inl.h's loops
// (kernels::VectorKernels) for one instruction set. Included by
// src/kernels/vector_<isa>.cc after its target region ends: the table is
// filled by baseline code (see isa_entry_inl.h for why).
#pragma once

#include "kernels/kernels.h"
#include "kernels/vector_inl.h"

namespace normgrad::kernels {
namespace {

VectorKernels MakeVectorKernels() {
  return {{Binary<VectorOp::kAdd>, Binary<VectorOp::kSub>, Binary<VectorOp::kMul>,
           Binary<VectorOp::kDiv>, Binary<VectorOp::kMax>, Binary<VectorOp::kMin>},
          {WithScalar<VectorOp::kAdd>, WithScalar<VectorOp::kSub>, WithScalar<VectorOp::kMul>,
           WithScalar<VectorOp::kDiv>, WithScalar<VectorOp::kMax>, WithScalar<VectorOp::kMin>},
          PairSums,
          CopyStreams};
}

}  // namespace
}  // namespace normgrad::kernels
