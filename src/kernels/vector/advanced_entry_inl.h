// kernels/vector/advanced_entry_inl.h — the table of advanced_inl.h's loops
// and of its companion headers (advanced_inverse_inl.h, advanced_special_inl.h,
// advanced_binary_inl.h, advanced_filter_inl.h,
// advanced_transpose_inl.h): kernels::AdvancedKernels for
// one instruction set, whose target region includes those headers first.
// Included by
// vector/advanced_<isa>.cc after its target region: the table is filled by
// baseline code (see isa_entry_inl.h for why).
#pragma once

#include "kernels/vector/advanced.h"
#include "kernels/vector/advanced_binary_inl.h"
#include "kernels/vector/advanced_filter_inl.h"
#include "kernels/vector/advanced_inl.h"
#include "kernels/vector/advanced_inverse_inl.h"
#include "kernels/vector/advanced_special_inl.h"
#include "kernels/vector/advanced_transpose_inl.h"

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
  k.math_f32[static_cast<int>(MathStep::kAsin)] = Each<AsinInDouble>;
  k.math_f32[static_cast<int>(MathStep::kAcos)] = Each<AcosInDouble>;
  k.math_f32[static_cast<int>(MathStep::kAtan)] = Each<AtanInDouble>;
  k.math_f32[static_cast<int>(MathStep::kAsinh)] = Each<AsinhInDouble>;
  k.math_f32[static_cast<int>(MathStep::kAcosh)] = Each<AcoshInDouble>;
  k.math_f32[static_cast<int>(MathStep::kAtanh)] = Each<AtanhInDouble>;
  k.fmod_f32 = FmodFloats;
  k.power_f32 = PowerFloats;
  k.power_u32 = PowerIntegers;
  k.axpy_f32 = AxpyFloats;
  k.cumsum_f32 = CumSumFloats;
  k.clamp = ClampElements;
  k.log10_rounded_f32 = Log10Rounded;
  k.select_scalar_u8 = SelectScalar;
  k.bit_truths_u8 = BitTruths;
  k.scale_kept_f32 = ScaleKept;
  k.arange_int = ArangeInt;
  k.philox_words = PhiloxWords;
  k.math_f32[static_cast<int>(MathStep::kErf)] = ErfFloats;
  k.math_f32[static_cast<int>(MathStep::kErfc)] = ErfcFloats;
  k.math_f32[static_cast<int>(MathStep::kLgamma)] = LgammaFloats;
  k.math_f32[static_cast<int>(MathStep::kDigamma)] = DigammaFloats;
  k.topk_priorities = TopKPriorities;
  k.group_maxima = GroupMaxima;
  k.collect_at_least = CollectAtLeast;
  k.transpose_bits = TransposeBits;
  return k;
}

}  // namespace
}  // namespace normgrad::kernels
