// kernels/vector/advanced_entry_inl.h — sets the entries of an instruction
// set's VectorKernels that advanced_inl.h fills (the advanced Math and
// Activation APIs' float passes). Included by vector/advanced_<isa>.cc after
// its target region: the table is filled by baseline code (see
// isa_entry_inl.h for why).
#pragma once

#include "kernels/kernels.h"
#include "kernels/vector/advanced_inl.h"

namespace normgrad::kernels {
namespace {

VectorKernels WithAdvancedLoops(VectorKernels k) {
  using namespace advanced;
  k.exp_rounded_f32 = ExpRounded;
  k.fold_lanes_f32 = FoldLanes;
  k.math_f32[static_cast<int>(MathStep::kExp)] = MathExp;
  k.math_f32[static_cast<int>(MathStep::kLog)] = Each<LogStep>;
  k.math_f32[static_cast<int>(MathStep::kLog2)] = Each<Log2Step>;
  k.math_f32[static_cast<int>(MathStep::kLog10)] = Each<Log10Step>;
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
  return k;
}

}  // namespace
}  // namespace normgrad::kernels
