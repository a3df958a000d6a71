// kernels/vector_inl.h — the elementwise loops of the emulated vector unit
// (kernels::VectorKernels), written once and compiled by each instruction
// set's src/kernels/vector_<isa>.cc inside its target region, where the
// compiler vectorizes them for that set. Each loop exists once per way its
// operands may share memory (separate, or the destination being a source
// itself), every pointer restrict-qualified, so that the compiler needs no
// run-time alias check to vectorize. Float arithmetic is IEEE: no
// contraction into fused multiply-add (the build compiles with
// -ffp-contract=off), so every instruction set gives the same bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"

namespace normgrad::kernels {
namespace {

template <VectorOp kOp>
inline float ApplyOp(float a, float b) {
  switch (kOp) {
    case VectorOp::kAdd:
      return a + b;
    case VectorOp::kSub:
      return a - b;
    case VectorOp::kMul:
      return a * b;
    case VectorOp::kDiv:
      return a / b;
    case VectorOp::kMax:  // NaN when either is NaN
      return (a != a || a > b) ? a : b;
    case VectorOp::kMin:
      return (a != a || a < b) ? a : b;
  }
  return 0.0f;
}

template <VectorOp kOp>
void BinaryDisjoint(float* __restrict d, const float* __restrict a,
                    const float* __restrict b, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(a[i], b[i]);
}
template <VectorOp kOp>
void BinaryIntoFirst(float* __restrict d, const float* __restrict b, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(d[i], b[i]);
}
template <VectorOp kOp>
void BinaryIntoSecond(float* __restrict d, const float* __restrict a, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(a[i], d[i]);
}
template <VectorOp kOp>
void BinaryIntoBoth(float* d, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(d[i], d[i]);
}

// d[i] = op(a[i], b[i]); d is a, b, or apart from both.
template <VectorOp kOp>
void Binary(float* d, const float* a, const float* b, size_t n) {
  if (d == a && d == b) {
    BinaryIntoBoth<kOp>(d, n);
  } else if (d == a) {
    BinaryIntoFirst<kOp>(d, b, n);
  } else if (d == b) {
    BinaryIntoSecond<kOp>(d, a, n);
  } else {
    BinaryDisjoint<kOp>(d, a, b, n);
  }
}

void PairSums(const float* __restrict from, float* __restrict to, size_t pairs) {
  for (size_t i = 0; i < pairs; ++i) to[i] = from[2 * i] + from[2 * i + 1];
}

template <VectorOp kOp>
void ScalarDisjoint(float* __restrict d, const float* __restrict a, float s,
                    size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(a[i], s);
}
template <VectorOp kOp>
void ScalarInPlace(float* d, float s, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = ApplyOp<kOp>(d[i], s);
}

// d[i] = op(a[i], s); d is a or apart from it.
template <VectorOp kOp>
void WithScalar(float* d, const float* a, float s, size_t n) {
  if (d == a) {
    ScalarInPlace<kOp>(d, s, n);
  } else {
    ScalarDisjoint<kOp>(d, a, s, n);
  }
}

// 32 bytes in a vector register (two SSE moves, or one AVX move).
using Bytes32 = uint8_t __attribute__((vector_size(32)));

// Copies `bytes` between regions that do not overlap as kCopyStreams equal
// parts, 64 bytes from each in turn (a hardware prefetcher follows each
// part as a stream: four streams reach the bandwidth one does not); what the
// parts leave (under kCopyStreams·64 bytes) goes last.
void CopyStreams(uint8_t* __restrict dst, const uint8_t* __restrict src,
                 size_t bytes) {
  constexpr size_t kCopyStreams = 4;
  const size_t part = bytes / kCopyStreams / 64 * 64;
  for (size_t i = 0; i < part; i += 64) {
    for (size_t k = 0; k < kCopyStreams; ++k) {
      const size_t at = k * part + i;
      Bytes32 low, high;
      std::memcpy(&low, src + at, 32);
      std::memcpy(&high, src + at + 32, 32);
      std::memcpy(dst + at, &low, 32);
      std::memcpy(dst + at + 32, &high, 32);
    }
  }
  const size_t done = kCopyStreams * part;
  std::memcpy(dst + done, src + done, bytes - done);
}

}  // namespace
}  // namespace normgrad::kernels
