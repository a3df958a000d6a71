// normalize_test.cc — AscendC::Normalize through kernel_operator.h, on the
// emulated core: the documented example bit for bit; bit-exactness against a
// transcription of the numeric order of docs/normalize.md and accuracy
// against a float64 reference within the bound derived in docs/numerics.md
// ("Normalize"), for every T × U a profile supports, the four configs, both
// prototypes and padded rows; every kernel-side check with its message; the
// host's minimum scratch feeding the kernel.
//
// The oracles here — DocumentedRow (the numeric order), the float64
// reference and its bound — are written for these tests from
// docs/normalize.md and share no code with src/. Random data uses a fixed
// seed, printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::NormalizeConfig;
using AscendC::NormalizePara;
using AscendC::ReducePattern;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::ProfileScope;
using compat_test::RoundToHalf;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

constexpr double kU = 1.0 / (1 << 24);
constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};

// Configs used as template arguments need static storage.
constexpr NormalizeConfig kPatternRa{ReducePattern::RA, -1, false, false,
                                     false};
constexpr NormalizeConfig kOnlyOutput{ReducePattern::AR, -1, false, false,
                                      true};
constexpr NormalizeConfig kALength3{ReducePattern::AR, 3, false, false, false};
constexpr NormalizeConfig kALength1{ReducePattern::AR, 1, false, false, false};

// The bfloat16 value nearest to x, ties to even (by the format's definition).
float RoundToBf16(float x) {
  uint32_t bits = FloatBits(x);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return compat_test::BitsFloat(bits & 0xFFFF0000u);
}

template <typename T>
float Representable(float x) {
  if constexpr (std::is_same_v<T, half>) return RoundToHalf(x, false);
  if constexpr (std::is_same_v<T, bfloat16_t>) return RoundToBf16(x);
  return x;
}

template <typename T>
float Narrowed(float x, bool saturate) {
  if constexpr (std::is_same_v<T, half>) return RoundToHalf(x, saturate);
  if constexpr (std::is_same_v<T, bfloat16_t>) return RoundToBf16(x);
  return x;
}

// A pipe with every operand and a scratch of the given bytes.
template <typename U, typename T>
struct Tensors {
  TPipe pipe;
  TBuf<TPosition::VECCALC> y_buf, rstd_buf, mean_buf, var_buf, x_buf, gamma_buf,
      beta_buf, tmp_buf;
  LocalTensor<T> y, x;
  LocalTensor<float> rstd, mean, var;
  LocalTensor<U> gamma, beta;
  LocalTensor<uint8_t> tmp;
  Tensors(const NormalizePara& p, uint32_t scratch_bytes) {
    const uint32_t xa = p.aLength * p.rLengthWithPadding;
    const uint32_t a8 = (p.aLength + 7) / 8 * 8;
    const uint32_t r16 = (p.rLength + 15) / 16 * 16;
    pipe.InitBuffer(y_buf, xa * sizeof(T));
    pipe.InitBuffer(x_buf, xa * sizeof(T));
    pipe.InitBuffer(rstd_buf, a8 * 4);
    pipe.InitBuffer(mean_buf, a8 * 4);
    pipe.InitBuffer(var_buf, a8 * 4);
    pipe.InitBuffer(gamma_buf, r16 * sizeof(U));
    pipe.InitBuffer(beta_buf, r16 * sizeof(U));
    if (scratch_bytes != 0) pipe.InitBuffer(tmp_buf, scratch_bytes);
    y = y_buf.template Get<T>();
    x = x_buf.template Get<T>();
    rstd = rstd_buf.template Get<float>();
    mean = mean_buf.template Get<float>();
    var = var_buf.template Get<float>();
    gamma = gamma_buf.template Get<U>();
    beta = beta_buf.template Get<U>();
    if (scratch_bytes != 0) tmp = tmp_buf.template Get<uint8_t>();
  }
};

uint32_t MinScratch(const NormalizePara& p, uint32_t u_size, uint32_t t_size) {
  uint32_t max = 0, min = 0;
  AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({p.aLength, p.rLength}), u_size,
                                     t_size, false, true, false, max, min);
  EXPECT_NE(min, 0u);
  return min;
}

TEST(Normalize, DocumentedExampleBitForBit) {
  // [8, 8] float: x = 0..63, mean = variance = 0..7, gamma = beta = 1,
  // epsilon 0.001.
  const float y_doc[64] = {
      1.0f,       32.622772f, 64.245544f,  95.868324f, 127.4911f,  159.11388f,
      190.73665f, 222.35942f, 7.996503f,   8.996003f,  9.995503f,  10.995004f,
      11.994504f, 12.994005f, 13.9935055f, 14.993006f, 10.897021f, 11.603951f,
      12.310882f, 13.017812f, 13.724742f,  14.431672f, 15.138602f, 15.845532f,
      13.122336f, 13.699591f, 14.276845f,  14.854099f, 15.431353f, 16.008606f,
      16.585861f, 17.163115f, 14.998251f,  15.498188f, 15.998126f, 16.498064f,
      16.998001f, 17.497938f, 17.997875f,  18.497814f, 16.65091f,  17.09808f,
      17.545248f, 17.992416f, 18.439585f,  18.886755f, 19.333923f, 19.781092f,
      18.144999f, 18.553213f, 18.961428f,  19.369642f, 19.777857f, 20.186071f,
      20.594284f, 21.002499f, 19.518936f,  19.896873f, 20.27481f,  20.652748f,
      21.030685f, 21.408623f, 21.78656f,   22.164497f};
  const float rstd_doc[8] = {31.622774f,  0.9995004f,  0.7069301f,
                             0.5772541f,  0.49993753f, 0.44716886f,
                             0.40821427f, 0.37793747f};
  const NormalizePara para(8, 8, 8);
  for (Profile profile : kProfiles) {
    const ProfileScope scope(profile);
    for (bool shared : {true, false}) {
      Tensors<float, float> ts(para, shared ? MinScratch(para, 4, 4) : 0);
      for (uint32_t i = 0; i < 64; ++i) ts.x.SetValue(i, static_cast<float>(i));
      for (uint32_t i = 0; i < 8; ++i) {
        ts.mean.SetValue(i, static_cast<float>(i));
        ts.var.SetValue(i, static_cast<float>(i));
        ts.gamma.SetValue(i, 1.0f);
        ts.beta.SetValue(i, 1.0f);
      }
      if (shared) {
        AscendC::Normalize<float, float>(ts.y, ts.rstd, ts.mean, ts.var, ts.x,
                                         ts.gamma, ts.beta, ts.tmp, 0.001f,
                                         para);
      } else {
        AscendC::Normalize<float, float, false, AscendC::NLCFG_NORM>(
            ts.y, ts.rstd, ts.mean, ts.var, ts.x, ts.gamma, ts.beta, 0.001f,
            para);
      }
      for (uint32_t i = 0; i < 64; ++i) {
        EXPECT_EQ(FloatBits(ts.y.GetValue(i)), FloatBits(y_doc[i]))
            << "y[" << i << "]";
      }
      for (uint32_t i = 0; i < 8; ++i) {
        EXPECT_EQ(FloatBits(ts.rstd.GetValue(i)), FloatBits(rstd_doc[i]))
            << "rstd[" << i << "]";
      }
    }
  }
}

// Random rows: x in [-4, 4), mean in [-1, 1), variance in [0.01, 4), gamma
// in [0.5, 1.5), beta in [-1, 1); checks y and rstd.
template <typename U, typename T, const NormalizeConfig& kConfig>
void RunRandom(Profile profile, uint32_t a_len, uint32_t r_len) {
  SCOPED_TRACE(std::string("T ") + normgrad_ascendc::TypeName<T>() + " U " +
               normgrad_ascendc::TypeName<U>() + " A " + std::to_string(a_len) +
               " R " + std::to_string(r_len) + " noGamma " +
               std::to_string(kConfig.isNoGamma) + " noBeta " +
               std::to_string(kConfig.isNoBeta) + " profile " +
               normgrad_ascendc::GetProfileInfo(profile).name);
  const ProfileScope scope(profile);
  const uint32_t align = 32 / sizeof(T);
  const NormalizePara para(a_len, r_len, (r_len + align - 1) / align * align);
  std::mt19937 rng(compat_test::Seed<14>() + a_len * 131 + r_len);
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  const float eps = 1e-5f;
  Tensors<U, T> ts(para, MinScratch(para, sizeof(U), sizeof(T)));
  std::vector<float> x(a_len * para.rLengthWithPadding, 0.0f), mean(a_len),
      var(a_len), gamma(r_len), beta(r_len);
  for (uint32_t i = 0; i < a_len; ++i) {
    for (uint32_t j = 0; j < r_len; ++j) {
      x[i * para.rLengthWithPadding + j] = Representable<T>(uniform(-4, 4));
    }
    mean[i] = uniform(-1, 1);
    var[i] = uniform(0.01f, 4);
    ts.mean.SetValue(i, mean[i]);
    ts.var.SetValue(i, var[i]);
  }
  for (size_t i = 0; i < x.size(); ++i) ts.x.SetValue(i, static_cast<T>(x[i]));
  for (uint32_t j = 0; j < r_len; ++j) {
    gamma[j] = Representable<U>(uniform(0.5f, 1.5f));
    beta[j] = Representable<U>(uniform(-1, 1));
    ts.gamma.SetValue(j, static_cast<U>(gamma[j]));
    ts.beta.SetValue(j, static_cast<U>(beta[j]));
  }
  AscendC::Normalize<U, T, false, kConfig>(ts.y, ts.rstd, ts.mean, ts.var, ts.x,
                                           ts.gamma, ts.beta, ts.tmp, eps,
                                           para);
  const bool saturate = profile == Profile::k950;
  const std::string label = std::string("Normalize<") +
                            normgrad_ascendc::TypeName<U>() + ", " +
                            normgrad_ascendc::TypeName<T>() + ">";
  for (uint32_t i = 0; i < a_len; ++i) {
    // The documented order.
    const float rstd = 1.0f / std::sqrt(var[i] + eps);
    ASSERT_EQ(FloatBits(ts.rstd.GetValue(i)), FloatBits(rstd))
        << "rstd[" << i << "]";
    const double rstd_ref = 1.0 / std::sqrt(double{var[i]} + eps);
    ASSERT_TRUE(WithinBound(label + " rstd", rstd, rstd_ref, 3 * kU * rstd_ref))
        << i;
    for (uint32_t j = 0; j < r_len; ++j) {
      const uint32_t k = i * para.rLengthWithPadding + j;
      float y = (x[k] - mean[i]) * rstd;
      if (!kConfig.isNoGamma) y = y * gamma[j];
      if (!kConfig.isNoBeta) y = y + beta[j];
      const float got = static_cast<float>(ts.y.GetValue(k));
      ASSERT_EQ(FloatBits(got), FloatBits(Narrowed<T>(y, saturate)))
          << "y[" << k << "]";
      // The float64 reference and the bound of docs/numerics.md.
      double p = (double{x[k]} - mean[i]) * rstd_ref;
      if (!kConfig.isNoGamma) p *= gamma[j];
      const double ref = kConfig.isNoBeta ? p : p + beta[j];
      double bound = 6 * kU * std::fabs(p) + kU * std::fabs(ref);
      if (std::is_same_v<T, half>) {
        bound += std::ldexp(std::fabs(ref) + bound, -11) + std::ldexp(1.0, -25);
      } else if (std::is_same_v<T, bfloat16_t>) {
        bound += std::ldexp(std::fabs(ref) + bound, -8);
      }
      ASSERT_TRUE(WithinBound(label + " y", got, ref, bound))
          << "y[" << k << "]";
    }
  }
}

template <typename U, typename T>
void RunConfigs(Profile profile) {
  for (uint32_t r : {8u, 13u, 64u, 200u}) {
    RunRandom<U, T, AscendC::NLCFG_NORM>(profile, 5, r);
    RunRandom<U, T, AscendC::NLCFG_NOGAMMA>(profile, 3, r);
    RunRandom<U, T, AscendC::NLCFG_NOBETA>(profile, 3, r);
    RunRandom<U, T, AscendC::NLCFG_NOOPT>(profile, 2, r);
  }
}

TEST(Normalize, EveryTypeAndConfigMatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    RunConfigs<float, float>(p);
    RunConfigs<half, half>(p);
    RunConfigs<float, half>(p);
  }
  RunConfigs<bfloat16_t, bfloat16_t>(Profile::k950);
  RunConfigs<float, bfloat16_t>(Profile::k950);
}

// GetNormalizeConfig: the two flags in their fields, every other field at
// the struct's default; the result is a template argument that computes as
// the matching NLCFG_ constant.
constexpr NormalizeConfig kMadeNoGamma =
    AscendC::GetNormalizeConfig(false, true);
constexpr NormalizeConfig kMadeNoBeta = AscendC::GetNormalizeConfig(true);

TEST(GetNormalizeConfig, SetsTheFlagsAndKeepsTheDefaults) {
  for (bool no_beta : {false, true}) {
    for (bool no_gamma : {false, true}) {
      const NormalizeConfig c = AscendC::GetNormalizeConfig(no_beta, no_gamma);
      EXPECT_EQ(c.reducePattern, AscendC::ReducePattern::AR);
      EXPECT_EQ(c.aLength, -1);
      EXPECT_EQ(c.isNoBeta, no_beta);
      EXPECT_EQ(c.isNoGamma, no_gamma);
      EXPECT_FALSE(c.isOnlyOutput);
    }
  }
  constexpr NormalizeConfig kDefault = AscendC::GetNormalizeConfig();
  static_assert(!kDefault.isNoBeta && !kDefault.isNoGamma);
  RunRandom<float, float, kMadeNoGamma>(Profile::kA2, 3, 13);
  RunRandom<float, half, kMadeNoBeta>(Profile::k950, 2, 64);
}

TEST(Normalize, OutputRstdMayBeTheVarianceItself) {
  const NormalizePara para(4, 8, 8);
  Tensors<float, float> ts(para, MinScratch(para, 4, 4));
  for (uint32_t i = 0; i < 32; ++i) ts.x.SetValue(i, 1.0f);
  for (uint32_t i = 0; i < 4; ++i) {
    ts.mean.SetValue(i, 0.0f);
    ts.var.SetValue(i, 4.0f);
  }
  for (uint32_t j = 0; j < 8; ++j) {
    ts.gamma.SetValue(j, 1.0f);
    ts.beta.SetValue(j, 0.0f);
  }
  AscendC::Normalize<float, float>(ts.y, ts.var, ts.mean, ts.var, ts.x,
                                   ts.gamma, ts.beta, ts.tmp, 0.0f, para);
  EXPECT_EQ(ts.var.GetValue(3), 0.5f);
  EXPECT_EQ(ts.y.GetValue(31), 0.5f);
}

// ---- bad use --------------------------------------------------------------

struct NormalizeBadUse : ::testing::Test {
  NormalizePara para{4, 8, 8};
  Tensors<float, float> ts{NormalizePara(4, 16, 16), 4 * (16 + 8)};
  template <const NormalizeConfig& kConfig = AscendC::NLCFG_NORM>
  void Call(const NormalizePara& p) {
    AscendC::Normalize<float, float, false, kConfig>(ts.y, ts.rstd, ts.mean,
                                                     ts.var, ts.x, ts.gamma,
                                                     ts.beta, ts.tmp, 1e-5f, p);
  }
};

TEST_F(NormalizeBadUse, Config) {
  EXPECT_TRUE(FailsWith(
      [&] { Call<kPatternRa>(para); },
      "Normalize: config.reducePattern is 1; only ReducePattern::AR (0) is "
      "supported"));
  EXPECT_TRUE(FailsWith(
      [&] { Call<kOnlyOutput>(para); },
      "Normalize: config.isOnlyOutput is true; only false (y and rstd both "
      "written) is supported"));
  EXPECT_TRUE(FailsWith(
      [&] { Call<kALength3>(para); },
      "Normalize: config.aLength is 3 but para.aLength is 4; config.aLength "
      "must be -1 (take para's) or equal para.aLength"));
  EXPECT_TRUE(FailsWith(
      [&] { Call<kALength1>(NormalizePara(1, 8, 8)); },
      "Normalize: config.aLength is 1, which only the Ascend 950 profile "
      "supports (profile Atlas A2/A3); use -1"));
}

TEST(NormalizeConfigs, ALength1RunsOnAscend950) {
  const ProfileScope scope(Profile::k950);
  Tensors<float, float> t950(NormalizePara(1, 8, 8), 4 * 16);
  AscendC::Normalize<float, float, false, kALength1>(
      t950.y, t950.rstd, t950.mean, t950.var, t950.x, t950.gamma, t950.beta,
      t950.tmp, 1e-5f, NormalizePara(1, 8, 8));
}

TEST_F(NormalizeBadUse, Para) {
  EXPECT_TRUE(FailsWith(
      [&] { Call(NormalizePara(0, 8, 8)); },
      "Normalize: para.aLength 0 and para.rLength 8 must both be at least 1"));
  EXPECT_TRUE(FailsWith(
      [&] { Call(NormalizePara(4, 9, 8)); },
      "Normalize: para.rLengthWithPadding 8 is less than para.rLength 9"));
  EXPECT_TRUE(FailsWith(
      [&] { Call(NormalizePara(4, 9, 12)); },
      "Normalize: para.rLengthWithPadding 12 floats is 48 bytes, not a "
      "multiple of 32 (the last axis must be 32-byte aligned)"));
}

TEST_F(NormalizeBadUse, Lengths) {
  EXPECT_TRUE(FailsWith(
      [&] { Call(NormalizePara(8, 16, 16)); },
      "Normalize: output holds 64 floats, fewer than the 128 it must hold "
      "(aLength*rLengthWithPadding)"));
}

TEST(NormalizeScratch, TooSmall) {
  const NormalizePara para(2, 32, 32);
  Tensors<float, float> ts(para, 128);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Normalize<float, float>(ts.y, ts.rstd, ts.mean, ts.var, ts.x,
                                         ts.gamma, ts.beta, ts.tmp, 1e-5f,
                                         para);
      },
      "Normalize: sharedTmpBuffer holds 128 bytes, fewer than the minimum 160 "
      "for rLength 32 "
      "(GetNormalizeMaxMinTmpSize: 4*(roundup(rLength, 8) + 8))"));
}

TEST_F(NormalizeBadUse, Overlaps) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Normalize<float, float>(ts.x, ts.rstd, ts.mean, ts.var, ts.x,
                                         ts.gamma, ts.beta, ts.tmp, 1e-5f,
                                         para);
      },
      "output and inputX must not share memory"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Normalize<float, float>(ts.y, ts.x, ts.mean, ts.var, ts.x,
                                         ts.gamma, ts.beta, ts.tmp, 1e-5f,
                                         para);
      },
      "overlap; outputRstd may be inputMean or inputVariance itself but must "
      "not otherwise "
      "share memory with an input"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Normalize<float, float>(
            ts.y, ts.rstd, ts.mean, ts.var, ts.x, ts.gamma, ts.beta,
            ts.y.template ReinterpretCast<uint8_t>(), 1e-5f, para);
      },
      "Normalize writes its scratch, so it must not share memory with an "
      "operand"));
}

TEST(NormalizeTypes, Bfloat16OnlyOnAscend950) {
  const NormalizePara para(1, 16, 16);
  for (Profile p : {Profile::kA2, Profile::k310P}) {
    const ProfileScope scope(p);
    Tensors<float, bfloat16_t> ts(para, 4 * 24);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Normalize<float, bfloat16_t>(ts.y, ts.rstd, ts.mean, ts.var,
                                                ts.x, ts.gamma, ts.beta, ts.tmp,
                                                1e-5f, para);
        },
        std::string("Normalize: T = bfloat16_t, U = float: bfloat16_t is not "
                    "supported on "
                    "profile ") +
            normgrad_ascendc::GetProfileInfo(p).name));
  }
}

TEST(NormalizeHost, ScratchSizes) {
  uint32_t max = 1, min = 1;
  // [8, 8]: min 4·(8 + 8) = 64, max 4·(64 + 8) = 288.
  AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({8, 8}), 4, 4, false, true,
                                     false, max, min);
  EXPECT_EQ((std::pair{max, min}), (std::pair{288u, 64u}));
  // [3, 13] half: roundup(13, 8) = 16: min 4·24 = 96, max 4·(48 + 8) = 224.
  AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({3, 13}), 2, 2, false, true,
                                     false, max, min);
  EXPECT_EQ((std::pair{max, min}), (std::pair{224u, 96u}));
  const struct {
    std::vector<int64_t> shape;
    uint32_t u, t;
    bool rstd, only;
    const char* message;
  } bad[] = {
      {{8, 8},
       2,
       4,
       true,
       false,
       "typeSizeU 2 is less than typeSizeT 4: gamma and beta must be at least "
       "as precise as "
       "inputX"},
      {{8, 8}, 4, 3, true, false, "typeSizeT 3 is not supported"},
      {{8, 8},
       4,
       4,
       false,
       false,
       "isComputeRstd is false: only isComputeRstd = true and isOnlyOutput = "
       "false are "
       "supported"},
      {{8, 8}, 4, 4, true, true, "isOnlyOutput is true"},
      {{8, 8, 8},
       4,
       4,
       true,
       false,
       "srcShape [8, 8, 8] has rank 3: it must be [A, R]"},
      {{0, 8}, 4, 4, true, false, "srcShape [0, 8] has A = 0"},
  };
  for (const auto& b : bad) {
    testing::internal::CaptureStderr();
    AscendC::GetNormalizeMaxMinTmpSize(ge::Shape(b.shape), b.u, b.t, false,
                                       b.rstd, b.only, max, min);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(std::string("GetNormalizeMaxMinTmpSize: ") + b.message),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("; maxValue and minValue are set to 0.\n"),
              std::string::npos)
        << err;
    EXPECT_EQ(max, 0u);
    EXPECT_EQ(min, 0u);
  }
}

}  // namespace
