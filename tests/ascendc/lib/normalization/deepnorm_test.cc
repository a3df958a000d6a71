// deepnorm_test.cc — AscendC::DeepNorm through kernel_operator.h, on the
// emulated core: the documented example bit for bit; with alpha = 1 and
// gx = 0 the same bits as LayerNorm (whose order DeepNorm follows, see
// docs/deepnorm.md); random data against a float64 reference written here
// within the bound of docs/numerics.md ("DeepNorm") for every type, profile,
// prototype, isReuseSrc and isBasicBlock, padded rows (originalH < H) and
// chunkings with tails; what isReuseSrc overwrites and dstLocal ==
// srcLocal; the tiling's tail rewrite; and every kernel-side check with its
// full message. Random data uses a fixed seed, printed; NORMGRAD_SEED=<n>
// overrides it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::DeepNorm;
using AscendC::DeepNormTiling;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};

uint32_t Seed() { return compat_test::Seed<20251203u>(); }

// The tensors of one call in TBufs: src, gx, dst, mean, rstd, beta, gamma,
// and a scratch of `scratch_bytes` (none: the framework scratch).
template <typename T>
struct Tensors {
  Tensors(uint32_t bs, uint32_t h, uint32_t scratch_bytes) {
    pipe.InitBuffer(src_buf, bs * h * sizeof(T));
    pipe.InitBuffer(gx_buf, bs * h * sizeof(T));
    pipe.InitBuffer(dst_buf, bs * h * sizeof(T));
    pipe.InitBuffer(mean_buf, std::max<uint32_t>(bs * sizeof(T), 32));
    pipe.InitBuffer(rstd_buf, std::max<uint32_t>(bs * sizeof(T), 32));
    pipe.InitBuffer(beta_buf, h * sizeof(T));
    pipe.InitBuffer(gamma_buf, h * sizeof(T));
    src = src_buf.template Get<T>();
    gx = gx_buf.template Get<T>();
    dst = dst_buf.template Get<T>();
    mean = mean_buf.template Get<T>();
    rstd = rstd_buf.template Get<T>();
    beta = beta_buf.template Get<T>();
    gamma = gamma_buf.template Get<T>();
    if (scratch_bytes != 0) {
      pipe.InitBuffer(tmp_buf, scratch_bytes);
      tmp = tmp_buf.template Get<uint8_t>();
    }
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> src_buf, gx_buf, beta_buf, gamma_buf;
  TBuf<TPosition::VECOUT> dst_buf, mean_buf, rstd_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> src, gx, dst, mean, rstd, beta, gamma;
  LocalTensor<uint8_t> tmp;
};

template <typename T>
void Fill(const LocalTensor<T>& t, const std::vector<float>& values) {
  for (size_t i = 0; i < values.size(); ++i)
    t.SetValue(i, static_cast<T>(values[i]));
}

template <typename T>
std::vector<float> Read(const LocalTensor<T>& t, size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(t.GetValue(i));
  return v;
}

// The tiling from the host API; asserts it succeeded.
DeepNormTiling HostTiling(uint32_t b, uint32_t s, uint32_t h, uint32_t oh,
                          uint32_t bytes, uint32_t type_size, bool reuse,
                          bool basic) {
  DeepNormTiling t;
  const bool ok = AscendC::GetDeepNormTilingInfo(ge::Shape({b, s, h}),
                                                 ge::Shape({b, s, oh}), bytes,
                                                 type_size, reuse, basic, t);
  EXPECT_TRUE(ok);
  return t;
}

template <typename T, bool reuse, bool basic>
void Call(const Tensors<T>& t, bool shared, float alpha, float eps,
          DeepNormTiling& tiling) {
  if (shared) {
    DeepNorm<T, reuse, basic>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta,
                              t.gamma, t.tmp, static_cast<T>(alpha),
                              static_cast<T>(eps), tiling);
  } else {
    DeepNorm<T, reuse, basic>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta,
                              t.gamma, static_cast<T>(alpha),
                              static_cast<T>(eps), tiling);
  }
}

// ---- The documented example
// --------------------------------------------------

// [4, 2, 8] float, src = gx = 0..63, gamma = beta = 0..7. The page prints
// only the results; alpha = -5.5 and epsilon = 65504 are the values that give
// them (docs/decisions.md, "DeepNorm").
TEST(DeepNorm, DocumentedExampleBitForBit) {
  const float kDst[8] = {0.0f,       1.0439204f, 2.0527046f, 3.0263522f,
                         3.9648638f, 4.868239f,  5.7364774f, 6.56958f};
  for (Profile profile : kProfiles) {
    for (bool shared : {true, false}) {
      SCOPED_TRACE(testing::Message() << static_cast<int>(profile) << shared);
      ProfileScope scope(profile);
      uint32_t max_bytes = 0, min_bytes = 0;
      ASSERT_TRUE(AscendC::GetDeepNormMaxMinTmpSize(
          ge::Shape({4, 2, 8}), 4, false, false, max_bytes, min_bytes));
      DeepNormTiling tiling =
          HostTiling(4, 2, 8, 8, min_bytes, 4, false, false);
      Tensors<float> t(8, 8, shared ? min_bytes : 0);
      std::vector<float> x(64), g(8);
      for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);
      for (int i = 0; i < 8; ++i) g[i] = static_cast<float>(i);
      Fill(t.src, x);
      Fill(t.gx, x);
      Fill(t.gamma, g);
      Fill(t.beta, g);
      Call<float, false, false>(t, shared, -5.5f, 65504.0f, tiling);
      const std::vector<float> dst = Read(t.dst, 64);
      for (int i = 0; i < 64; ++i) EXPECT_EQ(dst[i], kDst[i % 8]) << i;
      for (int r = 0; r < 8; ++r) {
        EXPECT_EQ(t.mean.GetValue(r), -15.75f - 36.0f * r) << r;
        EXPECT_EQ(t.rstd.GetValue(r), 106.3125f) << r;
      }
    }
  }
}

// ---- Same bits as LayerNorm with alpha = 1, gx = 0 -------------------------

template <typename T>
void ExpectSameAsLayerNorm(uint32_t b, uint32_t s, uint32_t h, uint32_t bytes,
                           bool shared, std::mt19937& rng) {
  SCOPED_TRACE(testing::Message()
               << b << "x" << s << "x" << h << " bytes " << bytes
               << (shared ? " shared" : " framework"));
  const uint32_t rows = b * s;
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  std::vector<float> x(rows * h), gamma(h), beta(h);
  for (float& v : x) v = value(rng);
  for (float& v : gamma) v = value(rng);
  for (float& v : beta) v = value(rng);
  DeepNormTiling dn = HostTiling(b, s, h, h, bytes, sizeof(T), false, false);
  std::vector<float> dn_out, dn_mean, dn_var;
  {
    Tensors<T> t(rows, h, shared ? bytes : 0);
    Fill(t.src, x);
    Fill(t.gx, std::vector<float>(rows * h, 0.0f));
    Fill(t.gamma, gamma);
    Fill(t.beta, beta);
    Call<T, false, false>(t, shared, 1.0f, 1e-3f, dn);
    dn_out = Read(t.dst, rows * h);
    dn_mean = Read(t.mean, rows);
    dn_var = Read(t.rstd, rows);
  }
  AscendC::LayerNormTiling ln;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({b, s, h, h}), bytes, sizeof(T),
                                    false, ln);
  Tensors<T> t(rows, h, bytes);
  Fill(t.src, x);
  Fill(t.gamma, gamma);
  Fill(t.beta, beta);
  AscendC::LayerNorm<T, false>(t.dst, t.mean, t.rstd, t.src, t.gamma, t.beta,
                               t.tmp, static_cast<T>(1e-3f), ln);
  EXPECT_EQ(Read(t.dst, rows * h), dn_out);
  EXPECT_EQ(Read(t.mean, rows), dn_mean);
  EXPECT_EQ(Read(t.rstd, rows), dn_var);
}

TEST(DeepNorm, AlphaOneAndZeroGxGiveLayerNormsBits) {
  std::mt19937 rng(Seed());
  for (Profile profile : kProfiles) {
    ProfileScope scope(profile);
    for (bool shared : {true, false}) {
      ExpectSameAsLayerNorm<float>(1, 7, 16, 600, shared, rng);    // tail
      ExpectSameAsLayerNorm<float>(2, 5, 200, 4800, shared, rng);  // tail
      ExpectSameAsLayerNorm<half>(1, 9, 64, 3200, shared, rng);    // tail
      ExpectSameAsLayerNorm<half>(3, 11, 32, 12992, shared, rng);  // one chunk
    }
  }
}

// ---- Ascend 950: tilings with the shape fields only -------------------------

// Programs built for the Ascend 950 fill bLength, sLength, hLength,
// originalHLength and oneTmpSize only; that profile derives the rest and
// gives the bits of the host's tiling (with several chunks and a tail), with
// or without a scratch. Atlas A2/A3 still refuses such a tiling.
template <typename T>
void ExpectHandFilledBits950(uint32_t b, uint32_t s, uint32_t h, uint32_t oh,
                             uint32_t bytes, std::mt19937& rng) {
  SCOPED_TRACE(testing::Message() << b << "x" << s << "x" << h << " oh " << oh
                                  << " " << normgrad_ascendc::TypeName<T>());
  ProfileScope scope(Profile::k950);
  const uint32_t rows = b * s;
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  std::vector<float> x(rows * h, 0.0f), gx(rows * h, 0.0f), gamma(h), beta(h);
  for (uint32_t i = 0; i < rows * h; ++i) {
    if (i % h < oh) x[i] = value(rng), gx[i] = value(rng);
  }
  for (float& v : gamma) v = value(rng);
  for (float& v : beta) v = value(rng);
  DeepNormTiling host = HostTiling(b, s, h, oh, bytes, sizeof(T), false, false);
  ASSERT_GT(host.loopRound, 1u);
  DeepNormTiling hand{};
  hand.bLength = b;
  hand.sLength = s;
  hand.hLength = h;
  hand.originalHLength = oh;
  hand.oneTmpSize = 256;
  std::vector<float> out[2][3];
  for (int k = 0; k < 2; ++k) {
    Tensors<T> t(rows, h, k == 0 ? bytes : 0);
    Fill(t.src, x);
    Fill(t.gx, gx);
    Fill(t.gamma, gamma);
    Fill(t.beta, beta);
    Call<T, false, false>(t, k == 0, 0.75f, 1e-3f, k == 0 ? host : hand);
    out[k][0] = Read(t.dst, rows * h);
    out[k][1] = Read(t.mean, rows);
    out[k][2] = Read(t.rstd, rows);
  }
  EXPECT_EQ(out[1][0], out[0][0]);
  EXPECT_EQ(out[1][1], out[0][1]);
  EXPECT_EQ(out[1][2], out[0][2]);
  EXPECT_EQ(hand.oneTmpSize, 256u) << "the program's tiling was written";
}

TEST(DeepNorm, HandFilledTilingOnAscend950) {
  std::mt19937 rng(Seed() + 950);
  ExpectHandFilledBits950<float>(2, 5, 40, 37, 1000, rng);
  ExpectHandFilledBits950<half>(1, 9, 64, 64, 3200, rng);
  ProfileScope scope(Profile::kA2);
  Tensors<float> t(8, 8, 0);
  DeepNormTiling hand{};
  hand.bLength = 4;
  hand.sLength = 2;
  hand.hLength = 8;
  hand.originalHLength = 8;
  hand.oneTmpSize = 256;
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { Call<float, false, false>(t, false, 1.0f, 1e-5f, hand); },
      "DeepNorm: tiling.lastDimValueBack"));
}

// ---- The tiling's tail rewrite ----------------------------------------------

// As LayerNorm's (docs/layernorm.md): after a call with a tail, bshCurLength
// and bsCurLength hold the tail's sizes, so a second call with the same
// tiling processes only the first meanVarTailSize rows of each chunk and the
// tail; the other rows keep what the first call wrote.
TEST(DeepNorm, ACallWithATailLeavesTheTailSizesInTheTiling) {
  ProfileScope scope(Profile::kA2);
  // [1,7,16] float: 3 rows per chunk, a tail of 1 row.
  DeepNormTiling tiling = HostTiling(1, 7, 16, 16, 600, 4, false, false);
  ASSERT_EQ(tiling.bsCurLength, 3u);
  ASSERT_EQ(tiling.meanVarTailSize, 1u);
  DeepNormTiling expected = tiling;
  expected.bshCurLength = tiling.inputTailSize;
  expected.bsCurLength = tiling.meanVarTailSize;
  std::mt19937 rng(Seed() + 7);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  std::vector<float> x(7 * 16), gx(7 * 16), gamma(16), beta(16);
  for (float& v : x) v = value(rng);
  for (float& v : gx) v = value(rng);
  for (float& v : gamma) v = value(rng);
  for (float& v : beta) v = value(rng);
  Tensors<float> t(7, 16, 600);
  Fill(t.src, x);
  Fill(t.gx, gx);
  Fill(t.gamma, gamma);
  Fill(t.beta, beta);
  Call<float, false, false>(t, true, 0.5f, 1e-5f, tiling);
  EXPECT_EQ(std::memcmp(&tiling, &expected, sizeof tiling), 0)
      << "bshCurLength " << tiling.bshCurLength << ", bsCurLength "
      << tiling.bsCurLength;
  const std::vector<float> first_dst = Read(t.dst, 7 * 16);
  const std::vector<float> first_mean = Read(t.mean, 7);

  for (float& v : x) v += 1.0f;  // every row's mean moves
  Fill(t.src, x);
  Call<float, false, false>(t, true, 0.5f, 1e-5f, tiling);
  const std::vector<float> dst = Read(t.dst, 7 * 16);
  const std::vector<float> mean = Read(t.mean, 7);
  // Chunks of one row at rows 0 and 3, then the tail at row 6.
  for (uint32_t r = 0; r < 7; ++r) {
    const bool processed = r == 0 || r == 3 || r == 6;
    if (processed) {
      EXPECT_NE(mean[r], first_mean[r]) << "row " << r;
    } else {
      EXPECT_EQ(mean[r], first_mean[r]) << "row " << r;
      for (uint32_t j = 0; j < 16; ++j) {
        EXPECT_EQ(dst[r * 16 + j], first_dst[r * 16 + j])
            << "row " << r << ", column " << j;
      }
    }
  }
}

// ---- Random data against float64 --------------------------------------------

// The float64 reference of docs/deepnorm.md for every column (padding
// columns included) and the bound of docs/numerics.md, "DeepNorm":
// with u = 2^-24, k = ceil(originalH / 64) + 6, C = 4k + 32,
// A = max over the row's data columns of |alpha·x| + |gx|,
// s = sqrt(var + eps), kappa = max(A / s, 1) and xhat = (z − mean) / s:
//   |mean − ref| ≤ C·u·A,  |var − ref| ≤ 2·C·u·A²,
//   |y − ref| ≤ |gamma|·C·u·kappa·(1 + |xhat|) + 2u·|ref|,
// plus, for half outputs, the narrowing: 2^-11·(|ref| + that bound) + 2^-25.
struct Case {
  uint32_t b, s, h, oh;
  uint32_t bytes;  // 0: the maximum
};

template <typename T, bool reuse, bool basic>
void ExpectWithinBound(const Case& c, Profile profile, bool shared,
                       std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const std::string label =
      std::string("DeepNorm<") + normgrad_ascendc::TypeName<T>() + ">";
  SCOPED_TRACE(testing::Message()
               << "[" << c.b << "," << c.s << "," << c.h << "] originalH "
               << c.oh << (kHalf ? " half" : " float") << " profile "
               << static_cast<int>(profile)
               << (shared ? " shared" : " framework") << (reuse ? " reuse" : "")
               << (basic ? " basic" : ""));
  ProfileScope scope(profile);
  const uint32_t rows = c.b * c.s, h = c.h, n = rows * h;
  uint32_t max_bytes = 0, min_bytes = 0;
  ASSERT_TRUE(AscendC::GetDeepNormMaxMinTmpSize(
      ge::Shape({c.b, c.s, h}), sizeof(T), reuse, basic, max_bytes, min_bytes));
  const uint32_t bytes = c.bytes != 0 ? c.bytes : max_bytes;
  ASSERT_GE(bytes, min_bytes);
  DeepNormTiling tiling =
      HostTiling(c.b, c.s, h, c.oh, bytes, sizeof(T), reuse, basic);
  const float range = kHalf ? 2.0f : 4.0f;
  std::uniform_real_distribution<float> value(-range, range);
  std::vector<float> x(n), gx(n), gamma(h), beta(h);
  for (uint32_t i = 0; i < n; ++i) {
    const bool pad = i % h >= c.oh;  // the caller's zero padding
    x[i] = pad ? 0.0f : static_cast<float>(static_cast<T>(value(rng) + 1.0f));
    gx[i] = pad ? 0.0f : static_cast<float>(static_cast<T>(value(rng)));
  }
  for (float& v : gamma) v = static_cast<float>(static_cast<T>(value(rng)));
  for (float& v : beta) v = static_cast<float>(static_cast<T>(value(rng)));
  const float alpha = static_cast<float>(static_cast<T>(kHalf ? 1.5f : 2.25f));
  const float eps = static_cast<float>(static_cast<T>(kHalf ? 1e-3f : 1e-5f));

  Tensors<T> t(rows, h, shared ? bytes : 0);
  Fill(t.src, x);
  Fill(t.gx, gx);
  Fill(t.gamma, gamma);
  Fill(t.beta, beta);
  Call<T, reuse, basic>(t, shared, alpha, eps, tiling);
  const std::vector<float> y = Read(t.dst, n), mean = Read(t.mean, rows),
                           var = Read(t.rstd, rows);

  const double u = std::ldexp(1.0, -24);
  const double k = std::ceil(c.oh / 64.0) + 6;
  const double bound_c = 4 * k + 32;
  const double out_ulp = kHalf ? std::ldexp(1.0, -11) : 0.0;
  for (uint32_t r = 0; r < rows; ++r) {
    double sum = 0, a = 0;
    std::vector<double> z(h);
    for (uint32_t j = 0; j < h; ++j) {
      const size_t i = size_t{r} * h + j;
      z[j] = double{alpha} * x[i] + gx[i];
      if (j < c.oh) {
        sum += z[j];
        a = std::max(
            a, std::fabs(double{alpha} * x[i]) + std::fabs(double{gx[i]}));
      }
    }
    const double m = sum / c.oh;
    double sq = 0;
    for (uint32_t j = 0; j < c.oh; ++j) sq += (z[j] - m) * (z[j] - m);
    const double v = sq / c.oh;
    const double s = std::sqrt(v + eps);
    const double kappa = std::max(a / s, 1.0);
    auto narrowed = [&](double ref, double bound) {
      return kHalf ? bound + out_ulp * (std::fabs(ref) + bound) +
                         std::ldexp(1.0, -25)
                   : bound;
    };
    EXPECT_TRUE(
        WithinBound(label + " mean", mean[r], m, narrowed(m, bound_c * u * a)))
        << r;
    EXPECT_TRUE(WithinBound(label + " variance", var[r], v,
                            narrowed(v, 2 * bound_c * u * a * a)))
        << r;
    for (uint32_t j = 0; j < h; ++j) {
      const double xhat = (z[j] - m) / s;
      const double ref = xhat * gamma[j] + beta[j];
      const double bound = narrowed(ref, std::fabs(gamma[j]) * bound_c * u *
                                                 kappa * (1 + std::fabs(xhat)) +
                                             2 * u * std::fabs(ref));
      ASSERT_TRUE(WithinBound(label + " y", y[size_t{r} * h + j], ref, bound))
          << "row " << r << " column " << j;
    }
  }
  // The tail rewrite: a call whose data ends in a tail leaves its sizes
  // (not on the Ascend 950 profile, which reads the shape fields only and
  // works in one chunk).
  if (profile == Profile::k950) {
    EXPECT_EQ(tiling.bshCurLength, tiling.oneTmpSize);
  } else if (tiling.inputTailSize != 0) {
    EXPECT_EQ(tiling.bshCurLength, tiling.inputTailSize);
    EXPECT_EQ(tiling.bsCurLength, tiling.meanVarTailSize);
  } else {
    EXPECT_EQ(tiling.bshCurLength, tiling.oneTmpSize);
  }
}

constexpr Case kFloatCases[] = {
    {1, 1, 8, 8, 0},         // one row, the smallest H
    {1, 7, 16, 13, 600},     // padded rows, chunks of 3 rows and a tail of 1
    {2, 5, 200, 200, 4800},  // 2 rows per chunk, a tail
    {1, 3, 2040, 2001, 0},   // the widest H, padded
    {3, 3, 72, 72, 0},       // one chunk
};
constexpr Case kHalfCases[] = {
    {1, 1, 16, 16, 0},
    {1, 7, 16, 9, 640},     // padded, 3 rows per chunk and a tail
    {1, 5, 80, 77, 2000},   // 2 rows per chunk, a tail
    {1, 2, 2032, 2030, 0},  // wide
};
constexpr Case kBasicCases[] = {
    {1, 8, 64, 64, 0},
    {2, 4, 128, 128, 3200},  // chunks of 2 rows (float: 800 floats / 3 → 256)
};

TEST(DeepNorm, FloatWithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed());
  for (Profile p : kProfiles) {
    for (bool shared : {true, false}) {
      for (const Case& c : kFloatCases) {
        ExpectWithinBound<float, false, false>(c, p, shared, rng);
        ExpectWithinBound<float, true, false>(c, p, shared, rng);
      }
      for (const Case& c : kBasicCases) {
        ExpectWithinBound<float, false, true>(c, p, shared, rng);
        ExpectWithinBound<float, true, true>(c, p, shared, rng);
      }
    }
  }
}

TEST(DeepNorm, HalfWithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed());
  for (Profile p : kProfiles) {
    for (bool shared : {true, false}) {
      for (const Case& c : kHalfCases) {
        ExpectWithinBound<half, false, false>(c, p, shared, rng);
      }
      for (const Case& c : kBasicCases) {
        ExpectWithinBound<half, false, true>(c, p, shared, rng);
      }
    }
  }
}

// ---- isReuseSrc
// --------------------------------------------------------------

// float with isReuseSrc: the same results; srcLocal is overwritten; and
// dstLocal may be srcLocal itself (in place over several chunks).
TEST(DeepNorm, FloatReuseSrcSameResultsAndInPlace) {
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  const uint32_t rows = 7, h = 16, n = rows * h, bytes = 400;  // 3 rows a chunk
  std::vector<float> x(n), gx(n), gamma(h), beta(h);
  for (float& v : x) v = value(rng);
  for (float& v : gx) v = value(rng);
  for (float& v : gamma) v = value(rng);
  for (float& v : beta) v = value(rng);
  auto run = [&](auto reuse_tag, bool in_place, std::vector<float>* src_after) {
    constexpr bool kReuse = decltype(reuse_tag)::value;
    DeepNormTiling tiling =
        HostTiling(1, rows, h, h, bytes + 200, 4, kReuse, false);
    Tensors<float> t(rows, h, bytes + 200);
    Fill(t.src, x);
    Fill(t.gx, gx);
    Fill(t.gamma, gamma);
    Fill(t.beta, beta);
    const LocalTensor<float>& dst = in_place ? t.src : t.dst;
    DeepNorm<float, kReuse>(dst, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma,
                            t.tmp, 0.75f, 1e-5f, tiling);
    *src_after = Read(t.src, n);
    return Read(dst, n);
  };
  std::vector<float> src_plain, src_reuse, src_in_place;
  const std::vector<float> plain = run(std::false_type{}, false, &src_plain);
  const std::vector<float> reused = run(std::true_type{}, false, &src_reuse);
  const std::vector<float> in_place =
      run(std::true_type{}, true, &src_in_place);
  EXPECT_EQ(src_plain, x);
  EXPECT_NE(src_reuse, x);
  EXPECT_EQ(reused, plain);
  EXPECT_EQ(in_place, plain);
}

// ---- Checks -----------------------------------------------------------------

class DeepNormChecks : public ::testing::Test {
 protected:
  DeepNormChecks() : t(8, 16, 800) {}
  void SetUp() override {
    tiling = HostTiling(1, 8, 16, 16, 800, 4, false, false);
    Fill(t.src, std::vector<float>(128, 1.0f));
  }
  void Run() {
    DeepNorm<float>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma, t.tmp,
                    1.0f, 1e-5f, tiling);
  }
  ProfileScope scope{Profile::kA2};
  Tensors<float> t;
  DeepNormTiling tiling;
};

TEST_F(DeepNormChecks, ValidSetupRuns) { EXPECT_NO_THROW(Run()); }

TEST(DeepNormChecksOther, HalfRefusesReuseSrc) {
  ProfileScope s(Profile::k950);
  Tensors<half> h(8, 16, 800);
  DeepNormTiling ht = HostTiling(1, 8, 16, 16, 800, 2, false, false);
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<half, true>(h.dst, h.mean, h.rstd, h.src, h.gx, h.beta,
                             h.gamma, h.tmp, half(1.0f), half(1e-3f), ht);
      },
      "DeepNorm: isReuseSrc is true with T = half; only float may reuse "
      "srcLocal (half is widened into the scratch)"));
}

TEST_F(DeepNormChecks, BasicBlockShape) {
  // H = 16 is not a multiple of 64.
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float, false, true>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta,
                                     t.gamma, t.tmp, 1.0f, 1e-5f, tiling);
      },
      "DeepNorm: isBasicBlock is true but tiling.hLength 16, B*S 8, "
      "originalHLength 16: a basic block needs H a multiple of 64, B*S a "
      "multiple of 8 and originalHLength == hLength"));
}

TEST_F(DeepNormChecks, TilingShape) {
  DeepNormTiling empty;
  tiling = empty;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "DeepNorm: tiling.oneTmpSize is 0: the tiling is empty "
                        "(GetDeepNormTilingInfo failed or was not called)"));
  SetUp();
  tiling.hLength = 2048;
  EXPECT_TRUE(
      FailsWith([&] { Run(); },
                "DeepNorm: tiling.hLength is 2048; H must be in [1, 2040]"));
  SetUp();
  tiling.originalHLength = 17;
  EXPECT_TRUE(FailsWith(
      [&] { Run(); },
      "DeepNorm: tiling.originalHLength is 17; it must be in [1, hLength 16]"));
  SetUp();
  tiling.originalHLength = 15;
  EXPECT_TRUE(FailsWith(
      [&] { Run(); },
      "DeepNorm: tiling.lastDimValueBack is 0.0625, expected 1.0f / "
      "originalHLength 15 = 0.0666666701: the tiling is inconsistent"));
  SetUp();
  tiling.hLength = 12;
  tiling.originalHLength = 12;
  EXPECT_TRUE(FailsWith(
      [&] { Run(); },
      "DeepNorm: tiling.hLength 12 floats is 48 bytes, not a multiple of 32"));
}

TEST_F(DeepNormChecks, TilingChunking) {
  tiling.loopRound += 1;
  EXPECT_TRUE(
      FailsWith([&] { Run(); },
                "DeepNorm: tiling.loopRound is 3, expected 2 "
                "(inputXSize / oneTmpSize): the tiling is inconsistent"));
  SetUp();
  tiling.oneTmpSize = 20;
  EXPECT_TRUE(
      FailsWith([&] { Run(); },
                "DeepNorm: tiling.oneTmpSize % hLength is 4, expected 0 "
                "(a whole number of rows)"));
  SetUp();
  tiling.bshCurLength = 16;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "DeepNorm: tiling.bshCurLength is 16, "
                        "expected oneTmpSize 64 (or inputTailSize 0"));
}

TEST_F(DeepNormChecks, TensorLengthsAndPlacement) {
  LocalTensor<float> short_gx = t.gx;
  short_gx.SetSize(64);
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.dst, t.mean, t.rstd, t.src, short_gx, t.beta, t.gamma,
                        t.tmp, 1.0f, 1e-5f, tiling);
      },
      "DeepNorm: gxLocal holds 64 floats, fewer than the 128 it must hold "
      "(inputXSize)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma[4],
                        t.tmp, 1.0f, 1e-5f, tiling);
      },
      "gammaLocal"));
}

TEST_F(DeepNormChecks, Overlaps) {
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.src, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma,
                        t.tmp, 1.0f, 1e-5f, tiling);
      },
      "DeepNorm: dstLocal (UB bytes [0, 512)) and srcLocal (UB bytes [0, "
      "512)) overlap; DeepNorm must not write what it still reads (only "
      "dstLocal may be srcLocal itself, with isReuseSrc = true)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.dst, t.mean, t.mean, t.src, t.gx, t.beta, t.gamma,
                        t.tmp, 1.0f, 1e-5f, tiling);
      },
      "DeepNorm: meanLocal (UB bytes [1536, 1568)) and rstdLocal (UB bytes "
      "[1536, 1568)) overlap; DeepNorm writes both, so they must not share "
      "memory"));
}

TEST_F(DeepNormChecks, Scratch) {
  LocalTensor<uint8_t> small = t.tmp;
  small.SetSize(256);
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma,
                        small, 1.0f, 1e-5f, tiling);
      },
      "DeepNorm: sharedTmpBuffer holds 64 floats (256 bytes), fewer than "
      "tiling.tmpBufSize 200 floats"));
  // A tiling made for float with isReuseSrc has no third chunk buffer.
  DeepNormTiling reuse_tiling = HostTiling(1, 8, 16, 16, 256, 4, true, false);
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma,
                        t.tmp, 1.0f, 1e-5f, reuse_tiling);
      },
      "DeepNorm: scratch region tiling.thirdTmpStartPos [64, 96) floats runs "
      "past tiling.tmpBufSize 64 floats (tiling.numberOfTmpBuf is 2"));
}

TEST_F(DeepNormChecks, NoFrameworkScratchLeft) {
  TBuf<TPosition::VECCALC> rest;
  t.pipe.InitBuffer(rest, normgrad_ascendc::CurrentCore().scratch_end() -
                              t.pipe.used_bytes());
  EXPECT_TRUE(FailsWith(
      [&] {
        DeepNorm<float>(t.dst, t.mean, t.rstd, t.src, t.gx, t.beta, t.gamma,
                        1.0f, 1e-5f, tiling);
      },
      "DeepNorm: no framework scratch is left: the pipe's buffers fill the "
      "unified buffer up to its scratch end (196480 bytes, profile Atlas "
      "A2/A3); leave tiling.tmpBufSize 200 floats free or pass a "
      "sharedTmpBuffer"));
}

}  // namespace
