// welfordfinalize_test.cc — AscendC::WelfordFinalize through kernel_operator.h
// on the emulated core: the documented example (both of the page's call
// forms), bit-exactness against a transcription of the numeric order of
// docs/welfordfinalize.md for its three weightings (uniform, head and tail
// counts, a counts tensor), both scratch forms, every profile and the
// corrected variance on Ascend 950; accuracy against a float64 reference
// within the bound of docs/numerics.md; WelfordUpdate over chunks followed by
// WelfordFinalize against the float64 mean and variance of the whole row; and
// every kernel check with its full message.
//
// The oracles here (DocumentedFinalize, the float64 reference and its bound)
// are written for these tests from the documented behaviour and share no code
// with src/. Random data uses a fixed seed, printed; NORMGRAD_SEED=<n>
// overrides it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::WelfordFinalize;
using AscendC::WelfordFinalizeConfig;
using AscendC::WelfordFinalizePara;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::ProfileScope;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

constexpr WelfordFinalizeConfig kCorrected = {true};
constexpr double kU = 1.0 / (1 << 24);

uint32_t Seed() { return compat_test::Seed<20261204>(); }

struct Tensors {
  Tensors(uint32_t ab, uint32_t scratch_bytes) {
    pipe.InitBuffer(mean_in_buf, ab * 4);
    pipe.InitBuffer(var_in_buf, ab * 4);
    pipe.InitBuffer(counts_buf, ab * 4);
    pipe.InitBuffer(mean_buf, 32);
    pipe.InitBuffer(var_buf, 32);
    mean_in = mean_in_buf.Get<float>();
    var_in = var_in_buf.Get<float>();
    counts = counts_buf.Get<int32_t>();
    mean = mean_buf.Get<float>();
    var = var_buf.Get<float>();
    if (scratch_bytes != 0) {
      pipe.InitBuffer(tmp_buf, scratch_bytes);
      tmp = tmp_buf.Get<uint8_t>();
    }
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> mean_in_buf, var_in_buf, counts_buf;
  TBuf<TPosition::VECOUT> mean_buf, var_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<float> mean_in, var_in, mean, var;
  LocalTensor<int32_t> counts;
  LocalTensor<uint8_t> tmp;
};

uint32_t MinTmp(uint32_t ab) {
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({ab}), 4, false, max_value,
                                           min_value);
  return min_value;
}

enum class Weights { kUniform, kHeadTail, kCounts };
enum class Proto { kShared, kFramework };

template <bool corrected>
void Call(Tensors& t, WelfordFinalizePara& para, Weights w, Proto proto) {
  constexpr const WelfordFinalizeConfig& cfg =
      corrected ? kCorrected : AscendC::WFFINALIZE_DEFAULT_CFG;
  if (w == Weights::kCounts) {
    if (proto == Proto::kShared) {
      WelfordFinalize<false, cfg>(t.mean, t.var, t.mean_in, t.var_in, t.counts,
                                  t.tmp, para);
    } else {
      WelfordFinalize<false, cfg>(t.mean, t.var, t.mean_in, t.var_in, t.counts,
                                  para);
    }
  } else if (proto == Proto::kShared) {
    WelfordFinalize<false, cfg>(t.mean, t.var, t.mean_in, t.var_in, t.tmp,
                                para);
  } else {
    WelfordFinalize<false, cfg>(t.mean, t.var, t.mean_in, t.var_in, para);
  }
}

// The documented order (docs/welfordfinalize.md, "Numeric order"): each sum
// as the row sum, then scaled once by its coefficient.
struct Result {
  float mean, var;
};
// The documented row sum (docs/layernorm.md, "Row sum"): 64 lanes, all +0;
// term i is added into lane i % 64 in order; then adjacent pairs are added
// until one value is left.
float DocumentedRowSum(const std::vector<float>& v) {
  std::vector<float> level(64, 0.0f);
  for (size_t i = 0; i < v.size(); ++i)
    level[i % 64] = i < 64 ? v[i] : v[i] + level[i % 64];
  while (level.size() > 1) {
    std::vector<float> next(level.size() / 2);
    for (size_t j = 0; j < next.size(); ++j)
      next[j] = level[2 * j] + level[2 * j + 1];
    level.swap(next);
  }
  return level[0];
}

Result DocumentedFinalize(const std::vector<float>& m,
                          const std::vector<float>& big_m,
                          const std::vector<float>& w, bool uniform,
                          float ab_rec, float r_rec, float k) {
  std::vector<float> terms(m.size());
  for (size_t i = 0; i < m.size(); ++i) terms[i] = uniform ? m[i] : w[i] * m[i];
  const float mean = DocumentedRowSum(terms) * (uniform ? ab_rec : r_rec);
  for (size_t i = 0; i < m.size(); ++i) {
    const float d = m[i] - mean;
    terms[i] = (d * d) * w[i] + big_m[i];
  }
  return {mean, DocumentedRowSum(terms) * k};
}

double Gamma(double n) { return n * kU / (1 - n * kU); }

// The float64 reference and the bound of docs/numerics.md, "WelfordFinalize".
void ExpectWithinBound(float got_mean, float got_var,
                       const std::vector<float>& m,
                       const std::vector<float>& big_m,
                       const std::vector<float>& w, bool uniform, float ab_rec,
                       float r_rec, float k) {
  // L: the additions a term passes through in the row sum (the fold steps and
  // 6 tree levels).
  const double l = std::ceil(static_cast<double>(m.size()) / 64) + 5;
  double mu = 0, mag = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    const double term =
        uniform ? double{m[i]} * ab_rec : double{w[i]} * m[i] * r_rec;
    mu += term;
    mag += std::fabs(term);
  }
  const double e_mu = Gamma(l + 2) * mag;
  double v = 0, spread = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    const double d = m[i] - mu;
    v += (big_m[i] + w[i] * d * d) * k;
    const double e = (1 + kU) * e_mu + kU * std::fabs(d);
    spread += k * w[i] * (2 * std::fabs(d) + e) * e;
  }
  const double e_v = Gamma(l + 5) * v + (1 + Gamma(l + 5)) * spread;
  EXPECT_TRUE(WithinBound("WelfordFinalize<float> mean", got_mean, mu, e_mu));
  EXPECT_TRUE(WithinBound("WelfordFinalize<float> variance", got_var, v, e_v));
}

template <bool corrected>
void RunAndVerify(uint32_t ab, Weights weights, Profile profile, Proto proto,
                  std::mt19937& rng) {
  ProfileScope scope(profile);
  SCOPED_TRACE(::testing::Message()
               << "ab " << ab << " weights " << static_cast<int>(weights)
               << " profile " << static_cast<int>(profile) << " proto "
               << static_cast<int>(proto) << " corrected " << corrected);
  Tensors t(ab, proto == Proto::kShared ? MinTmp(ab) : 0);
  std::normal_distribution<float> normal(1.5f, 2.0f);
  std::uniform_real_distribution<float> positive(0.0f, 30.0f);
  std::uniform_int_distribution<int32_t> count(1, 40);
  const uint32_t rn = 7;
  const uint32_t head_length = weights == Weights::kHeadTail ? ab / 3 + 1 : ab;
  std::vector<float> m(ab), big_m(ab), w(ab);
  double total = 0;
  for (uint32_t i = 0; i < ab; ++i) {
    m[i] = normal(rng);
    big_m[i] = positive(rng);
    const int32_t c = count(rng);
    t.mean_in.SetValue(i, m[i]);
    t.var_in.SetValue(i, big_m[i]);
    t.counts.SetValue(i, c);
    w[i] = weights == Weights::kCounts    ? static_cast<float>(c)
           : weights == Weights::kUniform ? static_cast<float>(rn)
           : i < head_length              ? static_cast<float>(rn)
                                          : static_cast<float>(rn - 1);
    total += w[i];
  }
  WelfordFinalizePara para = {rn,
                              ab,
                              rn,
                              head_length,
                              rn - 1,
                              ab - head_length,
                              1.0f / static_cast<float>(ab),
                              static_cast<float>(1.0 / total),
                              static_cast<float>(1.0 / (total - 1))};
  Call<corrected>(t, para, weights, proto);
  const bool uniform = weights == Weights::kUniform;
  const float k = corrected ? para.rRecWithCorrection : para.rRec;
  const Result want =
      DocumentedFinalize(m, big_m, w, uniform, para.abRec, para.rRec, k);
  EXPECT_EQ(FloatBits(t.mean.GetValue(0)), FloatBits(want.mean));
  EXPECT_EQ(FloatBits(t.var.GetValue(0)), FloatBits(want.var));
  ExpectWithinBound(t.mean.GetValue(0), t.var.GetValue(0), m, big_m, w, uniform,
                    para.abRec, para.rRec, k);
}

TEST(WelfordFinalize, MatchesDocumentedOrder) {
  std::mt19937 rng(Seed());
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    for (uint32_t ab : {8u, 32u, 72u, 1024u}) {
      for (Weights w :
           {Weights::kUniform, Weights::kHeadTail, Weights::kCounts}) {
        for (Proto proto : {Proto::kShared, Proto::kFramework}) {
          RunAndVerify<false>(ab, w, p, proto, rng);
        }
      }
    }
  }
}

TEST(WelfordFinalize, CorrectedVarianceOnAscend950) {
  std::mt19937 rng(Seed() + 1);
  for (uint32_t ab : {16u, 200u}) {
    for (Weights w :
         {Weights::kUniform, Weights::kHeadTail, Weights::kCounts}) {
      RunAndVerify<true>(ab, w, Profile::k950, Proto::kShared, rng);
    }
  }
}

// The page's example: inputMean = inputVariance = 0..31, counts 4, rRec =
// 1/4096: mean = 4·496/4096 = 0.484375 and var = (496 + 4·Σ(i − mean)²)/4096
// = 9.831062… (printed to 7 digits).
TEST(WelfordFinalize, DocumentedExample) {
  ProfileScope scope(Profile::kA2);
  Tensors t(32, MinTmp(32));
  for (uint32_t i = 0; i < 32; ++i) {
    t.mean_in.SetValue(i, static_cast<float>(i));
    t.var_in.SetValue(i, static_cast<float>(i));
    t.counts.SetValue(i, 4);
  }
  const uint32_t rnLength = 4, abLength = 32, head = 4, headLength = 32,
                 tail = 0, tailLength = 0;
  const float abRec = 1.0f / 32, rRec = 1.0f / 4096,
              rRecWithCorrection = 1.0f / 4095;
  {
    struct AscendC::WelfordFinalizePara para = {
        rnLength, abLength, head, headLength, tail, tailLength, abRec, rRec};
    AscendC::WelfordFinalize<false>(t.mean, t.var, t.mean_in, t.var_in,
                                    t.counts, t.tmp, para);
    EXPECT_EQ(t.mean.GetValue(0), 0.484375f);
    EXPECT_NEAR(t.var.GetValue(0), 9.831062, 5e-7);
  }
  {
    static constexpr AscendC::WelfordFinalizeConfig CONFIG = {false};
    AscendC::WelfordFinalizePara para = {
        rnLength,   abLength, head, headLength,        tail,
        tailLength, abRec,    rRec, rRecWithCorrection};
    AscendC::WelfordFinalize<false, CONFIG>(t.mean, t.var, t.mean_in, t.var_in,
                                            t.counts, para);
    EXPECT_EQ(t.mean.GetValue(0), 0.484375f);
    EXPECT_NEAR(t.var.GetValue(0), 9.831062, 5e-7);
  }
}

// A row of R = (n − 1)·k + tail values fed to WelfordUpdate in chunks of k
// (the last partial, with isInplace), then WelfordFinalize with head and tail
// counts, against the row's float64 mean and population variance.
TEST(WelfordFinalize, AfterWelfordUpdateMatchesTheRow) {
  ProfileScope scope(Profile::kA2);
  std::mt19937 rng(Seed() + 2);
  std::normal_distribution<float> normal(-3.0f, 2.5f);
  constexpr uint32_t k = 32, n = 11, tail = 12, r = (n - 1) * k + tail;
  static constexpr AscendC::WelfordUpdateConfig kInplace = {true};
  std::vector<float> row(r);
  for (float& v : row) v = normal(rng);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (5 * k + 16) * 4 + 512);
  const LocalTensor<float> all = buf.Get<float>();
  LocalTensor<float> mean = all, m2 = all[k], next_mean = all[2 * k],
                     next_m2 = all[3 * k];
  const LocalTensor<float> x = all[4 * k];
  const LocalTensor<float> out_mean = all[5 * k], out_var = all[5 * k + 8];
  const LocalTensor<uint8_t> tmp = LocalTensor<uint8_t>(all[5 * k + 16].view());
  for (uint32_t j = 0; j < k; ++j) {
    mean.SetValue(j, 0.0f);
    m2.SetValue(j, 0.0f);
  }
  for (uint32_t i = 1; i <= n; ++i) {
    const uint32_t len = i < n ? k : tail;
    for (uint32_t j = 0; j < k; ++j)
      x.SetValue(j, j < len ? row[(i - 1) * k + j] : 0.0f);
    AscendC::WelfordUpdate<float, float, false, kInplace>(
        next_mean, next_m2, mean, m2, x, tmp,
        {1, k, len, 1.0f / static_cast<float>(i)});
    std::swap(mean, next_mean);
    std::swap(m2, next_m2);
  }
  WelfordFinalizePara para = {n,        k,        n,        tail, n - 1,
                              k - tail, 1.0f / k, 1.0f / r, 0.0f};
  WelfordFinalize<false>(out_mean, out_var, mean, m2, tmp, para);
  double mu = 0, v = 0, max_abs = 0;
  for (float value : row) mu += value;
  mu /= r;
  for (float value : row) {
    v += (value - mu) * (value - mu);
    max_abs = std::max(max_abs, std::fabs(double{value}));
  }
  v /= r;
  // docs/numerics.md, "WelfordFinalize": the per-lane errors of WelfordUpdate
  // (11·c·u·X and 43·c²·u·X², c ≤ n) carried through the finalize sums, plus
  // the finalize's own rounding: within 2^-12 relative here, far inside.
  EXPECT_NEAR(out_mean.GetValue(0), mu, (11.0 * n + 2 * k) * kU * max_abs);
  EXPECT_NEAR(
      out_var.GetValue(0), v,
      (43.0 * n * n / n + 8.0 * n + 4 * k) * kU * max_abs * max_abs * 4);
}

// ---- Kernel-side checks
// ------------------------------------------------------

// abLength 16 without counts (all lanes rnLength 4), the minimum scratch (64
// bytes), valid as set up; each test breaks one rule. Buffers: inputMean at
// 0, inputVariance at 64, counts at 128, outputMean at 192, outputVariance at
// 224, scratch at 256.
class WelfordFinalizeChecks : public ::testing::Test {
 protected:
  void Shared() {
    WelfordFinalize<false>(t_.mean, t_.var, t_.mean_in, t_.var_in, t_.tmp,
                           para_);
  }
  ProfileScope profile_{Profile::kA2};
  Tensors t_{16, 64};
  WelfordFinalizePara para_{4, 16,        4,         16,       0,
                            0, 1.0f / 16, 1.0f / 64, 1.0f / 63};
};

TEST_F(WelfordFinalizeChecks, ValidSetupRuns) { Shared(); }

TEST_F(WelfordFinalizeChecks, Para) {
  para_.abLength = 12;
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "WelfordFinalize: para.abLength is 12; it must be a positive multiple "
      "of 32 / sizeof(float) = 8"));
  para_ = {4, 16, 4, 10, 3, 5, 1.0f / 16, 1.0f / 64, 0};
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "WelfordFinalize: para.headCountLength 10 + para.tailCountLength 5 is "
      "not para.abLength 16; they must add up to it"));
  // The counts form does not use the head and tail fields.
  WelfordFinalize<false>(t_.mean, t_.var, t_.mean_in, t_.var_in, t_.counts,
                         t_.tmp, para_);
  para_ = {4, 16, 4, 10, 0, 6, 1.0f / 16, 1.0f / 64, 0};
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "WelfordFinalize: para.tailCount is 0 but para.tailCountLength is 6; on "
      "profile Atlas A2/A3 a zero tailCount needs tailCountLength 0"));
}

TEST(WelfordFinalizeProfiles, ZeroTailCountAllowedOnAscend950) {
  ProfileScope scope(Profile::k950);
  Tensors t(16, 64);
  WelfordFinalizePara para = {4, 16, 4, 10, 0, 6, 1.0f / 16, 1.0f / 40, 0};
  WelfordFinalize<false>(t.mean, t.var, t.mean_in, t.var_in, t.tmp, para);
}

TEST_F(WelfordFinalizeChecks, CorrectionNeedsAscend950) {
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordFinalize<false, kCorrected>(t_.mean, t_.var, t_.mean_in,
                                           t_.var_in, t_.tmp, para_);
      },
      "WelfordFinalize: config.isCorrection is true on profile Atlas A2/A3; "
      "the corrected "
      "variance (rRecWithCorrection) is supported on Ascend 950 only"));
}

TEST_F(WelfordFinalizeChecks, Lengths) {
  t_.counts.SetSize(8);
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordFinalize<false>(t_.mean, t_.var, t_.mean_in, t_.var_in,
                               t_.counts, t_.tmp, para_);
      },
      "WelfordFinalize: counts holds 8 elements, fewer than 16 "
      "(para.abLength)"));
  t_.mean.SetSize(0);
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "WelfordFinalize: outputMean holds 0 elements, fewer than 1 (its one "
      "result)"));
}

TEST_F(WelfordFinalizeChecks, ScratchAndOverlaps) {
  normgrad_ascendc::TensorView small = t_.tmp.view();
  small.bytes = 32;
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordFinalize<false>(t_.mean, t_.var, t_.mean_in, t_.var_in,
                               LocalTensor<uint8_t>(small), para_);
      },
      "WelfordFinalize: sharedTmpBuffer holds 32 bytes, fewer than the minimum "
      "64 "
      "(GetWelfordFinalizeMaxMinTmpSize for abLength 16)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordFinalize<false>(t_.mean_in, t_.var, t_.mean_in, t_.var_in,
                               t_.tmp, para_);
      },
      "WelfordFinalize: outputMean (UB bytes [0, 4)) and inputMean (UB bytes "
      "[0, 64)) overlap; "
      "the call writes outputMean, so it must not share memory with another "
      "operand"));
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordFinalize<false>(t_.mean, t_.var, t_.mean_in, t_.var_in,
                               LocalTensor<uint8_t>(t_.var_in.view()), para_);
      },
      "WelfordFinalize: inputVariance (UB bytes [64, 128)) and sharedTmpBuffer "
      "(UB bytes [64, "
      "128)) overlap; the call writes sharedTmpBuffer, so it must not share "
      "memory with another "
      "operand"));
}

}  // namespace
