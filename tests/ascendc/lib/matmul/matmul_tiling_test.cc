// matmul_tiling_test.cc — the Matmul host tiling through tiling/tiling_api.h
// (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling, BatchMatmulTiling,
// the Matmul…GetTmpBufSize queries) and the TCubeTiling rules
// (normgrad_ascendc::matmul::CheckCubeTiling): the pages' call sequences; a
// sweep over shapes, types, transposes, formats, bias and core counts whose
// every tiling the rules accept and whose core split covers the shape; one
// test per rule that breaks exactly that rule; every setter's and
// GetTiling's refusal with its message; the buffer queries against sizes
// computed here from the TCubeTiling page's formulas; on the Ascend 950 the
// MxMatmul guide's host sequence, the 8-bit float rows, split K in MX mode,
// the MX refusals and each MX rule broken alone.
//
// The expectations computed here (L1 bytes, fractal alignments, the core
// cover) share no code with src/. To add a case: a shape or type to
// kSweepShapes / kTypeRows, or a line to the rule or setter tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compat_test.h"
#include "lib/matmul/bmm_tiling.h"
#include "lib/matmul/matmul_tiling.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling_rules.h"
#include "tiling/tiling_api.h"

namespace {

using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::TPosition;
using normgrad_ascendc::Profile;
using normgrad_ascendc::matmul::CheckCubeTiling;
using normgrad_ascendc::matmul::CubeTilingContext;
using normgrad_ascendc::matmul::CubeTilingRule;
using normgrad_ascendc::matmul::FindCubeTilingViolation;
using normgrad_ascendc::matmul::ProfileCubeContext;

// Atlas A2/A3's cube core, as the cube pages give it.
constexpr uint64_t kL1 = 512 * 1024;
constexpr uint64_t kL0A = 64 * 1024;
constexpr uint64_t kL0B = 64 * 1024;
constexpr uint64_t kL0C = 128 * 1024;
constexpr uint64_t kBiasTable = 1024;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

platform_ascendc::PlatformAscendC Platform() {
  return platform_ascendc::PlatformAscendC(nullptr);
}

// Runs `call` and returns what it printed on stderr.
template <typename Call>
std::string StderrOf(Call call) {
  testing::internal::CaptureStderr();
  call();
  return testing::internal::GetCapturedStderr();
}

// ------------------------------------------------------------ page examples

TEST(MatmulTilingPages, SingleCoreUsageExample) {
  auto ascendcPlatform = Platform();
  matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetShape(1024, 1024, 1024);
  tiling.SetOrgShape(1024, 1024, 1024);
  tiling.EnableBias(true);
  tiling.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tilingData;
  std::string err;
  int64_t ret = 0;
  err = StderrOf([&] { ret = tiling.GetTiling(tilingData); });
  ASSERT_EQ(ret, 0) << err;
  EXPECT_EQ(err, "");
  // The page's recommended values fit half inputs: (128, 256, 64), L0
  // double buffering, L1 depth twice the steps.
  EXPECT_EQ(tilingData.get_usedCoreNum(), 1);
  EXPECT_EQ(tilingData.get_M(), 1024);
  EXPECT_EQ(tilingData.get_Ka(), 1024);
  EXPECT_EQ(tilingData.get_singleCoreM(), 1024);
  EXPECT_EQ(tilingData.get_singleCoreK(), 1024);
  EXPECT_EQ(tilingData.get_baseM(), 128);
  EXPECT_EQ(tilingData.get_baseN(), 256);
  EXPECT_EQ(tilingData.get_baseK(), 64);
  EXPECT_EQ(tilingData.get_dbL0A(), 2);
  EXPECT_EQ(tilingData.get_dbL0B(), 2);
  EXPECT_EQ(tilingData.get_depthA1(),
            2 * tilingData.get_stepM() * tilingData.get_stepKa());
  EXPECT_EQ(tilingData.get_depthB1(),
            2 * tilingData.get_stepN() * tilingData.get_stepKb());
  EXPECT_EQ(tilingData.get_isBias(), 1);
  // K = 16 blocks of 64 does not fit L1 twice over; 4 steps do.
  EXPECT_EQ(tilingData.get_stepKa(), 4);
  EXPECT_EQ(tiling.GetBaseM(), 128);
  EXPECT_EQ(tiling.GetBaseN(), 256);
  EXPECT_EQ(tiling.GetBaseK(), 64);
}

TEST(MatmulTilingPages, MultiCoreUsageExample) {
  auto ascendcPlatform = Platform();
  matmul_tiling::MultiCoreMatmulTiling tiling(ascendcPlatform);
  EXPECT_EQ(tiling.SetDim(1), 0);
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetShape(1024, 1024, 1024);
  tiling.SetSingleShape(1024, 1024, 1024);
  tiling.SetOrgShape(1024, 1024, 1024);
  tiling.EnableBias(true);
  tiling.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tilingData;
  ASSERT_EQ(tiling.GetTiling(tilingData), 0);
  int32_t singleM = 0, singleN = 0, singleK = 0;
  EXPECT_EQ(tiling.GetSingleShape(singleM, singleN, singleK), 0);
  EXPECT_EQ(singleM, 1024);
  EXPECT_EQ(singleN, 1024);
  EXPECT_EQ(singleK, 1024);
  int32_t dim = 0, mDim = 0, nDim = 0;
  EXPECT_EQ(tiling.GetCoreNum(dim, mDim, nDim), 0);
  EXPECT_EQ(dim, 1);
  EXPECT_EQ(mDim, 1);
  EXPECT_EQ(nDim, 1);
}

TEST(MatmulTilingPages, BatchUsageExample) {
  auto ascendcPlatform = Platform();
  matmul_tiling::BatchMatmulTiling bmmTiling(ascendcPlatform);
  bmmTiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  bmmTiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  bmmTiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  bmmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  bmmTiling.EnableBias(true);
  bmmTiling.SetShape(64, 48, 32);
  bmmTiling.SetSingleShape(64, 48, 32);
  bmmTiling.SetOrgShape(64, 48, 32);
  EXPECT_EQ(bmmTiling.SetBatchInfoForNormal(2, 2, 64, 48, 32), 0);
  EXPECT_EQ(bmmTiling.SetALayout(3, 64, 2, 2, 32), 0);
  EXPECT_EQ(bmmTiling.SetBLayout(3, 32, 2, 2, 48), 0);
  EXPECT_EQ(bmmTiling.SetCLayout(3, 64, 2, 2, 48), 0);
  EXPECT_EQ(bmmTiling.SetBatchNum(2), 0);
  bmmTiling.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tilingData;
  ASSERT_EQ(bmmTiling.GetTiling(tilingData), 0);
  EXPECT_EQ(tilingData.get_singleCoreM(), 64);
  EXPECT_EQ(tilingData.get_singleCoreN(), 48);
  EXPECT_EQ(tilingData.get_baseM(), 64);
  EXPECT_EQ(tilingData.get_baseN(), 48);
  EXPECT_EQ(tilingData.get_baseK(), 32);
  int32_t dim = 0, mDim = 0, nDim = 0, batchCoreM = 0, batchCoreN = 0;
  EXPECT_EQ(bmmTiling.GetCoreNum(dim, mDim, nDim, batchCoreM, batchCoreN), 0);
  EXPECT_EQ(dim, 1);
  EXPECT_EQ(batchCoreM, 1);
  EXPECT_EQ(batchCoreN, 1);
}

TEST(MatmulTilingPages, Constructors) {
  // No argument (Atlas A2/A3), PlatformAscendC, PlatformInfo: the same
  // tiling on the a2 profile.
  auto ascendcPlatform = Platform();
  matmul_tiling::PlatformInfo info;
  info.socVersion = ascendcPlatform.GetSocVersion();
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1,
                                 info.l1Size);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C,
                                 info.l0CSize);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB,
                                 info.ubSize);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A,
                                 info.l0ASize);
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B,
                                 info.l0BSize);
  auto tile = [](matmul_tiling::MatmulApiTilingBase& t) {
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetShape(512, 512, 512);
    AscendC::tiling::TCubeTiling out{};
    EXPECT_EQ(t.GetTiling(out), 0);
    return out.baseN * 10000 + out.stepKa;
  };
  matmul_tiling::MatmulApiTiling a;
  matmul_tiling::MatmulApiTiling b(ascendcPlatform);
  matmul_tiling::MatmulApiTiling c(info);
  matmul_tiling::MultiCoreMatmulTiling d;
  matmul_tiling::MultiCoreMatmulTiling e(info);
  matmul_tiling::BatchMatmulTiling f;
  d.SetDim(1);
  e.SetDim(1);
  f.SetDim(1);
  const int expected = tile(a);
  EXPECT_EQ(tile(b), expected);
  EXPECT_EQ(tile(c), expected);
  EXPECT_EQ(tile(d), expected);
  EXPECT_EQ(tile(e), expected);
  EXPECT_EQ(tile(f), expected);
}

TEST(MatmulTilingPages, DequantExampleInt8) {
  auto ascendcPlatform = Platform();
  matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
  tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
  tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
  tiling.SetShape(256, 512, 1024);
  tiling.SetOrgShape(256, 512, 1024);
  tiling.EnableBias(true);
  EXPECT_EQ(tiling.SetDequantType(matmul_tiling::DequantType::SCALAR), 0);
  EXPECT_EQ(tiling.SetDequantType(matmul_tiling::DequantType::TENSOR), 0);
  tiling.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tilingData;
  ASSERT_EQ(tiling.GetTiling(tilingData), 0);
  EXPECT_EQ(tilingData.get_baseK() % 32, 0);  // int8's C0_size
}

TEST(MatmulTilingPages, LayoutAndBatchExamplesOnMultiCore) {
  auto ascendcPlatform = Platform();
  matmul_tiling::MultiCoreMatmulTiling tiling(ascendcPlatform);
  const int32_t M = 32, N = 256, K = 64;
  tiling.SetDim(1);
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetShape(M, N, K);
  tiling.SetOrgShape(M, N, K);
  tiling.SetBias(true);
  tiling.SetBufferSpace(-1, -1, -1);
  EXPECT_EQ(tiling.SetALayout(2, 32, 1, 3, 64), 0);
  EXPECT_EQ(tiling.SetBLayout(2, 256, 1, 3, 64), 0);
  EXPECT_EQ(tiling.SetCLayout(2, 32, 1, 3, 256), 0);
  EXPECT_EQ(tiling.SetBatchNum(3), 0);
  EXPECT_EQ(tiling.SetBatchInfoForNormal(3, 3, M, N, K), 0);
  optiling::TCubeTiling tilingData;
  ASSERT_EQ(tiling.GetTiling(tilingData), 0);
  EXPECT_EQ(tilingData.get_baseM(), 32);
  EXPECT_EQ(tilingData.get_baseN(), 256);
  EXPECT_EQ(tilingData.get_baseK(), 64);
}

TEST(MatmulTilingPages, ConfigParamsTraverseFixSplitAndRanges) {
  auto ascendcPlatform = Platform();
  auto base = [&](matmul_tiling::MatmulApiTilingBase& t) {
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetShape(1024, 1024, 1024);
    t.SetOrgShape(1024, 1024, 1024);
    t.SetBias(true);
    t.SetBufferSpace(-1, -1, -1, -1);
  };
  {  // SetMatmulConfigParams(0): the Norm template
    matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
    base(tiling);
    tiling.SetMatmulConfigParams(0);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(tiling.GetTiling(t), 0);
  }
  {  // the struct form, FIRSTN through the config
    matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
    base(tiling);
    matmul_tiling::MatmulConfigParams configParams = {
        1, false, matmul_tiling::ScheduleType::OUTER_PRODUCT,
        matmul_tiling::MatrixTraverse::FIRSTN};
    tiling.SetMatmulConfigParams(configParams);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(tiling.GetTiling(t), 0);
    EXPECT_EQ(t.iterateOrder, 1);
  }
  {  // SetTraverse FIRSTM, SetFixSplit(16, 16, -1)
    matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
    base(tiling);
    EXPECT_EQ(tiling.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTM), 0);
    EXPECT_EQ(tiling.SetFixSplit(16, 16, -1), 0);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(tiling.GetTiling(t), 0);
    EXPECT_EQ(t.iterateOrder, 0);
    EXPECT_EQ(t.baseM, 16);
    EXPECT_EQ(t.baseN, 16);
  }
  {  // SetSplitRange bounds the bases
    matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
    base(tiling);
    EXPECT_EQ(tiling.SetSplitRange(64, 100, 32, 64, -1, -1), 0);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(tiling.GetTiling(t), 0);
    EXPECT_EQ(t.baseM, 64);
    EXPECT_EQ(t.baseN, 112);  // 100 aligned up to 16
    EXPECT_EQ(t.baseK, 32);
  }
  {  // SetSingleRange (the page's 1024 everywhere) and SetAlignSplit
    matmul_tiling::MultiCoreMatmulTiling tiling(ascendcPlatform);
    base(tiling);
    tiling.SetDim(8);
    EXPECT_EQ(tiling.SetSingleRange(1024, 1024, 1024, 1024, 1024, 1024), 0);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(tiling.GetTiling(t), 0);
    EXPECT_EQ(t.usedCoreNum, 1);
    matmul_tiling::MultiCoreMatmulTiling aligned(ascendcPlatform);
    base(aligned);
    aligned.SetDim(6);
    EXPECT_EQ(aligned.SetAlignSplit(-1, 64, -1), 0);
    EXPECT_EQ(aligned.GetTiling(t), 0);
    EXPECT_EQ(t.singleCoreN % 64, 0);
  }
  {  // EnableL1BankConflictOptimise after GetTiling: a small tiling leaves
     // room, the 1024 one fills L1
    matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
    base(tiling);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(tiling.GetTiling(t), 0);
    EXPECT_FALSE(tiling.EnableL1BankConflictOptimise());
    tiling.SetShape(64, 64, 64);
    tiling.SetOrgShape(64, 64, 64);
    EXPECT_EQ(tiling.GetTiling(t), 0);
    EXPECT_TRUE(tiling.EnableL1BankConflictOptimise());
  }
  {  // SetDoubleBuffer is reserved: accepted, no effect
    matmul_tiling::MatmulApiTiling tiling(ascendcPlatform);
    base(tiling);
    AscendC::tiling::TCubeTiling before{}, after{};
    EXPECT_EQ(tiling.GetTiling(before), 0);
    EXPECT_EQ(tiling.SetDoubleBuffer(false, false, false, false), 0);
    EXPECT_EQ(tiling.GetTiling(after), 0);
    EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0);
  }
}

TEST(MatmulTilingPages, SplitKExample) {
  auto ascendcPlatform = Platform();
  for (int variant = 0; variant < 2; ++variant) {
    matmul_tiling::MultiCoreMatmulTiling tiling(ascendcPlatform);
    tiling.SetDim(24);
    tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tiling.SetShape(64, 64, 8192);
    tiling.SetOrgShape(64, 64, 8192);
    if (variant == 0) {
      tiling.SetSplitK(true);
    } else {
      tiling.EnableMultiCoreSplitK(true);
    }
    AscendC::tiling::TCubeTiling t{};
    ASSERT_EQ(tiling.GetTiling(t), 0);
    EXPECT_LT(t.singleCoreK, 8192);
    int32_t dim = 0, mDim = 0, nDim = 0;
    tiling.GetCoreNum(dim, mDim, nDim);
    EXPECT_EQ(dim, t.usedCoreNum);
    EXPECT_EQ(dim, mDim * nDim * CeilDiv(8192, t.singleCoreK));
    EXPECT_LE(dim, 24);
    CubeTilingContext c = ProfileCubeContext(Profile::kA2);
    c.split_k = true;
    EXPECT_EQ(CheckCubeTiling(t, c), "");
  }
}

TEST(MatmulTilingPages, ShapeMinusOneTakesOrgShape) {
  // The page's figure: K of the computation one column short of Ka.
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetOrgShape(128, 128, 65);
  tiling.SetShape(-1, -1, 64);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.singleCoreM, 128);
  EXPECT_EQ(t.singleCoreK, 64);
  EXPECT_EQ(t.Ka, 65);
  EXPECT_EQ(t.Kb, 65);
}

// ------------------------------------------------------------ sweep

// The L1 bytes of the TCubeTiling page's formula (inner axes padded to
// C0_size), computed here.
uint64_t PageL1Bytes(const AscendC::tiling::TCubeTiling& t, uint32_t bits,
                     bool a_trans, bool b_trans, bool bias,
                     uint32_t bias_bits) {
  const int64_t c0 = 256 / bits;
  const int64_t a_m = a_trans ? CeilDiv(t.baseM, c0) * c0 : t.baseM;
  const int64_t b_n = b_trans ? t.baseN : CeilDiv(t.baseN, c0) * c0;
  return (a_m * t.baseK * t.depthA1 * bits + 7) / 8 +
         (b_n * t.baseK * t.depthB1 * bits + 7) / 8 +
         (bias ? t.baseN * bias_bits / 8 : 0);
}

struct TypeRow {
  DataType ab, c, bias;
  uint32_t bits, bias_bits;
};
const TypeRow kTypeRows[] = {
    {DataType::DT_FLOAT, DataType::DT_FLOAT, DataType::DT_FLOAT, 32, 32},
    {DataType::DT_FLOAT16, DataType::DT_FLOAT, DataType::DT_FLOAT, 16, 32},
    {DataType::DT_FLOAT16, DataType::DT_FLOAT16, DataType::DT_FLOAT16, 16, 16},
    {DataType::DT_BFLOAT16, DataType::DT_FLOAT, DataType::DT_FLOAT, 16, 32},
    {DataType::DT_INT8, DataType::DT_INT32, DataType::DT_INT32, 8, 32},
    {DataType::DT_INT4, DataType::DT_INT32, DataType::DT_INT32, 4, 32},
};
const int32_t kSweepShapes[] = {1, 15, 16, 17, 100, 256, 1000, 4097};
const int32_t kSweepK[] = {2, 31, 64, 1000, 70000};

// Checks one GetTiling result against the rules and the sweep's invariants.
void ExpectSound(const AscendC::tiling::TCubeTiling& t, const TypeRow& row,
                 bool a_trans, bool b_trans, bool bias, bool a_nz, bool b_nz,
                 int32_t m, int32_t n, int32_t k, int32_t dim) {
  SCOPED_TRACE("m " + std::to_string(m) + " n " + std::to_string(n) + " k " +
               std::to_string(k) + " bits " + std::to_string(row.bits) +
               " trans " + std::to_string(a_trans) + std::to_string(b_trans) +
               " bias " + std::to_string(bias) + " dim " + std::to_string(dim));
  CubeTilingContext c = ProfileCubeContext(Profile::kA2);
  c.a_bits = c.b_bits = row.bits;
  c.bias_bits = row.bias_bits;
  c.a_transpose = a_trans;
  c.b_transpose = b_trans;
  c.a_nz = a_nz;
  c.b_nz = b_nz;
  c.bias = bias;
  c.mdl = true;  // GetTiling's tilings obey the MDL rules too
  EXPECT_EQ(CheckCubeTiling(t, c), "");
  // The core split covers the shape; K is whole on each core.
  EXPECT_EQ(t.singleCoreK, k);
  EXPECT_LE(t.singleCoreM, m);
  EXPECT_LE(t.singleCoreN, n);
  EXPECT_EQ(t.usedCoreNum,
            CeilDiv(m, t.singleCoreM) * CeilDiv(n, t.singleCoreN));
  EXPECT_LE(t.usedCoreNum, dim);
  // Fractal alignment (the stricter K unit: 16 and C0_size) and the
  // buffers, from the page's formulas.
  const int32_t c0 = static_cast<int32_t>(256 / row.bits);
  EXPECT_EQ(t.baseM % 16, 0);
  EXPECT_EQ(t.baseN % 16, 0);
  EXPECT_EQ(t.baseK % std::max(16, c0), 0);
  EXPECT_LE(uint64_t(t.baseM) * t.baseK * row.bits / 8 * t.dbL0A, kL0A);
  EXPECT_LE(uint64_t(t.baseN) * t.baseK * row.bits / 8 * t.dbL0B, kL0B);
  EXPECT_LE(uint64_t(t.baseM) * t.baseN * 4 * t.dbL0C, kL0C);
  if (bias) {
    EXPECT_LE(uint64_t(t.baseN) * row.bias_bits / 8, kBiasTable);
  }
  EXPECT_LE(PageL1Bytes(t, row.bits, a_trans, b_trans, bias, row.bias_bits),
            kL1);
  // Bases no larger than the aligned single shapes.
  EXPECT_LE(t.baseM, CeilDiv(t.singleCoreM, 16) * 16);
  EXPECT_LE(t.baseN, CeilDiv(t.singleCoreN, 16) * 16);
}

TEST(MatmulTilingSweep, SingleCoreShapesTypesTransposesBias) {
  int tiled = 0;
  for (const TypeRow& row : kTypeRows) {
    for (int trans = 0; trans < 4; ++trans) {
      for (int bias = 0; bias < 2; ++bias) {
        for (int32_t m : kSweepShapes) {
          for (int32_t n : kSweepShapes) {
            for (int32_t k : kSweepK) {
              const bool a_trans = trans & 1, b_trans = trans & 2;
              // int4b_t packs two a byte: inner axes are even.
              if (row.bits == 4 &&
                  ((a_trans ? m : k) % 2 != 0 || (b_trans ? k : n) % 2 != 0 ||
                   ((!a_trans || b_trans) && k % 2 != 0))) {
                continue;
              }
              matmul_tiling::MatmulApiTiling tiling;
              tiling.SetAType(TPosition::GM, CubeFormat::ND, row.ab, a_trans);
              tiling.SetBType(TPosition::GM, CubeFormat::ND, row.ab, b_trans);
              tiling.SetCType(TPosition::GM, CubeFormat::ND, row.c);
              tiling.SetBiasType(TPosition::GM, CubeFormat::ND, row.bias);
              tiling.EnableBias(bias != 0);
              tiling.SetShape(m, n, k);
              tiling.SetOrgShape(m, n, k);
              AscendC::tiling::TCubeTiling t{};
              ASSERT_EQ(tiling.GetTiling(t), 0);
              ExpectSound(t, row, a_trans, b_trans, bias != 0, false, false, m,
                          n, k, 1);
              ++tiled;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(tiled, 5000);
}

TEST(MatmulTilingSweep, RecommendedBasesForLargeShapes) {
  // Where the shape allows, the page's (128, 256, 64) with L0 double
  // buffering for 16-bit inputs; float keeps (128, 128, 64) as 256 columns
  // of float with double buffering exceed L0B.
  for (DataType type : {DataType::DT_FLOAT16, DataType::DT_BFLOAT16}) {
    matmul_tiling::MatmulApiTiling tiling;
    tiling.SetAType(TPosition::GM, CubeFormat::ND, type);
    tiling.SetBType(TPosition::GM, CubeFormat::ND, type);
    tiling.SetShape(4096, 4096, 4096);
    AscendC::tiling::TCubeTiling t{};
    ASSERT_EQ(tiling.GetTiling(t), 0);
    EXPECT_EQ(t.baseM, 128);
    EXPECT_EQ(t.baseN, 256);
    EXPECT_EQ(t.baseK, 64);
    EXPECT_EQ(t.dbL0A, 2);
    EXPECT_EQ(t.dbL0B, 2);
  }
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetShape(4096, 4096, 4096);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 128);
  EXPECT_EQ(t.baseK, 64);
}

TEST(MatmulTilingSweep, NzFormats) {
  for (const TypeRow& row : kTypeRows) {
    const int32_t c0 = static_cast<int32_t>(256 / row.bits);
    for (int nz = 1; nz < 4; ++nz) {
      for (int trans = 0; trans < 4; ++trans) {
        for (int32_t m : {16, 48, 256, 1024}) {
          for (int32_t k : {c0, 3 * c0, 1024}) {
            const int32_t n = m + 16;
            const bool a_nz = nz & 1, b_nz = nz & 2;
            const bool a_trans = trans & 1, b_trans = trans & 2;
            matmul_tiling::MultiCoreMatmulTiling tiling;
            tiling.SetDim(8);
            tiling.SetAType(TPosition::GM,
                            a_nz ? CubeFormat::NZ : CubeFormat::ND, row.ab,
                            a_trans);
            tiling.SetBType(TPosition::GM,
                            b_nz ? CubeFormat::NZ : CubeFormat::ND, row.ab,
                            b_trans);
            tiling.SetCType(TPosition::GM, CubeFormat::ND, row.c);
            tiling.SetShape(m, n, k);
            AscendC::tiling::TCubeTiling t{};
            ASSERT_EQ(tiling.GetTiling(t), 0);
            ExpectSound(t, row, a_trans, b_trans, false, a_nz, b_nz, m, n, k,
                        8);
          }
        }
      }
    }
  }
}

TEST(MatmulTilingSweep, GemvVectorA) {
  // The GEMV page's host calls: A in CubeFormat::VECTOR, M = 1.
  for (int32_t k : {256, 70, 4096}) {
    for (int32_t n : {32, 40, 1024}) {
      matmul_tiling::MatmulApiTiling tiling;
      tiling.SetAType(TPosition::GM, CubeFormat::VECTOR, DataType::DT_FLOAT16);
      tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
      tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
      tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
      tiling.SetShape(1, n, k);
      tiling.SetOrgShape(1, n, k);
      tiling.EnableBias(true);
      AscendC::tiling::TCubeTiling t{};
      ASSERT_EQ(tiling.GetTiling(t), 0) << "K " << k << " N " << n;
      EXPECT_EQ(t.M, 1);
      EXPECT_EQ(t.singleCoreM, 1);
      EXPECT_GE(t.baseM, 1);
    }
  }
}

TEST(MatmulTilingSweep, MultiCoreSplits) {
  for (const TypeRow& row : {kTypeRows[1], kTypeRows[4]}) {
    for (int32_t dim : {1, 2, 3, 7, 24, 48}) {
      for (int32_t m : kSweepShapes) {
        for (int32_t n : kSweepShapes) {
          for (int32_t k : {64, 1000}) {
            for (int bias = 0; bias < 2; ++bias) {
              matmul_tiling::MultiCoreMatmulTiling tiling;
              tiling.SetDim(dim);
              tiling.SetAType(TPosition::GM, CubeFormat::ND, row.ab);
              tiling.SetBType(TPosition::GM, CubeFormat::ND, row.ab, true);
              tiling.SetCType(TPosition::GM, CubeFormat::ND, row.c);
              tiling.SetBiasType(TPosition::GM, CubeFormat::ND, row.bias);
              tiling.EnableBias(bias != 0);
              tiling.SetShape(m, n, k);
              tiling.SetOrgShape(m, n, k);
              AscendC::tiling::TCubeTiling t{};
              ASSERT_EQ(tiling.GetTiling(t), 0);
              ExpectSound(t, row, false, true, bias != 0, false, false, m, n, k,
                          dim);
              int32_t used = 0, mDim = 0, nDim = 0;
              ASSERT_EQ(tiling.GetCoreNum(used, mDim, nDim), 0);
              EXPECT_EQ(used, mDim * nDim);
              EXPECT_EQ(mDim, CeilDiv(m, t.singleCoreM));
              EXPECT_EQ(nDim, CeilDiv(n, t.singleCoreN));
              // A big enough shape uses more than one core.
              if (dim > 1 && m >= 256 && n >= 256) {
                EXPECT_GT(used, 1);
              }
            }
          }
        }
      }
    }
  }
}

TEST(MatmulTilingSweep, FixedSingleShapesAndBasesAreKept) {
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetDim(48);
  tiling.SetShape(1000, 2000, 300);
  ASSERT_EQ(tiling.SetSingleShape(256, 512, -1), 0);
  ASSERT_EQ(tiling.SetFixSplit(64, 128, -1), 0);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_EQ(t.singleCoreN, 512);
  EXPECT_EQ(t.singleCoreK, 300);
  EXPECT_EQ(t.baseM, 64);
  EXPECT_EQ(t.baseN, 128);
  EXPECT_EQ(t.usedCoreNum, 4 * 4);
}

TEST(MatmulTilingSweep, AtlasA2TypeTable) {
  // The Matmul usage page's table for Atlas A2/A3, row by row:
  // {A and B, bias, C}.
  using D = DataType;
  const std::vector<std::vector<D>> rows = {
      {D::DT_FLOAT, D::DT_FLOAT, D::DT_FLOAT},
      {D::DT_FLOAT, D::DT_FLOAT, D::DT_FLOAT16},
      {D::DT_FLOAT, D::DT_FLOAT, D::DT_BFLOAT16},
      {D::DT_FLOAT, D::DT_FLOAT16, D::DT_FLOAT},
      {D::DT_FLOAT, D::DT_FLOAT16, D::DT_FLOAT16},
      {D::DT_FLOAT, D::DT_FLOAT16, D::DT_BFLOAT16},
      {D::DT_FLOAT16, D::DT_FLOAT, D::DT_FLOAT},
      {D::DT_FLOAT16, D::DT_FLOAT16, D::DT_FLOAT},
      {D::DT_FLOAT16, D::DT_FLOAT16, D::DT_BFLOAT16},
      {D::DT_FLOAT16, D::DT_FLOAT, D::DT_INT8},
      {D::DT_FLOAT16, D::DT_FLOAT, D::DT_FLOAT16},
      {D::DT_FLOAT16, D::DT_FLOAT, D::DT_BFLOAT16},
      {D::DT_FLOAT16, D::DT_FLOAT16, D::DT_FLOAT16},
      {D::DT_INT8, D::DT_INT32, D::DT_INT32},
      {D::DT_INT8, D::DT_INT32, D::DT_FLOAT16},
      {D::DT_INT8, D::DT_INT32, D::DT_INT8},
      {D::DT_INT4, D::DT_INT32, D::DT_INT32},
      {D::DT_INT4, D::DT_INT32, D::DT_FLOAT16},
      {D::DT_BFLOAT16, D::DT_FLOAT, D::DT_FLOAT},
      {D::DT_BFLOAT16, D::DT_FLOAT16, D::DT_FLOAT},
      {D::DT_BFLOAT16, D::DT_FLOAT16, D::DT_FLOAT16},
      {D::DT_BFLOAT16, D::DT_FLOAT, D::DT_INT8},
      {D::DT_BFLOAT16, D::DT_FLOAT, D::DT_BFLOAT16},
      {D::DT_BFLOAT16, D::DT_FLOAT, D::DT_FLOAT16},
  };
  auto listed = [&](D ab, bool bias, D bias_type, D c) {
    for (const auto& row : rows) {
      if (row[0] == ab && (!bias || row[1] == bias_type) && row[2] == c) {
        return true;
      }
    }
    return false;
  };
  const D inputs[] = {D::DT_FLOAT, D::DT_FLOAT16, D::DT_BFLOAT16, D::DT_INT8,
                      D::DT_INT4};
  const D biases[] = {D::DT_FLOAT, D::DT_FLOAT16, D::DT_INT32, D::DT_BFLOAT16};
  const D outputs[] = {D::DT_FLOAT, D::DT_FLOAT16, D::DT_BFLOAT16, D::DT_INT8,
                       D::DT_INT32};
  int accepted = 0;
  for (D ab : inputs) {
    for (D c : outputs) {
      for (int bias = 0; bias < 2; ++bias) {
        for (D bias_type : biases) {
          SCOPED_TRACE(std::to_string(int(ab)) + " " + std::to_string(int(c)) +
                       " " + std::to_string(bias) + " " +
                       std::to_string(int(bias_type)));
          matmul_tiling::MatmulApiTiling tiling;
          tiling.SetAType(TPosition::GM, CubeFormat::ND, ab);
          tiling.SetBType(TPosition::GM, CubeFormat::ND, ab);
          tiling.SetCType(TPosition::GM, CubeFormat::ND, c);
          tiling.SetBiasType(TPosition::GM, CubeFormat::ND, bias_type);
          tiling.EnableBias(bias != 0);
          tiling.SetShape(64, 64, 64);
          AscendC::tiling::TCubeTiling t{};
          const bool expected = listed(ab, bias != 0, bias_type, c);
          int64_t ret = 0;
          const std::string err = StderrOf([&] { ret = tiling.GetTiling(t); });
          EXPECT_EQ(ret, expected ? 0 : -1) << err;
          if (!expected) {
            EXPECT_NE(err.find("is not a type combination of Atlas A2/A3's "
                               "Matmul"),
                      std::string::npos)
                << err;
          }
          accepted += expected ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(accepted, 0);
}

TEST(MatmulTilingSweep, FixedBasesChooseASplitTheyFit) {
  // The least work per core (8 x 6 cores of 128 x 176) is too narrow for a
  // fixed baseN of 256: the search moves on to a split that holds it.
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetDim(48);
  tiling.SetShape(1024, 1024, 1024);
  ASSERT_EQ(tiling.SetFixSplit(128, 256), 0);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 256);
  EXPECT_GE(t.singleCoreN, 256);
  EXPECT_GT(t.usedCoreNum, 1);
  ExpectSound(t, kTypeRows[1], false, false, false, false, false, 1024, 1024,
              1024, 48);
}

TEST(MatmulTilingSweep, UbPositionsSetTransLength) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetAType(TPosition::VECOUT, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetShape(256, 256, 256);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  // C's block (float) is the largest moved through the UB.
  EXPECT_EQ(t.transLength, t.baseM * t.baseN * 4);
}

TEST(MatmulTilingSweep, SmallL1BufferSpaceShrinksTheSteps) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetShape(512, 512, 4096);
  ASSERT_EQ(tiling.SetBufferSpace(64 * 1024, -1, -1, -1), 0);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_LE(PageL1Bytes(t, 16, false, false, false, 32), 64u * 1024);
}

// ------------------------------------------------------------ rules

// A valid tiling and its context: half, A not transposed, B transposed,
// bias, MDL, from GetTiling.
struct Valid {
  AscendC::tiling::TCubeTiling t{};
  CubeTilingContext c;
  Valid() {
    matmul_tiling::MatmulApiTiling tiling;
    tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
    tiling.EnableBias(true);
    tiling.SetShape(512, 512, 512);
    EXPECT_EQ(tiling.GetTiling(t), 0);
    c = ProfileCubeContext(Profile::kA2);
    c.b_transpose = true;
    c.bias = true;
    c.mdl = true;
  }
};

struct RuleCase {
  const char* name;
  CubeTilingRule rule;
  void (*breakIt)(AscendC::tiling::TCubeTiling*, CubeTilingContext*);
  const char* message;
};

const RuleCase kRuleCases[] = {
    {"usedCoreNum", CubeTilingRule::kUsedCoreNum,
     [](auto* t, auto*) { t->usedCoreNum = 49; },
     "TCubeTiling.usedCoreNum 49 is outside [1, 48]: a Matmul runs on at "
     "least one core and at most the AI processor's cores"},
    {"shape", CubeTilingRule::kShape, [](auto* t, auto*) { t->Kb = 0; },
     "TCubeTiling.Kb 0 is not positive: the whole shapes of A, B and C are "
     "at least 1 element"},
    {"shape NZ", CubeTilingRule::kShapeNzAlign,
     [](auto* t, auto* c) {
       c->a_nz = true;
       t->M = 520;
     },
     "TCubeTiling.M 520 is not a multiple of 16: A in the NZ format has M "
     "aligned to 16"},
    {"single shape", CubeTilingRule::kSingleShape,
     [](auto* t, auto*) { t->singleCoreN = 513; },
     "TCubeTiling.singleCoreN 513 exceeds N 512: singleCoreN <= N"},
    {"single NZ", CubeTilingRule::kSingleNzAlign,
     [](auto* t, auto* c) {
       c->b_nz = true;
       t->singleCoreN = 500;
     },
     "TCubeTiling.singleCoreN 500 is not a multiple of 16: B in the NZ "
     "format has singleCoreN aligned to 16"},
    {"core split", CubeTilingRule::kCoreSplit,
     [](auto* t, auto*) { t->usedCoreNum = 2; },
     "TCubeTiling.usedCoreNum 2 exceeds the 1 blocks the single-core shapes "
     "cut: usedCoreNum <= ceil(M / singleCoreM) * ceil(N / singleCoreN)"},
    {"base positive", CubeTilingRule::kBasePositive,
     [](auto* t, auto*) { t->baseK = -64; },
     "TCubeTiling.baseK -64 is not positive: one Mmad's shape is at least 1 "
     "element"},
    {"base align", CubeTilingRule::kBaseAlign,
     [](auto* t, auto*) { t->baseN = 120; },
     "TCubeTiling.baseN 120 is not a multiple of 16: baseN is aligned to 16 "
     "(fractal alignment)"},
    {"base K align", CubeTilingRule::kBaseAlign,
     [](auto* t, auto* c) {
       c->a_bits = c->b_bits = 8;
       t->baseK = 48;
     },
     "TCubeTiling.baseK 48 is not a multiple of 32: with A not transposed "
     "and B transposed baseK is aligned to C0_size (fractal alignment)"},
    {"steps", CubeTilingRule::kStepPositive,
     [](auto* t, auto*) { t->stepN = 0; },
     "TCubeTiling.stepN 0 is not positive: depths and steps are at least 1"},
    {"isBias value", CubeTilingRule::kIsBias,
     [](auto* t, auto*) { t->isBias = 2; },
     "TCubeTiling.isBias 2 is neither 0 nor 1: isBias is 0 (no bias) or 1 "
     "(bias)"},
    {"isBias agreement", CubeTilingRule::kIsBias,
     [](auto* t, auto*) { t->isBias = 0; },
     "TCubeTiling.isBias 0 disagrees with the Matmul, which adds a bias: "
     "isBias is 1 exactly when a bias is added"},
    {"iterateOrder", CubeTilingRule::kIterateOrder,
     [](auto* t, auto*) { t->iterateOrder = 3; },
     "TCubeTiling.iterateOrder 3 is neither 0 nor 1: iterateOrder is 0 (M "
     "first) or 1 (N first)"},
    {"double buffer", CubeTilingRule::kDoubleBuffer,
     [](auto* t, auto*) { t->dbL0C = 0; },
     "TCubeTiling.dbL0C 0 is neither 1 nor 2: double buffering is off (1) "
     "or on (2)"},
    {"L0A", CubeTilingRule::kL0A,
     [](auto* t, auto*) {
       t->baseM = 272;
       t->baseN = 128;
     },
     "TCubeTiling.baseM * baseK * sizeof(A) * dbL0A = 69632 bytes exceeds "
     "L0A (65536 bytes): A's base block fits L0A"},
    {"L0B", CubeTilingRule::kL0B, [](auto* t, auto*) { t->baseK = 128; },
     "TCubeTiling.baseN * baseK * sizeof(B) * dbL0B = 131072 bytes exceeds "
     "L0B (65536 bytes): B's base block fits L0B"},
    {"L0C", CubeTilingRule::kL0C, [](auto* t, auto*) { t->dbL0C = 2; },
     "TCubeTiling.baseM * baseN * 4 * dbL0C = 262144 bytes exceeds L0C "
     "(131072 bytes): C's base block (float or int32_t) fits L0C"},
    {"bias table", CubeTilingRule::kBiasTable,
     [](auto* t, auto*) {
       t->baseM = 64;
       t->baseN = 272;
       t->baseK = 32;
     },
     "TCubeTiling.baseN * sizeof(bias) = 1088 bytes exceeds the bias table "
     "(1024 bytes): the bias's base block fits the bias table"},
    {"depthA1", CubeTilingRule::kDepthA1,
     [](auto* t, auto*) { t->depthA1 = 3 * t->stepM * t->stepKa; }, nullptr},
    {"depthB1", CubeTilingRule::kDepthB1,
     [](auto* t, auto*) { t->depthB1 = t->stepN * t->stepKb + 1; }, nullptr},
    {"L1", CubeTilingRule::kL1, [](auto*, auto* c) { c->l1_bytes = 4096; },
     nullptr},
    {"MDL stepM", CubeTilingRule::kMdlStepM,
     [](auto* t, auto*) {
       t->stepKa = 1;
       t->stepM = 2;
       t->depthA1 = 2;
     },
     "TCubeTiling.stepM 2 is not 1 while Ka is not loaded whole (ceil(Ka / "
     "baseK) = 8 > stepKa 1): the MDL template moves A one block along M "
     "then"},
    {"MDL stepN", CubeTilingRule::kMdlStepN,
     [](auto* t, auto*) {
       t->stepKb = 1;
       t->stepN = 2;
       t->depthB1 = 2;
     },
     "TCubeTiling.stepN 2 is not 1 while Kb is not loaded whole (ceil(Kb / "
     "baseK) = 8 > stepKb 1): the MDL template moves B one block along N "
     "then"},
    {"MDL K steps", CubeTilingRule::kMdlKSteps,
     [](auto* t, auto*) {
       t->stepM = t->stepN = 1;
       t->stepKa = 2;
       t->stepKb = 3;
       t->depthA1 = 2;
       t->depthB1 = 3;
     },
     "TCubeTiling: A takes 4 and B 3 L1 loads along K (ceil(singleCoreK / "
     "(baseK * stepKa)) and ceil(singleCoreK / (baseK * stepKb))): in the "
     "MDL template one divides the other"},
};

TEST(CubeTilingRules, ValidTilingPasses) {
  Valid v;
  EXPECT_EQ(CheckCubeTiling(v.t, v.c), "");
  // The base tiling: (128, 256, 64), whole K in L1.
  EXPECT_EQ(v.t.baseM, 128);
  EXPECT_EQ(v.t.baseN, 256);
  EXPECT_EQ(v.t.stepKa, 4);  // 8 blocks of K do not fit L1 twice over
  EXPECT_EQ(v.t.depthA1, 8);
}

TEST(CubeTilingRules, EachRuleBreaksAlone) {
  for (const RuleCase& rc : kRuleCases) {
    SCOPED_TRACE(rc.name);
    Valid v;
    rc.breakIt(&v.t, &v.c);
    const auto violation = FindCubeTilingViolation(v.t, v.c);
    EXPECT_EQ(violation.rule, rc.rule);
    EXPECT_EQ(CheckCubeTiling(v.t, v.c), violation.message);
    if (rc.message != nullptr) {
      EXPECT_EQ(violation.message, rc.message);
    }
    EXPECT_NE(violation.message, "");
  }
}

TEST(CubeTilingRules, RuleMessagesWithComputedValues) {
  Valid v;
  v.t.depthA1 = 3 * v.t.stepM * v.t.stepKa;
  EXPECT_EQ(CheckCubeTiling(v.t, v.c),
            "TCubeTiling.depthA1 12 is neither stepM * stepKa = 4 nor twice "
            "it");
  Valid w;
  w.c.l1_bytes = 4096;
  // 128 x 64 x 8 blocks of half for A, 256 x 64 x 8 for B, 256 floats.
  EXPECT_EQ(CheckCubeTiling(w.t, w.c),
            "TCubeTiling: A's and B's L1 blocks and the bias row take " +
                std::to_string(128 * 64 * 8 * 2 + 256 * 64 * 8 * 2 + 1024) +
                " bytes, more than L1 (4096 bytes): depthA1 blocks of A, "
                "depthB1 blocks of B and baseN bias elements fit L1");
}

TEST(CubeTilingRules, L0LimitsAreInclusiveAndNormSkipsMdlRules) {
  // The recommended (128, 256, 64) half bases with dbL0B = 2 fill L0B
  // exactly: allowed (the page's "does not exceed").
  Valid v;
  EXPECT_EQ(uint64_t(v.t.baseN) * v.t.baseK * 2 * v.t.dbL0B, kL0B);
  EXPECT_EQ(CheckCubeTiling(v.t, v.c), "");
  // The MDL-only rules do not apply to the Norm template.
  v.t.stepKa = 1;
  v.t.stepM = 2;
  v.t.depthA1 = 2;
  v.c.mdl = false;
  EXPECT_EQ(CheckCubeTiling(v.t, v.c), "");
}

TEST(CubeTilingRules, TransposedAPadsTheInnerAxisInL1) {
  // int8 A transposed: baseM 16 occupies C0_size = 32 rows of L1.
  AscendC::tiling::TCubeTiling t{};
  t.baseM = 16;
  t.baseN = 64;
  t.baseK = 32;
  t.depthA1 = 1;
  t.depthB1 = 1;
  CubeTilingContext c = ProfileCubeContext(Profile::kA2);
  c.a_bits = c.b_bits = 8;
  c.a_transpose = true;
  c.b_transpose = true;
  EXPECT_EQ(normgrad_ascendc::matmul::CubeL1Bytes(t, c), 32u * 32 + 64u * 32);
  c.a_transpose = false;
  c.b_transpose = false;  // B not transposed: N padded (64 already is)
  EXPECT_EQ(normgrad_ascendc::matmul::CubeL1Bytes(t, c), 16u * 32 + 64u * 32);
}

// ------------------------------------------------------------ refusals

struct Refusal {
  const char* what;
  int32_t (*call)(matmul_tiling::MultiCoreMatmulTiling&);
  const char* message;
};

const Refusal kSetterRefusals[] = {
    {"SetAType position",
     [](auto& t) {
       return t.SetAType(TPosition::VECIN, CubeFormat::ND,
                         DataType::DT_FLOAT16);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetAType: pos VECIN is not "
     "supported: A lies in GM, VECOUT or TSCM; the call is ignored.\n"},
    {"SetAType fp8",
     [](auto& t) {
       return t.SetAType(TPosition::GM, CubeFormat::ND,
                         DataType::DT_FLOAT8_E4M3FN);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetAType: dataType "
     "DT_FLOAT8_E4M3FN is not supported: on Atlas A2/A3 A is DT_FLOAT, "
     "DT_FLOAT16, DT_BFLOAT16, DT_INT8 or DT_INT4 (8-bit floats are Ascend "
     "950's); the call is ignored.\n"},
    {"SetBType format",
     [](auto& t) {
       return t.SetBType(TPosition::GM, CubeFormat::VECTOR,
                         DataType::DT_FLOAT16);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetBType: type VECTOR is not "
     "supported: B's format is ND or NZ; the call is ignored.\n"},
    {"SetCType type",
     [](auto& t) {
       return t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT4);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetCType: dataType DT_INT4 is "
     "not supported: on Atlas A2/A3 C is DT_FLOAT, DT_FLOAT16, DT_BFLOAT16, "
     "DT_INT8 or DT_INT32; the call is ignored.\n"},
    {"SetBiasType format",
     [](auto& t) {
       return t.SetBiasType(TPosition::GM, CubeFormat::NZ, DataType::DT_FLOAT);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetBiasType: type NZ is not "
     "supported: the bias's format is ND; the call is ignored.\n"},
    {"SetScaleAType",
     [](auto& t) { return t.SetScaleAType(TPosition::GM, CubeFormat::ND); },
     "matmul_tiling::MultiCoreMatmulTiling::SetScaleAType: scaleA belongs to "
     "MxMatmul, which runs on Ascend 950 only: the platform is Atlas A2/A3; "
     "the call is ignored.\n"},
    {"SetScaleBType",
     [](auto& t) { return t.SetScaleBType(TPosition::GM, CubeFormat::ND); },
     "matmul_tiling::MultiCoreMatmulTiling::SetScaleBType: scaleB belongs to "
     "MxMatmul, which runs on Ascend 950 only: the platform is Atlas A2/A3; "
     "the call is ignored.\n"},
    {"SetShape negative", [](auto& t) { return t.SetShape(64, -5, 64); },
     "matmul_tiling::MultiCoreMatmulTiling::SetShape: n -5 is not valid: it "
     "is at least 1, or -1 to take SetOrgShape's value; the call is "
     "ignored.\n"},
    {"SetOrgShape zero", [](auto& t) { return t.SetOrgShape(64, 64, 0); },
     "matmul_tiling::MultiCoreMatmulTiling::SetOrgShape: orgKaIn 0 is not "
     "valid: it is at least 1; the call is ignored.\n"},
    {"SetALayout", [](auto& t) { return t.SetALayout(1, 0, 1, 1, 1); },
     "matmul_tiling::MultiCoreMatmulTiling::SetALayout: s 0 is not valid: it "
     "is at least 1; the call is ignored.\n"},
    {"SetBLayout", [](auto& t) { return t.SetBLayout(1, 1, 1, 1, -2); },
     "matmul_tiling::MultiCoreMatmulTiling::SetBLayout: d -2 is not valid: "
     "it is at least 1; the call is ignored.\n"},
    {"SetCLayout", [](auto& t) { return t.SetCLayout(0, 1, 1, 1, 1); },
     "matmul_tiling::MultiCoreMatmulTiling::SetCLayout: b 0 is not valid: it "
     "is at least 1; the call is ignored.\n"},
    {"SetBatchInfoForNormal",
     [](auto& t) { return t.SetBatchInfoForNormal(2, 2, 64, -1, 32); },
     "matmul_tiling::MultiCoreMatmulTiling::SetBatchInfoForNormal: n -1 is "
     "not valid: it is at least 1; the call is ignored.\n"},
    {"SetBatchNum", [](auto& t) { return t.SetBatchNum(0); },
     "matmul_tiling::MultiCoreMatmulTiling::SetBatchNum: batch 0 is not "
     "valid: it is at least 1; the call is ignored.\n"},
    {"SetFixSplit baseK", [](auto& t) { return t.SetFixSplit(64, 64, 64); },
     "matmul_tiling::MultiCoreMatmulTiling::SetFixSplit: baseKIn 64 is not "
     "supported: baseK cannot be fixed, baseKIn is -1; the call is "
     "ignored.\n"},
    {"SetFixSplit baseM", [](auto& t) { return t.SetFixSplit(0); },
     "matmul_tiling::MultiCoreMatmulTiling::SetFixSplit: baseMIn 0 is not "
     "valid: it is at least 1, or -1 to let GetTiling choose; the call is "
     "ignored.\n"},
    {"SetBufferSpace", [](auto& t) { return t.SetBufferSpace(1 << 20); },
     "matmul_tiling::MultiCoreMatmulTiling::SetBufferSpace: l1Size 1048576 "
     "is not valid: it is -1 (all of L1) or a byte count in [0, 524288], the "
     "platform's size; the call is ignored.\n"},
    {"SetTraverse",
     [](auto& t) {
       return t.SetTraverse(matmul_tiling::MatrixTraverse::NOSET);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetTraverse: traverse 0 is not "
     "supported: it is FIRSTM or FIRSTN; the call is ignored.\n"},
    {"SetMadType HF32",
     [](auto& t) { return t.SetMadType(matmul_tiling::MatrixMadType::HF32); },
     "matmul_tiling::MultiCoreMatmulTiling::SetMadType: madType 1 is not "
     "supported: only NORMAL is (HF32 is not available in this version); "
     "the call is ignored.\n"},
    {"SetMadType MXMODE",
     [](auto& t) { return t.SetMadType(matmul_tiling::MatrixMadType::MXMODE); },
     "matmul_tiling::MultiCoreMatmulTiling::SetMadType: madType 2 (MXMODE) "
     "is not supported: MxMatmul runs on Ascend 950 only; the call is "
     "ignored.\n"},
    {"SetSplitRange order",
     [](auto& t) { return t.SetSplitRange(64, -1, -1, 128); },
     "matmul_tiling::MultiCoreMatmulTiling::SetSplitRange: minBaseM 128 "
     "exceeds maxBaseM 64: the minimum is at most the maximum; the call is "
     "ignored.\n"},
    {"SetDim", [](auto& t) { return t.SetDim(49); },
     "matmul_tiling::MultiCoreMatmulTiling::SetDim: dim 49 is outside [1, "
     "48]: the cores a Matmul may use, at most the platform's GetCoreNum(); "
     "the call is ignored.\n"},
    {"SetSingleShape", [](auto& t) { return t.SetSingleShape(-3); },
     "matmul_tiling::MultiCoreMatmulTiling::SetSingleShape: singleMIn -3 is "
     "not valid: it is at least 1, or -1 to let GetTiling choose; the call "
     "is ignored.\n"},
    {"SetSingleRange", [](auto& t) { return t.SetSingleRange(16, 16, 16, 32); },
     "matmul_tiling::MultiCoreMatmulTiling::SetSingleRange: minM 32 exceeds "
     "maxM 16: the minimum is at most the maximum; the call is ignored.\n"},
    {"SetAlignSplit", [](auto& t) { return t.SetAlignSplit(-2, 0, 0); },
     "matmul_tiling::MultiCoreMatmulTiling::SetAlignSplit: alignM -2 is not "
     "valid: it is at least 1, or -1 or 0 to let GetTiling choose; the call "
     "is ignored.\n"},
    {"GetSingleShape before GetTiling",
     [](auto& t) {
       int32_t a, b, c;
       return t.GetSingleShape(a, b, c);
     },
     "matmul_tiling::MultiCoreMatmulTiling::GetSingleShape: there is no "
     "tiling yet: call GetTiling first; the call is ignored.\n"},
    {"GetCoreNum before GetTiling",
     [](auto& t) {
       int32_t a, b, c;
       return t.GetCoreNum(a, b, c);
     },
     "matmul_tiling::MultiCoreMatmulTiling::GetCoreNum: there is no tiling "
     "yet: call GetTiling first; the call is ignored.\n"},
};

TEST(MatmulTilingRefusals, SettersNameTheArgumentValueAndRule) {
  for (const Refusal& r : kSetterRefusals) {
    SCOPED_TRACE(r.what);
    matmul_tiling::MultiCoreMatmulTiling tiling;
    int32_t ret = 0;
    EXPECT_EQ(StderrOf([&] { ret = r.call(tiling); }), r.message);
    EXPECT_EQ(ret, -1);
  }
  matmul_tiling::MatmulApiTiling tiling;
  EXPECT_EQ(
      StderrOf([&] { EXPECT_FALSE(tiling.EnableL1BankConflictOptimise()); }),
      "matmul_tiling::MatmulApiTiling::EnableL1BankConflictOptimise: "
      "there is no tiling yet: call GetTiling first; the call is "
      "ignored.\n");
  EXPECT_EQ(tiling.GetBaseM(), -1);
}

TEST(MatmulTilingRefusals, RefusedSetterKeepsThePreviousValue) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetShape(64, 64, 64);
  StderrOf([&] { tiling.SetShape(0, 64, 64); });
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.M, 64);
}

struct TilingRefusal {
  const char* what;
  void (*setup)(matmul_tiling::MultiCoreMatmulTiling&);
  const char* message;
};

const char* const kPrefix = "matmul_tiling::MultiCoreMatmulTiling::GetTiling: ";
const char* const kSuffix = "; no tiling was made (GetTiling returns -1).\n";

const TilingRefusal kTilingRefusals[] = {
    {"no shape", [](auto&) {},
     "there is no shape: call SetShape and SetOrgShape"},
    {"shape past org",
     [](auto& t) {
       t.SetOrgShape(64, 64, 64);
       t.SetShape(65, -1, -1);
     },
     "SetShape (65, 64, 64) exceeds SetOrgShape (64, 64, 64, 64): the "
     "computed shape lies inside the whole matrices"},
    {"A and B types",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
     },
     "A is DT_FLOAT16 and B DT_FLOAT: on Atlas A2/A3 A and B have one type"},
    {"type pair",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
     },
     "A and B DT_FLOAT16, C DT_INT32 is not a type combination of Atlas "
     "A2/A3's Matmul"},
    {"bias type",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_BFLOAT16);
       t.EnableBias(true);
     },
     "A and B DT_FLOAT16, C DT_FLOAT, bias DT_BFLOAT16 is not a type "
     "combination of Atlas A2/A3's Matmul"},
    {"int4 odd K",
     [](auto& t) {
       t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT4);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT4);
       t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
       t.SetShape(64, 64, 63);
     },
     "Ka 63 is odd: with DT_INT4 inputs each inner axis (and K when it is "
     "one) has an even length"},
    {"NZ alignment",
     [](auto& t) {
       t.SetAType(TPosition::GM, CubeFormat::NZ, DataType::DT_FLOAT16);
       t.SetShape(40, 64, 64);
     },
     "A in NZ: M 40 is not a multiple of 16: an NZ matrix has its rows "
     "aligned to 16 and its K to C0_size"},
    {"split-K with bias",
     [](auto& t) {
       t.SetShape(64, 64, 4096);
       t.EnableBias(true);
       t.EnableMultiCoreSplitK(true);
     },
     "EnableMultiCoreSplitK(true) with a bias is not supported: split-K adds "
     "partial results, the bias would be added once per part"},
    {"split-K to VECIN",
     [](auto& t) {
       t.SetShape(64, 64, 4096);
       t.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
       t.EnableMultiCoreSplitK(true);
     },
     "EnableMultiCoreSplitK(true) with C in VECIN: split-K accumulates C in "
     "GM"},
    {"single K without split-K",
     [](auto& t) {
       t.SetShape(64, 64, 4096);
       t.SetSingleShape(-1, -1, 1024);
     },
     "SetSingleShape singleKIn 1024 differs from K 4096: without "
     "EnableMultiCoreSplitK(true) each core takes the whole K"},
    {"single past shape",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetSingleShape(128);
     },
     "SetSingleShape singleMIn 128 exceeds the shape's 64: one core's part "
     "lies inside the shape"},
    {"fixed base past single",
     [](auto& t) {
       t.SetShape(12, 64, 64);
       t.SetFixSplit(32, -1);
     },
     "SetFixSplit baseM 32 exceeds singleCoreM 12 rounded up to 16 (16): "
     "baseM <= ceil(singleM / 16) * 16"},
    {"fixed bases past L0C",
     [](auto& t) {
       t.SetShape(1024, 1024, 64);
       t.SetFixSplit(512, 512);
       t.SetDim(1);
     },
     "TCubeTiling.baseM * baseN * 4 * dbL0C = 1048576 bytes exceeds L0C "
     "(131072 bytes): C's base block (float or int32_t) fits L0C (with the "
     "bases SetFixSplit fixed)"},
    {"fixed base misaligned",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetFixSplit(24, -1);
       t.SetDim(1);
     },
     "TCubeTiling.baseM 24 is not a multiple of 16: baseM is aligned to 16 "
     "(fractal alignment) (with the bases SetFixSplit fixed)"},
    {"L1 too small",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetBufferSpace(1000);
     },
     "TCubeTiling: A's and B's L1 blocks take 1024 bytes, more than L1 (1000 "
     "bytes): depthA1 blocks of A, depthB1 blocks of B fit L1"},
    {"single range empty",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetSingleRange(32, -1, -1, 32);
       t.SetDim(1);
     },
     "no split of M 64, N 64, K 64 over at most 1 cores gives single-core "
     "shapes inside SetSingleRange's bounds and the single shapes set"},
    {"split range empty",
     [](auto& t) {
       t.SetShape(32, 64, 64);
       t.SetSplitRange(-1, -1, -1, 64);
       t.SetDim(1);
     },
     "SetSplitRange asks for baseM of at least 64 and at most 32 (the "
     "single-core shape and the range's maximum, aligned): no value is "
     "left"},
    {"config type",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetMatmulConfigParams(2);
     },
     "SetMatmulConfigParams mmConfigType 2 is not supported: it is 0 (Norm) "
     "or 1 (MDL)"},
    {"config L1 cache UB",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetMatmulConfigParams(1, true);
     },
     "SetMatmulConfigParams enableL1CacheUB true is not supported on Atlas "
     "A2/A3"},
    {"config NBuffer33",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetMatmulConfigParams(1, false,
                               matmul_tiling::ScheduleType::N_BUFFER_33);
     },
     "SetMatmulConfigParams scheduleType N_BUFFER_33 is not supported: "
     "normgrad does not tile the NBuffer33 policy"},
    {"batch num",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetBatchInfoForNormal(3, 2, 64, 64, 64);
       t.SetBatchNum(2);
     },
     "SetBatchNum batch 2 is less than SetBatchInfoForNormal's batchA 3 / "
     "batchB 2: it is the larger of the two"},
    {"GEMV with M 2",
     [](auto& t) {
       t.SetAType(TPosition::GM, CubeFormat::VECTOR, DataType::DT_FLOAT16);
       t.SetShape(2, 64, 64);
     },
     "M 2 is not 1: A in CubeFormat::VECTOR (GEMV) is a single row"},
    {"GEMV transposed",
     [](auto& t) {
       t.SetAType(TPosition::GM, CubeFormat::VECTOR, DataType::DT_FLOAT16,
                  true);
       t.SetShape(1, 64, 64);
     },
     "A in CubeFormat::VECTOR (GEMV) with isTrans true: a vector A is not "
     "transposed"},
};

TEST(MatmulTilingRefusals, GetTilingSaysWhy) {
  for (const TilingRefusal& r : kTilingRefusals) {
    SCOPED_TRACE(r.what);
    matmul_tiling::MultiCoreMatmulTiling tiling;
    r.setup(tiling);
    AscendC::tiling::TCubeTiling t{};
    int64_t ret = 0;
    EXPECT_EQ(StderrOf([&] { ret = tiling.GetTiling(t); }),
              std::string(kPrefix) + r.message + kSuffix);
    EXPECT_EQ(ret, -1);
    EXPECT_EQ(tiling.GetBaseM(), -1);
  }
}

TEST(MatmulTilingRefusals, ProfileWithoutCube) {
  compat_test::ProfileScope scope(Profile::k310P);
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetShape(64, 64, 64);
  AscendC::tiling::TCubeTiling t{};
  int64_t ret = 0;
  EXPECT_EQ(StderrOf([&] { ret = tiling.GetTiling(t); }),
            "matmul_tiling::MatmulApiTiling::GetTiling: the platform (Atlas "
            "inference series) reports no cube memories (L1 0, L0A 0, L0B 0, "
            "L0C 0 bytes): normgrad emulates the cube on Atlas A2/A3 and "
            "the 950 (NORMGRAD_PROFILE=a2 or 950); no tiling was made "
            "(GetTiling returns -1).\n");
  EXPECT_EQ(ret, -1);
}

// ------------------------------------------------------------ buffers

TEST(MatmulTmpBufSize, SizesFromTheTiling) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
  tiling.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.EnableBias(true);
  tiling.SetShape(300, 200, 700);
  optiling::TCubeTiling host;
  AscendC::tiling::TCubeTiling kernel{};
  ASSERT_EQ(tiling.GetTiling(host), 0);
  ASSERT_EQ(tiling.GetTiling(kernel), 0);
  // L1: the page's AL1Size + BL1Size + the bias row; L0C: one float block
  // per buffer; UB: C's half block moved to VECIN.
  const int32_t l1 =
      static_cast<int32_t>(PageL1Bytes(kernel, 16, true, false, true, 32));
  const int32_t l0c = kernel.baseM * kernel.baseN * 4 * kernel.dbL0C;
  const int32_t ub = kernel.baseM * kernel.baseN * 2;
  using Host =
      int32_t (*)(optiling::TCubeTiling&, matmul_tiling::SysTilingTempBufSize&);
  using Kernel = int32_t (*)(AscendC::tiling::TCubeTiling&,
                             matmul_tiling::SysTilingTempBufSize&);
  for (Host f : {Host(matmul_tiling::MatmulGetTmpBufSize),
                 Host(matmul_tiling::MultiCoreMatmulGetTmpBufSize),
                 Host(matmul_tiling::BatchMatmulGetTmpBufSize)}) {
    matmul_tiling::SysTilingTempBufSize bufSize;
    EXPECT_EQ(f(host, bufSize), 0);
    EXPECT_EQ(bufSize.l1Size, l1);
    EXPECT_EQ(bufSize.l0cSize, l0c);
    EXPECT_EQ(bufSize.ubSize, ub);
  }
  for (Kernel f : {Kernel(matmul_tiling::MatmulGetTmpBufSizeV2),
                   Kernel(matmul_tiling::MultiCoreMatmulGetTmpBufSizeV2),
                   Kernel(matmul_tiling::BatchMatmulGetTmpBufSizeV2)}) {
    matmul_tiling::SysTilingTempBufSize bufSize;
    EXPECT_EQ(f(kernel, bufSize), 0);
    EXPECT_EQ(bufSize.l1Size, l1);
    EXPECT_EQ(bufSize.l0cSize, l0c);
    EXPECT_EQ(bufSize.ubSize, ub);
  }
}

TEST(MatmulTmpBufSize, GmOnlyTilingUsesNoUb) {
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetShape(1024, 1024, 1024);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  matmul_tiling::SysTilingTempBufSize bufSize;
  ASSERT_EQ(matmul_tiling::MultiCoreMatmulGetTmpBufSizeV2(t, bufSize), 0);
  EXPECT_EQ(bufSize.ubSize, 0);
  EXPECT_EQ(bufSize.l1Size,
            static_cast<int32_t>(PageL1Bytes(t, 16, false, false, false, 32)));
}

TEST(MatmulTmpBufSize, RefusesATilingGetTilingDidNotMake) {
  AscendC::tiling::TCubeTiling t{};
  matmul_tiling::SysTilingTempBufSize bufSize;
  bufSize.l1Size = 7;
  int32_t ret = 0;
  EXPECT_EQ(
      StderrOf([&] { ret = matmul_tiling::MatmulGetTmpBufSizeV2(t, bufSize); }),
      "matmul_tiling::MatmulGetTmpBufSizeV2: tiling has baseM 0, baseN 0, "
      "dbL0C 0, transLength 0: it is not a tiling from GetTiling (bases at "
      "least 1, dbL0C 1 or 2, transLength at least 0); bufSize is unchanged "
      "(returns -1).\n");
  EXPECT_EQ(ret, -1);
  EXPECT_EQ(bufSize.l1Size, 7);
  t.baseM = t.baseN = 16;
  t.dbL0C = 1;
  EXPECT_EQ(
      StderrOf([&] { ret = matmul_tiling::MatmulGetTmpBufSizeV2(t, bufSize); }),
      "matmul_tiling::MatmulGetTmpBufSizeV2: tiling.shareL1Size 0 is not "
      "positive: GetTiling records the L1 bytes there, so the tiling did not "
      "come from GetTiling; bufSize is unchanged (returns -1).\n");
  EXPECT_EQ(ret, -1);
}

// ------------------------------------------------------------ batch layouts

// The layout page's example (A [2, 32, 1, 3, 64], B [2, 256, 1, 3, 64], C
// [2, 32, 1, 3, 256], 3 batches a call) through GetTiling.
AscendC::tiling::TCubeTiling LayoutExample(
    void (*change)(matmul_tiling::MultiCoreMatmulTiling&) = nullptr,
    std::string* err = nullptr) {
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetDim(1);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
  tiling.SetShape(32, 256, 64);
  tiling.SetOrgShape(32, 256, 64);
  tiling.SetBias(true);
  EXPECT_EQ(tiling.SetALayout(2, 32, 1, 3, 64), 0);
  EXPECT_EQ(tiling.SetBLayout(2, 256, 1, 3, 64), 0);
  EXPECT_EQ(tiling.SetCLayout(2, 32, 1, 3, 256), 0);
  EXPECT_EQ(tiling.SetBatchNum(3), 0);
  if (change != nullptr) change(tiling);
  AscendC::tiling::TCubeTiling t{};
  int64_t ret = 0;
  const std::string stderr_text = StderrOf([&] { ret = tiling.GetTiling(t); });
  if (err != nullptr) {
    *err = stderr_text;
  } else {
    EXPECT_EQ(ret, 0) << stderr_text;
  }
  return t;
}

TEST(MatmulTilingBatch, LayoutSettersFillTheLayoutFields) {
  const AscendC::tiling::TCubeTiling t = LayoutExample();
  const int32_t want[16] = {2, 32, 1, 3,  64, 2, 256, 1,
                            3, 64, 2, 32, 1,  3, 256, 3};
  const int32_t got[16] = {
      t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN,  t.ALayoutInfoG,
      t.ALayoutInfoD, t.BLayoutInfoB, t.BLayoutInfoS,  t.BLayoutInfoN,
      t.BLayoutInfoG, t.BLayoutInfoD, t.CLayoutInfoB,  t.CLayoutInfoS1,
      t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2, t.BatchNum};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], want[i]) << "field " << i;
  // The host class carries them too.
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetShape(32, 256, 64);
  tiling.SetALayout(2, 32, 1, 3, 64);
  tiling.SetBLayout(2, 64, 1, 3, 256);
  tiling.SetCLayout(2, 32, 1, 3, 256);
  tiling.SetBatchNum(3);
  optiling::TCubeTiling host;
  ASSERT_EQ(tiling.GetTiling(host), 0);
  EXPECT_EQ(host.get_BLayoutInfoS(), 64);
  EXPECT_EQ(host.get_CLayoutInfoS2(), 256);
  EXPECT_EQ(host.get_BatchNum(), 3);
}

TEST(MatmulTilingBatch, NormalBatchesRecordTheLargerCount) {
  // SetBatchInfoForNormal without SetBatchNum: BatchNum is the larger of
  // batchA and batchB; no layout axes.
  matmul_tiling::BatchMatmulTiling tiling;
  tiling.SetShape(32, 256, 64);
  ASSERT_EQ(tiling.SetBatchInfoForNormal(2, 6, 32, 256, 64), 0);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.BatchNum, 6);
  EXPECT_EQ(t.ALayoutInfoB, 0);
  EXPECT_EQ(t.CLayoutInfoS2, 0);
}

TEST(MatmulTilingBatch, EachBatchRuleBreaksAlone) {
  struct Case {
    const char* name;
    CubeTilingRule rule;
    void (*breakIt)(AscendC::tiling::TCubeTiling*);
    const char* message;
  };
  const Case cases[] = {
      {"BatchNum negative", CubeTilingRule::kBatchLayout,
       [](auto* t) { t->BatchNum = -1; },
       "TCubeTiling.BatchNum -1 is negative: it is the most batches one "
       "IterateBatch computes (0 when the tiling has none)"},
      {"an axis missing", CubeTilingRule::kBatchLayout,
       [](auto* t) { t->CLayoutInfoG = 0; },
       "TCubeTiling.CLayoutInfoG 0 is not positive while other layout axes "
       "are set: SetALayout, SetBLayout and SetCLayout each give all five "
       "axes, at least 1"},
      {"no BatchNum", CubeTilingRule::kBatchLayout,
       [](auto* t) { t->BatchNum = 0; },
       "TCubeTiling.BatchNum 0 is not positive while the layouts are set: "
       "SetBatchNum gives the most batches one IterateBatch computes"},
      {"B axes", CubeTilingRule::kBatchPairing,
       [](auto* t) { t->BLayoutInfoB = 3; },
       "TCubeTiling: the B axes (A 2, B 3, C 2) and N axes (A 1, B 1, C 1) "
       "differ: batches pair up along B and N, only G may broadcast"},
      {"G axes", CubeTilingRule::kBatchPairing,
       [](auto* t) { t->BLayoutInfoG = 2; },
       "TCubeTiling: the G axes (ALayoutInfoG 3, BLayoutInfoG 2, "
       "CLayoutInfoG 3) do not divide the larger of A's and B's: an input "
       "broadcasts and C reduces along G by whole multiples"},
      {"C's G", CubeTilingRule::kBatchPairing,
       [](auto* t) { t->CLayoutInfoG = 2; },
       "TCubeTiling: the G axes (ALayoutInfoG 3, BLayoutInfoG 3, "
       "CLayoutInfoG 2) do not divide"},
      {"L1", CubeTilingRule::kBatchL1, [](auto* t) { t->BatchNum = 20; },
       // A 32 x 64 and B 256 x 64 (either orientation) of half: 36864
       // bytes a batch.
       "TCubeTiling.BatchNum 20 batches of A and B take 737280 bytes in Nz, "
       "more than L1 (524288 bytes): with the BSNGD, SBNGD and BNGS1S2 "
       "layouts one IterateBatch's matrices fit L1 together"},
  };
  CubeTilingContext c = ProfileCubeContext(Profile::kA2);
  c.b_transpose = true;
  c.bias = true;
  const AscendC::tiling::TCubeTiling valid = LayoutExample();
  EXPECT_EQ(CheckCubeTiling(valid, c), "");
  for (const Case& rc : cases) {
    SCOPED_TRACE(rc.name);
    AscendC::tiling::TCubeTiling t = valid;
    rc.breakIt(&t);
    const auto violation = FindCubeTilingViolation(t, c);
    EXPECT_EQ(violation.rule, rc.rule);
    EXPECT_EQ(violation.message.rfind(rc.message, 0), 0u) << violation.message;
  }
}

TEST(MatmulTilingBatch, GetTilingRefusesInconsistentLayouts) {
  std::string err;
  LayoutExample([](auto& t) { t.SetBLayout(3, 256, 1, 3, 64); }, &err);
  EXPECT_EQ(err, std::string(kPrefix) +
                     "TCubeTiling: the B axes (A 2, B 3, C 2) and N axes (A "
                     "1, B 1, C 1) differ: batches pair up along B and N, "
                     "only G may broadcast" +
                     kSuffix);
  LayoutExample([](auto& t) { t.SetBatchNum(20); }, &err);
  EXPECT_NE(err.find("TCubeTiling.BatchNum 20 batches of A and B take"),
            std::string::npos)
      << err;
}

// ------------------------------------------------------------ Ascend 950

// The 950's scale buffers L0A_MX and L0B_MX, each (docs/cube.md).
constexpr uint64_t kMxScaleBuffer950 = 4096;

uint64_t Ceil16(int64_t x) { return uint64_t(CeilDiv(x, 16) * 16); }

// The guide page's MxMatmul host sequence (E5M2, B transposed, scales in GM
// as ND, float C and bias) for an m x n x k matmul on the 950.
struct MxGuide {
  compat_test::ProfileScope scope{Profile::k950};
  matmul_tiling::MatmulApiTiling cubeTiling{Platform()};
  MxGuide(int32_t m, int32_t n, int32_t k) {
    using matmul_tiling::MatrixMadType;
    EXPECT_EQ(cubeTiling.SetAType(TPosition::GM, CubeFormat::ND,
                                  DataType::DT_FLOAT8_E5M2, false),
              0);
    EXPECT_EQ(cubeTiling.SetBType(TPosition::GM, CubeFormat::ND,
                                  DataType::DT_FLOAT8_E5M2, true),
              0);
    EXPECT_EQ(cubeTiling.SetScaleAType(TPosition::GM, CubeFormat::ND, false),
              0);
    EXPECT_EQ(cubeTiling.SetScaleBType(TPosition::GM, CubeFormat::ND, true), 0);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    cubeTiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    EXPECT_EQ(cubeTiling.SetMadType(MatrixMadType::MXMODE), 0);
    cubeTiling.SetShape(m, n, k);
    cubeTiling.SetOrgShape(m, n, k);
    cubeTiling.SetBufferSpace(-1, -1, -1);
    cubeTiling.EnableBias(true);
  }
  // The rules' context of this Matmul, as a kernel would give it.
  static CubeTilingContext Context() {
    CubeTilingContext c = ProfileCubeContext(Profile::k950);
    c.a_bits = c.b_bits = 8;
    c.b_transpose = true;
    c.bias = true;
    c.mdl = true;
    c.mx = true;
    return c;
  }
};

TEST(MxMatmulTiling950, GuidePageHostSequence) {
  const int32_t shapes[][3] = {{256, 512, 1024}, {64, 48, 96}, {1, 16, 4096}};
  for (const auto& shape : shapes) {
    SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]) +
                 "x" + std::to_string(shape[2]));
    MxGuide g(shape[0], shape[1], shape[2]);
    optiling::TCubeTiling tilingData;
    int64_t ret = -1;
    EXPECT_EQ(StderrOf([&] { ret = g.cubeTiling.GetTiling(tilingData); }), "");
    ASSERT_EQ(ret, 0);
    AscendC::tiling::TCubeTiling t{};
    ASSERT_EQ(g.cubeTiling.GetTiling(t), 0);
    EXPECT_EQ(t.mxTypePara, 0x01010101);  // every scale factor 1
    EXPECT_EQ(tilingData.get_mxTypePara(), 0x01010101);
    EXPECT_EQ(t.baseK % 64, 0);
    // The 950's memories, from the page's formulas (8-bit A and B).
    EXPECT_LE(uint64_t(t.baseM) * t.baseK * t.dbL0A, kL0A);
    EXPECT_LE(uint64_t(t.baseN) * t.baseK * t.dbL0B, kL0B);
    EXPECT_LE(uint64_t(t.baseM) * t.baseN * 4 * t.dbL0C, 256u * 1024);
    EXPECT_LE(Ceil16(t.baseM) * t.baseK / 32, kMxScaleBuffer950);
    EXPECT_LE(Ceil16(t.baseN) * t.baseK / 32, kMxScaleBuffer950);
    const uint64_t scales = Ceil16(t.baseM) * t.baseK / 32 * t.depthA1 +
                            Ceil16(t.baseN) * t.baseK / 32 * t.depthB1;
    const uint64_t l1 = PageL1Bytes(t, 8, false, true, true, 32) + scales;
    EXPECT_LE(l1, kL1);
    EXPECT_EQ(uint64_t(t.shareL1Size), l1);
    EXPECT_EQ(CheckCubeTiling(t, MxGuide::Context()), "");
  }
}

TEST(MxMatmulTiling950, ScalesDefaultToTheirOperands) {
  // Without SetScaleAType / SetScaleBType the scales take A's and B's
  // position, format and transpose (here A's NZ).
  compat_test::ProfileScope scope(Profile::k950);
  matmul_tiling::MatmulApiTiling tiling(Platform());
  tiling.SetAType(TPosition::GM, CubeFormat::NZ, DataType::DT_FLOAT8_E4M3FN);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT8_E4M3FN);
  tiling.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
  tiling.SetShape(128, 128, 256);
  AscendC::tiling::TCubeTiling t{};
  EXPECT_EQ(StderrOf([&] { EXPECT_EQ(tiling.GetTiling(t), 0); }), "");
  EXPECT_EQ(t.mxTypePara, 0x01010101);
}

// The 950's 8-bit float rows: tiled as int8_t (8-bit operands, 32-bit L0C).
TEST(MxMatmulTiling950, EightBitFloatRows) {
  compat_test::ProfileScope scope(Profile::k950);
  auto tile = [](DataType a, DataType b, DataType c, bool bias, DataType bt) {
    matmul_tiling::MatmulApiTiling tiling(Platform());
    EXPECT_EQ(tiling.SetAType(TPosition::GM, CubeFormat::ND, a), 0);
    EXPECT_EQ(tiling.SetBType(TPosition::GM, CubeFormat::ND, b, true), 0);
    tiling.SetCType(TPosition::GM, CubeFormat::ND, c);
    tiling.SetBiasType(TPosition::GM, CubeFormat::ND, bt);
    tiling.EnableBias(bias);
    tiling.SetShape(512, 384, 1024);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(StderrOf([&] { EXPECT_EQ(tiling.GetTiling(t), 0); }), "");
    return t;
  };
  const AscendC::tiling::TCubeTiling int8 =
      tile(DataType::DT_INT8, DataType::DT_INT8, DataType::DT_INT32, false,
           DataType::DT_INT32);
  const DataType pairs[][2] = {
      {DataType::DT_FLOAT8_E4M3FN, DataType::DT_FLOAT8_E4M3FN},
      {DataType::DT_FLOAT8_E4M3FN, DataType::DT_FLOAT8_E5M2},
      {DataType::DT_FLOAT8_E5M2, DataType::DT_FLOAT8_E4M3FN},
      {DataType::DT_FLOAT8_E5M2, DataType::DT_FLOAT8_E5M2},
      {DataType::DT_HIFLOAT8, DataType::DT_HIFLOAT8}};
  const DataType cs[] = {DataType::DT_FLOAT, DataType::DT_FLOAT16,
                         DataType::DT_BFLOAT16};
  for (const auto& p : pairs) {
    for (DataType c : cs) {
      SCOPED_TRACE(std::to_string(int(p[0])) + "," + std::to_string(int(p[1])) +
                   " C " + std::to_string(int(c)));
      const AscendC::tiling::TCubeTiling t = tile(p[0], p[1], c, false, c);
      EXPECT_EQ(t.baseM, int8.baseM);
      EXPECT_EQ(t.baseN, int8.baseN);
      EXPECT_EQ(t.baseK, int8.baseK);
      EXPECT_EQ(t.stepKa, int8.stepKa);
      EXPECT_EQ(t.depthA1, int8.depthA1);
      EXPECT_EQ(t.depthB1, int8.depthB1);
      EXPECT_EQ(t.shareL1Size, int8.shareL1Size);
      EXPECT_EQ(t.mxTypePara, 0);  // not MX mode
      for (DataType bt :
           {DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BFLOAT16}) {
        const AscendC::tiling::TCubeTiling tb = tile(p[0], p[1], c, true, bt);
        EXPECT_EQ(tb.isBias, 1);
      }
    }
  }
  // The 950's bfloat16 bias for float, half and bfloat16 operands.
  for (DataType ab :
       {DataType::DT_FLOAT, DataType::DT_FLOAT16, DataType::DT_BFLOAT16}) {
    for (DataType c : cs) {
      const AscendC::tiling::TCubeTiling t =
          tile(ab, ab, c, true, DataType::DT_BFLOAT16);
      EXPECT_EQ(t.isBias, 1);
    }
  }
}

TEST(MxMatmulTiling950, Bfloat16BiasIsThe950s) {
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_BFLOAT16);
  tiling.EnableBias(true);
  tiling.SetShape(64, 64, 64);
  AscendC::tiling::TCubeTiling t{};
  int64_t ret = 0;
  EXPECT_EQ(StderrOf([&] { ret = tiling.GetTiling(t); }),
            std::string(kPrefix) +
                "A and B DT_FLOAT16, C DT_FLOAT, bias DT_BFLOAT16 is not a "
                "type combination of Atlas A2/A3's Matmul" +
                kSuffix);
  EXPECT_EQ(ret, -1);
}

// The 950's quantized rows (C in DT_FLOAT8_E4M3FN or DT_HIFLOAT8, DT_INT8
// into DT_BFLOAT16): tiled on the 950 outside MX mode, refused elsewhere.
TEST(MxMatmulTiling950, QuantizedRows) {
  const auto run = [](DataType a, DataType b, DataType c, DataType bias,
                      bool mx) {
    matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
    tiling.SetAType(TPosition::GM, CubeFormat::ND, a);
    tiling.SetBType(TPosition::GM, CubeFormat::ND, b);
    tiling.SetCType(TPosition::GM, CubeFormat::ND, c);
    tiling.SetBiasType(TPosition::GM, CubeFormat::ND, bias);
    tiling.EnableBias(true);
    if (mx) tiling.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
    tiling.SetShape(96, 80, 200);
    AscendC::tiling::TCubeTiling t{};
    int64_t ret = 0;
    const std::string err = StderrOf([&] { ret = tiling.GetTiling(t); });
    return std::make_pair(ret, err);
  };
  using D = DataType;
  {
    compat_test::ProfileScope scope(Profile::k950);
    const DataType rows[][4] = {
        {D::DT_FLOAT8_E4M3FN, D::DT_FLOAT8_E4M3FN, D::DT_FLOAT8_E4M3FN,
         D::DT_FLOAT},
        {D::DT_FLOAT8_E5M2, D::DT_FLOAT8_E4M3FN, D::DT_FLOAT8_E4M3FN,
         D::DT_BFLOAT16},
        {D::DT_HIFLOAT8, D::DT_HIFLOAT8, D::DT_HIFLOAT8, D::DT_FLOAT16},
        {D::DT_INT8, D::DT_INT8, D::DT_BFLOAT16, D::DT_INT32}};
    for (const auto& r : rows) {
      SCOPED_TRACE(std::to_string(int(r[0])) + " C " +
                   std::to_string(int(r[2])));
      EXPECT_EQ(run(r[0], r[1], r[2], r[3], false),
                std::make_pair(0L, std::string()));
    }
    const std::string fp8_rule =
        " is not an 8-bit float row of the Ascend 950 that normgrad "
        "emulates: A and B DT_FLOAT8_E4M3FN or DT_FLOAT8_E5M2 (mixed too) or "
        "both DT_HIFLOAT8, bias DT_FLOAT, DT_FLOAT16 or DT_BFLOAT16, C "
        "DT_FLOAT, DT_FLOAT16 or DT_BFLOAT16 (outside MXMODE also "
        "DT_FLOAT8_E4M3FN from the first, DT_HIFLOAT8 from the second)";
    EXPECT_EQ(run(D::DT_FLOAT8_E4M3FN, D::DT_FLOAT8_E4M3FN, D::DT_HIFLOAT8,
                  D::DT_FLOAT, false),
              std::make_pair(-1L, std::string(kPrefix) +
                                      "A DT_FLOAT8_E4M3FN, B DT_FLOAT8_E4M3FN, "
                                      "C DT_HIFLOAT8, bias DT_FLOAT" +
                                      fp8_rule + kSuffix));
    EXPECT_EQ(run(D::DT_FLOAT8_E4M3FN, D::DT_FLOAT8_E5M2, D::DT_FLOAT8_E4M3FN,
                  D::DT_FLOAT, true),
              std::make_pair(-1L, std::string(kPrefix) +
                                      "A DT_FLOAT8_E4M3FN, B DT_FLOAT8_E5M2, "
                                      "C DT_FLOAT8_E4M3FN, bias DT_FLOAT" +
                                      fp8_rule + kSuffix));
  }
  EXPECT_EQ(run(D::DT_INT8, D::DT_INT8, D::DT_BFLOAT16, D::DT_INT32, false),
            std::make_pair(-1L, std::string(kPrefix) +
                                    "A and B DT_INT8, C DT_BFLOAT16, bias "
                                    "DT_INT32 is not a type combination of "
                                    "Atlas A2/A3's Matmul" +
                                    kSuffix));
  matmul_tiling::MultiCoreMatmulTiling a2;
  EXPECT_EQ(StderrOf([&] {
              EXPECT_EQ(a2.SetCType(TPosition::GM, CubeFormat::ND,
                                    DataType::DT_HIFLOAT8),
                        -1);
            }),
            "matmul_tiling::MultiCoreMatmulTiling::SetCType: dataType "
            "DT_HIFLOAT8 is not supported: on Atlas A2/A3 C is DT_FLOAT, "
            "DT_FLOAT16, DT_BFLOAT16, DT_INT8 or DT_INT32 (8-bit floats are "
            "Ascend 950's); the call is ignored.\n");
}

TEST(MxMatmulTiling950, SplitKCutsKIn64s) {
  // MX with A in the unified buffer and K split over cores: each core's K
  // is a whole number of 64s (baseK's unit), so its scales pair up.
  compat_test::ProfileScope scope(Profile::k950);
  for (int32_t k : {4000, 8192, 1000}) {
    SCOPED_TRACE(k);
    matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
    tiling.SetAType(TPosition::VECOUT, CubeFormat::ND,
                    DataType::DT_FLOAT8_E4M3FN);
    tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT8_E5M2);
    tiling.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
    tiling.EnableMultiCoreSplitK(true);
    tiling.SetDim(8);
    tiling.SetShape(32, 32, k);
    AscendC::tiling::TCubeTiling t{};
    EXPECT_EQ(StderrOf([&] { EXPECT_EQ(tiling.GetTiling(t), 0); }), "");
    EXPECT_LT(t.singleCoreK, k);
    EXPECT_EQ(t.singleCoreK % 64, 0);
    EXPECT_EQ(t.baseK % 64, 0);
    CubeTilingContext c = ProfileCubeContext(Profile::k950);
    c.a_bits = c.b_bits = 8;
    c.split_k = true;
    c.mx = true;
    EXPECT_EQ(CheckCubeTiling(t, c), "");
  }
}

const Refusal k950SetterRefusals[] = {
    {"SetAType int32",
     [](auto& t) {
       return t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
     },
     "matmul_tiling::MultiCoreMatmulTiling::SetAType: dataType DT_INT32 is "
     "not supported: on Ascend 950 A is DT_FLOAT, DT_FLOAT16, DT_BFLOAT16, "
     "DT_INT8, DT_INT4, DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2 or DT_HIFLOAT8; the "
     "call is ignored.\n"},
    {"SetScaleAType position",
     [](auto& t) { return t.SetScaleAType(TPosition::VECIN, CubeFormat::ND); },
     "matmul_tiling::MultiCoreMatmulTiling::SetScaleAType: scalePos VECIN is "
     "not supported: scaleA lies in GM, VECOUT or TSCM; the call is "
     "ignored.\n"},
    {"SetScaleBType VECTOR",
     [](auto& t) { return t.SetScaleBType(TPosition::GM, CubeFormat::VECTOR); },
     "matmul_tiling::MultiCoreMatmulTiling::SetScaleBType: scaleType VECTOR "
     "is not supported: scaleB's format is ND or NZ; the call is "
     "ignored.\n"},
    {"SetScaleAType TSCM ND",
     [](auto& t) { return t.SetScaleAType(TPosition::TSCM, CubeFormat::ND); },
     "matmul_tiling::MultiCoreMatmulTiling::SetScaleAType: scaleType ND with "
     "scalePos TSCM is not supported: a scale matrix in TSCM is NZ; the call "
     "is ignored.\n"},
    {"SetMadType HF32",
     [](auto& t) { return t.SetMadType(matmul_tiling::MatrixMadType::HF32); },
     "matmul_tiling::MultiCoreMatmulTiling::SetMadType: madType 1 is not "
     "supported: only NORMAL and MXMODE are (HF32 is not available in this "
     "version); the call is ignored.\n"},
};

TEST(MxMatmulTiling950, SetterRefusals) {
  compat_test::ProfileScope scope(Profile::k950);
  for (const Refusal& r : k950SetterRefusals) {
    SCOPED_TRACE(r.what);
    matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
    int32_t ret = 0;
    EXPECT_EQ(StderrOf([&] { ret = r.call(tiling); }), r.message);
    EXPECT_EQ(ret, -1);
  }
  // What the 950 accepts (each refused on Atlas A2/A3: kSetterRefusals).
  matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
  EXPECT_EQ(tiling.SetMadType(matmul_tiling::MatrixMadType::MXMODE), 0);
  EXPECT_EQ(tiling.SetScaleAType(TPosition::TSCM, CubeFormat::NZ), 0);
  EXPECT_EQ(tiling.SetScaleAType(TPosition::VECOUT, CubeFormat::VECTOR), 0);
  EXPECT_EQ(tiling.SetScaleBType(TPosition::VECOUT, CubeFormat::ND, false), 0);
  EXPECT_EQ(
      tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_HIFLOAT8), 0);
}

TEST(MxMatmulTiling950, AtlasA2RefusesTheEightBitFloats) {
  matmul_tiling::MultiCoreMatmulTiling tiling;
  EXPECT_EQ(StderrOf([&] {
              EXPECT_EQ(tiling.SetBType(TPosition::GM, CubeFormat::ND,
                                        DataType::DT_HIFLOAT8),
                        -1);
            }),
            "matmul_tiling::MultiCoreMatmulTiling::SetBType: dataType "
            "DT_HIFLOAT8 is not supported: on Atlas A2/A3 B is DT_FLOAT, "
            "DT_FLOAT16, DT_BFLOAT16, DT_INT8 or DT_INT4 (8-bit floats are "
            "Ascend 950's); the call is ignored.\n");
}

// An MX (or 8-bit float) request on the 950 with one thing wrong.
void Fp8Request(matmul_tiling::MultiCoreMatmulTiling& t, DataType a, DataType b,
                bool mx) {
  t.SetAType(TPosition::GM, CubeFormat::ND, a);
  t.SetBType(TPosition::GM, CubeFormat::ND, b, true);
  if (mx) t.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
  t.SetShape(128, 128, 256);
}

const TilingRefusal k950TilingRefusals[] = {
    {"HiFloat8 with E4M3",
     [](auto& t) {
       Fp8Request(t, DataType::DT_HIFLOAT8, DataType::DT_FLOAT8_E4M3FN, false);
     },
     "A DT_HIFLOAT8, B DT_FLOAT8_E4M3FN, C DT_FLOAT is not an 8-bit float "
     "row of the Ascend 950 that normgrad emulates: A and B DT_FLOAT8_E4M3FN "
     "or DT_FLOAT8_E5M2 (mixed too) or both DT_HIFLOAT8, bias DT_FLOAT, "
     "DT_FLOAT16 or DT_BFLOAT16, C DT_FLOAT, DT_FLOAT16 or DT_BFLOAT16 "
     "(outside MXMODE also DT_FLOAT8_E4M3FN from the first, DT_HIFLOAT8 from "
     "the second)"},
    {"8-bit float with int32 C",
     [](auto& t) {
       Fp8Request(t, DataType::DT_FLOAT8_E5M2, DataType::DT_FLOAT8_E5M2, false);
       t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
     },
     "A DT_FLOAT8_E5M2, B DT_FLOAT8_E5M2, C DT_INT32 is not an 8-bit float "
     "row of the Ascend 950 that normgrad emulates: A and B DT_FLOAT8_E4M3FN "
     "or DT_FLOAT8_E5M2 (mixed too) or both DT_HIFLOAT8, bias DT_FLOAT, "
     "DT_FLOAT16 or DT_BFLOAT16, C DT_FLOAT, DT_FLOAT16 or DT_BFLOAT16 "
     "(outside MXMODE also DT_FLOAT8_E4M3FN from the first, DT_HIFLOAT8 from "
     "the second)"},
    {"DT_INT4, which the 950's table lacks",
     [](auto& t) {
       t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT4);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT4);
       t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
       t.SetShape(64, 64, 64);
     },
     "A and B DT_INT4, C DT_INT32 is not a type combination of Ascend 950's "
     "Matmul"},
    {"mixed 16-bit types",
     [](auto& t) {
       t.SetShape(64, 64, 64);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_BFLOAT16);
     },
     "A is DT_FLOAT16 and B DT_BFLOAT16: on Ascend 950 A and B have one type "
     "(but for the 8-bit floats)"},
    {"MX with HiFloat8",
     [](auto& t) {
       Fp8Request(t, DataType::DT_HIFLOAT8, DataType::DT_HIFLOAT8, true);
     },
     "A DT_HIFLOAT8 is not an MxMatmul type: with SetMadType(MXMODE) A and B "
     "are DT_FLOAT8_E4M3FN or DT_FLOAT8_E5M2 (SetAType and SetBType list no "
     "fp4x2 type: an MXFP4 kernel takes a TCubeTiling filled in directly)"},
    {"MX with half",
     [](auto& t) {
       t.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
       t.SetShape(64, 64, 64);
     },
     "A DT_FLOAT16 is not an MxMatmul type: with SetMadType(MXMODE) A and B "
     "are DT_FLOAT8_E4M3FN or DT_FLOAT8_E5M2 (SetAType and SetBType list no "
     "fp4x2 type: an MXFP4 kernel takes a TCubeTiling filled in directly)"},
    {"scales without MX mode",
     [](auto& t) {
       Fp8Request(t, DataType::DT_FLOAT8_E5M2, DataType::DT_FLOAT8_E5M2, false);
       t.SetScaleBType(TPosition::GM, CubeFormat::ND);
     },
     "SetScaleBType was called without SetMadType(MatrixMadType::MXMODE): "
     "scale matrices belong to MxMatmul, which SetMadType turns on"},
    {"MX with A in TSCM as ND",
     [](auto& t) {
       Fp8Request(t, DataType::DT_FLOAT8_E5M2, DataType::DT_FLOAT8_E5M2, true);
       t.SetAType(TPosition::TSCM, CubeFormat::ND, DataType::DT_FLOAT8_E5M2);
       t.SetScaleAType(TPosition::TSCM, CubeFormat::NZ);
     },
     "A in TSCM with format ND: in MX mode a matrix in TSCM is in the NZ "
     "format"},
    {"MX GEMV with scaleA ND",
     [](auto& t) {
       t.SetAType(TPosition::GM, CubeFormat::VECTOR,
                  DataType::DT_FLOAT8_E4M3FN);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT8_E4M3FN);
       t.SetScaleAType(TPosition::GM, CubeFormat::ND);
       t.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
       t.SetShape(1, 128, 256);
     },
     "scaleA is ND in GM: in MX mode with A or scaleA in CubeFormat::VECTOR "
     "(GEMV) both are VECTOR, in GM and not transposed"},
    {"MX singleCoreK odd in 32s with A in UB",
     [](auto& t) {
       Fp8Request(t, DataType::DT_FLOAT8_E4M3FN, DataType::DT_FLOAT8_E4M3FN,
                  true);
       t.SetAType(TPosition::VECOUT, CubeFormat::ND,
                  DataType::DT_FLOAT8_E4M3FN);
       t.SetShape(128, 128, 160);
     },
     "singleCoreK 160 rounded up to 32 is an odd multiple of 32: in MX mode "
     "with A or B outside GM, singleCoreK aligned up to 32 is an even "
     "multiple of 32"},
};

TEST(MxMatmulTiling950, GetTilingRefusals) {
  compat_test::ProfileScope scope(Profile::k950);
  for (const TilingRefusal& r : k950TilingRefusals) {
    SCOPED_TRACE(r.what);
    matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
    r.setup(tiling);
    AscendC::tiling::TCubeTiling t{};
    int64_t ret = 0;
    EXPECT_EQ(StderrOf([&] { ret = tiling.GetTiling(t); }),
              std::string(kPrefix) + r.message + kSuffix);
    EXPECT_EQ(ret, -1);
  }
  // The same GEMV without SetScaleAType tiles: scaleA takes A's VECTOR.
  matmul_tiling::MultiCoreMatmulTiling gemv(Platform());
  gemv.SetAType(TPosition::GM, CubeFormat::VECTOR, DataType::DT_FLOAT8_E4M3FN);
  gemv.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT8_E4M3FN);
  gemv.SetMadType(matmul_tiling::MatrixMadType::MXMODE);
  gemv.SetShape(1, 128, 256);
  AscendC::tiling::TCubeTiling t{};
  EXPECT_EQ(StderrOf([&] { EXPECT_EQ(gemv.GetTiling(t), 0); }), "");
}

// A valid MX tiling (the guide's, K loaded in parts) and its context.
struct ValidMx {
  AscendC::tiling::TCubeTiling t{};
  CubeTilingContext c = MxGuide::Context();
  ValidMx() {
    MxGuide g(256, 256, 8192);
    EXPECT_EQ(g.cubeTiling.GetTiling(t), 0);
  }
};

const RuleCase kMxRuleCases[] = {
    {"MX baseK", CubeTilingRule::kMxBaseK,
     [](auto* t, auto*) { t->baseK = 96; },
     "TCubeTiling.baseK 96 is not a multiple of 64: in MX mode baseK is a "
     "multiple of 64 (MmadMx multiplies K in units of 64)"},
    {"L0A_MX", CubeTilingRule::kL0AMx,
     [](auto* t, auto* c) {
       t->baseM = 128;
       c->l0a_mx_bytes = 4 * t->baseK - 1;
     },
     nullptr},
    {"L0B_MX", CubeTilingRule::kL0BMx,
     [](auto* t, auto* c) {
       t->baseN = 128;
       c->l0b_mx_bytes = 4 * t->baseK - 32;
     },
     nullptr},
    {"mxTypePara zero factor", CubeTilingRule::kMxTypePara,
     [](auto* t, auto*) { t->mxTypePara = 0x01000101; },
     "TCubeTiling.mxTypePara 16777473 has scaleFactorM 0: each scale factor "
     "is in [1, 127]"},
    {"mxTypePara high bit", CubeTilingRule::kMxTypePara,
     [](auto* t, auto*) { t->mxTypePara = 0x01018101; },
     "TCubeTiling.mxTypePara 16875777 sets bit 7, 15, 23 or 31: it holds "
     "four 7-bit scale factors at bits 0, 8, 16 and 24"},
    {"mxTypePara M without Ka whole", CubeTilingRule::kMxTypePara,
     [](auto* t, auto*) { t->mxTypePara = 0x01020101; }, nullptr},
    {"mxTypePara N without Kb whole", CubeTilingRule::kMxTypePara,
     [](auto* t, auto*) { t->mxTypePara = 0x02010101; }, nullptr},
};

TEST(MxCubeTilingRules, EachMxRuleBreaksAlone) {
  compat_test::ProfileScope scope(Profile::k950);
  ValidMx v;
  ASSERT_EQ(CheckCubeTiling(v.t, v.c), "");
  // K is loaded in parts here (the M and N factor rules rely on it).
  ASSERT_LT(int64_t(v.t.baseK) * v.t.stepKa, v.t.singleCoreK);
  for (const RuleCase& rc : kMxRuleCases) {
    SCOPED_TRACE(rc.name);
    ValidMx w;
    rc.breakIt(&w.t, &w.c);
    const auto violation = FindCubeTilingViolation(w.t, w.c);
    EXPECT_EQ(violation.rule, rc.rule);
    if (rc.message != nullptr) {
      EXPECT_EQ(violation.message, rc.message);
    }
    EXPECT_NE(violation.message, "");
  }
}

TEST(MxCubeTilingRules, MessagesWithComputedValues) {
  compat_test::ProfileScope scope(Profile::k950);
  ValidMx v;
  v.t.baseM = 128;
  v.c.l0a_mx_bytes = 200;
  EXPECT_EQ(CheckCubeTiling(v.t, v.c),
            "TCubeTiling: Ceil16(baseM) * baseK / 32 = " +
                std::to_string(128 * v.t.baseK / 32) +
                " bytes of A's scales exceed L0A_MX (200 bytes): in MX mode "
                "one base block's scales fit L0A_MX");
  ValidMx w;
  w.t.mxTypePara = 0x01020101;
  EXPECT_EQ(CheckCubeTiling(w.t, w.c),
            "TCubeTiling.mxTypePara 16908545 has scaleFactorM 2 while baseK "
            "* stepKa * scaleFactorKa = " +
                std::to_string(w.t.baseK * w.t.stepKa) +
                " < singleCoreK 8192: a scale factor along M or N above 1 "
                "needs that side's K loaded whole");
}

TEST(MxCubeTilingRules, FactorsWithKWholeAndTheL1Scales) {
  compat_test::ProfileScope scope(Profile::k950);
  // scaleFactorKa 2 loads Ka whole when baseK * stepKa * 2 covers it: then
  // scaleFactorM may exceed 1.
  ValidMx v;
  const int32_t k_parts = static_cast<int32_t>(
      CeilDiv(v.t.singleCoreK, int64_t(v.t.baseK) * v.t.stepKa));
  ASSERT_LE(k_parts, 127);
  v.t.mxTypePara = 0x01050100 | k_parts;
  EXPECT_EQ(CheckCubeTiling(v.t, v.c), "");
  // mxTypePara 0 (a tiling that predates MX's fields) passes too.
  v.t.mxTypePara = 0;
  EXPECT_EQ(CheckCubeTiling(v.t, v.c), "");
  // MX counts one block of scales beside each block of A and B in L1:
  // Ceil16(baseM) * baseK / 32 bytes (20 rows take a 32-row fractal pair).
  AscendC::tiling::TCubeTiling t{};
  t.baseM = 20;
  t.baseN = 64;
  t.baseK = 128;
  t.depthA1 = 2;
  t.depthB1 = 3;
  CubeTilingContext c = MxGuide::Context();
  c.bias = false;
  const uint64_t plain = 20 * 128 * 2 + 64 * 128 * 3;
  const uint64_t scales = 32 * 128 / 32 * 2 + 64 * 128 / 32 * 3;
  EXPECT_EQ(normgrad_ascendc::matmul::CubeL1Bytes(t, c), plain + scales);
  c.mx = false;
  EXPECT_EQ(normgrad_ascendc::matmul::CubeL1Bytes(t, c), plain);
}

// ------------------------------------------------------------ 4:2 sparse

// The sparse guide page's host sequence: int8 A, int8 B transposed (its
// kept values [N, K / 2]), int32 C, SetSparse(true) before GetTiling.
void SparseRequest(matmul_tiling::MatmulApiTilingBase& t, int32_t m, int32_t n,
                   int32_t k) {
  t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
  t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8, true);
  t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
  EXPECT_EQ(t.SetSparse(true), 0);
  t.SetShape(m, n, k);
  t.SetOrgShape(m, n, k);
  t.SetBufferSpace(-1, -1, -1);
}

// The rules' context of that Matmul, as the kernel's Init gives it.
CubeTilingContext SparseContext() {
  CubeTilingContext c = ProfileCubeContext(Profile::kA2);
  c.a_bits = c.b_bits = 8;
  c.b_transpose = true;
  c.mdl = true;
  c.sparse = true;
  return c;
}

TEST(SparseMatmulTiling, GuidePageHostSequence) {
  const int32_t shapes[][3] = {
      {1024, 1024, 1024}, {50, 40, 200}, {16, 16, 4096}};
  for (const auto& shape : shapes) {
    SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]) +
                 "x" + std::to_string(shape[2]));
    matmul_tiling::MatmulApiTiling tiling(Platform());
    SparseRequest(tiling, shape[0], shape[1], shape[2]);
    AscendC::tiling::TCubeTiling t{};
    ASSERT_EQ(tiling.GetTiling(t), 0);
    EXPECT_EQ(CheckCubeTiling(t, SparseContext()), "");
    // Whole fractals of 32 kept values (and of their indices) a K step.
    EXPECT_EQ(t.baseK % 64, 0);
    // L0B holds baseK / 2 kept values of baseN columns; L1 A's blocks, B's
    // kept values and a quarter of those again for their indices.
    EXPECT_LE(uint64_t(t.baseN) * t.baseK / 2 * t.dbL0B, kL0B);
    const uint64_t b = uint64_t(t.baseN) * t.baseK / 2 * t.depthB1;
    EXPECT_LE(uint64_t(t.baseM) * t.baseK * t.depthA1 + b + b / 4, kL1);
  }
  // Split over cores, each core's K whole, with the guide's int32 bias.
  matmul_tiling::MultiCoreMatmulTiling multi(Platform());
  SparseRequest(multi, 256, 512, 640);
  multi.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
  multi.EnableBias(true);
  multi.SetDim(4);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(multi.GetTiling(t), 0);
  CubeTilingContext with_bias = SparseContext();
  with_bias.bias = true;
  EXPECT_EQ(CheckCubeTiling(t, with_bias), "");
  EXPECT_EQ(t.isBias, 1);
  EXPECT_GT(t.usedCoreNum, 1);
}

TEST(SparseMatmulTiling, RulesCountTheKeptValuesAndTheirIndices) {
  matmul_tiling::MatmulApiTiling tiling(Platform());
  SparseRequest(tiling, 256, 256, 512);
  AscendC::tiling::TCubeTiling t{};
  ASSERT_EQ(tiling.GetTiling(t), 0);
  CubeTilingContext c = SparseContext();
  const uint64_t a = uint64_t(t.baseM) * t.baseK * t.depthA1;
  const uint64_t kept = uint64_t(t.baseN) * t.baseK / 2 * t.depthB1;
  EXPECT_EQ(normgrad_ascendc::matmul::CubeL1Bytes(t, c), a + kept + kept / 4);
  // baseK not a multiple of 64 breaks the sparse rule alone.
  t.baseK = 32;
  t.stepKa = t.stepKb = 1;
  t.depthA1 = t.stepM;
  t.depthB1 = t.stepN;
  const auto violation = FindCubeTilingViolation(t, c);
  EXPECT_EQ(violation.rule, CubeTilingRule::kSparseK);
  EXPECT_EQ(violation.message,
            "TCubeTiling.baseK 32 is not a multiple of 64: in the 4:2 sparse "
            "Matmul K goes in multiples of 64 (a step moves whole fractals of "
            "B's kept values and of their indices, 32 kept values of 64)");
  // L0B counts the kept half of baseK: 256 x 512 / 2 fills it exactly (the
  // dense block would take twice that), 256 x 640 / 2 exceeds it.
  t.baseM = 16;
  t.baseN = 256;
  t.baseK = 512;
  t.dbL0B = 1;
  EXPECT_NE(FindCubeTilingViolation(t, c).rule, CubeTilingRule::kL0B);
  t.baseK = 640;
  const auto l0b = FindCubeTilingViolation(t, c);
  EXPECT_EQ(l0b.rule, CubeTilingRule::kL0B);
  EXPECT_EQ(l0b.message,
            "TCubeTiling.baseN * baseK / 2 (B's kept values) * sizeof(B) * "
            "dbL0B = 81920 bytes exceeds L0B (65536 bytes): B's base block "
            "fits L0B");
}

const TilingRefusal kSparseRefusals[] = {
    {"half operands",
     [](auto& t) {
       SparseRequest(t, 64, 64, 128);
       t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
       t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
     },
     "SetSparse(true) with A DT_FLOAT16 and B DT_FLOAT16: the 4:2 sparse "
     "Matmul takes A and B DT_INT8"},
    {"B not transposed",
     [](auto& t) {
       SparseRequest(t, 64, 64, 128);
       t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8, false);
     },
     "SetSparse(true): the 4:2 sparse Matmul takes B in GM as ND or NZ with "
     "isTrans true (SetBType; SparseMatmulType's table)"},
};

TEST(SparseMatmulTiling, Refusals) {
  for (const TilingRefusal& r : kSparseRefusals) {
    SCOPED_TRACE(r.what);
    matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
    r.setup(tiling);
    AscendC::tiling::TCubeTiling t{};
    int64_t ret = 0;
    EXPECT_EQ(StderrOf([&] { ret = tiling.GetTiling(t); }),
              std::string(kPrefix) + r.message + kSuffix);
    EXPECT_EQ(ret, -1);
  }
  // The Ascend 950 has no sparse Matmul: SetSparse(true) is refused there.
  compat_test::ProfileScope scope(Profile::k950);
  matmul_tiling::MultiCoreMatmulTiling tiling(Platform());
  int32_t ret = 0;
  EXPECT_EQ(StderrOf([&] { ret = tiling.SetSparse(true); }),
            "matmul_tiling::MultiCoreMatmulTiling::SetSparse: isSparseIn true "
            "on Ascend 950: the 4:2 sparse Matmul is Atlas A2/A3's (its "
            "SetSparseIndex page; the Ascend 950's cube has no sparse Mmad); "
            "the call is ignored.\n");
  EXPECT_EQ(ret, -1);
  EXPECT_EQ(tiling.SetSparse(false), 0);
}

}  // namespace
