// engine/row_norms.h — what the row normalizations (layer norm and RMS norm,
// forward and fused backward) share around their row kernels: the shape
// checks, the choice of streaming stores for the row outputs, 16-bit
// parameters widened to float, element addressing in arrays of a run-time
// type, and the drivers that split the rows over threads, call the family's
// kernels and sum the backward's columns. Each API keeps its own checks,
// scratch and run record.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/blocked_order.h"
#include "engine/checks.h"
#include "engine/parallel.h"
#include "engine/run_record.h"
#include "kernels/kernels.h"
#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// The shape checks of a row-norm call: CheckShape with outputs of 4 bytes
/// at most (they may be f32 whatever the input type), then CheckThreads.
inline Status CheckRowNormShape(const char* api, DType dtype, size_t rows, size_t cols,
                                size_t row_stride, int threads) {
  if (Status s = CheckShape(api, dtype, rows, cols, row_stride, sizeof(float)); !s.ok()) {
    return s;
  }
  return CheckThreads(api, threads);
}

/// The type of a row-norm call's outputs: f32 where the problem asks for
/// f32_outputs, else its input type.
template <typename Problem>
DType OutputType(const Problem& p) {
  return p.f32_outputs ? DType::kF32 : p.dtype;
}

/// Whether `rows` rows of `cols` elements of `out` are written with
/// streaming stores under `stores`.
bool Streaming(Stores stores, size_t rows, size_t cols, DType out);

/// "streaming" or "plain", as the run record names the stores.
const char* StoresName(bool streaming);

/// `src` (n elements of `dtype`) as floats in *out: the input itself for
/// f32, else widened into `buffer` (grown as needed; `api` and `what` name
/// it in the out-of-memory Status).
Status Widened(const kernels::Isa& isa, const char* api, const char* what, DType dtype,
               const void* src, size_t n, std::vector<float>& buffer, const float** out);

/// Element `i` of an array of `dtype`.
inline const void* ElementAt(const void* base, DType dtype, size_t i) {
  return static_cast<const unsigned char*>(base) + i * SizeOf(dtype);
}
inline void* ElementAt(void* base, DType dtype, size_t i) {
  return static_cast<unsigned char*>(base) + i * SizeOf(dtype);
}

/// The kernel of a family's table for inputs of `dtype`: f32, f16 or bf16.
template <typename Kernel>
Kernel ForInput(DType dtype, Kernel f32, Kernel f16, Kernel bf16) {
  return dtype == DType::kF32 ? f32 : dtype == DType::kF16 ? f16 : bf16;
}

/// A row-norm forward (LayerNormForward, RmsNormForward) after its checks,
/// on `isa` with the family's `kernels` and gamma widened to float. Rows are
/// independent: each thread takes an equal run of them, one kernel call per
/// run. The template sets the arguments every family's forward takes (x,
/// gamma, eps, the rows' layout, y, rstd); set_args(args, begin) sets the
/// family's own, for the run of rows from `begin`. Returns what ran, for the
/// API's run record.
template <typename ForwardArgs, typename BackwardArgs, typename Problem, typename SetArgs>
Run RunForwardRows(const kernels::Isa& isa,
                   const kernels::RowNormKernels<ForwardArgs, BackwardArgs>& kernels,
                   const Problem& p, const float* gamma, const SetArgs& set_args) {
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const DType out = OutputType(p);
  const bool streaming = p.y != nullptr && Streaming(p.stores, p.rows, p.cols, out);
  const auto kernel =
      ForInput(p.dtype, kernels.forward_f32, kernels.forward_f16, kernels.forward_bf16);

  const int threads = static_cast<int>(std::min<size_t>(
      ThreadsFor(p.rows * p.cols * SizeOf(p.dtype), p.threads), std::max<size_t>(p.rows, 1)));
  ParallelFor(threads, static_cast<size_t>(threads), [&](size_t t) {
    const size_t begin = p.rows * t / threads, end = p.rows * (t + 1) / threads;
    ForwardArgs a{};
    a.x = p.rows > 0 ? ElementAt(p.x, p.dtype, begin * stride) : nullptr;
    a.gamma = gamma;
    a.eps = p.eps;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.y = p.y != nullptr ? ElementAt(p.y, out, begin * stride) : nullptr;
    a.f32_y = out == DType::kF32;
    a.stream_y = streaming;
    a.rstd = p.rstd != nullptr ? p.rstd + begin : nullptr;
    set_args(a, begin);
    kernel(a);
  });
  return {"forward", isa.name, threads, p.dtype, StoresName(streaming)};
}

/// How a fused backward sums its column outputs (pd_gamma and pd_beta, or
/// dgamma) over the rows. The blocked order's partials always have two
/// halves of cols floats (layer norm's pd_gamma and pd_beta; RMS norm's
/// dgamma is the first half, the second stays zero): one implementation of
/// the order, for one more addition of cols floats per block.
struct ColumnSums {
  bool blocked;           ///< the blocked order (and rows > 0), else the sequential
  BlockedPlan plan;       ///< the blocked order's blocks and subtrees
  int threads;            ///< threads that work: whole subtrees of blocks each
  size_t width;           ///< floats of one blocked partial: 2 · cols
  size_t scratch_floats;  ///< floats of the partial sums; sequential: the one accumulator
};

/// The column sums of a backward call of `order` over rows × cols of
/// `dtype`, `threads` asked for, with `outputs` column outputs (2 or 1).
/// Threads take whole subtrees of blocks (a block's rows stay in order); the
/// sequential order is one accumulator, so one thread. Inline: the driver's
/// per-call cost is what small problems pay.
inline ColumnSums PlanColumnSums(Order order, DType dtype, size_t rows, size_t cols, int threads,
                                 size_t outputs) {
  ColumnSums sums;
  sums.blocked = order == Order::kBlocked && rows > 0;
  const int wanted = ThreadsFor(2 * rows * cols * SizeOf(dtype), threads);
  sums.plan = PlanBlocked(rows, wanted);
  sums.threads =
      sums.blocked
          ? static_cast<int>(std::min<size_t>(static_cast<size_t>(wanted), sums.plan.subtrees))
          : 1;
  sums.width = 2 * cols;
  sums.scratch_floats =
      sums.blocked ? BlockedScratchFloats(sums.plan, sums.threads, sums.width) : outputs * cols;
  return sums;
}

/// A fused row-norm backward (LayerNormBackward, RmsNormBackward) after its
/// checks and scratch, on `isa` with the family's `kernels`, gamma widened
/// to float and rows' rstd: dx of every row, and the column sums added in
/// the order of `sums` into `partials` (sums.scratch_floats floats), which
/// then start with the sums of the outputs, cols floats each. The template
/// sets the arguments every family's backward takes (x, dy, gamma, rstd,
/// the rows' layout, dx, acc_gamma); set_args(args, begin, acc) sets the
/// family's own, for the rows from `begin` into the accumulator `acc`.
/// Returns what ran, for the API's run record.
template <typename ForwardArgs, typename BackwardArgs, typename Problem, typename SetArgs>
Run RunBackwardRows(const kernels::Isa& isa,
                    const kernels::RowNormKernels<ForwardArgs, BackwardArgs>& kernels,
                    const Problem& p, const ColumnSums& sums, const float* gamma, const float* rstd,
                    float* partials, const SetArgs& set_args) {
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const DType out = OutputType(p);
  const bool streaming = Streaming(p.stores, p.rows, p.cols, out);
  const auto kernel =
      ForInput(p.dtype, kernels.backward_f32, kernels.backward_f16, kernels.backward_bf16);

  // Rows [begin, end) into the accumulator acc.
  auto run_rows = [&](size_t begin, size_t end, float* acc) {
    BackwardArgs a{};
    a.x = ElementAt(p.x, p.dtype, begin * stride);
    a.dy = ElementAt(p.dy, p.dtype, begin * stride);
    a.gamma = gamma;
    a.rstd = rstd + begin;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.dx = ElementAt(p.dx, out, begin * stride);
    a.f32_dx = out == DType::kF32;
    a.stream_dx = streaming;
    a.acc_gamma = acc;
    set_args(a, begin, acc);
    kernel(a);
  };

  if (!sums.blocked) {
    // One accumulator, every row in order.
    std::fill(partials, partials + sums.scratch_floats, 0.0f);
    if (p.rows > 0) run_rows(0, p.rows, partials);
  } else {
    const PartialColumns all{p.cols, 0, p.cols};
    const size_t width = sums.width;
    float* const stacks = partials + sums.plan.subtrees * width;
    ParallelForWorkers(sums.threads, sums.plan.subtrees, [&](size_t j, size_t worker) {
      SumSubtree(isa, sums.plan, j, all, partials + j * width,
                 stacks + worker * sums.plan.levels * width, [&](size_t b, float* partial) {
                   run_rows(b * kBlockRows, std::min(p.rows, (b + 1) * kBlockRows), partial);
                 });
    });
    CombineRoots(isa, sums.plan, partials, all);
  }
  return {OrderName(p.order), isa.name, sums.threads, p.dtype, StoresName(streaming)};
}

}  // namespace normgrad::engine
