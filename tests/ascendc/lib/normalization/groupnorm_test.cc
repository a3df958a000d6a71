// groupnorm_test.cc — AscendC::GroupNorm through kernel_operator.h, on the
// emulated core: the documented example's values, random data on every
// supported profile (a2, 950) for float and half, both prototypes,
// isReuseSource, odd shapes and chunkings with and without tails, against a
// float64 reference written here within the bound of docs/numerics.md
// ("GroupNorm"); what the call may change (output, statistics, scratch and,
// only for float with isReuseSource, inputX[0, oneTmpSize)); in-place
// output; chunk-independence of the results; and every kernel-side check
// with its full message.
//
// The tilings come from the host API (GetGroupNormNDTilingInfo); its fields
// are asserted against docs/groupnorm.md in tests/ascendc/lib/normalization/
// groupnorm_tiling_test.cc. Random data uses a fixed seed, printed;
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

using AscendC::GroupNorm;
using AscendC::GroupNormTiling;
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

uint32_t Seed() { return compat_test::Seed<20261203u>(); }

struct Shape {
  uint32_t n, c, h, w, g;
  uint32_t elements() const { return n * c * h * w; }
  uint32_t groups() const { return n * g; }
  uint32_t group() const { return c / g * h * w; }
};

template <typename T>
struct Tensors : compat_test::NormTensors<T> {
  Tensors(const Shape& s, uint32_t scratch_bytes)
      : compat_test::NormTensors<T>(s.elements(), s.groups(), s.c,
                                    scratch_bytes) {}
};

// Values of T: per-channel offsets in [-4, 4] plus magnitudes 2^-3…2^3 for
// x (2^-3…2^2 for half), `range`-bounded for gamma and beta, each rounded
// to T.
template <typename T>
std::vector<BitsOf<T>> RandomX(const Shape& s, std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  std::uniform_real_distribution<float> offset(-4.0f, 4.0f);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-3, kHalf ? 2 : 3);
  std::vector<BitsOf<T>> bits(s.elements());
  const uint32_t hw = s.h * s.w;
  for (uint32_t nc = 0; nc < s.n * s.c; ++nc) {
    const float base = offset(rng);
    for (uint32_t i = 0; i < hw; ++i) {
      const float v = base + std::ldexp(mantissa(rng), exponent(rng));
      bits[size_t{nc} * hw + i] = BitsOfValue<T>(static_cast<float>(T(v)));
    }
  }
  return bits;
}

template <typename T, bool reuse>
void Call(const Tensors<T>& t, const LocalTensor<T>& y, T eps,
          GroupNormTiling& tiling, Proto proto) {
  if (proto == Proto::kSharedTmpBuffer) {
    GroupNorm<T, reuse>(y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, eps,
                        tiling);
  } else {
    GroupNorm<T, reuse>(y, t.mean, t.var, t.x, t.gamma, t.beta, eps, tiling);
  }
}

GroupNormTiling TilingFor(const Shape& s, uint32_t bytes, uint32_t type_size,
                          bool reuse) {
  GroupNormTiling tiling;
  AscendC::GetGroupNormNDTilingInfo(ge::Shape({s.n, s.c, s.h, s.w}), bytes,
                                    type_size, reuse, s.g, tiling);
  return tiling;
}

uint32_t MinScratch(const Shape& s, uint32_t type_size, bool reuse) {
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetGroupNormMaxMinTmpSize(ge::Shape({s.n, s.c, s.h, s.w}), type_size,
                                     reuse, s.g, max_value, min_value);
  return min_value;
}

// ---- The float64 reference and the bound of docs/numerics.md --------------

// Asserts every output of one call within the derived bound of the exact
// group norm of the (exact) inputs.
void ExpectWithinBound(const Shape& s, bool is_half, double eps,
                       const std::vector<double>& x,
                       const std::vector<double>& gamma,
                       const std::vector<double>& beta,
                       const std::vector<double>& y_out,
                       const std::vector<double>& mean_out,
                       const std::vector<double>& var_out) {
  const uint32_t m = s.group();
  const uint32_t hw = s.h * s.w;
  const uint32_t d = s.c / s.g;
  const double lanes = std::ceil(m / 64.0) + 5;  // additions per term
  const std::string label =
      std::string("GroupNorm<") + (is_half ? "half" : "float") + ">";
  for (uint32_t k = 0; k < s.groups(); ++k) {
    const double* gx = x.data() + size_t{k} * m;
    double mu = 0, a = 0;
    for (uint32_t j = 0; j < m; ++j) {
      mu += gx[j];
      a += std::fabs(gx[j]);
    }
    mu /= m;
    a /= m;
    double sigma2 = 0;
    for (uint32_t j = 0; j < m; ++j) sigma2 += (gx[j] - mu) * (gx[j] - mu);
    sigma2 /= m;
    const SetBound bound(mu, a, sigma2, eps, lanes);
    ASSERT_LE(bound.eps_t, 0.5) << "the bound needs eps_t <= 1/2";
    EXPECT_TRUE(WithinBound(label + " mean", mean_out[k], mu,
                            Narrowed(is_half, bound.MeanBound(), mu)))
        << "mean of group " << k;
    EXPECT_TRUE(WithinBound(label + " variance", var_out[k], sigma2,
                            Narrowed(is_half, bound.VarianceBound(), sigma2)))
        << "variance of group " << k;
    for (uint32_t j = 0; j < m; ++j) {
      const uint32_t c = (k % s.g) * d + j / hw;
      const double y = bound.Output(gx[j], gamma[c], beta[c]);
      const size_t i = size_t{k} * m + j;
      ASSERT_TRUE(WithinBound(
          label + " y", y_out[i], y,
          Narrowed(is_half, bound.OutputBound(gx[j], gamma[c], beta[c]), y)))
          << "output element " << i << " (group " << k << ", channel " << c
          << ")";
    }
  }
}

// ---- Random data against the reference ------------------------------------

struct Case {
  Shape shape;
  uint32_t scratch_groups;  // chunk buffers sized for this many groups (0: max)
};

constexpr Case kCases[] = {
    {{1, 4, 4, 4, 2}, 0},     // one chunk (smallShape)
    {{2, 6, 3, 5, 3}, 1},     // hw = 15, odd; one group per chunk
    {{2, 8, 4, 2, 4}, 3},     // the documented example's shape; 8 = 2·3 + 2
    {{3, 10, 7, 3, 5}, 4},    // 15 groups of 42: 3·4 + 3
    {{1, 12, 16, 16, 1}, 1},  // one group of 3072 (many 64-lane folds)
    {{2, 16, 8, 8, 4}, 2},    // the tiling page's shape
    {{5, 3, 1, 1, 3}, 7},     // one element per group: variance 0
};

// The scratch for `groups` groups per chunk buffer (GetGroupNormMaxMinTmpSize's
// max at 0), plus just under one more group per buffer, which the tiling
// leaves unused.
uint32_t ScratchFor(const Case& c, uint32_t type_size, bool reuse) {
  uint32_t max_value = 0, min_value = 0;
  const Shape& s = c.shape;
  AscendC::GetGroupNormMaxMinTmpSize(ge::Shape({s.n, s.c, s.h, s.w}), type_size,
                                     reuse, s.g, max_value, min_value);
  if (c.scratch_groups == 0) return max_value;
  const uint32_t buffers = type_size == 4 && reuse ? 2 : 3;
  const uint32_t mv = type_size == 2 ? 8 * ((s.groups() + 7) / 8 * 8) : 0;
  return mv + buffers * 4 * (c.scratch_groups * s.group() + s.group() - 1);
}

template <typename T, bool reuse>
void RunRandom(const Case& c, Profile profile, Proto proto, std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const Shape& s = c.shape;
  SCOPED_TRACE(testing::Message()
               << "[" << s.n << "," << s.c << "," << s.h << "," << s.w
               << "] groupNum " << s.g << ", " << (kHalf ? "half" : "float")
               << ", " << normgrad_ascendc::GetProfileInfo(profile).key << ", "
               << (proto == Proto::kSharedTmpBuffer ? "sharedTmpBuffer"
                                                    : "framework scratch")
               << (reuse ? ", isReuseSource" : ""));
  ProfileScope scope(profile);
  const uint32_t bytes = ScratchFor(c, sizeof(T), reuse);
  GroupNormTiling tiling = TilingFor(s, bytes, sizeof(T), reuse);
  ASSERT_NE(tiling.oneTmpSize, 0u);
  if (c.scratch_groups != 0) {
    const uint32_t per_chunk =
        c.scratch_groups < s.groups() ? c.scratch_groups : s.groups();
    ASSERT_EQ(tiling.meanVarRoundSize, per_chunk);
  } else {
    ASSERT_TRUE(tiling.smallShape);
  }
  const GroupNormTiling tiling_before = tiling;

  Tensors<T> t(s, proto == Proto::kSharedTmpBuffer ? bytes : 0);
  uint8_t* ub = CurrentCore().ub();
  for (size_t i = 0; i < CurrentCore().ub_size(); ++i) {
    ub[i] = static_cast<uint8_t>(rng());
  }
  const auto x_bits = RandomX<T>(s, rng);
  const auto gamma_bits = RandomParam<T>(s.c, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(s.c, 1.0f, rng);
  Tensors<T>::Write(t.x, x_bits);
  Tensors<T>::Write(t.gamma, gamma_bits);
  Tensors<T>::Write(t.beta, beta_bits);
  const std::vector<uint8_t> before(ub, ub + CurrentCore().ub_size());
  const T eps = kHalf ? T(0.001f) : T(1e-5f);

  Call<T, reuse>(t, t.y, eps, tiling, proto);

  EXPECT_EQ(std::memcmp(&tiling, &tiling_before, sizeof tiling), 0)
      << "the tiling changed";
  EXPECT_EQ(Tensors<T>::Read(t.gamma, s.c), gamma_bits);
  EXPECT_EQ(Tensors<T>::Read(t.beta, s.c), beta_bits);
  const bool float_reuse = !kHalf && reuse;
  // The Ascend 950 profile works in one chunk of every group.
  const uint32_t first_chunk =
      profile == Profile::k950 ? s.elements() : tiling.oneTmpSize;
  const auto x_after = Tensors<T>::Read(t.x, s.elements());
  for (uint32_t i = float_reuse ? first_chunk : 0; i < s.elements(); ++i) {
    ASSERT_EQ(x_after[i], x_bits[i]) << "inputX element " << i << " changed";
  }
  // Nothing outside the outputs, the scratch and (float reuse) inputX's
  // first chunk changed.
  const size_t scratch_begin = proto == Proto::kSharedTmpBuffer
                                   ? t.tmp.view().offset
                                   : t.pipe.used_bytes();
  const size_t scratch_end = scratch_begin + size_t{tiling.tmpBufSize} * 4;
  auto in = [](size_t i, const auto& tensor, size_t length) {
    return i >= tensor.view().offset && i < tensor.view().offset + length;
  };
  for (size_t i = 0; i < before.size(); ++i) {
    const bool allowed = in(i, t.y, s.elements() * sizeof(T)) ||
                         in(i, t.mean, s.groups() * sizeof(T)) ||
                         in(i, t.var, s.groups() * sizeof(T)) ||
                         (i >= scratch_begin && i < scratch_end) ||
                         (float_reuse && in(i, t.x, size_t{first_chunk} * 4));
    if (!allowed && ub[i] != before[i]) {
      ADD_FAILURE() << "UB byte " << i << " changed";
      break;
    }
  }
  ExpectWithinBound(s, kHalf, static_cast<float>(eps), Values<T>(x_bits),
                    Values<T>(gamma_bits), Values<T>(beta_bits),
                    Values<T>(Tensors<T>::Read(t.y, s.elements())),
                    Values<T>(Tensors<T>::Read(t.mean, s.groups())),
                    Values<T>(Tensors<T>::Read(t.var, s.groups())));
}

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k950};
constexpr Proto kProtos[] = {Proto::kSharedTmpBuffer, Proto::kFrameworkScratch};

TEST(GroupNorm, FloatWithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed());
  for (Profile p : kProfiles) {
    for (Proto proto : kProtos) {
      for (const Case& c : kCases) RunRandom<float, false>(c, p, proto, rng);
    }
  }
}

TEST(GroupNorm, FloatReuseSourceWithinTheBoundAndOverwritesOnlyTheFirstChunk) {
  std::mt19937 rng(Seed() + 1);
  for (Profile p : kProfiles) {
    for (Proto proto : kProtos) {
      for (const Case& c : kCases) RunRandom<float, true>(c, p, proto, rng);
    }
  }
}

TEST(GroupNorm, HalfWithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed() + 2);
  for (Profile p : kProfiles) {
    for (Proto proto : kProtos) {
      for (const Case& c : kCases) RunRandom<half, false>(c, p, proto, rng);
    }
  }
}

TEST(GroupNorm, HalfIgnoresIsReuseSource) {
  std::mt19937 rng(Seed() + 3);
  for (const Case& c : kCases) {
    RunRandom<half, true>(c, Profile::kA2, Proto::kSharedTmpBuffer, rng);
  }
}

// Groups are independent and each is summed in one fixed order: every
// chunking gives the same bits.
template <typename T>
void ExpectChunkingIndependent() {
  const Shape s{3, 10, 7, 3, 5};
  std::mt19937 rng(Seed() + 4);
  const auto x_bits = RandomX<T>(s, rng);
  const auto gamma_bits = RandomParam<T>(s.c, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(s.c, 1.0f, rng);
  std::vector<BitsOf<T>> first_y, first_mean, first_var;
  for (uint32_t groups : {1u, 2u, 4u, 7u, 15u}) {
    SCOPED_TRACE(testing::Message() << groups << " groups per chunk");
    const uint32_t mv = sizeof(T) == 2 ? 8 * 16 : 0;
    const uint32_t bytes = mv + 3 * 4 * groups * s.group();
    GroupNormTiling tiling = TilingFor(s, bytes, sizeof(T), false);
    ASSERT_EQ(tiling.meanVarRoundSize, groups);
    Tensors<T> t(s, bytes);
    Tensors<T>::Write(t.x, x_bits);
    Tensors<T>::Write(t.gamma, gamma_bits);
    Tensors<T>::Write(t.beta, beta_bits);
    Call<T, false>(t, t.y, T(1e-5f), tiling, Proto::kSharedTmpBuffer);
    const auto y = Tensors<T>::Read(t.y, s.elements());
    const auto mean = Tensors<T>::Read(t.mean, s.groups());
    const auto var = Tensors<T>::Read(t.var, s.groups());
    if (first_y.empty()) {
      first_y = y;
      first_mean = mean;
      first_var = var;
    } else {
      EXPECT_EQ(y, first_y);
      EXPECT_EQ(mean, first_mean);
      EXPECT_EQ(var, first_var);
    }
  }
}

TEST(GroupNorm, EveryChunkingGivesTheSameBits) {
  ExpectChunkingIndependent<float>();
  ExpectChunkingIndependent<half>();
}

// Programs built for the Ascend 950 fill n, c, hw, g, d, dhwAlignSize,
// factor and oneTmpSize (256) only; that profile derives the rest and gives
// the bits of the host's chunked tiling, with or without a scratch. Atlas
// A2/A3 still refuses such a tiling.
template <typename T>
void ExpectHandFilledBits950(const Shape& s, std::mt19937& rng) {
  ProfileScope scope(Profile::k950);
  const uint32_t bytes = ScratchFor({s, 1}, sizeof(T), false);
  GroupNormTiling host = TilingFor(s, bytes, sizeof(T), false);
  ASSERT_GT(host.loopRound, 1u);
  GroupNormTiling hand{};
  hand.n = s.n;
  hand.c = s.c;
  hand.hw = s.h * s.w;
  hand.g = s.g;
  hand.d = s.c / s.g;
  hand.dhwAlignSize = host.dhwAlignSize;
  hand.factor = 1.0f / static_cast<float>(s.group());
  hand.oneTmpSize = 256;
  const auto x_bits = RandomX<T>(s, rng);
  const auto gamma_bits = RandomParam<T>(s.c, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(s.c, 1.0f, rng);
  const T eps = std::is_same_v<T, half> ? T(0.001f) : T(1e-5f);
  std::vector<BitsOf<T>> y[2], mean[2], var[2];
  for (int k = 0; k < 2; ++k) {
    Tensors<T> t(s, k == 0 ? bytes : 0);
    Tensors<T>::Write(t.x, x_bits);
    Tensors<T>::Write(t.gamma, gamma_bits);
    Tensors<T>::Write(t.beta, beta_bits);
    Call<T, false>(t, t.y, eps, k == 0 ? host : hand,
                   k == 0 ? Proto::kSharedTmpBuffer : Proto::kFrameworkScratch);
    y[k] = Tensors<T>::Read(t.y, s.elements());
    mean[k] = Tensors<T>::Read(t.mean, s.groups());
    var[k] = Tensors<T>::Read(t.var, s.groups());
  }
  EXPECT_EQ(y[1], y[0]);
  EXPECT_EQ(mean[1], mean[0]);
  EXPECT_EQ(var[1], var[0]);
}

TEST(GroupNorm, HandFilledTilingOnAscend950) {
  std::mt19937 rng(Seed() + 950);
  ExpectHandFilledBits950<float>({3, 10, 7, 3, 5}, rng);
  ExpectHandFilledBits950<half>({2, 16, 8, 8, 4}, rng);
  ProfileScope scope(Profile::kA2);
  const Shape s{2, 8, 4, 2, 4};
  Tensors<float> t(s, 0);
  GroupNormTiling hand{};
  hand.n = s.n;
  hand.c = s.c;
  hand.hw = s.h * s.w;
  hand.g = s.g;
  hand.d = 2;
  hand.dhwAlignSize = 16;
  hand.factor = 1.0f / 16;
  hand.oneTmpSize = 256;
  EXPECT_TRUE(FailsWith(
      [&] {
        Call<float, false>(t, t.y, 1e-5f, hand, Proto::kFrameworkScratch);
      },
      "GroupNorm: tiling.oneTmpSize 256 must be a multiple of the group size"));
}

// output == inputX: each chunk's x is read before its y is written.
TEST(GroupNorm, InPlaceEqualsOutOfPlace) {
  const Shape s{2, 8, 4, 2, 4};
  std::mt19937 rng(Seed() + 5);
  const auto x_bits = RandomX<float>(s, rng);
  const auto gamma_bits = RandomParam<float>(s.c, 2.0f, rng);
  const auto beta_bits = RandomParam<float>(s.c, 1.0f, rng);
  const uint32_t bytes = MinScratch(s, 4, false);
  std::vector<uint32_t> expected;
  for (bool in_place : {false, true}) {
    GroupNormTiling tiling = TilingFor(s, bytes, 4, false);
    Tensors<float> t(s, bytes);
    Tensors<float>::Write(t.x, x_bits);
    Tensors<float>::Write(t.gamma, gamma_bits);
    Tensors<float>::Write(t.beta, beta_bits);
    Call<float, false>(t, in_place ? t.x : t.y, 1e-5f, tiling,
                       Proto::kSharedTmpBuffer);
    const auto y = Tensors<float>::Read(in_place ? t.x : t.y, s.elements());
    if (in_place) {
      EXPECT_EQ(y, expected);
    } else {
      expected = y;
    }
  }
}

// ---- The documented example -----------------------------------------------

// x = 0..127 as [2, 8, 4, 2], gamma = beta = 0..7, groupNum 4: every group
// holds 16 consecutive values, so mean = 16k + 7.5 and variance = 21.25.
TEST(GroupNorm, DocumentedExample) {
  const Shape s{2, 8, 4, 2, 4};
  const double kChannel1[8] = {1.1084652, 1.3253956, 1.542326,  1.7592564,
                               1.9761869, 2.1931171, 2.4100475, 2.6269782};
  const double kChannel2[8] = {-1.2539563, -0.8200953, -0.38623452, 0.047626257,
                               0.48148715, 0.91534793, 1.3492088,   1.7830696};
  const double kChannel7[8] = {7.7592564, 9.277769,  10.796282, 12.314795,
                               13.833308, 15.351821, 16.870335, 18.388847};
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetGroupNormMaxMinTmpSize(ge::Shape({2, 8, 4, 2}), 4, false, 4,
                                     max_value, min_value);
  GroupNormTiling tiling = TilingFor(s, min_value, 4, false);
  Tensors<float> t(s, min_value);
  std::vector<uint32_t> x(128), param(8);
  for (uint32_t i = 0; i < 128; ++i) x[i] = compat_test::FloatBits(float(i));
  for (uint32_t i = 0; i < 8; ++i) param[i] = compat_test::FloatBits(float(i));
  Tensors<float>::Write(t.x, x);
  Tensors<float>::Write(t.gamma, param);
  Tensors<float>::Write(t.beta, param);
  GroupNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, 1e-5f,
                   tiling);
  const auto y = Values<float>(Tensors<float>::Read(t.y, 128));
  const auto mean = Values<float>(Tensors<float>::Read(t.mean, 8));
  const auto var = Values<float>(Tensors<float>::Read(t.var, 8));
  for (uint32_t k = 0; k < 8; ++k) {
    EXPECT_EQ(mean[k], 16.0 * k + 7.5);
    EXPECT_EQ(var[k], 21.25);
  }
  for (uint32_t n = 0; n < 2; ++n) {
    for (uint32_t j = 0; j < 8; ++j) {
      const size_t base = n * 64;
      EXPECT_EQ(y[base + j], 0.0);
      // The page prints 8 significant digits: within 1 unit of the last.
      EXPECT_NEAR(y[base + 8 + j], kChannel1[j], 1e-7 * 10);
      EXPECT_NEAR(y[base + 16 + j], kChannel2[j], 1e-7 * 10);
      EXPECT_NEAR(y[base + 56 + j], kChannel7[j], 1e-6 * 10);
    }
  }
}

// ---- Bad use --------------------------------------------------------------

struct BadUse : ::testing::Test {
  const Shape s{2, 8, 4, 2, 4};
  uint32_t bytes = MinScratch(s, 4, false);
  GroupNormTiling tiling = TilingFor(s, bytes, 4, false);
  Tensors<float> t{s, bytes};

  BadUse() {
    std::vector<uint32_t> zeros(s.c, 0);
    Tensors<float>::Write(t.gamma, zeros);
    Tensors<float>::Write(t.beta, zeros);
  }
  void Run() {
    GroupNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, 1e-5f,
                     tiling);
  }
};

TEST_F(BadUse, AcceptsTheGoodCall) { Run(); }

TEST(GroupNormProfiles, The310PProfileHasNoGroupNorm) {
  ProfileScope scope(Profile::k310P);
  const Shape s{2, 8, 4, 2, 4};
  const uint32_t bytes = MinScratch(s, 4, false);
  GroupNormTiling tiling = TilingFor(s, bytes, 4, false);
  Tensors<float> u(s, bytes);
  EXPECT_TRUE(FailsWith(
      [&] {
        GroupNorm<float>(u.y, u.mean, u.var, u.x, u.gamma, u.beta, u.tmp, 1e-5f,
                         tiling);
      },
      "GroupNorm: the profile 310p (Atlas inference series) has no "
      "GroupNorm; it runs on the a2 (Atlas A2/A3) and 950 (Ascend 950) "
      "profiles"));
}

TEST_F(BadUse, EmptyTiling) {
  tiling = GroupNormTiling{};
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: tiling.oneTmpSize is 0: the tiling is "
                        "empty (GetGroupNormNDTilingInfo failed or was not "
                        "called)"));
}

TEST_F(BadUse, InconsistentTiling) {
  tiling.loopRound += 1;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: tiling.loopRound is 9, expected 8 "
                        "(inputXSize / oneTmpSize): the tiling is "
                        "inconsistent"));
  tiling.loopRound -= 1;
  tiling.oneTmpSize = 20;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: tiling.oneTmpSize 20 must be a multiple "
                        "of the group size d*hw = 16 and at most n*c*hw = "
                        "128"));
}

TEST_F(BadUse, TilingForHalfWithFloat) {
  GroupNormTiling half_tiling = TilingFor(s, 4 * bytes, 2, false);
  tiling = half_tiling;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: tiling.hwAlignSize is 16, expected 8 (hw "
                        "rounded up to a multiple of 32 bytes): the tiling is "
                        "inconsistent"));
}

TEST_F(BadUse, ScratchSmallerThanTheTiling) {
  tiling = TilingFor(s, bytes + 64, 4, false);
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: sharedTmpBuffer holds 48 floats (192 "
                        "bytes), fewer than tiling.tmpBufSize 64 floats"));
}

TEST_F(BadUse, TensorTooShort) {
  const Shape bigger{2, 8, 4, 4, 4};
  tiling = TilingFor(bigger, MinScratch(bigger, 4, false), 4, false);
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: output holds 128 floats, fewer than the "
                        "256 it must hold (inputXSize = n * c * hw)"));
}

TEST_F(BadUse, GammaOutsideItsRange) {
  std::vector<uint32_t> gamma(s.c, 0);
  gamma[5] = compat_test::FloatBits(100.5f);
  Tensors<float>::Write(t.gamma, gamma);
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: gamma[5] is 100.5; gamma and beta must "
                        "lie in [-100, 100]"));
  gamma[5] = compat_test::FloatBits(100.0f);
  Tensors<float>::Write(t.gamma, gamma);
  std::vector<uint32_t> beta(s.c, 0);
  beta[0] = compat_test::FloatBits(NAN);
  Tensors<float>::Write(t.beta, beta);
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: beta[0] is nan; gamma and beta must lie "
                        "in [-100, 100]"));
}

TEST_F(BadUse, BetaIsTheMean) {
  EXPECT_TRUE(FailsWith(
      [&] {
        GroupNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.mean, t.tmp, 1e-5f,
                         tiling);
      },
      "GroupNorm: outputMean (UB bytes [1024, 1056)) and beta (UB bytes "
      "[1024, 1056)) overlap; GroupNorm must not write what it still reads "
      "(only output may be inputX itself)"));
}

TEST_F(BadUse, MeanIsTheVariance) {
  EXPECT_TRUE(FailsWith(
      [&] {
        GroupNorm<float>(t.y, t.mean, t.mean, t.x, t.gamma, t.beta, t.tmp,
                         1e-5f, tiling);
      },
      "GroupNorm: outputMean (UB bytes [1024, 1056)) and outputVariance (UB "
      "bytes [1024, 1056)) overlap; GroupNorm writes both, so they must not "
      "share memory"));
}

TEST_F(BadUse, NoFrameworkScratchLeft) {
  TBuf<TPosition::VECCALC> rest;
  t.pipe.InitBuffer(rest, CurrentCore().scratch_end() - t.pipe.used_bytes());
  EXPECT_TRUE(FailsWith(
      [&] {
        GroupNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, 1e-5f,
                         tiling);
      },
      "GroupNorm: no framework scratch is left: the pipe's buffers fill the "
      "unified buffer up to its scratch end (196480 bytes, profile Atlas "
      "A2/A3); leave tiling.tmpBufSize 48 floats free or pass a "
      "sharedTmpBuffer"));
}

TEST_F(BadUse, ScratchRegionPastTmpBufSize) {
  tiling.thirdTmpStartPos = tiling.tmpBufSize - 8;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: scratch region tiling.thirdTmpStartPos "
                        "[40, 56) floats runs past tiling.tmpBufSize 48 "
                        "floats"));
}

TEST_F(BadUse, ScratchRegionsOverlap) {
  tiling.secondTmpStartPos = tiling.firstTmpStartPos;
  EXPECT_TRUE(FailsWith([&] { Run(); },
                        "GroupNorm: scratch regions tiling.firstTmpStartPos "
                        "[0, 16) and tiling.secondTmpStartPos [0, 16) floats "
                        "overlap"));
}

}  // namespace
