// tools/normgrad/peers/loop_peer.cc — the "loop" peer of `normgrad bench`:
// pd_gamma/pd_beta as a competent user would write them without a library.
// Each OpenMP thread sums a contiguous range of rows into its own float
// partials (16-bit rows widened first with normgrad/convert.h); the inner
// loop runs along the columns, so the compiler vectorizes it; the partials
// are added at the end.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "normgrad/convert.h"
#include "peers.h"

namespace normgrad::bench {
namespace {

class LoopPeer final : public Peer {
 public:
  std::string Name() const override { return "loop"; }
  std::string Version() const override { return "C++ loop, OpenMP"; }

  std::string Unsupported(const Case& c) const override {
    return c.op == Op::kGradBeta ? "" : "pd_gamma/pd_beta only";
  }

  std::string Prepare(const Case& c) override {
    if (std::string why = Unsupported(c); !why.empty()) return why;
    c_ = c;
    c_.threads = std::max(c.threads, 1);
    const size_t per_thread = 4 * c.cols;  // partial gamma, beta; widened dy, res
    scratch_.assign(per_thread * static_cast<size_t>(c_.threads), 0.0f);
    gamma_.assign(c.cols, 0.0f);
    beta_.assign(c.cols, 0.0f);
    return "";
  }

  void Run() override {
    switch (c_.dtype) {
      case DType::kF32:
        Sum<float>();
        break;
      case DType::kF16:
        Sum<float16>();
        break;
      case DType::kBF16:
        Sum<bfloat16>();
        break;
    }
  }

  Results Read() const override {
    Results r;
    r.pd_gamma.assign(gamma_.begin(), gamma_.end());
    r.pd_beta.assign(beta_.begin(), beta_.end());
    return r;
  }

 private:
  /// Row r of `data` as floats: in place for float, else widened into `buf`.
  template <typename T>
  const float* RowAsFloat(const void* data, size_t r, float* buf) const {
    const T* row = static_cast<const T*>(data) + r * c_.cols;
    if constexpr (std::is_same_v<T, float>) {
      return row;
    } else {
      Widen(row, buf, c_.cols);
      return buf;
    }
  }

  template <typename T>
  void Sum() {
    const size_t cols = c_.cols;
    int used = 1;
#pragma omp parallel num_threads(c_.threads)
    {
      const size_t t = static_cast<size_t>(omp_get_thread_num());
      const size_t nt = static_cast<size_t>(omp_get_num_threads());
      if (t == 0) used = static_cast<int>(nt);
      float* gamma = &scratch_[t * 4 * cols];
      float* beta = gamma + cols;
      std::fill(gamma, beta + cols, 0.0f);
      for (size_t r = c_.rows * t / nt; r < c_.rows * (t + 1) / nt; ++r) {
        const float* dy = RowAsFloat<T>(c_.dy, r, beta + cols);
        const float* res = RowAsFloat<T>(c_.res, r, beta + 2 * cols);
        for (size_t j = 0; j < cols; ++j) {
          gamma[j] += dy[j] * res[j];
          beta[j] += dy[j];
        }
      }
    }
    std::copy_n(&scratch_[0], cols, gamma_.begin());
    std::copy_n(&scratch_[cols], cols, beta_.begin());
    for (size_t t = 1; t < static_cast<size_t>(used); ++t) {
      for (size_t j = 0; j < cols; ++j) {
        gamma_[j] += scratch_[t * 4 * cols + j];
        beta_[j] += scratch_[t * 4 * cols + cols + j];
      }
    }
  }

  Case c_;
  std::vector<float> scratch_;  ///< per thread: partial gamma, beta; widened dy, res rows
  std::vector<float> gamma_, beta_;
};

}  // namespace

std::unique_ptr<Peer> MakeLoopPeer() { return std::make_unique<LoopPeer>(); }

}  // namespace normgrad::bench
