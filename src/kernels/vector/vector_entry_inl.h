// kernels/vector/vector_entry_inl.h — the table of vector_inl.h's loops
// (kernels::VectorKernels) for one instruction set. Included by
// src/kernels/vector_<isa>.cc after its target region ends: the table is
// filled by baseline code (see isa_entry_inl.h for why).
#pragma once

#include "kernels/kernels.h"
#include "kernels/vector/vector_inl.h"

namespace normgrad::kernels {
namespace {

// The rounding modes compiled for a conversion (kernels.h, VectorKernels::cast).
constexpr int CastRoundsOf(CastType s, CastType d) {
  if (s == d && s != CastType::kF32) return 0;
  if (!IsFloatType(s) && !IsFloatType(d)) return 1;  // kRint
  if (s == CastType::kI64 && d != CastType::kF32) return 0;
  if (s == CastType::kF32 && d == CastType::kF16) return kCastRounds;
  return kToIntRounds;
}

template <int kS, int kD, int kR>
constexpr CastFn CastEntry() {
  if constexpr (kR < CastRoundsOf(CastType(kS), CastType(kD))) {
    return CastLoop<CastType(kS), CastType(kD), CastRound(kR)>;
  } else {
    return nullptr;
  }
}
template <int kS, int kD, int... kR>
void FillCastRounds(VectorKernels& k, std::integer_sequence<int, kR...>) {
  ((k.cast[kS][kD][kR] = CastEntry<kS, kD, kR>()), ...);
}
template <int kS, int... kD>
void FillCastsFrom(VectorKernels& k, std::integer_sequence<int, kD...>) {
  (FillCastRounds<kS, kD>(k, std::make_integer_sequence<int, kCastRounds>()), ...);
}
template <int... kS>
void FillCasts(VectorKernels& k, std::integer_sequence<int, kS...>) {
  (FillCastsFrom<kS>(k, std::make_integer_sequence<int, kCastTypes>()), ...);
}

// The integer loops of T (Div has none).
template <typename T>
void FillIntOps(VectorKernels& k) {
  constexpr int kLog2 = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
  auto& ops = k.int_ops[kLog2][std::is_signed_v<T> ? 1 : 0];
  ops[static_cast<int>(VectorOp::kAdd)] = IntOps<T, VectorOp::kAdd>;
  ops[static_cast<int>(VectorOp::kSub)] = IntOps<T, VectorOp::kSub>;
  ops[static_cast<int>(VectorOp::kMul)] = IntOps<T, VectorOp::kMul>;
  ops[static_cast<int>(VectorOp::kDiv)] = nullptr;
  ops[static_cast<int>(VectorOp::kMax)] = IntOps<T, VectorOp::kMax>;
  ops[static_cast<int>(VectorOp::kMin)] = IntOps<T, VectorOp::kMin>;
}
template <typename... T>
void FillIntOpsOf(VectorKernels& k) {
  (FillIntOps<T>(k), ...);
}

// F16: the set's half policy (<isa>_ops_inl.h), for the loops that end in
// a narrowing to half.
template <typename F16>
VectorKernels MakeVectorKernels() {
  VectorKernels k = {
      {Binary<VectorOp::kAdd>, Binary<VectorOp::kSub>, Binary<VectorOp::kMul>,
       Binary<VectorOp::kDiv>, Binary<VectorOp::kMax>, Binary<VectorOp::kMin>},
      {WithScalar<VectorOp::kAdd>, WithScalar<VectorOp::kSub>, WithScalar<VectorOp::kMul>,
       WithScalar<VectorOp::kDiv>, WithScalar<VectorOp::kMax>, WithScalar<VectorOp::kMin>},
      {Unary<UnaryOp::kAbs>, Unary<UnaryOp::kRelu>, Unary<UnaryOp::kSqrt>, Unary<UnaryOp::kRsqrt>,
       Unary<UnaryOp::kReciprocal>},
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
      {ToInt32<CastRound::kRint>, ToInt32<CastRound::kFloor>, ToInt32<CastRound::kCeil>,
       ToInt32<CastRound::kTrunc>, ToInt32<CastRound::kRound>},
      FromInt32,
      {},  // cast: FillCasts below
      {Select<uint8_t>, Select<uint16_t>, Select<uint32_t>, Select<uint64_t>},
      nullptr,  // tree_sums_f32: reduce_entry_inl.h
      {},       // int_ops: FillIntOps below
      {Logic<LogicOp::kAnd>, Logic<LogicOp::kOr>, Logic<LogicOp::kNot>},
      {ArgExtremeF32<false>, ArgExtremeF32<true>},
      {ArgExtremeF16<false>, ArgExtremeF16<true>},
      nullptr,  // half_tree_sums: reduce_entry_inl.h
      {},       // compound_f16: reduce_entry_inl.h
      CopyStreams};
  FillCasts(k, std::make_integer_sequence<int, kCastTypes>());
  FillIntOpsOf<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>(k);

  k.fill[0] = Fill<uint16_t>;
  k.fill[1] = Fill<uint32_t>;
  k.dequant_f16 = Dequant<F16>;
  k.relu_step_f32[0] = ReluStepF32<false>;
  k.relu_step_f32[1] = ReluStepF32<true>;
  k.relu_cast_i16_i8[0] = ReluCastI16I8<false>;
  k.relu_cast_i16_i8[1] = ReluCastI16I8<true>;
  k.quant_i16_b8[0] = QuantLoop<false>;
  k.quant_i16_b8[1] = QuantLoop<true>;
  return k;
}

}  // namespace
}  // namespace normgrad::kernels
