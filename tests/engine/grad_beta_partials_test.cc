// grad_beta_partials_test.cc — the blocked order split into ranges of rows:
// the partials of consecutive ranges, combined, give the bits of one
// LayerNormGradBeta call (order blocked) over all rows, for every split of
// the blocks into 1..8 ranges (with empty ranges too), float, half and
// bfloat16 inputs, row counts that end inside a block, strided rows; and
// every broken rule is an error that says which.
//
// The data is standard normal, so the order of additions matters: the test
// also checks that adding the ranges' own sums (what an all-reduce does)
// misses the single call's bits for some split.
//
// To extend: add a shape to kShapes; a new rule gets a case in the error tests.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "normgrad/grad_beta_partials.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "test_data.h"

namespace {

using normgrad::DType;
using normgrad::kBlockedOrderRows;
using ::testing::HasSubstr;

// Partials in float-aligned storage, as the API requires.
struct Partials {
  std::vector<float> words;
  size_t bytes = 0;
  const void* data() const { return words.data(); }
};

struct Outputs {
  std::vector<uint8_t> gamma, beta;
  bool operator==(const Outputs& o) const { return gamma == o.gamma && beta == o.beta; }
};

Outputs SingleCall(const testdata::Matrix& dy, const testdata::Matrix& res, bool f32_outputs) {
  const size_t n = f32_outputs ? 4 : normgrad::SizeOf(dy.dtype);
  Outputs out{std::vector<uint8_t>(dy.cols * n), std::vector<uint8_t>(dy.cols * n)};
  normgrad::GradBetaProblem p;
  p.dtype = dy.dtype;
  p.f32_outputs = f32_outputs;
  p.rows = dy.rows;
  p.cols = dy.cols;
  p.row_stride = dy.stride;
  p.dy = dy.data();
  p.res = res.data();
  p.pd_gamma = out.gamma.data();
  p.pd_beta = out.beta.data();
  p.order = normgrad::Order::kBlocked;
  const normgrad::Status s = normgrad::LayerNormGradBeta(p);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

normgrad::GradBetaPartialsProblem RangeProblem(const testdata::Matrix& dy,
                                               const testdata::Matrix& res, size_t row_begin,
                                               size_t rows) {
  const size_t offset = row_begin * dy.stride * normgrad::SizeOf(dy.dtype);
  normgrad::GradBetaPartialsProblem p;
  p.dtype = dy.dtype;
  p.row_begin = row_begin;
  p.rows = rows;
  p.cols = dy.cols;
  p.row_stride = dy.stride;
  p.dy = dy.bytes.data() + offset;
  p.res = res.bytes.data() + offset;
  return p;
}

Partials MakePartials(const testdata::Matrix& dy, const testdata::Matrix& res, size_t row_begin,
                      size_t rows, int threads = 0) {
  Partials out;
  out.bytes = normgrad::GradBetaPartialsBytes(row_begin, rows, dy.cols);
  out.words.resize(out.bytes / sizeof(float));
  normgrad::GradBetaPartialsProblem p = RangeProblem(dy, res, row_begin, rows);
  p.partials = out.words.data();
  p.partials_bytes = out.bytes;
  p.threads = threads;
  const normgrad::Status s = normgrad::LayerNormGradBetaPartials(p);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

normgrad::Status Combine(const std::vector<const Partials*>& ranges, DType dtype, size_t cols,
                         bool f32_outputs, Outputs* out) {
  const size_t n = f32_outputs ? 4 : normgrad::SizeOf(dtype);
  *out = {std::vector<uint8_t>(cols * n), std::vector<uint8_t>(cols * n)};
  std::vector<const void*> data;
  std::vector<size_t> sizes;
  for (const Partials* r : ranges) {
    data.push_back(r->data());
    sizes.push_back(r->bytes);
  }
  normgrad::GradBetaCombineProblem c;
  c.partials = data.data();
  c.partials_bytes = sizes.data();
  c.count = data.size();
  c.f32_outputs = f32_outputs;
  c.pd_gamma = out->gamma.data();
  c.pd_beta = out->beta.data();
  return normgrad::CombineGradBetaPartials(c);
}

// The float sums of rows [row_begin, row_begin + rows): LayerNormGradBeta on
// the range alone (what each process of an all-reduce contributes).
std::vector<float> RangeSums(const testdata::Matrix& dy, const testdata::Matrix& res,
                             size_t row_begin, size_t rows) {
  std::vector<float> sums(2 * dy.cols);
  const normgrad::GradBetaPartialsProblem r = RangeProblem(dy, res, row_begin, rows);
  normgrad::GradBetaProblem p;
  p.dtype = dy.dtype;
  p.f32_outputs = true;
  p.rows = rows;
  p.cols = dy.cols;
  p.row_stride = dy.stride;
  p.dy = r.dy;
  p.res = r.res;
  p.pd_gamma = sums.data();
  p.pd_beta = sums.data() + dy.cols;
  EXPECT_TRUE(normgrad::LayerNormGradBeta(p).ok());
  return sums;
}

struct Shape {
  size_t rows, cols, stride;
};
// Row counts: inside one block, just over one, odd counts ending inside a
// block, a multiple of the block; 11 blocks give 968 splits into 1..8 ranges.
constexpr Shape kShapes[] = {{1, 3, 3},    {255, 17, 17}, {257, 5, 9},
                             {1537, 7, 7}, {2048, 3, 3},  {2637, 19, 24}};

class PartialsByType : public ::testing::TestWithParam<DType> {};

// Every split of the blocks into 1..8 ranges (cuts at block boundaries),
// with each range's partials computed once and reused.
TEST_P(PartialsByType, EverySplitGivesTheSingleCallBits) {
  const DType t = GetParam();
  const uint32_t seed = testdata::Seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  size_t splits = 0, allreduce_misses = 0;
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(std::to_string(shape.rows) + " × " + std::to_string(shape.cols));
    const auto dy = testdata::Normal(t, shape.rows, shape.cols, seed, shape.stride);
    const auto res = testdata::Normal(t, shape.rows, shape.cols, seed + 1, shape.stride);
    const Outputs single = SingleCall(dy, res, false);
    const Outputs single_f32 = SingleCall(dy, res, true);
    const size_t blocks = (shape.rows + kBlockedOrderRows - 1) / kBlockedOrderRows;
    const auto row_of = [&](size_t block) {
      return std::min(shape.rows, block * kBlockedOrderRows);
    };
    // partials[b0][b1]: blocks [b0, b1).
    std::vector<std::vector<Partials>> partials(blocks + 1, std::vector<Partials>(blocks + 1));
    for (size_t b0 = 0; b0 < blocks; ++b0) {
      for (size_t b1 = b0 + 1; b1 <= blocks; ++b1) {
        partials[b0][b1] = MakePartials(dy, res, row_of(b0), row_of(b1) - row_of(b0));
      }
    }
    // Cuts: a subset of the blocks - 1 inner boundaries, at most 7 of them.
    for (uint64_t mask = 0; mask < (uint64_t{1} << (blocks - 1)); ++mask) {
      if (__builtin_popcountll(mask) > 7) continue;
      std::vector<const Partials*> ranges;
      std::vector<float> allreduce(2 * shape.cols, 0.0f);
      size_t b0 = 0;
      for (size_t b = 1; b <= blocks; ++b) {
        if (b == blocks || ((mask >> (b - 1)) & 1)) {
          ranges.push_back(&partials[b0][b]);
          const auto sums = RangeSums(dy, res, row_of(b0), row_of(b) - row_of(b0));
          for (size_t i = 0; i < sums.size(); ++i) allreduce[i] += sums[i];
          b0 = b;
        }
      }
      SCOPED_TRACE("cut mask " + std::to_string(mask));
      Outputs combined;
      normgrad::Status s = Combine(ranges, t, shape.cols, false, &combined);
      ASSERT_TRUE(s.ok()) << s.message();
      ASSERT_TRUE(combined == single);
      s = Combine(ranges, t, shape.cols, true, &combined);
      ASSERT_TRUE(s.ok()) << s.message();
      ASSERT_TRUE(combined == single_f32);
      std::vector<float> single_sums(2 * shape.cols);
      std::memcpy(single_sums.data(), single_f32.gamma.data(), shape.cols * 4);
      std::memcpy(single_sums.data() + shape.cols, single_f32.beta.data(), shape.cols * 4);
      allreduce_misses +=
          std::memcmp(allreduce.data(), single_sums.data(), single_sums.size() * 4) != 0;
      ++splits;
    }
  }
  EXPECT_EQ(splits, 1u + 1 + 2 + 64 + 128 + 968);
  EXPECT_GT(allreduce_misses, 0u) << "the data does not tell summation orders apart";
}

// Empty ranges anywhere, also after a range that ends inside a block, and a
// split of a tall matrix (deeper tree) into random uneven ranges.
TEST_P(PartialsByType, EmptyRangesAndRandomSplitsOfManyBlocks) {
  const DType t = GetParam();
  const uint32_t seed = testdata::Seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t rows = 37 * kBlockedOrderRows + 101, cols = 6;
  const auto dy = testdata::Normal(t, rows, cols, seed + 2);
  const auto res = testdata::Normal(t, rows, cols, seed + 3);
  const Outputs single = SingleCall(dy, res, false);
  std::mt19937 rng(seed);
  const size_t blocks = 38;
  for (int trial = 0; trial < 300; ++trial) {
    const size_t ranges = 1 + rng() % 8;
    std::vector<size_t> cuts = {0, blocks};
    while (cuts.size() < ranges + 1) cuts.push_back(rng() % (blocks + 1));  // repeats: empty
    std::sort(cuts.begin(), cuts.end());
    std::vector<Partials> owned;
    owned.reserve(cuts.size() + 1);
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const size_t r0 = std::min(rows, cuts[i] * kBlockedOrderRows);
      const size_t r1 = std::min(rows, cuts[i + 1] * kBlockedOrderRows);
      owned.push_back(MakePartials(dy, res, r0, r1 - r0, 1 + trial % 2));
    }
    owned.push_back(MakePartials(dy, res, rows, 0));  // empty, at an unaligned row
    std::vector<const Partials*> list;
    for (const Partials& p : owned) list.push_back(&p);
    Outputs combined;
    const normgrad::Status s = Combine(list, t, cols, false, &combined);
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(combined == single) << "trial " << trial << ", " << ranges << " ranges";
  }
}

INSTANTIATE_TEST_SUITE_P(Types, PartialsByType,
                         ::testing::Values(DType::kF32, DType::kF16, DType::kBF16),
                         testdata::TypeName<::testing::TestParamInfo<DType>>);

TEST(Partials, NoRowsAtAllGivesZerosAsTheSingleCall) {
  const auto dy = testdata::Normal(DType::kF32, 0, 4, 1);
  const Partials empty = MakePartials(dy, dy, 0, 0);
  EXPECT_EQ(empty.bytes, sizeof(normgrad::GradBetaPartialsHeader));
  Outputs combined;
  ASSERT_TRUE(Combine({&empty}, DType::kF32, 4, false, &combined).ok());
  EXPECT_TRUE(combined == SingleCall(dy, dy, false));
}

TEST(Partials, LayoutIsTheDocumentedOne) {
  const auto dy = testdata::Normal(DType::kBF16, 3 * kBlockedOrderRows + 5, 2, 7);
  // Rows [256, 773): blocks 1, 2, 3 → subtrees (1 block at 1), (2 blocks at 2).
  const Partials p = MakePartials(dy, dy, 256, dy.rows - 256);
  ASSERT_EQ(p.bytes, 48u + 2 * 2 * 2 * 4);
  normgrad::GradBetaPartialsHeader h;
  std::memcpy(&h, p.data(), sizeof h);
  EXPECT_EQ(std::string(h.magic, 4), "NGBP");
  EXPECT_EQ(h.version, normgrad::kGradBetaPartialsVersion);
  EXPECT_EQ(h.block_rows, 256u);
  EXPECT_EQ(h.dtype, 2u);
  EXPECT_EQ(h.cols, 2u);
  EXPECT_EQ(h.row_begin, 256u);
  EXPECT_EQ(h.row_end, 3 * kBlockedOrderRows + 5);
  EXPECT_EQ(h.nodes, 2u);
  // The second subtree's pd_beta sums are those of rows [512, 773) alone.
  const std::vector<float> tail = RangeSums(dy, dy, 512, dy.rows - 512);
  EXPECT_EQ(std::memcmp(reinterpret_cast<const uint8_t*>(p.data()) + 48 + (2 * 2 + 2) * 4,
                        tail.data() + 2, 2 * 4),
            0);
  EXPECT_EQ(normgrad::GradBetaPartialsBytes(0, 0, 5), 48u);
  EXPECT_EQ(normgrad::GradBetaPartialsBytes(0, 7 * 256, 1), 48u + 3 * 2 * 4);  // 4 + 2 + 1
  EXPECT_EQ(normgrad::GradBetaPartialsBytes(SIZE_MAX - 1, 2, 1), 0u);
}

TEST(Partials, RangeErrorsNameTheRule) {
  const auto dy = testdata::Normal(DType::kF32, 600, 4, 1);
  std::vector<float> buffer(1024);
  normgrad::GradBetaPartialsProblem p = RangeProblem(dy, dy, 0, 300);
  p.row_begin = 300;
  p.partials = buffer.data();
  p.partials_bytes = normgrad::GradBetaPartialsBytes(300, 300, 4);
  normgrad::Status s = normgrad::LayerNormGradBetaPartials(p);
  EXPECT_THAT(s.message(), HasSubstr("LayerNormGradBetaPartials: row_begin 300 is not a multiple "
                                     "of the blocked order's block of 256 rows"));
  p.row_begin = 256;
  p.partials_bytes = 100;
  s = normgrad::LayerNormGradBetaPartials(p);
  EXPECT_THAT(s.message(), HasSubstr("partials_bytes 100 is not " +
                                     std::to_string(normgrad::GradBetaPartialsBytes(256, 300, 4))));
  p.partials_bytes = normgrad::GradBetaPartialsBytes(256, 300, 4);
  p.partials = reinterpret_cast<uint8_t*>(buffer.data()) + 2;
  s = normgrad::LayerNormGradBetaPartials(p);
  EXPECT_THAT(s.message(), HasSubstr("partials is not aligned to 4 bytes"));
  p.partials = buffer.data();
  p.cols = 0;
  EXPECT_THAT(normgrad::LayerNormGradBetaPartials(p).message(), HasSubstr("cols is 0"));
  // An empty range may start anywhere (it holds no block).
  p = RangeProblem(dy, dy, 0, 0);
  p.row_begin = 599;
  p.partials = buffer.data();
  p.partials_bytes = normgrad::GradBetaPartialsBytes(599, 0, 4);
  EXPECT_TRUE(normgrad::LayerNormGradBetaPartials(p).ok());
}

class CombineErrors : public ::testing::Test {
 protected:
  // Rows [0, 512) and [512, 600) of a 600 × 4 float matrix.
  void SetUp() override {
    dy_ = testdata::Normal(DType::kF32, 600, 4, 1);
    a_ = MakePartials(dy_, dy_, 0, 512);
    b_ = MakePartials(dy_, dy_, 512, 88);
  }
  std::string Message(const std::vector<const Partials*>& ranges) {
    Outputs out;
    const normgrad::Status s = Combine(ranges, DType::kF32, 4, false, &out);
    EXPECT_FALSE(s.ok());
    return s.message();
  }
  normgrad::GradBetaPartialsHeader& Header(Partials& p) {
    return *reinterpret_cast<normgrad::GradBetaPartialsHeader*>(p.words.data());
  }
  testdata::Matrix dy_;
  Partials a_, b_;
};

TEST_F(CombineErrors, GapOverlapAndStart) {
  Outputs out;
  ASSERT_TRUE(Combine({&a_, &b_}, DType::kF32, 4, false, &out).ok());
  EXPECT_THAT(Message({&b_, &a_}), HasSubstr("CombineGradBetaPartials: partials[0] starts at row "
                                             "512; the ranges must cover the rows from row 0"));
  const Partials first = MakePartials(dy_, dy_, 0, 256);
  EXPECT_THAT(Message({&first, &b_}),
              HasSubstr("partials[1] starts at row 512 but partials[0] ends at row 256: a gap"));
  const Partials more = MakePartials(dy_, dy_, 256, 344);
  EXPECT_THAT(Message({&a_, &more}),
              HasSubstr("partials[1] starts at row 256 but partials[0] ends at row 512: an "
                        "overlap"));
}

TEST_F(CombineErrors, MismatchedTypeColumnsOrBlock) {
  const auto half = testdata::Normal(DType::kF16, 600, 4, 1);
  const Partials h = MakePartials(half, half, 512, 88);
  EXPECT_THAT(Message({&a_, &h}), HasSubstr("partials[1] has dtype half and cols 4; partials[0] "
                                            "has float and 4: all ranges must be rows of one "
                                            "matrix"));
  const auto wide = testdata::Normal(DType::kF32, 600, 5, 1);
  const Partials w = MakePartials(wide, wide, 512, 88);
  EXPECT_THAT(Message({&a_, &w}), HasSubstr("partials[1] has dtype float and cols 5"));
  Header(b_).block_rows = 128;
  EXPECT_THAT(Message({&a_, &b_}), HasSubstr("partials[1] was summed in blocks of 128 rows; this "
                                             "build's blocked order uses 256"));
}

TEST_F(CombineErrors, NotPartialsOfThisLayout) {
  Partials bad = b_;
  Header(bad).magic[0] = 'X';
  EXPECT_THAT(Message({&a_, &bad}), HasSubstr("partials[1] does not start with \"NGBP\""));
  bad = b_;
  Header(bad).version = 2;
  EXPECT_THAT(Message({&a_, &bad}), HasSubstr("partials[1] has layout version 2; this build "
                                              "reads version 1"));
  bad = b_;
  bad.bytes -= 4;
  EXPECT_THAT(Message({&a_, &bad}), HasSubstr("partials[1] has " + std::to_string(bad.bytes) +
                                              " bytes; its header (cols 4, rows [512, 600)) "
                                              "needs " +
                                              std::to_string(b_.bytes)));
  bad = b_;
  Header(bad).nodes = 3;
  EXPECT_THAT(Message({&a_, &bad}), HasSubstr("partials[1] holds 3 subtrees; rows [512, 600) "
                                              "have 1"));
  bad = b_;
  Header(bad).row_begin = 500;
  EXPECT_THAT(Message({&a_, &bad}), HasSubstr("partials[1]: row_begin 500 is not a multiple"));
  bad.bytes = 10;
  EXPECT_THAT(Message({&a_, &bad}), HasSubstr("partials[1] has 10 bytes, less than the 48-byte "
                                              "header"));
  EXPECT_THAT(Message({}), HasSubstr("count is 0"));
}

// The partials do not depend on the thread count (the blocked order's rule).
TEST(Partials, SameBytesForAnyThreadCount) {
  const auto dy = testdata::Normal(DType::kF32, 20 * 256 + 3, 300, 4);
  const auto res = testdata::Normal(DType::kF32, 20 * 256 + 3, 300, 5);
  const Partials one = MakePartials(dy, res, 1024, dy.rows - 1024, 1);
  const Partials two = MakePartials(dy, res, 1024, dy.rows - 1024, 2);
  EXPECT_EQ(one.words, two.words);
}

}  // namespace
