// kernels/grad_beta/accumulate_inl.h — the row-accumulation loop shared by every
// instruction set, written once over a small "Ops" policy (vector type,
// lane count, load/add/mul). Included only by src/kernels/<isa>.cc, each
// compiled with its own target flags; everything here has internal linkage
// so no instruction-set-specific code leaks between translation units.
#pragma once

#include <algorithm>
#include <cstddef>

#include "kernels/isa/prefetch_inl.h"
#include "kernels/kernels.h"

namespace {

// Rows ahead of the current row that are prefetched in software (the same
// columns of the next group of rows): the hardware prefetchers alone, which
// follow each row only a few KiB before the group moves on, leave inputs
// streamed from memory well below the speed of a plain read (short rows of
// 16-bit elements furthest).
constexpr size_t kPrefetchRows = 4;

// One column's update for `count` consecutive rows, in row order.
template <typename Ops>
inline void AccumulateColumnTail(const typename Ops::In* dy, const typename Ops::In* res,
                                 size_t stride, size_t count, float* acc_gamma, float* acc_beta) {
  float g = *acc_gamma;
  float b = *acc_beta;
  for (size_t k = 0; k < count; ++k) {
    const float d = Ops::ToFloat(dy[k * stride]);
    const float x = Ops::ToFloat(res[k * stride]);
    const float p = d * x;
    g = g + p;
    b = b + d;
  }
  *acc_gamma = g;
  *acc_beta = b;
}

// Adds kRows rows (starting at dy/res) into the strip [0, width) of the
// accumulators: vectors of Ops::kLanes columns, rows in order.
template <typename Ops, size_t kRows>
inline void AccumulateRowGroup(const typename Ops::In* dy, const typename Ops::In* res,
                               size_t stride, size_t width, float* acc_gamma, float* acc_beta) {
  size_t c = 0;
  for (; c + Ops::kLanes <= width; c += Ops::kLanes) {
    auto g = Ops::LoadF32(acc_gamma + c);
    auto b = Ops::LoadF32(acc_beta + c);
    for (size_t k = 0; k < kRows; ++k) {
      if (StartsLine<Ops>(c)) {
        PrefetchL2(dy + (k + kPrefetchRows) * stride + c);
        PrefetchL2(res + (k + kPrefetchRows) * stride + c);
      }
      const auto d = Ops::Load(dy + k * stride + c);
      const auto x = Ops::Load(res + k * stride + c);
      g = Ops::Add(g, Ops::Mul(d, x));
      b = Ops::Add(b, d);
    }
    Ops::StoreF32(acc_gamma + c, g);
    Ops::StoreF32(acc_beta + c, b);
  }
  for (; c < width; ++c) {
    AccumulateColumnTail<Ops>(dy + c, res + c, stride, kRows, acc_gamma + c, acc_beta + c);
  }
}

}  // namespace

#include "kernels/grad_beta/accumulate_short_inl.h"

namespace {

template <typename Ops>
void AccumulateRows(const typename Ops::In* dy, const typename Ops::In* res, size_t stride,
                    size_t rows, size_t cols, float* acc_gamma, float* acc_beta) {
  if (stride * sizeof(typename Ops::In) <= kShortRowBytes) {
    AccumulateShortRows<Ops>(dy, res, stride, rows, cols, acc_gamma, acc_beta);
    return;
  }
  using normgrad::kernels::kStripColumns;
  constexpr size_t kGroup = 4;  // rows per pass over an accumulator strip
  for (size_t c0 = 0; c0 < cols; c0 += kStripColumns) {
    const size_t width = std::min(kStripColumns, cols - c0);
    size_t r = 0;
    for (; r + kGroup <= rows; r += kGroup) {
      AccumulateRowGroup<Ops, kGroup>(dy + r * stride + c0, res + r * stride + c0, stride, width,
                                      acc_gamma + c0, acc_beta + c0);
    }
    for (; r < rows; ++r) {
      AccumulateRowGroup<Ops, 1>(dy + r * stride + c0, res + r * stride + c0, stride, width,
                                 acc_gamma + c0, acc_beta + c0);
    }
  }
}

}  // namespace
