// softmaxflashv3_test.cc — AscendC::SoftmaxFlashV3 and its host tiling
// (GetSoftMaxFlashV3MaxMinTmpSize, SoftMaxFlashV3TilingFunc) through
// kernel_operator.h and tiling/tiling_api.h, on the emulated core: every
// output against a float64 transcription of the page's script within the
// bound docs/numerics.md derives ("SoftmaxFlashV3"), for isUpdate false and
// true, [8, 512], [8, 1024] and [16, 2048], both overloads and the in-place
// form, on Atlas A2/A3 and Ascend 950; a chain of update steps over three
// column tiles (loopCnt 1, 2, 3) against one softmax of the whole shifted row;
// the page's example input; the scratch sizes; and every check's message.
//
// Random data uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
// To extend: a row of kCases, or a bad use with the message it must give.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../normalization/tiling_test_util.h"
#include "softmax_test_util.h"

namespace {

using AscendC::LocalTensor;
using AscendC::SoftmaxConfig;
using AscendC::SoftMaxParams;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using compat_test::RoundToHalf;
using normgrad_ascendc::Profile;
using softmax_test::Buffers;
using softmax_test::kU;
using softmax_test::Read;
using softmax_test::WithNarrowing;
using softmax_test::Write;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kStats = 8;    // floats of a row's mean, sum, max
constexpr uint32_t kExpMax = 16;  // halves of a row's expMax

// ---- The float64 reference and its bound (docs/numerics.md) ----------------

// A row's inputs inMean, inMax, inExpSum, and how far each may be from its
// exact value (0 for a call's own inputs; a chain's earlier errors).
struct RowIn {
  double mean = 0, max = -kInf, sum = 0;
  double mean_err = 0, max_err = 0, sum_err = 0;
};

// One row of the page's script in double, with the bound of each output.
struct RowOut {
  std::vector<double> dst, dst_bound;  // dst_bound absolute, before narrowing
  double mean, max, sum, exp_max;
  double mean_err, max_err, sum_err, exp_max_err;
};

// |e^(t + d)·(1 + u) − e^t| / e^t for |d| ≤ dz: the relative error of a
// float exponential whose argument errs by at most dz.
double ExpRel(double dz) { return std::expm1(dz) + kU * std::exp(dz); }

RowOut ReferenceRow(const float* x, uint32_t n, float alpha, bool update,
                    uint32_t loops, const RowIn& in) {
  const uint32_t base = n / 8;
  const double s = double{alpha} / (1.0 - double{alpha});
  double total = 0, total_abs = 0, x_abs = 0;
  for (uint32_t c = 0; c < n; ++c) {
    total += x[c];
    total_abs += std::fabs(x[c]);
  }
  const double g = total / n;
  // The row mean's sum: ceil(n/64) − 1 additions a lane, six tree levels,
  // then the division.
  const double e_g = (n / 64.0 + 6) * kU * total_abs / n;
  double piece_shift[8], piece_err[8];
  for (uint32_t j = 0; j < 8; ++j) {
    double sum = 0, abs = 0;
    for (uint32_t i = 0; i < base; ++i) {
      sum += x[j * base + i];
      abs += std::fabs(x[j * base + i]);
    }
    const double local = sum / base;
    // base/8 − 1 additions a lane, three tree levels, the division.
    const double e_l = (base / 8.0 + 3) * kU * abs / base;
    piece_shift[j] = (g - local) * s;
    piece_err[j] = s * (e_g + e_l + 3 * kU * std::fabs(g - local));
  }
  std::vector<double> xs(n), xs_err(n);
  double shifted_max = -kInf, shifted_err = 0;
  for (uint32_t c = 0; c < n; ++c) {
    xs[c] = x[c] - piece_shift[c / base];
    xs_err[c] = piece_err[c / base] + kU * std::fabs(xs[c]);
    shifted_max = std::max(shifted_max, xs[c]);
    shifted_err = std::max(shifted_err, xs_err[c]);
    x_abs = std::max(x_abs, std::fabs(xs[c]));
  }
  RowOut out;
  out.mean = g;
  out.mean_err = e_g;
  double c_shift = 0, c_err = 0, p_shift = 0, p_err = 0;
  out.max = shifted_max;
  out.max_err = shifted_err;
  out.exp_max = 1;
  out.exp_max_err = 0;
  if (update) {
    const double l = loops;
    const double numer = g + in.mean * (l - 1);
    out.mean = numer / l;
    out.mean_err = (e_g + in.mean_err * (l - 1) +
                    kU * std::fabs(in.mean) * (l - 1) + kU * std::fabs(numer)) /
                       l +
                   kU * std::fabs(out.mean);
    c_shift = (g - out.mean) * s;
    c_err = s * (e_g + out.mean_err) + 3 * kU * std::fabs(c_shift);
    p_shift = (in.mean - out.mean) * s;
    p_err = s * (in.mean_err + out.mean_err) + 3 * kU * std::fabs(p_shift);
    const double a = c_shift + shifted_max;
    const double b = p_shift + in.max;
    const double a_err = c_err + shifted_err + kU * std::fabs(a);
    const double b_err =
        std::isinf(b) ? 0 : p_err + in.max_err + kU * std::fabs(b);
    out.max = std::max(a, b);
    out.max_err = std::max(a_err, b_err);
    if (std::isinf(in.max)) {
      out.exp_max = 0;
    } else {
      const double w = in.max - out.max + p_shift;
      out.exp_max = std::exp(w);
      const double w_err = out.max_err + in.max_err +
                           kU * std::fabs(in.max - out.max) + p_err +
                           kU * std::fabs(w);
      out.exp_max_err = out.exp_max * ExpRel(w_err) + std::ldexp(1.0, -126);
    }
  }
  const double sub = out.max - c_shift;
  const double sub_err = out.max_err + c_err + kU * std::fabs(sub);
  out.dst.resize(n);
  out.dst_bound.resize(n);
  double tile_sum = 0, tile_err = 0;
  for (uint32_t c = 0; c < n; ++c) {
    const double z = xs[c] - sub;
    out.dst[c] = std::exp(z);
    const double z_err = xs_err[c] + sub_err + kU * std::fabs(z);
    out.dst_bound[c] =
        out.dst[c] * ExpRel(z_err) * 1.0001 + std::ldexp(1.0, -126);
    tile_sum += out.dst[c];
    tile_err += out.dst_bound[c];
  }
  // The row sum of the float exponentials: their errors, then
  // ceil(n/64) + 5 roundings.
  tile_err += (n / 64.0 + 6) * kU * tile_sum;
  out.sum = tile_sum;
  out.sum_err = tile_err;
  if (update) {
    const double prev = out.exp_max * in.sum;
    out.sum = prev + tile_sum;
    out.sum_err = tile_err + out.exp_max_err * in.sum +
                  out.exp_max * in.sum_err + kU * prev + kU * out.sum;
  }
  out.sum_err *= 1.0001;
  out.max_err *= 1.0001;
  out.mean_err *= 1.0001;
  return out;
}

// ---- Tensors and calls ----------------------------------------------------

// The operands of one call: m rows of k halves, per-row blocks (and one block
// to spare, for the overlap tests), `work` bytes of sharedTmpBuffer (0: none).
struct V3Tensors {
  Buffers b;
  LocalTensor<half> dst, src, exp_max;
  LocalTensor<float> mean, exp_sum, max, in_mean, in_sum, in_max;
  LocalTensor<uint8_t> tmp;
  V3Tensors(uint32_t m, uint32_t k, uint32_t work)
      : b({m * k * 2, m * 32 + 32, m * 32 + 32, m * 32 + 32, m * k * 2,
           m * 32 + 32, m * 32 + 32, m * 32 + 32, m * 32 + 32, work}) {
    dst = b.Get<half>(0);
    mean = b.Get<float>(1);
    exp_sum = b.Get<float>(2);
    max = b.Get<float>(3);
    src = b.Get<half>(4);
    exp_max = b.Get<half>(5);
    in_mean = b.Get<float>(6);
    in_sum = b.Get<float>(7);
    in_max = b.Get<float>(8);
    if (work != 0) tmp = b.Get<uint8_t>(9);
  }
};

enum class Form { kShared, kFramework, kInPlace };

// The outputs of one call, per row.
struct Got {
  std::vector<float> dst, mean, sum, max, exp_max;
};

// One call on x [m, k] with inputs in (per row), in the given form.
Got RunCall(uint32_t m, uint32_t k, const std::vector<float>& x, float alpha,
            bool update, uint32_t loops, const std::vector<RowIn>& in,
            Form form, uint32_t work) {
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({m, k}), 2, 4, work, tiling,
                                    update);
  EXPECT_NE(tiling.splitM, 0u);
  V3Tensors ts(m, k, form == Form::kFramework ? 0 : work);
  std::vector<float> in_mean(m * kStats), in_max(m * kStats),
      in_sum(m * kStats);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t i = 0; i < kStats; ++i) {
      in_mean[r * kStats + i] = static_cast<float>(in[r].mean);
      in_max[r * kStats + i] = static_cast<float>(in[r].max);
      in_sum[r * kStats + i] = static_cast<float>(in[r].sum);
    }
  }
  Write(ts.src, x);
  Write(ts.in_mean, in_mean);
  Write(ts.in_max, in_max);
  Write(ts.in_sum, in_sum);
  const bool in_place = form == Form::kInPlace;
  LocalTensor<half> dst = in_place ? ts.src : ts.dst;
  LocalTensor<float> mean = in_place ? ts.in_mean : ts.mean;
  LocalTensor<float> sum = in_place ? ts.in_sum : ts.exp_sum;
  LocalTensor<float> max = in_place ? ts.in_max : ts.max;
  const SoftMaxParams params(m, k, m, k, loops, 8, alpha);
  if (form == Form::kFramework) {
    if (update) {
      AscendC::SoftmaxFlashV3<half, float, true>(
          dst, mean, sum, max, ts.src, ts.exp_max, ts.in_mean, ts.in_sum,
          ts.in_max, tiling, params);
    } else {
      AscendC::SoftmaxFlashV3<half, float>(dst, mean, sum, max, ts.src,
                                           ts.exp_max, ts.in_mean, ts.in_sum,
                                           ts.in_max, tiling, params);
    }
  } else if (update) {
    AscendC::SoftmaxFlashV3<half, float, true>(
        dst, mean, sum, max, ts.src, ts.exp_max, ts.in_mean, ts.in_sum,
        ts.in_max, ts.tmp, tiling, params);
  } else {
    AscendC::SoftmaxFlashV3<half, float, false>(
        dst, mean, sum, max, ts.src, ts.exp_max, ts.in_mean, ts.in_sum,
        ts.in_max, ts.tmp, tiling, params);
  }
  return {Read(dst, size_t{m} * k), Read(mean, m * kStats),
          Read(sum, m * kStats), Read(max, m * kStats),
          Read(ts.exp_max, m * kExpMax)};
}

const char kLabel[] = "SoftmaxFlashV3<half,float> ";

// Every output of row r of a call against its reference row.
void ExpectRow(const Got& got, uint32_t r, uint32_t k, const RowOut& ref,
               bool update) {
  SCOPED_TRACE("row " + std::to_string(r));
  for (uint32_t c = 0; c < k; ++c) {
    ASSERT_TRUE(compat_test::WithinBound(
        std::string(kLabel) + "dst", got.dst[size_t{r} * k + c], ref.dst[c],
        WithNarrowing(ref.dst[c], ref.dst_bound[c], true)))
        << "column " << c;
  }
  for (uint32_t i = 0; i < kStats; ++i) {
    ASSERT_EQ(got.mean[r * kStats + i], got.mean[r * kStats]);
    ASSERT_EQ(got.max[r * kStats + i], got.max[r * kStats]);
    ASSERT_EQ(got.sum[r * kStats + i], got.sum[r * kStats]);
  }
  ASSERT_TRUE(compat_test::WithinBound(std::string(kLabel) + "mean",
                                       got.mean[r * kStats], ref.mean,
                                       ref.mean_err));
  ASSERT_TRUE(compat_test::WithinBound(
      std::string(kLabel) + "max", got.max[r * kStats], ref.max, ref.max_err));
  ASSERT_TRUE(compat_test::WithinBound(std::string(kLabel) + "expSum",
                                       got.sum[r * kStats], ref.sum,
                                       ref.sum_err));
  if (!update) return;
  for (uint32_t i = 0; i < kExpMax; ++i) {
    ASSERT_EQ(got.exp_max[r * kExpMax + i], got.exp_max[r * kExpMax]);
  }
  ASSERT_TRUE(compat_test::WithinBound(
      std::string(kLabel) + "expMax", got.exp_max[r * kExpMax], ref.exp_max,
      WithNarrowing(ref.exp_max, ref.exp_max_err, true)));
}

// m rows of k halves: uniform in [-3, 3) plus half the piece's index, so the
// eight pieces' means differ.
std::vector<float> RandomRows(std::mt19937* rng, uint32_t m, uint32_t k) {
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  std::vector<float> x(size_t{m} * k);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      x[size_t{r} * k + c] = RoundToHalf(
          dist(*rng) + 0.5f * static_cast<float>(c / (k / 8)), false);
    }
  }
  return x;
}

struct Case {
  uint32_t m, k;
  uint32_t rows;  // rows a chunk of scratch holds
};

const Case kCases[] = {{8, 512, 8}, {8, 1024, 3}, {16, 2048, 1}};
const float kAlphas[] = {0.9375f, 0.984497f};

TEST(SoftmaxFlashV3, MatchesTheScriptInDoubleWithinTheBound) {
  std::mt19937 rng(compat_test::Seed<53>());
  for (Profile profile : {Profile::kA2, Profile::k950}) {
    const ProfileScope scope(profile);
    for (const Case& c : kCases) {
      const std::vector<float> x = RandomRows(&rng, c.m, c.k);
      const uint32_t work = 4 * c.rows * (c.k + 8);
      std::uniform_real_distribution<float> near(-0.25f, 0.25f);
      std::uniform_real_distribution<float> sums(1.0f, 100.0f);
      std::vector<RowIn> in(c.m);
      for (uint32_t r = 0; r < c.m; ++r) {
        double g = 0;
        for (uint32_t j = 0; j < c.k; ++j) g += x[size_t{r} * c.k + j];
        in[r].mean = static_cast<float>(g / c.k + near(rng));
        in[r].max = static_cast<float>(5.0 + 4 * near(rng));
        in[r].sum = sums(rng);
      }
      for (float alpha : kAlphas) {
        for (bool update : {false, true}) {
          for (Form form : {Form::kShared, Form::kFramework, Form::kInPlace}) {
            SCOPED_TRACE("[" + std::to_string(c.m) + ", " +
                         std::to_string(c.k) + "] alpha " +
                         std::to_string(alpha) + " isUpdate " +
                         std::to_string(update) + " form " +
                         std::to_string(static_cast<int>(form)) + " profile " +
                         normgrad_ascendc::GetProfileInfo(profile).name);
            const uint32_t loops = 3;
            const Got got =
                RunCall(c.m, c.k, x, alpha, update, loops, in, form, work);
            for (uint32_t r = 0; r < c.m; ++r) {
              const RowOut ref = ReferenceRow(x.data() + size_t{r} * c.k, c.k,
                                              alpha, update, loops, in[r]);
              ExpectRow(got, r, c.k, ref, update);
            }
          }
        }
      }
    }
  }
}

// isUpdate with loopCnt 1 from an empty history (inMax -inf, inExpSum 0) is
// the first tile: the same bits as isUpdate false.
TEST(SoftmaxFlashV3, FirstUpdateFromNothingIsTheFirstTile) {
  std::mt19937 rng(compat_test::Seed<53>() + 1);
  const std::vector<float> x = RandomRows(&rng, 8, 1024);
  const std::vector<RowIn> empty(8);
  const Got first =
      RunCall(8, 1024, x, 0.96889f, false, 1, empty, Form::kShared, 4 * 1032);
  const Got update =
      RunCall(8, 1024, x, 0.96889f, true, 1, empty, Form::kShared, 4 * 1032);
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(first.dst[i], update.dst[i]) << i;
  }
  for (size_t i = 0; i < first.mean.size(); ++i) {
    ASSERT_EQ(first.mean[i], update.mean[i]);
    ASSERT_EQ(first.max[i], update.max[i]);
    ASSERT_EQ(first.sum[i], update.sum[i]);
  }
  for (float e : update.exp_max) ASSERT_EQ(e, 0.0f);
}

// Three column tiles of one row set, isUpdate with loopCnt 1, 2, 3 from an
// empty history: after each step the outputs are the script's in double
// within the bound, the earlier steps' errors carried; at the end the mean,
// max and sum are those of one softmax of the whole row of shifted values
// y = x + (L − G)·s (L each element's piece mean in its tile, G the whole
// row's mean), and each tile's dst rescaled by the later expMax values and
// divided by the sum is the whole row's probability.
TEST(SoftmaxFlashV3, ChainOfTilesIsOneSoftmaxOfTheWholeRow) {
  constexpr uint32_t m = 8, k = 512, tiles = 3;
  const float alpha = 0.9375f;
  std::mt19937 rng(compat_test::Seed<53>() + 2);
  std::vector<std::vector<float>> tile_x;
  for (uint32_t t = 0; t < tiles; ++t) tile_x.push_back(RandomRows(&rng, m, k));
  std::vector<RowIn> in(m), exact(m);
  std::vector<Got> gots;
  std::vector<std::vector<RowOut>> refs(tiles);
  for (uint32_t t = 0; t < tiles; ++t) {
    SCOPED_TRACE("tile " + std::to_string(t));
    const Got got = RunCall(m, k, tile_x[t], alpha, true, t + 1, in,
                            Form::kShared, 4 * 2 * (k + 8));
    for (uint32_t r = 0; r < m; ++r) {
      // Against the script in double from the exact history.
      const RowOut ref = ReferenceRow(tile_x[t].data() + r * k, k, alpha, true,
                                      t + 1, exact[r]);
      ExpectRow(got, r, k, ref, true);
      refs[t].push_back(ref);
      exact[r] = {ref.mean,     ref.max,     ref.sum,
                  ref.mean_err, ref.max_err, ref.sum_err};
      in[r].mean = got.mean[r * kStats];
      in[r].max = got.max[r * kStats];
      in[r].sum = got.sum[r * kStats];
    }
    gots.push_back(got);
  }
  const double s = double{alpha} / (1.0 - double{alpha});
  for (uint32_t r = 0; r < m; ++r) {
    SCOPED_TRACE("row " + std::to_string(r));
    // The whole row, written out once.
    std::vector<double> y;
    double g = 0;
    for (uint32_t t = 0; t < tiles; ++t) {
      for (uint32_t c = 0; c < k; ++c) g += tile_x[t][r * k + c];
    }
    g /= tiles * k;
    for (uint32_t t = 0; t < tiles; ++t) {
      const float* x = tile_x[t].data() + r * k;
      for (uint32_t c = 0; c < k; ++c) {
        double local = 0;
        const uint32_t j = c / (k / 8);
        for (uint32_t i = 0; i < k / 8; ++i) local += x[j * (k / 8) + i];
        local /= k / 8;
        y.push_back(x[c] + (local - g) * s);
      }
    }
    const double y_max = *std::max_element(y.begin(), y.end());
    double y_sum = 0;
    for (double v : y) y_sum += std::exp(v - y_max);
    // The double chain is the whole row (to rounding in double)...
    EXPECT_NEAR(exact[r].mean, g, 1e-12 * (std::fabs(g) + 1));
    EXPECT_NEAR(exact[r].max, y_max, 1e-9 * (std::fabs(y_max) + 1));
    EXPECT_NEAR(exact[r].sum, y_sum, 1e-9 * y_sum);
    // ... and the kernel's chain is within its carried bound of it.
    ASSERT_TRUE(compat_test::WithinBound(std::string(kLabel) + "chain mean",
                                         in[r].mean, g, exact[r].mean_err));
    ASSERT_TRUE(compat_test::WithinBound(std::string(kLabel) + "chain max",
                                         in[r].max, y_max, exact[r].max_err));
    ASSERT_TRUE(compat_test::WithinBound(std::string(kLabel) + "chain expSum",
                                         in[r].sum, y_sum, exact[r].sum_err));
    // Probabilities: tile t's dst times the later tiles' expMax (half), over
    // the final sum. Relative bounds add: dst's, each expMax's (with its
    // narrowing), the sum's; half's subnormal step stays absolute.
    for (uint32_t t = 0; t < tiles; ++t) {
      double scale = 1, scale_rel = 0;
      for (uint32_t later = t + 1; later < tiles; ++later) {
        const RowOut& e = refs[later][r];
        scale *= gots[later].exp_max[r * kExpMax];
        scale_rel += e.exp_max_err / e.exp_max + std::ldexp(1.0, -11) +
                     std::ldexp(1.0, -25) / e.exp_max;
      }
      const RowOut& d = refs[t][r];
      const double sum_rel = exact[r].sum_err / exact[r].sum;
      for (uint32_t c = 0; c < k; ++c) {
        const double want = std::exp(y[t * k + c] - y_max) / y_sum;
        const double got = gots[t].dst[r * k + c] * scale / double{in[r].sum};
        const double dst_rel = d.dst_bound[c] / d.dst[c] + std::ldexp(1.0, -11);
        const double bound =
            want * (dst_rel + scale_rel + sum_rel + 2 * kU) * 1.0001 +
            std::ldexp(1.0, -25) * scale / double{in[r].sum};
        ASSERT_TRUE(compat_test::WithinBound(
            std::string(kLabel) + "chain probability", got, want, bound))
            << "tile " << t << " column " << c;
      }
    }
  }
}

// ---- The documented float order ------------------------------------------

// One row in the float order docs/softmax.md states: piece sums folded onto
// 8 lanes then a tree of pairs, the row sum of the family, each operation of
// the script rounded to float, exp in double rounded once.
struct DocRow {
  std::vector<float> dst;
  float mean, max, sum, exp_max;
};

DocRow DocumentedRow(const float* x, uint32_t n, float alpha, bool update,
                     uint32_t loops, float in_mean, float in_max,
                     float in_sum) {
  const uint32_t base = n / 8;
  const float scale = alpha / (1.0f - alpha);
  const float g = softmax_test::DocumentedRowSum(x, n) / static_cast<float>(n);
  std::vector<float> xs(x, x + n);
  for (uint32_t j = 0; j < 8; ++j) {
    float lanes[8];
    for (uint32_t l = 0; l < 8; ++l) {
      lanes[l] = x[j * base + l];
      for (uint32_t i = 1; i < base / 8; ++i) {
        lanes[l] = lanes[l] + x[j * base + 8 * i + l];
      }
    }
    const float piece = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
                        ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
    const float shift = (g - piece / static_cast<float>(base)) * scale;
    for (uint32_t i = 0; i < base; ++i) {
      xs[j * base + i] = xs[j * base + i] - shift;
    }
  }
  const float shifted_max = softmax_test::DocRowMax(xs.data(), n);
  DocRow d;
  d.mean = update ? (g + in_mean * static_cast<float>(loops - 1)) /
                        static_cast<float>(loops)
                  : g;
  const float c = (g - d.mean) * scale;
  d.max = c + shifted_max;
  d.exp_max = 1.0f;
  float p = 0.0f;
  if (update) {
    p = (in_mean - d.mean) * scale;
    d.max = std::max(d.max, p + in_max);
    d.exp_max = softmax_test::DocExp(in_max - d.max + p);
  }
  const float sub = d.max - c;
  std::vector<float> e(n);
  for (uint32_t i = 0; i < n; ++i) e[i] = softmax_test::DocExp(xs[i] - sub);
  d.sum = softmax_test::DocumentedRowSum(e.data(), n);
  if (update) d.sum = d.exp_max * in_sum + d.sum;
  d.dst.resize(n);
  for (uint32_t i = 0; i < n; ++i) d.dst[i] = RoundToHalf(e[i], false);
  d.exp_max = RoundToHalf(d.exp_max, false);
  return d;
}

TEST(SoftmaxFlashV3, GivesTheBitsOfTheDocumentedFloatOrder) {
  std::mt19937 rng(compat_test::Seed<53>() + 3);
  constexpr uint32_t m = 8, k = 1024;
  const std::vector<float> x = RandomRows(&rng, m, k);
  std::vector<RowIn> in(m);
  for (uint32_t r = 0; r < m; ++r) {
    in[r].mean = 1.5 + 0.1 * r;
    in[r].max = 6.0 + 0.25 * r;
    in[r].sum = 10.0 + r;
  }
  for (bool update : {false, true}) {
    SCOPED_TRACE(update ? "isUpdate true" : "isUpdate false");
    const Got got =
        RunCall(m, k, x, 0.96889f, update, 2, in, Form::kShared, 4 * 3 * 1032);
    for (uint32_t r = 0; r < m; ++r) {
      const DocRow d = DocumentedRow(x.data() + r * k, k, 0.96889f, update, 2,
                                     static_cast<float>(in[r].mean),
                                     static_cast<float>(in[r].max),
                                     static_cast<float>(in[r].sum));
      for (uint32_t c = 0; c < k; ++c) {
        ASSERT_EQ(compat_test::FloatBits(got.dst[r * k + c]),
                  compat_test::FloatBits(d.dst[c]))
            << "row " << r << " column " << c;
      }
      ASSERT_EQ(compat_test::FloatBits(got.mean[r * kStats]),
                compat_test::FloatBits(d.mean));
      ASSERT_EQ(compat_test::FloatBits(got.max[r * kStats]),
                compat_test::FloatBits(d.max));
      ASSERT_EQ(compat_test::FloatBits(got.sum[r * kStats]),
                compat_test::FloatBits(d.sum));
      if (update) {
        ASSERT_EQ(compat_test::FloatBits(got.exp_max[r * kExpMax]),
                  compat_test::FloatBits(d.exp_max));
      }
    }
  }
}

// ---- The page's example ---------------------------------------------------

// [8, 1024] halves rising evenly from 0 to 20 over the whole tensor,
// inMean, inExpSum and inMax 0.5, isUpdate true. The page gives neither alpha
// nor loopCnt; with the first recommended alpha and loopCnt 2 every output is
// the script's within the bound, each row's dst rises along the row and ends
// at 1 (the row's shifted maximum is its last element, as the page prints).
TEST(SoftmaxFlashV3, PageExample) {
  constexpr uint32_t m = 8, k = 1024;
  std::vector<float> x(m * k);
  for (uint32_t i = 0; i < m * k; ++i) {
    x[i] = RoundToHalf(20.0f * static_cast<float>(i) / (m * k - 1), false);
  }
  std::vector<RowIn> in(m);
  for (RowIn& r : in) r = {0.5, 0.5, 0.5};
  for (Form form : {Form::kShared, Form::kFramework}) {
    const Got got =
        RunCall(m, k, x, 0.9375f, true, 2, in, form, 4 * m * (k + 8));
    for (uint32_t r = 0; r < m; ++r) {
      ExpectRow(got, r, k,
                ReferenceRow(x.data() + r * k, k, 0.9375f, true, 2, in[r]),
                true);
      EXPECT_EQ(got.dst[r * k + k - 1], 1.0f) << "row " << r;
      for (uint32_t c = 1; c < k; ++c) {
        ASSERT_LE(got.dst[r * k + c - 1], got.dst[r * k + c]) << r << ", " << c;
      }
    }
  }
}

// ---- Bad uses -------------------------------------------------------------

constexpr SoftmaxConfig kNoCheck = {false, 0, 0,
                                    AscendC::SoftmaxMode::SOFTMAX_NORMAL};

class FlashV3BadUse : public ::testing::Test {
 protected:
  static constexpr uint32_t kM = 8, kK = 512;
  static constexpr uint32_t kWork = 4 * 2 * (kK + 8);
  SoftMaxTiling t{};
  V3Tensors ts{kM, kK, kWork};
  SoftMaxParams params{kM, kK, kM, kK, 1, 8, 0.9375f};
  FlashV3BadUse() {
    AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({kM, kK}), 2, 4, kWork, t,
                                      true);
  }
  // The call with sharedTmpBuffer, isUpdate true, and these params.
  void Call(const SoftMaxParams& p) {
    AscendC::SoftmaxFlashV3<half, float, true>(
        ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
        ts.in_sum, ts.in_max, ts.tmp, t, p);
  }
};

TEST(SoftmaxFlashV3BadUse, NotOnAtlasInferenceAICore) {
  constexpr uint32_t kM = 8, kK = 512, kWork = 4 * (kK + 8);
  const SoftMaxParams params{kM, kK, kM, kK, 1, 8, 0.9375f};
  const ProfileScope scope(Profile::k310P);
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({kM, kK}), 2, 4, kWork, tiling,
                                    true);
  V3Tensors v(kM, kK, kWork);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            v.dst, v.mean, v.exp_sum, v.max, v.src, v.exp_max, v.in_mean,
            v.in_sum, v.in_max, v.tmp, tiling, params);
      },
      "SoftmaxFlashV3: not available on profile Atlas inference series (310p): "
      "its page lists Atlas A2/A3 and Ascend 950 only"));
}

TEST_F(FlashV3BadUse, ReservedTemplateArguments) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true, false, false, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
            ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: isDataFormatNZ is true: normgrad supports the ND layout "
      "only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
            ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: isReuseSource is true: the parameter is reserved and "
      "must be false"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true, false, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
            ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: isBasicBlock is true: the parameter is reserved and "
      "must be false"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true, false, false, false,
                                kNoCheck>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
            ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: config is {isCheckTiling 0, oriSrcM 0, oriSrcK 0, mode "
      "0}: the parameter is reserved and must be SOFTMAX_DEFAULT_CFG"));
}

TEST_F(FlashV3BadUse, Placement) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src[8], ts.exp_max,
            ts.in_mean, ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: srcTensor LocalTensor starts at UB offset"));
}

TEST_F(FlashV3BadUse, Params) {
  struct Bad {
    SoftMaxParams p;
    const char* message;
  };
  const Bad bad[] = {
      {{12, kK, 12, kK, 1, 8, 0.9375f},
       "SoftmaxFlashV3: params.srcM is 12: the rows (m) must be a positive "
       "multiple of 8"},
      {{kM, 448, kM, 448, 1, 8, 0.9375f},
       "SoftmaxFlashV3: params.srcK is 448: the last axis (n) must be at least "
       "512 and a multiple of 64"},
      {{kM, 544, kM, 544, 1, 8, 0.9375f},
       "SoftmaxFlashV3: params.srcK is 544: the last axis (n) must be at least "
       "512 and a multiple of 64"},
      {{kM, kK, 7, kK, 1, 8, 0.9375f},
       "SoftmaxFlashV3: params.oriSrcM is 7 but srcM is 8: SoftmaxFlashV3 "
       "takes no padding, oriSrcM must equal srcM"},
      {{kM, kK, kM, 500, 1, 8, 0.9375f},
       "SoftmaxFlashV3: params.oriSrcK is 500 but srcK is 512: SoftmaxFlashV3 "
       "takes no padding, oriSrcK must equal srcK"},
      {{kM, kK, kM, kK, 1, 4, 0.9375f},
       "SoftmaxFlashV3: params.splitMeanCnt is 4: only 8 is supported"},
      {{kM, kK, kM, kK, 0, 8, 0.9375f},
       "SoftmaxFlashV3: params.loopCnt is 0: with isUpdate it counts the tiles "
       "the running mean covers and must be at least 1"},
      {{kM, kK, kM, kK, 1, 8, 1.0f},
       "SoftmaxFlashV3: params.alpha is 1: alpha / (1 - alpha) is inf, it must "
       "be finite"},
  };
  for (const Bad& b : bad) {
    EXPECT_TRUE(FailsWith([&] { Call(b.p); }, b.message));
  }
  // Without isUpdate loopCnt is not used.
  AscendC::SoftmaxFlashV3<half, float>(
      ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
      ts.in_sum, ts.in_max, ts.tmp, t, {kM, kK, kM, kK, 0, 8, 0.9375f});
}

TEST_F(FlashV3BadUse, Tiling) {
  const SoftMaxTiling good = t;
  t = {};
  EXPECT_TRUE(
      FailsWith([&] { Call(params); },
                "SoftmaxFlashV3: tiling.splitM is 0: the tiling is empty "
                "(SoftMaxFlashV3TilingFunc failed or was not called)"));
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({16, kK}), 2, 4, kWork, t, true);
  EXPECT_TRUE(FailsWith([&] { Call(params); },
                        "SoftmaxFlashV3: the tiling is for [16, 512] but "
                        "params is [8, 512]: make the tiling for the call's "
                        "shape"));
  t = good;
  t.rangeM = 5;
  EXPECT_TRUE(
      FailsWith([&] { Call(params); },
                "SoftmaxFlashV3: tiling.rangeM is 5, expected 4 (srcM / "
                "splitM): the tiling is inconsistent"));
}

TEST_F(FlashV3BadUse, LengthsAndScratch) {
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean[16], ts.exp_sum, ts.max, ts.src, ts.exp_max,
            ts.in_mean, ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: meanTensor holds 56 floats, fewer than the 64 it must "
      "hold (srcM rows of a 32-byte block)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max[32],
            ts.in_mean, ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3: expMaxTensor holds 112 halves, fewer than the 128"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
            ts.in_sum, ts.in_max, ts.tmp[32], t, params);
      },
      "SoftmaxFlashV3: sharedTmpBuffer holds 4128 bytes, fewer than the 4160 a "
      "chunk of tiling.splitM 2 rows needs"));
}

TEST_F(FlashV3BadUse, Overlaps) {
  // The page's pairs may be the same tensor, not a part of it.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.in_max[8], ts.src, ts.exp_max,
            ts.in_mean, ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "maxTensor may be inMaxTensor itself but must not overlap it partly"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.dst, ts.in_mean,
            ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3 writes dstTensor, so it must not share memory with "
      "another operand"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.in_sum, ts.exp_sum, ts.max, ts.src, ts.exp_max,
            ts.in_mean, ts.in_sum, ts.in_max, ts.tmp, t, params);
      },
      "SoftmaxFlashV3 writes meanTensor, so it must not share memory with "
      "another operand"));
  // The scratch shares memory with no operand.
  LocalTensor<uint8_t> src_bytes = ts.src.ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SoftmaxFlashV3<half, float, true>(
            ts.dst, ts.mean, ts.exp_sum, ts.max, ts.src, ts.exp_max, ts.in_mean,
            ts.in_sum, ts.in_max, src_bytes, t, params);
      },
      "SoftmaxFlashV3 writes sharedTmpBuffer, so it must not share memory "
      "with another operand"));
}

// ---- Host tiling ------------------------------------------------------------

TEST(SoftmaxFlashV3Tiling, SizesAndTiling) {
  // [16, 2048]: a row needs 4·(2048 + 8) = 8224 bytes; every row 16 times
  // that, 131584. [2, 4, 512] is 8 rows of 4·520 = 2080 bytes.
  uint32_t max_value = 1, min_value = 1;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({16, 2048}), 2, 4,
                                          max_value, min_value, true);
  EXPECT_EQ(max_value, 131584u);
  EXPECT_EQ(min_value, 8224u);
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({2, 4, 512}), 2, 4,
                                          max_value, min_value, false);
  EXPECT_EQ(max_value, 16640u);
  EXPECT_EQ(min_value, 2080u);
  // 5000 bytes hold two rows of [2, 4, 512]: splitM 2, four chunks.
  SoftMaxTiling kernel;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({2, 4, 512}), 2, 4, 5000, kernel,
                                    true);
  EXPECT_EQ(kernel.srcM, 8u);
  EXPECT_EQ(kernel.srcK, 512u);
  EXPECT_EQ(kernel.outMaxK, 8u);
  EXPECT_EQ(kernel.splitM, 2u);
  EXPECT_EQ(kernel.rangeM, 4u);
  EXPECT_EQ(kernel.tailM, 0u);
  optiling::SoftMaxTiling host;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({2, 4, 512}), 2, 4, 5000, host,
                                    true);
  std::vector<uint8_t> saved(host.GetDataSize());
  host.SaveToBuffer(saved.data(), saved.size());
  ASSERT_EQ(saved.size(), sizeof kernel);
  EXPECT_EQ(std::memcmp(saved.data(), &kernel, sizeof kernel), 0);
  // The minimum itself is enough: one row a chunk.
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({8, 512}), 2, 4, 2080, kernel,
                                    false);
  EXPECT_EQ(kernel.splitM, 1u);
}

TEST(SoftmaxFlashV3Tiling, BadInput) {
  struct Bad {
    std::vector<int64_t> shape;
    uint32_t size1, size2;
    bool basic;
    const char* message;
  };
  const Bad bad[] = {
      {{8, 512},
       4,
       4,
       false,
       "dataTypeSize1 4 is not supported: SoftmaxFlashV3's T is half, so it "
       "must be 2"},
      {{8, 512},
       2,
       2,
       false,
       "dataTypeSize2 2 is not supported: SoftmaxFlashV3's U is float, so it "
       "must be 4"},
      {{8, 512},
       2,
       4,
       true,
       "isBasicBlock is true: the parameter is reserved and must be false"},
      {{512}, 2, 4, false, "it must have at least two"},
      {{8, 256},
       2,
       4,
       false,
       "srcShape [8, 256] is [8, 256] rows: SoftmaxFlashV3 needs a last "
       "dimension of at least 512 and a multiple of 64, and rows a multiple "
       "of 8"},
      {{4, 512}, 2, 4, false, "rows a multiple of 8"},
      {{8, 528},
       2,
       4,
       false,
       "a last dimension of at least 512 and a multiple of 64"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.message);
    const ge::Shape shape(b.shape);
    uint32_t max_value = 1, min_value = 1;
    testing::internal::CaptureStderr();
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(shape, b.size1, b.size2, max_value,
                                            min_value, true, b.basic);
    tiling_test::ExpectOneMessage(testing::internal::GetCapturedStderr(),
                                  "GetSoftMaxFlashV3MaxMinTmpSize",
                                  {b.message, "maxValue and minValue are 0"});
    EXPECT_EQ(max_value, 0u);
    EXPECT_EQ(min_value, 0u);
    SoftMaxTiling kernel;
    kernel.splitM = 7;
    testing::internal::CaptureStderr();
    AscendC::SoftMaxFlashV3TilingFunc(shape, b.size1, b.size2, 1 << 20, kernel,
                                      true, b.basic);
    tiling_test::ExpectOneMessage(testing::internal::GetCapturedStderr(),
                                  "SoftMaxFlashV3TilingFunc",
                                  {b.message, "the tiling is zeroed"});
    EXPECT_EQ(kernel.splitM, 0u);
  }
  SoftMaxTiling kernel;
  testing::internal::CaptureStderr();
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({8, 512}), 2, 4, 2079, kernel,
                                    true);
  tiling_test::ExpectOneMessage(
      testing::internal::GetCapturedStderr(), "SoftMaxFlashV3TilingFunc",
      {"localWorkSpaceSize 2079 bytes is less than the minimum 2080"});
  EXPECT_EQ(kernel.splitM, 0u);
}

}  // namespace
