// kernels/grad_beta/accumulate_short_inl.h — the row accumulation of accumulate_inl.h
// for short rows (at most kShortRowBytes apart, e.g. 64 columns): the same
// per-column order, rows added one after another with every product rounded
// before it is added, so the same bits; only the loop differs. Included by
// accumulate_inl.h; everything here has internal linkage.
//
// Short rows are bound by per-row work, not by memory: the general loop
// reloads and stores its sums every four rows and prefetches once per
// vector, several times per 64-byte line of 16-bit inputs, only four short
// rows ahead. Here the sums of up to kShortVecs vectors of columns stay in
// registers over a run of rows, each input line is prefetched once, and far
// enough ahead to hide the latency of the last-level cache.
#pragma once

#include <cstddef>

#include "kernels/kernels.h"

namespace {

using normgrad::kernels::kShortRowBytes;

// Vectors of columns whose sums stay in registers: 2 · kShortVecs registers,
// which leaves room for the inputs even with 16 vector registers.
constexpr size_t kShortVecs = 4;

// Rows per run: the sums are loaded and stored once per run, and the columns
// past the last whole vector are added while the run's rows are in L1.
constexpr size_t kShortRunRows = 64;

// Bytes of each input prefetched ahead of the row being added.
constexpr size_t kShortPrefetchBytes = 2048;

// Rows [0, rows) of kVecs vectors of columns (starting at dy/res) into the
// accumulators; the rows `ahead` elements further are prefetched, one
// prefetch per 64 bytes.
template <typename Ops, size_t kVecs>
void AccumulateShortColumns(const typename Ops::In* dy, const typename Ops::In* res, size_t stride,
                            size_t rows, size_t ahead, float* acc_gamma, float* acc_beta) {
  using Vec = typename Ops::Vec;
  constexpr size_t kLineElements = 64 / sizeof(typename Ops::In);
  Vec g[kVecs], b[kVecs];
  for (size_t v = 0; v < kVecs; ++v) {
    g[v] = Ops::LoadF32(acc_gamma + v * Ops::kLanes);
    b[v] = Ops::LoadF32(acc_beta + v * Ops::kLanes);
  }
  for (size_t r = 0; r < rows; ++r) {
    const typename Ops::In* d_row = dy + r * stride;
    const typename Ops::In* x_row = res + r * stride;
    for (size_t v = 0; v < kVecs; ++v) {
      const size_t c = v * Ops::kLanes;
      if (c % kLineElements == 0) {
        // A prefetch never faults, so reaching past the last row is harmless.
        __builtin_prefetch(d_row + ahead + c);
        __builtin_prefetch(x_row + ahead + c);
      }
      const Vec d = Ops::Load(d_row + c);
      g[v] = Ops::Add(g[v], Ops::Mul(d, Ops::Load(x_row + c)));
      b[v] = Ops::Add(b[v], d);
    }
  }
  for (size_t v = 0; v < kVecs; ++v) {
    Ops::StoreF32(acc_gamma + v * Ops::kLanes, g[v]);
    Ops::StoreF32(acc_beta + v * Ops::kLanes, b[v]);
  }
}

// AccumulateRows for rows at most kShortRowBytes apart, in runs of
// kShortRunRows rows: groups of kShortVecs vectors, then single vectors, then
// single columns (AccumulateColumnTail).
template <typename Ops>
void AccumulateShortRows(const typename Ops::In* dy, const typename Ops::In* res, size_t stride,
                         size_t rows, size_t cols, float* acc_gamma, float* acc_beta) {
  const size_t row_bytes = stride * sizeof(typename Ops::In);
  const size_t ahead = (kShortPrefetchBytes + row_bytes - 1) / row_bytes * stride;
  constexpr size_t kGroup = kShortVecs * Ops::kLanes;
  for (size_t r0 = 0; r0 < rows; r0 += kShortRunRows) {
    const size_t n = rows - r0 < kShortRunRows ? rows - r0 : kShortRunRows;
    const typename Ops::In* d = dy + r0 * stride;
    const typename Ops::In* x = res + r0 * stride;
    size_t c = 0;
    for (; c + kGroup <= cols; c += kGroup) {
      AccumulateShortColumns<Ops, kShortVecs>(d + c, x + c, stride, n, ahead, acc_gamma + c,
                                              acc_beta + c);
    }
    for (; c + Ops::kLanes <= cols; c += Ops::kLanes) {
      AccumulateShortColumns<Ops, 1>(d + c, x + c, stride, n, ahead, acc_gamma + c, acc_beta + c);
    }
    for (; c < cols; ++c) {
      AccumulateColumnTail<Ops>(d + c, x + c, stride, n, acc_gamma + c, acc_beta + c);
    }
  }
}

}  // namespace
