// layernorm_separate_test.cc — LayerNorm's second form ([A, R] rows, float
// mean and rstd or variance; AscendC::LayerNorm<U, T, isReuseSource, config>
// with LayerNormPara and LayerNormSeparateTiling) through kernel_operator.h:
// bit for bit against a transcription of the documented order written here
// (docs/layernorm.md, "The [A, R] form"), against a float64 reference within
// the bound of docs/numerics.md for every type and profile, U = T and
// U = float, both scratch forms, padded rows, fewer rows than the tiling's,
// the config's isNoGamma, isNoBeta and isOutputRstd, and every kernel-side
// check with its message. The first form keeps its own tests
// (layernorm_test.cc), unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LayerNormConfig;
using AscendC::LayerNormPara;
using AscendC::LayerNormSeparateTiling;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

constexpr LayerNormConfig kNoGamma = {false, true, false, true};
constexpr LayerNormConfig kNoBeta = {true, false, false, true};
constexpr LayerNormConfig kVariance = {false, false, false, false};
constexpr LayerNormConfig kOnlyOutput = {false, false, true, true};

uint32_t Seed() { return compat_test::Seed<20251204u>(); }

// The documented row sum, written from its description: add the elements
// past the largest power of two onto the first ones; halve by adding 64-wide
// blocks pairwise down to 64 lanes; then a tree of neighbours over 64 lanes.
float DocumentedSum(std::vector<float> v) {
  size_t head = 1;
  while (head * 2 <= v.size()) head *= 2;
  for (size_t i = head; i < v.size(); ++i) v[i - head] = v[i - head] + v[i];
  v.resize(head);
  while (v.size() > 64) {
    std::vector<float> next(v.size() / 2);
    for (size_t b = 0; b < next.size() / 64; ++b) {
      for (size_t l = 0; l < 64; ++l) {
        next[b * 64 + l] = v[2 * b * 64 + l] + v[(2 * b + 1) * 64 + l];
      }
    }
    v.swap(next);
  }
  v.resize(64, 0.0f);
  while (v.size() > 1) {
    std::vector<float> next(v.size() / 2);
    for (size_t k = 0; k < next.size(); ++k) next[k] = v[2 * k] + v[2 * k + 1];
    v.swap(next);
  }
  return v[0];
}

template <typename T, typename U>
struct Tensors {
  Tensors(uint32_t a, uint32_t rp, uint32_t scratch) {
    pipe.InitBuffer(x_buf, a * rp * sizeof(T));
    pipe.InitBuffer(y_buf, a * rp * sizeof(T));
    pipe.InitBuffer(mean_buf, ((a * 4 + 31) / 32) * 32);
    pipe.InitBuffer(rstd_buf, ((a * 4 + 31) / 32) * 32);
    pipe.InitBuffer(gamma_buf, ((rp * sizeof(U) + 31) / 32) * 32);
    pipe.InitBuffer(beta_buf, ((rp * sizeof(U) + 31) / 32) * 32);
    x = x_buf.template Get<T>();
    y = y_buf.template Get<T>();
    mean = mean_buf.template Get<float>();
    rstd = rstd_buf.template Get<float>();
    gamma = gamma_buf.template Get<U>();
    beta = beta_buf.template Get<U>();
    if (scratch != 0) {
      pipe.InitBuffer(tmp_buf, scratch);
      tmp = tmp_buf.template Get<uint8_t>();
    }
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> x_buf, gamma_buf, beta_buf;
  TBuf<TPosition::VECOUT> y_buf, mean_buf, rstd_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> x, y;
  LocalTensor<float> mean, rstd;
  LocalTensor<U> gamma, beta;
  LocalTensor<uint8_t> tmp;
};

struct Case {
  uint32_t tiling_a, a, r, rp;
  uint32_t bytes;  // 0: the minimum
};

template <typename U, typename T, const LayerNormConfig& config>
// With `hand_filled` the call gets only the tiling's aLength and rLength, as
// programs built for the Ascend 950 fill it.
void Check(const Case& c, Profile profile, bool shared, std::mt19937& rng,
           bool hand_filled = false) {
  constexpr bool k16 = sizeof(T) == 2;
  const std::string label = std::string("LayerNorm [A, R]<") +
                            normgrad_ascendc::TypeName<U>() + ", " +
                            normgrad_ascendc::TypeName<T>() + ">";
  SCOPED_TRACE(testing::Message()
               << "A " << c.a << " of " << c.tiling_a << ", R " << c.r << " of "
               << c.rp << ", T size " << sizeof(T) << ", U size " << sizeof(U)
               << ", profile " << static_cast<int>(profile)
               << (shared ? " shared" : " framework") << " gamma "
               << !config.isNoGamma << " beta " << !config.isNoBeta << " rstd "
               << config.isOutputRstd);
  ProfileScope scope(profile);
  uint32_t max_bytes = 0, min_bytes = 0;
  const ge::Shape shape({c.tiling_a, c.rp});
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(T), false, true, false,
                                     max_bytes, min_bytes);
  ASSERT_GT(min_bytes, 0u);
  const uint32_t bytes = c.bytes != 0 ? c.bytes : min_bytes;
  LayerNormSeparateTiling tiling;
  AscendC::GetLayerNormNDTilingInfo(shape, bytes, sizeof(T), false, true,
                                    tiling);
  ASSERT_NE(tiling.oneTmpSize, 0u);
  if (hand_filled) {
    LayerNormSeparateTiling shape_only{};
    shape_only.aLength = tiling.aLength;
    shape_only.rLength = tiling.rLength;
    tiling = shape_only;
  }

  Tensors<T, U> t(c.a, c.rp, shared ? bytes : 0);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  std::vector<float> x(size_t{c.a} * c.rp, 0.0f), gamma(c.rp), beta(c.rp);
  for (uint32_t row = 0; row < c.a; ++row) {
    const float offset = value(rng);
    for (uint32_t i = 0; i < c.r; ++i) {
      x[size_t{row} * c.rp + i] =
          static_cast<float>(static_cast<T>(offset + value(rng)));
    }
  }
  for (float& v : gamma) v = static_cast<float>(static_cast<U>(value(rng)));
  for (float& v : beta) v = static_cast<float>(static_cast<U>(value(rng)));
  for (size_t i = 0; i < x.size(); ++i) t.x.SetValue(i, static_cast<T>(x[i]));
  for (uint32_t i = 0; i < c.rp; ++i) {
    t.gamma.SetValue(i, static_cast<U>(gamma[i]));
    t.beta.SetValue(i, static_cast<U>(beta[i]));
  }
  const float eps = 1e-5f;
  const LayerNormPara para{c.a, c.r, c.rp};
  if (shared) {
    AscendC::LayerNorm<U, T, false, config>(t.y, t.mean, t.rstd, t.x, t.gamma,
                                            t.beta, eps, t.tmp, para, tiling);
  } else {
    AscendC::LayerNorm<U, T, false, config>(t.y, t.mean, t.rstd, t.x, t.gamma,
                                            t.beta, eps, para, tiling);
  }

  const double u = std::ldexp(1.0, -24);
  for (uint32_t row = 0; row < c.a; ++row) {
    const float* xr = x.data() + size_t{row} * c.rp;
    // The documented order, bit for bit (float arithmetic).
    const float inv_r = 1.0f / static_cast<float>(c.r);
    std::vector<float> q(c.r), d(c.r);
    for (uint32_t i = 0; i < c.r; ++i) q[i] = xr[i] * inv_r;
    const float mean = DocumentedSum(q);
    for (uint32_t i = 0; i < c.r; ++i) d[i] = xr[i] - mean;
    for (uint32_t i = 0; i < c.r; ++i) q[i] = (d[i] * d[i]) * inv_r;
    const float var = DocumentedSum(q);
    const float rstd = 1.0f / std::sqrt(var + eps);
    EXPECT_EQ(t.mean.GetValue(row), mean) << row;
    EXPECT_EQ(t.rstd.GetValue(row), config.isOutputRstd ? rstd : var) << row;
    // float64: the bound of docs/numerics.md, "LayerNorm's [A, R] form".
    double m = 0, a_max = 0;
    for (uint32_t i = 0; i < c.r; ++i) {
      m += xr[i];
      a_max = std::max(a_max, std::fabs(double{xr[i]}));
    }
    m /= c.r;
    double v = 0;
    for (uint32_t i = 0; i < c.r; ++i) v += (xr[i] - m) * (xr[i] - m);
    v /= c.r;
    const double s = std::sqrt(v + eps), kappa = std::max(a_max / s, 1.0);
    const double k =
        std::max(std::floor(std::log2(static_cast<double>(c.r))), 6.0) + 2;
    const double bound_c = 4 * k + 32;
    EXPECT_TRUE(WithinBound(label + " mean", mean, m, bound_c * u * a_max))
        << row;
    for (uint32_t i = 0; i < c.r; ++i) {
      float want = d[i] * rstd;
      if (!config.isNoGamma) want = want * gamma[i];
      if (!config.isNoBeta) want = want + beta[i];
      const float got =
          static_cast<float>(t.y.GetValue(size_t{row} * c.rp + i));
      ASSERT_EQ(got, static_cast<float>(static_cast<T>(want)))
          << row << " " << i;
      const double xhat = (xr[i] - m) / s;
      const double ref = xhat * (config.isNoGamma ? 1.0 : gamma[i]) +
                         (config.isNoBeta ? 0.0 : beta[i]);
      double bound = (config.isNoGamma ? 1.0 : std::fabs(gamma[i])) * bound_c *
                         u * kappa * (1 + std::fabs(xhat)) +
                     2 * u * std::fabs(ref);
      if (k16)
        bound += std::ldexp(1.0, std::is_same_v<T, half> ? -11 : -8) *
                     (std::fabs(ref) + bound) +
                 std::ldexp(1.0, -24);
      ASSERT_TRUE(WithinBound(label + " y", got, ref, bound))
          << row << " " << i;
    }
  }
}

const Case kCases[] = {
    {1, 1, 64, 64, 0},  // one row, the minimum scratch
    {4, 4, 48, 48,
     0},  // R not a power of two: a tail of 16 onto the head of 32
    {8, 5, 100, 112, 0},    // padded rows, fewer rows than the tiling's
    {3, 3, 1000, 1008, 0},  // 512 + 488: three halvings down to 64 lanes
    {2, 2, 16, 16, 4096},   // more scratch than needed
};

TEST(LayerNormSeparate, HalfAndFloatOnEveryProfile) {
  std::mt19937 rng(Seed());
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    for (bool shared : {true, false}) {
      for (const Case& c : kCases) {
        Check<float, float, AscendC::LNCFG_NORM>(c, p, shared, rng);
        Check<half, half, AscendC::LNCFG_NORM>(c, p, shared, rng);
        Check<float, half, AscendC::LNCFG_NORM>(c, p, shared, rng);
      }
    }
  }
}

TEST(LayerNormSeparate, Bfloat16OnAscend950) {
  std::mt19937 rng(Seed());
  for (const Case& c : kCases) {
    Check<bfloat16_t, bfloat16_t, AscendC::LNCFG_NORM>(c, Profile::k950, true,
                                                       rng);
    Check<float, bfloat16_t, AscendC::LNCFG_NORM>(c, Profile::k950, false, rng);
  }
}

TEST(LayerNormSeparate, ConfigLeavesOutGammaOrBetaAndOutputsTheVarianceOn950) {
  std::mt19937 rng(Seed());
  for (const Case& c : kCases) {
    Check<float, float, kNoGamma>(c, Profile::kA2, true, rng);
    Check<half, half, kNoBeta>(c, Profile::k310P, false, rng);
    Check<float, float, kVariance>(c, Profile::k950, true, rng);
  }
}

TEST(LayerNormSeparate, HandFilledTilingOnAscend950) {
  std::mt19937 rng(Seed() + 950);
  for (const Case& c : kCases) {
    Check<float, float, AscendC::LNCFG_NORM>(c, Profile::k950, true, rng, true);
    Check<half, half, AscendC::LNCFG_NORM>(c, Profile::k950, false, rng, true);
    Check<float, bfloat16_t, AscendC::LNCFG_NORM>(c, Profile::k950, true, rng,
                                                  true);
  }
  ProfileScope scope(Profile::kA2);
  Tensors<float, float> t(2, 64, 512);
  LayerNormSeparateTiling shape_only{};
  shape_only.aLength = 2;
  shape_only.rLength = 64;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LayerNorm<float, float, false>(
            t.y, t.mean, t.rstd, t.x, t.gamma, t.beta, 1e-5f, t.tmp,
            LayerNormPara{2, 64}, shape_only);
      },
      "LayerNorm: tiling.oneTmpSize is 0: the [A, R] tiling is empty"));
}

// The page's kernel sample builds the para from aLength and
// rLengthWithPadding alone: rLength is then the whole row.
TEST(LayerNormSeparate, TwoArgumentParaTakesTheWholeRow) {
  const LayerNormPara p(2, 64);
  EXPECT_EQ(p.aLength, 2u);
  EXPECT_EQ(p.rLength, 64u);
  EXPECT_EQ(p.rLengthWithPadding, 64u);
  const LayerNormPara q = {2, 60, 64};
  EXPECT_EQ(q.rLength, 60u);
}

class LayerNormSeparateChecks : public ::testing::Test {
 protected:
  LayerNormSeparateChecks() : t(4, 64, 512) {
    AscendC::GetLayerNormNDTilingInfo(ge::Shape({4, 64}), 512, 4, false, true,
                                      tiling);
  }
  template <const LayerNormConfig& config = AscendC::LNCFG_NORM>
  void Run(const LayerNormPara& para) {
    AscendC::LayerNorm<float, float, false, config>(
        t.y, t.mean, t.rstd, t.x, t.gamma, t.beta, 1e-5f, t.tmp, para, tiling);
  }
  ProfileScope scope{Profile::kA2};
  Tensors<float, float> t;
  LayerNormSeparateTiling tiling;
};

TEST_F(LayerNormSeparateChecks, ValidSetupRuns) {
  EXPECT_NO_THROW(Run({4, 64, 64}));
}

TEST_F(LayerNormSeparateChecks, ConfigAndProfile) {
  EXPECT_TRUE(FailsWith(
      [&] {
        Run<kVariance>({4, 64, 64});
      },
      "LayerNorm: config.isOutputRstd is false (output the variance), which "
      "only the Ascend 950 profile supports, not profile a2"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Run<kOnlyOutput>({4, 64, 64});
      },
      "LayerNorm: config.isOnlyOutput is true; only false is supported"));
}

TEST(LayerNormSeparateChecksOther, Bfloat16IsRefusedOffAscend950) {
  ProfileScope scope(Profile::k310P);
  Tensors<bfloat16_t, bfloat16_t> t(1, 64, 512);
  LayerNormSeparateTiling tiling;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({1, 64}), 512, 2, false, true,
                                    tiling);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LayerNorm<bfloat16_t, bfloat16_t>(t.y, t.mean, t.rstd, t.x,
                                                   t.gamma, t.beta, 1e-5f,
                                                   t.tmp, {1, 64, 64}, tiling);
      },
      "LayerNorm: the [A, R] form takes bfloat16_t only on the Ascend 950 "
      "profile, not on "
      "profile 310p"));
}

TEST_F(LayerNormSeparateChecks, ParaAgainstTheTiling) {
  EXPECT_TRUE(FailsWith(
      [&] {
        Run({5, 64, 64});
      },
      "LayerNorm: para.aLength is 5; it must be in [1, tiling.aLength 4]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Run({4, 64, 72});
      },
      "LayerNorm: para.rLengthWithPadding is 72; it must be in [1, "
      "tiling.rLength 64]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Run({4, 64, 60});
      },
      "LayerNorm: para.rLengthWithPadding 60 floats is 240 bytes, not a "
      "multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Run({4, 65, 64});
      },
      "LayerNorm: para.rLength is 65; it must be in [1, "
      "para.rLengthWithPadding 64]"));
  tiling = LayerNormSeparateTiling{};
  EXPECT_TRUE(FailsWith(
      [&] {
        Run({4, 64, 64});
      },
      "LayerNorm: tiling.oneTmpSize is 0: the [A, R] tiling is empty"));
}

TEST_F(LayerNormSeparateChecks, OverlapsAndLengths) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LayerNorm<float, float>(t.x, t.mean, t.rstd, t.x, t.gamma,
                                         t.beta, 1e-5f, t.tmp, {4, 64, 64},
                                         tiling);
      },
      "LayerNorm: output (UB bytes [0, 1024)) and inputX (UB bytes [0, 1024)) "
      "overlap; in "
      "the [A, R] form no output may share memory with another operand"));
  LocalTensor<float> small = t.tmp.ReinterpretCast<float>();
  small.SetSize(16);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LayerNorm<float, float>(
            t.y, t.mean, t.rstd, t.x, t.gamma, t.beta, 1e-5f,
            small.ReinterpretCast<uint8_t>(), {4, 64, 64}, tiling);
      },
      "LayerNorm: sharedTmpBuffer holds 16 elements of 4 bytes, fewer than the "
      "128 it must "
      "hold"));
}

}  // namespace
