// kernels/kernels.h — the kernel registry: one entry per instruction set,
// fastest first, each with the primitives the engine's drivers are built
// from. Adding an instruction set means adding one source file and one line
// to Isas(); tests, benchmarks and NORMGRAD_IMPL all read this list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace normgrad::kernels {

/// Columns an accumulation kernel sums per sweep over the rows (and the
/// engine's column strips): the two accumulator strips (2 × 16384 floats =
/// 128 KiB at most) stay in L2 while the rows stream through, and rows are
/// read in pieces long enough for the hardware prefetchers (1024-column
/// strips are slower).
constexpr size_t kStripColumns = 16384;

/// Rows at most this many bytes long (of one input) are short: their time
/// goes to per-row work (short dependent chains of additions, the per-row
/// statistics, loop setup) rather than to memory, so the kernels take them
/// in loops of their own, several rows at a time.
constexpr size_t kShortRowBytes = 512;

/// Adds rows [0, rows) of dy and res into the float accumulators, row after
/// row, for every column c in [0, cols):
///   acc_gamma[c] = fl(acc_gamma[c] + fl(dy[r][c] · res[r][c]))
///   acc_beta[c]  = fl(acc_beta[c] + dy[r][c])
/// with separate roundings (no fused multiply-add) — the device's order
/// (docs/numerics.md, "The sequential order"). Row r starts `stride` elements after row r−1. 16-bit
/// inputs are widened to float exactly first.
template <typename In>
using AccumulateFn = void (*)(const In* dy, const In* res, size_t stride, size_t rows, size_t cols,
                              float* acc_gamma, float* acc_beta);

/// One call of a layer-norm forward kernel: rows [0, rows) of x, each row on
/// its own (docs/numerics.md, "Layer norm forward and fused backward").
struct LayerNormForwardArgs {
  const void* x;       ///< rows × stride elements of the input type
  const float* gamma;  ///< cols, widened
  const float* beta;   ///< cols, widened
  float eps;
  size_t stride, rows, cols;
  void* y;          ///< rows × stride, input type or float; null: statistics only
  bool f32_y;       ///< y is float
  bool stream_y;    ///< non-temporal stores for y
  float* mean;      ///< rows, or null
  float* variance;  ///< rows, or null
  float* rstd;      ///< rows, or null
};

/// One call of a fused layer-norm backward kernel: rows [0, rows), dx for
/// each, and dy·x̂ and dy added into acc_gamma / acc_beta row after row.
struct LayerNormBackwardArgs {
  const void* x;       ///< rows × stride elements of the input type
  const void* dy;      ///< rows × stride elements of the input type
  const float* gamma;  ///< cols, widened
  const float* mean;   ///< rows
  const float* rstd;   ///< rows
  size_t stride, rows, cols;
  void* dx;          ///< rows × stride, input type or float
  bool f32_dx;       ///< dx is float
  bool stream_dx;    ///< non-temporal stores for dx
  float* acc_gamma;  ///< cols: += fl(dy · x̂) per row, in row order
  float* acc_beta;   ///< cols: += dy per row, in row order
};

/// The kernels of a row-norm family (layer norm, RMS norm) of one
/// instruction set, per input type, over the family's argument structs.
/// An instruction set's table is built by row_norms_entry_inl.h.
template <typename ForwardArgs, typename BackwardArgs>
struct RowNormKernels {
  void (*forward_f32)(const ForwardArgs&);
  void (*forward_f16)(const ForwardArgs&);
  void (*forward_bf16)(const ForwardArgs&);
  void (*backward_f32)(const BackwardArgs&);
  void (*backward_f16)(const BackwardArgs&);
  void (*backward_bf16)(const BackwardArgs&);
};

/// The layer-norm kernels of one instruction set, per input type.
using LayerNormKernels = RowNormKernels<LayerNormForwardArgs, LayerNormBackwardArgs>;

/// One call of an RMS-norm forward kernel: rows [0, rows) of x, each row on
/// its own (docs/numerics.md, "RMS norm forward and fused backward").
struct RmsNormForwardArgs {
  const void* x;       ///< rows × stride elements of the input type
  const float* gamma;  ///< cols, widened
  float eps;
  size_t stride, rows, cols;
  void* y;        ///< rows × stride, input type or float; null: rstd only
  bool f32_y;     ///< y is float
  bool stream_y;  ///< non-temporal stores for y
  float* rstd;    ///< rows, or null
};

/// One call of a fused RMS-norm backward kernel: rows [0, rows), dx for
/// each, and dy·(x·rstd) added into acc_gamma row after row.
struct RmsNormBackwardArgs {
  const void* x;       ///< rows × stride elements of the input type
  const void* dy;      ///< rows × stride elements of the input type
  const float* gamma;  ///< cols, widened
  const float* rstd;   ///< rows
  size_t stride, rows, cols;
  void* dx;          ///< rows × stride, input type or float
  bool f32_dx;       ///< dx is float
  bool stream_dx;    ///< non-temporal stores for dx
  float* acc_gamma;  ///< cols: += fl(dy · fl(x · rstd)) per row, in row order
};

/// The RMS-norm kernels of one instruction set, per input type.
using RmsNormKernels = RowNormKernels<RmsNormForwardArgs, RmsNormBackwardArgs>;

/// The elementwise operations of the emulated vector unit's loops.
enum class VectorOp : uint8_t { kAdd, kSub, kMul, kDiv, kMax, kMin };
inline constexpr int kVectorOps = 6;

/// The one-source float operations of the vector unit's loops.
enum class UnaryOp : uint8_t { kAbs, kRelu, kSqrt, kRsqrt, kReciprocal };
inline constexpr int kUnaryOps = 5;

/// The compound float operations of the vector unit's loops, each step
/// rounded (no fused multiply-add): with d the old destination and s Axpy's
/// scalar, Axpy a·s + d, FusedMulAdd a·d + b, MulAddDst a·b + d, AddRelu
/// Relu(a + b), SubRelu Relu(a − b), MulAddRelu Relu(a·d + b).
enum class CompoundOp : uint8_t {
  kAxpy,
  kFusedMulAdd,
  kMulAddDst,
  kAddRelu,
  kSubRelu,
  kMulAddRelu
};
inline constexpr int kCompoundOps = 6;

/// The relations of the vector unit's float compares, in the order of
/// Ascend C's CMPMODE: <, >, ==, <=, >=, != (true for NaN).
enum class CompareOp : uint8_t { kLt, kGt, kEq, kLe, kGe, kNe };
inline constexpr int kCompareOps = 6;

/// The bitwise operations of the vector unit's loops (And, Or, Not).
enum class LogicOp : uint8_t { kAnd, kOr, kNot };
inline constexpr int kLogicOps = 3;

/// The roundings of the conversion loops: nearest even, toward −inf, toward
/// +inf, toward zero, nearest with ties away from zero (the first
/// kToIntRounds, those into integers), and to odd (the last bit set where
/// inexact, toward zero otherwise; float → half only).
enum class CastRound : uint8_t { kRint, kFloor, kCeil, kTrunc, kRound, kOdd };
inline constexpr int kToIntRounds = 5;
inline constexpr int kCastRounds = 6;

/// The element types of the generic conversion loops (VectorKernels::cast);
/// half and bfloat16 are their bits.
enum class CastType : uint8_t { kI8, kU8, kI16, kU16, kI32, kU32, kI64, kF16, kBf16, kF32 };
inline constexpr int kCastTypes = 10;

/// One conversion loop: n elements from a into d, which is a or apart from it.
using CastFn = void (*)(void* d, const void* a, size_t n);

/// The emulated vector unit's loops of one instruction set
/// (src/kernels/vector_<isa>.cc). In each, the destination is one of the
/// sources or apart from them.
struct VectorKernels {
  /// d[i] = op(a[i], b[i]) in float, indexed by VectorOp.
  void (*binary_f32[kVectorOps])(float* d, const float* a, const float* b, size_t n);
  /// d[i] = op(a[i], s) in float, indexed by VectorOp.
  void (*scalar_f32[kVectorOps])(float* d, const float* a, float s, size_t n);
  /// d[i] = op(a[i]) in float, indexed by UnaryOp: |a| and Relu on the
  /// bits (Relu keeps NaN, gives +0 for −0), √a and 1/a correctly rounded,
  /// 1/√a computed in double and rounded once.
  void (*unary_f32[kUnaryOps])(float* d, const float* a, size_t n);
  /// d[i] = a[i] ≥ 0 ? a[i] : fl(a[i] · slope) in float.
  void (*leaky_relu_f32)(float* d, const float* a, float slope, size_t n);
  /// |a| and Relu of binary16 bits, as unary_f32's.
  void (*abs_f16)(uint16_t* d, const uint16_t* a, size_t n);
  void (*relu_f16)(uint16_t* d, const uint16_t* a, size_t n);
  /// d[i] = op(a[i], b[i], d[i]) in float, indexed by CompoundOp (Axpy
  /// reads s, not b). d may be a or b.
  void (*compound_f32[kCompoundOps])(float* d, const float* a, const float* b, float s, size_t n);
  /// Bit i % 8 of bits[i / 8] = a[i] op b[i] (b null: op s), indexed by
  /// CompareOp; n a multiple of 64.
  void (*compare_f32[kCompareOps])(uint8_t* bits, const float* a, const float* b, float s,
                                   size_t n);
  /// Shifts of 16-bit and 32-bit integers (their bits), indexed [signed]
  /// [right], by a count below the width: unsigned shifts are logical,
  /// signed ones arithmetic, and a signed left shift keeps the sign bit.
  /// round_bit ≥ 0 adds that bit of the source (ShiftRight's roundEn).
  void (*shift16[2][2])(uint16_t* d, const uint16_t* a, uint32_t count, int round_bit, size_t n);
  void (*shift32[2][2])(uint32_t* d, const uint32_t* a, uint32_t count, int round_bit, size_t n);
  /// float → int32, rounded as CastRound's first kToIntRounds say and
  /// saturated (NaN gives 0).
  void (*to_int32_f32[kToIntRounds])(int32_t* d, const float* a, size_t n);
  /// int32 → float, nearest even.
  void (*from_int32_f32)(float* d, const int32_t* a, size_t n);
  /// Every conversion [source][destination][rounding]: into an integer
  /// rounded and saturated (NaN gives 0), into a float format rounded once
  /// (overflow gives infinity or the largest finite value as the rounding
  /// says, NaN the quiet NaN with sign and payload clear); float → float
  /// rounds to an integral value. Null where no loop is compiled: an
  /// integer source into an integer (exact or saturated) has kRint's only,
  /// kOdd is float → half's only, int64 into half and bfloat16, half →
  /// half and bfloat16 → bfloat16 have none.
  CastFn cast[kCastTypes][kCastTypes][kCastRounds];
  /// Select on the bits of elements of 1, 2, 4, 8 bytes (indexed by
  /// log2 of the size): d[k] = bit k of `bits` (bit k % 8 of byte k / 8),
  /// inverted by `invert`, ? a[k] : b[k], or the scalar's low bytes where b
  /// is null. d is a, b or apart from them.
  void (*select[4])(void* d, const void* a, const void* b, uint64_t scalar, bool invert,
                    const uint8_t* bits, size_t n);
  /// The trees of consecutive groups of `group` floats (a power of two
  /// from 2 to 128, n a multiple of it), one sum each into sums: level by
  /// level, neighbours 2i and 2i+1 added.
  void (*tree_sums_f32)(const float* src, size_t n, uint32_t group,
                        float* sums) = nullptr;  // set by reduce_entry_inl.h
  /// d[i] = op(a[i], b[i]), or op(a[i], s) where b is null (s's low bytes),
  /// on integers indexed [log2 of the size: 1, 2, 4, 8 bytes][signed]
  /// [VectorOp]: +, −, × modulo 2^bits, Max, Min; null for Div. d is a, b,
  /// or apart from both.
  void (*int_ops[4][2][kVectorOps])(void* d, const void* a, const void* b, uint64_t s, size_t n);
  /// The bits of n elements of elem_bytes bytes (1, 2, 4 or 8), indexed by
  /// LogicOp: a & b, a | b (b null: the scalar's low elem_bytes bytes in
  /// every element), ~a. d is a, b, or apart from both.
  void (*logic[kLogicOps])(void* d, const void* a, const void* b, uint64_t scalar,
                           uint32_t elem_bytes, size_t n);
  /// The position in a[0, n) (n ≥ 1) of the first NaN, else of the first
  /// greatest ([0]) or least ([1]) value, −0 equal to +0; half as its bits.
  uint32_t (*arg_extreme_f32[2])(const float* a, uint32_t n);
  uint32_t (*arg_extreme_f16[2])(const uint16_t* a, uint32_t n);
  /// The trees of consecutive groups of `group` halves (bits; a power of
  /// two from 2 to 128, n a multiple of it) as half_tree adds them, one sum
  /// each (bits) into sums.
  void (*half_tree_sums)(const uint16_t* src, size_t n, uint32_t group,
                         uint16_t* sums) = nullptr;  // set by reduce_entry_inl.h
  /// d[i] = op(a[i], b[i], d[i]) in half (bits), indexed by CompoundOp as
  /// compound_f32, every step rounded to half (Axpy's product before its
  /// sum). d may be a or b.
  void (*compound_f16[kCompoundOps])(uint16_t* d, const uint16_t* a, const uint16_t* b, float s,
                                     size_t n) = {};  // set by reduce_entry_inl.h
  /// Copies bytes between regions that do not overlap, as four interleaved
  /// streams (long copies read at the bandwidth two streams reach).
  void (*copy_streams)(uint8_t* dst, const uint8_t* src, size_t bytes);
  // reductions
  /// The tree over n floats (8 to 128, a power of two) of half values, level
  /// by level: neighbours 2i and 2i+1 added in float and every level's sums
  /// rounded to half (their binary16 sums) with the set's conversions.
  float (*half_tree)(const float* v, uint32_t n) = nullptr;  // set by reduce_entry_inl.h
  /// Fills d with n elements of 2 and 4 bytes (indexed by log2 of the size
  /// − 1), each the low bytes of value (Duplicate).
  void (*fill[2])(void* d, uint32_t value, size_t n) = {};
  /// d[i] = v · scale rounded once to half (nearest even; bits), through
  /// a float that rounds as the product does: fl(fl(v) · scale) where no
  /// midpoint between two halves is within two float places of it, else
  /// v · scale rounded to odd at float's last place (vector_cast_inl.h
  /// proves both); v = a[i] + b[i] modulo 2^32 (a[i] where b is null),
  /// scale finite (a half's value); with relu a product not positive gives
  /// +0. Cast's deq and AddDeqRelu. d may start where a does.
  void (*dequant_f16)(uint16_t* d, const int32_t* a, const int32_t* b, float scale, bool relu,
                      size_t n) = nullptr;
  /// The steps of AddReluCast and SubReluCast before their narrowing,
  /// indexed [sub]: in float d[i] = Relu(a[i] ± b[i]) with a finite result
  /// past half's largest finite value made that value (into half next); in
  /// int16_t d[i] = Relu(a[i] ± b[i] modulo 2^16) saturated into int8_t.
  void (*relu_step_f32[2])(float* d, const float* a, const float* b, size_t n) = {};
  void (*relu_cast_i16_i8[2])(int8_t* d, const int16_t* a, const int16_t* b, size_t n) = {};
  /// CastDequant int16_t → 8 bits, indexed [signed]: lane k of a (j =
  /// k % 16) into byte j of the lower (upper: the upper) half of 32-byte
  /// block k / 16 of d, whose other half is kept: rint(a[k] · scale[j] +
  /// offset[j]) in double, NaN 0, saturated into int8_t (signed) or
  /// uint8_t. d may be a (each block read before it is written).
  void (*quant_i16_b8[2])(uint8_t* d, const int16_t* a, const float* scale, const int32_t* offset,
                          bool upper, size_t n) = {};
};

/// The primitives of one instruction set.
struct Isa {
  const char* name;  ///< "avx512", "avx2", "scalar"
  bool (*available)();
  AccumulateFn<float> accumulate_f32;
  AccumulateFn<uint16_t> accumulate_f16;                ///< binary16 bits
  AccumulateFn<uint16_t> accumulate_bf16;               ///< bfloat16 bits
  void (*add)(float* dst, const float* src, size_t n);  ///< dst[i] += src[i]
  void (*widen_f16)(const uint16_t* src, float* dst, size_t n);
  void (*narrow_f16)(const float* src, uint16_t* dst, size_t n);
  void (*widen_bf16)(const uint16_t* src, float* dst, size_t n);
  void (*narrow_bf16)(const float* src, uint16_t* dst, size_t n);
  LayerNormKernels layer_norm;  ///< src/kernels/layer_norm_<isa>.cc
  RmsNormKernels rms_norm;      ///< src/kernels/rms_norm_<isa>.cc
  VectorKernels vector;         ///< src/kernels/vector_<isa>.cc
};

/// Every instruction set compiled in, fastest first; the last is "scalar"
/// (portable C++, always available).
const std::vector<Isa>& Isas();

/// The entry points of each instruction set's source file.
const Isa& ScalarIsa();
LayerNormKernels ScalarLayerNormKernels();
RmsNormKernels ScalarRmsNormKernels();
VectorKernels ScalarVectorKernels();
#if defined(NORMGRAD_HAVE_AVX2)
const Isa& Avx2Isa();
LayerNormKernels Avx2LayerNormKernels();
RmsNormKernels Avx2RmsNormKernels();
VectorKernels Avx2VectorKernels();
#endif
#if defined(NORMGRAD_HAVE_AVX512)
const Isa& Avx512Isa();
LayerNormKernels Avx512LayerNormKernels();
/// The kernels below: the bfloat16 RMS-norm ones narrow with AVX512-BF16
/// where CpuHasAvx512Bf16().
RmsNormKernels Avx512RmsNormKernels();
/// `native_bf16`: the bfloat16 RMS-norm kernels narrow with AVX512-BF16
/// (only where CpuHasAvx512Bf16(); the same bits either way).
RmsNormKernels Avx512RmsNormKernels(bool native_bf16);
bool CpuHasAvx512Bf16();
void Avx512Bf16RmsForward(const RmsNormForwardArgs& a);
void Avx512Bf16RmsBackward(const RmsNormBackwardArgs& a);
VectorKernels Avx512VectorKernels();
/// Whether the CPU has AVX512-FP16 (with BW and DQ): Avx512Isa()'s
/// half_tree_sums is then Avx512Fp16HalfTreeSums (the same bits).
bool CpuHasAvx512Fp16();
void Avx512Fp16HalfTreeSums(const uint16_t* src, size_t n, uint32_t group, uint16_t* sums);
#endif
#if defined(NORMGRAD_HAVE_NEON)
const Isa& NeonIsa();
LayerNormKernels NeonLayerNormKernels();
RmsNormKernels NeonRmsNormKernels();
VectorKernels NeonVectorKernels();
#endif

}  // namespace normgrad::kernels
