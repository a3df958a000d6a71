// layer_norm_test.cc — LayerNormForward and the fused LayerNormBackward
// against the double reference within the bounds derived in docs/numerics.md
// ("Layer norm forward and fused backward"), bit for bit on exact fills, the
// same bits for every thread count, instruction set, store kind, stride and
// in-place use, and every argument error with its message.
//
// Bounds (u = 2^-24, γ(k) = k·u / (1 − k·u), k_s = ⌈H/16⌉ + 4 roundings of a
// 16-lane row sum; μ, v, r, X̂ = (x − μ)·r are the double values):
//   mean      |m − μ| ≤ E_m = γ(k_s + 1) · Σ|x| / H
//   variance  |v̂ − v| ≤ E_v = γ(k_s + 4) · v + 2·E_m²
//   rstd      |r̂ − r| ≤ E_r = r · (E_v / (v + eps) · (1 + γ(3)) + γ(3))
//   y         |ŷ − y| ≤ |gamma|·E_x + γ(2)·(|X̂·gamma| + |gamma|·E_x + |beta|),
//             E_x = E_m·(r + E_r) + |x − μ|·E_r + γ(2)·(|x − μ| + E_m)·(r + E_r)
//   dx        |dx − ref| ≤ γ(k_s + 8) · rstd·(|g| + Σ|g|/H + |X̂|·Σ|g·X̂|/H)
//   pd_gamma  γ(n + 3) · Σ|dy·X̂|,  pd_beta γ(n + 1) · Σ|dy|, n = 256 + ⌈log2 blocks⌉
//             (blocked) or rows (sequential)
// and a 16-bit output adds u16·(|ref| + bound) + 2^-25 (half's subnormals),
// u16 = 2^-11 (half) or 2^-8 (bfloat16). The backward takes mean and rstd as
// given (the reference uses the same values).
//
// To extend: add a shape to kShapes, a thread count to the thread tests, or
// an error case (with the words its message must contain) to the error tests.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels/kernels.h"
#include "normgrad/layer_norm.h"
#include "reference.h"
#include "test_data.h"

namespace {

using normgrad::DType;
using normgrad::Order;
using normgrad::Stores;
using testing::HasSubstr;

constexpr double kU = 1.0 / (1 << 24);
double Gamma(double k) { return k * kU / (1 - k * kU); }
double OutputUlp(DType t) {
  return t == DType::kF32 ? 0.0 : t == DType::kF16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
}
double Subnormal(DType t) { return t == DType::kF16 ? std::ldexp(1.0, -25) : 0.0; }
// Adds the rounding of a 16-bit output to a float bound.
double Narrowed(DType t, double ref, double bound) {
  return bound + OutputUlp(t) * (std::fabs(ref) + bound) + Subnormal(t);
}
double SumLanes(size_t cols) { return std::ceil(cols / 16.0) + 4; }

struct Shape {
  size_t rows, cols;
};
// H = 1 and other widths around the 16-lane sums and 8-lane vectors, the
// widths 48 and 4104, a single row, and a tall-skinny 65536 × 64.
const Shape kShapes[] = {{1, 48},   {5, 1},    {3, 15},   {4, 17},    {257, 48},
                         {2, 4104}, {1, 4104}, {300, 33}, {65536, 64}};

// The inputs of one problem; x has a row offset of 3 so the mean matters.
struct Data {
  testdata::Matrix x, dy, gamma, beta;
};
Data MakeData(DType t, size_t rows, size_t cols, size_t stride = 0) {
  const uint32_t seed = testdata::Seed();
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  const size_t s = stride ? stride : cols;
  return {testdata::Make(t, rows, cols, s, [&] { return 3.0f + 2.0f * dist(rng); }),
          testdata::Normal(t, rows, cols, seed + 1, stride), testdata::Normal(t, 1, cols, seed + 2),
          testdata::Normal(t, 1, cols, seed + 3)};
}

double At(const testdata::Matrix& m, size_t r, size_t c) {
  return normgrad::reference::Decode(m.dtype, m.data(), r * m.stride + c);
}

// Output element i of type `t` (or float) as double.
double Decode(DType t, const std::vector<uint8_t>& bytes, size_t i) {
  return normgrad::reference::Decode(t, bytes.data(), i);
}

struct Forward {
  std::vector<uint8_t> y;  // rows × stride elements of the output type
  std::vector<float> mean, variance, rstd;
};

struct ForwardOptions {
  float eps = 1e-5f;
  int threads = 0;
  Stores stores = Stores::kAuto;
  bool f32_outputs = false;
};

Forward RunForward(const Data& d, const ForwardOptions& o = {}) {
  const DType out = o.f32_outputs ? DType::kF32 : d.x.dtype;
  Forward f{std::vector<uint8_t>(d.x.rows * d.x.stride * normgrad::SizeOf(out), 0xa5),
            std::vector<float>(d.x.rows), std::vector<float>(d.x.rows),
            std::vector<float>(d.x.rows)};
  normgrad::LayerNormForwardProblem p;
  p.dtype = d.x.dtype;
  p.f32_outputs = o.f32_outputs;
  p.rows = d.x.rows;
  p.cols = d.x.cols;
  p.row_stride = d.x.stride;
  p.x = d.x.data();
  p.gamma = d.gamma.data();
  p.beta = d.beta.data();
  p.eps = o.eps;
  p.y = f.y.data();
  p.mean = f.mean.data();
  p.variance = f.variance.data();
  p.rstd = f.rstd.data();
  p.stores = o.stores;
  p.threads = o.threads;
  const normgrad::Status s = normgrad::LayerNormForward(p);
  EXPECT_TRUE(s.ok()) << s.message();
  return f;
}

struct Backward {
  std::vector<uint8_t> dx, pd_gamma, pd_beta;
};

struct BackwardOptions {
  Order order = Order::kBlocked;
  int threads = 0;
  Stores stores = Stores::kAuto;
  bool f32_outputs = false;
  size_t dx_offset = 0;  // elements: dx starts this far into its buffer
  const char* isa = nullptr;
};

Backward RunBackward(const Data& d, const std::vector<float>& mean, const std::vector<float>& rstd,
                     const BackwardOptions& o = {}) {
  const DType out = o.f32_outputs ? DType::kF32 : d.x.dtype;
  const size_t n = normgrad::SizeOf(out);
  Backward b{std::vector<uint8_t>((d.x.rows * d.x.stride + o.dx_offset) * n, 0xa5),
             std::vector<uint8_t>(d.x.cols * n), std::vector<uint8_t>(d.x.cols * n)};
  normgrad::LayerNormBackwardProblem p;
  p.dtype = d.x.dtype;
  p.f32_outputs = o.f32_outputs;
  p.rows = d.x.rows;
  p.cols = d.x.cols;
  p.row_stride = d.x.stride;
  p.x = d.x.data();
  p.dy = d.dy.data();
  p.gamma = d.gamma.data();
  p.mean = mean.data();
  p.rstd = rstd.data();
  p.dx = b.dx.data() + o.dx_offset * n;
  p.pd_gamma = b.pd_gamma.data();
  p.pd_beta = b.pd_beta.data();
  p.order = o.order;
  p.stores = o.stores;
  p.threads = o.threads;
  p.isa = o.isa;
  const normgrad::Status s = normgrad::LayerNormBackward(p);
  EXPECT_TRUE(s.ok()) << s.message();
  b.dx.erase(b.dx.begin(), b.dx.begin() + static_cast<long>(o.dx_offset * n));
  return b;
}

void ExpectForwardWithinBound(const Data& d, float eps) {
  const size_t rows = d.x.rows, cols = d.x.cols;
  const DType t = d.x.dtype;
  std::vector<double> y(rows * cols), mean(rows), variance(rows);
  normgrad::reference::LayerNormForward(t, d.x.data(), d.gamma.data(), d.beta.data(), rows, cols,
                                        d.x.stride, eps, y.data(), mean.data(), variance.data());
  const Forward got = RunForward(d, {eps});
  const double k = SumLanes(cols);
  for (size_t r = 0; r < rows; ++r) {
    double abs_sum = 0;
    for (size_t c = 0; c < cols; ++c) abs_sum += std::fabs(At(d.x, r, c));
    const double e_m = Gamma(k + 1) * abs_sum / static_cast<double>(cols);
    const double v = variance[r];
    const double e_v = Gamma(k + 4) * v + 2 * e_m * e_m;
    const double rstd = 1 / std::sqrt(v + eps);
    ASSERT_LE(e_v / (v + eps), 0.5) << "row " << r;  // where |(1 + ε)^(-1/2) − 1| ≤ |ε|
    const double e_r = rstd * (e_v / (v + eps) * (1 + Gamma(3)) + Gamma(3));
    ASSERT_LE(std::fabs(got.mean[r] - mean[r]), e_m) << "row " << r;
    ASSERT_LE(std::fabs(got.variance[r] - v), e_v) << "row " << r;
    ASSERT_LE(std::fabs(got.rstd[r] - rstd), e_r) << "row " << r;
    for (size_t c = 0; c < cols; ++c) {
      const double centered = std::fabs(At(d.x, r, c) - mean[r]);
      const double gamma = std::fabs(At(d.gamma, 0, c));
      const double e_x =
          e_m * (rstd + e_r) + centered * e_r + Gamma(2) * (centered + e_m) * (rstd + e_r);
      const double bound = gamma * e_x + Gamma(2) * (centered * rstd * gamma + gamma * e_x +
                                                     std::fabs(At(d.beta, 0, c)));
      const double ref = y[r * cols + c];
      ASSERT_LE(std::fabs(Decode(t, got.y, r * d.x.stride + c) - ref), Narrowed(t, ref, bound))
          << "y at row " << r << ", column " << c;
    }
  }
}

void ExpectBackwardWithinBound(const Data& d, Order order) {
  const size_t rows = d.x.rows, cols = d.x.cols;
  const DType t = d.x.dtype;
  const Forward f = RunForward(d);
  const std::vector<double> mean(f.mean.begin(), f.mean.end());
  const std::vector<double> rstd(f.rstd.begin(), f.rstd.end());
  std::vector<double> dx(rows * cols), pd_gamma(cols), pd_beta(cols);
  std::vector<double> dx_scale(rows * cols), abs_gamma(cols), abs_beta(cols);
  normgrad::reference::LayerNormBackward(t, d.x.data(), d.dy.data(), d.gamma.data(), mean.data(),
                                         rstd.data(), rows, cols, d.x.stride, dx.data(),
                                         pd_gamma.data(), pd_beta.data());
  normgrad::reference::LayerNormBackwardScales(t, d.x.data(), d.dy.data(), d.gamma.data(),
                                               mean.data(), rstd.data(), rows, cols, d.x.stride,
                                               dx_scale.data(), abs_gamma.data(), abs_beta.data());
  BackwardOptions options;
  options.order = order;
  const Backward got = RunBackward(d, f.mean, f.rstd, options);
  const double k_dx = Gamma(SumLanes(cols) + 8);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const double ref = dx[r * cols + c];
      ASSERT_LE(std::fabs(Decode(t, got.dx, r * d.x.stride + c) - ref),
                Narrowed(t, ref, k_dx * dx_scale[r * cols + c]))
          << "dx at row " << r << ", column " << c;
    }
  }
  const size_t blocks = (rows + 255) / 256;
  const double n = order == Order::kSequential
                       ? static_cast<double>(rows)
                       : 256 + (blocks > 1 ? std::ceil(std::log2(static_cast<double>(blocks))) : 0);
  for (size_t c = 0; c < cols; ++c) {
    ASSERT_LE(std::fabs(Decode(t, got.pd_gamma, c) - pd_gamma[c]),
              Narrowed(t, pd_gamma[c], Gamma(n + 3) * abs_gamma[c]))
        << "pd_gamma column " << c;
    ASSERT_LE(std::fabs(Decode(t, got.pd_beta, c) - pd_beta[c]),
              Narrowed(t, pd_beta[c], Gamma(n + 1) * abs_beta[c]))
        << "pd_beta column " << c;
  }
}

class LayerNormTypes : public testing::TestWithParam<DType> {};

TEST_P(LayerNormTypes, ForwardWithinDerivedBoundOfDoubleReference) {
  for (const Shape& s : kShapes) {
    for (float eps : {1e-5f, 0.5f}) {
      SCOPED_TRACE(testing::Message()
                   << s.rows << "x" << s.cols << " eps " << eps << " seed " << testdata::Seed());
      ExpectForwardWithinBound(MakeData(GetParam(), s.rows, s.cols), eps);
    }
  }
}

TEST_P(LayerNormTypes, BackwardWithinDerivedBoundOfDoubleReference) {
  for (const Shape& s : kShapes) {
    for (Order order : {Order::kBlocked, Order::kSequential}) {
      SCOPED_TRACE(testing::Message()
                   << s.rows << "x" << s.cols << " " << normgrad::OrderName(order) << " seed "
                   << testdata::Seed());
      ExpectBackwardWithinBound(MakeData(GetParam(), s.rows, s.cols), order);
    }
  }
}

// Rows m ± a (as many of each, shuffled), a a power of two, eps = 0: the
// mean m, variance a², rstd 1/a and x̂ = ±1 are exact, and so is every sum
// of small integers after them.
Data ExactData(DType t, size_t rows, size_t cols) {
  std::mt19937 rng(testdata::Seed());
  std::uniform_int_distribution<int> small(-4, 4);
  Data d = MakeData(t, rows, cols);
  for (size_t r = 0; r < rows; ++r) {
    const float m = static_cast<float>(small(rng));
    const float a = std::ldexp(1.0f, small(rng) % 2);  // 0.5, 1 or 2
    std::vector<float> row(cols);
    for (size_t c = 0; c < cols; ++c) row[c] = c % 2 ? m + a : m - a;
    std::shuffle(row.begin(), row.end(), rng);
    for (size_t c = 0; c < cols; ++c) testdata::Store(t, d.x.bytes.data(), r * cols + c, row[c]);
  }
  auto integers = [&] { return static_cast<float>(small(rng)); };
  d.dy = testdata::Make(t, rows, cols, cols, integers);
  d.gamma = testdata::Make(t, 1, cols, cols, integers);
  d.beta = testdata::Make(t, 1, cols, cols, integers);
  return d;
}

TEST_P(LayerNormTypes, ExactFillsEqualTheReferenceBitForBit) {
  // H = 64: the row means of g and g·x̂ (integers ÷ 64) are exact too. The
  // backward's outputs are asked for in float, where every value is exact.
  const DType t = GetParam();
  const size_t rows = 700, cols = 64;
  const Data d = ExactData(t, rows, cols);
  std::vector<double> y(rows * cols), mean(rows), variance(rows);
  normgrad::reference::LayerNormForward(t, d.x.data(), d.gamma.data(), d.beta.data(), rows, cols,
                                        cols, 0.0, y.data(), mean.data(), variance.data());
  const Forward f = RunForward(d, {0.0f});
  for (size_t r = 0; r < rows; ++r) {
    ASSERT_EQ(f.mean[r], mean[r]) << r;
    ASSERT_EQ(f.variance[r], variance[r]) << r;
    ASSERT_EQ(f.rstd[r], 1 / std::sqrt(variance[r])) << r;
    for (size_t c = 0; c < cols; ++c) {
      ASSERT_EQ(Decode(t, f.y, r * cols + c), y[r * cols + c]) << r << ", " << c;
    }
  }
  const std::vector<double> mean64(f.mean.begin(), f.mean.end());
  const std::vector<double> rstd64(f.rstd.begin(), f.rstd.end());
  std::vector<double> dx(rows * cols), pd_gamma(cols), pd_beta(cols);
  normgrad::reference::LayerNormBackward(t, d.x.data(), d.dy.data(), d.gamma.data(), mean64.data(),
                                         rstd64.data(), rows, cols, cols, dx.data(),
                                         pd_gamma.data(), pd_beta.data());
  for (Order order : {Order::kBlocked, Order::kSequential}) {
    BackwardOptions o;
    o.order = order;
    o.f32_outputs = true;
    const Backward b = RunBackward(d, f.mean, f.rstd, o);
    for (size_t i = 0; i < rows * cols; ++i) ASSERT_EQ(Decode(DType::kF32, b.dx, i), dx[i]) << i;
    for (size_t c = 0; c < cols; ++c) {
      EXPECT_EQ(Decode(DType::kF32, b.pd_gamma, c), pd_gamma[c]) << c;
      EXPECT_EQ(Decode(DType::kF32, b.pd_beta, c), pd_beta[c]) << c;
    }
  }
}

TEST_P(LayerNormTypes, SameBitsForEveryThreadCount) {
  // 3000 rows: 12 blocks (the last partial), enough bytes for 8 threads in
  // float (ThreadsFor: 1 MiB per extra thread).
  const Data d = MakeData(GetParam(), 3000, 520);
  const Forward f1 = RunForward(d, {1e-5f, 1});
  BackwardOptions o;
  o.threads = 1;
  const Backward b1 = RunBackward(d, f1.mean, f1.rstd, o);
  for (int threads : {2, 3, 8}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    const Forward f = RunForward(d, {1e-5f, threads});
    EXPECT_GT(normgrad::LastLayerNormRunInfo().threads, 1);
    EXPECT_EQ(f.y, f1.y);
    EXPECT_EQ(f.mean, f1.mean);
    EXPECT_EQ(f.variance, f1.variance);
    EXPECT_EQ(f.rstd, f1.rstd);
    o.threads = threads;
    const Backward b = RunBackward(d, f1.mean, f1.rstd, o);
    EXPECT_GT(normgrad::LastLayerNormRunInfo().threads, 1);
    EXPECT_EQ(b.dx, b1.dx);
    EXPECT_EQ(b.pd_gamma, b1.pd_gamma);
    EXPECT_EQ(b.pd_beta, b1.pd_beta);
  }
}

TEST_P(LayerNormTypes, BlockedSumsBitExactToTheLiteralOrder) {
  // pd_gamma and pd_beta of the blocked order written out literally: terms
  // fl(dy·x̂), x̂ = fl(fl(x − mean)·rstd), 256-row blocks summed row after row
  // from zero, partials combined by partial[i] = partial[i] + partial[i + s]
  // for s = 1, 2, 4, …, narrowed once. 38 blocks (the last partial): on one
  // thread the blocks go out in subtrees of several.
  const DType t = GetParam();
  const size_t rows = 256 * 37 + 100, cols = 24, blocks = 38;
  const Data d = MakeData(t, rows, cols);
  const Forward f = RunForward(d);
  std::vector<std::vector<float>> gamma(blocks, std::vector<float>(cols)), beta = gamma;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const float x = static_cast<float>(At(d.x, r, c));
      const float dy = static_cast<float>(At(d.dy, r, c));
      const float centered = x - f.mean[r];
      const float xh = centered * f.rstd[r];
      const float term = dy * xh;
      gamma[r / 256][c] = gamma[r / 256][c] + term;
      beta[r / 256][c] = beta[r / 256][c] + dy;
    }
  }
  for (size_t s = 1; s < blocks; s *= 2) {
    for (size_t i = 0; i + s < blocks; i += 2 * s) {
      for (size_t c = 0; c < cols; ++c) {
        gamma[i][c] = gamma[i][c] + gamma[i + s][c];
        beta[i][c] = beta[i][c] + beta[i + s][c];
      }
    }
  }
  std::vector<uint8_t> want_gamma(cols * normgrad::SizeOf(t)), want_beta = want_gamma;
  for (size_t c = 0; c < cols; ++c) {
    testdata::Store(t, want_gamma.data(), c, gamma[0][c]);
    testdata::Store(t, want_beta.data(), c, beta[0][c]);
  }
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    BackwardOptions o;
    o.threads = threads;
    const Backward b = RunBackward(d, f.mean, f.rstd, o);
    EXPECT_EQ(b.pd_gamma, want_gamma);
    EXPECT_EQ(b.pd_beta, want_beta);
  }
}

TEST_P(LayerNormTypes, DxBitExactToTheLiteralFusedFormula) {
  // dx written out literally with its fused multiply-adds (std::fma, one
  // rounding): x̂ = fl(fl(x − mean)·rstd), g = fl(dy·gamma); 16-lane sums
  // lane = fl(lane + g) and lane = fma(g, x̂, lane), folded by the fixed tree
  // and divided by H; dx = fl(rstd·fma(−x̂, c, fma(dy, gamma, −ḡ))).
  // Every instruction set must give these bits. The same formula with every
  // product rounded on its own gives other bits on these inputs (checked
  // below), so the test tells the two apart. Widths with a vector tail.
  const DType t = GetParam();
  for (size_t cols : {203, 4104}) {
    const size_t rows = 6;
    const Data d = MakeData(t, rows, cols);
    const Forward f = RunForward(d);
    std::vector<float> want(rows * cols), unfused(rows * cols);
    for (size_t r = 0; r < rows; ++r) {
      std::vector<float> x(cols), dy(cols), gamma(cols), xh(cols);
      std::vector<float> lanes_g(16), lanes_gx(16), plain_gx(16);
      for (size_t c = 0; c < cols; ++c) {
        x[c] = static_cast<float>(At(d.x, r, c));
        dy[c] = static_cast<float>(At(d.dy, r, c));
        gamma[c] = static_cast<float>(At(d.gamma, 0, c));
        xh[c] = (x[c] - f.mean[r]) * f.rstd[r];
        const float g = dy[c] * gamma[c];
        lanes_g[c % 16] = lanes_g[c % 16] + g;
        lanes_gx[c % 16] = std::fma(g, xh[c], lanes_gx[c % 16]);
        plain_gx[c % 16] = plain_gx[c % 16] + g * xh[c];
      }
      const float h = static_cast<float>(cols);
      const float mean_g = testdata::LiteralTreeSum(lanes_g) / h,
                  mean_gx = testdata::LiteralTreeSum(lanes_gx) / h;
      const float plain_mean_gx = testdata::LiteralTreeSum(plain_gx) / h;
      for (size_t c = 0; c < cols; ++c) {
        const float centered = std::fma(dy[c], gamma[c], -mean_g);
        want[r * cols + c] = f.rstd[r] * std::fma(-xh[c], mean_gx, centered);
        unfused[r * cols + c] = f.rstd[r] * ((dy[c] * gamma[c] - mean_g) - xh[c] * plain_mean_gx);
      }
    }
    ASSERT_NE(want, unfused) << "H " << cols << ": inputs where fusing changes no bit";
    for (const normgrad::kernels::Isa& isa : normgrad::kernels::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << " H " << cols);
      BackwardOptions o;
      o.f32_outputs = true;
      o.isa = isa.name;
      const Backward b = RunBackward(d, f.mean, f.rstd, o);
      size_t differ = 0;
      for (size_t i = 0; i < rows * cols; ++i) {
        differ += Decode(DType::kF32, b.dx, i) != static_cast<double>(want[i]);
      }
      EXPECT_EQ(differ, 0u) << "of " << rows * cols << " dx elements";
    }
  }
}

TEST_P(LayerNormTypes, StridesGiveTheDenseBitsAndLeaveThePaddingAlone) {
  const size_t rows = 40, cols = 37, stride = 53;
  const Data padded = MakeData(GetParam(), rows, cols, stride);
  Data dense = padded;
  for (testdata::Matrix* m : {&dense.x, &dense.dy}) {
    testdata::Matrix packed{m->dtype, rows, cols, cols,
                            std::vector<uint8_t>(rows * cols * normgrad::SizeOf(m->dtype))};
    const size_t n = normgrad::SizeOf(m->dtype);
    for (size_t r = 0; r < rows; ++r) {
      std::memcpy(packed.bytes.data() + r * cols * n, m->bytes.data() + r * stride * n, cols * n);
    }
    *m = packed;
  }
  const Forward fp = RunForward(padded), fd = RunForward(dense);
  const Backward bp = RunBackward(padded, fp.mean, fp.rstd);
  const Backward bd = RunBackward(dense, fd.mean, fd.rstd);
  EXPECT_EQ(fp.mean, fd.mean);
  EXPECT_EQ(fp.rstd, fd.rstd);
  EXPECT_EQ(bp.pd_gamma, bd.pd_gamma);
  EXPECT_EQ(bp.pd_beta, bd.pd_beta);
  const size_t n = normgrad::SizeOf(GetParam());
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < stride; ++c) {
      for (size_t byte = 0; byte < n; ++byte) {
        const size_t i = (r * stride + c) * n + byte;
        if (c < cols) {
          ASSERT_EQ(fp.y[i], fd.y[(r * cols + c) * n + byte]) << r << ", " << c;
          ASSERT_EQ(bp.dx[i], bd.dx[(r * cols + c) * n + byte]) << r << ", " << c;
        } else {  // padding: the fill RunForward/RunBackward put there
          ASSERT_EQ(fp.y[i], 0xa5) << r << ", " << c;
          ASSERT_EQ(bp.dx[i], 0xa5) << r << ", " << c;
        }
      }
    }
  }
}

TEST_P(LayerNormTypes, StreamingStoresGiveThePlainBits) {
  // dx offset by 0–3 elements: streaming needs aligned vectors, so each row
  // starts with a scalar head of a different length.
  const Data d = MakeData(GetParam(), 33, 203);
  ForwardOptions fo;
  fo.stores = Stores::kPlain;
  const Forward plain_f = RunForward(d, fo);
  fo.stores = Stores::kStreaming;
  EXPECT_EQ(RunForward(d, fo).y, plain_f.y);
  for (size_t offset : {0, 1, 2, 3}) {
    for (bool f32 : {false, true}) {
      BackwardOptions o;
      o.f32_outputs = f32;
      o.dx_offset = offset;
      o.stores = Stores::kPlain;
      const Backward plain = RunBackward(d, plain_f.mean, plain_f.rstd, o);
      o.stores = Stores::kStreaming;
      const Backward streamed = RunBackward(d, plain_f.mean, plain_f.rstd, o);
      EXPECT_EQ(streamed.dx, plain.dx) << offset << (f32 ? " f32" : "");
      EXPECT_EQ(streamed.pd_gamma, plain.pd_gamma);
    }
  }
}

TEST_P(LayerNormTypes, FloatOutputsNarrowToTheTypedOutputs) {
  const DType t = GetParam();
  const Data d = MakeData(t, 20, 100);
  ForwardOptions fo;
  const Forward typed_f = RunForward(d, fo);
  fo.f32_outputs = true;
  const Forward float_f = RunForward(d, fo);
  BackwardOptions o;
  const Backward typed = RunBackward(d, typed_f.mean, typed_f.rstd, o);
  o.f32_outputs = true;
  const Backward as_float = RunBackward(d, typed_f.mean, typed_f.rstd, o);
  auto narrowed = [t](const std::vector<uint8_t>& floats) {
    std::vector<uint8_t> out(floats.size() / 4 * normgrad::SizeOf(t));
    for (size_t i = 0; i < floats.size() / 4; ++i) {
      float v;
      std::memcpy(&v, floats.data() + 4 * i, 4);
      testdata::Store(t, out.data(), i, v);
    }
    return out;
  };
  EXPECT_EQ(narrowed(float_f.y), typed_f.y);
  EXPECT_EQ(narrowed(as_float.dx), typed.dx);
  EXPECT_EQ(narrowed(as_float.pd_gamma), typed.pd_gamma);
  EXPECT_EQ(narrowed(as_float.pd_beta), typed.pd_beta);
}

TEST_P(LayerNormTypes, InPlaceAndVarianceInputGiveTheSameBits) {
  const DType t = GetParam();
  const Data d = MakeData(t, 300, 70);
  const Forward f = RunForward(d);
  const Backward want = RunBackward(d, f.mean, f.rstd);

  // y over x.
  Data in_place = d;
  normgrad::LayerNormForwardProblem fp;
  fp.dtype = t;
  fp.rows = 300;
  fp.cols = 70;
  fp.x = in_place.x.bytes.data();
  fp.gamma = d.gamma.data();
  fp.beta = d.beta.data();
  fp.y = in_place.x.bytes.data();
  ASSERT_TRUE(normgrad::LayerNormForward(fp).ok());
  EXPECT_EQ(in_place.x.bytes, f.y);

  // dx over dy, then over x; and rstd from variance + eps.
  for (int target : {0, 1}) {
    Data b = d;
    std::vector<uint8_t> pd_gamma(want.pd_gamma.size()), pd_beta(want.pd_beta.size());
    normgrad::LayerNormBackwardProblem p;
    p.dtype = t;
    p.rows = 300;
    p.cols = 70;
    p.x = b.x.data();
    p.dy = b.dy.data();
    p.gamma = b.gamma.data();
    p.mean = f.mean.data();
    p.variance = f.variance.data();
    p.eps = 1e-5f;
    p.dx = target == 0 ? b.dy.bytes.data() : b.x.bytes.data();
    p.pd_gamma = pd_gamma.data();
    p.pd_beta = pd_beta.data();
    const normgrad::Status s = normgrad::LayerNormBackward(p);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(target == 0 ? b.dy.bytes : b.x.bytes, want.dx) << target;
    EXPECT_EQ(pd_gamma, want.pd_gamma);
    EXPECT_EQ(pd_beta, want.pd_beta);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, LayerNormTypes,
                         testing::Values(DType::kF32, DType::kF16, DType::kBF16),
                         testdata::TypeName<testing::TestParamInfo<DType>>);

TEST(LayerNorm, EveryInstructionSetGivesTheSameBits) {
  // The kernels of every available instruction set called directly, against
  // the scalar ones, at widths around the vector and lane sizes.
  const auto& isas = normgrad::kernels::Isas();
  const normgrad::kernels::Isa& scalar = isas.back();
  for (const normgrad::kernels::Isa& isa : isas) {
    if (!isa.available() || &isa == &scalar) continue;
    for (DType t : {DType::kF32, DType::kF16, DType::kBF16}) {
      for (size_t cols : {1, 7, 8, 15, 16, 17, 33, 48, 203, 4104}) {
        for (bool stream : {false, true}) {
          SCOPED_TRACE(testing::Message() << isa.name << " " << normgrad::DTypeName(t) << " H "
                                          << cols << (stream ? " streaming" : ""));
          const size_t rows = 5, n = rows * cols;
          const Data d = MakeData(t, rows, cols);
          std::vector<float> gamma(cols), beta(cols);
          for (size_t c = 0; c < cols; ++c) {
            gamma[c] = static_cast<float>(At(d.gamma, 0, c));
            beta[c] = static_cast<float>(At(d.beta, 0, c));
          }
          auto forward = [&](const normgrad::kernels::Isa& k, std::vector<uint8_t>& y,
                             std::vector<float>& stats) {
            y.assign(n * normgrad::SizeOf(t), 0);
            stats.assign(3 * rows, 0.0f);
            const normgrad::kernels::LayerNormForwardArgs a{d.x.data(),
                                                            gamma.data(),
                                                            beta.data(),
                                                            1e-5f,
                                                            cols,
                                                            rows,
                                                            cols,
                                                            y.data(),
                                                            false,
                                                            stream,
                                                            stats.data(),
                                                            stats.data() + rows,
                                                            stats.data() + 2 * rows};
            (t == DType::kF32   ? k.layer_norm.forward_f32
             : t == DType::kF16 ? k.layer_norm.forward_f16
                                : k.layer_norm.forward_bf16)(a);
          };
          std::vector<uint8_t> y_isa, y_scalar;
          std::vector<float> stats_isa, stats_scalar;
          forward(isa, y_isa, stats_isa);
          forward(scalar, y_scalar, stats_scalar);
          EXPECT_EQ(y_isa, y_scalar);
          EXPECT_EQ(stats_isa, stats_scalar);

          auto backward = [&](const normgrad::kernels::Isa& k, std::vector<uint8_t>& dx,
                              std::vector<float>& acc) {
            dx.assign(n * normgrad::SizeOf(t), 0);
            acc.assign(2 * cols, 0.0f);
            const normgrad::kernels::LayerNormBackwardArgs a{d.x.data(),
                                                             d.dy.data(),
                                                             gamma.data(),
                                                             stats_scalar.data(),
                                                             stats_scalar.data() + 2 * rows,
                                                             cols,
                                                             rows,
                                                             cols,
                                                             dx.data(),
                                                             false,
                                                             stream,
                                                             acc.data(),
                                                             acc.data() + cols};
            (t == DType::kF32   ? k.layer_norm.backward_f32
             : t == DType::kF16 ? k.layer_norm.backward_f16
                                : k.layer_norm.backward_bf16)(a);
          };
          std::vector<uint8_t> dx_isa, dx_scalar;
          std::vector<float> acc_isa, acc_scalar;
          backward(isa, dx_isa, acc_isa);
          backward(scalar, dx_scalar, acc_scalar);
          EXPECT_EQ(dx_isa, dx_scalar);
          EXPECT_EQ(acc_isa, acc_scalar);
        }
      }
    }
  }
}

TEST(LayerNorm, ZeroRowsGiveZeroSums) {
  float gamma[4] = {1, 2, 3, 4}, pd_gamma[4] = {9, 9, 9, 9}, pd_beta[4] = {9, 9, 9, 9};
  normgrad::LayerNormBackwardProblem p;
  p.cols = 4;
  p.gamma = gamma;
  p.pd_gamma = pd_gamma;
  p.pd_beta = pd_beta;
  for (Order order : {Order::kBlocked, Order::kSequential}) {
    p.order = order;
    ASSERT_TRUE(normgrad::LayerNormBackward(p).ok());
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(pd_gamma[c], 0.0f);
      EXPECT_EQ(pd_beta[c], 0.0f);
    }
  }
}

TEST(LayerNorm, ForcedImplementationRuns) {
  const char* forced = std::getenv("NORMGRAD_IMPL");
  const Data d = MakeData(DType::kF32, 4, 8);
  const Forward f = RunForward(d);
  const std::string forward = normgrad::LastLayerNormRunInfo().impl;
  EXPECT_EQ(forward.substr(0, forward.find(':')), "forward");
  RunBackward(d, f.mean, f.rstd);
  const std::string backward = normgrad::LastLayerNormRunInfo().impl;
  EXPECT_EQ(backward.substr(0, backward.find(':')), "blocked");
  if (forced && *forced) {
    EXPECT_EQ(forward.substr(forward.rfind(':') + 1), forced);
    EXPECT_EQ(backward.substr(backward.rfind(':') + 1), forced);
  }
}

// Argument errors: each case breaks one rule of a valid problem and names
// the words the message must contain.
struct Valid {
  std::vector<float> x = std::vector<float>(8 * 16, 1.0f), dy = x, gamma = std::vector<float>(16),
                     beta = gamma, out = x, stats = std::vector<float>(8), pd_gamma = gamma,
                     pd_beta = gamma;
  std::vector<uint16_t> half = std::vector<uint16_t>(8 * 16);

  normgrad::LayerNormForwardProblem Forward() {
    normgrad::LayerNormForwardProblem p;
    p.rows = 8;
    p.cols = 16;
    p.x = x.data();
    p.gamma = gamma.data();
    p.beta = beta.data();
    p.y = out.data();
    p.mean = stats.data();
    return p;
  }
  normgrad::LayerNormBackwardProblem Backward() {
    normgrad::LayerNormBackwardProblem p;
    p.rows = 8;
    p.cols = 16;
    p.x = x.data();
    p.dy = dy.data();
    p.gamma = gamma.data();
    p.mean = stats.data();
    p.rstd = stats.data();
    p.dx = out.data();
    p.pd_gamma = pd_gamma.data();
    p.pd_beta = pd_beta.data();
    return p;
  }
};

void ExpectError(const normgrad::Status& s, const std::vector<std::string>& words) {
  ASSERT_FALSE(s.ok());
  for (const std::string& w : words) EXPECT_THAT(s.message(), HasSubstr(w));
}

TEST(LayerNorm, ForwardArgumentErrorsNameTheArgumentValueAndRule) {
  using P = normgrad::LayerNormForwardProblem;
  const std::vector<std::pair<std::function<void(P&, Valid&)>, std::vector<std::string>>> cases = {
      {[](P& p, Valid&) { p.dtype = static_cast<DType>(7); },
       {"LayerNormForward: ", "dtype 7", "not float, half or bfloat16"}},
      {[](P& p, Valid&) { p.cols = 0; }, {"cols is 0", "at least 1"}},
      {[](P& p, Valid&) { p.row_stride = 15; }, {"row_stride 15 is less than cols 16"}},
      {[](P& p, Valid&) { p.rows = size_t{1} << 62; }, {"overflows the address space"}},
      {[](P& p, Valid&) { p.threads = -1; }, {"threads -1 is negative"}},
      {[](P& p, Valid&) { p.x = nullptr; }, {"x is null with rows 8"}},
      {[](P& p, Valid&) { p.gamma = nullptr; }, {"gamma is null"}},
      {[](P& p, Valid&) { p.beta = nullptr; }, {"beta is null"}},
      {[](P& p, Valid&) { p.y = p.mean = nullptr; },
       {"y, mean, variance and rstd are all null", "nothing to compute"}},
      {[](P& p, Valid& v) {
         p.dtype = DType::kF16;
         p.f32_outputs = true;
         p.x = p.y = v.half.data();
       },
       {"y is the same buffer as x", "y is float and x is half", "same type"}},
      {[](P& p, Valid&) { p.eps = -1.0f; }, {"eps -1 is negative", "finite and at least 0"}},
      {[](P& p, Valid&) { p.eps = NAN; }, {"eps nan is not finite"}},
      {[](P& p, Valid&) { p.eps = INFINITY; }, {"eps inf is not finite"}},
  };
  for (const auto& [breaks, words] : cases) {
    Valid v;
    P p = v.Forward();
    ASSERT_TRUE(normgrad::LayerNormForward(p).ok());
    breaks(p, v);
    SCOPED_TRACE(words.back());
    ExpectError(normgrad::LayerNormForward(p), words);
  }
}

TEST(LayerNorm, BackwardArgumentErrorsNameTheArgumentValueAndRule) {
  using P = normgrad::LayerNormBackwardProblem;
  const std::vector<std::pair<std::function<void(P&, Valid&)>, std::vector<std::string>>> cases = {
      {[](P& p, Valid&) { p.dtype = static_cast<DType>(9); },
       {"LayerNormBackward: ", "dtype 9", "not float, half or bfloat16"}},
      {[](P& p, Valid&) { p.cols = 0; }, {"cols is 0"}},
      {[](P& p, Valid&) { p.row_stride = 3; }, {"row_stride 3 is less than cols 16"}},
      {[](P& p, Valid&) { p.rows = size_t{1} << 62; }, {"overflows the address space"}},
      {[](P& p, Valid&) { p.threads = -2; }, {"threads -2 is negative"}},
      {[](P& p, Valid&) { p.x = nullptr; }, {"x is null with rows 8"}},
      {[](P& p, Valid&) { p.dy = nullptr; }, {"dy is null with rows 8"}},
      {[](P& p, Valid&) { p.mean = nullptr; }, {"mean is null with rows 8"}},
      {[](P& p, Valid&) { p.dx = nullptr; }, {"dx is null with rows 8"}},
      {[](P& p, Valid&) { p.rstd = nullptr; },
       {"rstd and variance are both null with rows 8", "variance and eps"}},
      {[](P& p, Valid& v) { p.variance = v.stats.data(); },
       {"rstd and variance are both set", "pass one of them"}},
      {[](P& p, Valid&) { p.gamma = nullptr; }, {"gamma is null"}},
      {[](P& p, Valid&) { p.pd_gamma = nullptr; }, {"pd_gamma is null"}},
      {[](P& p, Valid&) { p.pd_beta = nullptr; }, {"pd_beta is null"}},
      {[](P& p, Valid&) { p.pd_beta = p.pd_gamma; }, {"pd_gamma and pd_beta are the same buffer"}},
      {[](P& p, Valid&) { p.order = static_cast<Order>(5); },
       {"order 5 is not sequential or blocked"}},
      {[](P& p, Valid& v) {
         p.dtype = DType::kBF16;
         p.f32_outputs = true;
         p.x = p.dx = v.half.data();
       },
       {"dx is the same buffer as x", "dx is float and x is bfloat16"}},
      {[](P& p, Valid& v) {
         p.dtype = DType::kF16;
         p.f32_outputs = true;
         p.dy = p.dx = v.half.data();
       },
       {"dx is the same buffer as dy", "dx is float and dy is half"}},
      {[](P& p, Valid& v) {
         p.rstd = nullptr;
         p.variance = v.stats.data();
         p.eps = -0.5f;
       },
       {"eps -0.5 is negative"}},
  };
  for (const auto& [breaks, words] : cases) {
    Valid v;
    P p = v.Backward();
    ASSERT_TRUE(normgrad::LayerNormBackward(p).ok());
    breaks(p, v);
    SCOPED_TRACE(words.back());
    ExpectError(normgrad::LayerNormBackward(p), words);
  }
  // eps is not looked at when rstd is given.
  Valid v;
  P p = v.Backward();
  p.eps = NAN;
  EXPECT_TRUE(normgrad::LayerNormBackward(p).ok());
}

}  // namespace
