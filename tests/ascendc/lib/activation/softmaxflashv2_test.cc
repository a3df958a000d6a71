// softmaxflashv2_test.cc — AscendC::SoftmaxFlashV2 through kernel_operator.h,
// on the emulated core: the bits of the documented float order and the
// values against a float64 reference within the bounds of docs/numerics.md
// ("Activation: softmax"), for float, half and half with float max/sums, on
// every profile, isUpdate false and true, every overload (sharedTmpBuffer or
// the framework scratch, with outReduceMax, in place with max and sums on
// their inputs, one element per row); the flash recurrence over column tiles
// against softmax of the whole row in double; a first tile with inMax = -inf;
// and every check's message.
//
// Random data uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <algorithm>
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
using softmax_test::kU;
using softmax_test::ProbBound;
using softmax_test::Read;
using softmax_test::ReferenceRow;
using softmax_test::RowRef;
using softmax_test::WithNarrowing;
using softmax_test::Write;

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};
constexpr SoftmaxConfig kWithoutBrc = {true, 0, 0,
                                       SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

struct Case {
  uint32_t m, k, ori_k;
  uint32_t work;  // 0: the minimum
  Fill fill;
};

const Case kCases[] = {
    {8, 64, 64, 0, Fill::kUniform},
    {5, 64, 57, 0, Fill::kWithNegInf},
    {3, 1024, 1000, 0, Fill::kWide},
    {16, 128, 128, 20000, Fill::kUniform},
};

template <typename T>
const char* Name() {
  return std::is_same_v<T, half> ? "half" : "float";
}

// What one row of a call gives in the documented float order.
struct DocFlash {
  std::vector<float> y;
  float row_max, max, exp_max, sum;
};

DocFlash DocumentedFlash(const float* x, uint32_t k, uint32_t ori_k,
                         bool update, float in_max, float in_sum) {
  DocFlash d;
  d.row_max = DocRowMax(x, ori_k);
  d.max = update ? std::max(in_max, d.row_max) : d.row_max;
  d.exp_max = update ? DocExp(in_max - d.max) : 1.0f;
  d.y.resize(k);
  for (uint32_t j = 0; j < k; ++j) d.y[j] = DocExp(x[j] - d.max);
  const float s = DocumentedRowSum(d.y.data(), ori_k);
  d.sum = update ? in_sum * d.exp_max + s : s;
  return d;
}

// The operands of one SoftmaxFlashV2 call, `width` (`t_width` for expMax)
// elements per row.
template <typename T, typename U>
struct FlashTensors {
  Buffers b;
  LocalTensor<T> dst, src, exp_max, reduce_max;
  LocalTensor<U> exp_sum, max, in_sum, in_max;
  LocalTensor<U> spare;  // 1024 bytes for the overlap tests
  LocalTensor<uint8_t> tmp;
  FlashTensors(uint32_t m, uint32_t k, uint32_t work)
      : b({m * k * uint32_t{sizeof(T)}, m * 32, m * 32,
           m * k * uint32_t{sizeof(T)}, m * 32, m * 32, m * 32, work,
           (m * uint32_t{sizeof(T)} + 31) / 32 * 32, 1024}) {
    dst = b.Get<T>(0);
    exp_sum = b.Get<U>(1);
    max = b.Get<U>(2);
    src = b.Get<T>(3);
    exp_max = b.Get<T>(4);
    in_sum = b.Get<U>(5);
    in_max = b.Get<U>(6);
    if (work != 0) tmp = b.Get<uint8_t>(7);
    reduce_max = b.Get<T>(8);
    spare = b.Get<U>(9);
  }
};

template <typename T, typename U>
void RunFlashCase(const Case& c, Profile profile, bool update) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr bool kStatsHalf = std::is_same_v<U, half>;
  const std::string type =
      std::string(Name<T>()) +
      (std::is_same_v<T, U> ? "" : std::string(",") + Name<U>());
  SCOPED_TRACE("SoftmaxFlashV2<" + type + ", isUpdate " +
               (update ? "true" : "false") + "> [" + std::to_string(c.m) +
               ", " + std::to_string(c.k) + "] ori " + std::to_string(c.ori_k) +
               " profile " + normgrad_ascendc::GetProfileInfo(profile).name);
  const ProfileScope scope(profile);
  const bool saturate = profile == Profile::k950;
  const ge::Shape shape({c.m, c.k});
  const uint32_t work = c.work != 0 ? c.work
                                    : AscendC::GetSoftMaxFlashV2MinTmpSize(
                                          shape, sizeof(T), sizeof(U), update);
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(U), work, tiling,
                                    update);
  ASSERT_NE(tiling.splitM, 0u);
  const uint32_t n = c.m * c.k;
  const uint32_t width = 32 / sizeof(U);
  const uint32_t t_width = 32 / sizeof(T);
  std::mt19937 rng(compat_test::Seed<31>() + n + update);
  const std::vector<float> x =
      softmax_test::RandomRows<T>(&rng, c.m, c.k, c.ori_k, c.fill);
  std::uniform_real_distribution<float> max_dist(-6.0f, 6.0f);
  std::uniform_real_distribution<float> sum_dist(0.5f, 100.0f);
  std::vector<float> in_max(c.m * width), in_sum(c.m * width);
  for (uint32_t r = 0; r < c.m; ++r) {
    const float mv = AsStored<U>(max_dist(rng), false);
    const float sv = AsStored<U>(sum_dist(rng), false);
    std::fill(in_max.begin() + r * width, in_max.begin() + (r + 1) * width, mv);
    std::fill(in_sum.begin() + r * width, in_sum.begin() + (r + 1) * width, sv);
  }
  const SoftMaxShapeInfo info{c.m, c.k, c.m, c.ori_k};
  const std::string label = "SoftmaxFlashV2<" + type + ">";

  // 0 sharedTmpBuffer, 1 framework scratch, 2 in place (dst on src, max on
  // inMax, expSum on inExpSum).
  for (int form = 0; form < 3; ++form) {
    SCOPED_TRACE("form " + std::to_string(form));
    FlashTensors<T, U> ts(c.m, c.k, form == 1 ? 0 : work);
    Write(ts.src, x);
    Write(ts.in_max, in_max);
    Write(ts.in_sum, in_sum);
    LocalTensor<T> dst = form == 2 ? ts.src : ts.dst;
    LocalTensor<U> out_max = form == 2 ? ts.in_max : ts.max;
    LocalTensor<U> out_sum = form == 2 ? ts.in_sum : ts.exp_sum;
    if (form == 1) {
      if (update) {
        AscendC::SoftmaxFlashV2<T, true>(dst, out_sum, out_max, ts.src,
                                         ts.exp_max, ts.in_sum, ts.in_max,
                                         tiling, info);
      } else {
        AscendC::SoftmaxFlashV2<T, false>(dst, out_sum, out_max, ts.src,
                                          ts.exp_max, ts.in_sum, ts.in_max,
                                          tiling, info);
      }
    } else if (update) {
      AscendC::SoftmaxFlashV2<T, true>(dst, out_sum, out_max, ts.src,
                                       ts.exp_max, ts.in_sum, ts.in_max, ts.tmp,
                                       tiling, info);
    } else {
      AscendC::SoftmaxFlashV2<T, false>(dst, out_sum, out_max, ts.src,
                                        ts.exp_max, ts.in_sum, ts.in_max,
                                        ts.tmp, tiling, info);
    }
    const std::vector<float> got = Read(dst, n);
    const std::vector<float> got_sum = Read(out_sum, c.m * width);
    const std::vector<float> got_max = Read(out_max, c.m * width);
    const std::vector<float> got_exp_max = Read(ts.exp_max, c.m * t_width);
    for (uint32_t r = 0; r < c.m; ++r) {
      const float* row = x.data() + size_t{r} * c.k;
      const float im = in_max[r * width];
      const float is = in_sum[r * width];
      const DocFlash d = DocumentedFlash(row, c.k, c.ori_k, update, im, is);
      const RowRef ref = ReferenceRow(row, c.ori_k);
      const double m = update ? std::max(double{im}, ref.max) : ref.max;
      const double em = update ? std::exp(im - m) : 1.0;
      const double tile_sum = ref.sum * std::exp(ref.max - m);
      const double sum = update ? is * em + tile_sum : tile_sum;
      for (uint32_t j = 0; j < c.k; ++j) {
        const float g = got[size_t{r} * c.k + j];
        ASSERT_EQ(FloatBits(g), FloatBits(AsStored<T>(d.y[j], saturate)))
            << "row " << r << " column " << j << ": got " << g
            << ", documented order " << d.y[j];
        if (j >= c.ori_k) continue;
        const double y = std::exp(double{row[j]} - m);
        const double xm = row[j] == kNegInf ? 0.0 : double{row[j]} - m;
        ASSERT_TRUE(compat_test::WithinBound(
            label + " dst", g, y,
            WithNarrowing(y, ProbBound(y, xm, ref, c.ori_k, false), kHalf)));
      }
      for (uint32_t i = 0; i < width; ++i) {
        ASSERT_EQ(FloatBits(got_sum[r * width + i]),
                  FloatBits(AsStored<U>(d.sum, saturate)))
            << "expSum of row " << r;
        ASSERT_EQ(FloatBits(got_max[r * width + i]),
                  FloatBits(AsStored<U>(d.max, saturate)))
            << "max of row " << r;
      }
      ASSERT_EQ(got_max[r * width], static_cast<float>(m));
      // The sum: the tile's (A + ceil(n/64) + 6)·u, the scaled input sum's
      // (|inMax - max| + 3)·u, one rounding of the total.
      const double tile_part =
          (ref.a + std::ceil(c.ori_k / 64.0) + 7) * tile_sum;
      const double in_part = update ? (std::fabs(im - m) + 3) * is * em : 0.0;
      const double sum_bound = (tile_part + in_part + sum) * kU * 1.0001;
      ASSERT_TRUE(
          compat_test::WithinBound(label + " expSum", got_sum[r * width], sum,
                                   WithNarrowing(sum, sum_bound, kStatsHalf)));
      if (update) {
        for (uint32_t i = 0; i < t_width; ++i) {
          ASSERT_EQ(FloatBits(got_exp_max[r * t_width + i]),
                    FloatBits(AsStored<T>(d.exp_max, saturate)));
        }
        const double em_bound =
            (std::fabs(im - m) + 1) * kU * em * 1.0001 + std::ldexp(1.0, -126);
        ASSERT_TRUE(compat_test::WithinBound(
            label + " expMax", got_exp_max[r * t_width], em,
            WithNarrowing(em, em_bound, kHalf)));
      }
    }
  }
}

template <typename T>
Case ForType(Case c) {
  if (std::is_same_v<T, half> && c.k % 16 != 0) c.k += 8;
  return c;
}

TEST(SoftmaxFlashV2, FloatMatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      RunFlashCase<float, float>(c, p, false);
      RunFlashCase<float, float>(c, p, true);
    }
  }
}

TEST(SoftmaxFlashV2, HalfMatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      for (bool update : {false, true}) {
        RunFlashCase<half, half>(ForType<half>(c), p, update);
        RunFlashCase<half, float>(ForType<half>(c), p, update);
      }
    }
  }
}

// The flash recurrence: [rows, tiles·64] floats in column tiles of 64, the
// first without update, the others with, max and expSum updated in place;
// then the last max and expSum against the whole row's softmax in double.
TEST(SoftmaxFlashV2, RecurrenceOverColumnTilesMatchesWholeRow) {
  constexpr uint32_t kRows = 8, kTile = 64, kTiles = 6;
  const ge::Shape shape({kRows, kTile});
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV2TilingFunc(
      shape, 4, 4, AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, 4, 4, true),
      tiling, true);
  std::mt19937 rng(compat_test::Seed<31>());
  const std::vector<float> x = softmax_test::RandomRows<float>(
      &rng, kRows, kTile * kTiles, kTile * kTiles, Fill::kWide);
  FlashTensors<float, float> ts(kRows, kTile, 4 * kRows * (kTile + 8));
  std::vector<double> rel(kRows, 0.0);  // the bound's relative part so far
  for (uint32_t t = 0; t < kTiles; ++t) {
    std::vector<float> tile(kRows * kTile);
    for (uint32_t r = 0; r < kRows; ++r) {
      std::copy_n(x.begin() + r * kTile * kTiles + t * kTile, kTile,
                  tile.begin() + r * kTile);
      // Each tile adds its sum's, its exponentials' and the update's error.
      const RowRef ref = ReferenceRow(tile.data() + r * kTile, kTile);
      rel[r] += ref.a + 1 + 7 + (t == 0 ? 0 : 128 + 3);
    }
    Write(ts.src, tile);
    if (t == 0) {
      AscendC::SoftmaxFlashV2<float, false>(ts.dst, ts.in_sum, ts.in_max,
                                            ts.src, ts.exp_max, ts.in_sum,
                                            ts.in_max, ts.tmp, tiling);
    } else {
      AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.in_sum, ts.in_max, ts.src,
                                           ts.exp_max, ts.in_sum, ts.in_max,
                                           ts.tmp, tiling);
    }
  }
  for (uint32_t r = 0; r < kRows; ++r) {
    const RowRef whole =
        ReferenceRow(x.data() + r * kTile * kTiles, kTile * kTiles);
    EXPECT_EQ(ts.in_max.GetValue(r * 8), static_cast<float>(whole.max));
    // |inMax - max| of an update is at most the row's range, 2·60 (the 128
    // above); the bound sums every tile's relative error.
    ASSERT_TRUE(compat_test::WithinBound(
        "SoftmaxFlashV2<float> expSum over 6 tiles", ts.in_sum.GetValue(r * 8),
        whole.sum, rel[r] * kU * whole.sum * 1.0001))
        << "row " << r;
  }
}

TEST(SoftmaxFlashV2, FirstTileWithNegativeInfinityInMaxEqualsNoUpdate) {
  // inMax = -inf and inExpSum = 0 (a running max before any column):
  // expMax = exp(-inf) = 0 and the outputs are the isUpdate = false ones.
  const ge::Shape shape({4, 64});
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV2TilingFunc(shape, 4, 4, 4 * 4 * 72, tiling, true);
  std::mt19937 rng(compat_test::Seed<31>() + 1);
  const std::vector<float> x =
      softmax_test::RandomRows<float>(&rng, 4, 64, 64, Fill::kUniform);
  FlashTensors<float, float> ts(4, 64, 4 * 4 * 72);
  Write(ts.src, x);
  AscendC::SoftmaxFlashV2<float, false>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                        ts.exp_max, ts.in_sum, ts.in_max,
                                        ts.tmp, tiling);
  const std::vector<float> dst = Read(ts.dst, 256);
  const std::vector<float> sum = Read(ts.exp_sum, 32);
  const std::vector<float> max = Read(ts.max, 32);
  Write(ts.in_max, std::vector<float>(32, kNegInf));
  Write(ts.in_sum, std::vector<float>(32, 0.0f));
  AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                       ts.exp_max, ts.in_sum, ts.in_max, ts.tmp,
                                       tiling);
  for (uint32_t i = 0; i < 256; ++i) {
    ASSERT_EQ(FloatBits(ts.dst.GetValue(i)), FloatBits(dst[i]));
  }
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(FloatBits(ts.exp_sum.GetValue(i)), FloatBits(sum[i]));
    EXPECT_EQ(FloatBits(ts.max.GetValue(i)), FloatBits(max[i]));
    EXPECT_EQ(ts.exp_max.GetValue(i), 0.0f);
  }
}

TEST(SoftmaxFlashV2, OneElementPerRowAndOutReduceMax) {
  // SOFTMAX_OUTPUT_WITHOUT_BRC: max, sums and expMax one float per row; the
  // overload with outReduceMax adds the tile's own row max.
  const ge::Shape shape({8, 64});
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV2TilingFunc(shape, 4, 4, 4 * 8 * 72, tiling, true,
                                    false, true);
  ASSERT_EQ(tiling.outMaxK, 1u);
  std::mt19937 rng(compat_test::Seed<31>() + 2);
  const std::vector<float> x =
      softmax_test::RandomRows<float>(&rng, 8, 64, 64, Fill::kUniform);
  std::vector<float> in_max(8), in_sum(8);
  for (uint32_t r = 0; r < 8; ++r) {
    in_max[r] = 0.5f * static_cast<float>(r) - 2.0f;
    in_sum[r] = 3.0f + static_cast<float>(r);
  }
  for (int with_reduce = 0; with_reduce < 2; ++with_reduce) {
    FlashTensors<float, float> ts(8, 64, 4 * 8 * 72);
    Write(ts.src, x);
    Write(ts.in_max, in_max);
    Write(ts.in_sum, in_sum);
    if (with_reduce == 1) {
      AscendC::SoftmaxFlashV2<float, true, false, false, false, kWithoutBrc>(
          ts.dst, ts.reduce_max, ts.exp_sum, ts.max, ts.src, ts.exp_max,
          ts.in_sum, ts.in_max, ts.tmp, tiling);
    } else {
      AscendC::SoftmaxFlashV2<float, true, false, false, false, kWithoutBrc>(
          ts.dst, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_sum, ts.in_max,
          ts.tmp, tiling);
    }
    for (uint32_t r = 0; r < 8; ++r) {
      const DocFlash d = DocumentedFlash(x.data() + r * 64, 64, 64, true,
                                         in_max[r], in_sum[r]);
      EXPECT_EQ(FloatBits(ts.exp_sum.GetValue(r)), FloatBits(d.sum));
      EXPECT_EQ(FloatBits(ts.max.GetValue(r)), FloatBits(d.max));
      EXPECT_EQ(FloatBits(ts.exp_max.GetValue(r)), FloatBits(d.exp_max));
      if (with_reduce == 1) {
        EXPECT_EQ(FloatBits(ts.reduce_max.GetValue(r)), FloatBits(d.row_max));
      }
      for (uint32_t j = 0; j < 64; ++j) {
        ASSERT_EQ(FloatBits(ts.dst.GetValue(r * 64 + j)), FloatBits(d.y[j]));
      }
    }
  }
}

// ---- bad use ----------------------------------------------------------------

struct FlashBadUse : ::testing::Test {
  SoftMaxTiling t;
  FlashTensors<float, float> ts{4, 64, 4 * 4 * 72};
  FlashBadUse() {
    AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({4, 64}), 4, 4, 4 * 4 * 72, t,
                                      true);
  }
};

TEST_F(FlashBadUse, OutReduceMaxForm) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.reduce_max, ts.exp_sum,
                                             ts.max, ts.src, ts.exp_max,
                                             ts.in_sum, ts.in_max, ts.tmp, t);
      },
      "SoftmaxFlashV2: the overload with outReduceMax needs config.mode = "
      "SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC (one element per row); it is "
      "SOFTMAX_NORMAL"));
}

TEST(SoftmaxFlashV2BadUse, OutReduceMaxNotOnAtlasInferenceAICore) {
  const ProfileScope scope(Profile::k310P);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({4, 64}), 4, 4, 4 * 4 * 72, t,
                                    true, false, true);
  FlashTensors<float, float> ts(4, 64, 4 * 4 * 72);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true, false, false, false, kWithoutBrc>(
            ts.dst, ts.reduce_max, ts.exp_sum, ts.max, ts.src, ts.exp_max,
            ts.in_sum, ts.in_max, ts.tmp, t);
      },
      "SoftmaxFlashV2: the overload with outReduceMax is not available on "
      "profile Atlas inference series"));
}

TEST_F(FlashBadUse, TilingForTheOtherOutputForm) {
  // A tiling with a block a row, used one element a row.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true, false, false, false, kWithoutBrc>(
            ts.dst, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_sum,
            ts.in_max, ts.tmp, t);
      },
      "SoftmaxFlashV2: tiling.outMaxK is 8, expected 1 (one element per row "
      "(SOFTMAX_OUTPUT_WITHOUT_BRC))"));
}

TEST_F(FlashBadUse, Overlaps) {
  // maxTensor may be inMaxTensor itself, not a part of it.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.exp_sum, ts.spare[8],
                                             ts.src, ts.exp_max, ts.in_sum,
                                             ts.spare, ts.tmp, t);
      },
      "maxTensor may be inMaxTensor itself but must not overlap it partly"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                             ts.dst, ts.in_sum, ts.in_max,
                                             ts.tmp, t);
      },
      "SoftmaxFlashV2 writes dstTensor, so it must not share memory with "
      "another operand"));
}

TEST_F(FlashBadUse, Lengths) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                             ts.exp_max, ts.in_sum[8],
                                             ts.in_max, ts.tmp, t);
      },
      "SoftmaxFlashV2: inExpSumTensor holds 24 floats, fewer than the 32 it "
      "must hold (srcM rows of a 32-byte block)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV2<float, true>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                             ts.exp_max[8], ts.in_sum,
                                             ts.in_max, ts.tmp, t);
      },
      "SoftmaxFlashV2: expMaxTensor holds 24 floats, fewer than the 32"));
}

}  // namespace

// ---- SoftmaxFlash (the first version)
// -----------------------------------------

namespace {

// SoftmaxFlash's documented float order of one row: with update, the sum
// inSum·e + Σ exp(x - max), expMax = e·inSum / sum, and dst divided by sum.
DocFlash DocumentedFlashV1(const float* x, uint32_t k, uint32_t ori_k,
                           bool update, float in_max, float in_sum) {
  DocFlash d = DocumentedFlash(x, k, ori_k, update, in_max, in_sum);
  for (uint32_t j = 0; j < k; ++j) d.y[j] = d.y[j] / d.sum;
  if (update) d.exp_max = d.exp_max * in_sum / d.sum;
  return d;
}

template <typename T, typename U>
void RunFlashV1Case(const Case& c, Profile profile, bool update) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr bool kStatsHalf = std::is_same_v<U, half>;
  const std::string type =
      std::string(Name<T>()) +
      (std::is_same_v<T, U> ? "" : std::string(",") + Name<U>());
  SCOPED_TRACE("SoftmaxFlash<" + type + "> isUpdate " +
               (update ? "true" : "false") + " [" + std::to_string(c.m) + ", " +
               std::to_string(c.k) + "]");
  const ProfileScope scope(profile);
  const bool saturate = profile == Profile::k950;
  const ge::Shape shape({c.m, c.k});
  const uint32_t work =
      AscendC::GetSoftMaxFlashMinTmpSize(shape, sizeof(U), update, false);
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashTilingFunc(shape, sizeof(U), work, tiling, update);
  ASSERT_NE(tiling.splitM, 0u);
  const uint32_t n = c.m * c.k;
  const uint32_t width = 32 / sizeof(U);
  const uint32_t t_width = 32 / sizeof(T);
  std::mt19937 rng(compat_test::Seed<31>() + 3 * n + update);
  const std::vector<float> x =
      softmax_test::RandomRows<T>(&rng, c.m, c.k, c.ori_k, c.fill);
  std::uniform_real_distribution<float> max_dist(-6.0f, 6.0f);
  std::uniform_real_distribution<float> sum_dist(0.5f, 100.0f);
  std::vector<float> in_max(c.m * width), in_sum(c.m * width);
  for (uint32_t r = 0; r < c.m; ++r) {
    const float mv = AsStored<U>(max_dist(rng), false);
    const float sv = AsStored<U>(sum_dist(rng), false);
    std::fill(in_max.begin() + r * width, in_max.begin() + (r + 1) * width, mv);
    std::fill(in_sum.begin() + r * width, in_sum.begin() + (r + 1) * width, sv);
  }
  const SoftMaxShapeInfo info{c.m, c.k, c.m, c.ori_k};
  const std::string label = "SoftmaxFlash<" + type + ">";
  for (int form = 0; form < 2; ++form) {
    FlashTensors<T, U> ts(c.m, c.k, form == 0 ? work : 0);
    Write(ts.src, x);
    Write(ts.in_max, in_max);
    Write(ts.in_sum, in_sum);
    if (form == 0) {
      AscendC::SoftmaxFlash<T>(ts.dst, ts.exp_sum, ts.max, ts.src, ts.exp_max,
                               ts.in_sum, ts.in_max, ts.tmp, tiling, update,
                               info);
    } else {
      AscendC::SoftmaxFlash<T>(ts.dst, ts.exp_sum, ts.max, ts.src, ts.exp_max,
                               ts.in_sum, ts.in_max, tiling, update, info);
    }
    for (uint32_t r = 0; r < c.m; ++r) {
      const float* row = x.data() + size_t{r} * c.k;
      const float im = in_max[r * width];
      const float is = in_sum[r * width];
      const DocFlash d = DocumentedFlashV1(row, c.k, c.ori_k, update, im, is);
      const RowRef ref = ReferenceRow(row, c.ori_k);
      const double m = update ? std::max(double{im}, ref.max) : ref.max;
      const double em = update ? std::exp(im - m) : 1.0;
      const double tile_sum = ref.sum * std::exp(ref.max - m);
      const double sum = update ? is * em + tile_sum : tile_sum;
      const double tile_part =
          (ref.a + std::ceil(c.ori_k / 64.0) + 7) * tile_sum;
      const double in_part = update ? (std::fabs(im - m) + 3) * is * em : 0.0;
      const double sum_rel = (tile_part + in_part + sum) * kU * 1.0001 / sum;
      for (uint32_t j = 0; j < c.k; ++j) {
        const float g = static_cast<float>(ts.dst.GetValue(r * c.k + j));
        ASSERT_EQ(FloatBits(g), FloatBits(AsStored<T>(d.y[j], saturate)))
            << "row " << r << " column " << j;
        if (j >= c.ori_k) continue;
        const double y = std::exp(double{row[j]} - m) / sum;
        const double xm = row[j] == kNegInf ? 0.0 : double{row[j]} - m;
        const double bound = ((std::fabs(xm) + 2) * kU + sum_rel) * y * 1.0001 +
                             std::ldexp(1.0, -126);
        ASSERT_TRUE(compat_test::WithinBound(label + " dst", g, y,
                                             WithNarrowing(y, bound, kHalf)));
      }
      ASSERT_EQ(FloatBits(static_cast<float>(ts.exp_sum.GetValue(r * width))),
                FloatBits(AsStored<U>(d.sum, saturate)));
      ASSERT_EQ(FloatBits(static_cast<float>(ts.max.GetValue(r * width))),
                FloatBits(AsStored<U>(d.max, saturate)));
      ASSERT_TRUE(compat_test::WithinBound(
          label + " sum", static_cast<float>(ts.exp_sum.GetValue(r * width)),
          sum, WithNarrowing(sum, sum_rel * sum, kStatsHalf)));
      if (update) {
        const float got_em =
            static_cast<float>(ts.exp_max.GetValue(r * t_width));
        ASSERT_EQ(FloatBits(got_em),
                  FloatBits(AsStored<T>(d.exp_max, saturate)));
        const double share = em * is / sum;
        const double bound =
            ((std::fabs(im - m) + 3) * kU + sum_rel) * share * 1.0001 +
            std::ldexp(1.0, -126);
        ASSERT_TRUE(
            compat_test::WithinBound(label + " expMax", got_em, share,
                                     WithNarrowing(share, bound, kHalf)));
      }
    }
  }
}

TEST(SoftmaxFlash, MatchesDocumentedOrderAndReference) {
  for (Profile p : kProfiles) {
    for (const Case& c : kCases) {
      for (bool update : {false, true}) {
        RunFlashV1Case<float, float>(c, p, update);
        RunFlashV1Case<half, half>(ForType<half>(c), p, update);
        RunFlashV1Case<half, float>(ForType<half>(c), p, update);
      }
    }
  }
}

TEST(SoftmaxFlash, WithoutUpdateIsSoftMax) {
  // The page: without update, SoftmaxFlash equals SoftMax.
  const ge::Shape shape({4, 64});
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashTilingFunc(shape, 4, 4 * 4 * 72, tiling);
  std::mt19937 rng(compat_test::Seed<31>() + 5);
  const std::vector<float> x =
      softmax_test::RandomRows<float>(&rng, 4, 64, 64, Fill::kUniform);
  FlashTensors<float, float> ts(4, 64, 4 * 4 * 72);
  Write(ts.src, x);
  AscendC::SoftMax<float>(ts.dst, ts.exp_sum, ts.max, ts.src, ts.tmp, tiling);
  const std::vector<float> dst = Read(ts.dst, 256);
  const std::vector<float> sum = Read(ts.exp_sum, 32);
  AscendC::SoftmaxFlash<float>(ts.dst, ts.exp_sum, ts.max, ts.src, ts.exp_max,
                               ts.in_sum, ts.in_max, ts.tmp, tiling);
  for (uint32_t i = 0; i < 256; ++i) {
    ASSERT_EQ(FloatBits(ts.dst.GetValue(i)), FloatBits(dst[i]));
  }
  for (uint32_t i = 0; i < 32; ++i) {
    ASSERT_EQ(FloatBits(ts.exp_sum.GetValue(i)), FloatBits(sum[i]));
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlash<float>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                     ts.exp_max, ts.in_sum[8], ts.in_max,
                                     ts.tmp, tiling, true);
      },
      "SoftmaxFlash: inSumTensor holds 24 floats, fewer than the 32 it must "
      "hold"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlash<float>(ts.dst, ts.exp_sum, ts.max, ts.src,
                                     ts.exp_max, ts.in_sum, ts.in_max, ts.tmp,
                                     SoftMaxTiling{}, true);
      },
      "SoftmaxFlash: tiling.splitM is 0: the tiling is empty "
      "(SoftMaxFlashTilingFunc failed or was not called)"));
}

}  // namespace
