// matmul_vector_test.cc — the Matmul object called from a vector core
// (docs/matmul.md, "Where it runs"), without ASCENDC_CUBE_ONLY: the object
// keeps a cube-core context of its own and computes there, and the forms
// of a kernel with vector cores (IterateBatch with the batch counts) work.
// The results are checked against the documented order, as
// matmul_kernel_test.cc does on a cube core.
//
// Extending: one TEST per behaviour of the vector-core side.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "matmul_test_support.h"

namespace {

using matmul_test::Gm;

using AscendC::GlobalTensor;
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;

// C = A · B per the documented order (k ascending, one rounding per step).
std::vector<float> Reference(const half* a, const half* b, int m, int n,
                             int k) {
  std::vector<float> c(size_t{1} * m * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int p = 0; p < k; ++p) {
        acc +=
            static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
      }
      c[size_t{1} * i * n + j] = acc;
    }
  }
  return c;
}

TEST(MatmulOnVectorCore, AnObjectComputesOnItsOwnCubeContext) {
  // The test thread's core is a vector core: the object's buffers are
  // carved from its context's cube memories, not from this TPipe.
  ASSERT_FALSE(normgrad_ascendc::CurrentCore().is_cube());
  const int batches = 2, m = 16, n = 32, k = 48;
  std::mt19937 rng(9);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<half> a(batches * m * k), b(batches * k * n);
  for (auto& x : a) x = half(normal(rng));
  for (auto& x : b) x = half(normal(rng));
  TCubeTiling t{};
  t.usedCoreNum = 1;
  t.M = t.singleCoreM = m;
  t.N = t.singleCoreN = n;
  t.Ka = t.Kb = t.singleCoreK = k;
  t.baseM = t.baseN = t.baseK = 16;
  t.depthA1 = t.depthB1 = 1;
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.dbL0A = t.dbL0B = t.dbL0C = 1;
  using HB = MatmulType<TPosition::GM, CubeFormat::ND, half, false,
                        LayoutMode::NORMAL>;
  using FB = MatmulType<TPosition::GM, CubeFormat::ND, float, false,
                        LayoutMode::NORMAL>;
  TPipe pipe;
  Matmul<HB, HB, FB, FB> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  ASSERT_FALSE(normgrad_ascendc::CurrentCore().is_cube());
  std::vector<float> c(batches * m * n, -1.0f);
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.IterateBatch(Gm(c), batches, batches, false);
  mm.WaitIterateBatch();
  for (int bt = 0; bt < batches; ++bt) {
    const std::vector<float> want =
        Reference(a.data() + bt * m * k, b.data() + bt * k * n, m, n, k);
    ASSERT_EQ(std::memcmp(c.data() + bt * m * n, want.data(),
                          want.size() * sizeof(float)),
              0)
        << "batch " << bt;
  }
  // HF32 is a pure Cube mode setting (its page): refused on a vector core.
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { mm.SetHF32(true); },
      "Matmul::SetHF32: called on a vector core; the HF32 mode is set only in "
      "pure Cube mode"));
  // The vector core's own pipe is untouched: its UB is all free.
  AscendC::TBuf<TPosition::VECCALC> ub;
  EXPECT_TRUE(pipe.InitBuffer(ub, 64 * 1024));
}

// The 950's SetLocalWorkspace: a VECCALC tensor of at least the tiling's
// transLength bytes, checked; the object computes the same without it.
TEST(MatmulOnVectorCore, SetLocalWorkspaceOnThe950) {
  const int m = 16, n = 32, k = 48;
  std::vector<half> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = half(static_cast<float>(i % 7 - 3));
  for (int i = 0; i < k * n; ++i) b[i] = half(static_cast<float>(i % 5 - 2));
  TCubeTiling t{};
  t.usedCoreNum = 1;
  t.M = t.singleCoreM = m;
  t.N = t.singleCoreN = n;
  t.Ka = t.Kb = t.singleCoreK = k;
  t.baseM = t.baseN = t.baseK = 16;
  t.depthA1 = t.depthB1 = 1;
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.dbL0A = t.dbL0B = t.dbL0C = 1;
  t.transLength = 64;
  using HT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using FT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  {
    // Atlas A2/A3's object takes no scratch: its page does not list it.
    TPipe pipe;
    Matmul<HT, HT, FT, FT> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    AscendC::TBuf<TPosition::VECCALC> scratch;
    pipe.InitBuffer(scratch, 64);
    EXPECT_TRUE(compat_test::FailsWith(
        [&] { mm.SetLocalWorkspace(scratch.Get<uint8_t>()); },
        "Matmul::SetLocalWorkspace: not available on profile "));
  }
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::k950);
  {
    TPipe pipe;
    Matmul<HT, HT, FT, FT> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
    AscendC::TBuf<TPosition::VECCALC> scratch, small;
    AscendC::TBuf<TPosition::VECIN> in;
    pipe.InitBuffer(scratch, 64);
    pipe.InitBuffer(small, 32);
    pipe.InitBuffer(in, 64);
    EXPECT_TRUE(compat_test::FailsWith(
        [&] { mm.SetLocalWorkspace(small.Get<uint8_t>()); },
        "Matmul::SetLocalWorkspace: tmpBuffer holds 32 bytes, fewer than the "
        "tiling's transLength of 64 (MatmulGetTmpBufSize's ubSize)"));
    EXPECT_TRUE(compat_test::FailsWith(
        [&] { mm.SetLocalWorkspace(in.Get<uint8_t>()); },
        "Matmul::SetLocalWorkspace: tmpBuffer is at VECIN; the scratch is a "
        "VECCALC tensor"));
    mm.SetLocalWorkspace(scratch.Get<uint8_t>());
    std::vector<float> c(m * n, -1.0f);
    mm.SetTensorA(Gm(a));
    mm.SetTensorB(Gm(b));
    mm.IterateAll(Gm(c));
    const std::vector<float> want = Reference(a.data(), b.data(), m, n, k);
    EXPECT_EQ(std::memcmp(c.data(), want.data(), want.size() * sizeof(float)),
              0);
  }
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::kA2);
}

// The 4:2 sparse Matmul runs in pure cube mode only: an object a vector core
// registers (no ASCENDC_CUBE_ONLY) is refused at Init.
TEST(MatmulOnVectorCore, SparseMatmulNeedsPureCubeMode) {
  TCubeTiling t{};
  t.usedCoreNum = 1;
  t.M = t.singleCoreM = 16;
  t.N = t.singleCoreN = 32;
  t.Ka = t.Kb = t.singleCoreK = 64;
  t.baseM = 16;
  t.baseN = 32;
  t.baseK = 64;
  t.depthA1 = t.depthB1 = 1;
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.dbL0A = t.dbL0B = t.dbL0C = 1;
  using A8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using B8 = AscendC::SparseMatmulType<TPosition::GM, TPosition::GM,
                                       CubeFormat::ND, int8_t, true>;
  using C32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  TPipe pipe;
  Matmul<A8, B8, C32, C32, AscendC::CFG_MDL> mm;
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t); },
      "Matmul::Init: the 4:2 sparse Matmul runs in pure cube mode only: "
      "define ASCENDC_CUBE_ONLY before including the Matmul header"));
}

}  // namespace
