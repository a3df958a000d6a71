// cube_test.cc — the cube unit's basic data path (docs/cube.md): the cube
// core's memories and their pipes, GM <-> L1 DataCopy, ND2NZ, LoadData 2D,
// Mmad and Fixpipe NZ2ND, each against a reference written here from the
// pages' layouts (the fractal formats as pad / reshape / transpose index
// maps), and every documented rule's message; then cube kernels launched.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line with
// its message. Tests run on the calling thread's core made a cube core by
// the fixture (CubeTest), as a kernel's KERNEL_TASK_TYPE_DEFAULT does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "cube_mmad_run.h"
#include "kernel_operator.h"
#include "tiling/platform/platform_ascendc.h"

namespace {

using AscendC::DataCopy;
using AscendC::Fixpipe;
using AscendC::FixpipeParamsV220;
using AscendC::GlobalTensor;
using AscendC::LoadData;
using AscendC::LoadData2DParams;
using AscendC::LocalTensor;
using AscendC::Mmad;
using AscendC::MmadParams;
using AscendC::Nd2NzParams;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::TQue;
using compat_test::FailsWith;
using cube_test::NzOutIndex;
using cube_test::ZnIndex;
using cube_test::ZzIndex;

// Each test runs on a cube core, and leaves the core a vector core.
class CubeTest : public CubeCoreTest {};

// A GlobalTensor over a vector's elements.
template <typename T>
GlobalTensor<T> Gm(std::vector<T>& v) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(v.data(), v.size());
  return g;
}

// ---- Memories and pipes ----------------------------------------------------

TEST_F(CubeTest, EachCubePositionHasItsMemoryAndCapacity) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C2> bt;
  TBuf<TPosition::C2PIPE2GM> fb;
  pipe.InitBuffer(l1, 512 * 1024);
  pipe.InitBuffer(l0a, 64 * 1024);
  pipe.InitBuffer(l0b, 64 * 1024);
  pipe.InitBuffer(l0c, 128 * 1024);
  pipe.InitBuffer(bt, 1024);
  pipe.InitBuffer(fb, 2048);
  // Six memories, each from its own byte 0: six distinct addresses.
  const uint8_t* at[] = {
      l1.Get<uint8_t>().GetPhyAddr(),  l0a.Get<uint8_t>().GetPhyAddr(),
      l0b.Get<uint8_t>().GetPhyAddr(), l0c.Get<uint8_t>().GetPhyAddr(),
      bt.Get<uint8_t>().GetPhyAddr(),  fb.Get<uint8_t>().GetPhyAddr()};
  for (int i = 0; i < 6; ++i) {
    for (int j = i + 1; j < 6; ++j) EXPECT_NE(at[i], at[j]);
  }
  EXPECT_EQ(l0c.Get<float>().GetSize(), 32u * 1024u);
  EXPECT_EQ(l1.Get<half>().GetPosition(), TPosition::A1);
  TBuf<TPosition::B1> more;
  EXPECT_TRUE(FailsWith(
      [&] { pipe.InitBuffer(more, 32); },
      "TPipe::InitBuffer: TBuf<B1> #7 requests 1 x 32 bytes, which exceeds "
      "the cube core's L1 (position B1): 0 of 524288 bytes left (profile "
      "Atlas A2/A3)"));
}

TEST_F(CubeTest, BuffersAreRoundedToTheirMemorysAlignment) {
  TPipe pipe;
  TQue<TPosition::A2, 2> a2;
  TBuf<TPosition::A2> next;
  TQue<TPosition::CO1, 1> co1;
  TBuf<TPosition::CO1> after;
  pipe.InitBuffer(a2, 2, 100);  // two buffers 512 bytes apart
  pipe.InitBuffer(next, 32);
  pipe.InitBuffer(co1, 1, 100);  // 128 bytes (64-byte multiples)
  pipe.InitBuffer(after, 64);
  const LocalTensor<half> first = a2.AllocTensor<half>();
  const LocalTensor<half> second = a2.AllocTensor<half>();
  const LocalTensor<half> third = next.Get<half>();
  EXPECT_EQ(second.GetPhyAddr() - first.GetPhyAddr(), 256);  // 512 bytes
  EXPECT_EQ(third.GetPhyAddr() - first.GetPhyAddr(), 512);
  const LocalTensor<float> c = co1.AllocTensor<float>();
  EXPECT_EQ(after.Get<float>().GetPhyAddr() - c.GetPhyAddr(), 32);
  // Queues work at cube positions as in the UB.
  a2.EnQue(first);
  const LocalTensor<half> back = a2.DeQue<half>();
  EXPECT_EQ(back.GetPhyAddr(), first.GetPhyAddr());
  a2.FreeTensor(back);
  a2.FreeTensor(second);
  TQue<TPosition::A2, 1> big;
  EXPECT_TRUE(FailsWith([&] { pipe.InitBuffer(big, 1, 63 * 1024); },
                        "TQue<A2, 1> #5 requests 1 x 64512 bytes, which "
                        "exceeds the cube core's L0A (position A2): 64000 of "
                        "65536 bytes left"));
}

TEST_F(CubeTest, KindsOfCoreKeepToTheirMemories) {
  {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    EXPECT_TRUE(FailsWith([&] { pipe.InitBuffer(ub, 32); },
                          "TBuf<VECCALC> #1: position VECCALC is in the "
                          "unified buffer, which a cube core (AIC) does not "
                          "have"));
  }
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  {
    TPipe pipe;
    TQue<TPosition::B2, 1> l0b;
    EXPECT_TRUE(FailsWith([&] { pipe.InitBuffer(l0b, 1, 512); },
                          "TQue<B2, 1> #1: position B2 is in the cube core's "
                          "L0B; this kernel runs on a vector core"));
    EXPECT_TRUE(FailsWith(
        [&] { LocalTensor<float> t(TPosition::CO1, 0, 16); },
        "LocalTensor(pos, addr, tileSize)<float>: position CO1 is in the "
        "cube core's L0C; this kernel runs on a vector core"));
  }
  EXPECT_TRUE(FailsWith(
      [&] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); },
      "KERNEL_TASK_TYPE_DEFAULT: KERNEL_TYPE_MIX_AIC_1_2 starts cube and "
      "vector cores together; state it inside a kernel that a launch runs"));
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  TPipe pipe;
  EXPECT_TRUE(FailsWith(
      [&] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); },
      "KERNEL_TASK_TYPE_DEFAULT: the core already has a TPipe as a cube core"));
}

TEST_F(CubeTest, StaticTensorsAtCubePositions) {
  const LocalTensor<half> a(TPosition::A1, 1024, 256);
  EXPECT_EQ(a.GetSize(), 256u);
  EXPECT_TRUE(FailsWith(
      [&] { LocalTensor<half> t(TPosition::A2, 100, 16); },
      "LocalTensor(pos, addr, tileSize)<half>: addr 100 is not a multiple of "
      "512 bytes (L0A addresses)"));
  EXPECT_TRUE(FailsWith(
      [&] { LocalTensor<float> t(TPosition::C2, 512, 256); },
      "LocalTensor(pos, addr, tileSize)<float>: 1024 bytes at addr 512 run "
      "past the end of the bias table (1024 bytes, profile Atlas A2/A3)"));
}

TEST_F(CubeTest, PlatformReportsTheCubeMemories) {
  using normgrad_ascendc::Profile;
  using platform_ascendc::CoreMemType;
  struct Case {
    Profile profile;
    uint64_t l1, l0a, l0b, l0c, bt, fb;
  };
  // The a2 and 950 figures from their pages; the 310p has no cube core.
  const Case cases[] = {
      {Profile::kA2, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 2048},
      {Profile::k950, 512 * 1024, 64 * 1024, 64 * 1024, 256 * 1024, 4096, 4096},
      {Profile::k310P, 0, 0, 0, 0, 0, 0}};
  for (const Case& c : cases) {
    normgrad_ascendc::SetProfile(c.profile);
    const platform_ascendc::PlatformAscendC platform(nullptr);
    const std::pair<CoreMemType, uint64_t> expected[] = {
        {CoreMemType::L1, c.l1},    {CoreMemType::L0_A, c.l0a},
        {CoreMemType::L0_B, c.l0b}, {CoreMemType::L0_C, c.l0c},
        {CoreMemType::BT, c.bt},    {CoreMemType::FB, c.fb}};
    for (const auto& [type, bytes] : expected) {
      uint64_t size = 1;
      platform.GetCoreMemSize(type, size);
      EXPECT_EQ(size, bytes)
          << static_cast<int>(c.profile) << " " << static_cast<int>(type);
    }
  }
  normgrad_ascendc::SetProfile(Profile::kA2);
}

TEST_F(CubeTest, VectorInstructionsRefuseCubeTensors) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 1024);
  const LocalTensor<float> t = l1.Get<float>();
  EXPECT_TRUE(FailsWith([&] { AscendC::Adds(t, t, 1.0f, 64); },
                        "dst is in position A1; it must be VECIN, VECOUT or "
                        "VECCALC (A1 is in the cube core's L1, not in the "
                        "unified buffer)"));
}

// ---- DataCopy GM <-> L1
// ------------------------------------------------------

TEST_F(CubeTest, ContiguousCopiesBetweenGmAndL1) {
  TPipe pipe;
  TQue<TPosition::A1, 1> l1;
  pipe.InitBuffer(l1, 1, 1024);
  std::vector<half> in(256), out(256, half(0.0f));
  for (int i = 0; i < 256; ++i) in[i] = half(static_cast<float>(i) - 100.0f);
  GlobalTensor<half> gin = Gm(in), gout = Gm(out);
  LocalTensor<half> t = l1.AllocTensor<half>();
  DataCopy(t, gin, 128);
  AscendC::DataCopyParams blocks;  // the second half: 4 blocks of 2 x 32 B
  blocks.blockCount = 4;
  blocks.blockLen = 2;
  DataCopy(t[128], gin[128], blocks);
  DataCopy(gout, t, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(out[i].Bits(), in[i].Bits()) << i;
  EXPECT_TRUE(FailsWith([&] { DataCopy(gout, t[16], 512); },
                        "DataCopy<half> L1->GM: count 512 exceeds the src "
                        "LocalTensor of 496 elements"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(t, gin, 100); },
                        "DataCopy<half> GM->L1: count 100 (200 bytes) is not "
                        "a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(t, gin, 1024); },
                        "DataCopy<half> GM->L1: count 1024 exceeds the src "
                        "GlobalTensor of 256 elements"));
  TBuf<TPosition::A2> l0a;
  pipe.InitBuffer(l0a, 512);
  EXPECT_TRUE(FailsWith([&] { DataCopy(l0a.Get<half>(), gin, 16); },
                        "DataCopy<half> GM->L0A: dst LocalTensor is at "
                        "position A2 (L0A); DataCopy moves between GM and L1 "
                        "(A1, B1, C1) only"));
}

// ---- ND2NZ
// -------------------------------------------------------------------

// The page's ND -> Nz transform of an (m, n) matrix, element by element:
// pad to (M1 * 16, N1 * c0), reshape (M1, 16, N1, c0), transpose to
// (N1, M1, 16, c0). Returns the Nz index of ND element (r, c).
size_t NzIndex(size_t r, size_t c, size_t m_padded, size_t c0) {
  const size_t n1 = c / c0, m1 = r / 16, m0 = r % 16, n0 = c % c0;
  return ((n1 * (m_padded / 16) + m1) * 16 + m0) * c0 + n0;
}

TEST_F(CubeTest, Nd2NzMatchesThePagesTransform) {
  // The page's example: M = 40, K = 56 half, into Nz padded to 48 x 64.
  const uint32_t m = 40, k = 56, m_pad = 48, k_pad = 64;
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, m_pad * k_pad * 2);
  LocalTensor<half> nz = l1.Get<half>();
  std::vector<half> fill(m_pad * k_pad, half(-7.0f));
  GlobalTensor<half> gfill = Gm(fill);
  DataCopy(nz, gfill, m_pad * k_pad);  // marks the bytes ND2NZ must not touch
  std::vector<half> nd(m * k);
  for (uint32_t i = 0; i < m * k; ++i)
    nd[i] = half(static_cast<float>(i % 2000));
  GlobalTensor<half> gnd = Gm(nd);
  Nd2NzParams p;
  p.ndNum = 1;
  p.nValue = m;
  p.dValue = k;
  p.srcDValue = k;
  p.dstNzC0Stride = m_pad;
  p.dstNzNStride = 1;
  DataCopy(nz, gnd, p);
  const half* got = nz.GetPhyAddr();
  for (uint32_t r = 0; r < m_pad; ++r) {
    for (uint32_t c = 0; c < k_pad; ++c) {
      const size_t at = NzIndex(r, c, m_pad, 16);
      // k = 56 fills 3.5 column blocks: the last block's 8 spare columns of
      // each written row are zeros; rows past m keep what was there.
      const float want = r >= m  ? -7.0f
                         : c < k ? static_cast<float>((r * k + c) % 2000)
                                 : 0.0f;
      ASSERT_EQ(static_cast<float>(got[at]), want) << r << "," << c;
    }
  }
}

TEST_F(CubeTest, Nd2NzSeveralMatricesWithStrides) {
  // The page's non-continuous example (half): two 8 x 23 matrices of a
  // source with 32-element rows, 384 elements apart; destination rows 2
  // C0 apart, column blocks 37 C0 apart, matrices 320 elements apart.
  TPipe pipe;
  TBuf<TPosition::B1> l1;
  pipe.InitBuffer(l1, 4096);
  LocalTensor<half> dst = l1.Get<half>();
  std::vector<half> zeros(2048, half(0.0f));
  GlobalTensor<half> gz = Gm(zeros);
  DataCopy(dst, gz, 2048);
  std::vector<half> src(800);
  for (uint32_t i = 0; i < src.size(); ++i)
    src[i] = half(static_cast<float>(i));
  GlobalTensor<half> gsrc = Gm(src);
  const Nd2NzParams p(2, 8, 23, 384, 32, 37, 2, 320);
  DataCopy(dst, gsrc, p);
  const half* got = dst.GetPhyAddr();
  for (uint32_t i = 0; i < 2; ++i) {
    for (uint32_t r = 0; r < 8; ++r) {
      for (uint32_t c = 0; c < 32; ++c) {
        const size_t at = i * 320 + (c / 16) * 37 * 16 + r * 2 * 16 + c % 16;
        const float want =
            c < 23 ? static_cast<float>(i * 384 + r * 32 + c) : 0.0f;
        ASSERT_EQ(static_cast<float>(got[at]), want) << i << r << c;
      }
    }
  }
  EXPECT_EQ(static_cast<float>(got[16]), 0.0f);  // row 0 of block 0 ends at 16
}

TEST_F(CubeTest, Nd2NzRules) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 1024);
  LocalTensor<float> dst = l1.Get<float>();
  std::vector<float> src(256, 1.0f);
  GlobalTensor<float> g = Gm(src);
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(dst, g, Nd2NzParams(1, 4, 8, 0, 8, 0, 1, 0)); },
      "DataCopy<float> GM->L1 (Nd2NzParams): intriParams.dstNzC0Stride 0 is "
      "out of range [1, 16384]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(dst, g, Nd2NzParams(4096, 4, 8, 0, 8, 4, 1, 0)); },
      "intriParams.ndNum 4096 is out of range [0, 4095]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(dst, g, Nd2NzParams(1, 16385, 8, 0, 8, 4, 1, 0)); },
      "intriParams.nValue 16385 is out of range [0, 16384]"));
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(dst, g, Nd2NzParams(1, 4, 8, 0, 0, 4, 1, 0)); },
                "intriParams.srcDValue 0 is out of range [1, 65535]"));
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(dst, g, Nd2NzParams(1, 4, 8, 0, 8, 4, 0, 0)); },
                "intriParams.dstNzNStride 0 is out of range [1, 16384]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(dst, g, Nd2NzParams(2, 4, 8, 0, 8, 4, 1, 16385)); },
      "intriParams.dstNzMatrixStride 16385 is out of range [0, 16384]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(dst, g, Nd2NzParams(1, 16, 8, 0, 8, 16, 3, 0)); },
      "DataCopy<float> GM->L1 (Nd2NzParams): the Nz matrices reaches 1472 "
      "bytes into dst, past the end of its 1024 bytes"));
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(dst, g, Nd2NzParams(1, 8, 8, 0, 64, 8, 1, 0)); },
                "the access reaches element 456 of src, past the end of the "
                "GlobalTensor of 256 elements"));
  // ndNum, nValue or dValue 0: nothing moves, whatever the rest holds.
  const float before = dst.GetValue(0);
  DataCopy(dst, g, Nd2NzParams(1, 0, 8, 0, 0, 0, 0, 0));
  EXPECT_EQ(dst.GetValue(0), before);
}

// ---- LoadData 2D
// -------------------------------------------------------------

TEST_F(CubeTest, LoadData2DMovesFractalsWithStartStrideAndGap) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> l0a;
  pipe.InitBuffer(l1, 16 * 512);
  pipe.InitBuffer(l0a, 16 * 512);
  LocalTensor<float> src = l1.Get<float>();
  LocalTensor<float> dst = l0a.Get<float>();
  for (uint32_t i = 0; i < 16 * 128; ++i)
    src.SetValue(i, static_cast<float>(i));
  for (uint32_t i = 0; i < 16 * 128; ++i) dst.SetValue(i, -1.0f);
  // The page's example: startIndex 1, 4 repeats, srcStride 2, dstGap 2.
  LoadData(dst, src, LoadData2DParams(1, 4, 2, 0, 2, false, 0));
  for (uint32_t f = 0; f < 16; ++f) {
    // Destination fractal f holds source fractal 1 + 2 * (f / 3) when f is a
    // multiple of 3 below 12; the rest are untouched.
    const bool written = f % 3 == 0 && f < 12;
    for (uint32_t e = 0; e < 128; ++e) {
      const float want =
          written ? static_cast<float>((1 + 2 * (f / 3)) * 128 + e) : -1.0f;
      ASSERT_EQ(dst.GetValue(f * 128 + e), want) << f << "," << e;
    }
  }
}

TEST_F(CubeTest, LoadData2DTransposesHalfFractals) {
  TPipe pipe;
  TBuf<TPosition::B1> l1;
  TBuf<TPosition::B2> l0b;
  pipe.InitBuffer(l1, 2 * 512);
  pipe.InitBuffer(l0b, 2 * 512);
  LocalTensor<half> src = l1.Get<half>();
  LocalTensor<half> dst = l0b.Get<half>();
  for (uint32_t i = 0; i < 512; ++i)
    src.SetValue(i, half(static_cast<float>(i)));
  LoadData(dst, src, LoadData2DParams(0, 2, 1, 0, 0, true, 0));
  for (uint32_t f = 0; f < 2; ++f) {
    for (uint32_t r = 0; r < 16; ++r) {
      for (uint32_t c = 0; c < 16; ++c) {
        ASSERT_EQ(static_cast<float>(dst.GetValue(f * 256 + r * 16 + c)),
                  static_cast<float>(f * 256 + c * 16 + r));
      }
    }
  }
  // From GM too (no transpose).
  std::vector<half> gm(256);
  for (uint32_t i = 0; i < 256; ++i) gm[i] = half(static_cast<float>(1000 + i));
  GlobalTensor<half> g = Gm(gm);
  LoadData(dst, g, LoadData2DParams(0, 1, 0, 0, 0, false, 0));
  EXPECT_EQ(static_cast<float>(dst.GetValue(255)), 1255.0f);
}

TEST_F(CubeTest, LoadData2DRules) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> l0a;
  pipe.InitBuffer(l1, 1024);
  pipe.InitBuffer(l0a, 1024);
  LocalTensor<float> src = l1.Get<float>();
  LocalTensor<float> dst = l0a.Get<float>();
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, src, LoadData2DParams(0, 1, 1, 0, 0, true, 0)); },
      "LoadData<float> L1->L0A: loadDataParams.ifTranspose is true for a "
      "4-byte type; the transpose moves 16-bit types only"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(src, src, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); },
      "dst LocalTensor is at position A1; it must be at A2 (L0A) or B2 (L0B)"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst[8], src, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); },
      "dst LocalTensor starts at L0A offset 32, which is not a multiple of "
      "512 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, src, LoadData2DParams(1, 2, 1, 0, 0, false, 0)); },
      "the fractals read reaches 1536 bytes into src, past the end of its "
      "1024 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, src, LoadData2DParams(0, 2, 0, 0, 1, false, 0)); },
      "the fractals written reaches 1536 bytes into dst, past the end of its "
      "1024 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, src, LoadData2DParams(0, 1, 0, 0, 0, false, 1)); },
      "loadDataParams.addrMode 1; only 0"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, dst, LoadData2DParams(0, 1, 0, 0, 0, false, 0)); },
      "LoadData<float> L1->L0A: src LocalTensor is at position A2; it must be "
      "at A1, B1 or C1 (L1)"));
  std::vector<half> gm(256);
  GlobalTensor<half> g = Gm(gm);
  TBuf<TPosition::B2> l0b;
  pipe.InitBuffer(l0b, 512);
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadData(l0b.Get<half>(), g, LoadData2DParams(0, 1, 0, 0, 0, true, 0));
      },
      "LoadData<half> GM->L0B: loadDataParams.ifTranspose is true; only the "
      "L1 -> L0A/L0B paths transpose"));
  const float kept = dst.GetValue(0);
  LoadData(dst, src, LoadData2DParams(0, 0, 1, 0, 0, false, 0));  // a NOP
  EXPECT_EQ(dst.GetValue(0), kept);
}

// ---- Mmad
// --------------------------------------------------------------------

// One Mmad with Atlas A2/A3's layouts (cube_mmad_run.h): A in Zz, or the
// one ND row GEMV reads when m is 1.
template <typename Out, typename In>
std::vector<Out> RunMmad(uint32_t m, uint32_t k, uint32_t n,
                         const std::vector<In>& a, const std::vector<In>& b,
                         MmadParams p, const std::vector<Out>* bias = nullptr,
                         Out init = Out(0)) {
  return cube_test::RunMmad<Out>(
      m, k, n, a, b, p,
      m == 1 ? cube_test::ALayout::kNdRow : cube_test::ALayout::kZz, bias,
      init);
}

TEST_F(CubeTest, MmadHalfIntoFloatIsExactOnSmallIntegers) {
  const uint32_t m = 30, k = 70, n = 40;  // the page's partial fractals
  std::vector<half> a(m * k), b(k * n);
  for (uint32_t i = 0; i < a.size(); ++i)
    a[i] = half(float(int(i * 7 % 9) - 4));
  for (uint32_t i = 0; i < b.size(); ++i)
    b[i] = half(float(int(i * 5 % 7) - 3));
  const std::vector<float> c = RunMmad<float>(m, k, n, a, b, MmadParams{});
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      double want = 0;
      for (uint32_t i = 0; i < k; ++i) {
        want += double(float(a[r * k + i])) * double(float(b[i * n + col]));
      }
      ASSERT_EQ(c[r * n + col], want) << r << "," << col;
    }
  }
}

TEST_F(CubeTest, MmadRoundsOncePerAccumulationInKOrder) {
  // Float products along k: 2^24, then 1 sixteen times, then -2^24. Adding
  // in k order with one rounding each loses every 1 (2^24 + 1 rounds back
  // to 2^24): the result is 0, where the exact sum is 16.
  const uint32_t m = 2, k = 18, n = 16;
  std::vector<float> a(m * k, 1.0f), b(k * n, 1.0f);
  for (uint32_t col = 0; col < n; ++col) {
    b[0 * n + col] = 16777216.0f;
    b[(k - 1) * n + col] = -16777216.0f;
  }
  const std::vector<float> c = RunMmad<float>(m, k, n, a, b, MmadParams{});
  for (const float v : c) EXPECT_EQ(v, 0.0f);
  // The same values with the cancelling pair first: exact.
  for (uint32_t col = 0; col < n; ++col) b[1 * n + col] = -16777216.0f;
  for (uint32_t col = 0; col < n; ++col) b[(k - 1) * n + col] = 1.0f;
  const std::vector<float> d = RunMmad<float>(m, k, n, a, b, MmadParams{});
  for (const float v : d) EXPECT_EQ(v, 16.0f);
}

TEST_F(CubeTest, MmadFloatRandomMatchesSequentialFloatReference) {
  const uint32_t m = 17, k = 20, n = 33;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(m * k), b(k * n), bias(n);
  for (float& v : a) v = dist(rng);
  for (float& v : b) v = dist(rng);
  for (float& v : bias) v = dist(rng);
  const std::vector<float> c =
      RunMmad<float>(m, k, n, a, b, MmadParams{}, &bias);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      float acc = bias[col];
      for (uint32_t i = 0; i < k; ++i) {
        const float product = a[r * k + i] * b[i * n + col];
        acc = acc + product;
      }
      ASSERT_EQ(c[r * n + col], acc) << r << "," << col;
    }
  }
}

TEST_F(CubeTest, MmadInt8IntoInt32AndAccumulation) {
  const uint32_t m = 20, k = 40, n = 24;
  std::vector<int8_t> a(m * k), b(k * n);
  for (uint32_t i = 0; i < a.size(); ++i)
    a[i] = int8_t(int(i * 37 % 255) - 127);
  for (uint32_t i = 0; i < b.size(); ++i)
    b[i] = int8_t(int(i * 53 % 256) - 128);
  MmadParams keep;
  keep.cmatrixInitVal = false;  // C += A x B onto the 5 already there
  const std::vector<int32_t> c =
      RunMmad<int32_t>(m, k, n, a, b, keep, nullptr, 5);
  MmadParams deprecated;
  deprecated.isBias = true;  // the deprecated flag: the same
  const std::vector<int32_t> d =
      RunMmad<int32_t>(m, k, n, a, b, deprecated, nullptr, 5);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      int64_t want = 5;
      for (uint32_t i = 0; i < k; ++i) {
        want += int64_t{a[r * k + i]} * int64_t{b[i * n + col]};
      }
      ASSERT_EQ(c[r * n + col], want);
      ASSERT_EQ(d[r * n + col], want);
    }
  }
  // Integer accumulation saturates.
  std::vector<int8_t> big(16 * 32, int8_t(-128));
  const std::vector<int32_t> s =
      RunMmad<int32_t>(16, 32, 16, big, big, keep, nullptr, 2147483000);
  EXPECT_EQ(s[0], 2147483647);
}

TEST_F(CubeTest, MmadBfloat16AndGemv) {
  const uint32_t k = 48, n = 16;
  std::vector<bfloat16_t> a(k), b(k * n);
  for (uint32_t i = 0; i < k; ++i) a[i] = bfloat16_t(float(int(i % 5) - 2));
  for (uint32_t i = 0; i < b.size(); ++i)
    b[i] = bfloat16_t(float(int(i % 3) - 1) * 0.5f);
  // m = 1: A is read as one ND row (GEMV).
  const std::vector<float> c = RunMmad<float>(1, k, n, a, b, MmadParams{});
  for (uint32_t col = 0; col < n; ++col) {
    double want = 0;
    for (uint32_t i = 0; i < k; ++i)
      want += double(float(a[i])) * double(float(b[i * n + col]));
    EXPECT_EQ(c[col], want);
  }
}

TEST_F(CubeTest, MmadRules) {
  TPipe pipe;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l0a, 512);
  pipe.InitBuffer(l0b, 512);
  pipe.InitBuffer(l0c, 1024);
  LocalTensor<half> a = l0a.Get<half>();
  LocalTensor<half> b = l0b.Get<half>();
  LocalTensor<float> c = l0c.Get<float>();
  MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 32;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, a, b, p); },
                        "Mmad<float, half, half>: A (m x k) reaches 1024 "
                        "bytes into fm, past the end of its 512 bytes"));
  p.k = 16;
  p.m = 4096;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, a, b, p); },
                        "mmadParams.m 4096 is out of range [0, 4095]"));
  p.m = 16;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, b, b, p); },
                        "fm LocalTensor is at position B2; it must be at A2 "
                        "(L0A)"));
  p.unitFlag = 1;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, a, b, p); },
                        "mmadParams.unitFlag 1 is not 0, 2 or 3"));
  p.unitFlag = 0;
  p.disableGemv = true;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, a, b, p); },
                        "mmadParams.disableGemv is true; only the Ascend 950 "
                        "turns GEMV off"));
  p.disableGemv = false;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, a, b, c, p); },
                        "bias LocalTensor is at position CO1; it must be at "
                        "C2 (the bias table)"));
  p.unitFlag = 3;
  p.cmatrixInitVal = false;
  p.cmatrixSource = true;
  EXPECT_TRUE(FailsWith([&] { Mmad(c, a, b, p); },
                        "mmadParams.cmatrixSource is true, but this form has "
                        "no bias tensor"));
  p.cmatrixSource = false;
  Mmad(c, a, b, p);  // unitFlag 3 is accepted
  MmadParams nop;    // m = n = k = 0: nothing happens
  c.SetValue(0, 3.5f);
  Mmad(c, a, b, nop);
  EXPECT_EQ(c.GetValue(0), 3.5f);
}

// ---- Fixpipe
// -----------------------------------------------------------------

TEST_F(CubeTest, FixpipeNz2NdFloatHalfAndRelu) {
  const uint32_t m = 20, n = 40, m1 = 2, n1 = 3;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l0c, m1 * n1 * 1024);
  LocalTensor<float> c = l0c.Get<float>();
  const auto value = [](uint32_t r, uint32_t col) {
    // Ties of half's rounding (1 + odd / 2^11) and negatives.
    return (float(r) - 10.0f) * 4.0f + 1.0f + float(2 * col + 1) / 2048.0f;
  };
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      c.SetValue(NzOutIndex(r, col, m1), value(r, col));
  }
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m1 * 16;
  p.dstStride = 48;  // ND rows 48 elements apart
  std::vector<float> out(m * 48, -9.0f);
  GlobalTensor<float> gout = Gm(out);
  Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(gout, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < 48; ++col) {
      ASSERT_EQ(out[r * 48 + col], col < n ? value(r, col) : -9.0f);
    }
  }
  p.quantPre = AscendC::F322F16;
  p.reluEn = true;
  p.dstStride = n;
  std::vector<half> h(m * n);
  GlobalTensor<half> gh = Gm(h);
  Fixpipe(gh, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float v = std::max(value(r, col), 0.0f);
      // Half keeps 11 significant bits: ties go to the even neighbour.
      const float ulp = v >= 1.0f ? std::ldexp(1.0f, std::ilogb(v) - 10) : 0;
      float want = v;
      if (ulp != 0) {
        const float below = std::floor(v / ulp) * ulp;
        const float rest = v - below;
        const bool even = std::fmod(below / ulp, 2.0f) == 0.0f;
        want =
            rest * 2 < ulp || (rest * 2 == ulp && even) ? below : below + ulp;
      }
      ASSERT_EQ(float(h[r * n + col]), want) << r << "," << col;
    }
  }
}

TEST_F(CubeTest, FixpipeSeveralMatricesAndInt32) {
  // The NZ2ND page's example: two 48 x 32 NZ matrices (srcStride 64,
  // srcNdStride 256), ND rows of 64, matrices 4096 elements apart.
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l0c, 32 * 1024);
  LocalTensor<int32_t> c = l0c.Get<int32_t>();
  for (uint32_t i = 0; i < 8192; ++i) c.SetValue(i, int32_t(i) - 4000);
  FixpipeParamsV220 p;
  p.ndNum = 2;
  p.nSize = 32;
  p.mSize = 48;
  p.srcStride = 64;
  p.dstStride = 64;
  p.srcNdStride = 256;
  p.dstNdStride = 4096;
  p.reluEn = true;
  std::vector<int32_t> out(8192, 7);
  GlobalTensor<int32_t> g = Gm(out);
  Fixpipe(g, c, p);
  for (uint32_t i = 0; i < 2; ++i) {
    for (uint32_t r = 0; r < 48; ++r) {
      for (uint32_t col = 0; col < 64; ++col) {
        const int32_t src =
            int32_t(i * 256 * 16 + (col / 16) * 64 * 16 + r * 16 + col % 16) -
            4000;
        ASSERT_EQ(out[i * 4096 + r * 64 + col],
                  col < 32 ? std::max(src, 0) : 7);
      }
    }
  }
}

TEST_F(CubeTest, FixpipeRules) {
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l0c, 1024);
  LocalTensor<float> c = l0c.Get<float>();
  std::vector<half> h(256);
  GlobalTensor<half> gh = Gm(h);
  std::vector<float> f(256);
  GlobalTensor<float> gf = Gm(f);
  FixpipeParamsV220 p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gh, c, p); },
                        "Fixpipe<half, float> L0C->GM: intriParams.quantPre "
                        "NoQuant does not turn float into half"));
  p.quantPre = AscendC::DEQF16;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gh, c, p); },
                        "intriParams.quantPre DEQF16 does not turn float into "
                        "half"));
  p.quantPre = AscendC::NoQuant;
  p.dstStride = 0;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<float, float, AscendC::CFG_NZ>(gf, c, p); },
                "intriParams.dstStride is 0; NZ2NZ needs it >= 1 (32 bytes)"));
  p.dstStride = 8;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gf, c, p); },
                        "intriParams.dstStride 8 is less than nSize 16"));
  p.dstStride = 16;
  p.mSize = 8193;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gf, c, p); },
                        "intriParams.mSize 8193 is out of range [0, 8192]"));
  p.mSize = 32;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gf, c, p); },
                        "the NZ matrices reaches 2048 bytes into src, past "
                        "the end of its 1024 bytes"));
  p.mSize = 16;
  p.dstStride = 32;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gf, c, p); },
                        "the access reaches element 496 of dst, past the end "
                        "of the GlobalTensor of 256 elements"));
  p.dstStride = 16;
  p.unitFlag = 1;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gf, c, p); },
                        "intriParams.unitFlag 1 is not 0, 2 or 3"));
  p.unitFlag = 2;
  p.srcNdStride = 513;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe(gf, c, p); },
                "intriParams.srcNdStride 513 is out of range [0, 512]"));
  p.srcNdStride = 0;
  p.ndNum = 2;
  p.dstNdStride = 100;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe(gf, c, p); },
                "intriParams.dstNdStride 100 is less than one ND matrix "
                "(256 elements): the matrices would overlap"));
  p.ndNum = 1;
  p.channelSplit = true;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe(gf, c, p); },
                "intriParams.channelSplit does not combine with NZ2ND"));
}

// ---- Cube kernels
// --------------------------------------------------------------

// One 16 x 16 x 16 half matmul per block through the whole path: block i
// multiplies A_i by B into C_i.
extern "C" __global__ __cube__ void cube_test_block_matmul(GM_ADDR a, GM_ADDR b,
                                                           GM_ADDR c) {
  const int64_t i = AscendC::GetBlockIdx();
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<half*>(a) + i * 256, 256);
  gb.SetGlobalBuffer(reinterpret_cast<half*>(b), 256);
  gc.SetGlobalBuffer(reinterpret_cast<float*>(c) + i * 256, 256);
  TPipe pipe;
  TQue<TPosition::A1, 1> qa1;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa1, 1, 512);
  pipe.InitBuffer(qb1, 1, 512);
  pipe.InitBuffer(qa2, 1, 512);
  pipe.InitBuffer(qb2, 1, 512);
  pipe.InitBuffer(qc, 1, 1024);
  LocalTensor<half> a1 = qa1.AllocTensor<half>();
  LocalTensor<half> b1 = qb1.AllocTensor<half>();
  DataCopy(a1, ga, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  DataCopy(b1, gb, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  LocalTensor<half> a2 = qa2.AllocTensor<half>();
  LocalTensor<half> b2 = qb2.AllocTensor<half>();
  LoadData(a2, a1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  // B (k x n) in Nz on L1 is Zn after transposing the fractal.
  LoadData(b2, b1, LoadData2DParams(0, 1, 1, 0, 0, true, 0));
  LocalTensor<float> c1 = qc.AllocTensor<float>();
  MmadParams mm;
  mm.m = 16;
  mm.n = 16;
  mm.k = 16;
  Mmad(c1, a2, b2, mm);
  FixpipeParamsV220 fp;
  fp.mSize = 16;
  fp.nSize = 16;
  fp.srcStride = 16;
  fp.dstStride = 16;
  Fixpipe(gc, c1, fp);
}

// A kernel that states its type instead of __cube__.
void cube_test_declared(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  TPipe pipe;
  TBuf<TPosition::B1> l1;
  pipe.InitBuffer(l1, 64);
  reinterpret_cast<int32_t*>(out)[AscendC::GetBlockIdx()] =
      static_cast<int32_t>(l1.Get<int32_t>().GetSize());
}

TEST(CubeKernel, ACubeKernelRunsItsBlocksOnCubeCores) {
  const uint32_t blocks = 3;
  std::vector<half> a(blocks * 256), b(256);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = half(float(int(i % 7) - 3));
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = half(float(int(i % 5) - 2));
  std::vector<float> c(blocks * 256, -1.0f);
  ASSERT_EQ(normgrad_ascendc::LaunchKernel(
                "cube_test_block_matmul", blocks, 0, nullptr,
                cube_test_block_matmul, reinterpret_cast<uint8_t*>(a.data()),
                reinterpret_cast<uint8_t*>(b.data()),
                reinterpret_cast<uint8_t*>(c.data())),
            0);
  for (uint32_t blk = 0; blk < blocks; ++blk) {
    for (uint32_t r = 0; r < 16; ++r) {
      for (uint32_t col = 0; col < 16; ++col) {
        double want = 0;
        for (uint32_t k = 0; k < 16; ++k) {
          want += double(float(a[blk * 256 + r * 16 + k])) *
                  double(float(b[k * 16 + col]));
        }
        ASSERT_EQ(c[blk * 256 + r * 16 + col], want) << blk << r << col;
      }
    }
  }
  std::vector<int32_t> sizes(2, 0);
  ASSERT_EQ(normgrad_ascendc::LaunchKernel(
                "cube_test_declared", 2, 0, nullptr, cube_test_declared,
                reinterpret_cast<uint8_t*>(sizes.data())),
            0);
  EXPECT_EQ(sizes, (std::vector<int32_t>{16, 16}));
}

}  // namespace

// ---- Fixpipe: quantization, NZ2NZ and L0C -> L1 ----------------------------

// A quantization parameter built field by field from the 2201 bit table:
// the scale's 32 float bits, the shift N (1..16) with its MCB flag, the
// 9-bit offset and the sign bit.
uint64_t QuantBits(uint32_t scale_bits, uint32_t n, bool mcb, int32_t offset,
                   bool is_signed) {
  return uint64_t{scale_bits} | uint64_t{(n - 1) & 0xF} << 32 |
         uint64_t{mcb} << 36 | uint64_t(uint32_t(offset) & 0x1FF) << 37 |
         uint64_t{is_signed} << 46;
}
uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// The reference of one quantized value, from the pages: the scale keeps
// sign, exponent and the top 10 mantissa bits; x * scale is one float
// rounding (the double product of an int32 or float and an 11-bit
// significand is exact), + offset another, then the nearest integer (ties
// to even) saturated to 8 bits; NaN gives 0.
double RefScale(uint64_t bits) {
  const uint32_t b = uint32_t(bits);
  const int exponent = int(b >> 23 & 0xFF);
  const double mantissa = 1.0 + double(b >> 13 & 0x3FF) / 1024.0;
  const double v = exponent == 0 ? 0.0 : std::ldexp(mantissa, exponent - 127);
  return (b >> 31) != 0 ? -v : v;
}
float RefScaled(double x, uint64_t bits, bool relu) {
  if (relu && x < 0) return 0.0f;
  return float(x * RefScale(bits));
}
int RefToB8(float scaled, uint64_t bits) {
  const uint32_t off9 = uint32_t(bits >> 37 & 0x1FF);
  const int offset = off9 >= 256 ? int(off9) - 512 : int(off9);
  const float v = float(double(scaled) + offset);
  const bool is_signed = (bits >> 46 & 1) != 0;
  if (std::isnan(v)) return 0;
  const double lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  if (v <= lo) return int(lo);
  if (v >= hi) return int(hi);
  double r = std::floor(double(v));
  const double rest = double(v) - r;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(r, 2.0) != 0)) r += 1;
  return int(r);
}
// int32_t input with MCB: shifted right by N and saturated to int16_t.
double RefInt32Input(int32_t v, uint64_t bits) {
  if ((bits >> 36 & 1) == 0) return double(float(v));
  const int n = int(bits >> 32 & 0xF) + 1;
  const double s = std::floor(double(v) / std::ldexp(1.0, n));
  return std::min(std::max(s, -32768.0), 32767.0);
}
// Round to half, nearest even, for values in half's normal range or zero.
float RefHalf(float v) {
  if (v == 0.0f) return v;
  const float a = std::fabs(v);
  const float ulp = std::ldexp(1.0f, std::max(std::ilogb(a), -14) - 10);
  float below = std::floor(a / ulp) * ulp;
  const float rest = a - below;
  if (rest * 2 > ulp ||
      (rest * 2 == ulp && std::fmod(below / ulp, 2.0f) != 0.0f))
    below += ulp;
  return v < 0 ? -below : below;
}

// An L0C buffer of int32_t or float values placed by NzOutIndex.
template <typename T>
LocalTensor<T> FillL0c(TPipe& pipe, TBuf<TPosition::CO1>& buf, uint32_t m,
                       uint32_t n, T (*value)(uint32_t, uint32_t)) {
  const uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16;
  pipe.InitBuffer(buf, m1 * n1 * 1024);
  LocalTensor<T> c = buf.Get<T>();
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      c.SetValue(NzOutIndex(r, col, m1), value(r, col));
  }
  return c;
}

int32_t WideInt(uint32_t r, uint32_t c) {
  // Small values, values past int16_t after the shift, and extremes.
  if (r == 0 && c == 0) return std::numeric_limits<int32_t>::max();
  if (r == 0 && c == 1) return std::numeric_limits<int32_t>::min();
  const int32_t base = int32_t(r * 37 + c * 11) - 300;
  return r % 3 == 2 ? base * 9973 : base;
}

TEST_F(CubeTest, FixpipeReq8ScalarShiftOffsetAndRelu) {
  const uint32_t m = 18, n = 24, m1 = 2;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<int32_t> c = FillL0c<int32_t>(pipe, l0c, m, n, WideInt);
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m1 * 16;
  p.dstStride = n;
  p.quantPre = AscendC::REQ8;
  // 0.3 has mantissa bits below the top 10: the scale drops them.
  const uint64_t cases[] = {
      QuantBits(FloatBits(0.3f), 1, false, -5, true),
      QuantBits(FloatBits(0.3f), 4, true, 200, true),
      QuantBits(FloatBits(-1.75f), 16, true, -256, true),
  };
  for (const uint64_t bits : cases) {
    for (const bool relu : {false, true}) {
      p.deqScalar = bits;
      p.reluEn = relu;
      std::vector<int8_t> out(m * n, 99);
      GlobalTensor<int8_t> g = Gm(out);
      Fixpipe(g, c, p);
      for (uint32_t r = 0; r < m; ++r) {
        for (uint32_t col = 0; col < n; ++col) {
          const int32_t v = WideInt(r, col);
          const double x = RefInt32Input(v, bits);
          const float s = relu && v < 0 ? 0.0f : RefScaled(x, bits, false);
          ASSERT_EQ(out[r * n + col], RefToB8(s, bits))
              << r << "," << col << " " << relu;
        }
      }
    }
  }
  // uint8_t results with the sign bit clear.
  p.deqScalar = QuantBits(FloatBits(0.5f), 1, false, 3, false);
  p.reluEn = false;
  std::vector<uint8_t> u(m * n);
  GlobalTensor<uint8_t> gu = Gm(u);
  Fixpipe(gu, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float s =
          RefScaled(double(float(WideInt(r, col))), p.deqScalar, false);
      ASSERT_EQ(u[r * n + col], RefToB8(s, p.deqScalar)) << r << "," << col;
    }
  }
}

float SpreadFloat(uint32_t r, uint32_t c) {
  if (r == 1 && c == 2) return std::numeric_limits<float>::quiet_NaN();
  if (r == 1 && c == 3) return std::numeric_limits<float>::infinity();
  if (r == 1 && c == 4) return -std::numeric_limits<float>::infinity();
  // Halves (ties of the integer rounding) and values past 8 bits.
  return (float(int(r * 16 + c) - 150)) * 0.5f + (c % 5 == 0 ? 0.25f : 0.0f);
}

TEST_F(CubeTest, FixpipeVectorQuantReadsOneParameterPerColumn) {
  const uint32_t m = 16, n = 32;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  LocalTensor<float> c = FillL0c<float>(pipe, l0c, m, n, SpreadFloat);
  pipe.InitBuffer(l1, n * 8);
  LocalTensor<uint64_t> ws = l1.Get<uint64_t>();
  std::vector<uint64_t> params(n);
  for (uint32_t col = 0; col < n; ++col) {
    params[col] = QuantBits(FloatBits(float(col % 4 + 1) * 0.75f), 1, false,
                            int32_t(col) - 16, true);
    ws.SetValue(col, params[col]);
  }
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = 16;
  p.dstStride = n;
  p.quantPre = AscendC::VQF322B8_PRE;
  for (const bool relu : {false, true}) {
    p.reluEn = relu;
    std::vector<int8_t> out(m * n);
    GlobalTensor<int8_t> g = Gm(out);
    Fixpipe(g, c, ws, p);
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t col = 0; col < n; ++col) {
        const float x = SpreadFloat(r, col);
        const float s = std::isnan(x) ? x : RefScaled(x, params[col], relu);
        ASSERT_EQ(out[r * n + col], RefToB8(s, params[col]))
            << r << "," << col << " " << relu;
      }
    }
  }
  // Scalar QF322B8_PRE: the same parameter for every column.
  p.quantPre = AscendC::QF322B8_PRE;
  p.reluEn = false;
  p.deqScalar = params[5];
  std::vector<int8_t> out(m * n);
  GlobalTensor<int8_t> g = Gm(out);
  Fixpipe(g, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float x = SpreadFloat(r, col);
      const float s = std::isnan(x) ? x : RefScaled(x, params[5], false);
      ASSERT_EQ(out[r * n + col], RefToB8(s, params[5])) << r << "," << col;
    }
  }
}

int32_t SmallInt(uint32_t r, uint32_t c) {
  return int32_t(r * 29 + c * 7) % 201 - 100;
}

TEST_F(CubeTest, FixpipeDeqf16ScalarAndVector) {
  const uint32_t m = 20, n = 32, m1 = 2;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  LocalTensor<int32_t> c = FillL0c<int32_t>(pipe, l0c, m, n, SmallInt);
  pipe.InitBuffer(l1, n * 8);
  LocalTensor<uint64_t> ws = l1.Get<uint64_t>();
  std::vector<uint64_t> params(n);
  for (uint32_t col = 0; col < n; ++col) {
    // Offsets are ignored by DEQF16; MCB shifts by N.
    params[col] = QuantBits(FloatBits(0.01f * float(col + 1)), 2, col % 2 == 1,
                            77, false);
    ws.SetValue(col, params[col]);
  }
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m1 * 16;
  p.dstStride = n;
  p.quantPre = AscendC::VDEQF16;
  for (const bool relu : {false, true}) {
    p.reluEn = relu;
    std::vector<half> h(m * n);
    GlobalTensor<half> g = Gm(h);
    Fixpipe(g, c, ws, p);
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t col = 0; col < n; ++col) {
        const int32_t v = SmallInt(r, col);
        const float s = relu && v < 0 ? 0.0f
                                      : RefScaled(RefInt32Input(v, params[col]),
                                                  params[col], false);
        const float got = float(h[r * n + col]);
        ASSERT_EQ(got, RefHalf(s)) << r << "," << col;
        if (relu && v < 0) {
          ASSERT_FALSE(std::signbit(got));  // +0
        }
      }
    }
  }
  p.quantPre = AscendC::DEQF16;
  p.reluEn = false;
  p.deqScalar = QuantBits(FloatBits(-3.0e-3f), 1, false, 0, false);
  std::vector<half> h(m * n);
  GlobalTensor<half> g = Gm(h);
  Fixpipe(g, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float s = RefScaled(SmallInt(r, col), p.deqScalar, false);
      ASSERT_EQ(float(h[r * n + col]), RefHalf(s)) << r << "," << col;
    }
  }
}

TEST_F(CubeTest, FixpipeNz2NzToGmAndL1) {
  // The NZ2NZ page's shape: N 48, M 24, srcStride 64 C0 apart in L0C.
  const uint32_t m = 24, n = 48;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l0c, 3 * 64 * 16 * 4);
  LocalTensor<float> c = l0c.Get<float>();
  const auto value = [](uint32_t r, uint32_t col) {
    return float(r * 100 + col) + 1.0f / 4096.0f;  // rounds away in half
  };
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      c.SetValue((col / 16) * 64 * 16 + r * 16 + col % 16, value(r, col));
  }
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = 64;
  p.dstStride = 100;  // column blocks 100 x 32 bytes apart in GM
  // An NZ output in GM starts at a 32-byte boundary.
  struct alignas(32) Out {
    float v[3 * 800 + 1];
  };
  const auto storage = std::make_unique<Out>();
  float* const out = storage->v;
  std::fill(out, out + 3 * 800 + 1, -1.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out, 3 * 800);
  Fixpipe<float, float, AscendC::CFG_NZ>(g, c, p);
  for (size_t i = 0; i < 3 * 800; ++i) {
    const uint32_t block = uint32_t(i / 800), row = uint32_t(i % 800 / 16);
    const float want =
        row < m ? value(row, block * 16 + uint32_t(i % 16)) : -1.0f;
    ASSERT_EQ(out[i], want) << i;
  }
  GlobalTensor<float> off;
  off.SetGlobalBuffer(out + 1, 3 * 800);
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, AscendC::CFG_NZ>(off, c, p); },
      "Fixpipe<float, float> L0C->GM: dst GM address is not 32-byte aligned "
      "(NZ output)"));
  // To L1: F322F16, column blocks m x 16 halves apart (dstStride 24).
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 3 * 24 * 32);
  LocalTensor<half> a = l1.Get<half>();
  p.quantPre = AscendC::F322F16;
  p.dstStride = 24;
  Fixpipe<half, float, AscendC::CFG_NZ>(a, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      ASSERT_EQ(float(a.GetValue((col / 16) * 24 * 16 + r * 16 + col % 16)),
                RefHalf(value(r, col)));
    }
  }
}

TEST_F(CubeTest, FixpipeQuantAndNzRules) {
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::A1> a1;
  pipe.InitBuffer(l0c, 1024);
  pipe.InitBuffer(l1, 64);
  pipe.InitBuffer(a1, 512);
  LocalTensor<int32_t> c = l0c.Get<int32_t>();
  LocalTensor<float> cf = l0c.Get<float>();
  LocalTensor<uint64_t> ws = l1.Get<uint64_t>();
  LocalTensor<uint64_t> ws_a1 = a1.Get<uint64_t>();
  LocalTensor<half> dst_l1 = a1.Get<half>();
  std::vector<int8_t> b(256);
  GlobalTensor<int8_t> gb = Gm(b);
  std::vector<half> h(256);
  GlobalTensor<half> gh = Gm(h);
  FixpipeParamsV220 p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  p.quantPre = AscendC::REQ8;
  p.deqScalar = QuantBits(FloatBits(1.0f), 1, false, 0, false);
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, p); },
                        "Fixpipe<int8_t, int32_t> L0C->GM: "
                        "intriParams.deqScalar 0x000000003f800000 has the sign "
                        "bit 46 clear, which makes uint8_t results, but dst is "
                        "int8_t"));
  p.deqScalar = QuantBits(0x7F800000u, 1, false, 0, true);
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, p); },
                        "intriParams.deqScalar 0x000040007f800000 has the "
                        "scale inf in bits 0..31, which is inf, NaN or "
                        "subnormal"));
  p.quantPre = AscendC::VREQ8;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, p); },
                        "intriParams.quantPre VREQ8 reads one parameter per "
                        "column from cbufWorkspace; use the Fixpipe form with "
                        "cbufWorkspace"));
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, ws_a1, p); },
                        "cbufWorkspace LocalTensor is at position A1; it must "
                        "be at C1 (L1)"));
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, ws, p); },
                        "one parameter per column (nSize x 8 bytes) reaches "
                        "128 bytes into cbufWorkspace, past the end of its 64 "
                        "bytes"));
  for (uint32_t i = 0; i < 8; ++i)
    ws.SetValue(i, QuantBits(FloatBits(1.0f), 1, false, 0, true));
  ws.SetValue(3, QuantBits(0x00000001u << 13, 1, false, 0, true));
  p.nSize = 8;
  p.dstStride = 8;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, ws, p); },
                        "cbufWorkspace[3] 0x0000400000002000 has the scale"));
  p.nSize = 16;
  p.dstStride = 16;
  p.quantPre = AscendC::REQ8;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, ws, p); },
                        "cbufWorkspace is given, but intriParams.quantPre "
                        "REQ8 is not a per-column mode"));
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gh, c, p); },
                        "Fixpipe<half, int32_t> L0C->GM: intriParams.quantPre "
                        "REQ8 does not turn int32_t into half"));
  p.quantPre = AscendC::QF322B8_PRE;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(gb, c, p); },
                        "intriParams.quantPre QF322B8_PRE does not turn "
                        "int32_t into int8_t"));
  // NZ2NZ and L0C -> L1.
  p.quantPre = AscendC::F322F16;
  p.nSize = 8;
  EXPECT_TRUE(
      FailsWith([&] { Fixpipe<half, float, AscendC::CFG_NZ>(gh, cf, p); },
                "intriParams.nSize 8 is not a multiple of 16 (NZ output)"));
  p.nSize = 16;
  p.dstStride = 15;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, AscendC::CFG_NZ>(gh, cf, p); },
      "intriParams.dstStride 15 (x 32 bytes) is less than one column of "
      "fractals (mSize 16 x 16 x 2 bytes): the NZ output would overlap"));
  p.dstStride = 16;
  p.channelSplit = true;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, AscendC::CFG_NZ>(gh, cf, p); },
      "intriParams.channelSplit is true for float -> half; F32 Channel Split "
      "needs float in L0C and float out"));
  p.channelSplit = false;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(dst_l1, cf, p); },
                        "Fixpipe<half, float> L0C->L1: config CFG_ROW_MAJOR: "
                        "the L0C -> L1 path writes NZ only (CFG_NZ)"));
  p.quantPre = AscendC::NoQuant;
  LocalTensor<float> f_l1 = a1.Get<float>();
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, AscendC::CFG_NZ>(f_l1, cf, p); },
      "intriParams.quantPre NoQuant: the L0C -> L1 path always converts"));
  p.quantPre = AscendC::F322F16;
  p.nSize = 32;
  p.srcStride = 0;  // both column blocks read the one fractal
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, AscendC::CFG_NZ>(dst_l1, cf, p); },
      "the NZ output reaches 1024 bytes into dst, past the end of its 512 "
      "bytes"));
  p.nSize = 16;
  p.srcStride = 16;
  p.mSize = 17;
  p.dstStride = 17;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, AscendC::CFG_NZ>(dst_l1, cf, p); },
      "the NZ matrices reaches 1088 bytes into src, past the end of its 1024 "
      "bytes"));
}

// A quantized matmul end to end from GM: int8 A (Zz) and B (Zn) loaded
// into L0A/L0B, Mmad into int32_t, the per-column parameters copied GM ->
// L1, and Fixpipe VREQ8 to an int8 ND matrix in GM.
TEST_F(CubeTest, QuantizedInt8MatmulEndToEnd) {
  const uint32_t m = 32, k = 64, n = 32, c0 = 32;
  const uint32_t m1 = 2, k1 = 2, n1 = 2;
  std::vector<int8_t> a(m * k), b(k * n);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = int8_t(int(i * 7 % 17) - 8);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = int8_t(int(i * 5 % 13) - 6);
  std::vector<int8_t> a_zz(m1 * k1 * 512), b_zn(k1 * n1 * 512);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < k; ++col)
      a_zz[ZzIndex(r, col, k1, c0)] = a[r * k + col];
  }
  for (uint32_t r = 0; r < k; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      b_zn[ZnIndex(r, col, n1, c0)] = b[r * n + col];
  }
  std::vector<uint64_t> params(n);
  for (uint32_t col = 0; col < n; ++col) {
    params[col] = QuantBits(FloatBits(1.0f / float(8 + col)), 1, false,
                            int32_t(col % 7) - 3, true);
  }
  TPipe pipe;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  pipe.InitBuffer(l0a, a_zz.size());
  pipe.InitBuffer(l0b, b_zn.size());
  pipe.InitBuffer(l0c, m1 * n1 * 1024);
  pipe.InitBuffer(l1, n * 8);
  LocalTensor<int8_t> la = l0a.Get<int8_t>();
  LocalTensor<int8_t> lb = l0b.Get<int8_t>();
  LocalTensor<int32_t> lc = l0c.Get<int32_t>();
  LocalTensor<uint64_t> ws = l1.Get<uint64_t>();
  LoadData(la, Gm(a_zz), LoadData2DParams(0, m1 * k1, 1, 0, 0, false, 0));
  LoadData(lb, Gm(b_zn), LoadData2DParams(0, k1 * n1, 1, 0, 0, false, 0));
  DataCopy(ws, Gm(params), n);
  MmadParams mp;
  mp.m = m;
  mp.n = n;
  mp.k = k;
  Mmad(lc, la, lb, mp);
  FixpipeParamsV220 fp;
  fp.mSize = m;
  fp.nSize = n;
  fp.srcStride = m1 * 16;
  fp.dstStride = n;
  fp.quantPre = AscendC::VREQ8;
  std::vector<int8_t> out(m * n);
  Fixpipe(Gm(out), lc, ws, fp);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      int64_t sum = 0;
      for (uint32_t i = 0; i < k; ++i)
        sum += int64_t{a[r * k + i]} * int64_t{b[i * n + col]};
      const float s = RefScaled(double(sum), params[col], false);
      ASSERT_EQ(out[r * n + col], RefToB8(s, params[col])) << r << "," << col;
    }
  }
}

// ---- DataCopy into the bias table and the fixpipe buffer -------------------

TEST_F(CubeTest, BiasTableCopiesFromL1WithGapsAndHalfWidening) {
  TPipe pipe;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2> bt;
  pipe.InitBuffer(l1, 512);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<half> src_h = l1.Get<half>();
  LocalTensor<int32_t> src_i = l1.Get<int32_t>();
  LocalTensor<float> dst_f = bt.Get<float>();
  LocalTensor<int32_t> dst_i = bt.Get<int32_t>();
  for (uint32_t i = 0; i < 256; ++i) {
    src_h.SetValue(i, half(float(i) * 0.25f - 20.0f));  // exact in half
  }
  for (uint32_t i = 0; i < 256; ++i) dst_f.SetValue(i, -1.0f);
  // Two blocks of 64 bytes of float (16 values from 32 bytes of half), a
  // 32-byte source gap and a 64-byte destination gap, end to start.
  DataCopy(dst_f, src_h, AscendC::DataCopyParams(2, 1, 1, 1));
  for (uint32_t i = 0; i < 64; ++i) {
    float want = -1.0f;
    if (i < 16) want = float(i) * 0.25f - 20.0f;
    if (i >= 32 && i < 48) want = float(i) * 0.25f - 20.0f;  // src 32..47
    ASSERT_EQ(dst_f.GetValue(i), want) << i;
  }
  // int32_t, the count form: 20 elements are 80 bytes, rounded down to 64.
  for (uint32_t i = 0; i < 128; ++i) src_i.SetValue(i, int32_t(i) * 3 - 7);
  for (uint32_t i = 0; i < 64; ++i) dst_i.SetValue(i, 555);
  DataCopy(dst_i, src_i, 20);
  for (uint32_t i = 0; i < 24; ++i) {
    ASSERT_EQ(dst_i.GetValue(i), i < 16 ? int32_t(i) * 3 - 7 : 555) << i;
  }
  // The same-type DataCopyParams form: blockLen 2 (128 bytes), no gaps.
  DataCopy(dst_i, src_i, AscendC::DataCopyParams(1, 2, 0, 0));
  for (uint32_t i = 0; i < 40; ++i) {
    ASSERT_EQ(dst_i.GetValue(i), i < 32 ? int32_t(i) * 3 - 7 : 555) << i;
  }
}

TEST_F(CubeTest, FixpipeBufferCopiesUint64StartToStart) {
  TPipe pipe;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2PIPE2GM> fb;
  pipe.InitBuffer(l1, 1024);
  pipe.InitBuffer(fb, 1024);
  LocalTensor<uint64_t> src = l1.Get<uint64_t>();
  LocalTensor<uint64_t> dst = fb.Get<uint64_t>();
  for (uint32_t i = 0; i < 128; ++i) {
    src.SetValue(i, 0x1000000000ull * i + i);
    dst.SetValue(i, 7);
  }
  // Two 128-byte blocks; sources 5 x 32 bytes apart, destinations 2 x 128
  // bytes apart, start to start.
  DataCopy(dst, src, AscendC::DataCopyParams(2, 1, 5, 2));
  for (uint32_t i = 0; i < 64; ++i) {
    uint64_t want = 7;
    if (i < 16) want = 0x1000000000ull * i + i;
    if (i >= 32 && i < 48) want = 0x1000000000ull * (i - 12) + (i - 12);
    ASSERT_EQ(dst.GetValue(i), want) << i;
  }
  DataCopy(dst[64], src, 5);  // 40 bytes: one 32-byte block, 4 values
  for (uint32_t i = 64; i < 70; ++i) {
    ASSERT_EQ(dst.GetValue(i),
              i < 68 ? 0x1000000000ull * (i - 64) + i - 64 : 7ull);
  }
}

TEST_F(CubeTest, CubeTableCopyRules) {
  TPipe pipe;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::C2> bt;
  TBuf<TPosition::C2PIPE2GM> fb;
  pipe.InitBuffer(l1, 512);
  pipe.InitBuffer(a1, 512);
  pipe.InitBuffer(bt, 256);
  pipe.InitBuffer(fb, 256);
  LocalTensor<half> src_h = l1.Get<half>();
  LocalTensor<float> src_f = l1.Get<float>();
  LocalTensor<float> a1_f = a1.Get<float>();
  LocalTensor<uint64_t> src_u = l1.Get<uint64_t>();
  LocalTensor<int32_t> bt_i = bt.Get<int32_t>();
  LocalTensor<float> bt_f = bt.Get<float>();
  LocalTensor<uint64_t> fb_u = fb.Get<uint64_t>();
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(bt_i, src_h, AscendC::DataCopyParams(1, 1, 0, 0)); },
      "DataCopy<int32_t, half> L1->BiasTable: the types (dst int32_t, src "
      "half) are not documented for this path"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(bt_f, a1_f, 16); },
                        "DataCopy<float> L1->BiasTable: src LocalTensor is at "
                        "position A1; it must be at C1 (L1)"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(bt_f[8], src_f, 16); },
                        "DataCopy<float> L1->BiasTable: dst LocalTensor starts "
                        "at bias table offset 32, which is not a multiple of "
                        "64 "
                        "bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(bt_f, src_f, AscendC::DataCopyParams(2, 2, 0, 1)); },
      "the blocks written reaches 320 bytes into dst, past the end of its "
      "256 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(bt_f, src_f, AscendC::DataCopyParams(4096, 1, 0, 0)); },
      "repeatParams.blockCount 4096 is out of range [0, 4095]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(fb_u, src_u, AscendC::DataCopyParams(2, 1, 4, 0)); },
      "DataCopy<uint64_t> L1->FixpipeBuffer: repeatParams.dstGap 0 with "
      "blockCount 2: the fixpipe buffer's dstGap is in [1, 65535]"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(fb_u, src_u, AscendC::DataCopyParams(2, 1, 16, 1)); },
      "the blocks read reaches 640 bytes into src, past the end of its 512 "
      "bytes"));
  LocalTensor<float> fb_f = fb.Get<float>();
  EXPECT_TRUE(FailsWith([&] { DataCopy(fb_f, src_f, 32); },
                        "DataCopy<float> L1->FixpipeBuffer: the types (dst "
                        "float, src float) are not documented"));
  std::vector<float> g(64);
  EXPECT_TRUE(FailsWith([&] { DataCopy(bt_f, Gm(g), 16); },
                        "DataCopy<float> L1->BiasTable: src is a GlobalTensor; "
                        "the bias table is filled from L1 (C1) only"));
}

// Mmad's bias form end to end from GM: the bias goes GM -> L1 -> bias table.
TEST_F(CubeTest, MmadBiasFromGmThroughTheBiasTable) {
  const uint32_t m = 16, k = 16, n = 32, n1 = 2;
  std::vector<float> bias(n);
  for (uint32_t c = 0; c < n; ++c) bias[c] = float(c) * 1.5f - 9.0f;
  TPipe pipe;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2> bt;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  pipe.InitBuffer(l1, n * 4);
  pipe.InitBuffer(bt, n * 4);
  pipe.InitBuffer(l0a, 512);
  pipe.InitBuffer(l0b, n1 * 512);
  pipe.InitBuffer(l0c, n1 * 1024);
  LocalTensor<float> lbias = l1.Get<float>();
  LocalTensor<float> tbias = bt.Get<float>();
  LocalTensor<half> la = l0a.Get<half>();
  LocalTensor<half> lb = l0b.Get<half>();
  LocalTensor<float> lc = l0c.Get<float>();
  DataCopy(lbias, Gm(bias), n);
  DataCopy(tbias, lbias, AscendC::DataCopyParams(1, n * 4 / 64, 0, 0));
  const auto a = [](uint32_t r, uint32_t c) {
    return float(int(r + c) % 5 - 2);
  };
  const auto b = [](uint32_t r, uint32_t c) {
    return float(int(r * c) % 3 - 1);
  };
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c)
      la.SetValue(ZzIndex(r, c, 1, 16), half(a(r, c)));
  }
  for (uint32_t r = 0; r < k; ++r) {
    for (uint32_t c = 0; c < n; ++c)
      lb.SetValue(ZnIndex(r, c, n1, 16), half(b(r, c)));
  }
  MmadParams mp;
  mp.m = m;
  mp.n = n;
  mp.k = k;
  Mmad(lc, la, lb, tbias, mp);
  FixpipeParamsV220 fp;
  fp.mSize = m;
  fp.nSize = n;
  fp.srcStride = 16;
  fp.dstStride = n;
  std::vector<float> out(m * n);
  Fixpipe(Gm(out), lc, fp);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      float want = bias[c];
      for (uint32_t i = 0; i < k; ++i) want += a(r, i) * b(i, c);
      ASSERT_EQ(out[r * n + c], want) << r << "," << c;
    }
  }
}

// ---- DataCopy L0C -> GM with the fixpipe registers
// ---------------------------

TEST_F(CubeTest, DataCopyL0cToGmUsesTheFixpipeRegisters) {
  // A fresh block: the registers start unset.
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  const uint32_t m = 20, n = 32, m1 = 2;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2PIPE2GM> fb;
  LocalTensor<int32_t> c = FillL0c<int32_t>(pipe, l0c, m, n, SmallInt);
  pipe.InitBuffer(l1, n * 8);
  pipe.InitBuffer(fb, n * 8);
  LocalTensor<uint64_t> l1_params = l1.Get<uint64_t>();
  LocalTensor<uint64_t> fb_params = fb.Get<uint64_t>();
  AscendC::DataCopyCO12DstParams p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m1 * 16;
  p.dstStride = n;
  p.nz2ndEn = true;
  p.quantPre = AscendC::REQ8;
  std::vector<int8_t> b8(m * n);
  GlobalTensor<int8_t> gb = Gm(b8);
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(gb, c, p); },
                "DataCopy<int8_t, int32_t> L0C->GM: intriParams.nz2ndEn "
                "is true, but SetFixpipeNz2ndFlag was not called in "
                "this block"));
  AscendC::SetFixpipeNz2ndFlag(1, 0, 1);
  EXPECT_TRUE(FailsWith([&] { DataCopy(gb, c, p); },
                        "intriParams.quantPre REQ8 takes its parameter from "
                        "SetFixpipePreQuantFlag, which was not called in this "
                        "block"));
  const uint64_t req = QuantBits(FloatBits(0.7f), 2, true, 11, true);
  AscendC::SetFixpipePreQuantFlag(req);
  p.reluPre = 1;
  DataCopy(gb, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const int32_t v = SmallInt(r, col);
      const float s =
          v < 0 ? 0.0f : RefScaled(RefInt32Input(v, req), req, false);
      ASSERT_EQ(b8[r * n + col], RefToB8(s, req)) << r << "," << col;
    }
  }
  // VDEQF16: the parameters go GM -> L1 -> fixpipe buffer.
  std::vector<uint64_t> params(n);
  for (uint32_t col = 0; col < n; ++col) {
    params[col] =
        QuantBits(FloatBits(0.125f * float(col + 1)), 1, false, 0, false);
  }
  DataCopy(l1_params, Gm(params), n);
  p.quantPre = AscendC::VDEQF16;
  p.reluPre = 0;
  std::vector<half> h(m * n);
  GlobalTensor<half> gh = Gm(h);
  EXPECT_TRUE(FailsWith([&] { DataCopy(gh, c, p); },
                        "intriParams.quantPre VDEQF16 reads one parameter per "
                        "column from the fixpipe buffer, but SetFixPipeConfig "
                        "was not called in this block"));
  DataCopy(fb_params, l1_params, AscendC::DataCopyParams(1, n * 8 / 128, 0, 0));
  AscendC::SetFixPipeConfig(fb_params);
  DataCopy(gh, c, p);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float s = RefScaled(SmallInt(r, col), params[col], false);
      ASSERT_EQ(float(h[r * n + col]), RefHalf(s)) << r << "," << col;
    }
  }
  // NZ output (nz2ndEn false): int32_t, column blocks 64 x 32 bytes apart.
  p.nz2ndEn = false;
  p.quantPre = AscendC::NoQuant;
  p.dstStride = 64;
  struct alignas(32) Out {
    int32_t v[2 * 512];
  };
  const auto storage = std::make_unique<Out>();
  std::fill(storage->v, storage->v + 1024, -1);
  GlobalTensor<int32_t> gnz;
  gnz.SetGlobalBuffer(storage->v, 1024);
  DataCopy(gnz, c, p);
  for (uint32_t i = 0; i < 1024; ++i) {
    const uint32_t block = i / 512, row = i % 512 / 16;
    ASSERT_EQ(storage->v[i], row < m ? SmallInt(row, block * 16 + i % 16) : -1)
        << i;
  }
  // Two ND matrices: srcNdStride 16 (16 x 16 elements of L0C, as Fixpipe's
  // srcNdStride: docs/decisions.md), dstNdStride 300.
  p.nz2ndEn = true;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  AscendC::SetFixpipeNz2ndFlag(2, 16, 300);
  std::vector<int32_t> two(600, 9);
  GlobalTensor<int32_t> g2 = Gm(two);
  DataCopy(g2, c, p);
  for (uint32_t i = 0; i < 600; ++i) {
    const uint32_t mat = i / 300, at = i % 300;
    // Matrix 1 is L0C's second fractal: rows 16..19 of columns 0..15.
    const int32_t want =
        at >= 256 ? 9 : c.GetValue(mat * 256 + (at / 16) * 16 + at % 16);
    ASSERT_EQ(two[i], want) << i;
  }
  // The setters' rules.
  p.reluPre = 2;
  EXPECT_TRUE(FailsWith([&] { DataCopy(g2, c, p); },
                        "intriParams.reluPre 2 is not 0 (no ReLU) or 1 (Normal "
                        "ReLU)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::SetFixpipeNz2ndFlag(0, 0, 1); },
                        "SetFixpipeNz2ndFlag: ndNum 0 is out of range [1, "
                        "65535]"));
  EXPECT_TRUE(FailsWith([&] { AscendC::SetFixpipeNz2ndFlag(2, 0, 1); },
                        "SetFixpipeNz2ndFlag: srcNdStride 0 is out of range "
                        "[1, 512]"));
  EXPECT_TRUE(FailsWith([&] { AscendC::SetFixpipeNz2ndFlag(1, 0, 0); },
                        "SetFixpipeNz2ndFlag: dstNdStride 0 is out of range "
                        "[1, 65535]"));
  EXPECT_TRUE(FailsWith([&] { AscendC::SetFixPipeConfig(l1_params); },
                        "SetFixPipeConfig: quantPre LocalTensor is at position "
                        "C1; it must be at C2PIPE2GM (the fixpipe buffer)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SetFixPipeConfig(fb_params, fb_params); },
      "SetFixPipeConfig: reluPre is a tensor at position C2PIPE2GM; it is "
      "reserved: pass an empty LocalTensor"));
  AscendC::SetFixPipeConfig(LocalTensor<uint64_t>(), fb_params);
  LocalTensor<uint64_t> co1 = l0c.Get<uint64_t>();
  AscendC::SetFixPipeConfig(co1, true);  // clears the unit flags only
}

// ---- Fill ------------------------------------------------------------------

TEST_F(CubeTest, FillSetsBlocksWithGapsInL1AndL0) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::B2> l0b;
  pipe.InitBuffer(l1, 2048);
  pipe.InitBuffer(l0b, 8 * 512);
  LocalTensor<half> a = l1.Get<half>();
  LocalTensor<float> b = l0b.Get<float>();
  for (uint32_t i = 0; i < 1024; ++i) a.SetValue(i, half(-1.0f));
  for (uint32_t i = 0; i < 1024; ++i) b.SetValue(i, -1.0f);
  // The page's L1 picture: 5 repeats of 3 blocks of 32 bytes, 5 blocks of
  // gap: repeat r covers bytes [r * 256, r * 256 + 96).
  Fill(a, AscendC::InitConstValueParams<half>(5, 3, 5, half(2.5f)));
  for (uint32_t i = 0; i < 1024; ++i) {
    const uint32_t byte = i * 2;
    const bool filled = byte < 5 * 256 && byte % 256 < 96;
    ASSERT_EQ(float(a.GetValue(i)), filled ? 2.5f : -1.0f) << i;
  }
  // L0B: blocks of 512 bytes; 2 repeats of 2 blocks with a gap of 3.
  Fill(b, AscendC::InitConstValueParams<float>(2, 2, 3, 7.0f));
  for (uint32_t i = 0; i < 1024; ++i) {
    const uint32_t block = i * 4 / 512;
    const bool filled = block < 2 || (block >= 5 && block < 7);
    ASSERT_EQ(b.GetValue(i), filled ? 7.0f : -1.0f) << i;
  }
  Fill(b, AscendC::InitConstValueParams<float>(0, 2, 3, 9.0f));  // a NOP
  ASSERT_EQ(b.GetValue(0), 7.0f);
  // The page's braced form: one repeat of two 512-byte blocks set to 1.
  Fill(b, {1, 2, 0, 1});
  for (uint32_t i = 0; i < 1024; ++i) {
    ASSERT_EQ(b.GetValue(i), i < 256                 ? 1.0f
                             : (i >= 640 && i < 896) ? 7.0f
                                                     : -1.0f)
        << i;
  }
  TBuf<TPosition::C1> c1;
  pipe.InitBuffer(c1, 64);
  LocalTensor<float> c = c1.Get<float>();
  EXPECT_TRUE(FailsWith(
      [&] { Fill(c, AscendC::InitConstValueParams<float>(1, 1, 0, 1.0f)); },
      "Fill<float>: dst LocalTensor is at position C1; it must be at A1, B1 "
      "(L1), A2 (L0A) or B2 (L0B)"));
  EXPECT_TRUE(FailsWith(
      [&] { Fill(b[8], AscendC::InitConstValueParams<float>(1, 1, 0, 1.0f)); },
      "Fill<float>: dst LocalTensor starts at L0B offset 32, which is not a "
      "multiple of 512 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { Fill(b, AscendC::InitConstValueParams<float>(2, 4, 1, 1.0f)); },
      "the blocks filled reaches 4608 bytes into dst, past the end of its "
      "4096 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { Fill(b, AscendC::InitConstValueParams<float>(32768, 1, 0, 1.0f)); },
      "Fill<float>: initConstValueParams.repeatTimes 32768 is out of range "
      "[0, 32767]"));
}

// Fill on a tensor over a TensorTrait, in the braced form of the TensorTrait
// page's cube example, sets the same bytes as on the plain tensor.
TEST_F(CubeTest, FillTakesTraitTensors) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 2 * 1024);
  LocalTensor<half> plain = l1.Get<half>();
  for (uint32_t i = 0; i < 1024; ++i) plain.SetValue(i, half(-1.0f));
  LocalTensor<AscendC::TensorTrait<half>> trait =
      l1.Get<AscendC::TensorTrait<half>>();
  Fill(trait[512], {2, 3, 1, 3});
  Fill(plain, AscendC::InitConstValueParams<half>(2, 3, 1, half(3.0f)));
  for (uint32_t i = 0; i < 512; ++i) {
    ASSERT_EQ(plain.GetValue(i).Bits(), trait.GetValue(512 + i).Bits()) << i;
  }
  ASSERT_EQ(float(trait.GetValue(512)), 3.0f);
  ASSERT_EQ(float(trait.GetValue(512 + 48)), -1.0f);  // the gap
}

// ---- LoadData GM -> L1 -----------------------------------------------------

TEST_F(CubeTest, LoadData2DFromGmIntoL1) {
  // Eight 512-byte fractals of half in GM, each holding its index * 256 +
  // its element (integers below 2048: exact in half).
  std::vector<half> gm(8 * 256);
  for (uint32_t i = 0; i < gm.size(); ++i) {
    gm[i] = half(float(i));
  }
  GlobalTensor<half> g = Gm(gm);
  TPipe pipe;
  TBuf<TPosition::B1> l1;
  pipe.InitBuffer(l1, 8 * 512);
  LocalTensor<half> dst = l1.Get<half>();
  for (uint32_t i = 0; i < 8 * 256; ++i) dst.SetValue(i, half(-1.0f));
  // Fractals 1, 3, 5 to L1 fractals 0, 2, 4 (dstGap 1).
  LoadData(dst, g, LoadData2DParams(1, 3, 2, 0, 1, false, 0));
  const auto fractal_of = [&](uint32_t f) {
    const float first = float(dst.GetValue(f * 256));
    for (uint32_t e = 0; e < 256; ++e) {
      const float v = float(dst.GetValue(f * 256 + e));
      if (v != (first < 0 ? -1.0f : first + float(e))) return -2;
    }
    return first < 0 ? -1 : int(first) / 256;
  };
  const int want[] = {1, -1, 3, -1, 5, -1, -1, -1};
  for (uint32_t f = 0; f < 8; ++f) ASSERT_EQ(fractal_of(f), want[f]) << f;
  // addrMode 1: the index falls, fractals 7, 4, 1 to L1 fractals 5, 6, 7.
  LoadData(dst[5 * 256], g, LoadData2DParams(7, 3, 3, 0, 0, false, 1));
  const int falling[] = {1, -1, 3, -1, 5, 7, 4, 1};
  for (uint32_t f = 0; f < 8; ++f) ASSERT_EQ(fractal_of(f), falling[f]) << f;
  TBuf<TPosition::C1> c1;
  pipe.InitBuffer(c1, 512);
  LocalTensor<half> c = c1.Get<half>();
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(c, g, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); },
      "LoadData<half> GM->L0A: dst LocalTensor is at position C1; it must be "
      "at A1, B1 (L1), A2 (L0A) or B2 (L0B)"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst[8], g, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); },
      "LoadData<half> GM->L1: dst LocalTensor starts at L1 offset 16, which "
      "is not a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, g, LoadData2DParams(2, 3, 2, 0, 0, false, 1)); },
      "LoadData<half> GM->L1: loadDataParams.addrMode 1 from startIndex 2 "
      "steps 4 fractals down (repeatTimes 3 x srcStride 2): below fractal 0"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, g, LoadData2DParams(0, 1, 1, 0, 0, false, 2)); },
      "LoadData<half> GM->L1: loadDataParams.addrMode 2; 0 (fractal index "
      "growing) or 1 (falling)"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, g, LoadData2DParams(0, 1, 1, 0, 0, true, 0)); },
      "LoadData<half> GM->L1: loadDataParams.ifTranspose is true; only the "
      "L1 -> L0A/L0B paths transpose"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, g, LoadData2DParams(6, 2, 2, 0, 0, false, 0)); },
      "the access reaches element 2304 of src, past the end of the "
      "GlobalTensor of 2048 elements"));
}
