// kernels/rms_norm_inl.h — the RMS-norm forward and fused backward row
// kernels shared by every instruction set, written once over the same "Ops"
// policy as layer_norm_inl.h, whose row machinery (16-lane row sums, the
// storing element pass, prefetching, output types) they use. Included only
// by src/kernels/rms_norm_<isa>.cc, each compiled for its own instruction
// set; everything here has internal linkage.
//
// The order of every float operation is fixed here, independent of the
// vector width, so every instruction set gives the same bits
// (docs/numerics.md, "RMS norm forward and fused backward"): row sums are
// layer_norm_inl.h's RowSums (element c into lane c mod 16, lanes folded by a
// fixed tree); every other operation is per element. As in layer_norm_inl.h,
// the forward pass rounds every multiply and add separately, the backward's
// row sum and dx use fused multiply-adds at fixed places, and its column sum
// (dgamma) rounds dy·(x·rstd) and the addition separately.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/layer_norm_inl.h"

namespace {

// Forward, one row: rstd from Σ x² (16-lane sums), then y = (x · rstd) ·
// gamma. x_ahead: a later row, prefetched while y is written.
template <typename Ops, typename Out, bool kStream>
void RmsForwardRow(const typename Ops::In* x, const typename Ops::In* x_ahead, const float* gamma,
                   float eps, size_t cols, Out* y, float* rstd_out) {
  using Vec = typename Ops::Vec;
  using O = Output<Ops, Out>;
  float lanes[1][kSumLanes];
  RowSums<Ops, 1>(
      cols,
      [&](size_t i, Vec* acc) {
        const Vec v = Ops::Load(x + i);
        acc[0] = Ops::Add(acc[0], Ops::Mul(v, v));
      },
      [&](size_t c, float* acc) {
        const float v = Ops::ToFloat(x[c]);
        acc[0] = acc[0] + v * v;
      },
      lanes);
  const float rstd = 1.0f / std::sqrt(Ops::Sum16(lanes[0]) / static_cast<float>(cols) + eps);
  if (rstd_out) *rstd_out = rstd;
  if (y == nullptr) return;

  const Vec r = Ops::Set1(rstd);
  ElementPass<Ops, Out, kStream>(
      y, cols,
      [&](size_t c, auto streaming) {
        if (StartsLine<Ops>(c)) PrefetchL2(x_ahead + c);
        const Vec v = Ops::Mul(Ops::Mul(Ops::Load(x + c), r), Ops::LoadF32(gamma + c));
        O::template Store<decltype(streaming)::value>(y + c, v);
      },
      [&](size_t c) { y[c] = O::FromFloat((Ops::ToFloat(x[c]) * rstd) * gamma[c]); });
}

// Backward pass 1 for kRows rows at once (row k at x + k·stride, …): each
// row's k = rstd² · Σ_c (g · x) / H with g = dy · gamma, the factor of x in
// dx, each g·x added by a fused multiply-add. Rows side by side keep their own lanes and order (as layer_norm_inl.h's
// BackwardRowMeans): it only gives the processor independent additions.
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
  for (size_t k = 0; k < kRows; ++k) {
    factor[k] = (rstd[k] * rstd[k]) * (Ops::Sum16(lanes[k]) / h);
  }
}

// Backward pass 2 for kRows rows at once: dx = rstd · fl(g − x · factor)
// (one fused multiply-add), and
// each row's dy · (x · rstd) added into acc_gamma, row after row, the
// accumulator loaded and stored once for all kRows; the rows after them
// (x + kRows·stride + ahead, …) are prefetched. The rows' dx must start at
// the same offset in a 64-byte line (the streaming stores).
template <typename Ops, typename Out, bool kStream, size_t kRows>
void RmsBackwardRowsUpdate(const typename Ops::In* x, const typename Ops::In* dy, size_t stride,
                           size_t ahead, const float* gamma, const float* rstd, const float* factor,
                           size_t cols, Out* dx, float* acc_gamma) {
  using Vec = typename Ops::Vec;
  using O = Output<Ops, Out>;
  ElementPass<Ops, Out, kStream>(
      dx, cols,
      [&](size_t c, auto streaming) {
        Vec ag = Ops::LoadF32(acc_gamma + c);
        const Vec gm = Ops::LoadF32(gamma + c);
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          if (StartsLine<Ops>(c)) {
            PrefetchL2(x + row + ahead + c);
            PrefetchL2(dy + row + ahead + c);
          }
          const Vec r = Ops::Set1(rstd[k]);
          const Vec d = Ops::Load(dy + row + c);
          const Vec xv = Ops::Load(x + row + c);
          const Vec g = Ops::Mul(d, gm);
          const Vec v = Ops::Mul(r, Ops::NegMulAdd(xv, Ops::Set1(factor[k]), g));
          ag = Ops::Add(ag, Ops::Mul(d, Ops::Mul(xv, r)));
          O::template Store<decltype(streaming)::value>(dx + row + c, v);
        }
        Ops::StoreF32(acc_gamma + c, ag);
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

template <typename Ops, typename Out, bool kStream>
void RmsForwardRows(const normgrad::kernels::RmsNormForwardArgs& a) {
  const auto* x = static_cast<const typename Ops::In*>(a.x);
  auto* y = static_cast<Out*>(a.y);
  // A prefetch never faults: reaching past the last row is harmless.
  const size_t ahead = PrefetchRows(a.stride * sizeof(typename Ops::In)) * a.stride;
  for (size_t r = 0; r < a.rows; ++r) {
    const size_t offset = r * a.stride;
    RmsForwardRow<Ops, Out, kStream>(x + offset, x + offset + ahead, a.gamma, a.eps, a.cols,
                                     y ? y + offset : nullptr, a.rstd ? a.rstd + r : nullptr);
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
  const auto rows_from = [&](size_t r, auto rows) {
    constexpr size_t kRows = decltype(rows)::value;
    const size_t offset = r * a.stride;
    float factor[kRows];
    RmsBackwardRowFactors<Ops, kRows>(x + offset, dy + offset, a.stride, a.gamma, a.rstd + r,
                                      a.cols, factor);
    RmsBackwardRowsUpdate<Ops, Out, kStream, kRows>(x + offset, dy + offset, a.stride, ahead,
                                                    a.gamma, a.rstd + r, factor, a.cols,
                                                    dx + offset, a.acc_gamma);
  };
  size_t r = 0;
  for (; pairs && r + 2 <= a.rows; r += 2) rows_from(r, std::integral_constant<size_t, 2>());
  for (; r < a.rows; ++r) rows_from(r, std::integral_constant<size_t, 1>());
  if constexpr (kStream) Ops::Fence();
}

// The kernel entry points: the output type and store kind chosen per call.
template <typename Ops>
void RmsForwardKernel(const normgrad::kernels::RmsNormForwardArgs& a) {
  using In = typename Ops::In;
  if (a.f32_y) {
    a.stream_y ? RmsForwardRows<Ops, float, true>(a) : RmsForwardRows<Ops, float, false>(a);
  } else {
    a.stream_y ? RmsForwardRows<Ops, In, true>(a) : RmsForwardRows<Ops, In, false>(a);
  }
}

template <typename Ops>
void RmsBackwardKernel(const normgrad::kernels::RmsNormBackwardArgs& a) {
  using In = typename Ops::In;
  if (a.f32_dx) {
    a.stream_dx ? RmsBackwardRows<Ops, float, true>(a) : RmsBackwardRows<Ops, float, false>(a);
  } else {
    a.stream_dx ? RmsBackwardRows<Ops, In, true>(a) : RmsBackwardRows<Ops, In, false>(a);
  }
}

}  // namespace
