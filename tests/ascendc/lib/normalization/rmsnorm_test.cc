// rmsnorm_test.cc — AscendC::RmsNorm through kernel_operator.h, on the
// emulated core: bit-exactness against a transcription of the numeric order
// of docs/rmsnorm.md, and accuracy against a float64 reference within the
// bound derived in docs/numerics.md ("RmsNorm"), for float and half on every
// profile, both prototypes, isBasicBlock false and true, padded rows, one
// chunk and several with a tail, in place (dstLocal == srcLocal); every
// kernel-side check with its message; the host tiling feeding the kernel.
//
// The oracles here — DocumentedRmsNorm (the numeric order, with the 64-lane
// row sum written out again), the float64 Reference and its Bound — are
// written for these tests from docs/rmsnorm.md and share no code with src/.
// Random data uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <algorithm>
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
using AscendC::RmsNormTiling;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::ProfileScope;
using compat_test::RoundToHalf;
using normgrad_ascendc::Profile;

constexpr double kU = 1.0 / (1 << 24);  // float's unit roundoff
constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};

// One case: [b, s, h] storage, original row length oh, scratch bytes (0: the
// minimum), isBasicBlock.
struct Case {
  uint32_t b, s, h, oh;
  uint32_t scratch;
  bool basic;
};

// The tiling from the host API; fails the test when the host refuses.
template <typename T>
RmsNormTiling HostTiling(const Case& c, uint32_t* scratch_bytes) {
  const ge::Shape src({c.b, c.s, c.h});
  const ge::Shape origin({c.b, c.s, c.oh});
  uint32_t max_tmp = 0, min_tmp = 0;
  EXPECT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(src, sizeof(T), max_tmp, min_tmp,
                                               c.basic));
  *scratch_bytes = c.scratch != 0 ? c.scratch : min_tmp;
  RmsNormTiling t;
  EXPECT_TRUE(AscendC::GetRmsNormTilingInfo(src, origin, *scratch_bytes,
                                            sizeof(T), t, c.basic));
  return t;
}

// The documented row sum: a 64-lane fold in order, then an adjacent-pair
// tree of the 64 lanes.
float DocumentedRowSum(const float* v, uint32_t h) {
  std::vector<float> lanes(64, 0.0f);
  for (uint32_t i = 0; i < h; ++i) {
    lanes[i % 64] = i < 64 ? v[i] : v[i] + lanes[i % 64];
  }
  for (uint32_t width = 64; width > 1; width /= 2) {
    for (uint32_t j = 0; j < width / 2; ++j) {
      lanes[j] = lanes[2 * j] + lanes[2 * j + 1];
    }
  }
  return lanes[0];
}

// The documented numeric order on float inputs (half inputs widened): the
// float results before any narrowing.
std::vector<float> DocumentedRmsNorm(const std::vector<float>& x,
                                     const std::vector<float>& gamma,
                                     uint32_t rows, uint32_t h, uint32_t oh,
                                     float eps) {
  std::vector<float> y(x.size());
  const float inv = 1.0f / static_cast<float>(oh);
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<float> squares(h);
    for (uint32_t j = 0; j < h; ++j) {
      squares[j] = x[r * h + j] * x[r * h + j];
    }
    const float rstd =
        1.0f / std::sqrt(DocumentedRowSum(squares.data(), h) * inv + eps);
    for (uint32_t j = 0; j < h; ++j) {
      y[r * h + j] = (x[r * h + j] * rstd) * gamma[j];
    }
  }
  return y;
}

// The float64 reference: x / sqrt(Σ x² / originalH + eps) · gamma.
std::vector<double> Reference(const std::vector<float>& x,
                              const std::vector<float>& gamma, uint32_t rows,
                              uint32_t h, uint32_t oh, float eps) {
  std::vector<double> y(x.size());
  for (uint32_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (uint32_t j = 0; j < h; ++j) {
      sum += double{x[r * h + j]} * x[r * h + j];
    }
    const double rstd = 1.0 / std::sqrt(sum / oh + double{eps});
    for (uint32_t j = 0; j < h; ++j)
      y[r * h + j] = x[r * h + j] * rstd * gamma[j];
  }
  return y;
}

// The bound of docs/numerics.md ("RmsNorm"): (ceil(H/64)/2 + 9)·u·|y| for
// the float result; half adds the narrowing, 2^-11 relative plus 2^-25.
double Bound(double ref, uint32_t h, bool is_half) {
  const double f = (std::ceil(h / 64.0) / 2 + 9) * kU * std::fabs(ref);
  if (!is_half) return f;
  return f + std::ldexp(std::fabs(ref) + f, -11) + std::ldexp(1.0, -25);
}

// A pipe with dst, src, gamma and a scratch of the given bytes.
template <typename T>
struct Tensors {
  TPipe pipe;
  TBuf<TPosition::VECCALC> dst_buf, src_buf, gamma_buf, tmp_buf;
  LocalTensor<T> dst, src, gamma;
  LocalTensor<uint8_t> tmp;
  Tensors(uint32_t elements, uint32_t h, uint32_t scratch_bytes) {
    pipe.InitBuffer(dst_buf, elements * sizeof(T));
    pipe.InitBuffer(src_buf, elements * sizeof(T));
    pipe.InitBuffer(gamma_buf, h * sizeof(T));
    pipe.InitBuffer(tmp_buf, scratch_bytes);
    dst = dst_buf.template Get<T>();
    src = src_buf.template Get<T>();
    gamma = gamma_buf.template Get<T>();
    tmp = tmp_buf.template Get<uint8_t>();
  }
};

// Random values in [-2, 2) representable in T (padding columns zero).
template <typename T>
std::vector<float> RandomValues(std::mt19937* rng, uint32_t rows, uint32_t h,
                                uint32_t oh) {
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> v(size_t{rows} * h, 0.0f);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < oh; ++j) {
      const float x = dist(*rng);
      v[r * h + j] = std::is_same_v<T, half> ? RoundToHalf(x, false) : x;
    }
  }
  return v;
}

template <typename T>
void Fill(const LocalTensor<T>& t, const std::vector<float>& v) {
  for (size_t i = 0; i < v.size(); ++i) t.SetValue(i, static_cast<T>(v[i]));
}

// Runs one case with both prototypes (and in place) and checks the bits
// against the documented order and the values against the reference.
template <typename T>
void RunCase(const Case& c, Profile profile) {
  SCOPED_TRACE(std::string(normgrad_ascendc::TypeName<T>()) + " [" +
               std::to_string(c.b) + ", " + std::to_string(c.s) + ", " +
               std::to_string(c.h) + "] oh " + std::to_string(c.oh) +
               (c.basic ? " basic" : "") + " profile " +
               normgrad_ascendc::GetProfileInfo(profile).name);
  const ProfileScope scope(profile);
  constexpr bool kHalf = std::is_same_v<T, half>;
  uint32_t scratch = 0;
  const RmsNormTiling tiling = HostTiling<T>(c, &scratch);
  ASSERT_NE(tiling.mainBsLength, 0u);
  const uint32_t rows = c.b * c.s;
  const uint32_t n = rows * c.h;
  std::mt19937 rng(compat_test::Seed<14>() + n);
  const std::vector<float> x = RandomValues<T>(&rng, rows, c.h, c.oh);
  std::vector<float> g = RandomValues<T>(&rng, 1, c.h, c.h);
  const float eps = kHalf ? RoundToHalf(1e-3f, false) : 1e-5f;
  const std::vector<float> documented =
      DocumentedRmsNorm(x, g, rows, c.h, c.oh, eps);
  const std::vector<double> ref = Reference(x, g, rows, c.h, c.oh, eps);
  const bool saturate = profile == Profile::k950;
  const std::string label =
      std::string("RmsNorm<") + normgrad_ascendc::TypeName<T>() + "> y";

  for (int form = 0; form < 3; ++form) {  // shared, framework, in place
    SCOPED_TRACE(form == 0   ? "sharedTmpBuffer"
                 : form == 1 ? "framework scratch"
                             : "in place");
    Tensors<T> ts(n, c.h, form == 1 ? 0 : scratch);
    Fill(ts.src, x);
    Fill(ts.gamma, g);
    const LocalTensor<T>& dst = form == 2 ? ts.src : ts.dst;
    const T epsilon = static_cast<T>(eps);
    if (form == 1) {
      AscendC::RmsNorm<T, false>(dst, ts.src, ts.gamma, epsilon, tiling);
    } else if (c.basic) {
      AscendC::RmsNorm<T, true>(dst, ts.src, ts.gamma, ts.tmp, epsilon, tiling);
    } else {
      AscendC::RmsNorm<T>(dst, ts.src, ts.gamma, ts.tmp, epsilon, tiling);
    }
    for (uint32_t i = 0; i < n; ++i) {
      const float got = static_cast<float>(dst.GetValue(i));
      const float want =
          kHalf ? RoundToHalf(documented[i], saturate) : documented[i];
      ASSERT_EQ(FloatBits(got), FloatBits(want))
          << "element " << i << ": got " << got << ", documented order "
          << want;
      ASSERT_TRUE(compat_test::WithinBound(label, got, ref[i],
                                           Bound(ref[i], c.h, kHalf)))
          << "element " << i;
    }
  }
}

// Scratch 0 is the minimum: one row per chunk (eight with isBasicBlock).
constexpr Case kCases[] = {
    {1, 1, 16, 16, 0, false},        // the documented example's shape
    {2, 3, 64, 64, 0, false},        // one row per chunk
    {2, 3, 40, 37, 0, false},        // padded rows (float pads to 8)
    {3, 5, 1000, 1000, 0, false},    // long rows, 15 chunks
    {2, 16, 64, 64, 0, true},        // the tiling page's shape, basic blocks
    {4, 6, 192, 192, 48000, false},  // several rows a chunk, and a tail
    {2, 8, 128, 128, 12000, true},   // basic blocks of 8 rows, a tail of 8
    {1, 100, 32, 32, 0, false},      // a hundred short rows
};

TEST(RmsNorm, FloatMatchesDocumentedOrderAndReferenceOnEveryProfile) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) RunCase<float>(c, p);
  }
}

TEST(RmsNorm, HalfMatchesDocumentedOrderAndReferenceOnEveryProfile) {
  for (Profile p : kProfiles) {
    for (Case c : kCases) {
      c.h = (c.h + 15) / 16 * 16;  // half rows are multiples of 16
      if (c.basic) c.oh = c.h;
      c.scratch *= 2;
      RunCase<half>(c, p);
    }
    RunCase<half>({2, 3, 48, 45, 0, false}, p);  // padded half rows
  }
}

TEST(RmsNorm, DocumentedExampleWithinDerivedBound) {
  // x = gamma = 0..15, [1, 1, 16]: the device prints 0.11359233 for y[1].
  Case c{1, 1, 16, 16, 0, false};
  uint32_t scratch = 0;
  const RmsNormTiling tiling = HostTiling<float>(c, &scratch);
  Tensors<float> ts(16, 16, scratch);
  for (uint32_t i = 0; i < 16; ++i) {
    ts.src.SetValue(i, static_cast<float>(i));
    ts.gamma.SetValue(i, static_cast<float>(i));
  }
  AscendC::RmsNorm<float>(ts.dst, ts.src, ts.gamma, ts.tmp, 1e-5f, tiling);
  EXPECT_NEAR(ts.dst.GetValue(1), 0.11359233, 16 * kU * 0.11359233);
  EXPECT_NEAR(ts.dst.GetValue(15), 25.558275, 16 * kU * 25.558275);
}

TEST(RmsNorm, Ascend950SaturatesHalfOverflow) {
  // One row [60000, 0, …] of 16 with gamma 60000: y[0] = 4·60000 > 65504.
  for (Profile p : kProfiles) {
    const ProfileScope scope(p);
    Case c{1, 1, 16, 16, 0, false};
    uint32_t scratch = 0;
    const RmsNormTiling tiling = HostTiling<half>(c, &scratch);
    Tensors<half> ts(16, 16, scratch);
    std::vector<float> x(16, 0.0f), g(16, 60000.0f);
    x[0] = 1.0f;
    Fill(ts.src, x);
    Fill(ts.gamma, g);
    AscendC::RmsNorm<half>(ts.dst, ts.src, ts.gamma, ts.tmp,
                           static_cast<half>(0.0f), tiling);
    const float y0 = static_cast<float>(ts.dst.GetValue(0));
    if (p == Profile::k950) {
      EXPECT_EQ(y0, 65504.0f);
    } else {
      EXPECT_TRUE(std::isinf(y0)) << y0;
    }
  }
}

// Programs built for the Ascend 950 fill the shape fields and the
// reciprocal and pass a scratch of their own size: that profile reads the
// shape only, so whatever the chunking fields hold, the bits are those of
// the documented order. Atlas A2/A3 still refuses such a tiling.
TEST(RmsNorm, Ascend950ReadsTheShapeOnly) {
  const uint32_t b = 2, s = 3, h = 48, oh = 45, rows = b * s;
  RmsNormTiling hand{};
  hand.bLength = b;
  hand.sLength = s;
  hand.hLength = h;
  hand.originalHLength = oh;
  hand.reciprocalOfHLength = 1.0f / static_cast<float>(oh);
  RmsNormTiling odd = hand;  // chunking fields of another shape
  odd.mainBsLength = 4;
  odd.mainBshLength = 7;
  odd.loopRound = 9;
  std::mt19937 rng(compat_test::Seed<14>() + 950);
  const std::vector<float> x = RandomValues<half>(&rng, rows, h, oh);
  const std::vector<float> g = RandomValues<half>(&rng, 1, h, h);
  const float eps = RoundToHalf(1e-3f, false);
  const std::vector<float> documented =
      DocumentedRmsNorm(x, g, rows, h, oh, eps);
  for (const RmsNormTiling& tiling : {hand, odd}) {
    const ProfileScope scope(Profile::k950);
    Tensors<half> ts(rows * h, h, 32);
    Fill(ts.src, x);
    Fill(ts.gamma, g);
    AscendC::RmsNorm<half>(ts.dst, ts.src, ts.gamma, ts.tmp,
                           static_cast<half>(eps), tiling);
    for (uint32_t i = 0; i < rows * h; ++i) {
      ASSERT_EQ(FloatBits(static_cast<float>(ts.dst.GetValue(i))),
                FloatBits(RoundToHalf(documented[i], true)))
          << "element " << i;
    }
  }
  const ProfileScope scope(Profile::kA2);
  Tensors<half> ts(rows * h, h, 32);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<half>(ts.dst, ts.src, ts.gamma, ts.tmp,
                               static_cast<half>(eps), hand);
      },
      "RmsNorm: tiling.mainBsLength is 0: the tiling is empty"));
}

// ---- bad use --------------------------------------------------------------

struct BadUse : ::testing::Test {
  Case c{2, 4, 64, 64, 0, false};
  uint32_t scratch = 0;
  RmsNormTiling t = HostTiling<float>(c, &scratch);
  Tensors<float> ts{2 * 4 * 64, 64, 4 * 2 * (4 * 64 + 8)};
  template <bool kBasic = false>
  void Call(const RmsNormTiling& tiling) {
    AscendC::RmsNorm<float, kBasic>(ts.dst, ts.src, ts.gamma, ts.tmp, 1e-5f,
                                    tiling);
  }
};

TEST_F(BadUse, EmptyTiling) {
  EXPECT_TRUE(FailsWith([&] { Call(RmsNormTiling{}); },
                        "RmsNorm: tiling.mainBsLength is 0: the tiling is "
                        "empty (GetRmsNormTilingInfo failed or was not "
                        "called)"));
}

TEST_F(BadUse, InconsistentTiling) {
  RmsNormTiling bad = t;
  bad.loopRound += 1;
  EXPECT_TRUE(FailsWith([&] { Call(bad); },
                        "RmsNorm: tiling.loopRound is 9, expected 8 (B*S / "
                        "mainBsLength): the tiling is inconsistent"));
  bad = t;
  bad.reciprocalOfHLength = 1.0f / 63;
  EXPECT_TRUE(FailsWith([&] { Call(bad); },
                        "RmsNorm: tiling.reciprocalOfHLength is 0.0158730168, "
                        "expected 1.0f / originalHLength 64 = 0.015625"));
  bad = t;
  bad.originalHLength = 65;
  EXPECT_TRUE(FailsWith([&] { Call(bad); },
                        "RmsNorm: tiling.originalHLength 65 must be in [1, "
                        "tiling.hLength 64]"));
}

TEST_F(BadUse, UnalignedRow) {
  RmsNormTiling bad = t;
  bad.hLength = 60;
  bad.originalHLength = 60;
  bad.reciprocalOfHLength = 1.0f / 60;
  EXPECT_TRUE(FailsWith([&] { Call(bad); },
                        "RmsNorm: tiling.hLength 60 floats is 240 bytes, not "
                        "a multiple of 32"));
}

TEST_F(BadUse, BasicBlockNeedsItsShape) {
  // The default tiling has one row per chunk: not a basic block.
  EXPECT_TRUE(FailsWith([&] { Call<true>(t); },
                        "RmsNorm: isBasicBlock is true but B*S is 8 and "
                        "tiling.mainBsLength 1; a basic block needs both "
                        "multiples of 8"));
  Case padded{1, 8, 64, 60, 0, false};
  uint32_t bytes = 0;
  const RmsNormTiling p = HostTiling<float>(padded, &bytes);
  EXPECT_TRUE(FailsWith([&] { Call<true>(p); },
                        "RmsNorm: isBasicBlock is true but "
                        "tiling.originalHLength 60 differs from "
                        "tiling.hLength 64"));
}

TEST(RmsNormBadUse, ScratchTooSmall) {
  Case many{2, 4, 64, 64, 4 * (8 * 64 + 8), false};  // all 8 rows a chunk
  uint32_t bytes = 0;
  const RmsNormTiling big = HostTiling<float>(many, &bytes);
  ASSERT_EQ(big.mainBsLength, 8u);
  Tensors<float> ts(512, 64, 4 * (8 * 64 + 8) - 32);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst, ts.src, ts.gamma, ts.tmp, 1e-5f, big);
      },
      "RmsNorm: sharedTmpBuffer holds 2048 bytes, fewer than the 2080 a chunk "
      "of tiling.mainBsLength 8 rows needs (float: 1*mainBsLength*hLength + "
      "mainBsLengthAlign floats"));
}

TEST(RmsNormBadUse, Overlaps) {
  Case c{2, 4, 64, 64, 0, false};
  uint32_t scratch = 0;
  const RmsNormTiling t = HostTiling<float>(c, &scratch);
  Tensors<float> ts(2 * 512, 64, scratch);
  // ts.dst holds 1024 floats: room for overlapping views.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst, ts.src, ts.dst[448], ts.tmp, 1e-5f, t);
      },
      "RmsNorm: dstLocal (UB bytes [0, 2048)) and gammaLocal (UB bytes "
      "[1792, 2048)) overlap; dstLocal and gammaLocal must not share memory"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst[8], ts.dst, ts.gamma, ts.tmp, 1e-5f, t);
      },
      "dstLocal may be srcLocal itself but must not overlap it partly"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst, ts.src, ts.gamma,
                                ts.src.template ReinterpretCast<uint8_t>(),
                                1e-5f, t);
      },
      "RmsNorm writes its scratch, so it must not share memory with an "
      "operand"));
}

TEST_F(BadUse, ShortTensors) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst, ts.src, ts.dst[480], ts.tmp, 1e-5f, t);
      },
      "RmsNorm: gammaLocal holds 32 floats, fewer than the 64 it must hold "
      "(H)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst[8], ts.src, ts.gamma, ts.tmp, 1e-5f, t);
      },
      "RmsNorm: dstLocal holds 504 floats, fewer than the 512 it must hold "
      "(B*S*H)"));
}

TEST(RmsNormBadUse, MisalignedOperand) {
  Case c{1, 1, 64, 64, 0, false};
  uint32_t scratch = 0;
  const RmsNormTiling t = HostTiling<float>(c, &scratch);
  Tensors<float> ts(128, 64, scratch);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::RmsNorm<float>(ts.dst, ts.src[4], ts.gamma, ts.tmp, 1e-5f, t);
      },
      "RmsNorm: srcLocal LocalTensor starts at UB offset 528, which is not "
      "32-byte aligned (UB addresses must be multiples of 32)"));
}

}  // namespace
