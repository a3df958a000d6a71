// softmax_test_util.h — the oracles and fixtures the SoftMax family's kernel
// tests share (softmax_test.cc, softmaxflashv2_test.cc), written for the tests
// from docs/softmax.md and sharing no code with src/:
//   - the documented float order of one row (DocumentedRowSum, DocExp,
//     DocRowMax), whose bits the kernel must give;
//   - the float64 references and the error bounds of docs/numerics.md
//     ("Activation: softmax");
//   - random rows (uniform, wide ranges, -inf entries), the tiling from the
//     host API, and tensors on a pipe.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace softmax_test {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::RoundToHalf;

constexpr double kU = 1.0 / (1 << 24);  // float's unit roundoff
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// ---- The documented float order ------------------------------------------

// The row sum: the terms folded onto 64 lanes in order (lane j adds term
// 64i + j), then the 64 lanes added by a tree of adjacent pairs.
inline float DocumentedRowSum(const float* v, uint32_t n) {
  std::vector<float> lanes(64, 0.0f);
  for (uint32_t i = 0; i < n; ++i) {
    lanes[i % 64] = i < 64 ? v[i] : v[i] + lanes[i % 64];
  }
  for (uint32_t width = 64; width > 1; width /= 2) {
    for (uint32_t j = 0; j < width / 2; ++j) {
      lanes[j] = lanes[2 * j] + lanes[2 * j + 1];
    }
  }
  return lanes[0];
}

// The vector unit's Exp on float: exp in double, rounded once.
inline float DocExp(float x) {
  return static_cast<float>(std::exp(static_cast<double>(x)));
}

inline float DocRowMax(const float* x, uint32_t n) {
  float m = x[0];
  for (uint32_t j = 1; j < n; ++j) m = std::max(m, x[j]);
  return m;
}

// ---- float64 references and bounds ---------------------------------------

// One row's softmax in double over its first n columns: the max, the sum of
// exp(x - max), and the weighted mean A = Σ p_j (|x_j - max| + 1) of the
// exponentials' relative errors in units of u (docs/numerics.md).
struct RowRef {
  double max;
  double sum;
  double a;
};

inline RowRef ReferenceRow(const float* x, uint32_t n) {
  double m = x[0];
  for (uint32_t j = 1; j < n; ++j) m = std::max(m, double{x[j]});
  double s = 0, w = 0;
  for (uint32_t j = 0; j < n; ++j) {
    const double e = std::exp(double{x[j]} - m);
    s += e;
    if (e > 0) w += e * (std::fabs(double{x[j]} - m) + 1);
  }
  return {m, s, w / s};
}

// Rounds by a 16-bit output: half adds 2^-11 relative and 2^-25 absolute.
inline double WithNarrowing(double ref, double f, bool is_half) {
  if (!is_half) return f;
  return f + std::ldexp(std::fabs(ref) + f, -11) + std::ldexp(1.0, -25);
}

// The bound of a sum of n exponentials: (A + ceil(n/64) + 6)·u relative.
inline double SumBound(const RowRef& r, uint32_t n) {
  return (r.a + std::ceil(n / 64.0) + 6) * kU * r.sum * 1.0001;
}

// The bound of y = exp(x - max) / sum (divide) or exp(x - max) (no
// divide): (|x - max| + 1)u for the exponential, the sum's when divided, one
// more rounding, and float's smallest normal for what underflows.
inline double ProbBound(double ref, double x_minus_max, const RowRef& r,
                        uint32_t n, bool divide) {
  double rel = std::fabs(x_minus_max) + 1;
  if (divide) rel += r.a + std::ceil(n / 64.0) + 6 + 1;
  return rel * kU * std::fabs(ref) * 1.0001 + std::ldexp(1.0, -126);
}

// ---- Data -----------------------------------------------------------------

enum class Fill { kUniform, kWide, kWithNegInf };

// rows × k values (the first ori_k of a row data, the rest 0) representable
// in T: uniform in [-4, 4), wide in [-60, 60), or uniform with about one in
// eight entries -inf (never a whole row).
template <typename T>
std::vector<float> RandomRows(std::mt19937* rng, uint32_t rows, uint32_t k,
                              uint32_t ori_k, Fill fill) {
  const float range = fill == Fill::kWide ? 60.0f : 4.0f;
  std::uniform_real_distribution<float> dist(-range, range);
  std::uniform_int_distribution<int> eighth(0, 7);
  std::vector<float> v(size_t{rows} * k, 0.0f);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < ori_k; ++j) {
      const float x = dist(*rng);
      float value = std::is_same_v<T, half> ? RoundToHalf(x, false) : x;
      if (fill == Fill::kWithNegInf && j != 0 && eighth(*rng) == 0) {
        value = kNegInf;
      }
      v[size_t{r} * k + j] = value;
    }
  }
  return v;
}

template <typename T>
void Write(const LocalTensor<T>& t, const std::vector<float>& v) {
  for (size_t i = 0; i < v.size(); ++i) t.SetValue(i, static_cast<T>(v[i]));
}

template <typename T>
std::vector<float> Read(const LocalTensor<T>& t, size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(t.GetValue(i));
  return v;
}

// The value T holds for the float result v (half: narrowed once).
template <typename T>
float AsStored(float v, bool saturate) {
  return std::is_same_v<T, half> ? RoundToHalf(v, saturate) : v;
}

// Up to ten UB buffers of a pipe, each a VECCALC TBuf of the given bytes
// (0: none).
struct Buffers {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[10];
  explicit Buffers(const std::vector<uint32_t>& bytes) {
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i] == 0) continue;
      pipe.InitBuffer(bufs[i], bytes[i]);
    }
  }
  template <typename T>
  LocalTensor<T> Get(size_t i) {
    return bufs[i].template Get<T>();
  }
};

}  // namespace softmax_test
