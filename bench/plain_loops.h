// plain_loops.h — plain loops computing what each vector-unit instruction of
// vector_families.cc computes over the same bytes, without the unit: the
// scale that bench's table divides by. The same source (plain_loops_inl.h)
// is compiled once for the baseline and, on x86-64, once for AVX-512; the
// best the CPU runs is used.
#pragma once

#include <cstddef>

namespace plain_loops {

/// One loop: d from a (and b) over n elements; the scalars are fixed (see
/// plain_loops_inl.h) and match the unit calls of vector_families.cc.
using Fn = void (*)(void* d, const void* a, const void* b, size_t n);

enum Loop : int {
  kAbsF32, kAbsF16, kReluF32, kReluF16, kLeakyReluF32, kLeakyReluF16,
  kExpF32, kLnF32, kSqrtF32, kSqrtF16, kRsqrtF32, kReciprocalF32,
  kReciprocalF16,
  kAddI16, kAddI32, kAndU16, kNotU16, kShiftLeftI32, kShiftRightI16,
  kAxpyF32, kAxpyF16, kAxpyF32F16, kFusedMulAddF32, kMulAddDstF32,
  kAddReluF32, kAddReluF16, kMulAddReluF32,
  kCompareF32, kSelectF32, kSelectScalarF32, kSelectF16,
  kCastF16F32, kCastF32F16, kCastF32I32, kCastI32F32,
  kCastF32F16Floor, kCastF32F16Odd, kCastF32Bf16, kCastBf16F32, kCastBf16I32Ceil,
  kCastF16I32Floor, kCastF16I16, kCastF16I8Trunc, kCastF32I16Round, kCastF32I64,
  kCastF32F32Trunc, kCastI32F32Floor, kCastI32I16, kCastI16F16, kCastI8F16,
  kDuplicateF32, kDuplicateF16,
  kAddF32,
  // Logic, integer scalar, 8- and 64-bit integer, half and reduction rows.
  kAndI16, kOrU16, kAndU32, kOrI32, kAndU8, kOrI64,
  kNotI16, kNotU32, kNotF32, kNotF16, kNotI8, kNotU64,
  kAndsU16, kOrsI16, kAndsI64,
  kAddsI16, kMulsI16, kMaxsI16, kMinsI16, kAddsI32, kMulsI32, kMaxsI32, kMinsI32,
  kAddI8, kSubU8, kMaxI8, kAddI64, kMulI64, kMinU64, kAddsI8, kMulsI64,
  kSubReluF32, kSubReluF16, kDivF32, kDivF16, kMaxF16, kMinF16,
  kReduceSumF32, kReduceSumF16, kReduceMaxF32, kReduceMaxIndexF32,
  kReduceMinF16, kReduceMinIndexF16,

  // Every Cast pair and mode a kernel uses, Duplicate of each element size.
  kCastF32F16Ceil, kCastF32F16Trunc, kCastF16I32Rint, kCastF16I32Round, kCastF16U8,
  kCastF16I16Floor, kCastF16I8, kCastI16F32, kCastF32I16, kCastU8F16, kCastF32Bf16Floor,
  kCastF32Bf16Trunc, kCastF32Bf16Round, kCastI32F32Ceil, kCastI32F32Trunc, kCastI32I64,
  kCastI64I32, kCastI64F32, kCastI64F32Floor, kCastF32F32Floor, kCastF32F32Rint,
  kCastF32F32Round, kDuplicateU16,
  // The narrowing compounds.
  kAddReluCastF16I8, kAddReluCastI16I8, kAddReluCastF32F16, kSubReluCastF32F16,
  kMulCastF16I8, kAddDeqReluI32F16,
  // CastDequant's forms.
  kCastDeqI32F16, kQuantI16I8, kQuantI16U8,
  kLoops
};

/// The table of the best instruction set the CPU runs, and its name.
const Fn* Best();
const char* BestName();

}  // namespace plain_loops
