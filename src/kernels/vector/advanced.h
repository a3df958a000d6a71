// kernels/vector/advanced.h — the float passes of the advanced Math and
// Activation APIs, one table per instruction set of the registry (beside
// kernels.h's VectorKernels, which the vector unit's instructions use): the
// loops of advanced_inl.h, compiled for each set by advanced_<isa>.cc, and
// AdvancedKernelsOf, which gives the table of a registry entry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"

namespace normgrad::kernels {

/// The float passes of the advanced Math APIs (AdvancedKernels::math_f32):
/// Exp (with its taylorExpandLevel), Log, Log2, Log10; the exact rounding
/// family (kNearestEven is Round's and Rint's), Frac and Sign; and the
/// trigonometric and hyperbolic functions computed in double lanes.
enum class MathStep : uint8_t {
  kExp,
  kLog,
  kLog2,
  kLog10,
  kCeil,
  kFloor,
  kNearestEven,
  kTrunc,
  kFrac,
  kSign,
  kSin,
  kCos,
  kTan,
  kTanh,
  kSinh,
  kCosh
};
inline constexpr int kMathSteps = 16;

/// The elementwise Activation APIs (AdvancedKernels::activation_f32), in the
/// order of the library's ActivationApi.
enum class ActivationStep : uint8_t {
  kSigmoid,
  kSilu,
  kSwish,
  kGelu,
  kFasterGelu,
  kFasterGeluV2,
  kSwiGlu,
  kGeGlu,
  kReGlu
};
inline constexpr int kActivationSteps = 9;

/// The passes of one instruction set, each the documented algorithm in
/// float with the same bits on every set.
struct AdvancedKernels {
  /// v[i] = e^v[i] computed in double and rounded once to float: the float
  /// nearest to std::exp of the widened value, bit for bit (SoftMax's Exp).
  void (*exp_rounded_f32)(float* v, size_t n);
  /// lanes[j] (64 of them) = the terms j, j + 64, … of v folded in order:
  /// the first itself, then term + lane; +0 where no term reaches (the first
  /// step of SoftMax's row sum; the lanes' tree is VectorKernels'
  /// tree_sums_f32).
  void (*fold_lanes_f32)(const float* v, size_t n, float* lanes);
  /// The Math APIs' passes in place over n floats, indexed by MathStep
  /// (level: Exp's taylorExpandLevel; ignored by the logarithms).
  void (*math_f32[kMathSteps])(float* v, size_t n, uint32_t level);
  /// The elementwise Activation APIs in place over n floats, indexed by
  /// ActivationStep: gate is the second source of SwiGLU, GeGLU and ReGlu,
  /// beta the scalar of Swish and SwiGLU.
  void (*activation_f32[kActivationSteps])(float* v, const float* gate, size_t n, float beta);
};

/// The table of `isa`, an entry of Isas().
const AdvancedKernels& AdvancedKernelsOf(const Isa& isa);

/// Each set's table (vector/advanced_<isa>.cc).
AdvancedKernels ScalarAdvancedKernels();
#if defined(NORMGRAD_HAVE_AVX2)
AdvancedKernels Avx2AdvancedKernels();
#endif
#if defined(NORMGRAD_HAVE_AVX512)
AdvancedKernels Avx512AdvancedKernels();
#endif
#if defined(NORMGRAD_HAVE_NEON)
AdvancedKernels NeonAdvancedKernels();
#endif

}  // namespace normgrad::kernels
