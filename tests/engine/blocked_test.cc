// blocked_test.cc — the engine's blocked order against the double reference
// within the bound derived in docs/numerics.md, bit for bit on exact fills,
// identical across thread counts, bit-exact to a literal transcription of
// the order, and within 4e-7 normwise at 65536 × 512.
//
// Bound (docs/numerics.md): a block of ≤ 256 rows summed in float, block
// partials combined by a tree of depth d = ceil(log2(blocks)), each product
// rounded once: |err_c| ≤ γ(256 + d + 1) · Σ_r |terms|, γ(n) = n·u/(1 − n·u),
// u = 2^-24; a 16-bit output adds half an ulp: |out| · 2^-11 (half) or 2^-8
// (bfloat16), and 2^-25 absolute for half subnormals.
//
// To extend: add a shape to kShapes or a thread count to the thread test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "normgrad/layer_norm_grad_beta.h"
#include "reference.h"
#include "test_data.h"

namespace {

using normgrad::DType;

struct Result {
  std::vector<float> gamma, beta;  // widened outputs
  std::vector<uint8_t> raw_gamma, raw_beta;
};

Result RunBlocked(const testdata::Matrix& dy, const testdata::Matrix& res, int threads = 0) {
  const size_t n = normgrad::SizeOf(dy.dtype);
  Result out{{}, {}, std::vector<uint8_t>(dy.cols * n), std::vector<uint8_t>(dy.cols * n)};
  normgrad::GradBetaProblem p;
  p.dtype = dy.dtype;
  p.rows = dy.rows;
  p.cols = dy.cols;
  p.row_stride = dy.stride;
  p.dy = dy.data();
  p.res = res.data();
  p.pd_gamma = out.raw_gamma.data();
  p.pd_beta = out.raw_beta.data();
  p.order = normgrad::Order::kBlocked;
  p.threads = threads;
  const normgrad::Status s = normgrad::LayerNormGradBeta(p);
  EXPECT_TRUE(s.ok()) << s.message();
  for (size_t c = 0; c < dy.cols; ++c) {
    out.gamma.push_back(
        static_cast<float>(normgrad::reference::Decode(dy.dtype, out.raw_gamma.data(), c)));
    out.beta.push_back(
        static_cast<float>(normgrad::reference::Decode(dy.dtype, out.raw_beta.data(), c)));
  }
  return out;
}

double OutputUlp(DType t) {
  return t == DType::kF32 ? 0.0 : t == DType::kF16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
}

void ExpectWithinBound(const testdata::Matrix& dy, const testdata::Matrix& res) {
  const size_t cols = dy.cols;
  std::vector<double> ref_g(cols), ref_b(cols), abs_g(cols), abs_b(cols);
  normgrad::reference::GradBeta(dy.dtype, dy.data(), res.data(), dy.rows, cols, dy.stride,
                                ref_g.data(), ref_b.data());
  normgrad::reference::GradBetaAbsSums(dy.dtype, dy.data(), res.data(), dy.rows, cols, dy.stride,
                                       abs_g.data(), abs_b.data());
  const Result got = RunBlocked(dy, res);
  const size_t blocks = (dy.rows + 255) / 256;
  const double depth = blocks > 1 ? std::ceil(std::log2(static_cast<double>(blocks))) : 0;
  const double n = 256 + depth + 1, u = std::ldexp(1.0, -24);
  const double gamma_n = n * u / (1 - n * u);
  const double half_subnormal = dy.dtype == DType::kF16 ? std::ldexp(1.0, -25) : 0.0;
  for (size_t c = 0; c < cols; ++c) {
    const double bound_g = gamma_n * abs_g[c] * (1 + OutputUlp(dy.dtype)) +
                           OutputUlp(dy.dtype) * std::fabs(ref_g[c]) + half_subnormal;
    const double bound_b = gamma_n * abs_b[c] * (1 + OutputUlp(dy.dtype)) +
                           OutputUlp(dy.dtype) * std::fabs(ref_b[c]) + half_subnormal;
    ASSERT_LE(std::fabs(got.gamma[c] - ref_g[c]), bound_g) << "column " << c;
    ASSERT_LE(std::fabs(got.beta[c] - ref_b[c]), bound_b) << "column " << c;
  }
}

struct Shape {
  size_t rows, cols;
};
const Shape kShapes[] = {{1, 8},     {3, 17},    {255, 64},   {256, 64},  {257, 64},
                         {1000, 33}, {4096, 96}, {65536, 16}, {300, 4104}};

class BlockedTypes : public testing::TestWithParam<DType> {};

TEST_P(BlockedTypes, WithinDerivedBoundOfDoubleReference) {
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(testing::Message() << s.rows << "x" << s.cols << " seed " << testdata::Seed());
    ExpectWithinBound(testdata::Normal(GetParam(), s.rows, s.cols, testdata::Seed()),
                      testdata::Normal(GetParam(), s.rows, s.cols, testdata::Seed() + 1));
  }
}

TEST_P(BlockedTypes, ExactFillsEqualTheReferenceBitForBit) {
  // Integers in [-4, 4]: every partial sum is an integer below 2^24 (and
  // below 2048 for half at 100 rows: |Σ| ≤ 16·100), so nothing rounds.
  const size_t rows = GetParam() == DType::kF32 ? 70000 : 100;
  const auto dy = testdata::SmallIntegers(GetParam(), rows, 40, testdata::Seed());
  const auto res = testdata::SmallIntegers(GetParam(), rows, 40, testdata::Seed() + 1);
  std::vector<double> ref_g(40), ref_b(40);
  normgrad::reference::GradBeta(GetParam(), dy.data(), res.data(), rows, 40, 40, ref_g.data(),
                                ref_b.data());
  const Result got = RunBlocked(dy, res);
  for (size_t c = 0; c < 40; ++c) {
    EXPECT_EQ(got.gamma[c], ref_g[c]) << c;
    EXPECT_EQ(got.beta[c], ref_b[c]) << c;
  }
}

TEST_P(BlockedTypes, SameBitsForEveryThreadCount) {
  // 3000 rows = 12 blocks (the last partial), 520 columns: items split over
  // blocks; 100 rows: one block, columns split.
  for (size_t rows : {3000, 100}) {
    const auto dy = testdata::Normal(GetParam(), rows, 520, testdata::Seed());
    const auto res = testdata::Normal(GetParam(), rows, 520, testdata::Seed() + 1);
    const Result one = RunBlocked(dy, res, 1);
    for (int threads : {2, 3, 8}) {
      SCOPED_TRACE(testing::Message() << rows << " rows, " << threads << " threads");
      const Result many = RunBlocked(dy, res, threads);
      EXPECT_EQ(many.raw_gamma, one.raw_gamma);
      EXPECT_EQ(many.raw_beta, one.raw_beta);
      if (rows == 3000) {
        EXPECT_GT(normgrad::LastRunInfo().threads, 1);
      }
    }
  }
}

// The blocked order written out literally: 256-row blocks summed row after
// row from zero (product rounded, then added), partials combined by
// partial[i] = partial[i] + partial[i + s] for s = 1, 2, 4, …; results
// narrowed once. Shares no code with src/.
struct Literal {
  std::vector<float> gamma, beta;
};
Literal LiteralBlockedOrder(const testdata::Matrix& dy, const testdata::Matrix& res) {
  const size_t blocks = std::max<size_t>(1, (dy.rows + 255) / 256);
  std::vector<Literal> partial(blocks, {std::vector<float>(dy.cols), std::vector<float>(dy.cols)});
  for (size_t r = 0; r < dy.rows; ++r) {
    Literal& p = partial[r / 256];
    for (size_t c = 0; c < dy.cols; ++c) {
      const float d =
          static_cast<float>(normgrad::reference::Decode(dy.dtype, dy.data(), r * dy.stride + c));
      const float x = static_cast<float>(
          normgrad::reference::Decode(res.dtype, res.data(), r * res.stride + c));
      const float product = d * x;
      p.gamma[c] = p.gamma[c] + product;
      p.beta[c] = p.beta[c] + d;
    }
  }
  for (size_t s = 1; s < blocks; s *= 2) {
    for (size_t i = 0; i + s < blocks; i += 2 * s) {
      for (size_t c = 0; c < dy.cols; ++c) {
        partial[i].gamma[c] = partial[i].gamma[c] + partial[i + s].gamma[c];
        partial[i].beta[c] = partial[i].beta[c] + partial[i + s].beta[c];
      }
    }
  }
  return partial[0];
}

std::vector<uint8_t> Narrowed(DType t, const std::vector<float>& v) {
  std::vector<uint8_t> bytes(v.size() * normgrad::SizeOf(t));
  for (size_t i = 0; i < v.size(); ++i) testdata::Store(t, bytes.data(), i, v[i]);
  return bytes;
}

TEST_P(BlockedTypes, BitExactToTheLiteralOrder) {
  // Block counts with and without a power of two, up to 300 blocks (the
  // work is dealt out as subtrees of several blocks), and 16400 columns
  // (more than one column strip), on 1, 2 and 3 threads.
  const Shape shapes[] = {{1, 8},     {256, 8},   {257, 24},   {3000, 24},
                          {9733, 40}, {76800, 8}, {76801, 72}, {300, 16400}};
  for (const Shape& s : shapes) {
    const auto dy = testdata::Normal(GetParam(), s.rows, s.cols, testdata::Seed());
    const auto res = testdata::Normal(GetParam(), s.rows, s.cols, testdata::Seed() + 1);
    const Literal want = LiteralBlockedOrder(dy, res);
    for (int threads : {1, 2, 3}) {
      SCOPED_TRACE(testing::Message() << s.rows << "x" << s.cols << ", " << threads
                                      << " threads, seed " << testdata::Seed());
      const Result got = RunBlocked(dy, res, threads);
      ASSERT_EQ(got.raw_gamma, Narrowed(GetParam(), want.gamma));
      ASSERT_EQ(got.raw_beta, Narrowed(GetParam(), want.beta));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, BlockedTypes,
                         testing::Values(DType::kF32, DType::kF16, DType::kBF16),
                         testdata::TypeName<testing::TestParamInfo<DType>>);

TEST(Blocked, NormwiseErrorAtTarget) {
  // Target: max|err| / max|ref| ≤ 4e-7 for standard normal fp32 at
  // 65536 × 512 (sequential order reaches about 3e-6 here).
  const auto dy = testdata::Normal(DType::kF32, 65536, 512, testdata::Seed());
  const auto res = testdata::Normal(DType::kF32, 65536, 512, testdata::Seed() + 1);
  std::vector<double> ref_g(512), ref_b(512);
  normgrad::reference::GradBeta(DType::kF32, dy.data(), res.data(), 65536, 512, 512, ref_g.data(),
                                ref_b.data());
  const Result got = RunBlocked(dy, res);
  const std::vector<double> g(got.gamma.begin(), got.gamma.end());
  const std::vector<double> b(got.beta.begin(), got.beta.end());
  EXPECT_LE(normgrad::reference::NormwiseError(g, ref_g), 4e-7);
  EXPECT_LE(normgrad::reference::NormwiseError(b, ref_b), 4e-7);
}

}  // namespace
