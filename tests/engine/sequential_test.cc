// sequential_test.cc — the engine's sequential order is bit-exact to an
// independent transcription of the device's order (float accumulators, rows
// in order, product and sum rounded separately, RNE narrowing) for float, half and
// bfloat16, over shapes built from the tile sizes, chunkings, strides and
// thread counts. The transcription below shares no code with src/.
//
// To extend: add a row count or a column count to kRows/kCols (shapes above
// kMaxElements are skipped as too slow for the suite), or a case to the
// chunk/thread tests.
#include <gtest/gtest.h>

#include <cstring>
#include <tuple>
#include <vector>

#include "normgrad/layer_norm_grad_beta.h"
#include "test_data.h"

namespace {

using normgrad::DType;

// The device algorithm (docs/numerics.md, "The sequential order"), one
// column at a time, literally.
float Widen(DType t, const uint8_t* base, size_t i) {
  if (t == DType::kF32) {
    float f;
    std::memcpy(&f, base + 4 * i, 4);
    return f;
  }
  uint16_t b;
  std::memcpy(&b, base + 2 * i, 2);
  return t == DType::kF16 ? float(normgrad::float16::FromBits(b))
                          : float(normgrad::bfloat16::FromBits(b));
}

struct Outputs {
  std::vector<uint8_t> gamma, beta;
};

Outputs DeviceOrder(const testdata::Matrix& dy, const testdata::Matrix& res) {
  const size_t n = normgrad::SizeOf(dy.dtype);
  Outputs out{std::vector<uint8_t>(dy.cols * n), std::vector<uint8_t>(dy.cols * n)};
  for (size_t c = 0; c < dy.cols; ++c) {
    float gamma = 0.0f, beta = 0.0f;
    for (size_t r = 0; r < dy.rows; ++r) {
      const float d = Widen(dy.dtype, dy.bytes.data(), r * dy.stride + c);
      const float x = Widen(res.dtype, res.bytes.data(), r * res.stride + c);
      const float product = d * x;  // rounded to float here …
      gamma = gamma + product;      // … and the sum rounded again
      beta = beta + d;
    }
    testdata::Store(dy.dtype, out.gamma.data(), c, gamma);
    testdata::Store(dy.dtype, out.beta.data(), c, beta);
  }
  return out;
}

Outputs Engine(const testdata::Matrix& dy, const testdata::Matrix& res, size_t chunk_rows = 0,
               int threads = 1) {
  const size_t n = normgrad::SizeOf(dy.dtype);
  Outputs out{std::vector<uint8_t>(dy.cols * n), std::vector<uint8_t>(dy.cols * n)};
  normgrad::GradBetaProblem p;
  p.dtype = dy.dtype;
  p.rows = dy.rows;
  p.cols = dy.cols;
  p.row_stride = dy.stride;
  p.dy = dy.data();
  p.res = res.data();
  p.pd_gamma = out.gamma.data();
  p.pd_beta = out.beta.data();
  p.order = normgrad::Order::kSequential;
  p.chunk_rows = chunk_rows;
  p.threads = threads;
  const normgrad::Status s = normgrad::LayerNormGradBeta(p);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

// Row counts around the 4-row groups, the 64-row runs of short rows and
// the 256-row blocks; column counts around the 8- and 16-lane vectors, the
// groups of 4 vectors of short rows (64, 83 = 64 + 16 + 3, and 127 float
// columns: the longest short row) and the 16384-column strips.
const size_t kRows[] = {1, 2, 3, 4, 5, 63, 65, 255, 256, 257, 65536};
const size_t kCols[] = {1,  7,  8,   9,    15,   16,   17,    31,   33,
                        64, 83, 127, 1023, 1025, 4104, 12288, 16400};
constexpr size_t kMaxElements = size_t{1} << 22;

class SequentialShapes : public testing::TestWithParam<DType> {};

TEST_P(SequentialShapes, BitExactToTheDeviceOrder) {
  const DType t = GetParam();
  for (size_t rows : kRows) {
    for (size_t cols : kCols) {
      if (rows * cols > kMaxElements) continue;
      SCOPED_TRACE(testing::Message() << rows << "x" << cols << " seed " << testdata::Seed());
      const auto dy = testdata::Normal(t, rows, cols, testdata::Seed());
      const auto res = testdata::Normal(t, rows, cols, testdata::Seed() + 1);
      const Outputs want = DeviceOrder(dy, res);
      const Outputs got = Engine(dy, res);
      ASSERT_EQ(got.gamma, want.gamma);
      ASSERT_EQ(got.beta, want.beta);
    }
  }
}

TEST_P(SequentialShapes, ChunksAndStridesKeepTheBits) {
  const DType t = GetParam();
  const auto dy = testdata::Normal(t, 777, 40, testdata::Seed(), 48);
  const auto res = testdata::Normal(t, 777, 40, testdata::Seed() + 1, 48);
  const Outputs want = DeviceOrder(dy, res);
  // 1 row per chunk, 2 (float at min scratch), a tail (777 = 7·111), one chunk.
  for (size_t chunk : {1, 2, 7, 100, 776, 777, 5000}) {
    SCOPED_TRACE(chunk);
    const Outputs got = Engine(dy, res, chunk);
    EXPECT_EQ(got.gamma, want.gamma);
    EXPECT_EQ(got.beta, want.beta);
  }
}

TEST_P(SequentialShapes, ThreadCountsKeepTheBitsAndThreadsRun) {
  const DType t = GetParam();
  // 2048 × 1024 elements: well above the threading threshold.
  const auto dy = testdata::Normal(t, 2048, 1024, testdata::Seed());
  const auto res = testdata::Normal(t, 2048, 1024, testdata::Seed() + 1);
  const Outputs want = DeviceOrder(dy, res);
  for (int threads : {1, 2, 3, 8}) {
    SCOPED_TRACE(threads);
    const Outputs got = Engine(dy, res, 0, threads);
    EXPECT_EQ(normgrad::LastRunInfo().threads, threads);
    EXPECT_EQ(got.gamma, want.gamma);
    EXPECT_EQ(got.beta, want.beta);
  }
}

TEST_P(SequentialShapes, RelayOfShortRowsKeepsTheBitsAndThreadsRun) {
  // 64 columns are one column range: more threads take turns over chunks of
  // rows (the relay) instead of splitting columns. 40000 rows make 20 chunks
  // of 2048 rows in float and 10 of 4096 in 16-bit types, so up to 8 threads
  // all get work; a given chunk size (777 rows: 52 chunks, a tail of 373)
  // is used as the relay's chunk.
  const DType t = GetParam();
  const auto dy = testdata::Normal(t, 40000, 64, testdata::Seed());
  const auto res = testdata::Normal(t, 40000, 64, testdata::Seed() + 1);
  const Outputs want = DeviceOrder(dy, res);
  for (size_t chunk : {0, 777}) {
    for (int threads : {1, 2, 3, 8}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, chunk " << chunk);
      const Outputs got = Engine(dy, res, chunk, threads);
      EXPECT_EQ(normgrad::LastRunInfo().threads, threads);
      EXPECT_EQ(got.gamma, want.gamma);
      EXPECT_EQ(got.beta, want.beta);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, SequentialShapes,
                         testing::Values(DType::kF32, DType::kF16, DType::kBF16),
                         testdata::TypeName<testing::TestParamInfo<DType>>);

TEST(Sequential, DocumentedExample) {
  // The documented example: [1,8,8], dy = res = 0..63. pdGamma[h] = Σ_s (8s+h)^2,
  // pdBeta[h] = Σ_s (8s+h) = 224 + 8h; e.g. pdGamma[0] = 64·(0+1+4+…+49) = 8960.
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);
  std::vector<float> gamma(8), beta(8);
  normgrad::GradBetaProblem p;
  p.rows = 8;
  p.cols = 8;
  p.dy = x.data();
  p.res = x.data();
  p.pd_gamma = gamma.data();
  p.pd_beta = beta.data();
  p.order = normgrad::Order::kSequential;
  ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
  EXPECT_EQ(gamma, (std::vector<float>{8960, 9416, 9888, 10376, 10880, 11400, 11936, 12488}));
  EXPECT_EQ(beta, (std::vector<float>{224, 232, 240, 248, 256, 264, 272, 280}));
}

TEST(Sequential, F32OutputsFromHalfInputsAreTheAccumulators) {
  // 2049 rows of 1.0 + 2^-10 (exact in half): the float accumulator holds
  // 2049·(1 + 2^-10) exactly (< 2^24 units of 2^-10); narrowed to half it
  // would round to 2052 (ulp 2 above 2048).
  const auto dy = testdata::Make(DType::kF16, 2049, 16, 16, [] { return 1.0f + 1.0f / 1024; });
  const auto res = testdata::Make(DType::kF16, 2049, 16, 16, [] { return 1.0f; });
  std::vector<float> gamma(16), beta(16);
  normgrad::GradBetaProblem p;
  p.dtype = DType::kF16;
  p.f32_outputs = true;
  p.rows = 2049;
  p.cols = 16;
  p.dy = dy.data();
  p.res = res.data();
  p.pd_gamma = gamma.data();
  p.pd_beta = beta.data();
  p.order = normgrad::Order::kSequential;
  ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
  EXPECT_EQ(beta[0], 2049.0f + 2049.0f / 1024);
  EXPECT_EQ(gamma[15], 2049.0f + 2049.0f / 1024);
}

TEST(Sequential, OutputsPlacedOverTheInputsGiveTheSameBits) {
  // One thread sums straight into float outputs only when they stand apart
  // from the inputs; here pd_gamma is dy's first row and pd_beta res's, as
  // an Ascend C kernel may place them, so the sums must go through the
  // engine's own accumulators and come out as with separate outputs.
  const size_t rows = 5, cols = 40;
  const auto dy = testdata::Normal(DType::kF32, rows, cols, testdata::Seed() + 7);
  const auto res = testdata::Normal(DType::kF32, rows, cols, testdata::Seed() + 8);
  const Outputs apart = Engine(dy, res);
  testdata::Matrix dy_over = dy, res_over = res;
  normgrad::GradBetaProblem p;
  p.dtype = DType::kF32;
  p.rows = rows;
  p.cols = cols;
  p.dy = dy_over.data();
  p.res = res_over.data();
  p.pd_gamma = dy_over.bytes.data();
  p.pd_beta = res_over.bytes.data();
  p.order = normgrad::Order::kSequential;
  p.threads = 1;
  ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
  EXPECT_EQ(std::memcmp(dy_over.bytes.data(), apart.gamma.data(), cols * 4), 0);
  EXPECT_EQ(std::memcmp(res_over.bytes.data(), apart.beta.data(), cols * 4), 0);
}

}  // namespace
