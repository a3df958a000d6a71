// kernels/layer_norm/layer_norm_inl.h — the layer-norm forward and fused backward row
// kernels shared by every instruction set, written once over an "Ops" policy
// with the row machinery of row_norms_inl.h. Included only by
// layer_norm_<isa>.cc, each compiled for its own instruction set; everything
// here has internal linkage.
//
// The order of every float operation is fixed here, independent of the
// vector width, so every instruction set gives the same bits
// (docs/numerics.md, "Layer norm forward and fused backward"): row sums are
// row_norms_inl.h's RowSums (element c into lane c mod 16, lanes folded by a
// fixed tree) and every other operation is per element; the forward pass
// rounds every multiply and add separately; the fused backward's row sums
// and dx use fused multiply-adds (one rounding) at fixed places; its column
// sums (pd_gamma, pd_beta) round dy·x̂ and the addition separately, as
// LayerNormGradBeta does.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels/isa/prefetch_inl.h"
#include "kernels/isa/row_norms_inl.h"
#include "kernels/kernels.h"

namespace {

// Forward, one row: mean, variance (two passes, 16-lane sums), rstd, and y.
// x_ahead: a later row, prefetched.
template <typename Ops, typename Out, bool kStream>
void ForwardRow(const typename Ops::In* x, const typename Ops::In* x_ahead, const float* gamma,
                const float* beta, float eps, size_t cols, Out* y, float* mean_out,
                float* variance_out, float* rstd_out) {
  using Vec = typename Ops::Vec;
  using O = Output<Ops, Out>;
  const float h = static_cast<float>(cols);
  float lanes[1][kSumLanes];

  // Pass 1: Σ x.
  RowSums<Ops, 1>(
      cols, [&](size_t i, Vec* acc) { acc[0] = Ops::Add(acc[0], Ops::Load(x + i)); },
      [&](size_t c, float* acc) { acc[0] = acc[0] + Ops::ToFloat(x[c]); }, lanes);
  const float mean = Ops::Sum16(lanes[0]) / h;

  // Pass 2: Σ (x − mean)².
  const Vec m = Ops::Set1(mean);
  RowSums<Ops, 1>(
      cols,
      [&](size_t i, Vec* acc) {
        if (StartsLine<Ops>(i)) PrefetchL2(x_ahead + i);
        const Vec d = Ops::Sub(Ops::Load(x + i), m);
        acc[0] = Ops::Add(acc[0], Ops::Mul(d, d));
      },
      [&](size_t c, float* acc) {
        const float d = Ops::ToFloat(x[c]) - mean;
        acc[0] = acc[0] + d * d;
      },
      lanes);
  const float variance = Ops::Sum16(lanes[0]) / h;
  const float rstd = 1.0f / std::sqrt(variance + eps);
  if (mean_out) *mean_out = mean;
  if (variance_out) *variance_out = variance;
  if (rstd_out) *rstd_out = rstd;
  if (y == nullptr) return;

  // Pass 3: y = ((x − mean) · rstd) · gamma + beta.
  const Vec r = Ops::Set1(rstd);
  ElementPass<Ops, Out, kStream>(
      y, cols,
      [&](size_t c, auto streaming, auto vecs) {
        constexpr size_t kN = decltype(vecs)::value;
        Vec v[kN];
        for (size_t j = 0; j < kN; ++j) {
          const size_t e = c + j * Ops::kLanes;
          const Vec xh = Ops::Mul(Ops::Sub(Ops::Load(x + e), m), r);
          v[j] = Ops::Add(Ops::Mul(xh, Ops::LoadF32(gamma + e)), Ops::LoadF32(beta + e));
        }
        O::template Store<decltype(streaming)::value>(y + c, v);
      },
      [&](size_t c) {
        const float xh = (Ops::ToFloat(x[c]) - mean) * rstd;
        y[c] = O::FromFloat(xh * gamma[c] + beta[c]);
      });
}

// Backward pass 1 for kRows rows at once (row k at x + k·stride, …): each
// row's means of g = dy·gamma (g rounded, then added) and of g·x̂ (each term
// added by a fused multiply-add). Σ g keeps a plain addition: its lanes are
// a chain of dependent additions, and a fused multiply-add takes longer than
// an addition on common processors (4 cycles against 3 on AMD Zen 4), which
// slows the float kernels. Every row keeps its own lanes and order; summing
// rows side by side only gives the processor independent additions to
// overlap (one row's 16-lane sums are a chain of H/16 dependent vector
// additions).
struct RowMeans {
  float g, gx;
};
template <typename Ops, size_t kRows>
void BackwardRowMeans(const typename Ops::In* x, const typename Ops::In* dy, size_t stride,
                      const float* gamma, const float* mean, const float* rstd, size_t cols,
                      RowMeans* out) {
  using Vec = typename Ops::Vec;
  float lanes[2 * kRows][kSumLanes];  // per row: Σ g, Σ g·x̂
  RowSums<Ops, 2 * kRows>(
      cols,
      [&](size_t i, Vec* acc) {
        const Vec gm = Ops::LoadF32(gamma + i);
        for (size_t k = 0; k < kRows; ++k) {
          const Vec xh = Ops::Mul(Ops::Sub(Ops::Load(x + k * stride + i), Ops::Set1(mean[k])),
                                  Ops::Set1(rstd[k]));
          const Vec g = Ops::Mul(Ops::Load(dy + k * stride + i), gm);
          acc[2 * k] = Ops::Add(acc[2 * k], g);
          acc[2 * k + 1] = Ops::MulAdd(g, xh, acc[2 * k + 1]);
        }
      },
      [&](size_t c, float* acc) {
        for (size_t k = 0; k < kRows; ++k) {
          const float xh = (Ops::ToFloat(x[k * stride + c]) - mean[k]) * rstd[k];
          const float g = Ops::ToFloat(dy[k * stride + c]) * gamma[c];
          acc[2 * k] = acc[2 * k] + g;
          acc[2 * k + 1] = FusedMulAdd(g, xh, acc[2 * k + 1]);
        }
      },
      lanes);
  const float h = static_cast<float>(cols);
  for (size_t k = 0; k < kRows; ++k) {
    out[k] = {Ops::Sum16(lanes[2 * k]) / h, Ops::Sum16(lanes[2 * k + 1]) / h};
  }
}

// Backward pass 2 for kRows rows at once (row k at x + k·stride, …):
// dx = rstd·fl(fl(dy·gamma − ḡ) − x̂·c), each inner step one fused
// multiply-add, and each row's dy·x̂ (rounded, then added) and dy added into
// the accumulators, row after row, the accumulators loaded and stored once
// for all kRows; the rows after them (x + kRows·stride + ahead, …) are
// prefetched. x̂ is recomputed rather than kept from pass 1: a row buffer for
// it costs more L1/L2 traffic than the arithmetic it saves. The rows' dx
// must start at the same offset in a 64-byte line (the streaming stores).
template <typename Ops, typename Out, bool kStream, size_t kRows>
void BackwardRowsUpdate(const typename Ops::In* x, const typename Ops::In* dy, size_t stride,
                        size_t ahead, const float* gamma, const float* mean, const float* rstd,
                        const RowMeans* means, size_t cols, Out* dx, float* acc_gamma,
                        float* acc_beta) {
  using Vec = typename Ops::Vec;
  using O = Output<Ops, Out>;
  ElementPass<Ops, Out, kStream>(
      dx, cols,
      [&](size_t c, auto streaming, auto vecs) {
        constexpr size_t kN = decltype(vecs)::value;
        Vec ag[kN], ab[kN], gm[kN];
        for (size_t j = 0; j < kN; ++j) {
          ag[j] = Ops::LoadF32(acc_gamma + c + j * Ops::kLanes);
          ab[j] = Ops::LoadF32(acc_beta + c + j * Ops::kLanes);
          gm[j] = Ops::LoadF32(gamma + c + j * Ops::kLanes);
        }
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          if (StartsLine<Ops>(c)) {
            PrefetchL2(x + row + ahead + c);
            PrefetchL2(dy + row + ahead + c);
          }
          const Vec r = Ops::Set1(rstd[k]);
          Vec v[kN];
          for (size_t j = 0; j < kN; ++j) {
            const size_t e = row + c + j * Ops::kLanes;
            const Vec d = Ops::Load(dy + e);
            const Vec xh = Ops::Mul(Ops::Sub(Ops::Load(x + e), Ops::Set1(mean[k])), r);
            const Vec centered = Ops::MulSub(d, gm[j], Ops::Set1(means[k].g));
            v[j] = Ops::Mul(r, Ops::NegMulAdd(xh, Ops::Set1(means[k].gx), centered));
            ag[j] = Ops::Add(ag[j], Ops::Mul(d, xh));
            ab[j] = Ops::Add(ab[j], d);
          }
          O::template Store<decltype(streaming)::value>(dx + row + c, v);
        }
        for (size_t j = 0; j < kN; ++j) {
          Ops::StoreF32(acc_gamma + c + j * Ops::kLanes, ag[j]);
          Ops::StoreF32(acc_beta + c + j * Ops::kLanes, ab[j]);
        }
      },
      [&](size_t c) {
        for (size_t k = 0; k < kRows; ++k) {
          const size_t row = k * stride;
          const float d = Ops::ToFloat(dy[row + c]);
          const float xh = (Ops::ToFloat(x[row + c]) - mean[k]) * rstd[k];
          const float centered = FusedMulSub(d, gamma[c], means[k].g);
          acc_gamma[c] = acc_gamma[c] + d * xh;
          acc_beta[c] = acc_beta[c] + d;
          dx[row + c] = O::FromFloat(rstd[k] * FusedNegMulAdd(xh, means[k].gx, centered));
        }
      });
}

template <typename Ops, typename Out, bool kStream>
void ForwardRows(const normgrad::kernels::LayerNormForwardArgs& a) {
  const auto* x = static_cast<const typename Ops::In*>(a.x);
  auto* y = static_cast<Out*>(a.y);
  // A prefetch never faults: reaching past the last row is harmless.
  const size_t ahead = PrefetchRows(a.stride * sizeof(typename Ops::In)) * a.stride;
  for (size_t r = 0; r < a.rows; ++r) {
    const size_t offset = r * a.stride;
    ForwardRow<Ops, Out, kStream>(x + offset, x + offset + ahead, a.gamma, a.beta, a.eps, a.cols,
                                  y ? y + offset : nullptr, a.mean ? a.mean + r : nullptr,
                                  a.variance ? a.variance + r : nullptr,
                                  a.rstd ? a.rstd + r : nullptr);
  }
  if constexpr (kStream) Ops::Fence();
}

template <typename Ops, typename Out, bool kStream>
void BackwardRows(const normgrad::kernels::LayerNormBackwardArgs& a) {
  const auto* x = static_cast<const typename Ops::In*>(a.x);
  const auto* dy = static_cast<const typename Ops::In*>(a.dy);
  auto* dx = static_cast<Out*>(a.dx);
  // Two rows side by side in both passes when their dx lines up alike; each
  // row prefetches its counterpart in a later pair. A prefetch never faults:
  // reaching past the last row is harmless.
  const bool pairs = ElementsBeforeLine(dx, a.cols) == ElementsBeforeLine(dx + a.stride, a.cols);
  const size_t ahead =
      (pairs ? 2 : 1) * PrefetchRows(a.stride * sizeof(typename Ops::In)) * a.stride;
  // Both passes over the rows r, r + 1, …, r + kRows − 1.
  const auto rows_from = [&](size_t r, auto rows) {
    constexpr size_t kRows = decltype(rows)::value;
    const size_t offset = r * a.stride;
    RowMeans means[kRows];
    BackwardRowMeans<Ops, kRows>(x + offset, dy + offset, a.stride, a.gamma, a.mean + r, a.rstd + r,
                                 a.cols, means);
    BackwardRowsUpdate<Ops, Out, kStream, kRows>(x + offset, dy + offset, a.stride, ahead, a.gamma,
                                                 a.mean + r, a.rstd + r, means, a.cols, dx + offset,
                                                 a.acc_gamma, a.acc_beta);
  };
  size_t r = 0;
  for (; pairs && r + 2 <= a.rows; r += 2) rows_from(r, std::integral_constant<size_t, 2>());
  for (; r < a.rows; ++r) rows_from(r, std::integral_constant<size_t, 1>());
  if constexpr (kStream) Ops::Fence();
}

// The kernel entry points: the output type and store kind chosen per call.
template <typename Ops>
void ForwardKernel(const normgrad::kernels::LayerNormForwardArgs& a) {
  ForOutput<Ops>(a.f32_y, a.stream_y, [&](auto out, auto streaming) {
    ForwardRows<Ops, typename decltype(out)::type, decltype(streaming)::value>(a);
  });
}

template <typename Ops>
void BackwardKernel(const normgrad::kernels::LayerNormBackwardArgs& a) {
  ForOutput<Ops>(a.f32_dx, a.stream_dx, [&](auto out, auto streaming) {
    BackwardRows<Ops, typename decltype(out)::type, decltype(streaming)::value>(a);
  });
}

// The entry points of an instruction set's table (row_norms_entry_inl.h).
struct LayerNormEntries {
  using Kernels = normgrad::kernels::LayerNormKernels;
  template <typename Ops>
  static constexpr auto kForward = ForwardKernel<Ops>;
  template <typename Ops>
  static constexpr auto kBackward = BackwardKernel<Ops>;
};

}  // namespace
