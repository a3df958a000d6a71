// engine/rms_norm.cc — RMS-norm forward and fused backward on host memory:
// argument checks, rows split over threads, the blocked and sequential sums
// of dgamma, and output narrowing. The row kernels are in
// src/kernels/rms_norm/rms_norm_inl.h; dgamma's blocked order is
// engine/blocked_order.h (shared with LayerNormGradBeta and
// LayerNormBackward); the store choice and widening of gamma are
// engine/row_norms.h, shared with layer norm.
#include "normgrad/rms_norm.h"

#include <algorithm>
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

constexpr const char* kForward = "RmsNormForward";
constexpr const char* kBackward = "RmsNormBackward";

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

// A per-column array (`name`, cols elements) is set.
Status CheckParameter(const char* api, const char* name, const void* pointer, size_t cols) {
  if (pointer != nullptr) return Status::Ok();
  return Status::Error(std::string(api) + ": " + name + " is null; it must hold cols (" +
                       std::to_string(cols) + ") elements");
}

Status Check(const RmsNormForwardProblem& p) {
  const char* const api = kForward;
  if (Status s = CheckShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads); !s.ok()) {
    return s;
  }
  if (Status s = engine::CheckRowsInput(api, "x", p.x, p.rows); !s.ok()) return s;
  if (Status s = CheckParameter(api, "gamma", p.gamma, p.cols); !s.ok()) return s;
  if (p.y == nullptr && p.rstd == nullptr) {
    return Status::Error(std::string(api) + ": y and rstd are both null: nothing to compute");
  }
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (Status s = engine::CheckInPlace(api, "y", p.y, out, "x", p.x, p.dtype); !s.ok()) return s;
  return engine::CheckEps(api, p.eps);
}

Status Check(const RmsNormBackwardProblem& p) {
  const char* const api = kBackward;
  if (Status s = CheckShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads); !s.ok()) {
    return s;
  }
  for (const auto& [name, pointer] : {std::pair<const char*, const void*>{"x", p.x},
                                      {"dy", p.dy},
                                      {"rstd", p.rstd},
                                      {"dx", p.dx}}) {
    if (Status s = engine::CheckRowsInput(api, name, pointer, p.rows); !s.ok()) return s;
  }
  if (Status s = CheckParameter(api, "gamma", p.gamma, p.cols); !s.ok()) return s;
  if (Status s = CheckParameter(api, "dgamma", p.dgamma, p.cols); !s.ok()) return s;
  if (Status s = engine::CheckOrder(api, p.order); !s.ok()) return s;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (Status s = engine::CheckInPlace(api, "dx", p.dx, out, "x", p.x, p.dtype); !s.ok()) {
    return s;
  }
  return engine::CheckInPlace(api, "dx", p.dx, out, "dy", p.dy, p.dtype);
}

Status RunForward(const RmsNormForwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kForward, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;

  thread_local std::vector<float> gamma_buffer;
  const float* gamma = nullptr;
  if (Status s =
          Widened(isa, kForward, "gamma in float", p.dtype, p.gamma, p.cols, gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  const bool streaming = p.y != nullptr && Streaming(p.stores, p.rows, p.cols, out);
  const auto kernel = p.dtype == DType::kF32   ? isa.rms_norm.forward_f32
                      : p.dtype == DType::kF16 ? isa.rms_norm.forward_f16
                                               : isa.rms_norm.forward_bf16;

  // Rows are independent: each thread takes an equal run of them.
  const int threads = static_cast<int>(std::min<size_t>(
      ThreadsFor(p.rows * p.cols * SizeOf(p.dtype), p.threads), std::max<size_t>(p.rows, 1)));
  ParallelFor(threads, static_cast<size_t>(threads), [&](size_t t) {
    const size_t begin = p.rows * t / threads, end = p.rows * (t + 1) / threads;
    kernels::RmsNormForwardArgs a{};
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
    kernel(a);
  });

  run_log.Record(kForward, {"forward", isa.name, threads, p.dtype, StoresName(streaming)}, p.rows,
                 p.cols);
  return Status::Ok();
}

Status RunBackward(const RmsNormBackwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kBackward, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;

  // The blocked order sums partials of two halves (layer norm's pd_gamma and
  // pd_beta); dgamma is the first half, and the second stays zero. It costs
  // one more addition of cols floats per 256-row block, and keeps one
  // implementation of the order.
  const size_t width = 2 * p.cols;
  const bool blocked = p.order == Order::kBlocked && p.rows > 0;
  const int wanted = ThreadsFor(2 * p.rows * p.cols * SizeOf(p.dtype), p.threads);
  const engine::BlockedPlan plan = engine::PlanBlocked(p.rows, wanted);
  // Threads take whole subtrees of blocks (a block's rows stay in order);
  // the sequential order is one accumulator, so one thread.
  const int threads =
      blocked ? static_cast<int>(std::min<size_t>(static_cast<size_t>(wanted), plan.subtrees)) : 1;

  // Scratch, all of it before any output is written.
  thread_local std::vector<float> gamma_buffer, partials;
  const float* gamma = nullptr;
  if (Status s =
          Widened(isa, kBackward, "gamma in float", p.dtype, p.gamma, p.cols, gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  const size_t partial_floats =
      blocked ? engine::BlockedScratchFloats(plan, threads, width) : p.cols;
  if (Status s = engine::GrowScratch(partials, partial_floats, kBackward,
                                     "the float partial sums of dgamma");
      !s.ok()) {
    return s;
  }
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  const bool streaming = Streaming(p.stores, p.rows, p.cols, out);
  const auto kernel = p.dtype == DType::kF32   ? isa.rms_norm.backward_f32
                      : p.dtype == DType::kF16 ? isa.rms_norm.backward_f16
                                               : isa.rms_norm.backward_bf16;

  // Rows [begin, end) into the accumulator acc (dgamma).
  auto run_rows = [&](size_t begin, size_t end, float* acc) {
    kernels::RmsNormBackwardArgs a{};
    a.x = ElementAt(p.x, p.dtype, begin * stride);
    a.dy = ElementAt(p.dy, p.dtype, begin * stride);
    a.gamma = gamma;
    a.rstd = p.rstd + begin;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.dx = ElementAt(p.dx, out, begin * stride);
    a.f32_dx = out == DType::kF32;
    a.stream_dx = streaming;
    a.acc_gamma = acc;
    kernel(a);
  };

  float* const sums = partials.data();
  if (!blocked) {
    // One accumulator, every row in order.
    std::fill(sums, sums + p.cols, 0.0f);
    if (p.rows > 0) run_rows(0, p.rows, sums);
  } else {
    const engine::PartialColumns all{p.cols, 0, p.cols};
    float* const stacks = sums + plan.subtrees * width;
    ParallelForWorkers(threads, plan.subtrees, [&](size_t j, size_t worker) {
      engine::SumSubtree(isa, plan, j, all, sums + j * width, stacks + worker * plan.levels * width,
                         [&](size_t b, float* partial) {
                           run_rows(b * engine::kBlockRows,
                                    std::min(p.rows, (b + 1) * engine::kBlockRows), partial);
                         });
    });
    engine::CombineRoots(isa, plan, sums, all);
  }
  engine::WriteOutput(isa, out, sums, p.cols, p.dgamma);

  run_log.Record(kBackward, {OrderName(p.order), isa.name, threads, p.dtype, StoresName(streaming)},
                 p.rows, p.cols);
  return Status::Ok();
}

}  // namespace

RunInfo LastRmsNormRunInfo() { return run_log.Last(); }

Status RmsNormForward(const RmsNormForwardProblem& p) {
  try {
    return RunForward(p);
  } catch (const std::bad_alloc&) {
    return engine::OutOfMemory(kForward);
  }
}

Status RmsNormBackward(const RmsNormBackwardProblem& p) {
  try {
    return RunBackward(p);
  } catch (const std::bad_alloc&) {
    return engine::OutOfMemory(kBackward);
  }
}

}  // namespace normgrad
