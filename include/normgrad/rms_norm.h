// normgrad/rms_norm.h — the engine API for the RMS-norm forward pass and its
// fused backward pass on host memory. Each row r of a `rows` × `cols` matrix
// (rows = B·S, cols = H) is scaled by its own root mean square:
//
//   forward   rstd[r] = 1 / √(Σ_c x² / H + eps)        y = x · rstd[r] · gamma
//   backward  g = dy · gamma
//             dx = rstd[r] · (g − x · rstd[r]² · Σ_c (g · x) / H)
//             dgamma[c] = Σ_r dy · x · rstd[r]
//
// x, dy and gamma are f32, f16 or bf16; everything is computed in float
// (16-bit inputs widened exactly); y, dx and dgamma are written in the input
// type (or f32 on request); rstd is always float. The backward pass reads x
// and dy once and produces dx and dgamma together; dgamma sums the rows in
// the same blocked order as LayerNormBackward's pd_gamma. As there, the
// forward pass rounds every multiply and add, the backward's row sum and dx
// use fused multiply-adds at fixed places on every instruction set, and
// dgamma rounds each product and addition. Every result is
// deterministic: the same bits for any thread count and instruction set. The
// order of operations and the error bounds are in docs/numerics.md ("RMS norm
// forward and fused backward").
//
// Example:
//   normgrad::RmsNormForwardProblem f;
//   f.dtype = normgrad::DType::kBF16;
//   f.rows = 8192; f.cols = 4096;
//   f.x = x; f.gamma = gamma; f.eps = 1e-6f;
//   f.y = y; f.rstd = rstd.data();   // float statistics
//   normgrad::Status s = normgrad::RmsNormForward(f);
//
//   normgrad::RmsNormBackwardProblem b;
//   b.dtype = normgrad::DType::kBF16;
//   b.rows = 8192; b.cols = 4096;
//   b.x = x; b.dy = dy; b.gamma = gamma; b.rstd = rstd.data();
//   b.dx = dx; b.dgamma = dgamma;
//   if (normgrad::Status s = normgrad::RmsNormBackward(b); !s.ok())
//     std::fprintf(stderr, "%s\n", s.message().c_str());
#pragma once

#include <cstddef>

#include "normgrad/layer_norm.h"
#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad {

/// One RMS-norm forward computation. Pointers are not owned.
struct RmsNormForwardProblem {
  DType dtype = DType::kF32;  ///< type of x and gamma
  /// false: y is in `dtype`; true: y is f32 (never narrowed).
  bool f32_outputs = false;
  size_t rows = 0;        ///< B·S
  size_t cols = 0;        ///< H
  size_t row_stride = 0;  ///< elements between rows of x and y; 0 means `cols`
  const void* x = nullptr;      ///< rows × row_stride elements
  const void* gamma = nullptr;  ///< cols elements
  float eps = 1e-6f;            ///< added to the mean square: finite, ≥ 0
  /// rows × row_stride elements (columns ≥ cols are not written); null:
  /// compute rstd only. May be the same buffer as x (in place) when it has
  /// x's type.
  void* y = nullptr;
  float* rstd = nullptr;  ///< rows floats, 1 / √(Σ x² / H + eps), or null
  Stores stores = Stores::kAuto;  ///< how y is stored
  /// Worker threads (0: OpenMP's default); small problems run on one
  /// thread whatever is asked (see ThreadsFor). Results never depend on it.
  int threads = 0;
  /// The instruction set by name, as GradBetaProblem::isa; null: the
  /// dispatched one.
  const char* isa = nullptr;
};

/// Computes y and/or rstd (at least one must be non-null). Outputs are
/// written only on success. Never throws: argument errors return
/// StatusCode::kInvalidArgument, scratch that cannot be allocated
/// StatusCode::kOutOfMemory (naming the buffer and its size).
/// Scratch (kept per thread, only grows): for 16-bit types, gamma in float,
/// cols floats; none for float.
Status RmsNormForward(const RmsNormForwardProblem& problem);

/// One fused RMS-norm backward computation. Pointers are not owned.
struct RmsNormBackwardProblem {
  DType dtype = DType::kF32;  ///< type of x, dy and gamma
  /// false: dx and dgamma are in `dtype`; true: they are f32.
  bool f32_outputs = false;
  size_t rows = 0;  ///< B·S
  size_t cols = 0;  ///< H
  size_t row_stride =
      0;  ///< elements between rows of x, dy and dx; 0 means `cols`
  const void* x = nullptr;      ///< rows × row_stride elements
  const void* dy = nullptr;     ///< rows × row_stride elements
  const void* gamma = nullptr;  ///< cols elements
  const float* rstd = nullptr;  ///< rows floats, as RmsNormForward writes them
  /// rows × row_stride elements (columns ≥ cols are not written). May be the
  /// same buffer as x or dy (in place) when it has their type.
  void* dx = nullptr;
  void* dgamma = nullptr;  ///< cols elements
  /// The order in which dgamma sums the rows, as LayerNormBackwardProblem's:
  /// kBlocked (fixed 256-row blocks, a fixed pairwise tree, parallel over
  /// blocks) or kSequential (rows one after another, one thread). dx is the
  /// same in both.
  Order order = Order::kBlocked;
  Stores stores = Stores::kAuto;  ///< how dx is stored
  /// Worker threads (0: OpenMP's default); see RmsNormForwardProblem.
  int threads = 0;
  /// The instruction set by name, as GradBetaProblem::isa; null: the
  /// dispatched one.
  const char* isa = nullptr;
};

/// Computes dx and dgamma in one pass over x and dy. Outputs are written
/// only on success. Never throws: argument errors return
/// StatusCode::kInvalidArgument, scratch that cannot be allocated
/// StatusCode::kOutOfMemory (naming the buffer and its size).
///
/// Scratch (kept per thread, only grows), in floats: cols for 16-bit gamma
/// in float, and the partial sums of dgamma: cols (sequential) or
/// (P + T·L) · 2·cols (blocked, as LayerNormBackward's: the blocked order's
/// partials have two halves, of which dgamma uses the first).
Status RmsNormBackward(const RmsNormBackwardProblem& problem);

/// What the last successful RmsNormForward or RmsNormBackward call on this
/// thread ran: impl is "forward:<isa>" or "<order>:<isa>" (backward).
RunInfo LastRmsNormRunInfo();

}  // namespace normgrad
