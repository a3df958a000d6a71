// tools/normgrad/peers/onednn_peer.cc — the "onednn" peer of `normgrad
// bench`, built as the plugin module normgrad_peer_onednn.so when libdnnl-dev
// is installed: oneDNN's layer_normalization_backward (prop_kind::backward,
// use_scale | use_shift, so it computes diff_scale = pd_gamma and diff_shift =
// pd_beta), with the statistics given as inputs.
//
//   Op::kBackward: mean as given; variance = 1/rstd² − eps, rounded to float
//     (oneDNN takes variance, not rstd). oneDNN's 1/√(variance + eps) then
//     differs from rstd by a few float roundings (about 3·2^-24 relative).
//     dx = diff_src is returned.
//   Op::kGradBeta: x = res, mean = 0, variance = 1, eps = 0, so oneDNN's
//     rstd is 1/√1 = 1 and x̂ = res exactly. With use_global_stats, the
//     cheapest backward there is: the statistics count as constants, so
//     diff_src = gamma·dy·rstd without the row sums. oneDNN always computes
//     diff_src; here it goes to a scratch buffer and is discarded.
//
// Memory objects wrap the caller's buffers; only gamma is copied, in Prepare,
// into the float scale oneDNN 2.x requires. Threads:
// Debian's oneDNN uses OpenMP, and runs on omp_get_max_threads() of the
// calling thread, set in Prepare and again before each Run.
// No exception leaves this module.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "bench_peer.h"
#include "normgrad/float16.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace normgrad::bench {
namespace {

using dnnl::memory;
using dnnl::normalization_flags;

memory::data_type DnnlType(DType t) {
  switch (t) {
    case DType::kF16:
      return memory::data_type::f16;
    case DType::kBF16:
      return memory::data_type::bf16;
    case DType::kF32:
      break;
  }
  return memory::data_type::f32;
}

/// Element i of `data` (of type t) as float.
float Decode(DType t, const void* data, size_t i) {
  const uint16_t* bits16 = static_cast<const uint16_t*>(data);
  switch (t) {
    case DType::kF16:
      return bits::HalfToFloat(bits16[i]);
    case DType::kBF16:
      return bits::Bfloat16ToFloat(bits16[i]);
    case DType::kF32:
      break;
  }
  return static_cast<const float*>(data)[i];
}

/// Runs f(); returns the message of what it threw, or empty.
template <typename F>
std::string Catch(const F& f) {
  try {
    f();
    return "";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

class DnnlPeer final : public Peer {
 public:
  DnnlPeer() : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

  std::string Name() const override { return "onednn"; }
  std::string Version() const override {
    const dnnl::version_t* v = dnnl::version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
           std::to_string(v->patch);
  }

  /// Asks oneDNN for the primitive descriptor of `c`.
  std::string Unsupported(const Case& c) const override {
    if (c.op == Op::kRmsForward || c.op == Op::kRmsBackward) return "no RMS norm before 3.1";
    if (Catch([&] { Describe(c); }).empty()) return "";
    return std::string("no ") + DTypeName(c.dtype) + " layer-norm backward on CPU";
  }

  std::string Prepare(const Case& c) override {
    if (std::string why = Unsupported(c); !why.empty()) return why;
    error_.clear();
    return Catch([&] {
      c_ = c;
      c_.threads = std::max(c.threads, 1);
      omp_set_num_threads(c_.threads);  // before the primitive is created
      const auto pd = Describe(c_);
      primitive_ = dnnl::layer_normalization_backward(pd);
      const size_t rows = c.rows, cols = c.cols;
      // Wraps `data` as the primitive's argument `arg`.
      const auto wrap = [this, &pd](int arg, const void* data) {
        return memory(pd.query_md(dnnl::query::exec_arg_md, arg), engine_, const_cast<void*>(data));
      };
      diff_src_.assign(rows * cols * SizeOf(c.dtype), 0);
      shift_.assign(cols, 0.0f);  // unused by the backward, but execute wants it
      diff_scale_.assign(cols, 0.0f);
      diff_shift_.assign(cols, 0.0f);
      if (c.op == Op::kGradBeta) {
        scale_.assign(cols, 1.0f);
        mean_.assign(rows, 0.0f);
        variance_.assign(rows, 1.0f);
      } else {
        scale_.resize(cols);
        for (size_t j = 0; j < cols; ++j) scale_[j] = Decode(c.dtype, c.gamma, j);
        variance_.resize(rows);
        for (size_t r = 0; r < rows; ++r) {
          const double rstd = c.rstd[r];
          variance_[r] = static_cast<float>(1.0 / (rstd * rstd) - c.eps);
        }
      }
      const float* mean = c.op == Op::kGradBeta ? mean_.data() : c.mean;
      args_ = {
          {DNNL_ARG_SRC, wrap(DNNL_ARG_SRC, c.op == Op::kGradBeta ? c.res : c.x)},
          {DNNL_ARG_DIFF_DST, wrap(DNNL_ARG_DIFF_DST, c.dy)},
          {DNNL_ARG_MEAN, wrap(DNNL_ARG_MEAN, mean)},
          {DNNL_ARG_VARIANCE, wrap(DNNL_ARG_VARIANCE, variance_.data())},
          {DNNL_ARG_SCALE, wrap(DNNL_ARG_SCALE, scale_.data())},
          {DNNL_ARG_SHIFT, wrap(DNNL_ARG_SHIFT, shift_.data())},
          {DNNL_ARG_DIFF_SRC, wrap(DNNL_ARG_DIFF_SRC, diff_src_.data())},
          {DNNL_ARG_DIFF_SCALE, wrap(DNNL_ARG_DIFF_SCALE, diff_scale_.data())},
          {DNNL_ARG_DIFF_SHIFT, wrap(DNNL_ARG_DIFF_SHIFT, diff_shift_.data())},
      };
    });
  }

  void Run() override {
    error_ = Catch([this] {
      // oneDNN runs on the calling thread's OpenMP thread count, which
      // whatever ran since Prepare (another peer) may have changed.
      omp_set_num_threads(c_.threads);
      primitive_.execute(stream_, args_);
      stream_.wait();
    });
  }

  /// Empty Results (and the error on stderr) when the last Run failed.
  Results Read() const override {
    if (!error_.empty()) {
      std::fprintf(stderr, "onednn peer: %s\n", error_.c_str());
      return Results();
    }
    Results r;
    r.pd_gamma.assign(diff_scale_.begin(), diff_scale_.end());
    r.pd_beta.assign(diff_shift_.begin(), diff_shift_.end());
    if (c_.op == Op::kBackward) {
      r.dx.resize(c_.rows * c_.cols);
      for (size_t i = 0; i < r.dx.size(); ++i) r.dx[i] = Decode(c_.dtype, diff_src_.data(), i);
    }
    return r;
  }

 private:
  /// The backward primitive descriptor for `c`; throws dnnl::error when
  /// oneDNN has no implementation.
  dnnl::layer_normalization_backward::primitive_desc Describe(const Case& c) const {
    const memory::dims shape = {static_cast<memory::dim>(c.rows), static_cast<memory::dim>(c.cols)};
    const memory::desc data(shape, DnnlType(c.dtype), memory::format_tag::ab);
    const memory::desc stat({shape[0]}, memory::data_type::f32, memory::format_tag::a);
    normalization_flags flags = normalization_flags::use_scale | normalization_flags::use_shift;
    if (c.op == Op::kGradBeta) flags |= normalization_flags::use_global_stats;
    const float eps = c.op == Op::kGradBeta ? 0.0f : c.eps;
    const dnnl::layer_normalization_forward::primitive_desc hint(
        {dnnl::prop_kind::forward_training, data, stat, eps, flags}, engine_);
    return {{dnnl::prop_kind::backward, data, data, stat, eps, flags}, engine_, hint};
  }

  dnnl::engine engine_;
  dnnl::stream stream_;
  Case c_;
  dnnl::layer_normalization_backward primitive_;
  std::unordered_map<int, memory> args_;
  std::vector<float> scale_, shift_, mean_, variance_, diff_scale_, diff_shift_;
  std::vector<unsigned char> diff_src_;  ///< rows × cols of c_.dtype
  std::string error_;                    ///< the last Run's exception, if any
};

}  // namespace
}  // namespace normgrad::bench

// The module's entry point (bench_peer.h).
NORMGRAD_PEER_MODULE_ENTRY(normgrad::bench::DnnlPeer, normgrad::bench::Catch);
static_assert(std::string_view(NORMGRAD_PEER_ENTRY) == "normgrad_create_peer");
