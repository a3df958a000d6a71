// softmaxgrad_test.cc — AscendC::SoftmaxGrad, SoftmaxGradFront, LogSoftMax
// and AdjustSoftMaxRes through kernel_operator.h, on the emulated core: the
// bits of the documented float order and the values against a float64
// reference within the bounds of docs/numerics.md ("Activation: softmax"),
// for float and half on every profile, every overload, padded rows and
// chunks; the pages' examples; and every check's message.
//
// Random data uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "softmax_test_util.h"

namespace {

using AscendC::LocalTensor;
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
using softmax_test::kU;
using softmax_test::ProbBound;
using softmax_test::Read;
using softmax_test::ReferenceRow;
using softmax_test::RowRef;
using softmax_test::WithNarrowing;
using softmax_test::Write;

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};

struct Case {
  uint32_t m, k, ori_k;
  uint32_t work;  // 0: the minimum
};

const Case kCases[] = {
    {8, 64, 64, 0},
    {5, 64, 57, 0},
    {3, 1024, 1000, 0},
    {16, 128, 128, 20000},
};

template <typename T>
const char* Name() {
  return std::is_same_v<T, half> ? "half" : "float";
}

// Values in [lo, hi) that T holds, the padding columns zero.
template <typename T>
std::vector<float> Uniform(std::mt19937* rng, const Case& c, float lo,
                           float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(size_t{c.m} * c.k, 0.0f);
  for (uint32_t r = 0; r < c.m; ++r) {
    for (uint32_t j = 0; j < c.ori_k; ++j) {
      v[size_t{r} * c.k + j] = AsStored<T>(dist(*rng), false);
    }
  }
  return v;
}

// ---- SoftmaxGrad and SoftmaxGradFront ---------------------------------------

template <typename T>
void RunGradCase(const Case& c, Profile profile, bool front) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  SCOPED_TRACE(std::string("SoftmaxGrad<") + Name<T>() + "> [" +
               std::to_string(c.m) + ", " + std::to_string(c.k) + "] ori " +
               std::to_string(c.ori_k) + (front ? " front" : ""));
  const ProfileScope scope(profile);
  const bool saturate = profile == Profile::k950;
  const ge::Shape shape({c.m, c.k});
  const uint32_t work = c.work != 0 ? c.work
                                    : AscendC::GetSoftMaxGradMinTmpSize(
                                          shape, sizeof(T), front, false);
  SoftMaxTiling tiling;
  AscendC::SoftMaxGradTilingFunc(shape, sizeof(T), work, tiling, front);
  ASSERT_NE(tiling.splitM, 0u);
  const uint32_t n = c.m * c.k;
  const uint32_t width = 32 / sizeof(T);
  std::mt19937 rng(compat_test::Seed<32>() + n + front);
  const std::vector<float> y = Uniform<T>(&rng, c, 0.0f, 1.0f);
  const std::vector<float> g = Uniform<T>(&rng, c, -4.0f, 4.0f);
  const SoftMaxShapeInfo info{c.m, c.k, c.m, c.ori_k};
  const std::string label =
      std::string(front ? "SoftmaxGradFront<" : "SoftmaxGrad<") + Name<T>() +
      ">";
  // 0 sharedTmpBuffer, 1 framework scratch, 2 in place (dst on src; not
  // with front, whose dst is a block a row); SoftmaxGradFront for front.
  for (int form = 0; form < (front ? 2 : 3); ++form) {
    SCOPED_TRACE("form " + std::to_string(form));
    Buffers b({n * uint32_t{sizeof(T)}, n * uint32_t{sizeof(T)},
               n * uint32_t{sizeof(T)}, form == 1 ? 0 : work});
    LocalTensor<T> dst = b.Get<T>(0), grad = b.Get<T>(1), src = b.Get<T>(2);
    if (form == 2) dst = src;
    Write(src, y);
    Write(grad, g);
    if (front) {
      if (form == 0) {
        AscendC::SoftmaxGradFront<T>(dst, grad, src, b.Get<uint8_t>(3), tiling,
                                     info);
      } else {
        AscendC::SoftmaxGradFront<T>(dst, grad, src, tiling, info);
      }
    } else if (form == 1) {
      AscendC::SoftmaxGrad<T>(dst, grad, src, tiling, false, info);
    } else {
      AscendC::SoftmaxGrad<T>(dst, grad, src, b.Get<uint8_t>(3), tiling, false,
                              info);
    }
    const std::vector<float> got = Read(dst, front ? c.m * width : n);
    for (uint32_t r = 0; r < c.m; ++r) {
      const size_t at = size_t{r} * c.k;
      std::vector<float> p(c.k);
      double dd = 0, mag = 0;
      for (uint32_t j = 0; j < c.k; ++j) {
        p[j] = g[at + j] * y[at + j];
        if (j < c.ori_k) {
          dd += double{g[at + j]} * y[at + j];
          mag += std::fabs(double{g[at + j]} * y[at + j]);
        }
      }
      const float d = DocumentedRowSum(p.data(), c.ori_k);
      // The products' rounding and the row sum's: (ceil(n/64) + 7)·u·Σ|g·y|.
      const double d_bound =
          (std::ceil(c.ori_k / 64.0) + 7) * kU * mag * 1.0001;
      if (front) {
        for (uint32_t i = 0; i < width; ++i) {
          ASSERT_EQ(FloatBits(got[r * width + i]),
                    FloatBits(AsStored<T>(d, saturate)))
              << "row " << r;
        }
        ASSERT_TRUE(
            compat_test::WithinBound(label + " dst", got[r * width], dd,
                                     WithNarrowing(dd, d_bound, kHalf)));
        continue;
      }
      for (uint32_t j = 0; j < c.k; ++j) {
        const float want = (g[at + j] - d) * y[at + j];
        ASSERT_EQ(FloatBits(got[at + j]),
                  FloatBits(AsStored<T>(want, saturate)))
            << "row " << r << " column " << j;
        const double ref = (double{g[at + j]} - dd) * y[at + j];
        const double e1 = d_bound + kU * (std::fabs(g[at + j] - dd) + d_bound);
        const double bound =
            (std::fabs(y[at + j]) * e1 * (1 + kU) + kU * std::fabs(ref)) *
            1.0001;
        ASSERT_TRUE(compat_test::WithinBound(label + " dst", got[at + j], ref,
                                             WithNarrowing(ref, bound, kHalf)))
            << "row " << r << " column " << j;
      }
    }
  }
}

TEST(SoftmaxGrad, MatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      RunGradCase<float>(c, p, false);
      RunGradCase<half>(c, p, false);
    }
  }
}

TEST(SoftmaxGradFront, MatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      RunGradCase<float>(c, p, true);
      RunGradCase<half>(c, p, true);
    }
  }
}

// The pages' example: grad as printed, src all 2, half; printed to 4 or 5
// significant digits.
const float kGradExample[8][8] = {
    {-100, -80, -60, -50, -30, -20, -15, -10},
    {-9, -8, -7, -6, -5, -4, -3, -2},
    {-1.5f, -1, -0.8f, -0.6f, -0.5f, -0.45f, -0.4f, -0.35f},
    {-0.3f, -0.25f, -0.2f, -0.15f, -0.1f, -0.05f, -0.01f, -0.001f},
    {0, 0.001f, 0.01f, 0.05f, 0.1f, 0.15f, 0.2f, 0.25f},
    {0.3f, 0.35f, 0.4f, 0.45f, 0.5f, 0.6f, 0.8f, 1},
    {1.5f, 2, 3, 4, 5, 6, 7, 8},
    {9, 10, 15, 20, 30, 50, 60, 80}};
const float kGradExampleDst[8][8] = {
    {1260, 1300, 1340, 1360, 1400, 1420, 1430, 1440},
    {158, 160, 162, 164, 166, 168, 170, 172},
    {19.4f, 20.4f, 20.8f, 21.2f, 21.4f, 21.5f, 21.6f, 21.7f},
    {3.644f, 3.744f, 3.844f, 3.944f, 4.044f, 4.144f, 4.224f, 4.242f},
    {-3.044f, -3.042f, -3.024f, -2.944f, -2.844f, -2.744f, -2.644f, -2.544f},
    {-17, -16.9f, -16.8f, -16.7f, -16.6f, -16.4f, -16, -15.6f},
    {-143, -142, -140, -138, -136, -134, -132, -130},
    {-1078, -1076, -1066, -1056, -1036, -996, -976, -936}};
const float kGradFrontExample[8] = {-730,   -88,  -11.2f, -2.122f,
                                    1.522f, 8.8f, 73,     548};

TEST(SoftmaxGrad, PageExamples) {
  const ge::Shape shape({8, 16});  // 8 halves a row padded to 16
  SoftMaxTiling tiling;
  AscendC::SoftMaxGradTilingFunc(
      shape, 2, AscendC::GetSoftMaxGradMaxTmpSize(shape, 2, false, false),
      tiling);
  Buffers b({256, 256, 256, 4096});
  LocalTensor<half> dst = b.Get<half>(0), grad = b.Get<half>(1),
                    src = b.Get<half>(2);
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 16; ++j) {
      grad.SetValue(r * 16 + j,
                    static_cast<half>(j < 8 ? kGradExample[r][j] : 0.0f));
      src.SetValue(r * 16 + j, static_cast<half>(2.0f));
    }
  }
  const SoftMaxShapeInfo info{8, 16, 8, 8};
  AscendC::SoftmaxGrad<half>(dst, grad, src, b.Get<uint8_t>(3), tiling, false,
                             info);
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 8; ++j) {
      const float want = kGradExampleDst[r][j];
      EXPECT_NEAR(static_cast<float>(dst.GetValue(r * 16 + j)), want,
                  2e-3 * std::fabs(want) + 1e-3)
          << "row " << r << " column " << j;
    }
  }
  AscendC::SoftmaxGradFront<half>(dst, grad, src, b.Get<uint8_t>(3), tiling,
                                  info);
  for (int r = 0; r < 8; ++r) {
    for (int i = 0; i < 16; ++i) {
      EXPECT_NEAR(static_cast<float>(dst.GetValue(r * 16 + i)),
                  kGradFrontExample[r],
                  2e-3 * std::fabs(kGradFrontExample[r]) + 1e-3)
          << "row " << r;
    }
  }
}

TEST(SoftmaxGradBadUse, Checks) {
  SoftMaxTiling t;
  AscendC::SoftMaxGradTilingFunc(ge::Shape({4, 64}), 4, 288, t);
  Buffers b({1024, 1024, 1024, 288});
  LocalTensor<float> dst = b.Get<float>(0), grad = b.Get<float>(1),
                     src = b.Get<float>(2);
  LocalTensor<uint8_t> tmp = b.Get<uint8_t>(3);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxGrad<float>(dst, grad, src, tmp, SoftMaxTiling{});
      },
      "SoftmaxGrad: tiling.splitM is 0: the tiling is empty "
      "(SoftMaxGradTilingFunc failed or was not called)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftmaxGrad<float>(dst, grad[8], src, tmp, t); },
      "SoftmaxGrad: gradTensor holds 248 floats, fewer than the 256 it must "
      "hold (srcM * srcK)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftmaxGrad<float>(grad, grad, src, tmp, t); },
      "SoftmaxGrad writes dstTensor, so it must not share memory with another "
      "operand"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftmaxGrad<float, false, true>(dst, grad, src, tmp, t); },
      "SoftmaxGrad: isDataFormatNZ is true"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SoftmaxGradFront<float, true>(dst, grad, src, tmp, t); },
      "SoftmaxGradFront: isBasicBlock is true but the shape is [4, 64]"));
}

// ---- LogSoftMax
// ---------------------------------------------------------------

template <typename T>
void RunLogCase(const Case& c, Profile profile) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  SCOPED_TRACE(std::string("LogSoftMax<") + Name<T>() + "> [" +
               std::to_string(c.m) + ", " + std::to_string(c.k) + "]");
  const ProfileScope scope(profile);
  const bool saturate = profile == Profile::k950;
  const ge::Shape shape({c.m, c.k});
  const uint32_t work =
      c.work != 0 ? c.work
                  : AscendC::GetLogSoftMaxMinTmpSize(shape, sizeof(T), false);
  LogSoftMaxTiling tiling;
  AscendC::LogSoftMaxTilingFunc(shape, sizeof(T), work, tiling);
  ASSERT_NE(tiling.splitM, 0u);
  const uint32_t n = c.m * c.k;
  const uint32_t width = 32 / sizeof(T);
  std::mt19937 rng(compat_test::Seed<33>() + n);
  const std::vector<float> x = Uniform<T>(&rng, c, -4.0f, 4.0f);
  Buffers b({n * uint32_t{sizeof(T)}, c.m * 32, c.m * 32,
             n * uint32_t{sizeof(T)}, work});
  LocalTensor<T> dst = b.Get<T>(0), sum = b.Get<T>(1), max = b.Get<T>(2),
                 src = b.Get<T>(3);
  Write(src, x);
  AscendC::LogSoftMax<T>(dst, sum, max, src, b.Get<uint8_t>(4), tiling,
                         {c.m, c.k, c.m, c.ori_k});
  const std::vector<float> got = Read(dst, n);
  const std::string label = std::string("LogSoftMax<") + Name<T>() + "> dst";
  for (uint32_t r = 0; r < c.m; ++r) {
    const float* row = x.data() + size_t{r} * c.k;
    const float m = DocRowMax(row, c.ori_k);
    std::vector<float> e(c.k);
    for (uint32_t j = 0; j < c.k; ++j) e[j] = DocExp(row[j] - m);
    const float s = DocumentedRowSum(e.data(), c.ori_k);
    EXPECT_EQ(FloatBits(static_cast<float>(sum.GetValue(r * width))),
              FloatBits(AsStored<T>(s, saturate)));
    EXPECT_EQ(static_cast<float>(max.GetValue(r * width)), m);
    const RowRef ref = ReferenceRow(row, c.ori_k);
    for (uint32_t j = 0; j < c.k; ++j) {
      const float want =
          static_cast<float>(std::log10(static_cast<double>(e[j] / s)));
      ASSERT_EQ(FloatBits(got[r * c.k + j]),
                FloatBits(AsStored<T>(want, saturate)))
          << "row " << r << " column " << j;
      if (j >= c.ori_k) continue;
      // y's relative error ρ becomes ρ / ln 10 absolute; one more rounding.
      const double y = std::exp(row[j] - ref.max) / ref.sum;
      const double rho = (ProbBound(y, row[j] - ref.max, ref, c.ori_k, true) -
                          std::ldexp(1.0, -126)) /
                         y;
      const double want64 = std::log10(y);
      const double bound =
          (rho / std::log(10.0) + kU * std::fabs(want64)) * 1.0001;
      ASSERT_TRUE(
          compat_test::WithinBound(label, got[r * c.k + j], want64,
                                   WithNarrowing(want64, bound, kHalf)));
    }
  }
}

TEST(LogSoftMax, MatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      RunLogCase<float>(c, p);
      RunLogCase<half>(c, p);
    }
  }
}

TEST(LogSoftMax, PageExample) {
  // The SoftMax page's input; dst printed to 8 significant digits.
  const float src_values[8][8] = {
      {-100, -80, -60, -50, -30, -20, -15, -10},
      {-9, -8, -7, -6, -5, -4, -3, -2},
      {-1.5f, -1, -0.8f, -0.6f, -0.5f, -0.45f, -0.4f, -0.35f},
      {-0.3f, -0.25f, -0.2f, -0.15f, -0.1f, -0.05f, -0.01f, -0.001f},
      {0, 0.001f, 0.01f, 0.05f, 0.1f, 0.15f, 0.2f, 0.25f},
      {0.3f, 0.35f, 0.4f, 0.45f, 0.5f, 0.6f, 0.8f, 1},
      {1.5f, 2, 3, 4, 5, 6, 7, 8},
      {9, 10, 15, 20, 30, 50, 60, 80}};
  const float dst_values[8][8] = {
      {-39.08944f, -30.40355f, -21.71766f, -17.374716f, -8.688826f, -4.345881f,
       -2.1744084f, -0.00293603f},
      {-3.2391157f, -2.8048213f, -2.3705268f, -1.9362322f, -1.5019379f,
       -1.0676433f, -0.6333489f, -0.19905435f},
      {-1.2755501f, -1.0584029f, -0.971544f, -0.88468516f, -0.8412557f,
       -0.8195409f, -0.7978263f, -0.77611154f},
      {-0.97811854f, -0.9564038f, -0.93468904f, -0.9129743f, -0.89125955f,
       -0.86954486f, -0.85217315f, -0.84826446f},
      {-0.9461945f, -0.94576025f, -0.94185156f, -0.92447984f, -0.90276515f,
       -0.88105035f, -0.8593356f, -0.8376209f},
      {-1.0233353f, -1.0016205f, -0.97990584f, -0.95819116f, -0.93647635f,
       -0.89304686f, -0.806188f, -0.7193291f},
      {-3.022131f, -2.8049836f, -2.3706892f, -1.9363947f, -1.5021002f,
       -1.0678058f, -0.6335113f, -0.1992168f},
      {-30.834908f, -30.400614f, -28.229141f, -26.057669f, -21.714724f,
       -13.028834f, -8.685889f, 0.0f}};
  const ge::Shape shape({8, 8});
  LogSoftMaxTiling tiling;
  AscendC::LogSoftMaxTilingFunc(
      shape, 4, AscendC::GetLogSoftMaxMaxTmpSize(shape, 4, false), tiling);
  Buffers b({256, 256, 256, 256, 4096});
  LocalTensor<float> dst = b.Get<float>(0), sum = b.Get<float>(1),
                     max = b.Get<float>(2), src = b.Get<float>(3);
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 8; ++j) src.SetValue(r * 8 + j, src_values[r][j]);
  }
  AscendC::LogSoftMax<float>(dst, sum, max, src, b.Get<uint8_t>(4), tiling,
                             {8, 8, 8, 8});
  for (int r = 0; r < 8; ++r) {
    for (int j = 0; j < 8; ++j) {
      EXPECT_NEAR(dst.GetValue(r * 8 + j), dst_values[r][j],
                  2e-6 * std::fabs(dst_values[r][j]) + 1e-7)
          << "row " << r << " column " << j;
    }
  }
}

TEST(LogSoftMaxBadUse, Checks) {
  LogSoftMaxTiling t;
  AscendC::LogSoftMaxTilingFunc(ge::Shape({4, 64}), 4, 288, t);
  Buffers b({1024, 128, 128, 1024, 288});
  LocalTensor<float> dst = b.Get<float>(0), sum = b.Get<float>(1),
                     max = b.Get<float>(2), src = b.Get<float>(3);
  LocalTensor<uint8_t> tmp = b.Get<uint8_t>(4);
  for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, 1.0f);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::LogSoftMax<float>(src, sum, max, src, tmp, t); },
      "LogSoftMax: dst (UB bytes [1280, 2304)) and src (UB bytes [1280, "
      "2304)) overlap; LogSoftMax writes dst, so it must not share memory "
      "with another operand"));
  src.SetValue(70, 3e9f);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::LogSoftMax<float>(dst, sum, max, src, tmp, t); },
      "LogSoftMax: src[1, 6] is 3e+09, outside [-2147483647, 2147483647], the "
      "range of LogSoftMax's inputs"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LogSoftMax<float>(dst, sum, max, src, tmp, LogSoftMaxTiling{});
      },
      "LogSoftMax: tiling.splitM is 0: the tiling is empty "
      "(LogSoftMaxTilingFunc failed or was not called)"));
}

// ---- AdjustSoftMaxRes
// ---------------------------------------------------------

TEST(AdjustSoftMaxRes, PageExampleAndMatchingRows) {
  // The page: [32, 8] floats, max 7, 15, …, 255 a row, from = 0xFF7FFFFF
  // (-FLT_MAX), to = 0: no row matches, nothing changes, false.
  const float row[8] = {0.0005766128f, 0.001567396f, 0.004260624f, 0.011581578f,
                        0.031481992f,  0.08557693f,  0.23262219f,  0.63233274f};
  Buffers b({1024, 1024});
  LocalTensor<float> res = b.Get<float>(0), max = b.Get<float>(1);
  for (int r = 0; r < 32; ++r) {
    for (int j = 0; j < 8; ++j) {
      res.SetValue(r * 8 + j, row[j]);
      max.SetValue(r * 8 + j, static_cast<float>(8 * r + 7));
    }
  }
  const SoftMaxShapeInfo shape{32, 8, 32, 8};
  EXPECT_FALSE((AscendC::AdjustSoftMaxRes<float, float>(res, max, 0xFF7FFFFFu,
                                                        0.0f, shape)));
  for (int i = 0; i < 256; ++i) ASSERT_EQ(res.GetValue(i), row[i % 8]);
  // Rows 3 and 17 with max -FLT_MAX: those rows become 0, the function true.
  for (int j = 0; j < 8; ++j) {
    max.SetValue(3 * 8 + j, -FLT_MAX);
    max.SetValue(17 * 8 + j, -FLT_MAX);
  }
  EXPECT_TRUE((AscendC::AdjustSoftMaxRes<float, float>(res, max, 0xFF7FFFFFu,
                                                       0.0f, shape)));
  for (int r = 0; r < 32; ++r) {
    for (int j = 0; j < 8; ++j) {
      ASSERT_EQ(res.GetValue(r * 8 + j), r == 3 || r == 17 ? 0.0f : row[j]);
    }
  }
}

TEST(AdjustSoftMaxRes, HalfResultsAndOneMaxPerRow) {
  // half softMaxRes [4, 16]; half max one a row (stepSizeMode 1): from is
  // the half's 16 bits (1.0 = 0x3C00).
  Buffers b({128, 32});
  LocalTensor<half> res = b.Get<half>(0), max = b.Get<half>(1);
  for (int i = 0; i < 64; ++i) res.SetValue(i, static_cast<half>(0.25f));
  const float maxes[4] = {0.5f, 1.0f, 2.0f, 1.0f};
  for (int r = 0; r < 4; ++r) max.SetValue(r, static_cast<half>(maxes[r]));
  EXPECT_TRUE((AscendC::AdjustSoftMaxRes<half, half, false, 1>(
      res, max, 0x3C00u, static_cast<half>(-1.0f), {4, 16, 4, 16})));
  for (int r = 0; r < 4; ++r) {
    for (int j = 0; j < 16; ++j) {
      ASSERT_EQ(static_cast<float>(res.GetValue(r * 16 + j)),
                maxes[r] == 1.0f ? -1.0f : 0.25f);
    }
  }
}

TEST(AdjustSoftMaxRes, Checks) {
  Buffers b({1024, 128});
  LocalTensor<float> res = b.Get<float>(0), max = b.Get<float>(1);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AdjustSoftMaxRes<float, float>(res, res, 0u, 0.0f,
                                                {4, 64, 4, 64});
      },
      "AdjustSoftMaxRes: softMaxRes (UB bytes [0, 1024)) and maxTensor (UB "
      "bytes [0, 128)) overlap"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AdjustSoftMaxRes<float, float>(res, max[8], 0u, 0.0f,
                                                {4, 64, 4, 64});
      },
      "AdjustSoftMaxRes: maxTensor holds 24 floats, fewer than the 32 it must "
      "hold (srcM rows of a 32-byte block)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AdjustSoftMaxRes<float, float>(res, max, 0u, 0.0f,
                                                {4, 60, 4, 60});
      },
      "AdjustSoftMaxRes: softmaxShapeInfo.srcK 60 floats is 240 bytes, not a "
      "multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AdjustSoftMaxRes<float, float, true>(res, max, 0u, 0.0f,
                                                      {4, 64, 4, 64});
      },
      "AdjustSoftMaxRes: isDataFormatNZ is true: the API takes the ND layout "
      "only"));
}

}  // namespace
