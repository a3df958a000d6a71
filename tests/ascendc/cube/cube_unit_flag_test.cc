// cube_unit_flag_test.cc — L0C's unit flags (docs/cube.md, "UnitFlag"): the
// handshake by which Mmad and Fixpipe (and DataCopy out of L0C) with
// unitFlag 2 or 3 take turns on each 512-byte block of L0C: the UnitFlag
// page's two examples run, a wait the flags cannot satisfy is reported with
// the instruction, the block, the flag and the rule, SetFixPipeConfig with
// isUnitFlag clears the flags, and unitFlag 0 neither waits nor changes them.
//
// Extending: one TEST per behaviour; the fixture gives a cube core with A
// and B all ones in L0A and L0B, so that C holds k everywhere (exact).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopyCO12DstParams;
using AscendC::Fixpipe;
using AscendC::FixpipeParamsV220;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::Mmad;
using AscendC::MmadParams;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

// A cube core with A (up to 64 x 64) and B (up to 64 x 64) of half ones in
// L0A and L0B and 64 KiB of L0C: every C element an Mmad writes is k, or the
// sum of the ks of the Mmads that accumulated it.
class UnitFlagTest : public CubeCoreTest {
 protected:
  void SetUp() override {
    CubeCoreTest::SetUp();
    pipe_ = std::make_unique<TPipe>();
    pipe_->InitBuffer(l0a_, 64 * 64 * 2);
    pipe_->InitBuffer(l0b_, 64 * 64 * 2);
    pipe_->InitBuffer(l0c_, 64 * 1024);
    a_ = l0a_.Get<half>();
    b_ = l0b_.Get<half>();
    c_ = l0c_.Get<float>();
    for (uint32_t i = 0; i < 64 * 64; ++i) {
      a_.SetValue(i, half(1.0f));
      b_.SetValue(i, half(1.0f));
    }
  }
  void TearDown() override {
    pipe_.reset();
    CubeCoreTest::TearDown();
  }

  // An m x n x k Mmad into C with `unit_flag`; `init` starts C from 0.
  void MmadOnes(uint32_t m, uint32_t n, uint32_t k, uint8_t unit_flag,
                bool init = true) {
    MmadParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.cmatrixInitVal = init;
    p.unitFlag = unit_flag;
    Mmad(c_, a_, b_, p);
  }
  // Rows [0, m) and columns [n0, n0 + n) of C (m1 row fractals) to GM, ND.
  std::vector<float> FixpipeOut(uint32_t m, uint32_t m1, uint32_t n0,
                                uint32_t n, uint8_t unit_flag) {
    std::vector<float> out(m * n, -1.0f);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(out.data(), out.size());
    FixpipeParamsV220 p;
    p.mSize = m;
    p.nSize = n;
    p.srcStride = m1 * 16;
    p.dstStride = n;
    p.unitFlag = unit_flag;
    Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(g, c_[n0 / 16 * m1 * 256], p);
    return out;
  }

  std::unique_ptr<TPipe> pipe_;
  TBuf<TPosition::A2> l0a_;
  TBuf<TPosition::B2> l0b_;
  TBuf<TPosition::CO1> l0c_;
  LocalTensor<half> a_;
  LocalTensor<half> b_;
  LocalTensor<float> c_;
};

// The page's K loop: the first Mmads with 2 keep the blocks writable, the
// last with 3 hands them to the Fixpipe, whose 3 hands them back; the next
// round on the same L0C runs as the first.
TEST_F(UnitFlagTest, KLoopTwoThenThreeThenFixpipeThree) {
  for (int round = 0; round < 2; ++round) {
    const uint32_t k_rounds = 4;
    for (uint32_t i = 0; i < k_rounds; ++i) {
      MmadOnes(32, 32, 16, i + 1 < k_rounds ? 2 : 3, i == 0);
    }
    const std::vector<float> out = FixpipeOut(32, 2, 0, 32, 3);
    for (float v : out) ASSERT_EQ(v, 64.0f);
  }
}

// One Mmad read out by several Fixpipes along N: the Mmad's 3 hands every
// block over, each Fixpipe's 3 takes back the blocks it read.
TEST_F(UnitFlagTest, OneMmadSeveralFixpipesAlongN) {
  MmadOnes(32, 64, 32, 3);
  for (uint32_t half_n = 0; half_n < 2; ++half_n) {
    const std::vector<float> out = FixpipeOut(32, 2, half_n * 32, 32, 3);
    for (float v : out) ASSERT_EQ(v, 32.0f);
  }
  MmadOnes(32, 64, 16, 3);  // every block is writable again
  for (float v : FixpipeOut(32, 2, 0, 64, 3)) ASSERT_EQ(v, 16.0f);
}

// Several Fixpipes of the same blocks: 2 on all but the last keeps them
// readable.
TEST_F(UnitFlagTest, SeveralFixpipesOfTheSameBlocksTwoThenThree) {
  MmadOnes(16, 16, 16, 3);
  for (float v : FixpipeOut(16, 1, 0, 16, 2)) ASSERT_EQ(v, 16.0f);
  for (float v : FixpipeOut(16, 1, 0, 16, 3)) ASSERT_EQ(v, 16.0f);
  EXPECT_TRUE(FailsWith([&] { FixpipeOut(16, 1, 0, 16, 3); },
                        "Fixpipe<float, float> L0C->GM: intriParams.unitFlag "
                        "3 waits for L0C block 0 (bytes 0..511) to have its "
                        "unit flag 1, but it is 0 (Fixpipe at "));
}

// A Fixpipe with 2 or 3 on blocks no Mmad with 3 wrote waits for ever.
TEST_F(UnitFlagTest, FixpipeWithoutTheMmadsThreeIsTheHang) {
  EXPECT_TRUE(FailsWith(
      [&] { FixpipeOut(16, 1, 0, 16, 3); },
      "Fixpipe<float, float> L0C->GM: intriParams.unitFlag 3 waits for L0C "
      "block 0 (bytes 0..511) to have its unit flag 1, but it is 0 (no Mmad "
      "with unitFlag 3 has set it in this block) and nothing issued before "
      "this call sets it: the device would wait for ever (a read with "
      "unitFlag 2 or 3 waits until an Mmad with unitFlag 3 has written the "
      "block)"));
  // The K loop without its last 3: the blocks stay 0.
  for (uint32_t i = 0; i < 4; ++i) MmadOnes(16, 16, 16, 2, i == 0);
  EXPECT_TRUE(FailsWith([&] { FixpipeOut(16, 1, 0, 16, 2); },
                        "intriParams.unitFlag 2 waits for L0C block 0"));
}

// An Mmad with 2 or 3 on blocks whose results no Fixpipe with 3 has taken
// waits for ever.
TEST_F(UnitFlagTest, MmadOverUnreadResultsIsTheHang) {
  MmadOnes(16, 16, 16, 3);
  EXPECT_TRUE(FailsWith(
      [&] { MmadOnes(16, 16, 16, 2); },
      "Mmad<float, half, half>: mmadParams.unitFlag 2 waits for L0C block 0 "
      "(bytes 0..511) to have its unit flag 0, but it is 1 (Mmad at "));
  EXPECT_TRUE(FailsWith(
      [&] { MmadOnes(16, 16, 16, 3); },
      "set it) and nothing issued before this call clears it: the device "
      "would wait for ever (a write with unitFlag 2 or 3 waits until a read "
      "with unitFlag 3 has taken the block, or SetFixPipeConfig with "
      "isUnitFlag has cleared the flags)"));
}

// The flags are per 512-byte block: a Fixpipe of the top half of the rows
// leaves the bottom half's blocks set (the page's warning about reading
// out less than the Mmad wrote), and SetFixPipeConfig with isUnitFlag
// clears every flag.
TEST_F(UnitFlagTest, PartialFixpipeLeavesBlocksAndSetFixPipeConfigClears) {
  MmadOnes(32, 16, 16, 3);      // fractal rows 0..15 and 16..31
  FixpipeOut(16, 2, 0, 16, 3);  // reads rows 0..15: blocks 0 and 1
  EXPECT_TRUE(FailsWith([&] { MmadOnes(32, 16, 16, 3); },
                        "waits for L0C block 2 (bytes 1024..1535) to have its "
                        "unit flag 0, but it is 1"));
  AscendC::SetFixPipeConfig<uint64_t>(c_.ReinterpretCast<uint64_t>(), true);
  EXPECT_TRUE(FailsWith([&] { FixpipeOut(16, 2, 0, 16, 3); },
                        "but it is 0 (SetFixPipeConfig (isUnitFlag) at "));
  MmadOnes(32, 16, 16, 3);
  for (float v : FixpipeOut(32, 2, 0, 16, 3)) ASSERT_EQ(v, 16.0f);
}

// Rows of a fractal below m are not written: an Mmad of 8 rows (or GEMV's
// one) reaches the first 512 bytes of each fractal only.
TEST_F(UnitFlagTest, FlagsFollowTheRowsWritten) {
  MmadOnes(8, 32, 16, 3);   // blocks 0 and 2 (fractals 0 and 1, rows 0..7)
  MmadOnes(16, 32, 16, 0);  // unitFlag 0 neither waits nor changes them
  EXPECT_TRUE(FailsWith([&] { FixpipeOut(16, 1, 0, 32, 3); },
                        "waits for L0C block 1 (bytes 512..1023) to have its "
                        "unit flag 1, but it is 0"));
  for (float v : FixpipeOut(8, 1, 0, 32, 3)) ASSERT_EQ(v, 16.0f);
  MmadOnes(1, 32, 16, 3);  // GEMV: row 0 of each fractal
  for (float v : FixpipeOut(1, 1, 0, 32, 3)) ASSERT_EQ(v, 16.0f);
  MmadOnes(16, 32, 16, 3);  // every block is 0 again
}

// DataCopy out of L0C takes part as Fixpipe does.
TEST_F(UnitFlagTest, DataCopyL0cToGmWaitsAndClears) {
  DataCopyCO12DstParams p;
  p.mSize = 16;
  p.nSize = 16;
  p.srcStride = 16;
  p.dstStride = 16 * 16 * 4 / 32;  // one NZ column block
  p.unitFlag = 3;
  alignas(32) float out[256];  // an NZ output in GM starts 32-byte aligned
  std::fill(std::begin(out), std::end(out), -1.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out, 256);
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(g, c_, p); },
                        "DataCopy<float, float> L0C->GM: intriParams.unitFlag "
                        "3 waits for L0C block 0"));
  MmadOnes(16, 16, 16, 3);
  AscendC::DataCopy(g, c_, p);
  for (float v : out) ASSERT_EQ(v, 16.0f);
  MmadOnes(16, 16, 16, 3);  // the DataCopy's 3 cleared the flags
}

}  // namespace
