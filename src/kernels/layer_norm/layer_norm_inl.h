// kernels/layer_norm/layer_norm_inl.h — the layer-norm forward and fused backward row
// kernels shared by every instruction set, written once over an "Ops" policy
// (as accumulate_inl.h). Included only by src/kernels/layer_norm_<isa>.cc,
// each compiled for its own instruction set (and, for TreeSum16, by
// scalar_ops_inl.h); everything here has internal linkage.
//
// The order of every float operation is fixed here, independent of the
// vector width, so every instruction set gives the same bits
// (docs/numerics.md, "Layer norm forward and fused backward"):
//  - a row sum keeps kSumLanes = 16 partial sums, element c going to lane
//    c mod 16 in increasing c, and folds them by a fixed pairwise tree;
//  - every other operation is per element, so how elements are grouped into
//    vectors (or a scalar head before an aligned streaming store) does not
//    change a bit;
//  - the forward pass rounds every multiply and add separately; the fused
//    backward's row sums and dx use fused multiply-adds (one rounding) at
//    fixed places, written out as such on every instruction set (hardware
//    FMA in vectors and tails, std::fma in the scalar kernels), never left
//    to the compiler (the build compiles with -ffp-contract=off); its column
//    sums (pd_gamma, pd_beta) round dy·x̂ and the addition separately, as
//    LayerNormGradBeta does.
//
// The Ops policy provides: In (the stored element type), Vec, kLanes (a
// divisor of 16), Zero, Set1, Load (In → floats), LoadF32, StoreF32, Add,
// Sub, Mul, MulAdd/MulSub/NegMulAdd (fused, as FusedMulAdd below), Sum16
// (TreeSum16's result for 16 lanes), ToFloat/FromFloat (one element, exact /
// round half to even), Store/Stream (floats → In; Stream is a non-temporal
// store needing kLanes·sizeof(In)-byte alignment), StreamF32, and Fence
// (orders streaming stores before the call returns). A policy whose
// narrowing takes two vectors in one instruction also has kStoreVecs = 2
// and Store2/Stream2 (two vectors → 2·kLanes elements of In at p).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/isa/prefetch_inl.h"

namespace {

constexpr size_t kSumLanes = 16;

// Bytes of each input read ahead in software while a row's last pass runs:
// at least the next row, so its first pass finds it in the cache instead of
// waiting for memory (worth 10–30% on shapes larger than the caches). Into
// L2, not L1, which the row being finished needs.
constexpr size_t kPrefetchBytes = 2048;

// lanes[0] + … + lanes[15] as ((l0 + l1) + (l2 + l3)) + …: a fixed tree.
// (Ops::Sum16 computes the same sums, in vectors where it can.)
inline float TreeSum16(float* lanes) {
  for (size_t s = 1; s < kSumLanes; s *= 2) {
    for (size_t i = 0; i < kSumLanes; i += 2 * s) lanes[i] = lanes[i] + lanes[i + s];
  }
  return lanes[0];
}

// Fused multiply-adds of single floats, one rounding each: fl(a·b + c),
// fl(a·b − c) and fl(c − a·b) (negating an operand is exact). The vector
// forms are Ops::MulAdd, MulSub and NegMulAdd.
inline float FusedMulAdd(float a, float b, float c) { return std::fma(a, b, c); }
inline float FusedMulSub(float a, float b, float c) { return std::fma(a, b, -c); }
inline float FusedNegMulAdd(float a, float b, float c) { return std::fma(-a, b, c); }

// Rows between a row and the one prefetched while it is finished.
inline size_t PrefetchRows(size_t row_bytes) {
  return row_bytes >= kPrefetchBytes ? 1 : (kPrefetchBytes + row_bytes - 1) / row_bytes;
}

// Vectors an Ops policy narrows into In at once (Ops::kStoreVecs, else 1).
template <typename Ops, typename = void>
struct StoreVecs : std::integral_constant<size_t, 1> {};
template <typename Ops>
struct StoreVecs<Ops, std::void_t<decltype(Ops::kStoreVecs)>>
    : std::integral_constant<size_t, Ops::kStoreVecs> {};

// Stores of one output type: the input type, or float. Store<true> is a
// streaming store (the address aligned to the vectors), Store<false> a plain
// one, of kN vectors in a row: kVecs, the vectors a store takes at once (the
// policy's StoreVecs narrowing into In, one vector into float), or one.
template <typename Ops, typename Out>
struct Output {
  using Vec = typename Ops::Vec;
  static constexpr bool kF32 = std::is_same_v<Out, float>;
  static constexpr size_t kVecs = kF32 ? 1 : StoreVecs<Ops>::value;
  template <bool kStreaming, size_t kN>
  static void Store(Out* p, const Vec (&v)[kN]) {
    static_assert(kN == 1 || kN == kVecs);
    if constexpr (kN == 2) {
      kStreaming ? Ops::Stream2(p, v[0], v[1]) : Ops::Store2(p, v[0], v[1]);
    } else if constexpr (kF32 && kStreaming) {
      Ops::StreamF32(p, v[0]);
    } else if constexpr (kF32) {
      Ops::StoreF32(p, v[0]);
    } else if constexpr (kStreaming) {
      Ops::Stream(p, v[0]);
    } else {
      Ops::Store(p, v[0]);
    }
  }
  static Out FromFloat(float f) {
    if constexpr (kF32) {
      return f;
    } else {
      return Ops::FromFloat(f);
    }
  }
};

// Elements before `p` reaches a 64-byte line boundary (all of `n` when it
// never does).
template <typename Out>
size_t ElementsBeforeLine(const Out* p, size_t n) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  if (address % sizeof(Out) != 0) return n;
  const size_t head = (64 - address % 64) % 64 / sizeof(Out);
  return head < n ? head : n;
}

// kSums row sums at once over c in [0, cols), each into 16 lanes:
// add(idx, acc) adds the k-th sum's terms for columns [idx, idx + kLanes)
// into acc[k] (the lanes of those columns), add_one(c, acc) adds the terms of
// one column (the tail) into acc[k].
template <typename Ops, size_t kSums, typename AddVec, typename AddOne>
void RowSums(size_t cols, AddVec add, AddOne add_one, float (&lanes)[kSums][kSumLanes]) {
  using Vec = typename Ops::Vec;
  constexpr size_t kVecs = kSumLanes / Ops::kLanes;
  Vec sums[kVecs][kSums];
  for (auto& sum : sums) {
    for (Vec& v : sum) v = Ops::Zero();
  }
  size_t c = 0;
  for (; c + kSumLanes <= cols; c += kSumLanes) {
    for (size_t v = 0; v < kVecs; ++v) add(c + v * Ops::kLanes, sums[v]);
  }
  for (size_t k = 0; k < kSums; ++k) {
    for (size_t v = 0; v < kVecs; ++v) Ops::StoreF32(lanes[k] + v * Ops::kLanes, sums[v][k]);
  }
  for (size_t lane = 0; c < cols; ++c, ++lane) {
    float acc[kSums];
    for (size_t k = 0; k < kSums; ++k) acc[k] = lanes[k][lane];
    add_one(c, acc);
    for (size_t k = 0; k < kSums; ++k) lanes[k][lane] = acc[k];
  }
}

// The per-element pass that stores a row, over [0, cols): vec_body(c, kind,
// vecs) on whole vectors and scalar_body(c) on single elements. vecs is
// std::integral_constant<size_t, N>: the body computes the N vectors from c
// on and stores them with one Output<Ops, Out>::Store — N is Output's kVecs
// where that many vectors remain, else 1. kind is std::true_type for the
// vectors to store with streaming stores: with kStream, those that fill
// whole 64-byte lines of `out` — a line written partly by streaming and
// partly by plain stores (a row's first and last lines, shared with the
// next row) is about 20 times slower; the rest get plain stores
// (std::false_type).
template <typename Ops, typename Out, bool kStream, typename VecBody,
          typename ScalarBody>
void ElementPass(const Out* out, size_t cols, VecBody vec_body,
                 ScalarBody scalar_body) {
  constexpr size_t kLine = 64 / sizeof(Out);
  constexpr size_t kVecs = Output<Ops, Out>::kVecs;
  constexpr size_t kStep = kVecs * Ops::kLanes;
  static_assert(kLine % kStep == 0);  // the streamed lines are whole steps
  const auto many = std::integral_constant<size_t, kVecs>();
  const auto one = std::integral_constant<size_t, 1>();
  size_t stream_begin = cols, stream_end = cols;
  if constexpr (kStream) {
    stream_begin = ElementsBeforeLine(out, cols);
    stream_end = stream_begin + (cols - stream_begin) / kLine * kLine;
  }
  size_t c = 0;
  for (; c + kStep <= stream_begin; c += kStep) vec_body(c, std::false_type(), many);
  for (; c + Ops::kLanes <= stream_begin; c += Ops::kLanes) vec_body(c, std::false_type(), one);
  for (; c < stream_begin; ++c) scalar_body(c);
  for (; c < stream_end; c += kStep) vec_body(c, std::true_type(), many);
  for (; c + kStep <= cols; c += kStep) vec_body(c, std::false_type(), many);
  for (; c + Ops::kLanes <= cols; c += Ops::kLanes) vec_body(c, std::false_type(), one);
  for (; c < cols; ++c) scalar_body(c);
}

// Forward, one row: mean, variance (two passes, 16-lane sums), rstd, and y.
// x_ahead: a later row, prefetched.
template <typename Ops, typename Out, bool kStream>
void ForwardRow(const typename Ops::In* x, const typename Ops::In* x_ahead,
                const float* gamma, const float* beta, float eps, size_t cols, Out* y,
                float* mean_out, float* variance_out, float* rstd_out) {
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
                        size_t ahead, const float* gamma, const float* mean,
                        const float* rstd, const RowMeans* means, size_t cols, Out* dx,
                        float* acc_gamma, float* acc_beta) {
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
                                  y ? y + offset : nullptr,
                                  a.mean ? a.mean + r : nullptr,
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
    BackwardRowMeans<Ops, kRows>(x + offset, dy + offset, a.stride, a.gamma, a.mean + r,
                                 a.rstd + r, a.cols, means);
    BackwardRowsUpdate<Ops, Out, kStream, kRows>(x + offset, dy + offset, a.stride, ahead,
                                                 a.gamma, a.mean + r, a.rstd + r, means, a.cols,
                                                 dx + offset, a.acc_gamma, a.acc_beta);
  };
  size_t r = 0;
  for (; pairs && r + 2 <= a.rows; r += 2) rows_from(r, std::integral_constant<size_t, 2>());
  for (; r < a.rows; ++r) rows_from(r, std::integral_constant<size_t, 1>());
  if constexpr (kStream) Ops::Fence();
}

// The kernel entry points: the output type and store kind chosen per call.
template <typename Ops>
void ForwardKernel(const normgrad::kernels::LayerNormForwardArgs& a) {
  using In = typename Ops::In;
  if (a.f32_y) {
    a.stream_y ? ForwardRows<Ops, float, true>(a) : ForwardRows<Ops, float, false>(a);
  } else {
    a.stream_y ? ForwardRows<Ops, In, true>(a) : ForwardRows<Ops, In, false>(a);
  }
}

template <typename Ops>
void BackwardKernel(const normgrad::kernels::LayerNormBackwardArgs& a) {
  using In = typename Ops::In;
  if (a.f32_dx) {
    a.stream_dx ? BackwardRows<Ops, float, true>(a) : BackwardRows<Ops, float, false>(a);
  } else {
    a.stream_dx ? BackwardRows<Ops, In, true>(a) : BackwardRows<Ops, In, false>(a);
  }
}

}  // namespace
