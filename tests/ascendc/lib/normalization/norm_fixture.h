// norm_fixture.h — what the compat tests of the normalization APIs with
// outputs y, mean and variance share: the tensor set of a call (x, y, mean,
// variance, gamma, beta and a scratch, each in its own TBuf) and the two
// prototypes (LayerNorm, BatchNorm, GroupNorm); and, for BatchNorm and
// GroupNorm, T's bits and values, random parameters, and the float64 bound
// of docs/numerics.md for one set of values standardized together (its
// mean, its variance, its outputs).
//
// A test file sizes the tensors for its shape by deriving from NormTensors;
// to check against the bound it computes each set's exact mean, mean
// magnitude and variance in its own layout and compares the call's outputs
// with SetBound's.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace compat_test {

// The tensors in TBufs: x and y of `elements`, mean and variance of `stats`,
// gamma and beta of `params`, then the scratch when scratch_bytes != 0 (each
// at a multiple of 32).
template <typename T>
struct NormTensors : TensorBits<T> {
  NormTensors(uint32_t elements, uint32_t stats, uint32_t params,
              uint32_t scratch_bytes) {
    pipe.InitBuffer(x_buf, elements * sizeof(T));
    pipe.InitBuffer(y_buf, elements * sizeof(T));
    pipe.InitBuffer(mean_buf, stats * sizeof(T));
    pipe.InitBuffer(var_buf, stats * sizeof(T));
    pipe.InitBuffer(gamma_buf, params * sizeof(T));
    pipe.InitBuffer(beta_buf, params * sizeof(T));
    x = x_buf.template Get<T>();
    y = y_buf.template Get<T>();
    mean = mean_buf.template Get<T>();
    var = var_buf.template Get<T>();
    gamma = gamma_buf.template Get<T>();
    beta = beta_buf.template Get<T>();
    if (scratch_bytes != 0) {
      pipe.InitBuffer(tmp_buf, scratch_bytes);
      tmp = tmp_buf.template Get<uint8_t>();
    }
  }

  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECIN> x_buf;
  AscendC::TBuf<AscendC::TPosition::VECOUT> y_buf;
  AscendC::TBuf<AscendC::TPosition::VECOUT> mean_buf;
  AscendC::TBuf<AscendC::TPosition::VECOUT> var_buf;
  AscendC::TBuf<AscendC::TPosition::VECIN> gamma_buf;
  AscendC::TBuf<AscendC::TPosition::VECIN> beta_buf;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp_buf;
  AscendC::LocalTensor<T> x, y, mean, var, gamma, beta;
  AscendC::LocalTensor<uint8_t> tmp;
};

template <typename T>
using BitsOf = typename TensorBits<T>::Bits;

template <typename T>
double ValueOf(BitsOf<T> bits) {
  if constexpr (std::is_same_v<T, float>) {
    return BitsFloat(bits);
  } else {
    return HalfBitsToFloat(bits);
  }
}

template <typename T>
std::vector<double> Values(const std::vector<BitsOf<T>>& bits) {
  std::vector<double> v(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) v[i] = ValueOf<T>(bits[i]);
  return v;
}

// T's bits of a float that T represents exactly.
template <typename T>
BitsOf<T> BitsOfValue(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return FloatBits(v);
  } else {
    const half h(v);
    uint16_t bits;
    std::memcpy(&bits, &h, sizeof bits);
    return bits;
  }
}

// n values uniform in [-range, range], each rounded to T.
template <typename T>
std::vector<BitsOf<T>> RandomParam(uint32_t n, float range, std::mt19937& rng) {
  std::uniform_real_distribution<float> value(-range, range);
  std::vector<BitsOf<T>> bits(n);
  for (auto& b : bits) b = BitsOfValue<T>(static_cast<float>(T(value(rng))));
  return bits;
}

// How a call gets its scratch: the sharedTmpBuffer prototype or the one
// that takes the framework scratch.
enum class Proto { kSharedTmpBuffer, kFrameworkScratch };

// ---- The float64 bound of docs/numerics.md --------------------------------

inline constexpr double kU = 1.0 / (1 << 24);      // float's unit roundoff
inline constexpr double kHalfU = 1.0 / (1 << 11);  // half's
inline constexpr double kHalfTiny =
    1.0 / (1 << 25);  // half's subnormal half-step
inline constexpr double kRefSlack = 1.0 / (1ull << 40);

inline double Gamma(double n) { return n * kU / (1 - n * kU); }

// A float bound widened by the one rounding to half of an output whose exact
// value is `exact` (for half outputs; float outputs keep the bound).
inline double Narrowed(bool is_half, double bound, double exact) {
  return is_half ? bound + kHalfU * (std::fabs(exact) + bound) + kHalfTiny
                 : bound;
}

// The bound for one set of values standardized together, from its exact
// mean mu, mean magnitude a (the mean of |x|), population variance sigma2,
// epsilon, and the additions a term passes through in the row sums
// (`lanes`). Valid while eps_t <= 1/2 (the caller asserts it).
struct SetBound {
  SetBound(double exact_mean, double magnitude, double variance, double eps,
           double lanes)
      : mu(exact_mean),
        a(magnitude),
        sigma2(variance),
        rstd(1 / std::sqrt(variance + eps)) {
    e_mu = Gamma(lanes + 2) * a;
    e_var = Gamma(lanes + 5) * (sigma2 + e_mu * e_mu) + e_mu * e_mu;
    const double v = sigma2 + eps;
    eps_t = ((1 + kU) * e_var + kU * v) / v;
    rho = eps_t + Gamma(2) * (1 + eps_t);
  }

  // The float bounds of the mean and the variance.
  double MeanBound() const { return e_mu + kRefSlack * a; }
  double VarianceBound() const { return e_var + kRefSlack * (sigma2 + a * a); }

  // The exact output of value x with scale gamma and shift beta.
  double Output(double x, double gamma, double beta) const {
    return rstd * (x - mu) * gamma + beta;
  }

  // The float bound of that output.
  double OutputBound(double x, double gamma, double beta) const {
    const double xhat = std::fabs(rstd * (x - mu));
    const double g = std::fabs(gamma);
    const double y = Output(x, gamma, beta);
    const double e_xhat = xhat * ((1 + rho) * (1 + kU) * (1 + kU) - 1) +
                          rstd * (1 + kU) * (1 + kU) * (1 + rho) * e_mu;
    return (1 + kU) * g * ((1 + kU) * e_xhat + kU * xhat) + kU * std::fabs(y) +
           kRefSlack * (std::fabs(y) + g * (xhat + rstd * a));
  }

  double mu, a, sigma2, rstd;
  double e_mu, e_var, eps_t, rho;
};

}  // namespace compat_test
