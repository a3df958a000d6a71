// kernels/rms_norm/rms_norm_inl.h — the RMS-norm forward and fused backward row
// kernels shared by every instruction set, written once over an "Ops" policy
// with the row machinery of row_norms_inl.h (16-lane row sums, the storing
// element pass, prefetching, output types). Included only by
// rms_norm_<isa>.cc, each compiled for its own instruction set; everything
// here has internal linkage.
//
// The order of every float operation is fixed here, independent of the
// vector width, so every instruction set gives the same bits
// (docs/numerics.md, "RMS norm forward and fused backward"): row sums are
// row_norms_inl.h's RowSums (element c into lane c mod 16, lanes folded by a
// fixed tree); every other operation is per element. As in layer_norm_inl.h,
// the forward pass rounds every multiply and add separately, the backward's
// row sum and dx use fused multiply-adds at fixed places, and its column sum
// (dgamma) rounds dy·(x·rstd) and the addition separately.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels/isa/prefetch_inl.h"
#include "kernels/isa/row_norms_inl.h"
#include "kernels/kernels.h"

namespace {

using normgrad::kernels::kShortRowBytes;

// Short rows' sums are taken kShortGroupRows at a time. A short row's sum
// is a chain of a few dependent additions: one row at a time, the processor
// mostly waits on that chain; several rows give it independent work to
// overlap.
constexpr size_t kShortGroupRows = 4;

// The forward takes the sums of rows up to kGroupRowBytes long
// kShortGroupRows rows at once too: one such row's sum is a chain of up to
// 64 dependent vector additions (16-bit input, 16 lanes), longer than the
// processor can overlap with the y of the row before, and with 16-bit input
// the row's reads are short enough for that chain to bound it (float rows
// of 3 KB and more are slower in groups).
constexpr size_t kGroupRowBytes = 2048;

// Short rows' statistics are finished kFinishRows at a time: the tree of
// each row's 16 lanes and the divisions and square roots after it. One row
// at a time these are scalar operations on the divider, whose throughput
// (a division or square root every few cycles) bounds the short rows;
// instruction sets that hold 16 floats in a vector finish 16 rows with
// a few vector operations (Ops::SumsOf16Rows, Div, Sqrt), with the same
// bits: the same additions in the same tree, and a correctly rounded
// division and square root per lane.
constexpr size_t kFinishRows = 16;
static_assert(kFinishRows == kSumLanes && kFinishRows % kShortGroupRows == 0);

// Whether Ops finishes kFinishRows rows in vectors (kFinishesRowsInVectors):
// it then has SumsOf16Rows (the 16 rows' TreeSum16 in one vector), Div and
// Sqrt, and BackwardFactorsOf4Rows (RmsBackwardRowFactors' factors of four
// rows: their trees side by side, then one vector division and two
// multiplications for all four, each lane rounded as the scalar formula).
template <typename Ops, typename = void>
struct FinishesRowsInVectors : std::false_type {};
template <typename Ops>
struct FinishesRowsInVectors<Ops, std::void_t<decltype(Ops::kFinishesRowsInVectors)>>
    : std::true_type {};

// Short rows whose y the forward writes side by side: Ops::kForwardSideRows,
// else 1 (one row after another). Side by side, the rows' vectors are
// independent work between a row's loads and its stores; that pays where
// the stores cost most (bfloat16 narrowed two vectors at once), and costs
// where they cost least (float, and half at 256 columns;
// docs/decisions.md).
template <typename Ops, typename = void>
struct ForwardSideRows : std::integral_constant<size_t, 1> {};
template <typename Ops>
struct ForwardSideRows<Ops, std::void_t<decltype(Ops::kForwardSideRows)>>
    : std::integral_constant<size_t, Ops::kForwardSideRows> {};

// Σ x² of kRows rows (row k at x + k·stride) into 16 lanes each.
template <typename Ops, size_t kRows>
inline void RmsRowsSquares(const typename Ops::In* x, size_t stride, size_t cols,
                           float (&lanes)[kRows][kSumLanes]) {
  using Vec = typename Ops::Vec;
  RowSums<Ops, kRows>(
      cols,
      [&](size_t i, Vec* acc) {
        for (size_t k = 0; k < kRows; ++k) {
          const Vec v = Ops::Load(x + k * stride + i);
          acc[k] = Ops::Add(acc[k], Ops::Mul(v, v));
        }
      },
      [&](size_t c, float* acc) {
        for (size_t k = 0; k < kRows; ++k) {
          const float v = Ops::ToFloat(x[k * stride + c]);
          acc[k] = acc[k] + v * v;
        }
      },
      lanes);
}

// rstd of one row from its lanes of Σ x²: 1 / √(Σ x² / H + eps).
template <typename Ops>
inline float RmsRstd(float* lanes, float h, float eps) {
  return 1.0f / std::sqrt(Ops::Sum16(lanes) / h + eps);
}

// rstd of kFinishRows rows from their lanes, each as RmsRstd.
template <typename Ops>
inline void RmsRstdRows(float (&lanes)[kFinishRows][kSumLanes], float h, float eps, float* rstd) {
  if constexpr (FinishesRowsInVectors<Ops>::value) {
    const auto mean_square = Ops::Div(Ops::SumsOf16Rows(lanes), Ops::Set1(h));
    Ops::StoreF32(rstd,
                  Ops::Div(Ops::Set1(1.0f), Ops::Sqrt(Ops::Add(mean_square, Ops::Set1(eps)))));
  } else {
    for (size_t k = 0; k < kFinishRows; ++k) rstd[k] = RmsRstd<Ops>(lanes[k], h, eps);
  }
}

// The lanes of rows [k, k + kRows) of a group of kFinishRows rows.
template <size_t kRows>
inline float (&GroupLanes(float (&lanes)[kFinishRows][kSumLanes], size_t k))[kRows][kSumLanes] {
  return *reinterpret_cast<float(*)[kRows][kSumLanes]>(&lanes[k]);
}

// Forward, the y = (x · rstd) · gamma of kRows rows (row k at x + k·stride,
// its rstd rstd[k]). The rows `ahead` elements later are prefetched while y
// is written, and with prefetch_y their y too, for writing: plain stores
// read a line before they write it (streaming stores read nothing). That
// pays for short rows, whose stores come in bursts; for longer ones the
// hardware prefetchers keep up, and the extra instructions cost more than
// they save. The rows' y must start at the same offset in a 64-byte line
// (the streaming stores).
template <typename Ops, typename Out, bool kStream, size_t kRows>
inline void RmsForwardRowsOutput(const typename Ops::In* x, size_t stride, size_t ahead,
                                 bool prefetch_y, const float* gamma, const float* rstd,
                                 size_t cols, Out* y) {
  using Vec = typename Ops::Vec;
  using O = Output<Ops, Out>;
  ElementPass<Ops, Out, kStream>(
      y, cols,
      [&](size_t c, auto streaming, auto vecs) {
        constexpr size_t kN = decltype(vecs)::value;
        Vec gm[kN];
        for (size_t j = 0; j < kN; ++j) gm[j] = Ops::LoadF32(gamma + c + j * Ops::kLanes);
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          if (StartsLine<Ops>(c)) {
            PrefetchL2(x + row + ahead + c);
            if (!kStream && prefetch_y) __builtin_prefetch(y + row + ahead + c, 1, 2);
          }
          const Vec r = Ops::Set1(rstd[k]);
          Vec v[kN];
          for (size_t j = 0; j < kN; ++j) {
            v[j] = Ops::Mul(Ops::Mul(Ops::Load(x + row + c + j * Ops::kLanes), r), gm[j]);
          }
          O::template Store<decltype(streaming)::value>(y + row + c, v);
        }
      },
      [&](size_t c) {
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          y[row + c] = O::FromFloat((Ops::ToFloat(x[row + c]) * rstd[k]) * gamma[c]);
        }
      });
}

// Backward pass 1 for kRows rows at once (row k at x + k·stride, …): each
// row's k = rstd² · Σ_c (g · x) / H with g = dy · gamma, the factor of x in
// dx, each g·x added by a fused multiply-add. Rows side by side keep their own lanes and order (as
// layer_norm_inl.h's BackwardRowMeans): it only gives the processor independent additions.
template <typename Ops, size_t kRows>
void RmsBackwardRowFactors(const typename Ops::In* x, const typename Ops::In* dy, size_t stride,
                           const float* gamma, const float* rstd, size_t cols, float* factor) {
  using Vec = typename Ops::Vec;
  float lanes[kRows][kSumLanes];  // per row: Σ g·x
  RowSums<Ops, kRows>(
      cols,
      [&](size_t i, Vec* acc) {
        const Vec gm = Ops::LoadF32(gamma + i);
        for (size_t k = 0; k < kRows; ++k) {
          const Vec g = Ops::Mul(Ops::Load(dy + k * stride + i), gm);
          acc[k] = Ops::MulAdd(g, Ops::Load(x + k * stride + i), acc[k]);
        }
      },
      [&](size_t c, float* acc) {
        for (size_t k = 0; k < kRows; ++k) {
          const float g = Ops::ToFloat(dy[k * stride + c]) * gamma[c];
          acc[k] = FusedMulAdd(g, Ops::ToFloat(x[k * stride + c]), acc[k]);
        }
      },
      lanes);
  const float h = static_cast<float>(cols);
  if constexpr (kRows == 4 && FinishesRowsInVectors<Ops>::value) {
    Ops::BackwardFactorsOf4Rows(lanes, rstd, h, factor);
  } else {
    for (size_t k = 0; k < kRows; ++k) {
      factor[k] = (rstd[k] * rstd[k]) * (Ops::Sum16(lanes[k]) / h);
    }
  }
}

// Backward pass 2 for kRows rows at once: dx = rstd · fl(g − x · factor)
// (one fused multiply-add), and
// each row's dy · (x · rstd) added into acc_gamma, row after row, the
// accumulator loaded and stored once for all kRows; the rows after them
// (x + kRows·stride + ahead, …) are prefetched, and with prefetch_dx their
// dx for writing (as the forward's y, RmsForwardRowOutput). The rows' dx must
// start at the same offset in a 64-byte line (the streaming stores).
template <typename Ops, typename Out, bool kStream, size_t kRows>
void RmsBackwardRowsUpdate(const typename Ops::In* x, const typename Ops::In* dy, size_t stride,
                           size_t ahead, bool prefetch_dx, const float* gamma, const float* rstd,
                           const float* factor, size_t cols, Out* dx, float* acc_gamma) {
  using Vec = typename Ops::Vec;
  using O = Output<Ops, Out>;
  ElementPass<Ops, Out, kStream>(
      dx, cols,
      [&](size_t c, auto streaming, auto vecs) {
        constexpr size_t kN = decltype(vecs)::value;
        Vec ag[kN], gm[kN];
        for (size_t j = 0; j < kN; ++j) {
          ag[j] = Ops::LoadF32(acc_gamma + c + j * Ops::kLanes);
          gm[j] = Ops::LoadF32(gamma + c + j * Ops::kLanes);
        }
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          if (StartsLine<Ops>(c)) {
            PrefetchL2(x + row + ahead + c);
            PrefetchL2(dy + row + ahead + c);
            if (!kStream && prefetch_dx) __builtin_prefetch(dx + row + ahead + c, 1, 2);
          }
          const Vec r = Ops::Set1(rstd[k]);
          Vec v[kN];
          for (size_t j = 0; j < kN; ++j) {
            const size_t e = row + c + j * Ops::kLanes;
            const Vec d = Ops::Load(dy + e);
            const Vec xv = Ops::Load(x + e);
            const Vec g = Ops::Mul(d, gm[j]);
            v[j] = Ops::Mul(r, Ops::NegMulAdd(xv, Ops::Set1(factor[k]), g));
            ag[j] = Ops::Add(ag[j], Ops::Mul(d, Ops::Mul(xv, r)));
          }
          O::template Store<decltype(streaming)::value>(dx + row + c, v);
        }
        for (size_t j = 0; j < kN; ++j) Ops::StoreF32(acc_gamma + c + j * Ops::kLanes, ag[j]);
      },
      [&](size_t c) {
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          const float d = Ops::ToFloat(dy[row + c]);
          const float xv = Ops::ToFloat(x[row + c]);
          const float g = d * gamma[c];
          acc_gamma[c] = acc_gamma[c] + d * (xv * rstd[k]);
          dx[row + c] = O::FromFloat(rstd[k] * FusedNegMulAdd(xv, factor[k], g));
        }
      });
}

// Forward over rows [0, a.rows), in runs of rows: the rstd of the run, then
// its y, row after row, x still in the L1 cache. Short rows go kFinishRows
// at a time, rows up to kGroupRowBytes kShortGroupRows at a time, their sums
// kShortGroupRows rows at once; longer rows one at a time.
template <typename Ops, typename Out, bool kStream>
void RmsForwardRows(const normgrad::kernels::RmsNormForwardArgs& a) {
  const auto* x = static_cast<const typename Ops::In*>(a.x);
  auto* y = static_cast<Out*>(a.y);
  const size_t row_bytes = a.cols * sizeof(typename Ops::In);
  const bool short_rows = row_bytes <= kShortRowBytes;
  const size_t run = short_rows ? kFinishRows : row_bytes <= kGroupRowBytes ? kShortGroupRows : 1;
  // While a run's y is written, the run after it is prefetched, and the rows
  // a row's own prefetch distance beyond. A prefetch never faults: reaching
  // past the last row is harmless.
  const size_t ahead = (run - 1 + PrefetchRows(a.stride * sizeof(typename Ops::In))) * a.stride;
  // Short rows' y kSideRows rows side by side where the policy asks for it
  // and every row's y lines up alike (rows a multiple of 64 bytes apart).
  constexpr size_t kSideRows = ForwardSideRows<Ops>::value;
  const bool side_by_side = kSideRows > 1 && short_rows && a.stride * sizeof(Out) % 64 == 0;
  const float h = static_cast<float>(a.cols);
  float lanes[kFinishRows][kSumLanes];
  float rstd[kFinishRows];
  for (size_t r0 = 0; r0 < a.rows; r0 += run) {
    const size_t n = std::min(run, a.rows - r0);
    const auto* xr = x + r0 * a.stride;
    size_t k = 0;
    for (; run > 1 && k + kShortGroupRows <= n; k += kShortGroupRows) {
      RmsRowsSquares<Ops, kShortGroupRows>(xr + k * a.stride, a.stride, a.cols,
                                           GroupLanes<kShortGroupRows>(lanes, k));
    }
    for (; k < n; ++k)
      RmsRowsSquares<Ops, 1>(xr + k * a.stride, a.stride, a.cols, GroupLanes<1>(lanes, k));
    // A whole run's rstd is copied with a constant length: a few vector
    // moves, where a copy of n elements became a string copy whose start-up
    // showed in the profile of 64-column rows.
    if (n == kFinishRows) {
      RmsRstdRows<Ops>(lanes, h, a.eps, rstd);
      if (a.rstd) std::copy(rstd, rstd + kFinishRows, a.rstd + r0);
    } else {
      for (k = 0; k < n; ++k) rstd[k] = RmsRstd<Ops>(lanes[k], h, a.eps);
      if (a.rstd) std::copy(rstd, rstd + n, a.rstd + r0);
    }
    if (y == nullptr) continue;
    k = 0;
    const auto rows_from = [&](auto rows) {
      constexpr size_t kRows = decltype(rows)::value;
      const size_t offset = (r0 + k) * a.stride;
      RmsForwardRowsOutput<Ops, Out, kStream, kRows>(x + offset, a.stride, ahead, short_rows,
                                                     a.gamma, rstd + k, a.cols, y + offset);
    };
    for (; side_by_side && k + kSideRows <= n; k += kSideRows) {
      rows_from(std::integral_constant<size_t, kSideRows>());
    }
    for (; k < n; ++k) rows_from(std::integral_constant<size_t, 1>());
  }
  if constexpr (kStream) Ops::Fence();
}

template <typename Ops, typename Out, bool kStream>
void RmsBackwardRows(const normgrad::kernels::RmsNormBackwardArgs& a) {
  const auto* x = static_cast<const typename Ops::In*>(a.x);
  const auto* dy = static_cast<const typename Ops::In*>(a.dy);
  auto* dx = static_cast<Out*>(a.dx);
  // Two rows side by side in both passes when their dx lines up alike, as
  // layer_norm_inl.h's BackwardRows does.
  const bool pairs = ElementsBeforeLine(dx, a.cols) == ElementsBeforeLine(dx + a.stride, a.cols);
  const size_t ahead =
      (pairs ? 2 : 1) * PrefetchRows(a.stride * sizeof(typename Ops::In)) * a.stride;
  const bool short_rows = a.cols * sizeof(typename Ops::In) <= kShortRowBytes;
  const auto rows_from = [&](size_t r, auto rows) {
    constexpr size_t kRows = decltype(rows)::value;
    const size_t offset = r * a.stride;
    float factor[kRows];
    RmsBackwardRowFactors<Ops, kRows>(x + offset, dy + offset, a.stride, a.gamma, a.rstd + r,
                                      a.cols, factor);
    RmsBackwardRowsUpdate<Ops, Out, kStream, kRows>(x + offset, dy + offset, a.stride, ahead,
                                                    short_rows, a.gamma, a.rstd + r, factor, a.cols,
                                                    dx + offset, a.acc_gamma);
  };
  // Short rows go four at a time when every row's dx lines up alike (rows
  // a multiple of 64 bytes apart): more independent work for the short
  // chains of each row, and one load and store of the dgamma accumulator per
  // four rows.
  const bool quads = short_rows && a.stride * sizeof(Out) % 64 == 0;
  size_t r = 0;
  for (; quads && r + 4 <= a.rows; r += 4) rows_from(r, std::integral_constant<size_t, 4>());
  for (; pairs && r + 2 <= a.rows; r += 2) rows_from(r, std::integral_constant<size_t, 2>());
  for (; r < a.rows; ++r) rows_from(r, std::integral_constant<size_t, 1>());
  if constexpr (kStream) Ops::Fence();
}

// The kernel entry points: the output type and store kind chosen per call.
template <typename Ops>
void RmsForwardKernel(const normgrad::kernels::RmsNormForwardArgs& a) {
  ForOutput<Ops>(a.f32_y, a.stream_y, [&](auto out, auto streaming) {
    RmsForwardRows<Ops, typename decltype(out)::type, decltype(streaming)::value>(a);
  });
}

template <typename Ops>
void RmsBackwardKernel(const normgrad::kernels::RmsNormBackwardArgs& a) {
  ForOutput<Ops>(a.f32_dx, a.stream_dx, [&](auto out, auto streaming) {
    RmsBackwardRows<Ops, typename decltype(out)::type, decltype(streaming)::value>(a);
  });
}

// The entry points of an instruction set's table (row_norms_entry_inl.h).
struct RmsNormEntries {
  using Kernels = normgrad::kernels::RmsNormKernels;
  template <typename Ops>
  static constexpr auto kForward = RmsForwardKernel<Ops>;
  template <typename Ops>
  static constexpr auto kBackward = RmsBackwardKernel<Ops>;
};

}  // namespace
