// engine/layer_norm.cc — layer-norm forward and fused backward on host
// memory: argument checks, widening of gamma/beta, rows split over threads,
// the blocked and sequential sums of pd_gamma/pd_beta, the choice of
// streaming stores, and output narrowing. The row kernels are in
// src/kernels/layer_norm_inl.h.
#include "normgrad/layer_norm.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/dispatch.h"
#include "engine/parallel.h"
#include "kernels/kernels.h"

namespace normgrad {
namespace {

using engine::ParallelFor;
using engine::WriteOutput;

// Rows per block of the blocked order: a constant (as LayerNormGradBeta's),
// so pd_gamma/pd_beta do not depend on the thread count.
constexpr size_t kBlockRows = 256;

// Under Stores::kAuto, outputs of at least kStreamMinBytes whose rows are at
// least kStreamMinRowBytes long are written with streaming stores. Measured
// (backward, one thread, f32 and f16): 8–40% faster from 8 MiB of dx
// (2048 × 1024 f32 … 4096 × 4096 f32), equal or up to 4% slower at 4 MiB
// (1024 × 1024), and up to 45% slower with 256-byte rows (65536 × 64 f32),
// where a row's partial first and last lines (plain stores) are a large
// part of it.
constexpr size_t kStreamMinBytes = size_t{8} << 20;
constexpr size_t kStreamMinRowBytes = 1024;

// What the last call on this thread ran, and what NORMGRAD_VERBOSE last
// printed (names are static strings: no allocation per call).
struct LastRun {
  const char* kind = "none";  // "forward", "blocked" or "sequential"
  const char* isa = "none";
  int threads = 0;
  DType dtype = DType::kF32;
  bool streaming = false;
};
thread_local LastRun last_run;
thread_local LastRun last_printed;

void Record(const engine::Dispatch& dispatch, const char* api, LastRun run,
            size_t rows, size_t cols) {
  last_run = run;
  // One line per change, so loops of calls print once.
  if (dispatch.verbose &&
      (run.kind != last_printed.kind || run.isa != last_printed.isa ||
       run.threads != last_printed.threads || run.dtype != last_printed.dtype ||
       run.streaming != last_printed.streaming)) {
    std::fprintf(stderr, "normgrad: %s %s %zux%zu %s:%s threads=%d stores=%s\n", api,
                 DTypeName(run.dtype), rows, cols, run.kind, run.isa, run.threads,
                 run.streaming ? "streaming" : "plain");
    last_printed = run;
  }
}

bool Streaming(Stores stores, size_t rows, size_t cols, DType out) {
  switch (stores) {
    case Stores::kPlain: return false;
    case Stores::kStreaming: return true;
    case Stores::kAuto: break;
  }
  const size_t row_bytes = cols * SizeOf(out);
  return row_bytes >= kStreamMinRowBytes && rows * row_bytes >= kStreamMinBytes;
}

// `src` (n elements of `dtype`) as floats: the input itself for f32, else
// widened into `buffer`.
const float* Widened(const kernels::Isa& isa, DType dtype, const void* src, size_t n,
                     std::vector<float>& buffer) {
  if (dtype == DType::kF32) return static_cast<const float*>(src);
  if (buffer.size() < n) buffer.resize(n);
  const auto* bits = static_cast<const uint16_t*>(src);
  if (dtype == DType::kF16) {
    isa.widen_f16(bits, buffer.data(), n);
  } else {
    isa.widen_bf16(bits, buffer.data(), n);
  }
  return buffer.data();
}

// Element `i` of an array of `dtype`.
const void* At(const void* base, DType dtype, size_t i) {
  return static_cast<const unsigned char*>(base) + i * SizeOf(dtype);
}
void* At(void* base, DType dtype, size_t i) {
  return static_cast<unsigned char*>(base) + i * SizeOf(dtype);
}

std::string Number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

// Argument errors shared by both calls; messages are built only on failure.
Status CheckShape(const std::string& api, DType dtype, size_t rows, size_t cols,
                  size_t row_stride, int threads) {
  if (dtype != DType::kF32 && dtype != DType::kF16 && dtype != DType::kBF16) {
    return Status::Error(api + "dtype " + std::to_string(static_cast<int>(dtype)) +
                         " is not float, half or bfloat16");
  }
  if (cols == 0) return Status::Error(api + "cols is 0; it must be at least 1");
  const size_t stride = row_stride == 0 ? cols : row_stride;
  if (stride < cols) {
    return Status::Error(api + "row_stride " + std::to_string(stride) + " is less than cols " +
                         std::to_string(cols));
  }
  // Outputs may be f32 (4 bytes), whatever the input type.
  if (rows > 0 && stride > std::numeric_limits<size_t>::max() / sizeof(float) / rows) {
    return Status::Error(api + "rows " + std::to_string(rows) + " × row_stride " +
                         std::to_string(stride) + " overflows the address space");
  }
  if (threads < 0) {
    return Status::Error(api + "threads " + std::to_string(threads) +
                         " is negative; use 0 for the default");
  }
  return Status::Ok();
}

Status CheckEps(const std::string& api, float eps) {
  if (!std::isfinite(eps) || eps < 0) {
    return Status::Error(api + "eps " + Number(eps) + " is " +
                         (std::isfinite(eps) ? "negative" : "not finite") +
                         "; it must be finite and at least 0");
  }
  return Status::Ok();
}

// An output that is the same buffer as an input must have its type.
Status CheckInPlace(const std::string& api, const char* out_name, const void* out,
                    DType out_type, const char* in_name, const void* in, DType in_type) {
  if (out != in || out_type == in_type) return Status::Ok();
  return Status::Error(api + out_name + " is the same buffer as " + in_name + ", but " +
                       out_name + " is " + DTypeName(out_type) + " and " + in_name + " is " +
                       DTypeName(in_type) + "; in place needs the same type");
}

Status Check(const LayerNormForwardProblem& p) {
  const std::string api = "LayerNormForward: ";
  if (Status s = CheckShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads); !s.ok()) {
    return s;
  }
  if (p.rows > 0 && p.x == nullptr) {
    return Status::Error(api + "x is null with rows " + std::to_string(p.rows));
  }
  if (p.gamma == nullptr || p.beta == nullptr) {
    return Status::Error(api + (p.gamma == nullptr ? "gamma" : "beta") + " is null");
  }
  if (p.y == nullptr && p.mean == nullptr && p.variance == nullptr && p.rstd == nullptr) {
    return Status::Error(api + "y, mean, variance and rstd are all null: nothing to compute");
  }
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (Status s = CheckInPlace(api, "y", p.y, out, "x", p.x, p.dtype); !s.ok()) return s;
  return CheckEps(api, p.eps);
}

Status Check(const LayerNormBackwardProblem& p) {
  const std::string api = "LayerNormBackward: ";
  if (Status s = CheckShape(api, p.dtype, p.rows, p.cols, p.row_stride, p.threads); !s.ok()) {
    return s;
  }
  if (p.rows > 0) {
    for (const auto& [name, pointer] : {std::pair<const char*, const void*>{"x", p.x},
                                        {"dy", p.dy},
                                        {"mean", p.mean},
                                        {"dx", p.dx}}) {
      if (pointer == nullptr) {
        return Status::Error(api + name + " is null with rows " + std::to_string(p.rows));
      }
    }
    if (p.rstd == nullptr && p.variance == nullptr) {
      return Status::Error(api + "rstd and variance are both null with rows " +
                           std::to_string(p.rows) + "; pass rstd, or variance and eps");
    }
  }
  if (p.rstd != nullptr && p.variance != nullptr) {
    return Status::Error(api + "rstd and variance are both set; pass one of them (rstd, or "
                         "variance and eps)");
  }
  if (p.gamma == nullptr) return Status::Error(api + "gamma is null");
  if (p.pd_gamma == nullptr || p.pd_beta == nullptr) {
    return Status::Error(api + (p.pd_gamma == nullptr ? "pd_gamma" : "pd_beta") + " is null");
  }
  if (p.pd_gamma == p.pd_beta) {
    return Status::Error(api + "pd_gamma and pd_beta are the same buffer");
  }
  if (p.order != Order::kBlocked && p.order != Order::kSequential) {
    return Status::Error(api + "order " + std::to_string(static_cast<int>(p.order)) +
                         " is not sequential or blocked");
  }
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (Status s = CheckInPlace(api, "dx", p.dx, out, "x", p.x, p.dtype); !s.ok()) return s;
  if (Status s = CheckInPlace(api, "dx", p.dx, out, "dy", p.dy, p.dtype); !s.ok()) return s;
  return p.variance != nullptr ? CheckEps(api, p.eps) : Status::Ok();
}

}  // namespace

RunInfo LastLayerNormRunInfo() {
  return {std::string(last_run.kind) + ":" + last_run.isa, last_run.threads};
}

Status LayerNormForward(const LayerNormForwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const engine::Dispatch& dispatch = engine::CurrentDispatch();
  std::string isa_error;
  const kernels::Isa* selected = engine::SelectIsa(p.isa, &isa_error);
  if (selected == nullptr) return Status::Error("LayerNormForward: " + isa_error);
  const kernels::Isa& isa = *selected;

  thread_local std::vector<float> gamma_buffer, beta_buffer;
  const float* gamma = Widened(isa, p.dtype, p.gamma, p.cols, gamma_buffer);
  const float* beta = Widened(isa, p.dtype, p.beta, p.cols, beta_buffer);
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
    a.x = p.rows > 0 ? At(p.x, p.dtype, begin * stride) : nullptr;
    a.gamma = gamma;
    a.beta = beta;
    a.eps = p.eps;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.y = p.y != nullptr ? At(p.y, out, begin * stride) : nullptr;
    a.f32_y = out == DType::kF32;
    a.stream_y = streaming;
    a.mean = p.mean != nullptr ? p.mean + begin : nullptr;
    a.variance = p.variance != nullptr ? p.variance + begin : nullptr;
    a.rstd = p.rstd != nullptr ? p.rstd + begin : nullptr;
    kernel(a);
  });

  Record(dispatch, "LayerNormForward", {"forward", isa.name, threads, p.dtype, streaming},
         p.rows, p.cols);
  return Status::Ok();
}

Status LayerNormBackward(const LayerNormBackwardProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const engine::Dispatch& dispatch = engine::CurrentDispatch();
  std::string isa_error;
  const kernels::Isa* selected = engine::SelectIsa(p.isa, &isa_error);
  if (selected == nullptr) return Status::Error("LayerNormBackward: " + isa_error);
  const kernels::Isa& isa = *selected;

  thread_local std::vector<float> gamma_buffer, rstd_buffer, partials;
  const float* gamma = Widened(isa, p.dtype, p.gamma, p.cols, gamma_buffer);
  const float* rstd = p.rstd;
  if (rstd == nullptr) {  // as LayerNormForward computes it
    if (rstd_buffer.size() < p.rows) rstd_buffer.resize(p.rows);
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
    a.x = At(p.x, p.dtype, begin * stride);
    a.dy = At(p.dy, p.dtype, begin * stride);
    a.gamma = gamma;
    a.mean = p.mean + begin;
    a.rstd = rstd + begin;
    a.stride = stride;
    a.rows = end - begin;
    a.cols = p.cols;
    a.dx = At(p.dx, out, begin * stride);
    a.f32_dx = out == DType::kF32;
    a.stream_dx = streaming;
    a.acc_gamma = acc;
    a.acc_beta = acc + p.cols;
    kernel(a);
  };

  const size_t width = 2 * p.cols;  // one accumulator: [gamma | beta]
  int threads = 1;
  if (p.order == Order::kSequential || p.rows == 0) {
    // One accumulator, every row in order: one thread.
    if (partials.size() < width) partials.resize(width);
    std::fill(partials.begin(), partials.begin() + width, 0.0f);
    if (p.rows > 0) run_rows(0, p.rows, partials.data());
  } else {
    // Fixed 256-row blocks, each from zero into its own partial; partials
    // combined by a fixed pairwise tree (partial[i] += partial[i + s] for
    // s = 1, 2, 4, …): the bits depend on the shape only.
    const size_t blocks = (p.rows + kBlockRows - 1) / kBlockRows;
    if (partials.size() < blocks * width) partials.resize(blocks * width);
    float* const partial = partials.data();
    threads = static_cast<int>(std::min<size_t>(
        ThreadsFor(2 * p.rows * p.cols * SizeOf(p.dtype), p.threads), blocks));
    ParallelFor(threads, blocks, [&](size_t b) {
      float* acc = partial + b * width;
      std::fill(acc, acc + width, 0.0f);
      run_rows(b * kBlockRows, std::min(p.rows, (b + 1) * kBlockRows), acc);
    });
    for (size_t s = 1; s < blocks; s *= 2) {
      for (size_t i = 0; i + s < blocks; i += 2 * s) {
        isa.add(partial + i * width, partial + (i + s) * width, width);
      }
    }
  }
  WriteOutput(isa, out, partials.data(), p.cols, p.pd_gamma);
  WriteOutput(isa, out, partials.data() + p.cols, p.cols, p.pd_beta);

  Record(dispatch, "LayerNormBackward",
         {OrderName(p.order), isa.name, threads, p.dtype, streaming}, p.rows, p.cols);
  return Status::Ok();
}

}  // namespace normgrad
