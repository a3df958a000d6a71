// welfordupdate_test.cc — AscendC::WelfordUpdate through kernel_operator.h on
// the emulated core: bit-exactness against a transcription of the numeric
// order of docs/welfordupdate.md (float, half, bfloat16_t; rows of 8 to 1040
// elements; computed lengths from 1 to the whole row; both prototypes; every
// profile), the documented example, what isInplace copies and what
// isReuseSource overwrites, accuracy against a float64 reference within the
// bound of docs/numerics.md, a row reduced in chunks by successive calls
// against float64 mean and sum of squared deviations, and every kernel check
// with its full message.
//
// The oracles here (DocumentedStep, the float64 reference and its bound) are
// written for these tests from the documented behaviour and share no code
// with src/. Random data uses a fixed seed, printed; NORMGRAD_SEED=<n>
// overrides it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
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
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::WelfordUpdate;
using AscendC::WelfordUpdateConfig;
using AscendC::WelfordUpdateParam;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::ProfileScope;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

constexpr WelfordUpdateConfig kInplace = {true};
constexpr AscendC::WelfordUpdateConfig WELFORD_UPDATE_ENABLE_INPLACE_CFG = {
    true};
constexpr double kU = 1.0 / (1 << 24);  // float's unit roundoff, 2^-24
constexpr float kSentinel = -1234.5f;   // what the test puts in the outputs

uint32_t Seed() { return compat_test::Seed<20261203>(); }

// The tensors of one call: inputX (T), the four float rows and the scratch.
template <typename T>
struct Tensors {
  Tensors(uint32_t ab, uint32_t scratch_bytes) {
    pipe.InitBuffer(x_buf, ab * sizeof(T));
    pipe.InitBuffer(mean_in_buf, ab * 4);
    pipe.InitBuffer(var_in_buf, ab * 4);
    pipe.InitBuffer(mean_out_buf, ab * 4);
    pipe.InitBuffer(var_out_buf, ab * 4);
    x = x_buf.template Get<T>();
    mean_in = mean_in_buf.template Get<float>();
    var_in = var_in_buf.template Get<float>();
    mean_out = mean_out_buf.template Get<float>();
    var_out = var_out_buf.template Get<float>();
    if (scratch_bytes != 0) {
      pipe.InitBuffer(tmp_buf, scratch_bytes);
      tmp = tmp_buf.template Get<uint8_t>();
    }
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> x_buf, mean_in_buf, var_in_buf;
  TBuf<TPosition::VECOUT> mean_out_buf, var_out_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> x;
  LocalTensor<float> mean_in, var_in, mean_out, var_out;
  LocalTensor<uint8_t> tmp;
};

enum class Proto { kShared, kFramework };

template <typename T, bool reuse, bool inplace>
void Call(const Tensors<T>& t, const WelfordUpdateParam& para, Proto proto) {
  if constexpr (inplace) {
    if (proto == Proto::kShared) {
      WelfordUpdate<T, float, reuse, kInplace>(t.mean_out, t.var_out, t.mean_in,
                                               t.var_in, t.x, t.tmp, para);
    } else {
      WelfordUpdate<T, float, reuse, kInplace>(t.mean_out, t.var_out, t.mean_in,
                                               t.var_in, t.x, para);
    }
  } else if (proto == Proto::kShared) {
    WelfordUpdate<T, float, reuse>(t.mean_out, t.var_out, t.mean_in, t.var_in,
                                   t.x, t.tmp, para);
  } else {
    WelfordUpdate<T, float, reuse>(t.mean_out, t.var_out, t.mean_in, t.var_in,
                                   t.x, para);
  }
}

// The documented step in float, one element (docs/welfordupdate.md,
// "Numeric order"): the difference, the mean, then the variance term.
struct Step {
  float delta, mean, m2;
};
Step DocumentedStep(float x, float mean0, float m20, float nrec) {
  const float delta = x - mean0;
  const float mean = mean0 + delta * nrec;
  const float m2 = m20 + delta * (x - mean);
  return {delta, mean, m2};
}

template <typename T>
uint32_t MinTmp(uint32_t ab, bool reuse) {
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, ab}), sizeof(T), 4,
                                         reuse, false, max_value, min_value);
  return min_value;
}

struct Case {
  uint32_t ab;
  uint32_t compute;
};

// Random x, mean0 and M0 (M0 ≥ 0); one call; every output element compared
// bit for bit with DocumentedStep, and within the float64 bound.
template <typename T, bool reuse, bool inplace>
void RunAndVerify(const Case& c, Profile profile, Proto proto,
                  std::mt19937& rng) {
  ProfileScope scope(profile);
  SCOPED_TRACE(::testing::Message()
               << normgrad_ascendc::TypeName<T>() << " ab " << c.ab
               << " compute " << c.compute << " profile "
               << static_cast<int>(profile) << " reuse " << reuse << " inplace "
               << inplace << " proto " << static_cast<int>(proto));
  const bool float_reuse =
      std::is_same_v<T, float> && reuse && profile != Profile::k310P;
  const std::string label =
      std::string("WelfordUpdate<") + normgrad_ascendc::TypeName<T>() + ">";
  const uint32_t tmp = proto == Proto::kShared
                           ? std::max<uint32_t>(MinTmp<T>(c.ab, reuse), 32)
                           : 0;
  Tensors<T> t(c.ab, tmp);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::uniform_real_distribution<float> positive(0.0f, 20.0f);
  std::vector<float> x(c.ab), m0(c.ab), v0(c.ab);
  for (uint32_t j = 0; j < c.ab; ++j) {
    t.x.SetValue(j, static_cast<T>(normal(rng) + 1.0f));
    x[j] = static_cast<float>(t.x.GetValue(j));  // the value the kernel reads
    m0[j] = normal(rng);
    v0[j] = positive(rng);
    t.mean_in.SetValue(j, m0[j]);
    t.var_in.SetValue(j, v0[j]);
    t.mean_out.SetValue(j, kSentinel);
    t.var_out.SetValue(j, kSentinel);
  }
  const float nrec = 1.0f / 3.0f;
  Call<T, reuse, inplace>(t, {1, c.ab, c.compute, nrec}, proto);
  for (uint32_t j = 0; j < c.ab; ++j) {
    const float got_mean = t.mean_out.GetValue(j);
    const float got_m2 = t.var_out.GetValue(j);
    if (j >= c.compute) {
      ASSERT_EQ(FloatBits(got_mean), FloatBits(inplace ? m0[j] : kSentinel))
          << "element " << j;
      ASSERT_EQ(FloatBits(got_m2), FloatBits(inplace ? v0[j] : kSentinel))
          << "element " << j;
      if (std::is_same_v<T, float>) {
        ASSERT_EQ(FloatBits(static_cast<float>(t.x.GetValue(j))),
                  FloatBits(x[j]));
      }
      continue;
    }
    const Step want = DocumentedStep(x[j], m0[j], v0[j], nrec);
    ASSERT_EQ(FloatBits(got_mean), FloatBits(want.mean)) << "element " << j;
    ASSERT_EQ(FloatBits(got_m2), FloatBits(want.m2)) << "element " << j;
    const float x_after = static_cast<float>(t.x.GetValue(j));
    ASSERT_EQ(FloatBits(x_after), FloatBits(float_reuse ? want.delta : x[j]))
        << "element " << j;
    // The float64 reference and the bound of docs/numerics.md.
    const double r = nrec;
    const double delta = double{x[j]} - m0[j];
    const double mean = m0[j] + delta * r;
    const double e = x[j] - mean;
    const double m2 = v0[j] + delta * e;
    const double em = kU * (std::fabs(m0[j]) + 4 * std::fabs(delta * r));
    const double e_m2 = kU * (std::fabs(v0[j]) + 5 * std::fabs(delta * e)) +
                        1.01 * std::fabs(delta) * em;
    ASSERT_TRUE(WithinBound(label + " mean", got_mean, mean, em))
        << "element " << j;
    ASSERT_TRUE(WithinBound(label + " M2", got_m2, m2, e_m2))
        << "element " << j;
  }
}

const Case kCases[] = {
    {16, 16},      // one vector repeat, the whole row
    {16, 1},       // a single element
    {64, 35},      // the documented example's split
    {80, 80},      // a repeat and a partial one
    {208, 130},    // several repeats, a partial computed length
    {1040, 1040},  // many repeats
};

TEST(WelfordUpdate, FloatMatchesDocumentedOrder) {
  std::mt19937 rng(Seed());
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    for (const Case& c : kCases) {
      for (Proto proto : {Proto::kShared, Proto::kFramework}) {
        RunAndVerify<float, false, false>(c, p, proto, rng);
        RunAndVerify<float, false, true>(c, p, proto, rng);
        RunAndVerify<float, true, false>(c, p, proto, rng);
        RunAndVerify<float, true, true>(c, p, proto, rng);
      }
    }
  }
}

TEST(WelfordUpdate, FloatRowOfEight) {
  std::mt19937 rng(Seed() + 1);
  RunAndVerify<float, false, true>({8, 5}, Profile::kA2, Proto::kShared, rng);
  RunAndVerify<float, true, false>({8, 8}, Profile::kA2, Proto::kFramework,
                                   rng);
}

TEST(WelfordUpdate, HalfMatchesDocumentedOrder) {
  std::mt19937 rng(Seed() + 2);
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    for (const Case& c : kCases) {
      for (Proto proto : {Proto::kShared, Proto::kFramework}) {
        RunAndVerify<half, false, false>(c, p, proto, rng);
        RunAndVerify<half, true, true>(c, p, proto,
                                       rng);  // isReuseSource: no effect
      }
    }
  }
}

// The 950 profile takes rnLength rows of [rnLength, abLength] (programs
// for it pass 8): each row's first abComputeLength elements updated, the
// rest kept from the inputs (isInplace), row after row.
TEST(WelfordUpdate, RowsOfRnLengthOnAscend950) {
  ProfileScope scope(Profile::k950);
  std::mt19937 rng(Seed() + 7);
  constexpr uint32_t kRows = 8, kAb = 16, kCompute = 10;
  const uint32_t n = kRows * kAb;
  Tensors<float> t(n, std::max<uint32_t>(MinTmp<float>(kAb, false), 32));
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<float> x(n), m0(n), v0(n);
  for (uint32_t j = 0; j < n; ++j) {
    x[j] = normal(rng), m0[j] = normal(rng), v0[j] = std::fabs(normal(rng));
    t.x.SetValue(j, x[j]);
    t.mean_in.SetValue(j, m0[j]);
    t.var_in.SetValue(j, v0[j]);
    t.mean_out.SetValue(j, kSentinel);
    t.var_out.SetValue(j, kSentinel);
  }
  const float nrec = 0.25f;
  Call<float, false, true>(t, {kRows, kAb, kCompute, nrec}, Proto::kShared);
  for (uint32_t j = 0; j < n; ++j) {
    const float got_mean = t.mean_out.GetValue(j);
    const float got_m2 = t.var_out.GetValue(j);
    if (j % kAb >= kCompute) {
      ASSERT_EQ(FloatBits(got_mean), FloatBits(m0[j])) << j;
      ASSERT_EQ(FloatBits(got_m2), FloatBits(v0[j])) << j;
      continue;
    }
    const Step want = DocumentedStep(x[j], m0[j], v0[j], nrec);
    ASSERT_EQ(FloatBits(got_mean), FloatBits(want.mean)) << j;
    ASSERT_EQ(FloatBits(got_m2), FloatBits(want.m2)) << j;
    const double delta = double{x[j]} - m0[j];
    const double mean = m0[j] + delta * nrec;
    const double m2 = v0[j] + delta * (x[j] - mean);
    const double em = kU * (std::fabs(m0[j]) + 4 * std::fabs(delta * nrec));
    const double e_m2 =
        kU * (std::fabs(v0[j]) + 5 * std::fabs(delta * (x[j] - mean))) +
        1.01 * std::fabs(delta) * em;
    ASSERT_TRUE(
        WithinBound("WelfordUpdate<float> rows mean", got_mean, mean, em));
    ASSERT_TRUE(WithinBound("WelfordUpdate<float> rows M2", got_m2, m2, e_m2));
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        Call<float, false, true>(t, {0, kAb, kCompute, nrec}, Proto::kShared);
      },
      "WelfordUpdate: para.rnLength is 0; it must be at least 1 (the rows of "
      "[rnLength, abLength] on profile Ascend 950)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        Call<float, false, true>(t, {9, kAb, kCompute, nrec}, Proto::kShared);
      },
      "WelfordUpdate: outputMean holds 128 floats, fewer than para.rnLength * "
      "para.abLength = 144"));
}

TEST(WelfordUpdate, Bfloat16OnAscend950) {
  std::mt19937 rng(Seed() + 3);
  for (const Case& c : kCases) {
    for (Proto proto : {Proto::kShared, Proto::kFramework}) {
      RunAndVerify<bfloat16_t, false, false>(c, Profile::k950, proto, rng);
      RunAndVerify<bfloat16_t, true, true>(c, Profile::k950, proto, rng);
    }
  }
}

// The documented example: x = 1, mean0 = M0 = 0..63, nRec = 0.125, 35 of 64
// elements computed, isInplace.
TEST(WelfordUpdate, DocumentedExample) {
  ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, MinTmp<float>(64, false));
  for (uint32_t j = 0; j < 64; ++j) {
    t.x.SetValue(j, 1.0f);
    t.mean_in.SetValue(j, static_cast<float>(j));
    t.var_in.SetValue(j, static_cast<float>(j));
  }
  // Written as the page's example writes the call (its config constant is the
  // program's own).
  const uint32_t nLength = 1, rLength = 64, abComputeLength = 35;
  struct AscendC::WelfordUpdateParam para = {nLength, rLength, abComputeLength,
                                             0.125};
  AscendC::WelfordUpdate<float, float, false,
                         WELFORD_UPDATE_ENABLE_INPLACE_CFG>(
      t.mean_out, t.var_out, t.mean_in, t.var_in, t.x, t.tmp, para);
  for (uint32_t j = 0; j < 64; ++j) {
    const double jj = j;
    const double mean = j < 35 ? jj + (1 - jj) * 0.125 : jj;
    const double m2 = j < 35 ? jj + (1 - jj) * (1 - mean) : jj;
    EXPECT_EQ(t.mean_out.GetValue(j), mean) << j;
    EXPECT_EQ(t.var_out.GetValue(j), m2) << j;
  }
  EXPECT_EQ(t.mean_out.GetValue(0), 0.125f);
  EXPECT_EQ(t.var_out.GetValue(34), 986.875f);
}

// A row of R = n·k elements (and one with a tail) reduced in chunks of k by
// successive calls with nRec = 1/i, feeding each call's outputs to the next;
// the per-lane mean and sum of squared deviations against float64.
TEST(WelfordUpdate, ChunkedRowMatchesFloat64) {
  ProfileScope scope(Profile::kA2);
  std::mt19937 rng(Seed() + 4);
  std::normal_distribution<float> normal(2.0f, 1.5f);
  constexpr uint32_t k = 24;
  constexpr uint32_t n = 9;
  constexpr uint32_t tail = 10;  // the last chunk: 10 of 24 elements
  std::vector<float> row((n - 1) * k + tail);
  for (float& v : row) v = normal(rng);
  Tensors<float> t(k, MinTmp<float>(k, false));
  for (uint32_t j = 0; j < k; ++j) {
    t.mean_out.SetValue(j, 0.0f);  // M0 and mean0: zeros
    t.var_out.SetValue(j, 0.0f);
  }
  for (uint32_t i = 1; i <= n; ++i) {
    const uint32_t len = i < n ? k : tail;
    for (uint32_t j = 0; j < k; ++j) {
      t.x.SetValue(j, j < len ? row[(i - 1) * k + j] : 0.0f);
      t.mean_in.SetValue(j, t.mean_out.GetValue(j));
      t.var_in.SetValue(j, t.var_out.GetValue(j));
    }
    WelfordUpdate<float, float, false, kInplace>(
        t.mean_out, t.var_out, t.mean_in, t.var_in, t.x, t.tmp,
        {1, k, len, 1.0f / static_cast<float>(i)});
  }
  for (uint32_t j = 0; j < k; ++j) {
    const uint32_t count = j < tail ? n : n - 1;
    double mean = 0, m2 = 0, max_abs = 0;
    for (uint32_t i = 0; i < count; ++i) mean += row[i * k + j];
    mean /= count;
    for (uint32_t i = 0; i < count; ++i) {
      m2 += (row[i * k + j] - mean) * (row[i * k + j] - mean);
      max_abs = std::max(max_abs, std::fabs(double{row[i * k + j]}));
    }
    // docs/numerics.md, "WelfordUpdate": over c calls the mean is within
    // 11·c·u·max|x| and M within 43·c²·u·max|x|².
    EXPECT_TRUE(WithinBound("WelfordUpdate<float> mean over calls",
                            t.mean_out.GetValue(j), mean,
                            11 * count * kU * max_abs))
        << j;
    EXPECT_TRUE(WithinBound("WelfordUpdate<float> M2 over calls",
                            t.var_out.GetValue(j), m2,
                            43.0 * count * count * kU * max_abs * max_abs))
        << j;
  }
}

// ---- Kernel-side checks
// ------------------------------------------------------

// float, abLength 16 with the minimum scratch (64 bytes), valid as set up; each
// test breaks one rule.
class WelfordUpdateChecks : public ::testing::Test {
 protected:
  void Shared() {
    WelfordUpdate<float, float>(t_.mean_out, t_.var_out, t_.mean_in, t_.var_in,
                                t_.x, t_.tmp, para_);
  }
  template <typename U>
  static LocalTensor<U> Window(const LocalTensor<U>& t, uint32_t offset,
                               uint32_t count) {
    normgrad_ascendc::TensorView view = t.view();
    view.offset += offset * sizeof(U);
    view.bytes = count * sizeof(U);
    return LocalTensor<U>(view);
  }

  ProfileScope profile_{Profile::kA2};
  Tensors<float> t_{16, 64};
  WelfordUpdateParam para_{1, 16, 16, 0.5f};
};

TEST_F(WelfordUpdateChecks, ValidSetupRuns) { Shared(); }

TEST_F(WelfordUpdateChecks, Para) {
  para_.rnLength = 2;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "WelfordUpdate: para.rnLength is 2; it must be 1"));
  para_ = {1, 12, 12, 0.5f};
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "WelfordUpdate: para.abLength is 12; it must be a positive multiple "
      "of 32 / sizeof(T) = 8 (T = float)"));
  para_ = {1, 16, 0, 0.5f};
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "WelfordUpdate: para.abComputeLength is 0; it must be in [1, "
                "para.abLength 16]"));
  para_ = {1, 16, 17, 0.5f};
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "WelfordUpdate: para.abComputeLength is 17; it must be in [1, "
                "para.abLength 16]"));
}

TEST(WelfordUpdateTypeChecks, HalfRowMultiple) {
  ProfileScope scope(Profile::kA2);
  Tensors<half> t(16, 256);
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<half, float>(t.mean_out, t.var_out, t.mean_in, t.var_in,
                                   t.x, t.tmp, {1, 8, 8, 1.0f});
      },
      "WelfordUpdate: para.abLength is 8; it must be a positive multiple of 32 "
      "/ sizeof(T) = "
      "16 (T = half)"));
}

TEST(WelfordUpdateTypeChecks, Bfloat16NeedsAscend950) {
  for (Profile p : {Profile::kA2, Profile::k310P}) {
    ProfileScope scope(p);
    Tensors<bfloat16_t> t(16, 256);
    EXPECT_TRUE(FailsWith(
        [&] {
          WelfordUpdate<bfloat16_t, float>(t.mean_out, t.var_out, t.mean_in,
                                           t.var_in, t.x, t.tmp,
                                           {1, 16, 16, 1.0f});
        },
        std::string(
            "WelfordUpdate: T = bfloat16_t is not supported on profile ") +
            normgrad_ascendc::GetProfileInfo(p).name +
            "; it is supported on Ascend 950 only (half and float on every "
            "profile)"));
  }
}

TEST_F(WelfordUpdateChecks, TensorLengths) {
  t_.var_in.SetSize(8);
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "WelfordUpdate: inputVariance holds 8 floats, fewer than "
                "para.rnLength * para.abLength = 16"));
}

TEST_F(WelfordUpdateChecks, ScratchSize) {
  const LocalTensor<uint8_t> small = Window(t_.tmp, 0, 32);
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float>(t_.mean_out, t_.var_out, t_.mean_in,
                                    t_.var_in, t_.x, small, para_);
      },
      "WelfordUpdate: sharedTmpBuffer holds 32 bytes, fewer than the minimum "
      "64 "
      "(GetWelfordUpdateMaxMinTmpSize for abLength 16, T = float)"));
  // float with isReuseSource needs none, except on the inference series.
  WelfordUpdate<float, float, true>(t_.mean_out, t_.var_out, t_.mean_in,
                                    t_.var_in, t_.x, small, para_);
}

TEST(WelfordUpdateTypeChecks, ReuseIgnoredOnInferenceSeries) {
  ProfileScope scope(Profile::k310P);
  Tensors<float> t(16, 32);
  const WelfordUpdateParam para_{1, 16, 16, 0.5f};
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float, true>(t.mean_out, t.var_out, t.mean_in,
                                          t.var_in, t.x, t.tmp, para_);
      },
      "WelfordUpdate: sharedTmpBuffer holds 32 bytes, fewer than the minimum "
      "64 "
      "(GetWelfordUpdateMaxMinTmpSize for abLength 16, T = float, "
      "isReuseSource ignored on "
      "this profile)"));
}

TEST(WelfordUpdateFramework, NoScratchLeft) {
  ProfileScope scope(Profile::kA2);
  TPipe pipe;
  TBuf<TPosition::VECCALC> all;
  const uint32_t end =
      normgrad_ascendc::GetProfileInfo(Profile::kA2).scratch_end;
  pipe.InitBuffer(all, end);
  const LocalTensor<float> f = all.Get<float>();
  const LocalTensor<float> m_out(f.view()), v_out(f[16].view()),
      m_in(f[32].view()), v_in(f[48].view()), x(f[64].view());
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float>(m_out, v_out, m_in, v_in, x,
                                    WelfordUpdateParam{1, 16, 16, 1});
      },
      "WelfordUpdate: the framework scratch holds 0 bytes, fewer than the "
      "minimum 64"));
}

TEST_F(WelfordUpdateChecks, Overlaps) {
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float>(t_.mean_in, t_.var_out, t_.mean_in,
                                    t_.var_in, t_.x, t_.tmp, para_);
      },
      "WelfordUpdate: outputMean (UB bytes [64, 128)) and inputMean (UB bytes "
      "[64, 128)) "
      "overlap; the call writes outputMean, so it must not share memory with "
      "another "
      "operand"));
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float>(t_.mean_out, Window(t_.mean_out, 8, 16),
                                    t_.mean_in, t_.var_in, t_.x, t_.tmp, para_);
      },
      "WelfordUpdate: outputMean (UB bytes [192, 256)) and outputVariance (UB "
      "bytes [224, "
      "288)) overlap; the call writes outputMean, so it must not share memory "
      "with another "
      "operand"));
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float>(t_.mean_out, t_.var_out, t_.mean_in,
                                    t_.var_in, t_.x,
                                    LocalTensor<uint8_t>(t_.x.view()), para_);
      },
      "WelfordUpdate: inputX (UB bytes [0, 64)) and sharedTmpBuffer (UB bytes "
      "[0, 64)) "
      "overlap; the call writes sharedTmpBuffer, so it must not share memory "
      "with another "
      "operand"));
  // With float isReuseSource the call writes inputX, which then must not
  // share memory with the other inputs.
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float, true>(
            t_.mean_out, t_.var_out, t_.mean_in, t_.var_in,
            LocalTensor<float>(t_.mean_in.view()), t_.tmp, para_);
      },
      "WelfordUpdate: inputMean (UB bytes [64, 128)) and inputX (UB bytes [64, "
      "128)) overlap; "
      "the call writes inputX, so it must not share memory with another "
      "operand"));
  WelfordUpdate<float, float>(t_.mean_out, t_.var_out, t_.mean_in, t_.var_in,
                              LocalTensor<float>(t_.mean_in.view()), t_.tmp,
                              para_);
  // Inputs may share memory: they are only read.
  WelfordUpdate<float, float>(t_.mean_out, t_.var_out, t_.mean_in, t_.mean_in,
                              t_.x, t_.tmp, para_);
}

TEST_F(WelfordUpdateChecks, Placement) {
  normgrad_ascendc::TensorView view = t_.x.view();
  view.position = TPosition::A1;
  const LocalTensor<float> x_a1(view);
  EXPECT_TRUE(FailsWith(
      [&] {
        WelfordUpdate<float, float>(t_.mean_out, t_.var_out, t_.mean_in,
                                    t_.var_in, x_a1, t_.tmp, para_);
      },
      "WelfordUpdate: inputX is in position A1; it must be VECIN, VECOUT or "
      "VECCALC"));
}

}  // namespace
