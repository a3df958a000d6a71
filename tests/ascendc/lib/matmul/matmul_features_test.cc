// matmul_features_test.cc — the Matmul feature scenarios of the
// programming guide (docs/matmul.md, "Features"): GEMV (A in
// CubeFormat::VECTOR, M = 1), Partial Output (MatmulConfig's
// isPartialOutput with the MDL template: one K step per Iterate, not
// accumulated), the DataCopyOut callback (the kernel moves C out of L0C)
// and the channel split (float C in NZ of 16 x 8 fractals), each against a
// float64 reference written here, exact with small-integer fills, with
// tails in M, N and K; then each refusal's message.
//
// Extending: one TEST per behaviour; a new refusal gets a FailsWith line
// with its message. Tests run on the calling thread's core made a cube core
// by the fixture, as a kernel's KERNEL_TASK_TYPE_DEFAULT does.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "lib/matmul/matmul_intf.h"
#include "matmul_test_support.h"

namespace {

using matmul_test::Gm;
using matmul_test::Tiling;

using AscendC::CubeFormat;
using AscendC::GlobalTensor;
using AscendC::Matmul;
using AscendC::MatmulConfig;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

using MatmulFeaturesTest = matmul_test::CubeCoreTest;

// Small integers (-4 to 4) as half: every product and partial sum below is
// an exact float, so the cube's result equals the float64 one.
std::vector<half> SmallInts(int count, int seed) {
  std::vector<half> v;
  for (int i = 0; i < count; ++i) {
    v.push_back(half(static_cast<float>((i * 7 + seed * 13) % 9 - 4)));
  }
  return v;
}

// C[i][j] = bias[j] + Σ_{k0 ≤ p < k1} A[i][p] · B[p][j] in float64; A is
// [m, k], B [k, n].
std::vector<double> Reference(const std::vector<half>& a,
                              const std::vector<half>& b,
                              const std::vector<float>* bias, int m, int n,
                              int k, int k0, int k1) {
  std::vector<double> c(size_t{1} * m * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double acc = bias != nullptr ? (*bias)[j] : 0.0;
      for (int p = k0; p < k1; ++p) {
        acc +=
            static_cast<double>(static_cast<float>(a[size_t{1} * i * k + p])) *
            static_cast<float>(b[size_t{1} * p * n + j]);
      }
      c[size_t{1} * i * n + j] = acc;
    }
  }
  return c;
}

using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using HalfVector = MatmulType<TPosition::GM, CubeFormat::VECTOR, half>;
using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// ---- GEMV ------------------------------------------------------------------

TEST_F(MatmulFeaturesTest, GemvMultipliesOneRowWithBias) {
  // The guide's shape (K 256, N 32) and one with tails in N and K.
  const int shapes[][5] = {{256, 32, 16, 32, 64}, {70, 40, 16, 32, 32}};
  for (const auto& s : shapes) {
    const int k = s[0], n = s[1];
    std::vector<half> a = SmallInts(k, 1), b = SmallInts(k * n, 2);
    std::vector<float> bias;
    for (int j = 0; j < n; ++j) bias.push_back(static_cast<float>(j % 5 - 2));
    std::vector<float> c(n, -1.0f);
    const TCubeTiling tiling = Tiling(1, n, k, s[2], s[3], s[4], true);
    TPipe pipe;
    Matmul<HalfVector, HalfGm, FloatGm, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    mm.SetBias(Gm(bias));
    mm.IterateAll(Gm(c));
    mm.End();
    const std::vector<double> want = Reference(a, b, &bias, 1, n, k, 0, k);
    for (int j = 0; j < n; ++j) {
      ASSERT_EQ(static_cast<double>(c[j]), want[j]) << "K " << k << " n " << j;
    }
  }
}

TEST_F(MatmulFeaturesTest, GemvIterateWritesEachBlock) {
  const int k = 48, n = 40;  // blocks of 16 columns, the last 8 wide
  std::vector<half> a = SmallInts(k, 3), b = SmallInts(k * n, 4);
  std::vector<float> c(n, -1.0f);
  const TCubeTiling tiling = Tiling(1, n, k, 16, 16, 32, false);
  TPipe pipe;
  Matmul<HalfVector, HalfGm, FloatGm, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  int blocks = 0;
  while (mm.Iterate()) {
    mm.GetTensorC(Gm(c));
    ++blocks;
  }
  EXPECT_EQ(blocks, 3);
  const std::vector<double> want = Reference(a, b, nullptr, 1, n, k, 0, k);
  for (int j = 0; j < n; ++j) ASSERT_EQ(static_cast<double>(c[j]), want[j]);
}

TEST_F(MatmulFeaturesTest, GemvInt8IsExactInInt32) {
  // int8_t A (one row) by int8_t B into int32_t with an int32_t bias; K
  // with a tail of the 32-element C0, N with a tail of the base.
  const int k = 100, n = 40;
  std::vector<int8_t> a, b;
  for (int p = 0; p < k; ++p)
    a.push_back(static_cast<int8_t>(p * 37 % 255 - 127));
  for (int i = 0; i < k * n; ++i) {
    b.push_back(static_cast<int8_t>(i * 53 % 255 - 127));
  }
  std::vector<int32_t> bias, c(n, -1);
  for (int j = 0; j < n; ++j) bias.push_back(j * 1000 - 20000);
  using I8Vector = MatmulType<TPosition::GM, CubeFormat::VECTOR, int8_t>;
  using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  const TCubeTiling tiling = Tiling(1, n, k, 16, 32, 64, true);
  TPipe pipe;
  Matmul<I8Vector, I8, I32, I32> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(Gm(bias));
  mm.IterateAll(Gm(c));
  for (int j = 0; j < n; ++j) {
    int64_t want = bias[j];
    for (int p = 0; p < k; ++p)
      want += int64_t{a[p]} * b[size_t{1} * p * n + j];
    ASSERT_EQ(c[j], want) << "column " << j;
  }
}

TEST_F(MatmulFeaturesTest, GemvRefusals) {
  const int k = 32, n = 16;
  std::vector<half> a = SmallInts(2 * k + 8, 1), b = SmallInts(k * n, 2);
  std::vector<float> c(2 * n);
  {
    // M of 2 with A in VECTOR.
    const TCubeTiling tiling = Tiling(2, n, k, 16, 16, 32, false);
    TPipe pipe;
    Matmul<HalfVector, HalfGm, FloatGm, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                          "Matmul::IterateAll: orgM is 2; A in "
                          "CubeFormat::VECTOR (GEMV) is one row, so M must "
                          "be 1"));
  }
  {
    // A starting 2 bytes past a 16-byte boundary (the vector's data is
    // 32-byte aligned, one half further is not).
    const TCubeTiling tiling = Tiling(1, n, k, 16, 16, 32, false);
    TPipe pipe;
    Matmul<HalfVector, HalfGm, FloatGm, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    GlobalTensor<half> whole = Gm(a);
    EXPECT_TRUE(FailsWith([&] { mm.SetTensorA(whole[1]); },
                          "which is not 16-byte aligned; a vector A in GM is "
                          "16-byte aligned"));
  }
  {
    // B in VECTOR: only A takes that format.
    using HalfVectorB = MatmulType<TPosition::GM, CubeFormat::VECTOR, half>;
    const TCubeTiling tiling = Tiling(1, n, k, 16, 16, 32, false);
    TPipe pipe;
    Matmul<HalfGm, HalfVectorB, FloatGm, FloatGm> mm;
    EXPECT_TRUE(
        FailsWith([&] { mm.Init(&tiling, &pipe); },
                  "Matmul::Init: B_TYPE in GM with format 7 is not emulated "
                  "yet; A is read as ND, NZ or VECTOR, B as ND or NZ"));
  }
}

// ---- Partial Output --------------------------------------------------------

constexpr AscendC::MatmulFuncParams kPartialParams = {
    false,
    false,
    false,
    false,
    0,
    AscendC::IterateOrder::UNDEF,
    AscendC::ScheduleType::INNER_PRODUCT,
    true,
    true,
    true /* partial */};
constexpr MatmulConfig CFG_PARTIAL =
    AscendC::GetMMConfig<AscendC::MatmulConfigMode::CONFIG_MDL>(kPartialParams);
using PartialMatmul = Matmul<HalfGm, HalfGm, FloatGm, FloatGm, CFG_PARTIAL>;

TEST_F(MatmulFeaturesTest, PartialOutputGivesEachKStepAlone) {
  static_assert(CFG_PARTIAL.isPartialOutput && CFG_PARTIAL.doMultiDataLoad);
  // 2 × 2 blocks of 16 × 16 (tails 8 in M and N), K 100 in steps of 32
  // (the last 4): 16 Iterates, each block's steps one after another.
  const int m = 24, n = 24, k = 100, bm = 16, bn = 16, bk = 32;
  std::vector<half> a = SmallInts(m * k, 5), b = SmallInts(k * n, 6);
  const int steps = (k + bk - 1) / bk;
  std::vector<float> out(size_t{4} * steps * bm * bn, -7.0f);
  const TCubeTiling tiling = Tiling(m, n, k, bm, bn, bk, false);
  TPipe pipe;
  PartialMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  GlobalTensor<float> c = Gm(out);
  uint64_t dst = 0;
  int iterates = 0;
  while (mm.Iterate()) {
    mm.GetTensorC(c[dst], 0, true);
    dst += bm * bn;
    ++iterates;
  }
  ASSERT_EQ(iterates, 4 * steps);
  EXPECT_FALSE(mm.Iterate());  // stays done
  // iterateOrder 0: blocks along M first.
  int at = 0;
  for (int bj = 0; bj < 2; ++bj) {
    for (int bi = 0; bi < 2; ++bi) {
      for (int s = 0; s < steps; ++s, ++at) {
        const int k0 = s * bk, k1 = std::min(k, k0 + bk);
        const std::vector<double> want =
            Reference(a, b, nullptr, m, n, k, k0, k1);
        const int rows = std::min(bm, m - bi * bm);
        const int cols = std::min(bn, n - bj * bn);
        for (int i = 0; i < rows; ++i) {
          for (int j = 0; j < cols; ++j) {
            ASSERT_EQ(
                static_cast<double>(out[size_t{1} * at * bm * bn + i * bn + j]),
                want[size_t{1} * (bi * bm + i) * n + bj * bn + j])
                << "block (" << bi << ", " << bj << ") step " << s << " at ("
                << i << ", " << j << ")";
          }
        }
      }
    }
  }
}

TEST_F(MatmulFeaturesTest, PartialOutputStepsAddUpToTheProduct) {
  // Summing the steps' blocks gives C (exact: small integers).
  const int m = 16, n = 32, k = 96, bk = 32;
  std::vector<half> a = SmallInts(m * k, 7), b = SmallInts(k * n, 8);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 32, bk, false);
  TPipe pipe;
  PartialMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  std::vector<float> step(size_t{1} * m * n), sum(size_t{1} * m * n, 0.0f);
  while (mm.Iterate()) {
    mm.GetTensorC(Gm(step), 0, true);
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += step[i];
  }
  const std::vector<double> want = Reference(a, b, nullptr, m, n, k, 0, k);
  for (size_t i = 0; i < sum.size(); ++i) {
    ASSERT_EQ(static_cast<double>(sum[i]), want[i]);
  }
}

TEST_F(MatmulFeaturesTest, PartialOutputRefusals) {
  const int m = 16, n = 16, k = 64;
  std::vector<half> a = SmallInts(m * k, 1), b = SmallInts(k * n, 2);
  std::vector<float> bias(n), c(m * n);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 32, true);
  TPipe pipe;
  PartialMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  EXPECT_TRUE(FailsWith([&] { mm.SetBias(Gm(bias)); },
                        "Matmul::SetBias: MatmulConfig.isPartialOutput is "
                        "true; a Matmul with partial output takes no bias"));
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  ASSERT_TRUE(mm.Iterate());
  EXPECT_TRUE(FailsWith([&] { mm.GetTensorC(Gm(c)); },
                        "Matmul::GetTensorC: enSequentialWrite is false, but "
                        "MatmulConfig.isPartialOutput is true; partial output "
                        "is taken in sequential write mode only"));
}

// ---- DataCopyOut callback -------------------------------------------------

// The kernel's move of a block out of L0C: Fixpipe NZ2ND with the geometry
// the object passes, each value doubled by adding the block to itself
// through the atomic add, counting its calls at dataPtr and checking
// tilingPtr.
void CopyOutTwice(const __gm__ void* gm,
                  const AscendC::LocalTensor<int8_t>& co1,
                  const void* dataCopyOutParams, const uint64_t tilingPtr,
                  const uint64_t dataPtr) {
  const auto* p =
      static_cast<const AscendC::DataCopyOutParams*>(dataCopyOutParams);
  GlobalTensor<float> dst;
  dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<void*>(gm)),
                      uint64_t{p->cBurstNum - 1u} * p->dstStride + p->burstLen);
  AscendC::FixpipeParamsV220 f;
  f.mSize = p->cBurstNum;
  f.nSize = p->burstLen;
  f.srcStride = p->srcStride;
  f.dstStride = p->dstStride;
  const AscendC::LocalTensor<float> c = co1.ReinterpretCast<float>();
  AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(dst, c, f);
  AscendC::SetAtomicAdd<float>();
  AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(dst, c, f);
  AscendC::SetAtomicNone();
  EXPECT_EQ(tilingPtr, 0x5151u);
  ++*reinterpret_cast<int*>(dataPtr);
}

TEST_F(MatmulFeaturesTest, DataCopyOutMovesEachBlock) {
  const int m = 40, n = 24, k = 48;  // 3 x 2 blocks of 16 x 16, tails 8
  std::vector<half> a = SmallInts(m * k, 9), b = SmallInts(k * n, 10);
  std::vector<float> bias;
  for (int j = 0; j < n; ++j) bias.push_back(static_cast<float>(j % 3));
  std::vector<float> c(size_t{1} * m * n, 0.0f);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 32, true);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, FloatGm, FloatGm, AscendC::CFG_NORM,
         AscendC::MatmulCallBackFunc<CopyOutTwice, nullptr, nullptr>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  int calls = 0;
  mm.SetUserDefInfo(0x5151u);
  mm.SetSelfDefineData(reinterpret_cast<uint64_t>(&calls));
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(Gm(bias));
  mm.IterateAll(Gm(c));
  EXPECT_EQ(calls, 6);
  const std::vector<double> want = Reference(a, b, &bias, m, n, k, 0, k);
  for (size_t i = 0; i < c.size(); ++i) {
    ASSERT_EQ(static_cast<double>(c[i]), 2 * want[i]) << "element " << i;
  }
}

// ---- Channel split ---------------------------------------------------------

// The first 32-byte aligned element of `store` (an NZ output in GM starts
// so); `store` holds 8 floats more than the output.
float* Aligned32(std::vector<float>& store) {
  float* p = store.data();
  while (reinterpret_cast<uintptr_t>(p) % 32 != 0) ++p;
  return p;
}

constexpr AscendC::MatmulFuncParams kSplitParams = {
    false,
    false,
    false,
    false,
    0,
    AscendC::IterateOrder::ORDER_M,
    AscendC::ScheduleType::INNER_PRODUCT,
    true,
    false,
    false,
    false,
    true /* isEnableChannelSplit */};
constexpr MatmulConfig CFG_SPLIT =
    AscendC::GetMMConfig<AscendC::MatmulConfigMode::CONFIG_NORM>(kSplitParams);

TEST_F(MatmulFeaturesTest, ChannelSplitWritesSixteenByEightFractals) {
  static_assert(CFG_SPLIT.isEnableChannelSplit);
  // N 40: blocks of 16 columns, the last 8; M 24 in blocks of 16 (tail 8),
  // so C's column blocks of 8 are 32 rows (M to 16) of 8 floats.
  const int m = 24, n = 40, k = 40;
  std::vector<half> a = SmallInts(m * k, 11), b = SmallInts(k * n, 12);
  std::vector<float> bias;
  for (int j = 0; j < n; ++j) bias.push_back(static_cast<float>(j % 4 - 1));
  const int rows16 = (m + 15) / 16 * 16;
  std::vector<float> store(size_t{1} * rows16 * n + 8, -9.0f);
  float* const c = Aligned32(store);
  GlobalTensor<float> cGm;
  cGm.SetGlobalBuffer(c, size_t{1} * rows16 * n);
  using FloatNz = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 32, true);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, FloatNz, FloatGm, CFG_SPLIT> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.SetBias(Gm(bias));
  mm.IterateAll(cGm);
  const std::vector<double> want = Reference(a, b, &bias, m, n, k, 0, k);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      ASSERT_EQ(static_cast<double>(
                    c[size_t{1} * (j / 8) * rows16 * 8 + i * 8 + j % 8]),
                want[size_t{1} * i * n + j])
          << "(" << i << ", " << j << ")";
    }
  }
}

TEST_F(MatmulFeaturesTest, ChannelSplitNeedsWholeEightColumnBlocks) {
  const int m = 16, n = 20, k = 32;  // the last block of N is 4 wide
  std::vector<half> a = SmallInts(m * k, 1), b = SmallInts(k * n, 2);
  std::vector<float> store(size_t{1} * m * 24 + 8);
  GlobalTensor<float> cGm;
  cGm.SetGlobalBuffer(Aligned32(store), size_t{1} * m * 24);
  using FloatNz = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 32, false);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, FloatNz, FloatGm, CFG_SPLIT> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(cGm); },
                        "Matmul::GetTensorC: C in NZ needs N blocks of whole "
                        "8 columns (channel split); this block has 4"));
}

}  // namespace
