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

/// The bit operations of the Bitwise APIs and Xor (AdvancedKernels::bits_u8).
enum class BitStep : uint8_t { kAnd, kOr, kXor, kNot };
inline constexpr int kBitSteps = 4;

/// The floating predicates IsFinite, IsInf and IsNan
/// (AdvancedKernels::classify).
enum class ClassStep : uint8_t { kFinite, kInf, kNan };
inline constexpr int kClassSteps = 3;

/// A floating format by its bits: 2 or 4 bytes, the exponent field's mask
/// (the bits below it are the fraction, the one above the sign) and the
/// bits of 1.0 (half 0x7c00 and 0x3c00, bfloat16 0x7f80 and 0x3f80, float
/// 0x7f800000 and 0x3f800000).
struct FloatFormat {
  uint32_t bytes;
  uint32_t exponent_mask;
  uint32_t one;
};

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

  // ---- The Math APIs of the binary call shape: exact, on raw elements ----

  /// dst = a op b over n bytes, indexed by BitStep (kNot: dst = ~a, b
  /// unread): every integer type at once, as the operations act on each bit
  /// alike.
  void (*bits_u8[kBitSteps])(uint8_t* dst, const uint8_t* a, const uint8_t* b, size_t n);
  /// truth[i] = 1 where element i of src (`bytes` bytes: 1, 2, 4 or 8) is
  /// not zero, else 0; with `floating` its sign bit is ignored (±0 false,
  /// NaN true); the opposite with `negate` (LogicalNot).
  void (*truths_u8)(uint8_t* truth, const void* src, size_t n, uint32_t bytes, bool floating,
                    bool negate);
  /// dst[i] = truth[i] ? a[i] : b[i] over elements of `bytes` bytes (Where).
  void (*select_u8)(void* dst, const void* a, const void* b, const uint8_t* truth, size_t n,
                    uint32_t bytes);
  /// Whether each of n elements of `format` is finite, ±inf or NaN
  /// (indexed by ClassStep): 1 or 0 as bytes (bool_dst), else as 1.0 or +0
  /// of the format.
  void (*classify[kClassSteps])(void* dst, const void* src, size_t n, FloatFormat format,
                                bool bool_dst);
  /// ClampMax (`is_max`) and ClampMin on n elements of a 2- or 4-byte
  /// floating `format`: an element above (below) the scalar whose bits are
  /// `scalar` becomes it, compared by value (±0 equal); a NaN on either
  /// side keeps the element.
  void (*clamp_to_scalar)(void* dst, const void* src, size_t n, FloatFormat format, uint32_t scalar,
                          bool is_max);

  // ---- The Math APIs of the binary call shape: in float ------------------

  /// dst = a · b + c rounded once (Fma).
  void (*fma_f32)(float* dst, const float* a, const float* b, const float* c, size_t n);
  /// dst = √(a² + b²) in double rounded once to float; +inf where either is
  /// ±inf (Hypot).
  void (*hypot_f32)(float* dst, const float* a, const float* b, size_t n);

  // ---- TopK (topk_inl.h) --------------------------------------------------

  /// priorities[i] = element i of src (half, bfloat16 or float by `format`)
  /// ranked in 32 bits in the Sort family's order (NaN above every number,
  /// −0 equal to +0; docs/sort.md), inverted for the smallest (`largest`
  /// false) but for NaN's UINT32_MAX, which comes first either way.
  void (*topk_priorities)(uint32_t* priorities, const void* src, size_t n, FloatFormat format,
                          bool largest);
  /// maxima[g] = the largest priority of group g, for `groups` groups of
  /// n / groups in order (the last takes the rest; 1 <= groups <= n).
  void (*group_maxima)(uint32_t* maxima, const uint32_t* priorities, size_t n, size_t groups);
  /// Writes to positions, in order, every i < n with priorities[i] >= floor
  /// and returns their count (positions holds n).
  size_t (*collect_at_least)(uint32_t* positions, const uint32_t* priorities, size_t n,
                             uint32_t floor);
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
