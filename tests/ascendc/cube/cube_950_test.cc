// cube_950_test.cc — the cube core of the Ascend 950 profile (docs/cube.md,
// "The Ascend 950"): its memories' capacities, Mmad reading A from L0A as Nz
// fractals and its GEMV switch, and the Atlas A2/A3 paths the 950 removed,
// each refused with its message. References are written here from the
// pages' layouts (Nz for A: fractal columns one after another).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "cube_mmad_run.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::GlobalTensor;
using AscendC::LoadData;
using AscendC::LoadData2DParams;
using AscendC::LocalTensor;
using AscendC::Mmad;
using AscendC::MmadParams;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using normgrad_ascendc::Profile;

// Each test runs on a cube core of the 950 profile (Cube950Test,
// cube_core_test.h).

using cube_test::ALayout;
using cube_test::CubeBuffers;
using cube_test::RunMmad;

template <typename In, typename Acc>
Acc Dot(const std::vector<In>& a, const std::vector<In>& b, uint32_t k,
        uint32_t n, uint32_t r, uint32_t col) {
  Acc sum = 0;
  for (uint32_t i = 0; i < k; ++i) {
    sum += Acc(float(a[r * k + i])) * Acc(float(b[i * n + col]));
  }
  return sum;
}

// One Mmad of A (m x k, Nz in L0A) and B into C, against Dot in Acc.
template <typename Out, typename Acc, typename In>
void ExpectNzMmad(uint32_t m, uint32_t k, uint32_t n, const std::vector<In>& a,
                  const std::vector<In>& b) {
  const std::vector<Out> c =
      RunMmad<Out>(m, k, n, a, b, MmadParams{}, ALayout::kNz);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      ASSERT_EQ(c[r * n + col], (Dot<In, Acc>(a, b, k, n, r, col)))
          << r << "," << col;
    }
  }
}

TEST_F(Cube950Test, MemoriesHaveThe950sCapacities) {
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C2> bias_table;
  TBuf<TPosition::C2PIPE2GM> fixpipe;
  pipe.InitBuffer(l0c, 256 * 1024);  // twice Atlas A2/A3's L0C
  pipe.InitBuffer(bias_table, 4096);
  pipe.InitBuffer(fixpipe, 4096);
  EXPECT_EQ(l0c.Get<float>().GetSize(), 64u * 1024);
  EXPECT_TRUE(FailsWith(
      [&] { LocalTensor<float> t(TPosition::CO1, 256 * 1024 - 64, 32); },
      "128 bytes at addr 262080 run past the end of the L0C (262144 bytes, "
      "profile Ascend 950)"));
}

TEST_F(Cube950Test, MmadReadsAAsNzFractals) {
  const uint32_t m = 30, k = 70, n = 40;  // partial fractals in m, k and n
  std::vector<half> a(m * k), b(k * n);
  for (uint32_t i = 0; i < a.size(); ++i) {
    a[i] = half(float(int(i * 7 % 9) - 4));
  }
  for (uint32_t i = 0; i < b.size(); ++i) {
    b[i] = half(float(int(i * 5 % 7) - 3));
  }
  ExpectNzMmad<float, double>(m, k, n, a, b);
}

TEST_F(Cube950Test, MmadInt8IntoInt32ReadsAAsNz) {
  const uint32_t m = 20, k = 72, n = 24;
  std::vector<int8_t> a(m * k), b(k * n);
  for (uint32_t i = 0; i < a.size(); ++i) {
    a[i] = int8_t(int(i * 37 % 255) - 127);
  }
  for (uint32_t i = 0; i < b.size(); ++i) {
    b[i] = int8_t(int(i * 53 % 256) - 128);
  }
  ExpectNzMmad<int32_t, int64_t>(m, k, n, a, b);
}

TEST_F(Cube950Test, GemvReadsOneNdRowUnlessDisabled) {
  const uint32_t k = 48, n = 16;
  std::vector<half> a(k), b(k * n);
  for (uint32_t i = 0; i < k; ++i) a[i] = half(float(int(i % 5) - 2));
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = half(float(int(i % 3) - 1));
  // m = 1 with GEMV on: A is the ND row at L0A's start.
  const std::vector<float> gemv =
      RunMmad<float>(1, k, n, a, b, MmadParams{}, ALayout::kNdRow);
  // disableGemv: the row is row 0 of A's Nz fractals.
  MmadParams off;
  off.disableGemv = true;
  const std::vector<float> fractal =
      RunMmad<float>(1, k, n, a, b, off, ALayout::kNz);
  for (uint32_t col = 0; col < n; ++col) {
    const double want = Dot<half, double>(a, b, k, n, 0, col);
    EXPECT_EQ(gemv[col], want) << col;
    EXPECT_EQ(fractal[col], want) << col;
  }
}

TEST_F(Cube950Test, LoopModeLeavesGmToL1CopiesAlone) {
  // SetLoopModePara's directions are GM <-> UB: a DataCopy into L1 moves
  // its count once even while the GM -> UB loop mode is set.
  CubeBuffers buf({{TPosition::A1, 256}});
  LocalTensor<half> a1 = buf.Get<half>(TPosition::A1);
  for (uint32_t i = 0; i < 128; ++i) a1.SetValue(i, half(-1.0f));
  std::vector<half> host(128);
  for (uint32_t i = 0; i < host.size(); ++i) host[i] = half(float(i));
  GlobalTensor<half> gm;
  gm.SetGlobalBuffer(host.data(), host.size());
  AscendC::LoopModeParams loop;
  loop.loop1Size = 2;
  loop.loop1SrcStride = 64;
  loop.loop1DstStride = 64;
  AscendC::SetLoopModePara(loop, AscendC::DataCopyMVType::OUT_TO_UB);
  DataCopy(a1, gm, 32);
  AscendC::ResetLoopModePara(AscendC::DataCopyMVType::OUT_TO_UB);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(float(a1.GetValue(i)), i < 32 ? float(i) : -1.0f) << i;
  }
}

TEST_F(Cube950Test, TheRemovedPathsAreRefused) {
  CubeBuffers buf({{TPosition::A1, 4096},
                   {TPosition::A2, 2048},
                   {TPosition::B2, 2048},
                   {TPosition::CO1, 4096}});
  std::vector<half> host(1024);
  GlobalTensor<half> gm;
  gm.SetGlobalBuffer(host.data(), host.size());
  LocalTensor<half> a1 = buf.Get<half>(TPosition::A1);
  LocalTensor<half> a2 = buf.Get<half>(TPosition::A2);
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(a2, gm, LoadData2DParams(0, 1, 0, 0, 0, false, 0)); },
      "LoadData<half> GM->L0A: not available on profile Ascend 950: the 950 "
      "has no GM -> L0A/L0B path; move into L1 first"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(a2, a1, LoadData2DParams(0, 1, 0, 0, 0, true, 0)); },
      "LoadData<half> L1->L0A: loadDataParams.ifTranspose is true; the 950's "
      "L1 -> L0A load does not transpose"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(gm, a1, 256); },
      "DataCopy<half> L1->GM: not available on profile Ascend 950: the 950 "
      "has no L1 -> GM path"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::InitConstValueParams<half> fill(1, 1, 0, half(1.0f));
        AscendC::Fill(a2, fill);
      },
      "Fill<half>: not available on profile Ascend 950: the 950 cannot fill "
      "L0A/L0B"));
  EXPECT_TRUE(FailsWith([&] { AscendC::SetLoadDataBoundary(2048); },
                        "SetLoadDataBoundary: not available on profile Ascend "
                        "950: the 950 has no L1 boundary register"));
  MmadParams p;
  p.m = p.n = 16;
  p.k = 64;
  LocalTensor<float> c = buf.Get<float>(TPosition::CO1);
  EXPECT_TRUE(FailsWith(
      [&] {
        Mmad(buf.Get<int32_t>(TPosition::CO1),
             buf.Get<AscendC::int4b_t>(TPosition::A2),
             buf.Get<AscendC::int4b_t>(TPosition::B2), p);
      },
      "not available on profile Ascend 950: the 950's cube has no int4 "
      "inputs; Cast int4b_t to int8_t first"));
  p.k = 16;
  p.kDirectionAlign = true;
  EXPECT_TRUE(FailsWith(
      [&] {
        Mmad(c, buf.Get<float>(TPosition::A2), buf.Get<float>(TPosition::B2),
             p);
      },
      "mmadParams.kDirectionAlign is true; the 950 aligns float K to 8 only"));
  p.kDirectionAlign = false;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MmadWithSparse(buf.Get<int32_t>(TPosition::CO1),
                                buf.Get<int8_t>(TPosition::A2),
                                buf.Get<int8_t>(TPosition::B2), p);
      },
      "MmadWithSparse<int32_t, int8_t>: not available on profile Ascend 950: "
      "the 950's cube has no 4:2 sparse matrices"));
}

}  // namespace
