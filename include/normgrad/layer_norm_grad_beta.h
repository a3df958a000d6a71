// normgrad/layer_norm_grad_beta.h — the engine API for the layer-norm
// parameter gradients on host memory:
//
//   pd_gamma[c] = Σ_r dy[r, c] · res[r, c]      pd_beta[c] = Σ_r dy[r, c]
//
// where res ("resForGamma") is the normalized input x̂. Inputs are `rows` ×
// `cols` matrices with a row stride, in f32, f16 or bf16; accumulation is in
// float; outputs are written in the input type (or f32 on request).
//
// Example:
//   normgrad::GradBetaProblem p;
//   p.dtype = normgrad::DType::kF32;
//   p.rows = 4096; p.cols = 1024;
//   p.dy = dy.data(); p.res = res.data();
//   p.pd_gamma = gamma.data(); p.pd_beta = beta.data();
//   normgrad::Status s = normgrad::LayerNormGradBeta(p);
//   if (!s.ok()) std::fprintf(stderr, "%s\n", s.message().c_str());
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad {

/// One pd_gamma/pd_beta computation. Pointers are not owned.
struct GradBetaProblem {
  DType dtype = DType::kF32;  ///< type of dy and res
  /// false: pd_gamma/pd_beta are in `dtype`; true: they are f32 (the float
  /// accumulators themselves, never narrowed).
  bool f32_outputs = false;
  size_t rows = 0;            ///< B·S
  size_t cols = 0;            ///< H
  size_t row_stride = 0;      ///< elements between rows; 0 means `cols`
  const void* dy = nullptr;   ///< rows × row_stride elements
  const void* res = nullptr;  ///< resForGamma, same layout as dy
  void* pd_gamma = nullptr;   ///< cols elements
  void* pd_beta = nullptr;    ///< cols elements
  Order order = Order::kBlocked;
  /// Rows per chunk for the sequential order (0: one chunk). The running sums
  /// carry across chunks, as in the tiling-driven device loop, so the result
  /// does not depend on it; it exists so that path is exercised at any size.
  /// The blocked order's blocks are fixed and ignore it.
  size_t chunk_rows = 0;
  /// Worker threads (0: OpenMP's default). Small problems run on one thread
  /// whatever is asked (see ThreadsFor). Results never depend on it.
  int threads = 0;
  /// The instruction set to run on, by its name in ListImplementations()
  /// ("avx512", "avx2", "scalar"); null: NORMGRAD_IMPL's, else the best this
  /// CPU has. Results never depend on it.
  const char* isa = nullptr;
};

/// Computes pd_gamma and pd_beta. Outputs are written only on success; they
/// are computed as if both inputs were read before any output is written, so
/// outputs may overlap the inputs. Never throws: an argument error returns
/// StatusCode::kInvalidArgument, scratch that cannot be allocated
/// StatusCode::kOutOfMemory (the message names the API, the buffer and its
/// size).
///
/// Scratch: float buffers kept per calling thread and per worker thread,
/// which only grow, so repeated calls of one shape allocate nothing. With T
/// the threads used, S = min(cols, 16384) (the column strip) and
/// B = ⌈rows / 256⌉ (the blocks), in floats:
///   - blocked: (P + T·L) · 2·S, where the blocks go out in P ≤ 8·T
///     subtrees of 2^L blocks, L = max(0, ⌈log2(B / (8·T))⌉) — at most
///     T · (8 + L) · 128 KiB: 4 MiB for T = 2 and rows = 2^20, 6.75 MiB for
///     rows = 2^31, 128 KiB for rows ≤ 256;
///   - sequential: none on one thread with float outputs that stand apart
///     from the inputs; otherwise 2·S on one thread, 2·S per thread when
///     threads split the columns, or 2·cols when cols < 64·T (the threads
///     then take turns over the rows);
///   - plus 2·cols when an output overlaps an input: all sums are finished
///     before the first output is written.
/// So the scratch does not grow with cols (but for overlapping outputs) and
/// grows with log2 of the rows only.
Status LayerNormGradBeta(const GradBetaProblem& problem);

/// What the last successful LayerNormGradBeta call on this thread ran.
/// (This and ListImplementations return strings: like any function that
/// returns a std::string, they throw std::bad_alloc if even those few bytes
/// cannot be allocated.)
struct RunInfo {
  std::string impl;  ///< e.g. "blocked:avx2", "sequential:scalar"
  int threads = 1;   ///< threads that actually worked
};
RunInfo LastRunInfo();

/// The implementation names the engine knows, fastest first, and whether
/// this CPU can run each.
struct ImplInfo {
  std::string name;  ///< "<order>:<isa>"
  Order order;
  std::string isa;  ///< "avx512", "avx2", "scalar"
  bool available;
};
std::vector<ImplInfo> ListImplementations();

/// Threads the engine uses for a problem of `bytes` input bytes when
/// `requested` are asked for (0: OpenMP's default): one more thread per MiB
/// of input, as waking a thread costs about as much as summing 1 MiB.
int ThreadsFor(size_t bytes, int requested);

}  // namespace normgrad
