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
          {Unary<UnaryOp::kAbs>, Unary<UnaryOp::kRelu>, Unary<UnaryOp::kSqrt>,
           Unary<UnaryOp::kRsqrt>, Unary<UnaryOp::kReciprocal>},
          LeakyRelu,
          AbsHalfBits,
          ReluHalfBits,
          {Compound<CompoundOp::kAxpy>, Compound<CompoundOp::kFusedMulAdd>,
           Compound<CompoundOp::kMulAddDst>, Compound<CompoundOp::kAddRelu>,
           Compound<CompoundOp::kSubRelu>, Compound<CompoundOp::kMulAddRelu>},
          {Compare<CompareOp::kLt>, Compare<CompareOp::kGt>, Compare<CompareOp::kEq>,
           Compare<CompareOp::kLe>, Compare<CompareOp::kGe>, Compare<CompareOp::kNe>},
          {{Shift<uint16_t, false, false>, Shift<uint16_t, false, true>},
           {Shift<uint16_t, true, false>, Shift<uint16_t, true, true>}},
          {{Shift<uint32_t, false, false>, Shift<uint32_t, false, true>},
           {Shift<uint32_t, true, false>, Shift<uint32_t, true, true>}},
          {ToInt32<ToIntRound::kRint>, ToInt32<ToIntRound::kFloor>,
           ToInt32<ToIntRound::kCeil>, ToInt32<ToIntRound::kTrunc>,
           ToInt32<ToIntRound::kRound>},
          FromInt32,
          PairSums,
          CopyStreams};
}

}  // namespace
}  // namespace normgrad::kernels
