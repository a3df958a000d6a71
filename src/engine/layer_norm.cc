// engine/layer_norm.cc — layer-norm forward and fused backward on host
// memory: argument checks, scratch (gamma and beta widened, rstd from
// variance), the kernels' arguments of layer norm's own, and output
// narrowing. The drivers (rows split over threads, the blocked and
// sequential sums of pd_gamma/pd_beta) are engine/row_norms.h's, shared with
// RMS norm; the blocked order is engine/blocked_order.h, shared with
// LayerNormGradBeta. The row kernels are in
// src/kernels/layer_norm/layer_norm_inl.h.
#include "normgrad/layer_norm.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/checks.h"
#include "engine/dispatch.h"
#include "engine/row_norms.h"
#include "engine/run_record.h"
#include "engine/scratch.h"
#include "engine/write_output.h"
#include "kernels/kernels.h"

namespace normgrad {
namespace {

using engine::Widened;

constexpr const char* kForward = "LayerNormForward";
constexpr const char* kBackward = "LayerNormBackward";

thread_local engine::RunLog run_log("none");

Status Check(const LayerNormForwardProblem& p) {
  const char* const api = kForward;
  if (Status s = engine::CheckRowNormShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads);
      !s.ok()) {
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
  const DType out = engine::OutputType(p);
  if (Status s = engine::CheckInPlace(api, "y", p.y, out, "x", p.x, p.dtype); !s.ok()) return s;
  return engine::CheckEps(api, p.eps);
}

Status Check(const LayerNormBackwardProblem& p) {
  const char* const api = kBackward;
  if (Status s = engine::CheckRowNormShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads);
      !s.ok()) {
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
  const DType out = engine::OutputType(p);
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
  if (Status s =
          Widened(isa, kForward, "gamma in float", p.dtype, p.gamma, p.cols, gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  if (Status s =
          Widened(isa, kForward, "beta in float", p.dtype, p.beta, p.cols, beta_buffer, &beta);
      !s.ok()) {
    return s;
  }
  const engine::Run run = engine::RunForwardRows(
      isa, isa.layer_norm, p, gamma, [&](kernels::LayerNormForwardArgs& a, size_t begin) {
        a.beta = beta;
        a.mean = p.mean != nullptr ? p.mean + begin : nullptr;
        a.variance = p.variance != nullptr ? p.variance + begin : nullptr;
      });
  run_log.Record(kForward, run, p.rows, p.cols);
  return Status::Ok();
}

Status RunBackward(const LayerNormBackwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kBackward, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;
  const engine::ColumnSums sums =
      engine::PlanColumnSums(p.order, p.dtype, p.rows, p.cols, p.threads, 2);

  // Scratch, all of it before any output is written.
  thread_local std::vector<float> gamma_buffer, rstd_buffer, partials;
  const float* gamma = nullptr;
  if (Status s =
          Widened(isa, kBackward, "gamma in float", p.dtype, p.gamma, p.cols, gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  if (Status s = engine::GrowScratch(partials, sums.scratch_floats, kBackward,
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

  // The accumulator acc is [gamma | beta].
  const engine::Run run =
      engine::RunBackwardRows(isa, isa.layer_norm, p, sums, gamma, rstd, partials.data(),
                              [&](kernels::LayerNormBackwardArgs& a, size_t begin, float* acc) {
                                a.mean = p.mean + begin;
                                a.acc_beta = acc + p.cols;
                              });
  const DType out = engine::OutputType(p);
  engine::WriteOutput(isa, out, partials.data(), p.cols, p.pd_gamma);
  engine::WriteOutput(isa, out, partials.data() + p.cols, p.cols, p.pd_beta);
  run_log.Record(kBackward, run, p.rows, p.cols);
  return Status::Ok();
}

}  // namespace

RunInfo LastLayerNormRunInfo() { return run_log.Last(); }

Status LayerNormForward(const LayerNormForwardProblem& p) {
  return engine::CatchOutOfMemory(kForward, [&] { return RunForward(p); });
}

Status LayerNormBackward(const LayerNormBackwardProblem& p) {
  return engine::CatchOutOfMemory(kBackward, [&] { return RunBackward(p); });
}

}  // namespace normgrad
