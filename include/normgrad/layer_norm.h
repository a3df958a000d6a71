// normgrad/layer_norm.h — the engine API for the layer-norm forward pass and
// its fused backward pass on host memory. Each row r of a `rows` × `cols`
// matrix (rows = B·S, cols = H) is normalized on its own:
//
//   forward   mean[r] = Σ_c x / H      variance[r] = Σ_c (x − mean[r])² / H
//             rstd[r] = 1 / √(variance[r] + eps)
//             x̂ = (x − mean[r]) · rstd[r]          y = x̂ · gamma + beta
//   backward  g = dy · gamma
//             dx = rstd[r] · (g − Σ_c g / H − x̂ · Σ_c (g · x̂) / H)
//             pd_gamma[c] = Σ_r dy · x̂              pd_beta[c] = Σ_r dy
//
// x, dy, gamma and beta are f32, f16 or bf16; everything is computed in float
// (16-bit inputs widened exactly); y, dx, pd_gamma and pd_beta are written in
// the input type (or f32 on request); the per-row statistics are always
// float. The backward pass reads x and dy once, recomputes x̂ from mean and
// rstd, and produces dx, pd_gamma and pd_beta together. The forward pass
// rounds every multiply and add; the backward's row sums and dx use fused
// multiply-adds (one rounding for a·b + c) at fixed places on every
// instruction set, while pd_gamma and pd_beta round dy·x̂ and each addition
// separately, as LayerNormGradBeta does. Every result is deterministic: the
// same bits for any thread count and instruction set. The order of
// operations and the error bounds are in docs/numerics.md ("Layer norm
// forward and fused backward").
//
// Example:
//   normgrad::LayerNormForwardProblem f;
//   f.dtype = normgrad::DType::kF16;
//   f.rows = 8192; f.cols = 1024;
//   f.x = x; f.gamma = gamma; f.beta = beta; f.eps = 1e-5f;
//   f.y = y; f.mean = mean.data(); f.rstd = rstd.data();   // float statistics
//   normgrad::Status s = normgrad::LayerNormForward(f);
//
//   normgrad::LayerNormBackwardProblem b;
//   b.dtype = normgrad::DType::kF16;
//   b.rows = 8192; b.cols = 1024;
//   b.x = x; b.dy = dy; b.gamma = gamma;
//   b.mean = mean.data(); b.rstd = rstd.data();
//   b.dx = dx; b.pd_gamma = pd_gamma; b.pd_beta = pd_beta;
//   if (normgrad::Status s = normgrad::LayerNormBackward(b); !s.ok())
//     std::fprintf(stderr, "%s\n", s.message().c_str());
#pragma once

#include <cstddef>

#include "normgrad/layer_norm_grad_beta.h"
#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad {

/// How the row outputs (y, dx) are stored.
enum class Stores : uint8_t {
  /// Streaming for outputs of 8 MiB and more with rows of at least 1 KiB
  /// (where streaming is faster), plain otherwise.
  kAuto,
  /// Ordinary stores: the output stays in the cache for whoever reads it next.
  kPlain,
  /// Non-temporal (streaming) stores: the output goes to memory without
  /// being read into the cache first. On CPUs without them: plain stores.
  kStreaming,
};

/// One layer-norm forward computation. Pointers are not owned.
struct LayerNormForwardProblem {
  DType dtype = DType::kF32;  ///< type of x, gamma and beta
  /// false: y is in `dtype`; true: y is f32 (never narrowed).
  bool f32_outputs = false;
  size_t rows = 0;        ///< B·S
  size_t cols = 0;        ///< H
  size_t row_stride = 0;  ///< elements between rows of x and y; 0 means `cols`
  const void* x = nullptr;      ///< rows × row_stride elements
  const void* gamma = nullptr;  ///< cols elements
  const void* beta = nullptr;   ///< cols elements
  float eps = 1e-5f;            ///< added to the variance: finite, ≥ 0
  /// rows × row_stride elements (columns ≥ cols are not written); null:
  /// compute the statistics only. May be the same buffer as x (in place)
  /// when it has x's type.
  void* y = nullptr;
  float* mean = nullptr;  ///< rows floats, or null
  float* variance =
      nullptr;            ///< rows floats (population variance, ÷ H), or null
  float* rstd = nullptr;  ///< rows floats, 1 / √(variance + eps), or null
  Stores stores = Stores::kAuto;  ///< how y is stored
  /// Worker threads (0: OpenMP's default); small problems run on one
  /// thread whatever is asked (see ThreadsFor). Results never depend on it.
  int threads = 0;
  /// The instruction set by name, as GradBetaProblem::isa; null: the
  /// dispatched one.
  const char* isa = nullptr;
};

/// Computes y and the requested statistics (at least one output must be
/// non-null). Outputs are written only on success. Never throws: argument
/// errors return StatusCode::kInvalidArgument, scratch that cannot be
/// allocated StatusCode::kOutOfMemory (naming the buffer and its size).
/// Scratch (kept per thread, only grows): for 16-bit types, gamma and beta in
/// float, 2·cols floats; none for float.
Status LayerNormForward(const LayerNormForwardProblem& problem);

/// One fused layer-norm backward computation. Pointers are not owned.
struct LayerNormBackwardProblem {
  DType dtype = DType::kF32;  ///< type of x, dy and gamma
  /// false: dx, pd_gamma and pd_beta are in `dtype`; true: they are f32.
  bool f32_outputs = false;
  size_t rows = 0;  ///< B·S
  size_t cols = 0;  ///< H
  size_t row_stride =
      0;  ///< elements between rows of x, dy and dx; 0 means `cols`
  const void* x = nullptr;      ///< rows × row_stride elements
  const void* dy = nullptr;     ///< rows × row_stride elements
  const void* gamma = nullptr;  ///< cols elements
  const float* mean =
      nullptr;  ///< rows floats, as LayerNormForward writes them
  /// rows floats, 1 / √(variance + eps); or null, and then `variance`:
  const float* rstd = nullptr;
  /// rows floats, used (with eps) when rstd is null: rstd is computed as
  /// LayerNormForward does, so both give the same bits.
  const float* variance = nullptr;
  float eps = 1e-5f;  ///< only with `variance`: finite, ≥ 0
  /// rows × row_stride elements (columns ≥ cols are not written). May be the
  /// same buffer as x or dy (in place) when it has their type.
  void* dx = nullptr;
  void* pd_gamma = nullptr;  ///< cols elements
  void* pd_beta = nullptr;   ///< cols elements
  /// The order in which pd_gamma and pd_beta sum the rows. kBlocked: fixed
  /// 256-row blocks, partials combined by a fixed pairwise tree, parallel
  /// over blocks. kSequential: one accumulator per column, rows added one
  /// after another (as LayerNormGradBeta's sequential order does with
  /// res = x̂), on one thread. dx is the same in both.
  Order order = Order::kBlocked;
  Stores stores = Stores::kAuto;  ///< how dx is stored
  /// Worker threads (0: OpenMP's default); see LayerNormForwardProblem.
  int threads = 0;
  /// The instruction set by name, as GradBetaProblem::isa; null: the
  /// dispatched one.
  const char* isa = nullptr;
};

/// Computes dx, pd_gamma and pd_beta in one pass over x and dy. Outputs are
/// written only on success. Never throws: argument errors return
/// StatusCode::kInvalidArgument, scratch that cannot be allocated
/// StatusCode::kOutOfMemory (naming the buffer and its size).
///
/// Scratch (kept per thread, only grows), in floats: cols for 16-bit gamma in
/// float; rows when rstd is computed from variance; and the partial sums of
/// pd_gamma and pd_beta, 2·cols (sequential) or (P + T·L) · 2·cols (blocked,
/// with T threads, P ≤ 8·T and L as in LayerNormGradBeta). Unlike
/// LayerNormGradBeta's, the partial sums span whole rows: dx needs each row's
/// sums over all columns first.
Status LayerNormBackward(const LayerNormBackwardProblem& problem);

/// What the last successful LayerNormForward or LayerNormBackward call on
/// this thread ran: impl is "forward:<isa>" or "<order>:<isa>" (backward).
RunInfo LastLayerNormRunInfo();

}  // namespace normgrad
