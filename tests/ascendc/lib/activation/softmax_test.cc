// softmax_test.cc — AscendC::SoftMax and AscendC::SimpleSoftMax through
// kernel_operator.h, on the emulated core: the bits of the documented float
// order (softmax_test_util.h) and the values against a float64 reference
// within the bounds of docs/numerics.md ("Activation: softmax"), for float,
// half and half with float max/sum on every profile; every overload
// (sharedTmpBuffer or the framework scratch, with or without max and sum, in
// place); padded rows, one chunk and many, uniform rows, wide ranges and
// -inf entries; the page's example; the kernel's own re-tiling; and every
// check's message.
//
// Random data uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it. To
// extend: a row of kCases, or a bad use with the message it must give.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "softmax_test_util.h"

namespace {

using AscendC::LocalTensor;
using AscendC::SoftmaxConfig;
using AscendC::SoftmaxMode;
using AscendC::SoftMaxShapeInfo;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;
using softmax_test::AsStored;
using softmax_test::Buffers;
using softmax_test::DocExp;
using softmax_test::DocRowMax;
using softmax_test::DocumentedRowSum;
using softmax_test::Fill;
using softmax_test::kNegInf;
using softmax_test::ProbBound;
using softmax_test::Read;
using softmax_test::ReferenceRow;
using softmax_test::RowRef;
using softmax_test::SumBound;
using softmax_test::WithNarrowing;
using softmax_test::Write;

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};

// One case: m rows of k elements (the first ori_k data), the scratch bytes
// for the tiling (0: the minimum, one row a chunk), the data.
struct Case {
  uint32_t m, k, ori_k;
  uint32_t work;
  Fill fill;
};

const Case kCases[] = {
    {8, 64, 64, 0, Fill::kUniform},           // one row a chunk
    {5, 64, 57, 0, Fill::kUniform},           // padded rows
    {3, 1024, 1000, 0, Fill::kWide},          // long padded rows, wide range
    {16, 128, 128, 20000, Fill::kUniform},    // chunks of several rows + tail
    {12, 64, 64, 100000, Fill::kWithNegInf},  // one chunk, -inf entries
    {7, 192, 192, 0, Fill::kWide},            // wide range
};

// The documented order of one SoftMax row (float), the max and the sum.
struct DocRow {
  std::vector<float> y;
  float max, sum;
};

DocRow DocumentedSoftMax(const float* x, uint32_t k, uint32_t ori_k) {
  DocRow d;
  d.max = DocRowMax(x, ori_k);
  d.y.resize(k);
  for (uint32_t j = 0; j < k; ++j) d.y[j] = DocExp(x[j] - d.max);
  d.sum = DocumentedRowSum(d.y.data(), ori_k);
  for (uint32_t j = 0; j < k; ++j) d.y[j] = d.y[j] / d.sum;
  return d;
}

template <typename T>
const char* Name() {
  return std::is_same_v<T, half> ? "half" : "float";
}

// Runs one case on one profile with every overload and checks bits and
// bounds. T is src/dst, U max/sum.
template <typename T, typename U>
void RunSoftMaxCase(const Case& c, Profile profile) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr bool kStatsHalf = std::is_same_v<U, half>;
  constexpr bool kSameType = std::is_same_v<T, U>;
  const std::string type =
      std::string(Name<T>()) + (kSameType ? "" : std::string(",") + Name<U>());
  SCOPED_TRACE("SoftMax<" + type + "> [" + std::to_string(c.m) + ", " +
               std::to_string(c.k) + "] ori " + std::to_string(c.ori_k) +
               " profile " + normgrad_ascendc::GetProfileInfo(profile).name);
  const ProfileScope scope(profile);
  const bool saturate = profile == Profile::k950;
  const ge::Shape shape({c.m, c.k});
  const uint32_t work =
      c.work != 0 ? c.work
                  : AscendC::GetSoftMaxMinTmpSize(shape, sizeof(U), false);
  SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(shape, sizeof(U), work, tiling);
  ASSERT_NE(tiling.splitM, 0u);
  const uint32_t n = c.m * c.k;
  const uint32_t width = 32 / sizeof(U);
  std::mt19937 rng(compat_test::Seed<30>() + n);
  const std::vector<float> x =
      softmax_test::RandomRows<T>(&rng, c.m, c.k, c.ori_k, c.fill);
  const SoftMaxShapeInfo info{c.m, c.k, c.m, c.ori_k};
  const std::string label = "SoftMax<" + type + ">";

  // 0 sharedTmpBuffer, 1 framework scratch, 2 in place, 3 and 4 without max
  // and sum (sharedTmpBuffer, framework scratch; same types only).
  for (int form = 0; form < (kSameType ? 5 : 3); ++form) {
    SCOPED_TRACE("form " + std::to_string(form));
    const bool shared = form == 0 || form == 2 || form == 3;
    Buffers b({n * uint32_t{sizeof(T)}, c.m * 32, c.m * 32,
               n * uint32_t{sizeof(T)}, shared ? work : 0});
    LocalTensor<T> dst = b.Get<T>(0);
    LocalTensor<U> sum = b.Get<U>(1);
    LocalTensor<U> max = b.Get<U>(2);
    LocalTensor<T> src = b.Get<T>(3);
    if (form == 2) dst = src;
    Write(src, x);
    // With unpadded rows every other call passes no shape (the tiling's).
    const bool pass_shape = c.ori_k != c.k || form % 2 == 0;
    const SoftMaxShapeInfo call_info = pass_shape ? info : SoftMaxShapeInfo{};
    if constexpr (kSameType) {
      if (form == 3) {
        LocalTensor<uint8_t> tmp = b.Get<uint8_t>(4);
        AscendC::SoftMax<T>(dst, src, tmp, tiling, call_info);
      } else if (form == 4) {
        AscendC::SoftMax<T>(dst, src, tiling, call_info);
      }
    }
    if (form < 3) {
      if (shared) {
        LocalTensor<uint8_t> tmp = b.Get<uint8_t>(4);
        AscendC::SoftMax<T>(dst, sum, max, src, tmp, tiling, call_info);
      } else {
        AscendC::SoftMax<T>(dst, sum, max, src, tiling, call_info);
      }
    }
    const std::vector<float> got = Read(dst, n);
    const std::vector<float> got_sum = Read(sum, c.m * width);
    const std::vector<float> got_max = Read(max, c.m * width);
    for (uint32_t r = 0; r < c.m; ++r) {
      const float* row = x.data() + size_t{r} * c.k;
      const DocRow d = DocumentedSoftMax(row, c.k, c.ori_k);
      const RowRef ref = ReferenceRow(row, c.ori_k);
      for (uint32_t j = 0; j < c.k; ++j) {
        const float g = got[size_t{r} * c.k + j];
        ASSERT_EQ(FloatBits(g), FloatBits(AsStored<T>(d.y[j], saturate)))
            << "row " << r << " column " << j << ": got " << g
            << ", documented order " << d.y[j];
        if (j >= c.ori_k) continue;  // padding: overwritten, not a result
        const double y = std::exp(double{row[j]} - ref.max) / ref.sum;
        const double x_minus_max =
            row[j] == kNegInf ? 0.0 : double{row[j]} - ref.max;
        ASSERT_TRUE(compat_test::WithinBound(
            label + " dst", g, y,
            WithNarrowing(y, ProbBound(y, x_minus_max, ref, c.ori_k, true),
                          kHalf)))
            << "row " << r << " column " << j;
      }
      if (form >= 3) continue;
      for (uint32_t i = 0; i < width; ++i) {
        const float s = got_sum[r * width + i];
        const float m = got_max[r * width + i];
        ASSERT_EQ(FloatBits(s), FloatBits(AsStored<U>(d.sum, saturate)))
            << "sum of row " << r;
        ASSERT_EQ(FloatBits(m), FloatBits(AsStored<U>(d.max, saturate)))
            << "max of row " << r;
        ASSERT_TRUE(compat_test::WithinBound(
            label + " sum", s, ref.sum,
            WithNarrowing(ref.sum, SumBound(ref, c.ori_k), kStatsHalf)));
        ASSERT_EQ(m, static_cast<float>(ref.max));
      }
    }
  }
}

template <typename T>
Case ForType(Case c) {
  if (std::is_same_v<T, half> && c.k % 16 != 0) c.k += 8;
  return c;
}

TEST(SoftMax, FloatMatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) RunSoftMaxCase<float, float>(c, p);
  }
}

TEST(SoftMax, HalfMatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      RunSoftMaxCase<half, half>(ForType<half>(c), p);
      RunSoftMaxCase<half, float>(ForType<half>(c), p);
    }
  }
}

// The page's example: 8 rows of 8 floats; it prints dst to 8 decimals and
// max and sum to 8 digits.
const float kExampleSrc[8][8] = {
    {-100, -80, -60, -50, -30, -20, -15, -10},
    {-9, -8, -7, -6, -5, -4, -3, -2},
    {-1.5f, -1, -0.8f, -0.6f, -0.5f, -0.45f, -0.4f, -0.35f},
    {-0.3f, -0.25f, -0.2f, -0.15f, -0.1f, -0.05f, -0.01f, -0.001f},
    {0, 0.001f, 0.01f, 0.05f, 0.1f, 0.15f, 0.2f, 0.25f},
    {0.3f, 0.35f, 0.4f, 0.45f, 0.5f, 0.6f, 0.8f, 1},
    {1.5f, 2, 3, 4, 5, 6, 7, 8},
    {9, 10, 15, 20, 30, 50, 60, 80}};
const float kExampleSum[8] = {1.0067834f, 1.5814459f, 5.971886f,  7.051223f,
                              6.880514f,  5.239974f,  1.5820376f, 1.0f};
const float kExampleMax[8] = {-10, -2, -0.35f, -0.001f, 0.25f, 1, 8, 80};
const float kExampleDst[8][8] = {
    {0, 0, 0, 0, 0, 0.00004509f, 0.00669255f, 0.99326235f},
    {0.00057661f, 0.0015674f, 0.00426062f, 0.01158158f, 0.03148199f,
     0.08557693f, 0.23262219f, 0.63233274f},
    {0.05302124f, 0.08741724f, 0.10677165f, 0.13041118f, 0.14412664f,
     0.1515162f, 0.15928458f, 0.16745128f},
    {0.10516749f, 0.11055954f, 0.11622806f, 0.12218719f, 0.12845187f,
     0.13503774f, 0.1405487f, 0.14181937f},
    {0.11318932f, 0.11330257f, 0.1143269f, 0.11899266f, 0.12509353f,
     0.13150725f, 0.13824977f, 0.14533797f},
    {0.09476865f, 0.09962755f, 0.10473556f, 0.11010546f, 0.1157507f,
     0.12792432f, 0.15624711f, 0.19084065f},
    {0.00095032f, 0.00156681f, 0.00425903f, 0.01157725f, 0.03147022f,
     0.08554492f, 0.2325352f, 0.63209623f},
    {0, 0, 0, 0, 0, 0, 0, 1}};

// The example's shape with 8 floats a row: [8, 8].
SoftMaxTiling ExampleTiling() {
  const ge::Shape shape({8, 8});
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(shape, 4,
                             AscendC::GetSoftMaxMaxTmpSize(shape, 4, false), t);
  return t;
}

TEST(SoftMax, PageExample) {
  Buffers b({256, 256, 256, 256, 4096});
  LocalTensor<float> dst = b.Get<float>(0), sum = b.Get<float>(1),
                     max = b.Get<float>(2), src = b.Get<float>(3);
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 8; ++j) src.SetValue(r * 8 + j, kExampleSrc[r][j]);
  }
  AscendC::SoftMax<float>(dst, sum, max, src, b.Get<uint8_t>(4),
                          ExampleTiling(), {8, 8, 8, 8});
  for (int r = 0; r < 8; ++r) {
    for (int i = 0; i < 8; ++i) {
      EXPECT_NEAR(sum.GetValue(r * 8 + i), kExampleSum[r],
                  1e-6 * kExampleSum[r])
          << "row " << r;
      EXPECT_EQ(max.GetValue(r * 8 + i), kExampleMax[r]) << "row " << r;
    }
    for (int j = 0; j < 8; ++j) {
      // Printed to 8 decimals: half a unit of the last, and float's rounding.
      EXPECT_NEAR(dst.GetValue(r * 8 + j), kExampleDst[r][j],
                  5e-9 + 2e-7 * kExampleDst[r][j])
          << "row " << r << " column " << j;
    }
  }
}

TEST(SimpleSoftMax, PageExample) {
  // The example feeds the printed max and sum back: dst as SoftMax's, to
  // the printed sum's 8 digits.
  Buffers b({256, 256, 256, 256, 4096});
  LocalTensor<float> dst = b.Get<float>(0), sum = b.Get<float>(1),
                     max = b.Get<float>(2), src = b.Get<float>(3);
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 8; ++j) {
      src.SetValue(r * 8 + j, kExampleSrc[r][j]);
      sum.SetValue(r * 8 + j, kExampleSum[r]);
      max.SetValue(r * 8 + j, kExampleMax[r]);
    }
  }
  AscendC::SimpleSoftMax<float>(dst, sum, max, src, b.Get<uint8_t>(4),
                                ExampleTiling(), {8, 8, 8, 8});
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 8; ++j) {
      EXPECT_NEAR(dst.GetValue(r * 8 + j), kExampleDst[r][j],
                  5e-9 + 1e-6 * kExampleDst[r][j])
          << "row " << r << " column " << j;
    }
  }
}

// SimpleSoftMax with the given max and sum (of type U, per row): the bits
// of DocExp(x - max) / sum and the float64 value within its bound.
template <typename T, typename U>
void RunSimpleCase(const Case& c, Profile profile) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const std::string type =
      std::string(Name<T>()) +
      (std::is_same_v<T, U> ? "" : std::string(",") + Name<U>());
  SCOPED_TRACE("SimpleSoftMax<" + type + "> [" + std::to_string(c.m) + ", " +
               std::to_string(c.k) + "]");
  const ProfileScope scope(profile);
  const bool saturate = profile == Profile::k950;
  const ge::Shape shape({c.m, c.k});
  const uint32_t work = AscendC::GetSoftMaxMinTmpSize(shape, sizeof(U), false);
  SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(shape, sizeof(U), work, tiling);
  const uint32_t n = c.m * c.k;
  const uint32_t width = 32 / sizeof(U);
  std::mt19937 rng(compat_test::Seed<30>() + 7 * n);
  const std::vector<float> x =
      softmax_test::RandomRows<T>(&rng, c.m, c.k, c.ori_k, c.fill);
  std::vector<float> in_max(c.m * width), in_sum(c.m * width);
  for (uint32_t r = 0; r < c.m; ++r) {
    const RowRef ref = ReferenceRow(x.data() + size_t{r} * c.k, c.ori_k);
    for (uint32_t i = 0; i < width; ++i) {
      in_max[r * width + i] = AsStored<U>(static_cast<float>(ref.max), false);
      in_sum[r * width + i] = AsStored<U>(static_cast<float>(ref.sum), false);
    }
  }
  for (int form = 0; form < 2; ++form) {
    Buffers b({n * uint32_t{sizeof(T)}, c.m * 32, c.m * 32,
               n * uint32_t{sizeof(T)}, form == 0 ? work : 0});
    LocalTensor<T> dst = b.Get<T>(0), src = b.Get<T>(3);
    LocalTensor<U> sum = b.Get<U>(1), max = b.Get<U>(2);
    Write(src, x);
    Write(sum, in_sum);
    Write(max, in_max);
    const SoftMaxShapeInfo info{c.m, c.k, c.m, c.ori_k};
    if (form == 0) {
      AscendC::SimpleSoftMax<T>(dst, sum, max, src, b.Get<uint8_t>(4), tiling,
                                info);
    } else {
      AscendC::SimpleSoftMax<T>(dst, sum, max, src, tiling, info);
    }
    const std::vector<float> got = Read(dst, n);
    for (uint32_t r = 0; r < c.m; ++r) {
      const float m = in_max[r * width];
      const float s = in_sum[r * width];
      for (uint32_t j = 0; j < c.k; ++j) {
        const float xv = x[size_t{r} * c.k + j];
        const float g = got[size_t{r} * c.k + j];
        const float want = DocExp(xv - m) / s;
        ASSERT_EQ(FloatBits(g), FloatBits(AsStored<T>(want, saturate)))
            << "row " << r << " column " << j;
        const double y = std::exp(double{xv} - m) / s;
        const double d = xv == kNegInf ? 0.0 : double{xv} - m;
        const double bound =
            (std::fabs(d) + 3) * softmax_test::kU * y * 1.0001 +
            std::ldexp(1.0, -126);
        ASSERT_TRUE(compat_test::WithinBound("SimpleSoftMax<" + type + "> dst",
                                             g, y,
                                             WithNarrowing(y, bound, kHalf)));
      }
    }
  }
}

TEST(SimpleSoftMax, MatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      RunSimpleCase<float, float>(c, p);
      RunSimpleCase<half, half>(ForType<half>(c), p);
      RunSimpleCase<half, float>(ForType<half>(c), p);
    }
  }
}

TEST(SoftMax, RetilesWhenTheShapeDiffersFromTheTiling) {
  // A tiling for [4, 64] used on [6, 32]: with isCheckTiling (the default)
  // the kernel tiles again for the scratch it has and computes [6, 32].
  const ge::Shape made({4, 64});
  SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(made, 4, 4 * 72, tiling);
  Buffers b({768, 192, 192, 768, 4 * 6 * 40});
  LocalTensor<float> dst = b.Get<float>(0), sum = b.Get<float>(1),
                     max = b.Get<float>(2), src = b.Get<float>(3);
  std::mt19937 rng(compat_test::Seed<30>());
  const std::vector<float> x =
      softmax_test::RandomRows<float>(&rng, 6, 32, 32, Fill::kUniform);
  Write(src, x);
  AscendC::SoftMax<float>(dst, sum, max, src, b.Get<uint8_t>(4), tiling,
                          {6, 32, 6, 32});
  for (uint32_t r = 0; r < 6; ++r) {
    const DocRow d = DocumentedSoftMax(x.data() + r * 32, 32, 32);
    for (uint32_t j = 0; j < 32; ++j) {
      ASSERT_EQ(FloatBits(dst.GetValue(r * 32 + j)), FloatBits(d.y[j]));
    }
    EXPECT_EQ(FloatBits(sum.GetValue(r * 8)), FloatBits(d.sum));
  }
}

// ---- bad use ----------------------------------------------------------------

constexpr SoftmaxConfig kNoCheck = {false, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
constexpr SoftmaxConfig kConst16 = {true, 4, 16, SoftmaxMode::SOFTMAX_NORMAL};
constexpr SoftmaxConfig kWithoutBrc = {true, 0, 0,
                                       SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

// [4, 64] floats with a scratch of one row.
struct BadUse : ::testing::Test {
  SoftMaxTiling t;
  Buffers b{{1024, 128, 128, 1024, 288, 4096}};
  LocalTensor<float> dst = b.Get<float>(0), sum = b.Get<float>(1),
                     max = b.Get<float>(2), src = b.Get<float>(3);
  LocalTensor<uint8_t> tmp = b.Get<uint8_t>(4);
  BadUse() { AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), 4, 288, t); }
  void Call(const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info = {}) {
    AscendC::SoftMax<float>(dst, sum, max, src, tmp, tiling, info);
  }
};

TEST_F(BadUse, EmptyTiling) {
  EXPECT_TRUE(FailsWith([&] { Call(SoftMaxTiling{}); },
                        "SoftMax: tiling.splitM is 0: the tiling is empty "
                        "(SoftMaxTilingFunc failed or was not called)"));
}

TEST_F(BadUse, InconsistentTiling) {
  SoftMaxTiling bad = t;
  bad.rangeM = 5;
  EXPECT_TRUE(FailsWith([&] { Call(bad); },
                        "SoftMax: tiling.rangeM is 5, expected 4 (srcM / "
                        "splitM): the tiling is inconsistent"));
  bad = t;
  bad.splitM = 9;
  EXPECT_TRUE(FailsWith([&] { Call(bad); },
                        "SoftMax: tiling.splitM 9 must be in [1, tiling.srcM "
                        "4]"));
  // A tiling made for half max/sum (16 a row) on float max/sum.
  SoftMaxTiling half_stats;
  AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), 2, 288, half_stats);
  EXPECT_TRUE(FailsWith([&] { Call(half_stats); },
                        "SoftMax: tiling.outMaxK is 16, expected 8 (a 32-byte "
                        "block of float max/sum: the tiling function's "
                        "max/sum size must be 4)"));
}

TEST_F(BadUse, ShapeRules) {
  EXPECT_TRUE(FailsWith(
      [&] {
        Call(t, {4, 60, 4, 60});
      },
      "SoftMax: softmaxShapeInfo.srcK 60 floats is 240 bytes, "
      "not a multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Call(t, {4, 64, 4, 65});
      },
      "SoftMax: softmaxShapeInfo.oriSrcK 65 must be in [1, "
      "srcK 64]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Call(t, {4, 64, 0, 64});
      },
      "SoftMax: softmaxShapeInfo.oriSrcM 0 must be in [1, "
      "srcM 4]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Call(t, {0, 64, 0, 64});
      },
      "SoftMax: softmaxShapeInfo.srcM 0 and srcK 64 must "
      "both be at least 1"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftMax<float, false, false, false, kConst16>(
            dst, sum, max, src, tmp, t, {4, 64, 4, 64});
      },
      "SoftMax: config.oriSrcK 16 differs from the call's oriSrcK 64: the "
      "constant shape must be the call's"));
}

TEST_F(BadUse, ShapeAgainstTiling) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftMax<float, false, false, false, kNoCheck>(
            dst, sum, max, src, tmp, t, {2, 64, 2, 64});
      },
      "SoftMax: the tiling is for [4, 64] but softmaxShapeInfo is [2, 64]; "
      "with config.isCheckTiling = false they must agree"));
  // Re-tiling [4, 128] needs 4·136 bytes for one row: the 288 are too few.
  EXPECT_TRUE(FailsWith(
      [&] {
        Call(t, {4, 128, 4, 128});
      },
      "SoftMax: the tiling is for [4, 64], so it is made "
      "again for softmaxShapeInfo [4, 128]: sharedTmpBuffer "
      "holds 288 bytes, fewer than the 544 one row needs"));
}

TEST_F(BadUse, Forms) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftMax<float, false, false, true>(dst, sum, max, src, tmp, t);
      },
      "SoftMax: isDataFormatNZ is true: normgrad supports the ND layout "
      "only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftMax<float, false, false, false, kWithoutBrc>(dst, sum, max,
                                                                  src, tmp, t);
      },
      "SoftMax: config.mode is 1: SoftMax has no output mode, it must be "
      "SoftmaxMode::SOFTMAX_NORMAL"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SimpleSoftMax<float, false, false, true>(dst, sum, max, src,
                                                          tmp, t);
      },
      "SimpleSoftMax: isDataFormatNZ is true"));
}

TEST_F(BadUse, BasicBlock) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftMax<float, false, true>(dst, sum, max, src, tmp, t); },
      "SoftMax: isBasicBlock is true but the shape is [4, 64]; a basic block "
      "needs srcK a multiple of 64 in [64, 2048) and srcM a multiple of 8"));
}

TEST(SoftMaxBadUse, BasicBlockChunks) {
  // [8, 64] in chunks of 3 rows: the shape is basic, the chunks are not.
  Buffers big({2048, 256, 256, 2048, 4 * 3 * 72});
  SoftMaxTiling t3;
  AscendC::SoftMaxTilingFunc(ge::Shape({8, 64}), 4, 4 * 3 * 72, t3);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftMax<float, false, true>(
            big.Get<float>(0), big.Get<float>(1), big.Get<float>(2),
            big.Get<float>(3), big.Get<uint8_t>(4), t3);
      },
      "SoftMax: isBasicBlock is true but tiling.splitM is 3; a basic block "
      "needs chunks of a multiple of 8 rows"));
}

TEST_F(BadUse, Lengths) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftMax<float>(dst, sum, max, src[8], tmp, t); },
      "SoftMax: srcTensor holds 248 floats, fewer than the 256 it must hold "
      "(srcM * srcK)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftMax<float>(dst, sum[8], max, src, tmp, t); },
      "SoftMax: sumTensor holds 24 floats, fewer than the 32 it must hold "
      "(srcM rows of a 32-byte block)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SimpleSoftMax<float>(dst, sum, max[8], src, tmp, t); },
      "SimpleSoftMax: inMaxTensor holds 24 floats, fewer than the 32"));
}

TEST_F(BadUse, Scratch) {
  SoftMaxTiling two_rows;
  AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), 4, 4 * 2 * 72, two_rows);
  EXPECT_TRUE(FailsWith([&] { Call(two_rows); },
                        "SoftMax: sharedTmpBuffer holds 288 bytes, fewer than "
                        "the 576 a chunk of tiling.splitM 2 rows needs"));
}

TEST_F(BadUse, Overlaps) {
  // dst may be src itself but not overlap it partly.
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<float> spare = b.Get<float>(5);
        AscendC::SoftMax<float>(spare[8], sum, max, spare, tmp, t);
      },
      "dstTensor may be srcTensor itself but must not overlap it partly"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftMax<float>(dst, sum, dst, src, tmp, t); },
      "SoftMax: dstTensor (UB bytes [0, 1024)) and maxTensor (UB bytes [0, "
      "128)) overlap; SoftMax writes dstTensor, so it must not share memory "
      "with another operand"));
  // The scratch shares memory with nothing.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftMax<float>(dst, sum, max, src, b.Get<uint8_t>(3), t);
      },
      "and sharedTmpBuffer (UB bytes"));
}

}  // namespace
