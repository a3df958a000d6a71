// rms_norm_test.cc — RmsNormForward and the fused RmsNormBackward against a
// float64 reference written here, within the bounds derived in
// docs/numerics.md ("RMS norm forward and fused backward"); bit for bit on
// exact fills and against dgamma's blocked order written out literally; the
// same bits for every thread count, instruction set, store kind, stride and
// in-place use; and every argument error with its whole message.
//
// Bounds (u = 2^-24, γ(k) = k·u / (1 − k·u), k_s = ⌈H/16⌉ + 4 roundings of a
// 16-lane row sum; Q = Σ x² / H, r = 1/√(Q + eps) are the double values):
//   rstd    |r̂ − r| ≤ E_r = r · (γ(k_s + 2) · (1 + γ(3)) + γ(3))
//   y       |ŷ − y| ≤ |x·gamma| · (E_r + γ(2) · (r + E_r))
//   dx      |dx − ref| ≤ γ(k_s + 6) · rstd · (|G| + |x·rstd| · Σ|G·x·rstd| / H),  G = dy·gamma
//   dgamma  γ(n + 2) · Σ|dy·x·rstd|,  n = 256 + ⌈log2 blocks⌉ (blocked) or rows (sequential)
// and a 16-bit output adds u16·(|ref| + bound) + 2^-25 (half's subnormals),
// u16 = 2^-11 (half) or 2^-8 (bfloat16). The backward takes rstd as given
// (the reference uses the same values).
//
// To extend: add a shape to kShapes, a thread count to the thread test, or an
// error case (with its message) to the error tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kernels/kernels.h"
#include "normgrad/float16.h"
#include "normgrad/rms_norm.h"
#include "reference.h"
#include "test_data.h"

namespace {

using normgrad::DType;
using normgrad::Order;
using normgrad::Stores;

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
// Widths 1, 7, 33 and above 1000 (around the 16-lane sums and the vectors),
// a single row, a partial last block (257 rows) and a tall-skinny 65536 × 64.
const Shape kShapes[] = {{1, 1},    {5, 1},    {1, 7},    {3, 7},    {300, 33},  {1, 33},
                         {257, 48}, {2, 1000}, {3, 1031}, {1, 4104}, {65536, 64}};

struct Data {
  testdata::Matrix x, dy, gamma;
};
Data MakeData(DType t, size_t rows, size_t cols, size_t stride = 0) {
  const uint32_t seed = testdata::Seed();
  return {testdata::Normal(t, rows, cols, seed, stride),
          testdata::Normal(t, rows, cols, seed + 1, stride),
          testdata::Normal(t, 1, cols, seed + 2)};
}

double At(const testdata::Matrix& m, size_t r, size_t c) {
  return normgrad::reference::Decode(m.dtype, m.data(), r * m.stride + c);
}

// Output element i of type `t` as double.
double Decode(DType t, const std::vector<uint8_t>& bytes, size_t i) {
  return normgrad::reference::Decode(t, bytes.data(), i);
}

// The float64 reference: the formulas of include/normgrad/rms_norm.h on the
// decoded inputs, plain loops.
struct RefForward {
  std::vector<double> mean_square, rstd, y;
};
RefForward ReferenceForward(const Data& d, double eps) {
  const size_t rows = d.x.rows, cols = d.x.cols;
  RefForward f{std::vector<double>(rows), std::vector<double>(rows),
               std::vector<double>(rows * cols)};
  for (size_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (size_t c = 0; c < cols; ++c) sum += At(d.x, r, c) * At(d.x, r, c);
    f.mean_square[r] = sum / static_cast<double>(cols);
    f.rstd[r] = 1 / std::sqrt(f.mean_square[r] + eps);
    for (size_t c = 0; c < cols; ++c) {
      f.y[r * cols + c] = At(d.x, r, c) * f.rstd[r] * At(d.gamma, 0, c);
    }
  }
  return f;
}

// dx and dgamma with the given rstd, and the scales of their bounds:
// dx_scale = rstd·(|G| + |x·rstd|·Σ|G·x·rstd|/H), dgamma_scale = Σ|dy·x·rstd|.
struct RefBackward {
  std::vector<double> dx, dgamma, dx_scale, dgamma_scale;
};
RefBackward ReferenceBackward(const Data& d, const std::vector<float>& rstd) {
  const size_t rows = d.x.rows, cols = d.x.cols;
  const double h = static_cast<double>(cols);
  RefBackward b{std::vector<double>(rows * cols), std::vector<double>(cols),
                std::vector<double>(rows * cols), std::vector<double>(cols)};
  for (size_t r = 0; r < rows; ++r) {
    const double rs = rstd[r];
    double sum_gx = 0, sum_abs_gx = 0;
    for (size_t c = 0; c < cols; ++c) {
      const double g = At(d.dy, r, c) * At(d.gamma, 0, c);
      sum_gx += g * At(d.x, r, c);
      sum_abs_gx += std::fabs(g * At(d.x, r, c) * rs);
    }
    for (size_t c = 0; c < cols; ++c) {
      const double x = At(d.x, r, c), dy = At(d.dy, r, c);
      const double g = dy * At(d.gamma, 0, c);
      b.dx[r * cols + c] = rs * (g - x * rs * rs * sum_gx / h);
      b.dx_scale[r * cols + c] = rs * (std::fabs(g) + std::fabs(x * rs) * sum_abs_gx / h);
      b.dgamma[c] += dy * x * rs;
      b.dgamma_scale[c] += std::fabs(dy * x * rs);
    }
  }
  return b;
}

struct Forward {
  std::vector<uint8_t> y;  // rows × stride elements of the output type
  std::vector<float> rstd;
};

struct ForwardOptions {
  float eps = 1e-6f;
  int threads = 0;
  Stores stores = Stores::kAuto;
  bool f32_outputs = false;
  const char* isa = nullptr;
};

Forward RunForward(const Data& d, const ForwardOptions& o = {}) {
  const DType out = o.f32_outputs ? DType::kF32 : d.x.dtype;
  Forward f{std::vector<uint8_t>(d.x.rows * d.x.stride * normgrad::SizeOf(out), 0xa5),
            std::vector<float>(d.x.rows, -1.0f)};
  normgrad::RmsNormForwardProblem p;
  p.dtype = d.x.dtype;
  p.f32_outputs = o.f32_outputs;
  p.rows = d.x.rows;
  p.cols = d.x.cols;
  p.row_stride = d.x.stride;
  p.x = d.x.data();
  p.gamma = d.gamma.data();
  p.eps = o.eps;
  p.y = f.y.data();
  p.rstd = f.rstd.data();
  p.stores = o.stores;
  p.threads = o.threads;
  p.isa = o.isa;
  const normgrad::Status s = normgrad::RmsNormForward(p);
  EXPECT_TRUE(s.ok()) << s.message();
  return f;
}

struct Backward {
  std::vector<uint8_t> dx, dgamma;
};

struct BackwardOptions {
  Order order = Order::kBlocked;
  int threads = 0;
  Stores stores = Stores::kAuto;
  bool f32_outputs = false;
  size_t dx_offset = 0;  // elements: dx starts this far into its buffer
  const char* isa = nullptr;
};

Backward RunBackward(const Data& d, const std::vector<float>& rstd, const BackwardOptions& o = {}) {
  const DType out = o.f32_outputs ? DType::kF32 : d.x.dtype;
  const size_t n = normgrad::SizeOf(out);
  Backward b{std::vector<uint8_t>((d.x.rows * d.x.stride + o.dx_offset) * n, 0xa5),
             std::vector<uint8_t>(d.x.cols * n, 0xa5)};
  normgrad::RmsNormBackwardProblem p;
  p.dtype = d.x.dtype;
  p.f32_outputs = o.f32_outputs;
  p.rows = d.x.rows;
  p.cols = d.x.cols;
  p.row_stride = d.x.stride;
  p.x = d.x.data();
  p.dy = d.dy.data();
  p.gamma = d.gamma.data();
  p.rstd = rstd.data();
  p.dx = b.dx.data() + o.dx_offset * n;
  p.dgamma = b.dgamma.data();
  p.order = o.order;
  p.stores = o.stores;
  p.threads = o.threads;
  p.isa = o.isa;
  const normgrad::Status s = normgrad::RmsNormBackward(p);
  EXPECT_TRUE(s.ok()) << s.message();
  b.dx.erase(b.dx.begin(), b.dx.begin() + static_cast<long>(o.dx_offset * n));
  return b;
}

void ExpectForwardWithinBound(const Data& d, float eps) {
  const size_t rows = d.x.rows, cols = d.x.cols;
  const DType t = d.x.dtype;
  const RefForward ref = ReferenceForward(d, eps);
  const Forward got = RunForward(d, {eps});
  const double k = SumLanes(cols);
  for (size_t r = 0; r < rows; ++r) {
    const double rstd = ref.rstd[r];
    const double e_r = rstd * (Gamma(k + 2) * (1 + Gamma(3)) + Gamma(3));
    ASSERT_LE(std::fabs(got.rstd[r] - rstd), e_r) << "rstd of row " << r;
    for (size_t c = 0; c < cols; ++c) {
      const double bound =
          std::fabs(At(d.x, r, c) * At(d.gamma, 0, c)) * (e_r + Gamma(2) * (rstd + e_r));
      const double want = ref.y[r * cols + c];
      ASSERT_LE(std::fabs(Decode(t, got.y, r * d.x.stride + c) - want), Narrowed(t, want, bound))
          << "y at row " << r << ", column " << c;
    }
  }
}

void ExpectBackwardWithinBound(const Data& d, Order order) {
  const size_t rows = d.x.rows, cols = d.x.cols;
  const DType t = d.x.dtype;
  const Forward f = RunForward(d);
  const RefBackward ref = ReferenceBackward(d, f.rstd);
  BackwardOptions options;
  options.order = order;
  const Backward got = RunBackward(d, f.rstd, options);
  const double k_dx = Gamma(SumLanes(cols) + 6);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const double want = ref.dx[r * cols + c];
      ASSERT_LE(std::fabs(Decode(t, got.dx, r * d.x.stride + c) - want),
                Narrowed(t, want, k_dx * ref.dx_scale[r * cols + c]))
          << "dx at row " << r << ", column " << c;
    }
  }
  const size_t blocks = (rows + 255) / 256;
  const double n = order == Order::kSequential
                       ? static_cast<double>(rows)
                       : 256 + (blocks > 1 ? std::ceil(std::log2(static_cast<double>(blocks))) : 0);
  for (size_t c = 0; c < cols; ++c) {
    ASSERT_LE(std::fabs(Decode(t, got.dgamma, c) - ref.dgamma[c]),
              Narrowed(t, ref.dgamma[c], Gamma(n + 2) * ref.dgamma_scale[c]))
        << "dgamma column " << c;
  }
}

class RmsNormTypes : public testing::TestWithParam<DType> {};

TEST_P(RmsNormTypes, ForwardWithinDerivedBoundOfDoubleReference) {
  for (const Shape& s : kShapes) {
    for (float eps : {1e-6f, 0.5f}) {
      SCOPED_TRACE(testing::Message()
                   << s.rows << "x" << s.cols << " eps " << eps << " seed " << testdata::Seed());
      ExpectForwardWithinBound(MakeData(GetParam(), s.rows, s.cols), eps);
    }
  }
}

TEST_P(RmsNormTypes, BackwardWithinDerivedBoundOfDoubleReference) {
  for (const Shape& s : kShapes) {
    for (Order order : {Order::kBlocked, Order::kSequential}) {
      SCOPED_TRACE(testing::Message()
                   << s.rows << "x" << s.cols << " " << normgrad::OrderName(order) << " seed "
                   << testdata::Seed());
      ExpectBackwardWithinBound(MakeData(GetParam(), s.rows, s.cols), order);
    }
  }
}

TEST_P(RmsNormTypes, ExactFillsEqualTheReferenceBitForBit) {
  // Rows of ±a (a a power of two), eps = 0: the mean square a², rstd 1/a
  // and x·rstd = ±1 are exact; with small-integer dy and gamma and H = 64
  // every later sum is a short dyadic fraction, so y, dx and dgamma (asked
  // for in float) equal the float64 reference bit for bit.
  const DType t = GetParam();
  const size_t rows = 700, cols = 64;
  std::mt19937 rng(testdata::Seed());
  std::uniform_int_distribution<int> small(-4, 4);
  Data d = MakeData(t, rows, cols);
  for (size_t r = 0; r < rows; ++r) {
    const float a = std::ldexp(1.0f, small(rng) % 2);  // 0.5, 1 or 2
    for (size_t c = 0; c < cols; ++c) {
      testdata::Store(t, d.x.bytes.data(), r * cols + c, small(rng) % 2 ? a : -a);
    }
  }
  auto integers = [&] { return static_cast<float>(small(rng)); };
  d.dy = testdata::Make(t, rows, cols, cols, integers);
  d.gamma = testdata::Make(t, 1, cols, cols, integers);

  const RefForward ref = ReferenceForward(d, 0.0);
  ForwardOptions fo;
  fo.eps = 0.0f;
  fo.f32_outputs = true;
  const Forward f = RunForward(d, fo);
  for (size_t r = 0; r < rows; ++r) {
    ASSERT_EQ(f.rstd[r], ref.rstd[r]) << r;
    for (size_t c = 0; c < cols; ++c) {
      ASSERT_EQ(Decode(DType::kF32, f.y, r * cols + c), ref.y[r * cols + c]) << r << ", " << c;
    }
  }
  const RefBackward want = ReferenceBackward(d, f.rstd);
  for (Order order : {Order::kBlocked, Order::kSequential}) {
    BackwardOptions o;
    o.order = order;
    o.f32_outputs = true;
    const Backward b = RunBackward(d, f.rstd, o);
    for (size_t i = 0; i < rows * cols; ++i) {
      ASSERT_EQ(Decode(DType::kF32, b.dx, i), want.dx[i]) << i;
    }
    for (size_t c = 0; c < cols; ++c) EXPECT_EQ(Decode(DType::kF32, b.dgamma, c), want.dgamma[c]);
  }
}

TEST_P(RmsNormTypes, SameBitsForEveryThreadCount) {
  // 4200 rows: 17 blocks (the last partial), enough bytes for 4 threads in
  // every type (ThreadsFor: 1 MiB per extra thread).
  const Data d = MakeData(GetParam(), 4200, 520);
  const Forward f1 = RunForward(d, {1e-6f, 1});
  BackwardOptions o;
  o.threads = 1;
  const Backward b1 = RunBackward(d, f1.rstd, o);
  for (int threads : {2, 3, 4}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    const Forward f = RunForward(d, {1e-6f, threads});
    EXPECT_EQ(normgrad::LastRmsNormRunInfo().threads, threads);
    EXPECT_EQ(f.y, f1.y);
    EXPECT_EQ(f.rstd, f1.rstd);
    o.threads = threads;
    const Backward b = RunBackward(d, f1.rstd, o);
    EXPECT_GT(normgrad::LastRmsNormRunInfo().threads, 1);
    EXPECT_EQ(b.dx, b1.dx);
    EXPECT_EQ(b.dgamma, b1.dgamma);
  }
}

TEST_P(RmsNormTypes, BlockedDgammaBitExactToTheLiteralOrder) {
  // dgamma of the blocked order written out literally: terms
  // fl(dy·fl(x·rstd)), 256-row blocks summed row after row from zero,
  // partials combined by partial[i] = partial[i] + partial[i + s] for
  // s = 1, 2, 4, …, narrowed once. 38 blocks, the last partial.
  const DType t = GetParam();
  const size_t rows = 256 * 37 + 100, cols = 24, blocks = 38;
  const Data d = MakeData(t, rows, cols);
  const Forward f = RunForward(d);
  std::vector<std::vector<float>> partial(blocks, std::vector<float>(cols));
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const float x = static_cast<float>(At(d.x, r, c));
      const float dy = static_cast<float>(At(d.dy, r, c));
      const float xr = x * f.rstd[r];
      const float term = dy * xr;
      partial[r / 256][c] = partial[r / 256][c] + term;
    }
  }
  for (size_t s = 1; s < blocks; s *= 2) {
    for (size_t i = 0; i + s < blocks; i += 2 * s) {
      for (size_t c = 0; c < cols; ++c) partial[i][c] = partial[i][c] + partial[i + s][c];
    }
  }
  std::vector<uint8_t> want(cols * normgrad::SizeOf(t));
  for (size_t c = 0; c < cols; ++c) testdata::Store(t, want.data(), c, partial[0][c]);
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    BackwardOptions o;
    o.threads = threads;
    EXPECT_EQ(RunBackward(d, f.rstd, o).dgamma, want);
  }
}

TEST_P(RmsNormTypes, DxBitExactToTheLiteralFusedFormula) {
  // dx written out literally with its fused multiply-adds (std::fma, one
  // rounding): g = fl(dy·gamma); 16-lane sums lane = fma(g, x, lane), folded
  // by the fixed tree and divided by H; k = fl(fl(rstd·rstd)·s);
  // dx = fl(rstd·fma(−x, k, g)). Every instruction set must give these bits.
  // The same formula with every product rounded on its own gives other bits
  // on these inputs (checked below). Widths with a vector tail.
  const DType t = GetParam();
  for (size_t cols : {203, 4104}) {
    const size_t rows = 6;
    const Data d = MakeData(t, rows, cols);
    const Forward f = RunForward(d);
    std::vector<float> want(rows * cols), unfused(rows * cols);
    for (size_t r = 0; r < rows; ++r) {
      std::vector<float> x(cols), g(cols), lanes(16), plain(16);
      for (size_t c = 0; c < cols; ++c) {
        x[c] = static_cast<float>(At(d.x, r, c));
        g[c] = static_cast<float>(At(d.dy, r, c)) * static_cast<float>(At(d.gamma, 0, c));
        lanes[c % 16] = std::fma(g[c], x[c], lanes[c % 16]);
        plain[c % 16] = plain[c % 16] + g[c] * x[c];
      }
      const float h = static_cast<float>(cols);
      const float rstd2 = f.rstd[r] * f.rstd[r];
      const float k = rstd2 * (testdata::LiteralTreeSum(lanes) / h);
      const float plain_k = rstd2 * (testdata::LiteralTreeSum(plain) / h);
      for (size_t c = 0; c < cols; ++c) {
        want[r * cols + c] = f.rstd[r] * std::fma(-x[c], k, g[c]);
        unfused[r * cols + c] = f.rstd[r] * (g[c] - x[c] * plain_k);
      }
    }
    ASSERT_NE(want, unfused) << "H " << cols << ": inputs where fusing changes no bit";
    for (const normgrad::kernels::Isa& isa : normgrad::kernels::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(testing::Message() << isa.name << " H " << cols);
      BackwardOptions o;
      o.f32_outputs = true;
      o.isa = isa.name;
      const Backward b = RunBackward(d, f.rstd, o);
      size_t differ = 0;
      for (size_t i = 0; i < rows * cols; ++i) {
        differ += Decode(DType::kF32, b.dx, i) != static_cast<double>(want[i]);
      }
      EXPECT_EQ(differ, 0u) << "of " << rows * cols << " dx elements";
    }
  }
}

TEST_P(RmsNormTypes, ShortRowsBitExactToTheLiteralFormulas) {
  // Short rows, which the kernels take several at a time (and rows of 300,
  // whose forward sums they take several at a time), against the
  // formulas written out row by row: rstd = 1/√(fl(TreeSum(x·x)/H) + eps),
  // every product and sum rounded on its own; y = fl(fl(x·rstd)·gamma); dx
  // as in DxBitExactToTheLiteralFusedFormula; dgamma (one block) the rows'
  // fl(dy·fl(x·rstd)) added in order. 71 rows: whole groups and a rest;
  // strides that put every row's output at the same place in a 64-byte line
  // and strides that do not.
  const DType t = GetParam();
  const float eps = 1e-6f;
  for (const auto& [rows, cols, stride] : {std::tuple<size_t, size_t, size_t>{71, 64, 64},
                                           {71, 40, 48},
                                           {71, 40, 40},
                                           {71, 16, 16},
                                           {71, 100, 100},
                                           {71, 300, 300}}) {
    SCOPED_TRACE(testing::Message() << rows << " x " << cols << ", stride " << stride);
    const Data d = MakeData(t, rows, cols, stride);
    const float h = static_cast<float>(cols);
    std::vector<float> rstd(rows), y(rows * cols), dx(rows * cols), dgamma(cols, 0.0f);
    for (size_t r = 0; r < rows; ++r) {
      std::vector<float> squares(16), lanes(16);
      for (size_t c = 0; c < cols; ++c) {
        const float x = static_cast<float>(At(d.x, r, c));
        squares[c % 16] = squares[c % 16] + x * x;
      }
      rstd[r] = 1.0f / std::sqrt(testdata::LiteralTreeSum(squares) / h + eps);
      std::vector<float> x(cols), g(cols);
      for (size_t c = 0; c < cols; ++c) {
        x[c] = static_cast<float>(At(d.x, r, c));
        const float dy = static_cast<float>(At(d.dy, r, c));
        const float gamma = static_cast<float>(At(d.gamma, 0, c));
        y[r * cols + c] = (x[c] * rstd[r]) * gamma;
        g[c] = dy * gamma;
        lanes[c % 16] = std::fma(g[c], x[c], lanes[c % 16]);
        dgamma[c] = dgamma[c] + dy * (x[c] * rstd[r]);
      }
      const float k = (rstd[r] * rstd[r]) * (testdata::LiteralTreeSum(lanes) / h);
      for (size_t c = 0; c < cols; ++c) dx[r * cols + c] = rstd[r] * std::fma(-x[c], k, g[c]);
    }
    for (const normgrad::kernels::Isa& isa : normgrad::kernels::Isas()) {
      if (!isa.available()) continue;
      SCOPED_TRACE(isa.name);
      ForwardOptions fo;
      fo.eps = eps;
      fo.f32_outputs = true;
      fo.isa = isa.name;
      const Forward f = RunForward(d, fo);
      ASSERT_EQ(f.rstd, rstd);
      BackwardOptions bo;
      bo.f32_outputs = true;
      bo.isa = isa.name;
      const Backward b = RunBackward(d, f.rstd, bo);
      size_t y_differ = 0, dx_differ = 0;
      for (size_t r = 0; r < rows; ++r) {
        for (size_t c = 0; c < cols; ++c) {
          y_differ += Decode(DType::kF32, f.y, r * stride + c) != y[r * cols + c];
          dx_differ += Decode(DType::kF32, b.dx, r * stride + c) != dx[r * cols + c];
        }
      }
      EXPECT_EQ(y_differ, 0u) << "of " << rows * cols << " y elements";
      EXPECT_EQ(dx_differ, 0u) << "of " << rows * cols << " dx elements";
      for (size_t c = 0; c < cols; ++c) EXPECT_EQ(Decode(DType::kF32, b.dgamma, c), dgamma[c]);
    }
  }
}

TEST_P(RmsNormTypes, EveryInstructionSetGivesTheScalarBits) {
  // Through the API with each available instruction set forced, against
  // "scalar", at widths around the vector and lane sizes, plain and
  // streaming stores.
  const DType t = GetParam();
  for (size_t cols : {1, 7, 8, 15, 16, 17, 33, 48, 203, 1000, 1031, 4104}) {
    const Data d = MakeData(t, 300, cols);
    for (Stores stores : {Stores::kPlain, Stores::kStreaming}) {
      ForwardOptions fo;
      fo.stores = stores;
      fo.isa = "scalar";
      const Forward want_f = RunForward(d, fo);
      BackwardOptions bo;
      bo.stores = stores;
      bo.isa = "scalar";
      const Backward want_b = RunBackward(d, want_f.rstd, bo);
      for (const normgrad::kernels::Isa& isa : normgrad::kernels::Isas()) {
        if (!isa.available()) continue;
        SCOPED_TRACE(testing::Message() << isa.name << " H " << cols
                                        << (stores == Stores::kStreaming ? " streaming" : ""));
        fo.isa = bo.isa = isa.name;
        const Forward f = RunForward(d, fo);
        EXPECT_EQ(normgrad::LastRmsNormRunInfo().impl, std::string("forward:") + isa.name);
        EXPECT_EQ(f.y, want_f.y);
        EXPECT_EQ(f.rstd, want_f.rstd);
        const Backward b = RunBackward(d, want_f.rstd, bo);
        EXPECT_EQ(normgrad::LastRmsNormRunInfo().impl, std::string("blocked:") + isa.name);
        EXPECT_EQ(b.dx, want_b.dx);
        EXPECT_EQ(b.dgamma, want_b.dgamma);
      }
    }
  }
}

TEST_P(RmsNormTypes, StridesGiveTheDenseBitsAndLeaveThePaddingAlone) {
  const size_t rows = 40, cols = 37, stride = 53;
  const Data padded = MakeData(GetParam(), rows, cols, stride);
  Data dense = padded;
  const size_t n = normgrad::SizeOf(GetParam());
  for (testdata::Matrix* m : {&dense.x, &dense.dy}) {
    testdata::Matrix packed{m->dtype, rows, cols, cols, std::vector<uint8_t>(rows * cols * n)};
    for (size_t r = 0; r < rows; ++r) {
      std::memcpy(packed.bytes.data() + r * cols * n, m->bytes.data() + r * stride * n, cols * n);
    }
    *m = packed;
  }
  const Forward fp = RunForward(padded), fd = RunForward(dense);
  const Backward bp = RunBackward(padded, fp.rstd);
  const Backward bd = RunBackward(dense, fd.rstd);
  EXPECT_EQ(fp.rstd, fd.rstd);
  EXPECT_EQ(bp.dgamma, bd.dgamma);
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

TEST_P(RmsNormTypes, StreamingStoresGiveThePlainBits) {
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
      const Backward plain = RunBackward(d, plain_f.rstd, o);
      o.stores = Stores::kStreaming;
      const Backward streamed = RunBackward(d, plain_f.rstd, o);
      EXPECT_EQ(streamed.dx, plain.dx) << offset << (f32 ? " f32" : "");
      EXPECT_EQ(streamed.dgamma, plain.dgamma);
    }
  }
}

TEST_P(RmsNormTypes, FloatOutputsNarrowToTheTypedOutputs) {
  const DType t = GetParam();
  const Data d = MakeData(t, 20, 100);
  ForwardOptions fo;
  const Forward typed_f = RunForward(d, fo);
  fo.f32_outputs = true;
  const Forward float_f = RunForward(d, fo);
  EXPECT_EQ(float_f.rstd, typed_f.rstd);
  BackwardOptions o;
  const Backward typed = RunBackward(d, typed_f.rstd, o);
  o.f32_outputs = true;
  const Backward as_float = RunBackward(d, typed_f.rstd, o);
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
  EXPECT_EQ(narrowed(as_float.dgamma), typed.dgamma);
}

TEST_P(RmsNormTypes, InPlaceGivesTheSameBits) {
  const DType t = GetParam();
  const size_t rows = 300, cols = 70;
  const Data d = MakeData(t, rows, cols);
  const Forward f = RunForward(d);
  const Backward want = RunBackward(d, f.rstd);

  // y over x.
  Data in_place = d;
  normgrad::RmsNormForwardProblem fp;
  fp.dtype = t;
  fp.rows = rows;
  fp.cols = cols;
  fp.x = in_place.x.bytes.data();
  fp.gamma = d.gamma.data();
  fp.y = in_place.x.bytes.data();
  ASSERT_TRUE(normgrad::RmsNormForward(fp).ok());
  EXPECT_EQ(in_place.x.bytes, f.y);

  // dx over dy, then over x.
  for (int target : {0, 1}) {
    Data b = d;
    std::vector<uint8_t> dgamma(want.dgamma.size());
    normgrad::RmsNormBackwardProblem p;
    p.dtype = t;
    p.rows = rows;
    p.cols = cols;
    p.x = b.x.data();
    p.dy = b.dy.data();
    p.gamma = b.gamma.data();
    p.rstd = f.rstd.data();
    p.dx = target == 0 ? b.dy.bytes.data() : b.x.bytes.data();
    p.dgamma = dgamma.data();
    const normgrad::Status s = normgrad::RmsNormBackward(p);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(target == 0 ? b.dy.bytes : b.x.bytes, want.dx) << target;
    EXPECT_EQ(dgamma, want.dgamma);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, RmsNormTypes,
                         testing::Values(DType::kF32, DType::kF16, DType::kBF16),
                         testdata::TypeName<testing::TestParamInfo<DType>>);

#if defined(NORMGRAD_HAVE_AVX512)
// A float from its bits.
float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

TEST(RmsNorm, Avx512Bf16NarrowingGivesTheIntegerRoundingBits) {
  // "avx512"'s bfloat16 kernels narrow with AVX512-BF16 where the CPU has it
  // (vcvtneps2bf16, which reads subnormals as zero: a vector with one takes
  // the integer rounding). Both kernel tables, called directly, against
  // bits::FloatToBfloat16 of each exact output: rows whose y (forward) and
  // dx (backward) equal ±gamma, gamma holding ties to even both ways,
  // values that round up to infinity, one subnormal in a vector of normal
  // values, a vector of subnormals (ties among them), and, in the forward,
  // infinities and NaNs (a signalling one comes out quiet); two vectors at a
  // time (vcvtne2ps2bf16) and one; plain and streaming stores.
  namespace k = normgrad::kernels;
  if (!__builtin_cpu_supports("avx512f") || !k::CpuHasAvx512Bf16()) {
    GTEST_SKIP() << "this CPU has no AVX512-BF16 (with BW and DQ)";
  }
  const k::RmsNormKernels native = k::Avx512RmsNormKernels(true);
  const k::RmsNormKernels integer = k::Avx512RmsNormKernels(false);
  ASSERT_NE(native.forward_bf16, integer.forward_bf16);
  ASSERT_NE(native.backward_bf16, integer.backward_bf16);
  EXPECT_EQ(k::Avx512RmsNormKernels().forward_bf16, native.forward_bf16) << "default table";
  EXPECT_EQ(k::Avx512RmsNormKernels().backward_bf16, native.backward_bf16) << "default table";

  const uint32_t normal[] = {0x3f808000, 0x3f818000, 0xbf808000, 0xbf818000, 0x3f80c000, 0x7f7fffff,
                             0x7f7f8000, 0x7f7f7fff, 0x00800000, 0x3f800001, 0x40490fdb, 0xc2f6e979,
                             0x3f7fffff, 0x00000000, 0x80000000, 0x3eaaaaab};
  const uint32_t subnormal[] = {0x00008000, 0x00018000, 0x80008000, 0x80018000,
                                0x00400000, 0x807fffff, 0x00000001, 0x00007fff,
                                0x0000ffff, 0x007f8000, 0x00408000, 0x80408001,
                                0x00010000, 0x00028000, 0x003fffff, 0x807f7fff};
  const uint32_t special[] = {0x7f800000, 0xff800000, 0x7fc00001, 0x7f800001, 0xffbfffff};
  // 70 columns: four vectors and a tail, rows one after another; 64
  // columns and 8 rows: rows 128 bytes apart, the forward's y four rows
  // side by side.
  for (const auto& [cols, rows] : {std::pair<size_t, size_t>{70, 2}, {64, 8}}) {
    SCOPED_TRACE(testing::Message() << rows << " x " << cols);
    std::vector<float> finite(cols), all(cols);
    for (size_t c = 0; c < cols; ++c) {
      const size_t v = c / 16, lane = c % 16;
      uint32_t b = v == 2 ? subnormal[lane] : normal[lane];
      if (v == 1 && lane == 5) b = subnormal[0];  // one subnormal among normal values
      finite[c] = all[c] = FromBits(b);
      if (v == 3 && lane < std::size(special)) all[c] = FromBits(special[lane]);
    }
    // x = ±1 (bfloat16 bits; −1 in odd rows), eps = 0: rstd = 1 and y =
    // ±gamma exactly.
    std::vector<uint16_t> x(rows * cols), zero(rows * cols, 0);
    for (size_t i = 0; i < rows * cols; ++i) x[i] = i / cols % 2 == 0 ? 0x3f80 : 0xbf80;
    for (bool stream : {false, true}) {
      SCOPED_TRACE(stream ? "streaming" : "plain");
      std::vector<float> rstd(rows);
      std::vector<uint16_t> want(rows * cols), got[2];
      // y as the kernels compute it: ±1 times gamma (x86 keeps a NaN's sign).
      const auto sign = [&](size_t i) { return i / cols % 2 == 0 ? 1.0f : -1.0f; };
      for (size_t i = 0; i < rows * cols; ++i) {
        want[i] = normgrad::bits::FloatToBfloat16(sign(i) * all[i % cols]);
      }
      for (int t = 0; t < 2; ++t) {
        got[t].assign(rows * cols, 0xdead);
        k::RmsNormForwardArgs a{};
        a.x = x.data();
        a.gamma = all.data();
        a.eps = 0.0f;
        a.stride = a.cols = cols;
        a.rows = rows;
        a.y = got[t].data();
        a.rstd = rstd.data();
        a.stream_y = stream;
        (t == 0 ? native : integer).forward_bf16(a);
        ASSERT_EQ(rstd, std::vector<float>(rows, 1.0f));
      }
      EXPECT_EQ(got[0], want) << "forward, AVX512-BF16";
      EXPECT_EQ(got[1], want) << "forward, integer rounding";

      // Backward: x = 0, dy = ±1, rstd = 1: dx = fl(1·fma(−0, 0, dy·gamma)) = ±gamma.
      for (size_t i = 0; i < rows * cols; ++i) {
        want[i] = normgrad::bits::FloatToBfloat16(sign(i) * finite[i % cols]);
      }
      std::vector<float> acc[2];
      for (int t = 0; t < 2; ++t) {
        got[t].assign(rows * cols, 0xdead);
        acc[t].assign(cols, 0.0f);
        const std::vector<float> one(rows, 1.0f);
        k::RmsNormBackwardArgs a{};
        a.x = zero.data();
        a.dy = x.data();
        a.gamma = finite.data();
        a.rstd = one.data();
        a.stride = a.cols = cols;
        a.rows = rows;
        a.dx = got[t].data();
        a.stream_dx = stream;
        a.acc_gamma = acc[t].data();
        (t == 0 ? native : integer).backward_bf16(a);
      }
      EXPECT_EQ(got[0], want) << "backward, AVX512-BF16";
      EXPECT_EQ(got[1], want) << "backward, integer rounding";
      EXPECT_EQ(acc[0], acc[1]);
    }
  }
}
#endif

TEST(RmsNorm, ZeroRowsWriteNothingButZeroDgamma) {
  float gamma[4] = {1, 2, 3, 4}, dgamma[4] = {9, 9, 9, 9}, rstd[1] = {7};
  normgrad::RmsNormForwardProblem f;
  f.cols = 4;
  f.gamma = gamma;
  f.rstd = rstd;
  ASSERT_TRUE(normgrad::RmsNormForward(f).ok());
  EXPECT_EQ(rstd[0], 7.0f);
  normgrad::RmsNormBackwardProblem p;
  p.cols = 4;
  p.gamma = gamma;
  p.dgamma = dgamma;
  for (Order order : {Order::kBlocked, Order::kSequential}) {
    p.order = order;
    ASSERT_TRUE(normgrad::RmsNormBackward(p).ok());
    for (int c = 0; c < 4; ++c) EXPECT_EQ(dgamma[c], 0.0f);
  }
}

TEST(RmsNorm, ForcedImplementationRuns) {
  // Under NORMGRAD_IMPL (as ctest runs every test per instruction set) the
  // forced instruction set is the one that runs.
  const char* forced = std::getenv("NORMGRAD_IMPL");
  const Data d = MakeData(DType::kF32, 4, 8);
  const Forward f = RunForward(d);
  const std::string forward = normgrad::LastRmsNormRunInfo().impl;
  EXPECT_EQ(forward.substr(0, forward.find(':')), "forward");
  RunBackward(d, f.rstd);
  const std::string backward = normgrad::LastRmsNormRunInfo().impl;
  EXPECT_EQ(backward.substr(0, backward.find(':')), "blocked");
  if (forced && *forced) {
    EXPECT_EQ(forward.substr(forward.rfind(':') + 1), forced);
    EXPECT_EQ(backward.substr(backward.rfind(':') + 1), forced);
  }
}

// Argument errors: each case breaks one rule of a valid problem and gives
// the whole message.
struct Valid {
  std::vector<float> x = std::vector<float>(8 * 16, 1.0f), dy = x, gamma = std::vector<float>(16),
                     out = x, rstd = std::vector<float>(8), dgamma = gamma;
  std::vector<uint16_t> half = std::vector<uint16_t>(8 * 16);

  normgrad::RmsNormForwardProblem Forward() {
    normgrad::RmsNormForwardProblem p;
    p.rows = 8;
    p.cols = 16;
    p.x = x.data();
    p.gamma = gamma.data();
    p.y = out.data();
    p.rstd = rstd.data();
    return p;
  }
  normgrad::RmsNormBackwardProblem Backward() {
    normgrad::RmsNormBackwardProblem p;
    p.rows = 8;
    p.cols = 16;
    p.x = x.data();
    p.dy = dy.data();
    p.gamma = gamma.data();
    p.rstd = rstd.data();
    p.dx = out.data();
    p.dgamma = dgamma.data();
    return p;
  }
};

TEST(RmsNorm, ForwardArgumentErrorsNameTheArgumentValueAndRule) {
  using P = normgrad::RmsNormForwardProblem;
  const std::vector<std::pair<std::function<void(P&, Valid&)>, std::string>> cases = {
      {[](P& p, Valid&) { p.dtype = static_cast<DType>(7); },
       "RmsNormForward: dtype 7 is not float, half or bfloat16"},
      {[](P& p, Valid&) { p.cols = 0; }, "RmsNormForward: cols is 0; it must be at least 1"},
      {[](P& p, Valid&) { p.row_stride = 15; },
       "RmsNormForward: row_stride 15 is less than cols 16"},
      {[](P& p, Valid&) { p.rows = size_t{1} << 62; },
       "RmsNormForward: rows 4611686018427387904 × row_stride 16 overflows the address space"},
      {[](P& p, Valid&) { p.threads = -1; },
       "RmsNormForward: threads -1 is negative; use 0 for the default"},
      {[](P& p, Valid&) { p.x = nullptr; }, "RmsNormForward: x is null with rows 8"},
      {[](P& p, Valid&) { p.gamma = nullptr; },
       "RmsNormForward: gamma is null; it must hold cols (16) elements"},
      {[](P& p, Valid&) {
         p.y = nullptr;
         p.rstd = nullptr;
       },
       "RmsNormForward: y and rstd are both null: nothing to compute"},
      {[](P& p, Valid& v) {
         p.dtype = DType::kF16;
         p.f32_outputs = true;
         p.x = p.y = v.half.data();
       },
       "RmsNormForward: y is the same buffer as x, but y is float and x is half; in place "
       "needs the same type"},
      {[](P& p, Valid&) { p.eps = -1.0f; },
       "RmsNormForward: eps -1 is negative; it must be finite and at least 0"},
      {[](P& p, Valid&) { p.eps = NAN; },
       "RmsNormForward: eps nan is not finite; it must be finite and at least 0"},
      {[](P& p, Valid&) { p.isa = "mmx"; }, ""},
  };
  for (const auto& [breaks, message] : cases) {
    Valid v;
    P p = v.Forward();
    ASSERT_TRUE(normgrad::RmsNormForward(p).ok());
    breaks(p, v);
    SCOPED_TRACE(message);
    const normgrad::Status s = normgrad::RmsNormForward(p);
    ASSERT_FALSE(s.ok());
    if (message.empty()) {  // the instruction-set lookup's own message
      EXPECT_EQ(s.message().rfind("RmsNormForward: isa: ", 0), 0u) << s.message();
      EXPECT_NE(s.message().find("mmx"), std::string::npos) << s.message();
    } else {
      EXPECT_EQ(s.message(), message);
    }
  }
}

TEST(RmsNorm, BackwardArgumentErrorsNameTheArgumentValueAndRule) {
  using P = normgrad::RmsNormBackwardProblem;
  const std::vector<std::pair<std::function<void(P&, Valid&)>, std::string>> cases = {
      {[](P& p, Valid&) { p.dtype = static_cast<DType>(9); },
       "RmsNormBackward: dtype 9 is not float, half or bfloat16"},
      {[](P& p, Valid&) { p.cols = 0; }, "RmsNormBackward: cols is 0; it must be at least 1"},
      {[](P& p, Valid&) { p.row_stride = 3; },
       "RmsNormBackward: row_stride 3 is less than cols 16"},
      {[](P& p, Valid&) { p.threads = -2; },
       "RmsNormBackward: threads -2 is negative; use 0 for the default"},
      {[](P& p, Valid&) { p.x = nullptr; }, "RmsNormBackward: x is null with rows 8"},
      {[](P& p, Valid&) { p.dy = nullptr; }, "RmsNormBackward: dy is null with rows 8"},
      {[](P& p, Valid&) { p.rstd = nullptr; }, "RmsNormBackward: rstd is null with rows 8"},
      {[](P& p, Valid&) { p.dx = nullptr; }, "RmsNormBackward: dx is null with rows 8"},
      {[](P& p, Valid&) { p.gamma = nullptr; },
       "RmsNormBackward: gamma is null; it must hold cols (16) elements"},
      {[](P& p, Valid&) { p.dgamma = nullptr; },
       "RmsNormBackward: dgamma is null; it must hold cols (16) elements"},
      {[](P& p, Valid&) { p.order = static_cast<Order>(5); },
       "RmsNormBackward: order 5 is not sequential or blocked"},
      {[](P& p, Valid& v) {
         p.dtype = DType::kBF16;
         p.f32_outputs = true;
         p.x = p.dx = v.half.data();
       },
       "RmsNormBackward: dx is the same buffer as x, but dx is float and x is bfloat16; in "
       "place needs the same type"},
      {[](P& p, Valid& v) {
         p.dtype = DType::kF16;
         p.f32_outputs = true;
         p.dy = p.dx = v.half.data();
       },
       "RmsNormBackward: dx is the same buffer as dy, but dx is float and dy is half; in place "
       "needs the same type"},
  };
  for (const auto& [breaks, message] : cases) {
    Valid v;
    P p = v.Backward();
    ASSERT_TRUE(normgrad::RmsNormBackward(p).ok());
    breaks(p, v);
    SCOPED_TRACE(message);
    const normgrad::Status s = normgrad::RmsNormBackward(p);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), message);
  }
}

TEST(RmsNorm, ErrorsWriteNoOutput) {
  // A call that fails leaves every output as it was.
  Valid v;
  normgrad::RmsNormBackwardProblem p = v.Backward();
  p.order = static_cast<Order>(5);
  std::fill(v.out.begin(), v.out.end(), 3.0f);
  std::fill(v.dgamma.begin(), v.dgamma.end(), 3.0f);
  ASSERT_FALSE(normgrad::RmsNormBackward(p).ok());
  EXPECT_EQ(v.out, std::vector<float>(v.out.size(), 3.0f));
  EXPECT_EQ(v.dgamma, std::vector<float>(v.dgamma.size(), 3.0f));
  normgrad::RmsNormForwardProblem f = v.Forward();
  f.eps = -1.0f;
  std::fill(v.rstd.begin(), v.rstd.end(), 3.0f);
  ASSERT_FALSE(normgrad::RmsNormForward(f).ok());
  EXPECT_EQ(v.out, std::vector<float>(v.out.size(), 3.0f));
  EXPECT_EQ(v.rstd, std::vector<float>(v.rstd.size(), 3.0f));
}

}  // namespace
