// tools/normgrad/peers/pytorch_peer.cc — the "pytorch" peer of `normgrad
// bench`, built as the plugin module normgrad_peer_pytorch.so when
// libtorch-dev is installed: ATen's CPU layer-norm backward,
// at::native_layer_norm_backward, the op autograd runs for
// torch.nn.functional.layer_norm; and RMS norm as a user composes it.
//
//   Op::kGradBeta: output mask {false, true, true} (pd_gamma, pd_beta only),
//     x = res, mean = 0, rstd = 1, so x̂ = res exactly; weight = ones (the
//     op needs one defined even when dx is not asked for).
//   Op::kBackward: all three outputs from x, dy, gamma, mean and rstd.
//   Op::kRmsForward, Op::kRmsBackward: PyTorch 1.13 has no RMS norm, so the
//     composite a user writes, x * rsqrt(x.pow(2).mean(-1, keepdim) + eps) *
//     gamma, in the input's type; the backward is its autograd backward
//     (torch::autograd::grad of y with dy, the graph built in Prepare and
//     retained, so only the backward is timed).
//
// PyTorch 1.13 quirks, found by trying: the op needs weight and bias both
// defined (else "tensor does not have a device"; bias is unused, zeros);
// mean and rstd must have the input's dtype, so for bfloat16 they are rounded
// to bfloat16 in Prepare (as PyTorch's own bfloat16 forward stores them);
// there is no half kernel on the CPU. Inputs are wrapped with at::from_blob;
// the op allocates its outputs on every call, as it does in PyTorch.
// Threads: at::set_num_threads in Prepare; ATen's parallel backend in Debian
// is OpenMP, which runs on the calling thread's omp_get_max_threads(), so Run
// sets that again. No exception leaves this module.
#include <ATen/ATen.h>
#include <ATen/Config.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <omp.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/version.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "bench_peer.h"

namespace normgrad::bench {
namespace {

at::ScalarType TorchType(DType t) {
  switch (t) {
    case DType::kF16:
      return at::kHalf;
    case DType::kBF16:
      return at::kBFloat16;
    case DType::kF32:
      break;
  }
  return at::kFloat;
}

/// Runs f(); returns the message of what it threw, or empty.
template <typename F>
std::string Catch(const F& f) {
  try {
    f();
    return "";
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

class TorchPeer final : public Peer {
 public:
  /// Finds out which dtypes have a CPU kernel by running each on 1 × 2.
  TorchPeer() {
    for (DType t : {DType::kF32, DType::kF16, DType::kBF16}) {
      const std::string error = Catch([t] {
        c10::InferenceMode guard;
        const at::Tensor one = at::ones({1, 2}, at::TensorOptions().dtype(TorchType(t)));
        const at::Tensor stat = at::ones({1}, one.options());
        const at::Tensor w = at::ones({2}, one.options());
        at::native_layer_norm_backward(one, one, {2}, stat, stat, w, w, {true, true, true});
      });
      if (!error.empty()) {
        unsupported_[static_cast<size_t>(t)] =
            std::string("no ") + DTypeName(t) + " layer-norm backward on CPU";
      }
      const std::string rms_error = Catch([t] {
        const at::Tensor x =
            at::ones({1, 2}, at::TensorOptions().dtype(TorchType(t))).requires_grad_(true);
        const at::Tensor y = RmsNorm(x, at::ones({2}, x.options()), 1e-6f);
        torch::autograd::grad({y}, {x}, {at::ones_like(y)});
      });
      if (!rms_error.empty()) {
        unsupported_rms_[static_cast<size_t>(t)] =
            std::string("no ") + DTypeName(t) + " pow/mean/rsqrt or their backward on CPU";
      }
    }
  }

  std::string Name() const override { return "pytorch"; }
  std::string Version() const override { return "PyTorch " TORCH_VERSION; }

  std::string Unsupported(const Case& c) const override {
    const bool rms = c.op == Op::kRmsForward || c.op == Op::kRmsBackward;
    return (rms ? unsupported_rms_ : unsupported_)[static_cast<size_t>(c.dtype)];
  }

  std::string Prepare(const Case& c) override {
    if (std::string why = Unsupported(c); !why.empty()) return why;
    outputs_ = {};
    y_ = at::Tensor();
    rms_grads_.clear();
    error_.clear();
    return Catch([&] {
      threads_ = std::max(c.threads, 1);
      at::set_num_threads(threads_);
      cols_ = static_cast<int64_t>(c.cols);
      const int64_t rows = static_cast<int64_t>(c.rows);
      const at::TensorOptions type = at::TensorOptions().dtype(TorchType(c.dtype));
      const auto wrap = [&type](const void* data, at::IntArrayRef shape) {
        return at::from_blob(const_cast<void*>(data), shape, type);
      };
      op_ = c.op;
      if (c.op == Op::kRmsForward || c.op == Op::kRmsBackward) {
        x_ = wrap(c.x, {rows, cols_});
        gamma_ = wrap(c.gamma, {cols_});
        eps_ = c.eps;
        if (c.op == Op::kRmsBackward) {
          dy_ = wrap(c.dy, {rows, cols_});
          // Leaves that share the inputs' memory, and the forward graph.
          x_ = x_.detach().requires_grad_(true);
          gamma_ = gamma_.detach().requires_grad_(true);
          y_ = RmsNorm(x_, gamma_, eps_);
        }
        return;
      }
      dy_ = wrap(c.dy, {rows, cols_});
      bias_ = at::zeros({cols_}, type);
      if (c.op == Op::kGradBeta) {
        x_ = wrap(c.res, {rows, cols_});
        gamma_ = at::ones({cols_}, type);
        mean_ = at::zeros({rows}, type);
        rstd_ = at::ones({rows}, type);
        mask_ = {false, true, true};
      } else {
        x_ = wrap(c.x, {rows, cols_});
        gamma_ = wrap(c.gamma, {cols_});
        const at::TensorOptions f32 = at::TensorOptions().dtype(at::kFloat);
        // .to() returns the wrapped buffer itself when the dtype is float.
        mean_ = at::from_blob(const_cast<float*>(c.mean), {rows}, f32).to(type.dtype());
        rstd_ = at::from_blob(const_cast<float*>(c.rstd), {rows}, f32).to(type.dtype());
        mask_ = {true, true, true};
      }
    });
  }

  void Run() override {
    error_ = Catch([this] {
#if AT_PARALLEL_OPENMP
      // ATen's OpenMP backend uses the calling thread's OpenMP thread count,
      // which whatever ran since Prepare (another peer) may have changed.
      omp_set_num_threads(threads_);
#endif
      if (op_ == Op::kRmsForward) {
        c10::InferenceMode guard;
        y_ = RmsNorm(x_, gamma_, eps_);
      } else if (op_ == Op::kRmsBackward) {
        rms_grads_ = torch::autograd::grad({y_}, {x_, gamma_}, {dy_}, /*retain_graph=*/true);
      } else {
        c10::InferenceMode guard;
        outputs_ = at::native_layer_norm_backward(dy_, x_, at::IntArrayRef(&cols_, 1), mean_, rstd_,
                                                  gamma_, bias_, mask_);
      }
    });
  }

  /// Empty Results (and the error on stderr) when the last Run failed.
  Results Read() const override {
    Results r;
    std::string error = error_;
    if (error.empty()) {
      error = Catch([this, &r] {
        if (op_ == Op::kRmsForward) {
          ToDouble(y_, &r.y);
        } else if (op_ == Op::kRmsBackward) {
          ToDouble(rms_grads_.at(0), &r.dx);
          ToDouble(rms_grads_.at(1), &r.pd_gamma);
        } else {
          ToDouble(std::get<1>(outputs_), &r.pd_gamma);
          ToDouble(std::get<2>(outputs_), &r.pd_beta);
          if (mask_[0]) ToDouble(std::get<0>(outputs_), &r.dx);
        }
      });
    }
    if (!error.empty()) {
      std::fprintf(stderr, "pytorch peer: %s\n", error.c_str());
      return Results();
    }
    return r;
  }

 private:
  // The RMS norm a PyTorch 1.13 user writes.
  static at::Tensor RmsNorm(const at::Tensor& x, const at::Tensor& gamma, float eps) {
    return x * at::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + eps) * gamma;
  }

  static void ToDouble(const at::Tensor& t, std::vector<double>* out) {
    const at::Tensor d = t.detach().to(at::kDouble).contiguous();
    out->assign(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
  }

  std::array<std::string, 3> unsupported_;      ///< per DType: why not, or empty
  std::array<std::string, 3> unsupported_rms_;  ///< the same for the RMS ops
  Op op_ = Op::kGradBeta;
  int threads_ = 1;
  int64_t cols_ = 0;
  float eps_ = 0;
  at::Tensor dy_, x_, gamma_, bias_, mean_, rstd_;
  at::Tensor y_;                       ///< kRmsForward: y; kRmsBackward: the graph's output
  std::vector<at::Tensor> rms_grads_;  ///< kRmsBackward: dx, dgamma
  std::array<bool, 3> mask_{};
  std::tuple<at::Tensor, at::Tensor, at::Tensor> outputs_;
  std::string error_;  ///< the last Run's exception, if any
};

}  // namespace
}  // namespace normgrad::bench

// The module's entry point (bench_peer.h).
NORMGRAD_PEER_MODULE_ENTRY(normgrad::bench::TorchPeer, normgrad::bench::Catch);
static_assert(std::string_view(NORMGRAD_PEER_ENTRY) == "normgrad_create_peer");
