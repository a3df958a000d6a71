// kernels/vector/advanced_entry_inl.h — the table of advanced_inl.h's loops
// (kernels::AdvancedKernels) for one instruction set. Included by
// vector/advanced_<isa>.cc after its target region: the table is filled by
// baseline code (see isa_entry_inl.h for why).
#pragma once

#include "kernels/vector/advanced.h"
#include "kernels/vector/advanced_inl.h"

namespace normgrad::kernels {
namespace {

AdvancedKernels AdvancedLoops() {
  using namespace advanced;
  AdvancedKernels k{};
  k.exp_rounded_f32 = ExpRounded;
  k.fold_lanes_f32 = FoldLanes;
  k.math_f32[static_cast<int>(MathStep::kExp)] = MathExp;
  k.math_f32[static_cast<int>(MathStep::kLog)] = Each<LogStep>;
  k.math_f32[static_cast<int>(MathStep::kLog2)] = Each<Log2Step>;
  k.math_f32[static_cast<int>(MathStep::kLog10)] = Each<Log10Step>;
  k.math_f32[static_cast<int>(MathStep::kCeil)] = Each<CeilStep>;
  k.math_f32[static_cast<int>(MathStep::kFloor)] = Each<FloorStep>;
  k.math_f32[static_cast<int>(MathStep::kNearestEven)] = Each<NearestEvenStep>;
  k.math_f32[static_cast<int>(MathStep::kTrunc)] = Each<TruncStep>;
  k.math_f32[static_cast<int>(MathStep::kFrac)] = Each<FracStep>;
  k.math_f32[static_cast<int>(MathStep::kSign)] = Each<SignStep>;
  k.math_f32[static_cast<int>(MathStep::kSin)] = Trigonometric<Trig::kSin>;
  k.math_f32[static_cast<int>(MathStep::kCos)] = Trigonometric<Trig::kCos>;
  k.math_f32[static_cast<int>(MathStep::kTan)] = Trigonometric<Trig::kTan>;
  k.math_f32[static_cast<int>(MathStep::kTanh)] = Each<TanhInDouble>;
  k.math_f32[static_cast<int>(MathStep::kSinh)] = Each<SinhInDouble>;
  k.math_f32[static_cast<int>(MathStep::kCosh)] = Each<CoshInDouble>;
  auto& act = k.activation_f32;
  act[static_cast<int>(ActivationStep::kSigmoid)] = SigmoidFloats;
  act[static_cast<int>(ActivationStep::kSilu)] = SiluFloats;
  act[static_cast<int>(ActivationStep::kSwish)] = SwishFloats;
  act[static_cast<int>(ActivationStep::kGelu)] = GeluFloats;
  act[static_cast<int>(ActivationStep::kFasterGelu)] = FasterGeluFloats;
  act[static_cast<int>(ActivationStep::kFasterGeluV2)] = FasterGeluV2Floats;
  act[static_cast<int>(ActivationStep::kSwiGlu)] = SwiGluFloats;
  act[static_cast<int>(ActivationStep::kGeGlu)] = GeGluFloats;
  act[static_cast<int>(ActivationStep::kReGlu)] = ReGluFloats;
  k.bits_u8[static_cast<int>(BitStep::kAnd)] = Bits<BitStep::kAnd>;
  k.bits_u8[static_cast<int>(BitStep::kOr)] = Bits<BitStep::kOr>;
  k.bits_u8[static_cast<int>(BitStep::kXor)] = Bits<BitStep::kXor>;
  k.bits_u8[static_cast<int>(BitStep::kNot)] = Bits<BitStep::kNot>;
  k.truths_u8 = Truths;
  k.select_u8 = SelectByTruth;
  k.classify[static_cast<int>(ClassStep::kFinite)] = Classify<ClassStep::kFinite>;
  k.classify[static_cast<int>(ClassStep::kInf)] = Classify<ClassStep::kInf>;
  k.classify[static_cast<int>(ClassStep::kNan)] = Classify<ClassStep::kNan>;
  k.clamp_to_scalar = ClampToScalar;
  k.fma_f32 = FmaFloats;
  k.hypot_f32 = HypotFloats;
  k.topk_priorities = TopKPriorities;
  k.group_maxima = GroupMaxima;
  k.collect_at_least = CollectAtLeast;
  return k;
}

}  // namespace
}  // namespace normgrad::kernels
