// matmul_batch_test.cc — the Matmul object's batches (docs/matmul.md,
// "Batches"), called from a vector core as a mixed kernel does (no
// ASCENDC_CUBE_ONLY): IterateBatch in the NORMAL, BSNGD, SBNGD and BNGS1S2
// layouts, batch counts in ratios (consecutive batches share the fewer
// matrices), G broadcast and C's G reduction, tails in M, N and K, the bias
// per batch, C into the UB, IterateNBatch with GetBatchTensorC and
// GetBatchC, then every refusal's message.
//
// The reference is written here from the layouts' definitions (each
// element's place in the five-axis tensor, not the object's offsets) and
// sums in double; the inputs are small integers, so every float sum is
// exact and the results must match bit for bit.
//
// Extending: one TEST per behaviour; a new refusal gets a FailsWith line
// with its message.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_test_support.h"

namespace {

using matmul_test::Gm;
using matmul_test::Tiling;

using AscendC::CubeFormat;
using AscendC::GlobalTensor;
using AscendC::LayoutMode;
using AscendC::LocalTensor;
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

// Integers in [-3, 3] (bias: [-8, 8]): products and sums stay exact.
std::vector<half> SmallInts(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(-3, 3);
  std::vector<half> v(count);
  for (half& x : v) x = half(static_cast<float>(pick(rng)));
  return v;
}
std::vector<float> SmallBias(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(-8, 8);
  std::vector<float> v(count);
  for (float& x : v) x = static_cast<float>(pick(rng));
  return v;
}

// One core's tiling of an m × n × k matrix, bases of 16.
TCubeTiling Tiling(int m, int n, int k, bool bias) {
  return matmul_test::Tiling(m, n, k, 16, 16, 16, bias);
}

struct Axes {
  int b, s, n, g, d;
};

void SetLayouts(TCubeTiling& t, Axes a, Axes b, Axes c, int batch_num) {
  t.ALayoutInfoB = a.b, t.ALayoutInfoS = a.s, t.ALayoutInfoN = a.n;
  t.ALayoutInfoG = a.g, t.ALayoutInfoD = a.d;
  t.BLayoutInfoB = b.b, t.BLayoutInfoS = b.s, t.BLayoutInfoN = b.n;
  t.BLayoutInfoG = b.g, t.BLayoutInfoD = b.d;
  t.CLayoutInfoB = c.b, t.CLayoutInfoS1 = c.s, t.CLayoutInfoN = c.n;
  t.CLayoutInfoG = c.g, t.CLayoutInfoS2 = c.d;
  t.BatchNum = batch_num;
}

// Element (b, s, n, g, d)'s index in each layout, from the axis order its
// name spells.
size_t Bsngd(const Axes& x, int b, int s, int n, int g, int d) {
  return ((((size_t{1} * b * x.s + s) * x.n + n) * x.g + g) * x.d) + d;
}
size_t Sbngd(const Axes& x, int b, int s, int n, int g, int d) {
  return ((((size_t{1} * s * x.b + b) * x.n + n) * x.g + g) * x.d) + d;
}
size_t Bngs1s2(const Axes& x, int b, int s, int n, int g, int d) {
  return ((((size_t{1} * b * x.n + n) * x.g + g) * x.s + s) * x.d) + d;
}
using Place = size_t (*)(const Axes&, int, int, int, int, int);

using HalfNormal =
    MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using FloatNormal =
    MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
using FloatBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// ---- NORMAL ----------------------------------------------------------------

TEST(MatmulBatch, NormalRatiosShareConsecutiveBatches) {
  // 20 × 24 × 40 with bases of 16: tails in M, N and K. For each pair of
  // counts, batch c takes A's matrix c / (batches / batchA) and B's
  // c / (batches / batchB); A's matrices lie 8 elements apart.
  const int m = 20, n = 24, k = 40, gap = 8;
  const std::pair<uint32_t, uint32_t> counts[] = {{4, 2}, {2, 4}, {3, 3},
                                                  {1, 3}, {3, 1}, {6, 3}};
  for (const auto& [ba, bb] : counts) {
    const uint32_t batches = std::max(ba, bb);
    std::vector<half> a = SmallInts(size_t{1} * ba * (m * k + gap), ba);
    std::vector<half> b = SmallInts(size_t{1} * bb * k * n, 10 + bb);
    std::vector<float> bias = SmallBias(size_t{1} * batches * n, 3);
    std::vector<float> c(size_t{1} * batches * m * n, -1.0f);
    const TCubeTiling tiling = Tiling(m, n, k, true);
    TPipe pipe;
    Matmul<HalfNormal, HalfNormal, FloatNormal, FloatBias> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    mm.SetBias(Gm(bias));
    mm.IterateBatch(Gm(c), ba, bb, false, m * k + gap);
    mm.WaitIterateBatch();
    for (uint32_t bt = 0; bt < batches; ++bt) {
      const size_t ia = bt / (batches / ba), ib = bt / (batches / bb);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          double want = bias[bt * n + j];
          for (int p = 0; p < k; ++p) {
            want += double(float(a[ia * (m * k + gap) + i * k + p])) *
                    double(float(b[ib * k * n + p * n + j]));
          }
          ASSERT_EQ(c[(bt * m + i) * n + j], want)
              << "batchA " << ba << ", batchB " << bb << ", batch " << bt
              << " at (" << i << ", " << j << ")";
        }
      }
    }
  }
}

constexpr AscendC::MatmulConfig kSharedBiasConfig = [] {
  AscendC::MatmulConfig config = AscendC::GetNormalConfig();
  config.isBiasBatch = false;
  return config;
}();

TEST(MatmulBatch, AsyncSharedBiasAndAtomicAdd) {
  // The asynchronous form with WaitIterateBatch, isBiasBatch false (one
  // bias row for every batch) and enAtomic 1 (C added to what GM holds).
  const int m = 20, n = 24, k = 40, batches = 2;
  std::vector<half> a = SmallInts(size_t{1} * batches * m * k, 91);
  std::vector<half> b = SmallInts(size_t{1} * batches * k * n, 92);
  std::vector<float> bias = SmallBias(n, 93);
  std::vector<float> c(size_t{1} * batches * m * n, 5.0f);
  const TCubeTiling tiling = Tiling(m, n, k, true);
  TPipe pipe;
  Matmul<HalfNormal, HalfNormal, FloatNormal, FloatBias, kSharedBiasConfig> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(Gm(bias));
  mm.IterateBatch<false>(Gm(c), batches, batches, false, 0, 0, 0, false, 1);
  mm.WaitIterateBatch();
  for (int bt = 0; bt < batches; ++bt) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double want = 5.0 + bias[j];
        for (int p = 0; p < k; ++p) {
          want += double(float(a[(size_t{1} * bt * m + i) * k + p])) *
                  double(float(b[(size_t{1} * bt * k + p) * n + j]));
        }
        ASSERT_EQ(c[(size_t{1} * bt * m + i) * n + j], want)
            << "batch " << bt << " at (" << i << ", " << j << ")";
      }
    }
  }
}

TEST(MatmulBatch, IterateBatchIntoTheUb) {
  // C at VECIN: the batches one after another in the vector core's UB.
  const int m = 20, n = 24, k = 40, batches = 3;
  using FloatUb = MatmulType<TPosition::VECIN, CubeFormat::ND, float, false,
                             LayoutMode::NORMAL>;
  std::vector<half> a = SmallInts(size_t{1} * batches * m * k, 5);
  std::vector<half> b = SmallInts(size_t{1} * k * n, 6);
  const TCubeTiling tiling = Tiling(m, n, k, false);
  TPipe pipe;
  Matmul<HalfNormal, HalfNormal, FloatUb, FloatBias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::VECIN> buf;
  pipe.InitBuffer(buf, batches * m * n * sizeof(float));
  const LocalTensor<float> ub = buf.Get<float>();
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.IterateBatch(ub, batches, 1, true);
  for (int bt = 0; bt < batches; ++bt) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double want = 0;
        for (int p = 0; p < k; ++p) {
          want += double(float(a[(size_t{1} * bt * m + i) * k + p])) *
                  double(float(b[p * n + j]));
        }
        ASSERT_EQ(ub.GetValue((bt * m + i) * n + j), want)
            << "batch " << bt << " at (" << i << ", " << j << ")";
      }
    }
  }
}

// ---- The layouts -----------------------------------------------------------

// Checks C against the reference: batch (b, n, g) over the larger G axis,
// A's and B's G shared by consecutive g, C's G summing consecutive g; A
// [S, D] = [M, K] (or [K, M] transposed), B [K, N] (or [N, K]).
void CheckLayouts(const std::vector<float>& c, const std::vector<half>& a,
                  const std::vector<half>& b, const std::vector<float>* bias,
                  Axes ax, Axes bx, Axes cx, Place pa, Place pb, Place pc,
                  bool trans_a, bool trans_b, int m, int n, int k) {
  const int g_all = std::max(ax.g, bx.g);
  std::vector<double> want(c.size(), 0.0);
  std::vector<bool> biased(c.size(), false);
  for (int bb = 0; bb < cx.b; ++bb) {
    for (int nn = 0; nn < cx.n; ++nn) {
      for (int g = 0; g < g_all; ++g) {
        const int ga = g / (g_all / ax.g), gb = g / (g_all / bx.g);
        const int gc = g / (g_all / cx.g);
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) {
            double sum = 0;
            for (int p = 0; p < k; ++p) {
              const size_t ea =
                  trans_a ? pa(ax, bb, p, nn, ga, i) : pa(ax, bb, i, nn, ga, p);
              const size_t eb =
                  trans_b ? pb(bx, bb, j, nn, gb, p) : pb(bx, bb, p, nn, gb, j);
              sum += double(float(a[ea])) * double(float(b[eb]));
            }
            const size_t ec = pc(cx, bb, i, nn, gc, j);
            want[ec] += sum;
            if (bias != nullptr && !biased[ec]) {
              biased[ec] = true;
              want[ec] +=
                  (*bias)[((size_t{1} * bb * cx.n + nn) * cx.g + gc) * n + j];
            }
          }
        }
      }
    }
  }
  for (size_t e = 0; e < c.size(); ++e) {
    ASSERT_EQ(c[e], want[e]) << "C element " << e;
  }
}

TEST(MatmulBatch, BsngdInputsIntoBngs1s2) {
  // A [B, S=M, N, G, D=K], B transposed [B, S=N, N, G, D=K] (the page's
  // attention example), C [B, N, G, S1=M, S2=N]. One call per B: batchA =
  // batchB = N · G; the kernel moves each call's start to its B.
  const int m = 20, n = 24, k = 40;
  const Axes ax{2, m, 2, 2, k}, bx{2, n, 2, 2, k}, cx{2, m, 2, 2, n};
  using A =
      MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
  using B =
      MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                       LayoutMode::BNGS1S2>;
  std::vector<half> a = SmallInts(size_t{1} * 2 * m * 4 * k, 21);
  std::vector<half> b = SmallInts(size_t{1} * 2 * n * 4 * k, 22);
  std::vector<float> bias = SmallBias(size_t{1} * 2 * 4 * n, 23);
  std::vector<float> c(size_t{1} * 2 * 4 * m * n, -1.0f);
  TCubeTiling tiling = Tiling(m, n, k, true);
  SetLayouts(tiling, ax, bx, cx, 4);
  TPipe pipe;
  Matmul<A, B, C, FloatBias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  for (int call = 0; call < 2; ++call) {
    mm.SetTensorA(Gm(a)[size_t{1} * call * m * 4 * k]);
    mm.SetTensorB(Gm(b)[size_t{1} * call * n * 4 * k], true);
    mm.SetBias(Gm(bias)[size_t{1} * call * 4 * n]);
    mm.IterateBatch(Gm(c)[size_t{1} * call * 4 * m * n], 4, 4, false);
  }
  CheckLayouts(c, a, b, &bias, ax, bx, cx, Bsngd, Bsngd, Bngs1s2, false, true,
               m, n, k);
}

TEST(MatmulBatch, SbngdBroadcastsBAlongG) {
  // A's G is 4, B's 2: each B matrix serves two consecutive A matrices
  // (batchA 4, batchB 2 per call, one call per B). C is SBNGD too.
  const int m = 20, n = 24, k = 40;
  const Axes ax{2, m, 1, 4, k}, bx{2, k, 1, 2, n}, cx{2, m, 1, 4, n};
  using A =
      MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::SBNGD>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                       LayoutMode::SBNGD>;
  std::vector<half> a = SmallInts(size_t{1} * m * 2 * 4 * k, 31);
  std::vector<half> b = SmallInts(size_t{1} * k * 2 * 2 * n, 32);
  std::vector<float> c(size_t{1} * m * 2 * 4 * n, -1.0f);
  TCubeTiling tiling = Tiling(m, n, k, false);
  SetLayouts(tiling, ax, bx, cx, 4);
  TPipe pipe;
  Matmul<A, A, C, FloatBias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  for (int call = 0; call < 2; ++call) {  // in SBNGD, batches are D apart
    mm.SetTensorA(Gm(a)[size_t{1} * call * 4 * k]);
    mm.SetTensorB(Gm(b)[size_t{1} * call * 2 * n]);
    mm.IterateBatch(Gm(c)[size_t{1} * call * 4 * n], 4, 2, false);
  }
  CheckLayouts(c, a, b, nullptr, ax, bx, cx, Sbngd, Sbngd, Sbngd, false, false,
               m, n, k);
}

TEST(MatmulBatch, Bngs1s2ReducesCAlongG) {
  // C's G is 1 while A's and B's are 2: C = A0 · B0 + A1 · B1 + bias (the
  // bias once), the second product added to the first in GM.
  const int m = 20, n = 24, k = 40;
  const Axes ax{1, m, 1, 2, k}, bx{1, k, 1, 2, n}, cx{1, m, 1, 1, n};
  using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false,
                       LayoutMode::BNGS1S2>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                       LayoutMode::BNGS1S2>;
  std::vector<half> a = SmallInts(size_t{1} * 2 * m * k, 41);
  std::vector<half> b = SmallInts(size_t{1} * 2 * k * n, 42);
  std::vector<float> bias = SmallBias(n, 43);
  std::vector<float> c(size_t{1} * m * n, -1.0f);
  TCubeTiling tiling = Tiling(m, n, k, true);
  SetLayouts(tiling, ax, bx, cx, 2);
  TPipe pipe;
  Matmul<A, A, C, FloatBias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(Gm(bias));
  mm.IterateBatch(Gm(c), 2, 2, false);
  CheckLayouts(c, a, b, &bias, ax, bx, cx, Bngs1s2, Bngs1s2, Bngs1s2, false,
               false, m, n, k);
}

// ---- IterateNBatch ---------------------------------------------------------

constexpr AscendC::MatmulConfig kNBatchConfig =
    AscendC::GetNormalConfig(false, true);  // batchLoop: isNBatch

TEST(MatmulBatch, IterateNBatchFillsTheWorkspaceLoopByLoop) {
  // Three loops of batchA 2, batchB 1 over NORMAL matrices: loop l takes
  // A's matrices 2l, 2l + 1 and B's matrix l. GetBatchTensorC hands out
  // the loops in order; GetBatchC copies them into the UB.
  const int m = 20, n = 24, k = 40, loops = 3;
  std::vector<half> a = SmallInts(size_t{1} * loops * 2 * m * k, 51);
  std::vector<half> b = SmallInts(size_t{1} * loops * k * n, 52);
  std::vector<float> workspace(size_t{1} * loops * 2 * m * n, -1.0f);
  const TCubeTiling tiling = Tiling(m, n, k, false);
  TPipe pipe;
  Matmul<HalfNormal, HalfNormal, FloatNormal, FloatBias, kNBatchConfig> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TBuf<TPosition::VECIN> buf;
  pipe.InitBuffer(buf, 2 * m * n * sizeof(float));
  const LocalTensor<float> ub = buf.Get<float>();
  auto want = [&](int loop, int bt, int i, int j) {
    double sum = 0;
    for (int p = 0; p < k; ++p) {
      sum += double(float(a[((size_t{1} * loop * 2 + bt) * m + i) * k + p])) *
             double(float(b[(size_t{1} * loop * k + p) * n + j]));
    }
    return sum;
  };
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetWorkspace(Gm(workspace));
  mm.IterateNBatch<false>(loops, 2, 1, false);
  for (int loop = 0; loop < loops; ++loop) {
    const GlobalTensor<float> slice = mm.GetBatchTensorC<false>(2, 1);
    ASSERT_EQ(slice.GetSize(), size_t{1} * 2 * m * n);
    for (int bt = 0; bt < 2; ++bt) {
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          ASSERT_EQ(slice.GetValue((bt * m + i) * n + j), want(loop, bt, i, j))
              << "loop " << loop << ", batch " << bt;
        }
      }
    }
  }
  mm.IterateNBatch(loops, 2, 1, false);
  mm.WaitIterateBatch();
  for (int loop = 0; loop < loops; ++loop) {
    mm.GetBatchC(ub, 2, 1);
    for (int bt = 0; bt < 2; ++bt) {
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          ASSERT_EQ(ub.GetValue((bt * m + i) * n + j), want(loop, bt, i, j))
              << "loop " << loop << ", batch " << bt;
        }
      }
    }
  }
  EXPECT_TRUE(FailsWith(
      [&] { mm.GetBatchC(2, 1); },
      "Matmul::GetBatchC: no IterateNBatch result left (3 loops computed, 3 "
      "taken)"));
}

TEST(MatmulBatch, IterateNBatchWalksBsngdAcrossB) {
  // BSNGD with B 2, N 1, G 2: loop l takes the two (N, G) matrices of B
  // index l, so the second loop starts a whole S · N · G · D further on.
  const int m = 20, n = 24, k = 40;
  const Axes ax{2, m, 1, 2, k}, bx{2, k, 1, 2, n}, cx{2, m, 1, 2, n};
  using A =
      MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                       LayoutMode::BNGS1S2>;
  std::vector<half> a = SmallInts(size_t{1} * 2 * m * 2 * k, 71);
  std::vector<half> b = SmallInts(size_t{1} * 2 * k * 2 * n, 72);
  std::vector<float> workspace(size_t{1} * 2 * 2 * m * n, -1.0f);
  TCubeTiling tiling = Tiling(m, n, k, false);
  SetLayouts(tiling, ax, bx, cx, 2);
  TPipe pipe;
  Matmul<A, A, C, FloatBias, kNBatchConfig> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetWorkspace(Gm(workspace));
  mm.IterateNBatch(2, 2, 2, false);
  // The workspace holds the batches (b, g) one after another: BNGS1S2's
  // order with N 1.
  CheckLayouts(workspace, a, b, nullptr, ax, bx, cx, Bsngd, Bsngd, Bngs1s2,
               false, false, m, n, k);
}

TEST(MatmulBatch, IterateNBatchPadsNdAlignRows) {
  // C in ND_ALIGN with N 20 floats: each row of the workspace takes 24
  // (whole 32-byte blocks), the padding left as it was.
  const int m = 20, n = 20, k = 40;
  using FloatAlign = MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, float,
                                false, LayoutMode::NORMAL>;
  std::vector<half> a = SmallInts(size_t{1} * 2 * m * k, 81);
  std::vector<half> b = SmallInts(size_t{1} * 2 * k * n, 82);
  std::vector<float> workspace(size_t{1} * 2 * m * 24, -1.0f);
  const TCubeTiling tiling = Tiling(m, n, k, false);
  TPipe pipe;
  Matmul<HalfNormal, HalfNormal, FloatAlign, FloatBias, kNBatchConfig> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetWorkspace(Gm(workspace));
  mm.IterateNBatch(1, 2, 2, false);
  const GlobalTensor<float> slice = mm.GetBatchC(2, 2);
  ASSERT_EQ(slice.GetSize(), size_t{1} * 2 * m * 24);
  for (int bt = 0; bt < 2; ++bt) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < 24; ++j) {
        double want = -1.0;
        if (j < n) {
          want = 0;
          for (int p = 0; p < k; ++p) {
            want += double(float(a[(size_t{1} * bt * m + i) * k + p])) *
                    double(float(b[(size_t{1} * bt * k + p) * n + j]));
          }
        }
        ASSERT_EQ(slice.GetValue((bt * m + i) * 24 + j), want)
            << "batch " << bt << " at (" << i << ", " << j << ")";
      }
    }
  }
}

// ---- Refusals --------------------------------------------------------------

TEST(MatmulBatch, RefusalsNameTheRule) {
  const int m = 20, n = 24, k = 40;
  std::vector<half> a = SmallInts(size_t{1} * 8 * m * k, 61);
  std::vector<half> b = SmallInts(size_t{1} * 8 * k * n, 62);
  std::vector<float> c(size_t{1} * 8 * m * n);
  {
    TCubeTiling tiling = Tiling(m, n, k, false);
    tiling.BatchNum = 4;
    TPipe pipe;
    Matmul<HalfNormal, HalfNormal, FloatNormal, FloatBias, kNBatchConfig> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith([&] { mm.IterateBatch(Gm(c), 3, 2, false); },
                          "Matmul::IterateBatch: batchA 3 and batchB 2 must be "
                          "equal, or one a multiple of the other"));
    EXPECT_TRUE(FailsWith(
        [&] { mm.IterateBatch(Gm(c), 6, 3, false); },
        "Matmul::IterateBatch: max(batchA, batchB) 6 exceeds the tiling's "
        "BatchNum 4"));
    EXPECT_TRUE(FailsWith([&] { mm.IterateNBatch(2, 2, 2, false); },
                          "Matmul::IterateNBatch: no workspace; call "
                          "SetWorkspace first"));
    std::vector<float> small(100);
    mm.SetWorkspace(Gm(small));
    EXPECT_TRUE(FailsWith(
        [&] { mm.IterateNBatch(2, 2, 2, false); },
        "Matmul::IterateNBatch: the workspace holds 100 elements of float; "
        "batchLoop 2 x max(batchA, batchB) 2 x singleCoreM 20 x 24 (a row) = "
        "1920 are written"));
    EXPECT_TRUE(FailsWith([&] { mm.GetBatchTensorC<false>(2, 2); },
                          "Matmul::GetBatchTensorC: no IterateNBatch result "
                          "left (0 loops computed, 0 taken)"));
    std::vector<float> workspace(size_t{1} * 2 * 2 * m * n);
    mm.SetWorkspace(Gm(workspace));
    mm.IterateNBatch(2, 2, 2, false);
    EXPECT_TRUE(FailsWith([&] { mm.GetBatchTensorC<false>(2, 1); },
                          "Matmul::GetBatchTensorC: batchA 2 and batchB 1 "
                          "differ from IterateNBatch's 2 and 2"));
  }
  {  // C into the UB: rows of whole 32-byte blocks, room for every batch
    using FloatUb = MatmulType<TPosition::VECIN, CubeFormat::ND, float, false,
                               LayoutMode::NORMAL>;
    TPipe pipe;
    AscendC::TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, 2 * m * n * sizeof(float));
    const LocalTensor<float> ub = buf.Get<float>();
    const TCubeTiling wide = Tiling(m, n, k, false);
    Matmul<HalfNormal, HalfNormal, FloatUb, FloatBias> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &wide);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith(
        [&] { mm.IterateBatch(ub, 3, 3, true); },
        "Matmul::IterateBatch: ubCmatrix holds 960 elements; max(batchA, "
        "batchB) 3 batches of singleCoreM 20 x singleCoreN 24 are 1440"));
    mm.SetTail(-1, 20);
    EXPECT_TRUE(FailsWith(
        [&] { mm.IterateBatch(ub, 1, 1, true); },
        "Matmul::IterateBatch: singleCoreN 20 of float is not a whole number "
        "of 32-byte blocks; batches in the UB have rows of whole blocks"));
  }
  {  // C's G sums two batches: a call of one batch would split the sum
    using A3 = MatmulType<TPosition::GM, CubeFormat::ND, half, false,
                          LayoutMode::BNGS1S2>;
    using C3 = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                          LayoutMode::BNGS1S2>;
    TCubeTiling tiling = Tiling(m, n, k, false);
    SetLayouts(tiling, {1, m, 1, 2, k}, {1, k, 1, 2, n}, {1, m, 1, 1, n}, 2);
    TPipe pipe;
    Matmul<A3, A3, C3, FloatBias> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith(
        [&] { mm.IterateBatch(Gm(c), 1, 1, false); },
        "Matmul::IterateBatch: C's G axis (CLayoutInfoG 1) sums 2 batches "
        "into one C, but the call has max(batchA, batchB) 1; a call covers "
        "whole sums"));
  }
  using A =
      MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
  using CB = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                        LayoutMode::BSNGD>;
  {  // a layout without its axes in the tiling
    const TCubeTiling tiling = Tiling(m, n, k, false);
    TPipe pipe;
    Matmul<A, A, CB, FloatBias> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith(
        [&] { mm.IterateBatch(Gm(c), 2, 2, false); },
        "Matmul::IterateBatch: A_TYPE's layout is BSNGD, but the tiling has "
        "no layout axes (ALayoutInfoB 0)"));
  }
  TCubeTiling tiling = Tiling(m, n, k, false);
  SetLayouts(tiling, {1, m, 3, 2, k}, {1, k, 3, 2, n}, {1, m, 3, 2, n}, 6);
  TPipe pipe;
  Matmul<A, A, CB, FloatBias> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  EXPECT_TRUE(FailsWith(
      [&] { mm.IterateBatch(Gm(c), 2, 1, false); },
      "Matmul::IterateBatch: ALayoutInfoG / batchA (2 / 2) differs from "
      "BLayoutInfoG / batchB (2 / 1)"));
  EXPECT_TRUE(FailsWith(
      [&] { mm.IterateBatch(Gm(c), 4, 4, false); },
      "Matmul::IterateBatch: in BSNGD, ALayoutInfoN * ALayoutInfoG = 6 must "
      "be a multiple of batchA 4"));
  EXPECT_TRUE(FailsWith(
      [&] { mm.IterateBatch(Gm(c), 2, 2, true); },
      "Matmul::IterateBatch: enSequentialWrite is true, but C's layout BSNGD "
      "has no sequential write"));
  mm.SetSingleShape(m, n, k);
  TCubeTiling narrow = tiling;
  narrow.ALayoutInfoD = 32;  // rows of 32 elements cannot hold K = 40
  mm.Init(&narrow);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  EXPECT_TRUE(FailsWith(
      [&] { mm.IterateBatch(Gm(c), 2, 2, false); },
      "Matmul::IterateBatch: singleCoreK 40 exceeds the tiling's "
      "ALayoutInfoD 32; a batch's matrix in the layout holds the single "
      "shape"));
}

}  // namespace
