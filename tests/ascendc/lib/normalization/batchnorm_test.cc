// batchnorm_test.cc — AscendC::BatchNorm through kernel_operator.h, on the
// emulated core: the documented example's values, random data on every
// profile (a2, 310p, 950) for float and half, both prototypes, isBasicBlock,
// padded batches (originB < B), chunkings with and without tails, against a
// float64 reference written here within the bound of docs/numerics.md
// ("BatchNorm"); what the call may change (outputs and scratch only; rows at
// and beyond originB untouched); in-place output; chunk-independence; and
// every kernel-side check with its full message.
//
// The tilings come from the host API (GetBatchNormNDTilingInfo); its fields
// are asserted against docs/batchnorm.md in tests/ascendc/lib/normalization/
// batchnorm_tiling_test.cc. Random data uses a fixed seed, printed;
// NORMGRAD_SEED=<n> overrides it.
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
#include "norm_fixture.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::BatchNorm;
using AscendC::BatchNormTiling;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPosition;
using compat_test::BitsOf;
using compat_test::BitsOfValue;
using compat_test::FailsWith;
using compat_test::Narrowed;
using compat_test::ProfileScope;
using compat_test::Proto;
using compat_test::RandomParam;
using compat_test::SetBound;
using compat_test::Values;
using compat_test::WithinBound;
using normgrad_ascendc::CurrentCore;
using normgrad_ascendc::Profile;

uint32_t Seed() { return compat_test::Seed<20261204u>(); }

struct Shape {
  uint32_t b, s, h, origin_b;
  uint32_t sh() const { return s * h; }
};

template <typename T>
struct Tensors : compat_test::NormTensors<T> {
  Tensors(const Shape& s, uint32_t scratch_bytes)
      : compat_test::NormTensors<T>(s.b * s.sh(), s.sh(), s.b, scratch_bytes) {}
};

// x: a per-feature offset in [-4, 4] plus magnitudes 2^-3…2^3 (2^-3…2^2 for
// half); gamma and beta `range`-bounded; each rounded to T.
template <typename T>
std::vector<BitsOf<T>> RandomX(const Shape& s, std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  std::uniform_real_distribution<float> offset(-4.0f, 4.0f);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-3, kHalf ? 2 : 3);
  std::vector<float> base(s.sh());
  for (auto& v : base) v = offset(rng);
  std::vector<BitsOf<T>> bits(size_t{s.b} * s.sh());
  for (uint32_t r = 0; r < s.b; ++r) {
    for (uint32_t j = 0; j < s.sh(); ++j) {
      const float v = base[j] + std::ldexp(mantissa(rng), exponent(rng));
      bits[size_t{r} * s.sh() + j] = BitsOfValue<T>(static_cast<float>(T(v)));
    }
  }
  return bits;
}

template <typename T, bool basic>
void Call(const Tensors<T>& t, const LocalTensor<T>& y, T eps,
          BatchNormTiling& tiling, Proto proto) {
  if (proto == Proto::kSharedTmpBuffer) {
    BatchNorm<T, false, basic>(y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp,
                               eps, tiling);
  } else {
    BatchNorm<T, false, basic>(y, t.mean, t.var, t.x, t.gamma, t.beta, eps,
                               tiling);
  }
}

BatchNormTiling TilingFor(const Shape& s, uint32_t bytes, uint32_t type_size,
                          bool basic) {
  BatchNormTiling tiling;
  EXPECT_TRUE(AscendC::GetBatchNormNDTilingInfo(
      ge::Shape({s.b, s.s, s.h}), ge::Shape({s.origin_b, s.s, s.h}), bytes,
      type_size, false, tiling, basic));
  return tiling;
}

uint32_t MinScratch(const Shape& s, uint32_t type_size, bool basic) {
  uint32_t max_value = 0, min_value = 0;
  EXPECT_TRUE(AscendC::GetBatchNormMaxMinTmpSize(
      ge::Shape({s.b, s.s, s.h}), ge::Shape({s.origin_b, s.s, s.h}), type_size,
      false, max_value, min_value, basic));
  return min_value;
}

// ---- The float64 reference and the bound of docs/numerics.md --------------

void ExpectWithinBound(const Shape& s, bool is_half, double eps,
                       const std::vector<double>& x,
                       const std::vector<double>& gamma,
                       const std::vector<double>& beta,
                       const std::vector<double>& y_out,
                       const std::vector<double>& mean_out,
                       const std::vector<double>& var_out) {
  const uint32_t m = s.origin_b;
  const uint32_t sh = s.sh();
  const double lanes = m;  // additions a term passes through: at most m − 1
  const std::string label =
      std::string("BatchNorm<") + (is_half ? "half" : "float") + ">";
  for (uint32_t j = 0; j < sh; ++j) {
    double mu = 0, a = 0;
    for (uint32_t r = 0; r < m; ++r) {
      mu += x[size_t{r} * sh + j];
      a += std::fabs(x[size_t{r} * sh + j]);
    }
    mu /= m;
    a /= m;
    double sigma2 = 0;
    for (uint32_t r = 0; r < m; ++r) {
      const double d = x[size_t{r} * sh + j] - mu;
      sigma2 += d * d;
    }
    sigma2 /= m;
    const SetBound bound(mu, a, sigma2, eps, lanes);
    ASSERT_LE(bound.eps_t, 0.5) << "the bound needs eps_t <= 1/2";
    EXPECT_TRUE(WithinBound(label + " mean", mean_out[j], mu,
                            Narrowed(is_half, bound.MeanBound(), mu)))
        << "mean of feature " << j;
    EXPECT_TRUE(WithinBound(label + " variance", var_out[j], sigma2,
                            Narrowed(is_half, bound.VarianceBound(), sigma2)))
        << "variance of feature " << j;
    for (uint32_t r = 0; r < m; ++r) {
      const double xv = x[size_t{r} * sh + j];
      const double y = bound.Output(xv, gamma[r], beta[r]);
      ASSERT_TRUE(WithinBound(
          label + " y", y_out[size_t{r} * sh + j], y,
          Narrowed(is_half, bound.OutputBound(xv, gamma[r], beta[r]), y)))
          << "output row " << r << ", feature " << j;
    }
  }
}

// ---- Random data against the reference ------------------------------------

struct Case {
  Shape shape;
  uint32_t columns;  // columns per chunk the scratch is sized for (0: max)
};

// S·H is a multiple of 16 so that float and half both accept it.
constexpr Case kCases[] = {
    {{8, 4, 4, 8}, 0},       // one chunk
    {{5, 3, 16, 5}, 16},     // 48 features: 3 chunks of 16
    {{7, 5, 16, 6}, 32},     // originB 6 of 7; 80 = 2·32 + 16
    {{16, 16, 16, 15}, 16},  // the tiling page's shapes
    {{1, 2, 32, 1}, 48},     // one row: variance 0, y = beta
    {{33, 1, 96, 33}, 64},   // 96 = 64 + 32
};

uint32_t ScratchFor(const Case& c, uint32_t type_size) {
  const Shape& s = c.shape;
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetBatchNormMaxMinTmpSize(ge::Shape({s.b, s.s, s.h}),
                                     ge::Shape({s.origin_b, s.s, s.h}),
                                     type_size, false, max_value, min_value);
  if (c.columns == 0) return max_value;
  const uint32_t per_column = 3 * s.origin_b + (type_size == 2 ? 2 : 0);
  return 4 * per_column * c.columns;
}

template <typename T, bool basic>
void RunRandom(const Case& c, Profile profile, Proto proto, std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const Shape& s = c.shape;
  SCOPED_TRACE(testing::Message()
               << "[" << s.b << "," << s.s << "," << s.h << "] originB "
               << s.origin_b << ", " << (kHalf ? "half" : "float") << ", "
               << normgrad_ascendc::GetProfileInfo(profile).key << ", "
               << (proto == Proto::kSharedTmpBuffer ? "sharedTmpBuffer"
                                                    : "framework scratch")
               << (basic ? ", isBasicBlock" : ""));
  ProfileScope scope(profile);
  const uint32_t bytes = ScratchFor(c, sizeof(T));
  BatchNormTiling tiling = TilingFor(s, bytes, sizeof(T), basic);
  ASSERT_NE(tiling.oneTmpSize, 0u);
  if (c.columns != 0 && c.columns < s.sh()) {
    ASSERT_EQ(tiling.shCurLength, c.columns);
  }
  const BatchNormTiling tiling_before = tiling;
  Tensors<T> t(s, proto == Proto::kSharedTmpBuffer ? bytes : 0);
  uint8_t* ub = CurrentCore().ub();
  for (size_t i = 0; i < CurrentCore().ub_size(); ++i) {
    ub[i] = static_cast<uint8_t>(rng());
  }
  const auto x_bits = RandomX<T>(s, rng);
  const auto gamma_bits = RandomParam<T>(s.b, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(s.b, 1.0f, rng);
  Tensors<T>::Write(t.x, x_bits);
  Tensors<T>::Write(t.gamma, gamma_bits);
  Tensors<T>::Write(t.beta, beta_bits);
  const std::vector<uint8_t> before(ub, ub + CurrentCore().ub_size());
  const T eps = kHalf ? T(0.001f) : T(1e-5f);

  Call<T, basic>(t, t.y, eps, tiling, proto);

  EXPECT_EQ(std::memcmp(&tiling, &tiling_before, sizeof tiling), 0);
  const size_t scratch_begin = proto == Proto::kSharedTmpBuffer
                                   ? t.tmp.view().offset
                                   : t.pipe.used_bytes();
  const size_t scratch_end = scratch_begin + size_t{tiling.tmpBufSize} * 4;
  auto in = [](size_t i, const auto& tensor, size_t length) {
    return i >= tensor.view().offset && i < tensor.view().offset + length;
  };
  const size_t rows_bytes = size_t{s.origin_b} * s.sh() * sizeof(T);
  for (size_t i = 0; i < before.size(); ++i) {
    const bool allowed = in(i, t.y, rows_bytes) ||
                         in(i, t.mean, s.sh() * sizeof(T)) ||
                         in(i, t.var, s.sh() * sizeof(T)) ||
                         (i >= scratch_begin && i < scratch_end);
    if (!allowed && ub[i] != before[i]) {
      ADD_FAILURE() << "UB byte " << i << " changed";
      break;
    }
  }
  ExpectWithinBound(s, kHalf, static_cast<float>(eps), Values<T>(x_bits),
                    Values<T>(gamma_bits), Values<T>(beta_bits),
                    Values<T>(Tensors<T>::Read(t.y, size_t{s.b} * s.sh())),
                    Values<T>(Tensors<T>::Read(t.mean, s.sh())),
                    Values<T>(Tensors<T>::Read(t.var, s.sh())));
}

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};
constexpr Proto kProtos[] = {Proto::kSharedTmpBuffer, Proto::kFrameworkScratch};

TEST(BatchNorm, FloatWithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed());
  for (Profile p : kProfiles) {
    for (Proto proto : kProtos) {
      for (const Case& c : kCases) RunRandom<float, false>(c, p, proto, rng);
    }
  }
}

TEST(BatchNorm, HalfWithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed() + 1);
  for (Profile p : kProfiles) {
    for (Proto proto : kProtos) {
      for (const Case& c : kCases) RunRandom<half, false>(c, p, proto, rng);
    }
  }
}

TEST(BatchNorm, BasicBlockWithinTheBound) {
  std::mt19937 rng(Seed() + 2);
  const Case basic[] = {{{8, 4, 16, 8}, 0}, {{16, 8, 32, 16}, 64}};
  for (Profile p : kProfiles) {
    for (const Case& c : basic) {
      RunRandom<float, true>(c, p, Proto::kSharedTmpBuffer, rng);
      RunRandom<half, true>(c, p, Proto::kFrameworkScratch, rng);
    }
  }
}

// Features are independent and each column is summed in one fixed order:
// every chunking and isBasicBlock give the same bits.
// The 950 profile's programs fill only originalBLength, meanVarSize and
// firstDimValueBack; that tiling runs there, within the float64 bound and
// with the bits of the host tiling's run. Atlas A2/A3 still refuses it.
template <typename T>
void RunHandFilled950(const Shape& s, std::mt19937& rng) {
  ProfileScope scope(Profile::k950);
  BatchNormTiling hand{};
  hand.originalBLength = s.origin_b;
  hand.meanVarSize = s.sh();
  hand.firstDimValueBack = 1.0f / static_cast<float>(s.origin_b);
  const uint32_t bytes = ScratchFor({s, 0}, sizeof(T));
  BatchNormTiling full = TilingFor(s, bytes, sizeof(T), false);
  Tensors<T> t(s, bytes);
  const auto x_bits = RandomX<T>(s, rng);
  const auto gamma_bits = RandomParam<T>(s.b, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(s.b, 1.0f, rng);
  Tensors<T>::Write(t.x, x_bits);
  Tensors<T>::Write(t.gamma, gamma_bits);
  Tensors<T>::Write(t.beta, beta_bits);
  const T eps = std::is_same_v<T, half> ? T(0.001f) : T(1e-5f);
  const size_t n = size_t{s.b} * s.sh();
  Call<T, false>(t, t.y, eps, full, Proto::kSharedTmpBuffer);
  const auto y_full = Tensors<T>::Read(t.y, n);
  const auto mean_full = Tensors<T>::Read(t.mean, s.sh());
  Call<T, false>(t, t.y, eps, hand, Proto::kSharedTmpBuffer);
  EXPECT_EQ(Tensors<T>::Read(t.y, n), y_full);
  EXPECT_EQ(Tensors<T>::Read(t.mean, s.sh()), mean_full);
  ExpectWithinBound(s, std::is_same_v<T, half>, static_cast<float>(eps),
                    Values<T>(x_bits), Values<T>(gamma_bits),
                    Values<T>(beta_bits), Values<T>(Tensors<T>::Read(t.y, n)),
                    Values<T>(Tensors<T>::Read(t.mean, s.sh())),
                    Values<T>(Tensors<T>::Read(t.var, s.sh())));
}

TEST(BatchNorm, HandFilledTilingOnAscend950) {
  std::mt19937 rng(Seed() + 11);
  RunHandFilled950<float>({7, 5, 16, 6}, rng);
  RunHandFilled950<half>({16, 16, 16, 15}, rng);
  ProfileScope scope(Profile::kA2);
  const Shape s{8, 4, 4, 8};
  Tensors<float> t(s, 4096);
  BatchNormTiling hand{};
  hand.originalBLength = 8;
  hand.meanVarSize = 16;
  hand.firstDimValueBack = 0.125f;
  EXPECT_TRUE(FailsWith(
      [&] { Call<float, false>(t, t.y, 1e-5f, hand, Proto::kSharedTmpBuffer); },
      "BatchNorm: tiling.oneTmpSize is 0"));
}

TEST(BatchNorm, EveryChunkingGivesTheSameBits) {
  const Shape s{16, 8, 32, 16};
  std::mt19937 rng(Seed() + 3);
  const auto x_bits = RandomX<float>(s, rng);
  const auto gamma_bits = RandomParam<float>(s.b, 2.0f, rng);
  const auto beta_bits = RandomParam<float>(s.b, 1.0f, rng);
  std::vector<uint32_t> first;
  for (uint32_t columns : {8u, 24u, 64u, 256u}) {
    SCOPED_TRACE(testing::Message() << columns << " columns per chunk");
    const uint32_t bytes = 4 * 3 * s.origin_b * columns;
    for (bool basic : {false, true}) {
      if (basic && columns % 64 != 0) continue;
      BatchNormTiling tiling = TilingFor(s, bytes, 4, basic);
      ASSERT_EQ(tiling.shCurLength, columns);
      Tensors<float> t(s, bytes);
      Tensors<float>::Write(t.x, x_bits);
      Tensors<float>::Write(t.gamma, gamma_bits);
      Tensors<float>::Write(t.beta, beta_bits);
      if (basic) {
        Call<float, true>(t, t.y, 1e-5f, tiling, Proto::kSharedTmpBuffer);
      } else {
        Call<float, false>(t, t.y, 1e-5f, tiling, Proto::kSharedTmpBuffer);
      }
      auto all = Tensors<float>::Read(t.y, size_t{s.b} * s.sh());
      const auto mean = Tensors<float>::Read(t.mean, s.sh());
      const auto var = Tensors<float>::Read(t.var, s.sh());
      all.insert(all.end(), mean.begin(), mean.end());
      all.insert(all.end(), var.begin(), var.end());
      if (first.empty()) {
        first = all;
      } else {
        EXPECT_EQ(all, first);
      }
    }
  }
}

TEST(BatchNorm, InPlaceEqualsOutOfPlace) {
  const Shape s{6, 2, 16, 6};
  std::mt19937 rng(Seed() + 4);
  const auto x_bits = RandomX<half>(s, rng);
  const auto gamma_bits = RandomParam<half>(s.b, 2.0f, rng);
  const auto beta_bits = RandomParam<half>(s.b, 1.0f, rng);
  const uint32_t bytes = MinScratch(s, 2, false);
  std::vector<uint16_t> expected;
  for (bool in_place : {false, true}) {
    BatchNormTiling tiling = TilingFor(s, bytes, 2, false);
    Tensors<half> t(s, bytes);
    Tensors<half>::Write(t.x, x_bits);
    Tensors<half>::Write(t.gamma, gamma_bits);
    Tensors<half>::Write(t.beta, beta_bits);
    Call<half, false>(t, in_place ? t.x : t.y, half(1e-5f), tiling,
                      Proto::kSharedTmpBuffer);
    const auto y = Tensors<half>::Read(in_place ? t.x : t.y, size_t{6} * 32);
    if (in_place) {
      EXPECT_EQ(y, expected);
    } else {
      expected = y;
    }
  }
}

// ---- The documented example -----------------------------------------------

// x = 0..63 as [8, 4, 2], gamma = beta = 0..7: feature j of row b is 8b + j,
// so mean[j] = 28 + j, variance 64·5.25 = 336 and
// y[b, j] = b·8(b − 3.5)/√(336 + ε) + b, the same for every j. The page does
// not give ε; its printed values are those of ε = 0.01.
TEST(BatchNorm, DocumentedExample) {
  const double kRows[8] = {0.0,       -0.091073155, 0.6907122, 2.345356,
                           4.8728585, 8.27322,      12.546439, 17.692516};
  const Shape s{8, 4, 2, 8};
  const uint32_t bytes = MinScratch(s, 4, false);
  BatchNormTiling tiling = TilingFor(s, bytes, 4, false);
  Tensors<float> t(s, bytes);
  std::vector<uint32_t> x(64), param(8);
  for (uint32_t i = 0; i < 64; ++i) x[i] = compat_test::FloatBits(float(i));
  for (uint32_t i = 0; i < 8; ++i) param[i] = compat_test::FloatBits(float(i));
  Tensors<float>::Write(t.x, x);
  Tensors<float>::Write(t.gamma, param);
  Tensors<float>::Write(t.beta, param);
  BatchNorm<float, false, false>(t.y, t.mean, t.var, t.x, t.gamma, t.beta,
                                 t.tmp, 0.01f, tiling);
  const auto y = Values<float>(Tensors<float>::Read(t.y, 64));
  const auto mean = Values<float>(Tensors<float>::Read(t.mean, 8));
  const auto var = Values<float>(Tensors<float>::Read(t.var, 8));
  for (uint32_t j = 0; j < 8; ++j) {
    EXPECT_EQ(mean[j], 28.0 + j);
    EXPECT_EQ(var[j], 336.0);
  }
  for (uint32_t b = 0; b < 8; ++b) {
    for (uint32_t j = 0; j < 8; ++j) {
      // The page prints eight significant digits.
      EXPECT_NEAR(y[b * 8 + j], kRows[b], 5e-7 * std::fmax(1.0, kRows[b]))
          << "row " << b << ", feature " << j;
    }
  }
}

// ---- Bad use --------------------------------------------------------------

struct BatchNormBadUse : ::testing::Test {
  const Shape s{8, 4, 4, 8};
  uint32_t bytes = MinScratch(s, 4, false);
  BatchNormTiling tiling = TilingFor(s, bytes, 4, false);
  Tensors<float> t{s, bytes};

  void Run() {
    BatchNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, 1e-5f,
                     tiling);
  }
};

TEST_F(BatchNormBadUse, AcceptsTheGoodCall) { Run(); }

TEST_F(BatchNormBadUse, EmptyTiling) {
  tiling = BatchNormTiling{};
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "BatchNorm: tiling.oneTmpSize is 0: the tiling is "
                        "empty (GetBatchNormNDTilingInfo failed or was not "
                        "called)"));
}

TEST_F(BatchNormBadUse, InconsistentTiling) {
  tiling.loopRound = 1;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "BatchNorm: tiling.loopRound is 1, expected 2 "
                        "(meanVarSize / shCurLength): the tiling is "
                        "inconsistent"));
}

TEST_F(BatchNormBadUse, TilingForHalfWithFloat) {
  tiling = TilingFor(s, 4 * bytes, 2, false);
  EXPECT_TRUE(
      FailsWith([&] { Run(); }, "BatchNorm: tiling.varianceTmpTensorPos is"));
}

TEST_F(BatchNormBadUse, BasicBlockShapeRules) {
  EXPECT_TRUE(FailsWith(
      [&] {
        BatchNorm<float, false, true>(t.y, t.mean, t.var, t.x, t.gamma, t.beta,
                                      t.tmp, 1e-5f, tiling);
      },
      "BatchNorm: tiling.shCurLength 8 must be a multiple of 64 columns "
      "(isBasicBlock) and at most meanVarSize 16"));
}

TEST_F(BatchNormBadUse, ScratchSmallerThanTheTiling) {
  tiling = TilingFor(s, 2 * bytes, 4, false);
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "BatchNorm: sharedTmpBuffer holds 192 floats (768 "
                        "bytes), fewer than tiling.tmpBufSize 384 floats"));
}

TEST_F(BatchNormBadUse, TensorTooShort) {
  const Shape bigger{8, 8, 4, 8};
  tiling = TilingFor(bigger, MinScratch(bigger, 4, false), 4, false);
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "BatchNorm: output holds 128 floats, fewer than the "
                        "256 it must hold (originB * S * H)"));
}

TEST_F(BatchNormBadUse, BetaIsTheMean) {
  EXPECT_TRUE(FailsWith(
      [&] {
        BatchNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.mean, t.tmp, 1e-5f,
                         tiling);
      },
      "BatchNorm: outputMean (UB bytes [1024, 1088)) and beta (UB bytes "
      "[1024, 1056)) overlap; BatchNorm must not write what it still reads "
      "(only output may be inputX itself)"));
}

TEST_F(BatchNormBadUse, NoFrameworkScratchLeft) {
  TBuf<TPosition::VECCALC> rest;
  t.pipe.InitBuffer(rest, CurrentCore().scratch_end() - t.pipe.used_bytes());
  EXPECT_TRUE(FailsWith(
      [&] {
        BatchNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, 1e-5f,
                         tiling);
      },
      "BatchNorm: no framework scratch is left"));
}

}  // namespace
