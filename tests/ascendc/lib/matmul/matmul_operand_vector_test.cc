// matmul_operand_vector_test.cc — the Matmul object's operand orientations
// called from a vector core (docs/matmul.md, "Where it runs"), without
// ASCENDC_CUBE_ONLY: float and int8_t A as [M, K] or [K, M] and B as [K,
// N] or [N, K] on the object's own cube-core context, against a float64
// (int64) product of small integers, exact; and an operand at TSCM, which a
// vector core's object cannot take.
//
// Extending: one TEST per behaviour of the vector-core side.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <type_traits>
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
using AscendC::Matmul;
using AscendC::MatmulType;
using AscendC::TPipe;
using AscendC::TPosition;

TCubeTiling Tiling(int m, int n, int k, int base) {
  return matmul_test::Tiling(m, n, k, base, base, base);
}

// C = A · B + bias with A (m × k) and B (k × n) stored as TA / TB say, from
// this (vector) core, checked against the int64 product of the values.
template <typename T, bool TA, bool TB>
void CheckFromVectorCore(int m, int n, int k, uint32_t seed) {
  using O = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-8, 8);
  std::vector<int> a(size_t{1} * m * k), b(size_t{1} * k * n), bias(n);
  for (int& x : a) x = value(rng);
  for (int& x : b) x = value(rng);
  for (int& x : bias) x = value(rng);
  std::vector<T> as(a.size()), bs(b.size());
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      as[TA ? size_t{1} * p * m + i : size_t{1} * i * k + p] =
          static_cast<T>(a[size_t{1} * i * k + p]);
  for (int p = 0; p < k; ++p)
    for (int j = 0; j < n; ++j)
      bs[TB ? size_t{1} * j * k + p : size_t{1} * p * n + j] =
          static_cast<T>(b[size_t{1} * p * n + j]);
  std::vector<O> bias_v(bias.begin(), bias.end());
  std::vector<O> c(size_t{1} * m * n, O(-1));
  using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, TA>;
  using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, TB>;
  using CType = MatmulType<TPosition::GM, CubeFormat::ND, O>;
  const TCubeTiling tiling = Tiling(m, n, k, 32);
  TPipe pipe;
  Matmul<AType, BType, CType, CType> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  ASSERT_FALSE(normgrad_ascendc::CurrentCore().is_cube());
  mm.SetTensorA(Gm(as), TA);
  mm.SetTensorB(Gm(bs), TB);
  mm.SetBias(Gm(bias_v));
  mm.IterateAll(Gm(c));
  mm.End();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int64_t want = bias[j];
      for (int p = 0; p < k; ++p) {
        want += int64_t{a[size_t{1} * i * k + p]} * b[size_t{1} * p * n + j];
      }
      ASSERT_EQ(static_cast<double>(c[size_t{1} * i * n + j]),
                static_cast<double>(want))
          << normgrad_ascendc::TypeName<T>() << " TA " << TA << " TB " << TB
          << " at " << i << ", " << j;
    }
  }
}

TEST(MatmulOperandOnVectorCore, FloatAndInt8EveryOrientation) {
  CheckFromVectorCore<float, false, true>(40, 24, 50, 1);
  CheckFromVectorCore<float, false, false>(40, 24, 50, 2);
  CheckFromVectorCore<float, true, true>(40, 24, 50, 3);
  CheckFromVectorCore<float, true, false>(40, 24, 50, 4);
  CheckFromVectorCore<int8_t, false, true>(40, 24, 70, 5);
  CheckFromVectorCore<int8_t, false, false>(40, 24, 70, 6);
  CheckFromVectorCore<int8_t, true, true>(40, 24, 70, 7);
  CheckFromVectorCore<int8_t, true, false>(40, 24, 70, 8);
}

TEST(MatmulOperandOnVectorCore, AsynchronousResultsInTheWorkspaceAndUb) {
  // C at VECIN: GetTensorC<false>() leaves block i in slot i of the
  // workspace (rows baseN apart) and returns it; AsyncGetTensorC moves the
  // next block into the UB.
  const int m = 32, n = 32, k = 16;
  std::vector<half> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = half(float(i % 7 - 3));
  for (int i = 0; i < k * n; ++i) b[i] = half(float(i % 5 - 2));
  const auto want = [&](int i, int j) {
    float sum = 0;
    for (int p = 0; p < k; ++p) {
      sum +=
          static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
    }
    return sum;
  };
  TCubeTiling t = Tiling(m, n, k, 16);
  t.isBias = 0;
  using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using Vecin = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
  using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  TPipe pipe;
  Matmul<HalfGm, HalfGm, Vecin, FloatGm> mm;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t);
  std::vector<float> work(2 * 16 * 16);
  mm.SetWorkspace(Gm(work));
  mm.SetTensorA(Gm(a));
  mm.SetTensorB(Gm(b));
  mm.Iterate<false>();
  // Blocks along M first: (0, 0), (1, 0), (0, 1), (1, 1).
  for (int blk = 0; blk < 2; ++blk) {
    const GlobalTensor<float> got = mm.GetTensorC<false>();
    ASSERT_EQ(got.GetPhyAddr(), work.data() + blk * 256);
    for (int r = 0; r < 16; ++r)
      for (int col = 0; col < 16; ++col)
        ASSERT_EQ(got.GetValue(r * 16 + col), want(blk * 16 + r, col))
            << "block " << blk << " at " << r << ", " << col;
  }
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { mm.GetTensorC<false>(); },
      "Matmul::GetTensorC: the workspace holds 512 elements of float; block "
      "2 of the computation takes its slot of baseM x baseN = 256 values, up "
      "to element 768"));
  AscendC::TBuf<TPosition::VECIN> ub;
  ASSERT_TRUE(pipe.InitBuffer(ub, 16 * 16 * sizeof(float)));
  const AscendC::LocalTensor<float> c = ub.Get<float>();
  mm.AsyncGetTensorC(c);  // block (0, 1): the refused call took none
  mm.WaitGetTensorC();
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 16; ++col)
      ASSERT_EQ(c.GetValue(r * 16 + col), want(r, 16 + col))
          << r << ", " << col;
}

TEST(MatmulOperandOnVectorCore, TscmNeedsTheObjectOnACubeCore) {
  using Tscm = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;
  using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  const TCubeTiling t = Tiling(32, 32, 32, 16);
  TPipe pipe;
  Matmul<Tscm, HalfGm, FloatGm, FloatGm> mm;
  EXPECT_TRUE(compat_test::FailsWith(
      [&] { REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &t); },
      "Matmul::Init: an operand at TSCM lies in the L1 of the cube core that "
      "runs the object, but this object serves a vector core"));
}

}  // namespace
