// reference/reference.cc — double-precision pd_gamma/pd_beta and layer-norm
// forward and backward, written independently of the engine (see
// reference.h).
#include "reference.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace normgrad::reference {
namespace {

double DecodeHalf(uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

double DecodeBfloat16(uint16_t b) {
  const uint32_t word = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}

}  // namespace

double Decode(DType dtype, const void* data, size_t i) {
  switch (dtype) {
    case DType::kF32:
      return static_cast<const float*>(data)[i];
    case DType::kF16:
      return DecodeHalf(static_cast<const uint16_t*>(data)[i]);
    case DType::kBF16:
      return DecodeBfloat16(static_cast<const uint16_t*>(data)[i]);
  }
  return NAN;
}

void GradBeta(DType dtype, const void* dy, const void* res, size_t rows, size_t cols,
              size_t row_stride, double* pd_gamma, double* pd_beta) {
  for (size_t c = 0; c < cols; ++c) {
    pd_gamma[c] = 0;
    pd_beta[c] = 0;
  }
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const double d = Decode(dtype, dy, r * row_stride + c);
      const double x = Decode(dtype, res, r * row_stride + c);
      pd_gamma[c] += d * x;
      pd_beta[c] += d;
    }
  }
}

void GradBetaAbsSums(DType dtype, const void* dy, const void* res, size_t rows, size_t cols,
                     size_t row_stride, double* abs_gamma, double* abs_beta) {
  for (size_t c = 0; c < cols; ++c) {
    abs_gamma[c] = 0;
    abs_beta[c] = 0;
  }
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const double d = Decode(dtype, dy, r * row_stride + c);
      const double x = Decode(dtype, res, r * row_stride + c);
      abs_gamma[c] += std::fabs(d * x);
      abs_beta[c] += std::fabs(d);
    }
  }
}

void LayerNormForward(DType dtype, const void* x, const void* gamma, const void* beta, size_t rows,
                      size_t cols, size_t row_stride, double eps, double* y, double* mean,
                      double* variance) {
  for (size_t r = 0; r < rows; ++r) {
    const size_t row = r * row_stride;
    double sum = 0;
    for (size_t c = 0; c < cols; ++c) sum += Decode(dtype, x, row + c);
    const double m = sum / static_cast<double>(cols);
    double squares = 0;
    for (size_t c = 0; c < cols; ++c) {
      const double d = Decode(dtype, x, row + c) - m;
      squares += d * d;
    }
    const double v = squares / static_cast<double>(cols);
    const double rstd = 1 / std::sqrt(v + eps);
    for (size_t c = 0; c < cols; ++c) {
      y[r * cols + c] =
          (Decode(dtype, x, row + c) - m) * rstd * Decode(dtype, gamma, c) + Decode(dtype, beta, c);
    }
    mean[r] = m;
    variance[r] = v;
  }
}

namespace {

// One row of the backward in double: g and x̂ per column, and the row means
// of g and g·x̂ (or of |g| and |g·x̂| when `absolute`).
struct BackwardRow {
  std::vector<double> g, xh;
  double mean_g = 0, mean_gx = 0;
};

BackwardRow Row(DType dtype, const void* x, const void* dy, const void* gamma, double mean,
                double rstd, size_t row, size_t cols, bool absolute) {
  BackwardRow out{std::vector<double>(cols), std::vector<double>(cols)};
  for (size_t c = 0; c < cols; ++c) {
    out.xh[c] = (Decode(dtype, x, row + c) - mean) * rstd;
    out.g[c] = Decode(dtype, dy, row + c) * Decode(dtype, gamma, c);
    out.mean_g += absolute ? std::fabs(out.g[c]) : out.g[c];
    out.mean_gx += absolute ? std::fabs(out.g[c] * out.xh[c]) : out.g[c] * out.xh[c];
  }
  out.mean_g /= static_cast<double>(cols);
  out.mean_gx /= static_cast<double>(cols);
  return out;
}

}  // namespace

void LayerNormBackward(DType dtype, const void* x, const void* dy, const void* gamma,
                       const double* mean, const double* rstd, size_t rows, size_t cols,
                       size_t row_stride, double* dx, double* pd_gamma, double* pd_beta) {
  for (size_t c = 0; c < cols; ++c) {
    pd_gamma[c] = 0;
    pd_beta[c] = 0;
  }
  for (size_t r = 0; r < rows; ++r) {
    const size_t row = r * row_stride;
    const BackwardRow b = Row(dtype, x, dy, gamma, mean[r], rstd[r], row, cols, false);
    for (size_t c = 0; c < cols; ++c) {
      dx[r * cols + c] = rstd[r] * (b.g[c] - b.mean_g - b.xh[c] * b.mean_gx);
      const double d = Decode(dtype, dy, row + c);
      pd_gamma[c] += d * b.xh[c];
      pd_beta[c] += d;
    }
  }
}

void LayerNormBackwardScales(DType dtype, const void* x, const void* dy, const void* gamma,
                             const double* mean, const double* rstd, size_t rows, size_t cols,
                             size_t row_stride, double* dx_scale, double* abs_gamma,
                             double* abs_beta) {
  for (size_t c = 0; c < cols; ++c) {
    abs_gamma[c] = 0;
    abs_beta[c] = 0;
  }
  for (size_t r = 0; r < rows; ++r) {
    const size_t row = r * row_stride;
    const BackwardRow b = Row(dtype, x, dy, gamma, mean[r], rstd[r], row, cols, true);
    for (size_t c = 0; c < cols; ++c) {
      dx_scale[r * cols + c] =
          rstd[r] * (std::fabs(b.g[c]) + b.mean_g + std::fabs(b.xh[c]) * b.mean_gx);
      const double d = Decode(dtype, dy, row + c);
      abs_gamma[c] += std::fabs(d * b.xh[c]);
      abs_beta[c] += std::fabs(d);
    }
  }
}

double NormwiseError(const std::vector<double>& a, const std::vector<double>& b) {
  double max_err = 0, max_ref = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    max_err = std::fmax(max_err, std::fabs(a[i] - b[i]));
    max_ref = std::fmax(max_ref, std::fabs(b[i]));
  }
  if (max_ref == 0) return max_err;
  return max_err / max_ref;
}

}  // namespace normgrad::reference
