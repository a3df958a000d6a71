// engine/rms_norm.cc — RMS-norm forward and fused backward on host memory:
// argument checks, scratch (gamma widened), and output narrowing. The
// drivers (rows split over threads, the blocked and sequential sums of
// dgamma) are engine/row_norms.h's, shared with layer norm; dgamma's blocked
// order is engine/blocked_order.h (shared with LayerNormGradBeta and
// LayerNormBackward). The row kernels are in
// src/kernels/rms_norm/rms_norm_inl.h.
#include "normgrad/rms_norm.h"

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

constexpr const char* kForward = "RmsNormForward";
constexpr const char* kBackward = "RmsNormBackward";

thread_local engine::RunLog run_log("none");

// A per-column array (`name`, cols elements) is set.
Status CheckParameter(const char* api, const char* name, const void* pointer, size_t cols) {
  if (pointer != nullptr) return Status::Ok();
  return Status::Error(std::string(api) + ": " + name + " is null; it must hold cols (" +
                       std::to_string(cols) + ") elements");
}

Status Check(const RmsNormForwardProblem& p) {
  const char* const api = kForward;
  if (Status s = engine::CheckRowNormShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads);
      !s.ok()) {
    return s;
  }
  if (Status s = engine::CheckRowsInput(api, "x", p.x, p.rows); !s.ok()) return s;
  if (Status s = CheckParameter(api, "gamma", p.gamma, p.cols); !s.ok()) return s;
  if (p.y == nullptr && p.rstd == nullptr) {
    return Status::Error(std::string(api) + ": y and rstd are both null: nothing to compute");
  }
  const DType out = engine::OutputType(p);
  if (Status s = engine::CheckInPlace(api, "y", p.y, out, "x", p.x, p.dtype); !s.ok()) return s;
  return engine::CheckEps(api, p.eps);
}

Status Check(const RmsNormBackwardProblem& p) {
  const char* const api = kBackward;
  if (Status s = engine::CheckRowNormShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads);
      !s.ok()) {
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
  const DType out = engine::OutputType(p);
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
  const engine::Run run = engine::RunForwardRows(isa, isa.rms_norm, p, gamma,
                                                 [](kernels::RmsNormForwardArgs&, size_t) {});
  run_log.Record(kForward, run, p.rows, p.cols);
  return Status::Ok();
}

Status RunBackward(const RmsNormBackwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kBackward, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;
  // dgamma is the first half of the blocked order's partials (ColumnSums).
  const engine::ColumnSums sums =
      engine::PlanColumnSums(p.order, p.dtype, p.rows, p.cols, p.threads, 1);

  // Scratch, all of it before any output is written.
  thread_local std::vector<float> gamma_buffer, partials;
  const float* gamma = nullptr;
  if (Status s =
          Widened(isa, kBackward, "gamma in float", p.dtype, p.gamma, p.cols, gamma_buffer, &gamma);
      !s.ok()) {
    return s;
  }
  if (Status s = engine::GrowScratch(partials, sums.scratch_floats, kBackward,
                                     "the float partial sums of dgamma");
      !s.ok()) {
    return s;
  }

  // The accumulator acc is dgamma.
  const engine::Run run =
      engine::RunBackwardRows(isa, isa.rms_norm, p, sums, gamma, p.rstd, partials.data(),
                              [](kernels::RmsNormBackwardArgs&, size_t, float*) {});
  engine::WriteOutput(isa, engine::OutputType(p), partials.data(), p.cols, p.dgamma);
  run_log.Record(kBackward, run, p.rows, p.cols);
  return Status::Ok();
}

}  // namespace

RunInfo LastRmsNormRunInfo() { return run_log.Last(); }

Status RmsNormForward(const RmsNormForwardProblem& p) {
  return engine::CatchOutOfMemory(kForward, [&] { return RunForward(p); });
}

Status RmsNormBackward(const RmsNormBackwardProblem& p) {
  return engine::CatchOutOfMemory(kBackward, [&] { return RunBackward(p); });
}

}  // namespace normgrad
