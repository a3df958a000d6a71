// kernels/vector/advanced_transpose_inl.h — the loop of
// kernels::AdvancedKernels (advanced.h) that the Tensor transform family's
// true transposes use (Transpose scenarios 7, 13 and 15, TransData):
// transpose_bits, a strided 2-D transpose of elements of 1, 2 or 4 bytes.
// Written once, like advanced_inl.h, and compiled inside each instruction
// set's target region (advanced_<isa>.cc). It moves bits and never looks
// at values, so every set gives the same result by construction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/vector/advanced.h"

namespace normgrad::kernels {
namespace {
namespace advanced {

// ---- Transpose: square tiles --------------------------------------------------

// One K × K tile: dst[c · dst_stride + r] = src[r · src_stride + c]. The
// tile is read row by row into a local block and written column by column
// from it, both with sizes known at compile time, so the compiler unrolls
// the tile and moves its rows in vectors, shuffling within registers.
template <typename T, size_t K>
inline void TransposeTile(T* __restrict dst, const T* __restrict src, size_t src_stride,
                          size_t dst_stride) {
  T block[K][K];
  for (size_t r = 0; r < K; ++r) {
    for (size_t c = 0; c < K; ++c) block[r][c] = src[r * src_stride + c];
  }
  for (size_t c = 0; c < K; ++c) {
    for (size_t r = 0; r < K; ++r) dst[c * dst_stride + r] = block[r][c];
  }
}

// The element by element move of a part no whole tile covers (the tails).
template <typename T>
inline void TransposePart(T* __restrict dst, const T* __restrict src, size_t rows, size_t cols,
                          size_t src_stride, size_t dst_stride) {
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) dst[c * dst_stride + r] = src[r * src_stride + c];
  }
}

// The rows × cols block in K × K tiles, a band of K source rows at a time
// (K source rows and K destination rows are in use at once, which stay in
// the first-level cache); the right and bottom tails element by element,
// addressed only where there are tails (past the block's last row or column
// the address could lie beyond the arrays).
template <typename T, size_t K>
void TransposeOf(void* dst_bytes, const void* src_bytes, size_t rows, size_t cols,
                 size_t src_stride, size_t dst_stride) {
  T* __restrict dst = static_cast<T*>(dst_bytes);
  const T* __restrict src = static_cast<const T*>(src_bytes);
  const size_t whole_rows = rows - rows % K;
  const size_t whole_cols = cols - cols % K;
  for (size_t r = 0; r < whole_rows; r += K) {
    for (size_t c = 0; c < whole_cols; c += K) {
      TransposeTile<T, K>(dst + c * dst_stride + r, src + r * src_stride + c, src_stride,
                          dst_stride);
    }
    if (whole_cols < cols) {
      TransposePart(dst + whole_cols * dst_stride + r, src + r * src_stride + whole_cols, K,
                    cols - whole_cols, src_stride, dst_stride);
    }
  }
  if (whole_rows < rows) {
    TransposePart(dst + whole_rows, src + whole_rows * src_stride, rows - whole_rows, cols,
                  src_stride, dst_stride);
  }
}

// Tiles of 8 × 8 four-byte elements (a row of 32 bytes) and 16 × 16 two- and
// one-byte elements.
void TransposeBits(void* dst, const void* src, size_t rows, size_t cols, size_t src_stride,
                   size_t dst_stride, uint32_t bytes) {
  switch (bytes) {
    case 1:
      return TransposeOf<uint8_t, 16>(dst, src, rows, cols, src_stride, dst_stride);
    case 2:
      return TransposeOf<uint16_t, 16>(dst, src, rows, cols, src_stride, dst_stride);
    default:
      return TransposeOf<uint32_t, 8>(dst, src, rows, cols, src_stride, dst_stride);
  }
}

}  // namespace advanced
}  // namespace
}  // namespace normgrad::kernels
