// matmul_kernel_test.cc — the kernel-side Matmul object (docs/matmul.md) on
// a cube core: C = A · B + bias against a reference written here from the
// documented order (docs/numerics.md, "Cube: Mmad": per element, the bias
// first, then k ascending, each product and add rounded once to float), bit
// for bit; the iterate orders, the output formats (ND, ND_ALIGN, NZ, CO1),
// enAtomic, enSequentialWrite, enPartialSum, several objects and reuse;
// then every rule's message.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line with
// its message. Tests run on the calling thread's core made a cube core by
// the fixture, as a kernel's KERNEL_TASK_TYPE_DEFAULT does.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
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
using AscendC::LocalTensor;
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

using MatmulTest = matmul_test::CubeCoreTest;

// The documented order: acc = bias[n]; acc = fl(acc + a·b) for k ascending
// (the half products are exact in float).
std::vector<float> Reference(const std::vector<half>& a,
                             const std::vector<half>& b,
                             const std::vector<float>* bias, int m, int n,
                             int k) {
  std::vector<float> c(size_t{1} * m * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float acc = bias != nullptr ? (*bias)[j] : 0.0f;
      for (int p = 0; p < k; ++p) {
        const float prod = static_cast<float>(a[size_t{1} * i * k + p]) *
                           static_cast<float>(b[size_t{1} * p * n + j]);
        acc = acc + prod;
      }
      c[size_t{1} * i * n + j] = acc;
    }
  }
  return c;
}

struct Inputs {
  std::vector<half> a, b;
  std::vector<float> bias;
};

Inputs RandomInputs(int m, int n, int k, uint32_t seed = 32) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Inputs in;
  for (int i = 0; i < m * k; ++i) in.a.push_back(half(normal(rng)));
  for (int i = 0; i < k * n; ++i) in.b.push_back(half(normal(rng)));
  for (int i = 0; i < n; ++i) in.bias.push_back(normal(rng));
  return in;
}

using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using HalfGmT = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using HalfMatmul = Matmul<HalfGm, HalfGm, FloatGm, FloatGm>;

bool SameBits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() &&
         std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

// ---- Results ---------------------------------------------------------------

TEST_F(MatmulTest, IterateAllIsTheDocumentedOrderBitForBit) {
  const int m = 50, n = 40, k = 70;  // tails in M, N and K
  Inputs in = RandomInputs(m, n, k);
  std::vector<float> c(size_t{1} * m * n, -1.0f);
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32);
  TPipe pipe;
  HalfMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(in.a));
  mm.SetTensorB(Gm(in.b));
  mm.SetBias(Gm(in.bias));
  mm.IterateAll(Gm(c));
  mm.End();
  EXPECT_TRUE(SameBits(c, Reference(in.a, in.b, &in.bias, m, n, k)));
}

TEST_F(MatmulTest, IterateVisitsBlocksMFirstOrNFirst) {
  // 2 × 3 blocks of 16 × 16, written one after the other
  // (enSequentialWrite): their order is the tiling's iterateOrder.
  const int m = 32, n = 48, k = 16;
  Inputs in = RandomInputs(m, n, k);
  const std::vector<float> want = Reference(in.a, in.b, nullptr, m, n, k);
  for (int order = 0; order < 2; ++order) {
    const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16, false, order);
    TPipe pipe;
    HalfMatmul mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(in.a));
    mm.SetTensorB(Gm(in.b));
    std::vector<float> block(16 * 16);
    int count = 0;
    while (mm.Iterate()) {
      mm.GetTensorC(Gm(block), 0, true);
      const int bm = order == 0 ? count % 2 : count / 3;
      const int bn = order == 0 ? count / 2 : count % 3;
      for (int r = 0; r < 16; ++r) {
        for (int col = 0; col < 16; ++col) {
          ASSERT_EQ(block[r * 16 + col],
                    want[size_t{1} * (bm * 16 + r) * n + bn * 16 + col])
              << "order " << order << " block " << count;
        }
      }
      ++count;
    }
    EXPECT_EQ(count, 6);
  }
}

TEST_F(MatmulTest, TransposedOperandsGiveTheSameProduct) {
  const int m = 40, n = 24, k = 36;
  Inputs in = RandomInputs(m, n, k);
  std::vector<half> at(in.a.size()), bt(in.b.size());
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p) at[size_t{1} * p * m + i] = in.a[i * k + p];
  for (int p = 0; p < k; ++p)
    for (int j = 0; j < n; ++j) bt[size_t{1} * j * k + p] = in.b[p * n + j];
  const TCubeTiling tiling = Tiling(m, n, k, 32, 16, 16);
  TPipe pipe;
  Matmul<HalfGmT, HalfGmT, FloatGm, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<float> c(size_t{1} * m * n);
  mm.SetTensorA(Gm(at), true);
  mm.SetTensorB(Gm(bt), true);
  mm.SetBias(Gm(in.bias));
  mm.IterateAll(Gm(c));
  EXPECT_TRUE(SameBits(c, Reference(in.a, in.b, &in.bias, m, n, k)));
}

TEST_F(MatmulTest, Int8GivesExactInt32) {
  const int m = 20, n = 32, k = 100;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(-128, 127);
  std::vector<int8_t> a(m * k), bt(n * k);
  std::vector<int32_t> bias(n);
  for (auto& x : a) x = static_cast<int8_t>(value(rng));
  for (auto& x : bt) x = static_cast<int8_t>(value(rng));
  for (auto& x : bias) x = value(rng) * 1000;
  // A as [M, K], B as [N, K]: for int8_t the transpose is ISTRANS.
  using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using I8T = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 64);
  TPipe pipe;
  Matmul<I8, I8T, I32, I32> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<int32_t> c(m * n);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(bt), true);
  mm.SetBias(Gm(bias));
  mm.IterateAll(Gm(c));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int64_t want = bias[j];
      for (int p = 0; p < k; ++p) want += a[i * k + p] * bt[j * k + p];
      ASSERT_EQ(c[i * n + j], want) << i << ", " << j;
    }
  }
}

// A float rounded to 12 significant bits (HF32), to nearest with ties to
// even or away from zero, computed in double from the value (normal inputs).
float RoundedToHf32(float x, bool ties_away) {
  if (x == 0.0f) return x;
  int exponent = 0;
  std::frexp(static_cast<double>(x), &exponent);
  const double scaled = std::ldexp(static_cast<double>(x), 12 - exponent);
  const double whole = ties_away ? std::round(scaled) : std::nearbyint(scaled);
  return static_cast<float>(std::ldexp(whole, exponent - 12));
}

TEST_F(MatmulTest, SetHF32RoundsFloatInputsInTheChosenMode) {
  const int m = 16, n = 16, k = 40;
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  // Every third input sits exactly halfway between two HF32 values, so the
  // two tie rules give different products.
  const auto input = [&](int i) {
    float v = normal(rng);
    if (i % 3 == 0) {
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      bits = (bits & ~0xfffu) | 0x800u;
      std::memcpy(&v, &bits, 4);
    }
    return v;
  };
  std::vector<float> a(m * k), bt(n * k);
  for (int i = 0; i < m * k; ++i) a[i] = input(i);
  for (int i = 0; i < n * k; ++i) bt[i] = input(i + 1);
  const auto reference = [&](int hf32) {  // 0 off, 1 ties even, 2 away
    std::vector<float> c(m * n);
    const auto in = [&](float x) {
      return hf32 == 0 ? x : RoundedToHf32(x, hf32 == 2);
    };
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (int p = 0; p < k; ++p) {
          const float prod = in(a[i * k + p]) * in(bt[j * k + p]);
          acc = acc + prod;
        }
        c[i * n + j] = acc;
      }
    }
    return c;
  };
  using FloatGmT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16, false);
  TPipe pipe;
  Matmul<FloatGm, FloatGmT, FloatGm, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<float> c(m * n);
  const auto run = [&] {
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(bt), true);
    mm.IterateAll(Gm(c));
    return c;
  };
  mm.SetHF32(true);
  const std::vector<float> even = run();
  EXPECT_TRUE(SameBits(even, reference(1)));
  mm.SetHF32(true, 1);
  const std::vector<float> away = run();
  EXPECT_TRUE(SameBits(away, reference(2)));
  EXPECT_FALSE(SameBits(even, away));
  mm.SetHF32(false);
  EXPECT_TRUE(SameBits(run(), reference(0)));
  mm.End();
}

TEST_F(MatmulTest, HalfOutputIsTheFloatResultRoundedOnce) {
  const int m = 16, n = 16, k = 48;
  Inputs in = RandomInputs(m, n, k);
  using HalfOut = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, HalfOut, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<half> c(m * n);
  mm.SetTensorA(Gm(in.a));
  mm.SetTensorB(Gm(in.b));
  mm.SetBias(Gm(in.bias));
  mm.IterateAll(Gm(c));
  const std::vector<float> want = Reference(in.a, in.b, &in.bias, m, n, k);
  for (int i = 0; i < m * n; ++i) {
    ASSERT_EQ(static_cast<float>(c[i]), static_cast<float>(half(want[i])));
  }
}

TEST_F(MatmulTest, NdAlignAndNzOutputsPlaceTheValues) {
  const int m = 20, n = 20, k = 16;
  Inputs in = RandomInputs(m, n, k);
  const std::vector<float> want = Reference(in.a, in.b, nullptr, m, n, k);
  {
    // ND_ALIGN: rows of 24 floats (20 rounded up to 32 bytes).
    using Aligned = MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, float>;
    const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16, false);
    TPipe pipe;
    Matmul<HalfGm, HalfGm, Aligned, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    std::vector<float> c(m * 24, -1.0f);
    mm.SetTensorA(Gm(in.a));
    mm.SetTensorB(Gm(in.b));
    mm.IterateAll(Gm(c));
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) ASSERT_EQ(c[i * 24 + j], want[i * n + j]);
      for (int j = n; j < 24; ++j) ASSERT_EQ(c[i * 24 + j], -1.0f);
    }
  }
  {
    // NZ: column blocks of 16, each Ceil16(M) = 32 rows of 16 values.
    const int n16 = 32;
    Inputs wide = RandomInputs(m, n16, k, 5);
    const std::vector<float> want16 =
        Reference(wide.a, wide.b, nullptr, m, n16, k);
    using Nz = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
    const TCubeTiling tiling = Tiling(m, n16, k, 16, 16, 16, false);
    TPipe pipe;
    Matmul<HalfGm, HalfGm, Nz, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    // An NZ output starts 32-byte aligned.
    std::vector<float> store(32 * n16 + 8, -1.0f);
    float* c = store.data();
    while (reinterpret_cast<uintptr_t>(c) % 32 != 0) ++c;
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer(c, 32 * n16);
    mm.SetTensorA(Gm(wide.a));
    mm.SetTensorB(Gm(wide.b));
    mm.IterateAll(cGm);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n16; ++j) {
        ASSERT_EQ(c[(j / 16) * 32 * 16 + i * 16 + j % 16], want16[i * n16 + j]);
      }
    }
  }
}

TEST_F(MatmulTest, EnAtomicAddsToWhatGmHolds) {
  const int m = 16, n = 32, k = 32;
  Inputs in = RandomInputs(m, n, k);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16, false);
  TPipe pipe;
  HalfMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<float> c(m * n, 0.5f);
  mm.SetTensorA(Gm(in.a));
  mm.SetTensorB(Gm(in.b));
  mm.IterateAll(Gm(c), 1);
  const std::vector<float> want = Reference(in.a, in.b, nullptr, m, n, k);
  for (int i = 0; i < m * n; ++i) ASSERT_EQ(c[i], 0.5f + want[i]);
}

TEST_F(MatmulTest, UserL0cIterateAccumulatesWithEnPartialSum) {
  // C at CO1: the object computes into the kernel's L0C tensor; the second
  // Iterate with enPartialSum adds the same product again.
  const int m = 16, n = 16, k = 32;
  Inputs in = RandomInputs(m, n, k);
  using Co1 = MatmulType<TPosition::CO1, CubeFormat::NZ, float>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16, false);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, Co1, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TQue<TPosition::CO1, 1> co1;
  pipe.InitBuffer(co1, 1, 16 * 16 * 4);
  LocalTensor<float> l0c = co1.AllocTensor<float>();
  mm.SetTensorA(Gm(in.a));
  mm.SetTensorB(Gm(in.b));
  ASSERT_TRUE(mm.Iterate(false, l0c));
  EXPECT_FALSE(mm.Iterate(false, l0c));
  mm.SetTensorA(Gm(in.a));  // the same block again
  ASSERT_TRUE(mm.Iterate(true, l0c));
  AscendC::FixpipeParamsV220 out;
  out.mSize = m;
  out.nSize = n;
  out.srcStride = 16;
  out.dstStride = n;
  std::vector<float> c(m * n);
  AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(Gm(c), l0c, out);
  // Reference: the sum over k run twice, the second from the first's end.
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int rep = 0; rep < 2; ++rep) {
        for (int p = 0; p < k; ++p) {
          acc += static_cast<float>(in.a[i * k + p]) *
                 static_cast<float>(in.b[p * n + j]);
        }
      }
      ASSERT_EQ(c[i * n + j], acc);
    }
  }
  co1.FreeTensor(l0c);
}

TEST_F(MatmulTest, TwoObjectsAndReuseWithNewShapes) {
  const int m = 32, n = 32, k = 32;
  Inputs in = RandomInputs(m, n, k);
  const TCubeTiling t1 = Tiling(m, n, k, 16, 16, 16);
  const TCubeTiling t2 = Tiling(m, n, k, 32, 32, 32, false, 1);
  TPipe pipe;
  HalfMatmul mm1, mm2;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm1, &t1, mm2, &t2);
  std::vector<float> c1(m * n), c2(m * n);
  mm1.SetTensorA(Gm(in.a));
  mm1.SetTensorB(Gm(in.b));
  mm1.SetBias(Gm(in.bias));
  mm2.SetTensorA(Gm(in.a));
  mm2.SetTensorB(Gm(in.b));
  mm1.IterateAll(Gm(c1));
  mm2.IterateAll(Gm(c2));
  EXPECT_TRUE(SameBits(c1, Reference(in.a, in.b, &in.bias, m, n, k)));
  EXPECT_TRUE(SameBits(c2, Reference(in.a, in.b, nullptr, m, n, k)));
  // Reuse: the top-left 16 × 24 × 20 of the same matrices (SetOrgShape
  // keeps the rows' lengths), then without the bias.
  mm1.SetOrgShape(m, n, k);
  mm1.SetSingleShape(16, 24, 20);
  mm1.SetTensorA(Gm(in.a));
  mm1.SetTensorB(Gm(in.b));
  mm1.SetBias(Gm(in.bias));
  mm1.DisableBias();
  std::vector<float> part(m * n, -1.0f);
  mm1.IterateAll(Gm(part));
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 24; ++j) {
      float acc = 0.0f;
      for (int p = 0; p < 20; ++p) {
        acc += static_cast<float>(in.a[i * k + p]) *
               static_cast<float>(in.b[p * n + j]);
      }
      ASSERT_EQ(part[i * n + j], acc);
    }
    ASSERT_EQ(part[i * n + 24], -1.0f);
  }
}

TEST_F(MatmulTest, AsyncFormsAndBookkeepingMembers) {
  const int m = 16, n = 16, k = 16;
  Inputs in = RandomInputs(m, n, k);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16);
  TPipe pipe;
  HalfMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm);
  mm.Init(&tiling, &pipe);
  std::vector<float> work(m * n), c(m * n);
  mm.SetWorkspace(Gm(work));
  mm.SetSubBlockIdx(1);
  EXPECT_EQ(mm.GetSubBlockIdx(), 1);
  mm.SetTensorA(Gm(in.a));
  mm.SetTensorB(Gm(in.b));
  mm.SetBias(Gm(in.bias));
  mm.ClearBias();  // as DisableBias
  mm.IterateAll<false>(Gm(c), 0, false, true);
  mm.WaitIterateAll();  // the CPU finished at the call
  EXPECT_TRUE(SameBits(c, Reference(in.a, in.b, nullptr, m, n, k)));
  mm.End();
}

TEST_F(MatmulTest, ConfigPresetsAndBuilders) {
  static_assert(AscendC::CFG_NORM.doNorm && !AscendC::CFG_NORM.doMultiDataLoad);
  static_assert(AscendC::CFG_MDL.doMultiDataLoad);
  static_assert(AscendC::CFG_IBSHARE_NORM.doIBShareNorm);
  static_assert(AscendC::MM_CFG_BB.doBasicBlock);
  constexpr AscendC::MatmulConfig basic = AscendC::GetBasicConfig(64, 32, 16);
  static_assert(basic.basicM == 64 && basic.basicN == 32 && basic.basicK == 16);
  constexpr AscendC::MatmulConfig special = AscendC::GetSpecialMDLConfig();
  static_assert(special.doSpecialMDL);
  constexpr AscendC::MatmulConfig normal = AscendC::GetNormalConfig(
      false, false, false, AscendC::BatchMode::BATCH_LESS_THAN_L1, true,
      AscendC::IterateOrder::ORDER_N);
  static_assert(normal.iterateOrder == AscendC::IterateOrder::ORDER_N);
  constexpr AscendC::MatmulShapeParams shape = {128, 128, 128, 64, 64, 64};
  constexpr AscendC::MatmulQuantParams quant = {false, false};
  constexpr AscendC::MatmulBatchParams batch{false};
  constexpr AscendC::MatmulFuncParams func{false, true};
  constexpr AscendC::MatmulConfig parts =
      AscendC::GetMMConfig<AscendC::MatmulConfigMode::CONFIG_MDL>(shape, quant,
                                                                  batch, func);
  static_assert(parts.doMultiDataLoad && parts.basicK == 64 &&
                parts.singleCoreM == 128 && parts.enVecND2NZ);
  // Every template computes the same blocks in the same order.
  const int m = 32, n = 32, k = 48;
  Inputs in = RandomInputs(m, n, k);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16);
  TPipe pipe;
  Matmul<HalfGm, HalfGm, FloatGm, FloatGm, AscendC::CFG_MDL> mdl;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mdl, tiling);
  std::vector<float> c(m * n);
  mdl.SetTensorA(Gm(in.a));
  mdl.SetTensorB(Gm(in.b));
  mdl.SetBias(Gm(in.bias));
  mdl.IterateAll(Gm(c));
  EXPECT_TRUE(SameBits(c, Reference(in.a, in.b, &in.bias, m, n, k)));
}

// A Fixpipe quantization parameter: the float scale's bits, and bit 46 for
// an int8_t output.
uint64_t QuantParam(float scale, bool to_int8) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  return uint64_t{bits} | (to_int8 ? uint64_t{1} << 46 : 0);
}

TEST_F(MatmulTest, QuantizedOutputsGoThroughFixpipesModes) {
  // Small integers: every sum, scale and rounding is exact.
  const int m = 16, n = 32, k = 40;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> value(-2, 2);
  std::vector<int8_t> a(m * k), bt(n * k);
  std::vector<int32_t> bias(n);
  for (auto& x : a) x = static_cast<int8_t>(value(rng));
  for (auto& x : bt) x = static_cast<int8_t>(value(rng));
  for (auto& x : bias) x = value(rng);
  auto sum = [&](int i, int j) {
    int32_t acc = bias[j];
    for (int p = 0; p < k; ++p) acc += a[i * k + p] * bt[j * k + p];
    return acc;
  };
  using I8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using I8T = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
  using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 32);
  {
    // int8_t -> half, one scale (DEQF16), then one per column (VDEQF16).
    TPipe pipe;
    Matmul<I8, I8T, H, I32> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    std::vector<half> c(m * n);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(bt), true);
    mm.SetBias(Gm(bias));
    EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                          "Matmul::GetTensorC: C of half from int8_t inputs is "
                          "quantized on its way out; call SetQuantScalar or "
                          "SetQuantVector first"));
    mm.SetQuantScalar(QuantParam(0.5f, false));
    mm.IterateAll(Gm(c));
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        ASSERT_EQ(static_cast<float>(c[i * n + j]), 0.5f * sum(i, j));
      }
    }
    std::vector<uint64_t> scales(n);
    for (int j = 0; j < n; ++j) {
      scales[j] = QuantParam(std::ldexp(1.0f, j % 4 - 2), false);
    }
    mm.SetQuantVector(Gm(scales));
    mm.IterateAll(Gm(c));
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        ASSERT_EQ(static_cast<float>(c[i * n + j]),
                  std::ldexp(static_cast<float>(sum(i, j)), j % 4 - 2));
      }
    }
  }
  {
    // half -> int8_t (QF322B8_PRE), scale 1.
    std::vector<half> ah(m * k), bh(k * n);
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p) ah[i * k + p] = half(float(a[i * k + p]));
    for (int p = 0; p < k; ++p)
      for (int j = 0; j < n; ++j) bh[p * n + j] = half(float(bt[j * k + p]));
    std::vector<float> fbias(bias.begin(), bias.end());
    using O8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
    TPipe pipe;
    Matmul<HalfGm, HalfGm, O8, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    std::vector<int8_t> c(m * n);
    mm.SetTensorA(Gm(ah));
    mm.SetTensorB(Gm(bh));
    mm.SetBias(Gm(fbias));
    mm.SetQuantScalar(QuantParam(1.0f, true));
    mm.IterateAll(Gm(c));
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) ASSERT_EQ(c[i * n + j], sum(i, j));
    }
  }
  {
    TPipe pipe;
    HalfMatmul mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    EXPECT_TRUE(FailsWith([&] { mm.SetQuantScalar(1); },
                          "Matmul::SetQuantScalar: C of float from half inputs "
                          "is not quantized"));
  }
}

// A kernel's CopyA1 (MatmulCallBackFunc): the base block (row, col) of A
// into L1 in the object's layout (Nz, column blocks Ceil16(useM) rows
// apart), counting its calls in the int dataPtr points to.
void CopyA1ByHand(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm,
                  int row, int col, int useM, int useK,
                  const uint64_t tilingPtr, const uint64_t dataPtr) {
  const TCubeTiling& t = *reinterpret_cast<const TCubeTiling*>(tilingPtr);
  ++*reinterpret_cast<int*>(dataPtr);
  GlobalTensor<half> a;
  a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<void*>(gm)),
                    size_t{1} * t.M * t.Ka);
  AscendC::Nd2NzParams nz;
  nz.ndNum = 1;
  nz.nValue = static_cast<uint16_t>(useM);
  nz.dValue = static_cast<uint16_t>(useK);
  nz.srcDValue = static_cast<uint16_t>(t.Ka);
  nz.dstNzC0Stride = static_cast<uint16_t>((useM + 15) / 16 * 16);
  nz.dstNzNStride = 1;
  AscendC::DataCopy(aMatrix.ReinterpretCast<half>(),
                    a[size_t{1} * row * t.baseM * t.Ka + col * t.baseK], nz);
}

TEST_F(MatmulTest, CopyA1CallbackFillsL1) {
  const int m = 40, n = 32, k = 48;
  Inputs in = RandomInputs(m, n, k);
  const TCubeTiling tiling = Tiling(m, n, k, 32, 16, 32);
  using Callbacks = AscendC::MatmulCallBackFunc<nullptr, CopyA1ByHand, nullptr>;
  TPipe pipe;
  Matmul<HalfGm, HalfGm, FloatGm, FloatGm, AscendC::CFG_NORM, Callbacks> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  int calls = 0;
  mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&tiling));
  mm.SetSelfDefineData(reinterpret_cast<uint64_t>(&calls));
  std::vector<float> c(m * n);
  mm.SetTensorA(Gm(in.a));
  mm.SetTensorB(Gm(in.b));
  mm.SetBias(Gm(in.bias));
  mm.IterateAll(Gm(c));
  // 2 blocks along M x 2 along N, each over 2 steps of K.
  EXPECT_EQ(calls, 8);
  EXPECT_TRUE(SameBits(c, Reference(in.a, in.b, &in.bias, m, n, k)));
}

TEST_F(MatmulTest, TriangularPoliciesLeaveOutTheOtherSide) {
  // 3 × 3 blocks of 16 × 16: upper keeps the blocks with block row <= block
  // column, lower those with block row >= block column; the others keep
  // what GM held.
  const int m = 48, n = 48, k = 32;
  Inputs in = RandomInputs(m, n, k);
  const std::vector<float> want = Reference(in.a, in.b, nullptr, m, n, k);
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16, false);
  // The pages' examples spell CubeFormat unqualified.
  using H = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using F = MatmulType<TPosition::GM, ::CubeFormat::ND, float>;
  std::vector<float> upper(m * n, -1.0f), lower(m * n, -1.0f);
  {
    TPipe pipe;
    Matmul<H, H, F, F, AscendC::CFG_NORM,
           AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
           AscendC::Impl::Detail::TrianUpperMatmulPolicy>
        mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(in.a));
    mm.SetTensorB(Gm(in.b));
    mm.IterateAll(Gm(upper));
  }
  {
    TPipe pipe;
    Matmul<H, H, F, F, AscendC::CFG_NORM,
           AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
           AscendC::Impl::Detail::TrianLowerMatmulPolicy>
        mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(Gm(in.a));
    mm.SetTensorB(Gm(in.b));
    int blocks = 0;
    while (mm.Iterate()) {
      mm.GetTensorC(Gm(lower));
      ++blocks;
    }
    EXPECT_EQ(blocks, 6);
  }
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const int bi = i / 16, bj = j / 16;
      ASSERT_EQ(upper[i * n + j], bi <= bj ? want[i * n + j] : -1.0f);
      ASSERT_EQ(lower[i * n + j], bi >= bj ? want[i * n + j] : -1.0f);
    }
  }
}

TEST_F(MatmulTest, IterateBatchNormalLayout) {
  // 3 batches of 20 × 24 × 32; B once per batch, then one B for all.
  const int batches = 3, m = 20, n = 24, k = 32;
  using HB = MatmulType<TPosition::GM, CubeFormat::ND, half, false,
                        AscendC::LayoutMode::NORMAL>;
  using FB = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                        AscendC::LayoutMode::NORMAL>;
  std::vector<Inputs> in;
  for (int b = 0; b < batches; ++b) in.push_back(RandomInputs(m, n, k, 10 + b));
  std::vector<half> a, bs;
  std::vector<float> bias;
  for (const Inputs& x : in) {
    a.insert(a.end(), x.a.begin(), x.a.end());
    bs.insert(bs.end(), x.b.begin(), x.b.end());
    bias.insert(bias.end(), x.bias.begin(), x.bias.end());
  }
  const TCubeTiling tiling = Tiling(m, n, k, 16, 16, 16);
  for (int shared_b = 0; shared_b < 2; ++shared_b) {
    TPipe pipe;
    Matmul<HB, HB, FB, FB> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    std::vector<float> c(size_t{1} * batches * m * n, -1.0f);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(bs));
    mm.SetBias(Gm(bias));
    mm.SetBatchNum(batches, shared_b ? 1 : batches);
    mm.IterateBatch(Gm(c), false, 0, false);
    for (int b = 0; b < batches; ++b) {
      const std::vector<float> want = Reference(
          in[b].a, shared_b ? in[0].b : in[b].b, &in[b].bias, m, n, k);
      const std::vector<float> got(c.begin() + b * m * n,
                                   c.begin() + (b + 1) * m * n);
      EXPECT_TRUE(SameBits(got, want))
          << "batch " << b << ", shared B " << shared_b;
    }
  }
  TPipe pipe;
  Matmul<HB, HB, FB, FB> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(bs));
  mm.SetBatchNum(3, 2);
  std::vector<float> c(size_t{1} * batches * m * n);
  EXPECT_TRUE(FailsWith([&] { mm.IterateBatch(Gm(c), false, 0, false); },
                        "Matmul::IterateBatch: batchA 3 and batchB 2 must be "
                        "equal, or one a multiple of the other"));
}

// A row-major matrix in the Nz layout of half (fractal-format page):
// element (r, c) at column block c / 16, Ceil16(rows) rows of 16 values.
std::vector<half> ToNz(const std::vector<half>& nd, int rows, int cols) {
  const int rows16 = (rows + 15) / 16 * 16, cols16 = (cols + 15) / 16 * 16;
  std::vector<half> nz(size_t{1} * rows16 * cols16, half(0.0f));
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      nz[size_t{1} * (c / 16) * rows16 * 16 + r * 16 + c % 16] =
          nd[size_t{1} * r * cols + c];
    }
  }
  return nz;
}

TEST_F(MatmulTest, NzInputsGiveTheSameProduct) {
  // NZ inputs have M and N multiples of 16 and K of C0 (the page's table):
  // these still leave tails of the base blocks in every direction.
  const int m = 48, n = 48, k = 80;
  Inputs in = RandomInputs(m, n, k, 21);
  std::vector<half> a_nz = ToNz(in.a, m, k), b_nz = ToNz(in.b, k, n);
  std::vector<half> at(in.a.size()), bt(in.b.size());
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p) at[size_t{1} * p * m + i] = in.a[i * k + p];
  for (int p = 0; p < k; ++p)
    for (int j = 0; j < n; ++j) bt[size_t{1} * j * k + p] = in.b[p * n + j];
  std::vector<half> at_nz = ToNz(at, k, m), bt_nz = ToNz(bt, n, k);
  using NzT = MatmulType<TPosition::GM, CubeFormat::NZ, half, true>;
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32);
  const std::vector<float> want = Reference(in.a, in.b, &in.bias, m, n, k);
  for (int trans = 0; trans < 2; ++trans) {
    TPipe pipe;
    Matmul<NzT, NzT, FloatGm, FloatGm> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    std::vector<float> c(m * n);
    mm.SetTensorA(Gm(trans ? at_nz : a_nz), trans != 0);
    mm.SetTensorB(Gm(trans ? bt_nz : b_nz), trans != 0);
    mm.SetBias(Gm(in.bias));
    mm.IterateAll(Gm(c));
    EXPECT_TRUE(SameBits(c, want)) << "transposed " << trans;
  }
  // A base block must be whole fractals (the TCubeTiling page's alignment).
  TPipe pipe;
  Matmul<NzT, NzT, FloatGm, FloatGm> mm;
  const TCubeTiling odd = Tiling(m, n, k, 24, 16, 32);
  EXPECT_TRUE(FailsWith([&] { mm.Init(&odd, &pipe); },
                        "Matmul::Init: TCubeTiling.baseM 24 is not a multiple "
                        "of 16: baseM is aligned to 16 (fractal alignment)"));
}

// ---- Rules -----------------------------------------------------------------

TEST_F(MatmulTest, TilingRulesAreChecked) {
  TPipe pipe;
  {
    HalfMatmul mm;
    TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16);
    t.Kb = 48;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: tiling Ka 32 differs from Kb 48; A's "
                          "columns and B's rows are the same K"));
  }
  {
    HalfMatmul mm;
    const TCubeTiling t = Tiling(512, 512, 32, 256, 256, 16);
    EXPECT_TRUE(FailsWith(
        [&] { mm.Init(&t, &pipe); },
        "Matmul::Init: TCubeTiling.baseM * baseN * 4 * dbL0C = 262144 bytes "
        "exceeds L0C (131072 bytes): C's base block (float or int32_t) fits "
        "L0C"));
  }
  {
    HalfMatmul mm;
    TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16);
    t.iterateOrder = 2;
    EXPECT_TRUE(
        FailsWith([&] { mm.Init(&t, &pipe); },
                  "Matmul::Init: TCubeTiling.iterateOrder 2 is neither 0 nor "
                  "1: iterateOrder is 0 (M first) or 1 (N first)"));
  }
  {
    HalfMatmul mm;
    TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16);
    t.singleCoreM = 40;
    EXPECT_TRUE(
        FailsWith([&] { mm.Init(&t, &pipe); },
                  "Matmul::Init: TCubeTiling.singleCoreM 40 exceeds M 32: "
                  "singleCoreM <= M"));
  }
}

TEST_F(MatmulTest, ShapeAndOperandRulesAreChecked) {
  std::vector<half> a(32 * 32), b(32 * 32);
  std::vector<float> bias(32), c(32 * 32);
  TPipe pipe;
  HalfMatmul mm;
  const TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16, false);
  EXPECT_TRUE(FailsWith([&] { mm.SetTensorA(Gm(a)); },
                        "Matmul::SetTensorA: the object has no tiling"));
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  EXPECT_TRUE(FailsWith(
      [&] { mm.SetTensorA(Gm(a), true); },
      "Matmul::SetTensorA: isTransposeA is true, but A_TYPE's ISTRANS is "
      "false; declare MatmulType<..., ISTRANS = true> for A to transpose it"));
  EXPECT_TRUE(FailsWith(
      [&] { mm.SetTensorB(Gm(b), true); },
      "Matmul::SetTensorB: isTransposeB is true, but B_TYPE's ISTRANS is "
      "false"));
  EXPECT_TRUE(FailsWith([&] { mm.SetTail(48); },
                        "Matmul::SetTail: tailM 48 is beyond singleCoreM 32; a "
                        "core computes at most that much"));
  EXPECT_TRUE(
      FailsWith([&] { mm.SetSingleShape(16, 16, 0); },
                "Matmul::SetSingleShape: singleK 0 must be at least 1"));
  EXPECT_TRUE(FailsWith([&] { mm.SetOrgShape(32, 32, 32, 16); },
                        "Matmul::SetOrgShape: orgKa 32 differs from orgKb 16; "
                        "A's columns and B's rows are the same K"));
  EXPECT_TRUE(FailsWith(
      [&] { mm.SetBias(Gm(bias)); },
      "Matmul::SetBias: the tiling's isBias is 0; a bias needs a tiling made "
      "with isBias 1"));
  EXPECT_TRUE(
      FailsWith([&] { mm.Iterate(); },
                "Matmul::Iterate: A is not set; call SetTensorA first"));
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  EXPECT_TRUE(FailsWith([&] { mm.GetTensorC(Gm(c)); },
                        "Matmul::GetTensorC: no block to move; call Iterate "
                        "first"));
  ASSERT_TRUE(mm.Iterate());
  EXPECT_TRUE(FailsWith(
      [&] { mm.GetTensorC(Gm(c), 4); },
      "Matmul::GetTensorC: enAtomic 4 is not 0 (none), 1 (add), 2 (max) or 3 "
      "(min)"));
  {
    HalfMatmul wide;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), wide, &t);
    wide.SetOrgShape(32, 70000, 32);
    wide.SetTensorA(Gm(a));
    wide.SetTensorB(Gm(b));
    EXPECT_TRUE(FailsWith([&] { wide.Iterate(); },
                          "Matmul: orgN 70000 makes GM rows longer than the "
                          "65535 elements one ND2NZ move reads (srcDValue)"));
  }
  EXPECT_TRUE(FailsWith(
      [&] { mm.SetTensorA(LocalTensor<half>()); },
      "Matmul::SetTensorA: A_TYPE's position is GM, but this form takes the "
      "operand at VECOUT; pass a GlobalTensor"));
  EXPECT_TRUE(FailsWith([&] { mm.SetHF32(true, 2); },
                        "Matmul::SetHF32: transMode 2 is not 0 (ties to even) "
                        "or 1 (ties away from zero)"));
  mm.SetHF32(false);
}

TEST_F(MatmulTest, TypesAndPlacesNotTakenAreNamed) {
  const TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16, false);
  TPipe pipe;
  {
    using I32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
    Matmul<HalfGm, HalfGm, I32, FloatGm> mm;
    EXPECT_TRUE(FailsWith(
        [&] { mm.Init(&t, &pipe); },
        "Matmul::Init: the type row (A half, B half, bias float, C int32_t) "
        "is not one normgrad emulates on Atlas A2/A3"));
  }
  {
    using Co1Nd = MatmulType<TPosition::CO1, CubeFormat::ND, float>;
    Matmul<HalfGm, HalfGm, Co1Nd, FloatGm> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: C_TYPE at CO1 must have format NZ"));
  }
  {
    using Vecout = MatmulType<TPosition::VECOUT, CubeFormat::ND, half>;
    Matmul<Vecout, HalfGm, FloatGm, FloatGm> mm;
    EXPECT_TRUE(FailsWith(
        [&] { mm.Init(&t, &pipe); },
        "Matmul::Init: an operand at VECOUT comes from a vector core's UB, "
        "but this object runs on a cube core, which has none"));
  }
  {
    using Vecin = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    Matmul<HalfGm, HalfGm, Vecin, FloatGm> mm;
    EXPECT_TRUE(FailsWith(
        [&] { mm.Init(&t, &pipe); },
        "Matmul::Init: C_TYPE at VECIN puts the result in a vector core's UB, "
        "but this object runs on a cube core, which has none"));
  }
  {
    using A2 = MatmulType<TPosition::A2, CubeFormat::ND, half>;
    Matmul<HalfGm, A2, FloatGm, FloatGm> mm;
    EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); },
                          "Matmul::Init: B_TYPE's position A2 is not one it "
                          "takes on Atlas A2/A3 (GM, VECOUT, TSCM)"));
  }
}

TEST(MatmulOnVectorCore, CubeOnlyObjectsRefuseAVectorCore) {
  // This file defines ASCENDC_CUBE_ONLY: its objects run on a cube core.
  const TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16);
  TPipe pipe;
  HalfMatmul mm;
  EXPECT_TRUE(FailsWith(
      [&] { REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t); },
      "REGIST_MATMUL_OBJ: ASCENDC_CUBE_ONLY is defined, so the Matmul object "
      "runs on a cube core, but this is a vector core"));
}

TEST_F(MatmulTest, AnErrorNamesTheUsersLine) {
  TPipe pipe;
  HalfMatmul mm;
  TCubeTiling t = Tiling(32, 32, 32, 16, 16, 16);
  t.dbL0A = 3;
  EXPECT_TRUE(FailsWith([&] { mm.Init(&t, &pipe); }, "matmul_kernel_test.cc:"));
}

// SetTensorA(aScalar): A is a [1, K] row of the scalar, so with 1 the
// result is B summed along K (its page's example), in the documented order.
TEST_F(MatmulTest, ScalarASumsBAlongK) {
  const int m = 1, n = 40, k = 70;
  Inputs in = RandomInputs(m, n, k);
  const std::vector<half> ones(k, half(1.0f));
  const std::vector<half> twos(k, half(2.0f));
  const TCubeTiling tiling = Tiling(m, n, k, 16, 32, 32);
  TPipe pipe;
  HalfMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<float> c(size_t{1} * n, -1.0f);
  mm.SetTensorA(half(1.0f));
  mm.SetTensorB(Gm(in.b));
  mm.IterateAll(Gm(c));
  EXPECT_TRUE(SameBits(c, Reference(ones, in.b, nullptr, m, n, k)));
  mm.SetTensorA(half(2.0f), false);
  mm.IterateAll(Gm(c));
  EXPECT_TRUE(SameBits(c, Reference(twos, in.b, nullptr, m, n, k)));
  // SetTensorA with a matrix again replaces the scalar.
  mm.SetTensorA(Gm(in.a));
  mm.IterateAll(Gm(c));
  EXPECT_TRUE(SameBits(c, Reference(in.a, in.b, nullptr, m, n, k)));
}

TEST_F(MatmulTest, ScalarANeedsOneRow) {
  const int m = 32, n = 32, k = 32;
  Inputs in = RandomInputs(m, n, k);
  const TCubeTiling tiling = Tiling(m, n, k, 32, 32, 32);
  TPipe pipe;
  HalfMatmul mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  std::vector<float> c(size_t{1} * m * n, -1.0f);
  mm.SetTensorA(half(1.0f));
  mm.SetTensorB(Gm(in.b));
  EXPECT_TRUE(FailsWith([&] { mm.IterateAll(Gm(c)); },
                        "Matmul::IterateAll: A is the scalar of "
                        "SetTensorA(aScalar), a [1, K] row, but the single "
                        "shape's M is 32; set M to 1"));
}

// SetLocalWorkspace's scratch is a vector core's UB: an object on a cube
// core refuses it (on the 950, the only profile that takes the call).
TEST_F(MatmulTest, SetLocalWorkspaceNeedsAVectorCore) {
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::k950);
  {
    const TCubeTiling tiling = Tiling(32, 32, 32, 32, 32, 32);
    TPipe pipe;
    HalfMatmul mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
    const AscendC::LocalTensor<uint8_t> scratch(TPosition::VECCALC, 0, 64);
    EXPECT_TRUE(FailsWith([&] { mm.SetLocalWorkspace(scratch); },
                          "Matmul::SetLocalWorkspace: tmpBuffer lies in a "
                          "vector core's UB, but this object runs on a cube "
                          "core, which has none"));
  }
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::kA2);
}

}  // namespace
