// engine/layer_norm.cc — layer-norm forward and fused backward on host
// memory: argument checks, rows split over threads, the blocked and
// sequential sums of pd_gamma/pd_beta, and output narrowing. The row kernels
// are in src/kernels/layer_norm/layer_norm_inl.h; the blocked order is
// engine/blocked_order.h, shared with LayerNormGradBeta; the store choice
// and widening of gamma/beta are engine/row_norms.h, shared with RMS norm.
#include "normgrad/layer_norm.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "engine/blocked_order.h"
#include "engine/checks.h"
#include "engine/dispatch.h"
#include "engine/parallel.h"
#include "engine/row_norms.h"
#include "engine/run_record.h"
#include "engine/scratch.h"
#include "engine/write_output.h"
#include "kernels/kernels.h"

namespace normgrad {
namespace {

using engine::ElementAt;
using engine::ParallelFor;
using engine::ParallelForWorkers;
using engine::StoresName;
using engine::Streaming;
using engine::Widened;

constexpr const char* kForward = "LayerNormForward";
constexpr const char* kBackward = "LayerNormBackward";

thread_local engine::RunLog run_log("none");

// Shape checks of both calls; outputs may be f32 (4 bytes) whatever the
// input type.
Status CheckShape(const char* api, DType dtype, size_t rows, size_t cols, size_t row_stride,
                  int threads) {
  if (Status s = engine::CheckShape(api, dtype, rows, cols, row_stride, sizeof(float)); !s.ok()) {
    return s;
  }
  return engine::CheckThreads(api, threads);
}

Status Check(const LayerNormForwardProblem& p) {
  const char* const api = kForward;
  if (Status s = CheckShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads); !s.ok()) {
    return s;
  }
  if (Status s = engine::CheckRowsInput(api, "x", p.x, p.rows); !s.ok()) return s;
  if (p.gamma == nullptr || p.beta == nullptr) {
    return Status::Error(std::string(api) + ": " + (p.gamma == nullptr ? "gamma" : "beta") +
                         " is null");
  }
  if (p.y == nullptr && p.mean == nullptr && p.variance == nullptr && p.rstd == nullptr) {
    return Status::Error(std::string(api) +
                         ": y, mean, variance and rstd are all null: nothing to compute");
  }
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (Status s = engine::CheckInPlace(api, "y", p.y, out, "x", p.x, p.dtype); !s.ok()) return s;
  return engine::CheckEps(api, p.eps);
}

Status Check(const LayerNormBackwardProblem& p) {
  const char* const api = kBackward;
  if (Status s = CheckShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads); !s.ok()) {
    return s;
  }
  for (const auto& [name, pointer] : {std::pair<const char*, const void*>{"x", p.x},
                                      {"dy", p.dy},
                                      {"mean", p.mean},
                                      {"dx", p.dx}}) {
    if (Status s = engine::CheckRowsInput(api, name, pointer, p.rows); !s.ok()) return s;
  }
  if (p.rows > 0 && p.rstd == nullptr && p.variance == nullptr) {
    return Status::Error(std::string(api) + ": rstd and variance are both null with rows " +
                         std::to_string(p.rows) + "; pass rstd, or variance and eps");
  }
  if (p.rstd != nullptr && p.variance != nullptr) {
    return Status::Error(std::string(api) +
                         ": rstd and variance are both set; pass one of them (rstd, or "
                         "variance and eps)");
  }
  if (p.gamma == nullptr) return Status::Error(std::string(api) + ": gamma is null");
  if (Status s = engine::CheckSumOutputs(api, p.pd_gamma, p.pd_beta); !s.ok()) return s;
  if (Status s = engine::CheckOrder(api, p.order); !s.ok()) return s;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (Status s = engine::CheckInPlace(api, "dx", p.dx, out, "x", p.x, p.dtype); !s.ok()) {
    return s;
  }
  if (Status s = engine::CheckInPlace(api, "dx", p.dx, out, "dy", p.dy, p.dtype); !s.ok()) {
    return s;
  }
  return p.variance != nullptr ? engine::CheckEps(api, p.eps) : Status::Ok();
}

Status RunForward(const LayerNormForwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kForward, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;

  thread_local std::vector<float> gamma_buffer, beta_buffer;
  const float* gamma = nullptr;
  const float* beta = nullptr;
  if (Status s = Widened(isa, kForward, "gamma in float", p.dtype, p.gamma, p.cols,
                         gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  if (Status s = Widened(isa, kForward, "beta in float", p.dtype, p.beta, p.cols, beta_buffer,
                         &beta);
      !s.ok()) {
    return s;
  }
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  const bool streaming = p.y != nullptr && Streaming(p.stores, p.rows, p.cols, out);
  const auto kernel = p.dtype == DType::kF32   ? isa.layer_norm.forward_f32
                      : p.dtype == DType::kF16 ? isa.layer_norm.forward_f16
                                               : isa.layer_norm.forward_bf16;

  // Rows are independent: each thread takes an equal run of them.
  const int threads = static_cast<int>(std::min<size_t>(
      ThreadsFor(p.rows * p.cols * SizeOf(p.dtype), p.threads), std::max<size_t>(p.rows, 1)));
  ParallelFor(threads, static_cast<size_t>(threads), [&](size_t t) {
    const size_t begin = p.rows * t / threads, end = p.rows * (t + 1) / threads;
    kernels::LayerNormForwardArgs a{};
    a.x = p.rows > 0 ? ElementAt(p.x, p.dtype, begin * stride) : nullptr;
    a.gamma = gamma;
    a.beta = beta;
    a.eps = p.eps;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.y = p.y != nullptr ? ElementAt(p.y, out, begin * stride) : nullptr;
    a.f32_y = out == DType::kF32;
    a.stream_y = streaming;
    a.mean = p.mean != nullptr ? p.mean + begin : nullptr;
    a.variance = p.variance != nullptr ? p.variance + begin : nullptr;
    a.rstd = p.rstd != nullptr ? p.rstd + begin : nullptr;
    kernel(a);
  });

  run_log.Record(kForward, {"forward", isa.name, threads, p.dtype, StoresName(streaming)}, p.rows,
                 p.cols);
  return Status::Ok();
}

Status RunBackward(const LayerNormBackwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kBackward, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;

  const size_t width = 2 * p.cols;  // one partial: [gamma | beta]
  const bool blocked = p.order == Order::kBlocked && p.rows > 0;
  const int wanted = ThreadsFor(2 * p.rows * p.cols * SizeOf(p.dtype), p.threads);
  const engine::BlockedPlan plan = engine::PlanBlocked(p.rows, wanted);
  // Threads take whole subtrees of blocks (a block's rows stay in order);
  // the sequential order is one accumulator, so one thread.
  const int threads =
      blocked ? static_cast<int>(std::min<size_t>(static_cast<size_t>(wanted), plan.subtrees))
              : 1;

  // Scratch, all of it before any output is written.
  thread_local std::vector<float> gamma_buffer, rstd_buffer, partials;
  const float* gamma = nullptr;
  if (Status s = Widened(isa, kBackward, "gamma in float", p.dtype, p.gamma, p.cols,
                         gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  const size_t partial_floats =
      blocked ? engine::BlockedScratchFloats(plan, threads, width) : width;
  if (Status s = engine::GrowScratch(partials, partial_floats, kBackward,
                                     "the float partial sums of pd_gamma and pd_beta");
      !s.ok()) {
    return s;
  }
  const float* rstd = p.rstd;
  if (rstd == nullptr) {  // as LayerNormForward computes it
    if (Status s = engine::GrowScratch(rstd_buffer, p.rows, kBackward, "rstd from variance");
        !s.ok()) {
      return s;
    }
    for (size_t r = 0; r < p.rows; ++r) {
      rstd_buffer[r] = 1.0f / std::sqrt(p.variance[r] + p.eps);
    }
    rstd = rstd_buffer.data();
  }
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  const bool streaming = Streaming(p.stores, p.rows, p.cols, out);
  const auto kernel = p.dtype == DType::kF32   ? isa.layer_norm.backward_f32
                      : p.dtype == DType::kF16 ? isa.layer_norm.backward_f16
                                               : isa.layer_norm.backward_bf16;

  // Rows [begin, end) into the accumulator acc = [gamma | beta].
  auto run_rows = [&](size_t begin, size_t end, float* acc) {
    kernels::LayerNormBackwardArgs a{};
    a.x = ElementAt(p.x, p.dtype, begin * stride);
    a.dy = ElementAt(p.dy, p.dtype, begin * stride);
    a.gamma = gamma;
    a.mean = p.mean + begin;
    a.rstd = rstd + begin;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.dx = ElementAt(p.dx, out, begin * stride);
    a.f32_dx = out == DType::kF32;
    a.stream_dx = streaming;
    a.acc_gamma = acc;
    a.acc_beta = acc + p.cols;
    kernel(a);
  };

  float* const sums = partials.data();
  if (!blocked) {
    // One accumulator, every row in order.
    std::fill(sums, sums + width, 0.0f);
    if (p.rows > 0) run_rows(0, p.rows, sums);
  } else {
    const engine::PartialColumns all{p.cols, 0, p.cols};
    float* const stacks = sums + plan.subtrees * width;
    ParallelForWorkers(threads, plan.subtrees, [&](size_t j, size_t worker) {
      engine::SumSubtree(isa, plan, j, all, sums + j * width,
                         stacks + worker * plan.levels * width, [&](size_t b, float* partial) {
                           run_rows(b * engine::kBlockRows,
                                    std::min(p.rows, (b + 1) * engine::kBlockRows), partial);
                         });
    });
    engine::CombineRoots(isa, plan, sums, all);
  }
  engine::WriteOutput(isa, out, sums, p.cols, p.pd_gamma);
  engine::WriteOutput(isa, out, sums + p.cols, p.cols, p.pd_beta);

  run_log.Record(kBackward,
                 {OrderName(p.order), isa.name, threads, p.dtype, StoresName(streaming)}, p.rows,
                 p.cols);
  return Status::Ok();
}

}  // namespace

RunInfo LastLayerNormRunInfo() { return run_log.Last(); }

Status LayerNormForward(const LayerNormForwardProblem& p) {
  try {
    return RunForward(p);
  } catch (const std::bad_alloc&) {
    return engine::OutOfMemory(kForward);
  }
}

Status LayerNormBackward(const LayerNormBackwardProblem& p) {
  try {
    return RunBackward(p);
  } catch (const std::bad_alloc&) {
    return engine::OutOfMemory(kBackward);
  }
}

}  // namespace normgrad
