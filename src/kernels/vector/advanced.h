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
/// trigonometric and hyperbolic functions computed in double lanes, then
/// their inverses (advanced_inverse_inl.h) and the special functions Erf,
/// Erfc, Lgamma and Digamma (advanced_special_inl.h), in double lanes too.
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
  kCosh,
  kAsin,
  kAcos,
  kAtan,
  kAsinh,
  kAcosh,
  kAtanh,
  kErf,
  kErfc,
  kLgamma,
  kDigamma
};
inline constexpr int kMathSteps = 26;

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

/// The element types of Clamp (AdvancedKernels::clamp).
enum class ClampType : uint8_t {
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kInt64,
  kUint64,
  kHalf,
  kBfloat16,
  kFloat
};

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

  // ---- Fmod, Power, Axpy, CumSum and Clamp (advanced_binary_inl.h) --------

  /// dst = the exact remainder a − Trunc(a / b) · b with a's sign (Fmod);
  /// where b is ±0 or ±inf, or a is ±inf or NaN, the C library's fmodf.
  void (*fmod_f32)(float* dst, const float* a, const float* b, size_t n);
  /// dst = a^b, the float nearest to the C library's pow of the widened
  /// values, bit for bit (Power on floating types).
  void (*power_f32)(float* dst, const float* a, const float* b, size_t n);
  /// dst = base^exp by repeated squaring, modulo 2^32 (Power on integers,
  /// each operand sign- or zero-extended to 32 bits by the caller); with
  /// `is_signed` a negative exponent gives 1 for base 1, ±1 for base −1
  /// and 0 for any other base.
  void (*power_u32)(uint32_t* dst, const uint32_t* base, const uint32_t* exp, size_t n,
                    bool is_signed);
  /// acc += src · scalar, the product rounded to float, and further to a
  /// half value (in float) with `half_product` (Axpy's Muls then Add).
  void (*axpy_f32)(float* acc, const float* src, size_t n, float scalar, bool half_product);
  /// The running sums of CumSum in place over a rows × cols matrix of
  /// floats: along each row (`last_axis`) or down each column, one term
  /// after the other or by Sklansky's halving steps (`sklansky`).
  void (*cumsum_f32)(float* v, size_t rows, size_t cols, bool last_axis, bool sklansky);
  /// dst = src held to [lo, hi] element by element (Clamp): NaN kept, hi
  /// where lo > hi; floating elements compared by value (±0 equal, a NaN
  /// bound compares false).
  void (*clamp)(void* dst, const void* src, const void* lo, const void* hi, size_t n,
                ClampType type);
  // ---- LogSoftMax, the scalar selections, Filter and Index -----------------
  // (advanced_filter_inl.h)

  /// v[i] = log10 of the widened v[i] in double rounded once to float: the
  /// float nearest to the C library's, bit for bit (LogSoftMax).
  void (*log10_rounded_f32)(float* v, size_t n);
  /// dst[i] = the scalar's low `bytes` bytes where truth[i] is not 0 (with
  /// scalar_when_true; where it is 0 without), else tensor[i]: elements of
  /// 1, 2, 4 or 8 bytes (Where, Select). dst may be tensor.
  void (*select_scalar_u8)(void* dst, const void* tensor, uint64_t scalar, const uint8_t* truth,
                           size_t n, uint32_t bytes, bool scalar_when_true);
  /// truth[i] = bit first_bit + i of `bits`, each byte's bits read from the
  /// most significant down (DropOut's bit masks).
  void (*bit_truths_u8)(uint8_t* truth, const uint8_t* bits, uint64_t first_bit, size_t n);
  /// dst[i] = truth[i] ? src[i] · scale rounded once : +0 (DropOut). dst
  /// may be src.
  void (*scale_kept_f32)(float* dst, const float* src, const uint8_t* truth, float scale, size_t n);
  /// dst[i] = first + i · diff modulo 2^(8·bytes), elements of 2, 4 or 8
  /// bytes (Arange's integers).
  void (*arange_int)(void* dst, uint64_t first, uint64_t diff, size_t n, uint32_t bytes);
  /// words[4g + i] = word i of Philox4x32 with `rounds` rounds of the
  /// 128-bit counter (counter[0] least significant) + first + g under key
  /// (2 words), for g < groups; with as_unit_float each word's float in
  /// [0, 1) instead (its low 23 bits as a fraction, as bits).
  void (*philox_words)(uint32_t* words, const uint32_t* counter, uint64_t first, size_t groups,
                       const uint32_t* key, uint32_t rounds, bool as_unit_float);

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

  // ---- Transpose (advanced_transpose_inl.h) ---------------------------------

  /// dst[c · dst_stride + r] = src[r · src_stride + c] for r < rows and
  /// c < cols, elements of `bytes` bytes (1, 2 or 4) moved as bits (the
  /// Tensor transform family's true transposes). dst and src do not overlap.
  void (*transpose_bits)(void* dst, const void* src, size_t rows, size_t cols, size_t src_stride,
                         size_t dst_stride, uint32_t bytes);
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
