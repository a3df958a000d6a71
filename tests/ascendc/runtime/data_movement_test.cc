// data_movement_test.cc — the data-movement forms beyond the contiguous
// DataCopy (docs/runtime.md, "Data movement"), through kernel_operator.h:
// DataCopy with DataCopyParams in the three directions, the slice form,
// DataCopyPad both ways (both parameter structs, paddings, filler, the pad
// value register, Compact mode), Copy, the dcache-bypass scalar accesses,
// the 950's multi-dimensional DataCopy (NDDMA) and loop mode
// (SetLoopModePara); each documented limit with its message and the caller's
// line.
//
// Extending: one TEST per behaviour; expected layouts are written out by hand
// from the documented units (never computed by the code under test); a new
// check gets a FailsWith line with its message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::DataCopyExtParams;
using AscendC::DataCopyPad;
using AscendC::DataCopyPadExtParams;
using AscendC::DataCopyPadParams;
using AscendC::DataCopyParams;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

// A pipe with two UB buffers of 256 floats (1 KiB each), filled with -7.
struct Ub {
  Ub() {
    pipe.InitBuffer(a_buf, 1024);
    pipe.InitBuffer(b_buf, 1024);
    a = a_buf.Get<float>();
    b = b_buf.Get<float>();
    for (uint32_t i = 0; i < 256; ++i) {
      a.SetValue(i, -7.0f);
      b.SetValue(i, -7.0f);
    }
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> a_buf;
  TBuf<TPosition::VECOUT> b_buf;
  LocalTensor<float> a, b;
};

// 0, 1, 2, ... as floats.
std::vector<float> Iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

std::vector<float> Read(const LocalTensor<float>& t, uint32_t n) {
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = t.GetValue(i);
  return v;
}

// ---- DataCopy with DataCopyParams (units of 32 bytes) ----------------------

TEST(DataCopyParamsForm, GmToUbPicksTheFirstBlockOfEachRow) {
  Ub ub;
  std::vector<float> in = Iota(64);  // 4 rows of 16 floats (2 blocks each)
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 64);
  // 4 blocks of 1 block (8 floats), 1 block skipped in GM, packed in UB.
  DataCopy(ub.a, g, DataCopyParams(4, 1, 1, 0));
  std::vector<float> expected;
  for (int row = 0; row < 4; ++row) {
    for (int i = 0; i < 8; ++i) expected.push_back(row * 16.0f + i);
  }
  EXPECT_EQ(Read(ub.a, 32), expected);
  EXPECT_EQ(ub.a.GetValue(32), -7.0f);  // nothing beyond
}

TEST(DataCopyParamsForm, UbToGmSpreadsBlocksWithDstStride) {
  Ub ub;
  for (uint32_t i = 0; i < 24; ++i) ub.a.SetValue(i, 100.0f + i);
  std::vector<float> out(64, 0.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out.data(), 64);
  DataCopyParams params;
  params.blockCount = 3;
  params.blockLen = 1;
  params.srcStride = 0;
  params.dstStride = 2;  // 16 floats skipped between blocks
  DataCopy(g, ub.a, params);
  for (int i = 0; i < 64; ++i) {
    const int block = i / 24, at = i % 24;
    const float expected = block < 3 && at < 8 ? 100.0f + block * 8 + at : 0.0f;
    ASSERT_EQ(out[i], expected) << i;
  }
}

TEST(DataCopyParamsForm, UbToUbWithGapNamesAndTwoBlockRuns) {
  Ub ub;
  for (uint32_t i = 0; i < 64; ++i) ub.a.SetValue(i, static_cast<float>(i));
  DataCopyParams params;
  params.blockCount = 2;
  params.blockLen = 2;  // 16 floats
  params.srcGap = 1;    // the newer name of srcStride
  params.dstGap = 0;
  EXPECT_EQ(params.srcStride, 1);
  DataCopy(ub.b, ub.a, params);
  std::vector<float> expected = Iota(16);
  for (int i = 24; i < 40; ++i) expected.push_back(static_cast<float>(i));
  EXPECT_EQ(Read(ub.b, 32), expected);
}

TEST(DataCopyParamsForm, ZeroCountOrLengthCopiesNothing) {
  Ub ub;
  std::vector<float> in = Iota(64);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 64);
  DataCopy(ub.a, g, DataCopyParams(0, 4, 0, 0));
  DataCopy(ub.a, g, DataCopyParams(4, 0, 0, 0));
  EXPECT_EQ(ub.a.GetValue(0), -7.0f);
}

TEST(DataCopyParamsForm, LimitsAndRanges) {
  Ub ub;
  std::vector<float> in = Iota(64);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 64);
  // The call outside any macro: compilers place a call inside a macro's
  // arguments at different lines.
  const unsigned line = __LINE__ + 2;
  const auto too_many = [&] {
    DataCopy(ub.a, g, DataCopyParams(4096, 1, 0, 0));
  };
  EXPECT_TRUE(FailsWith(
      too_many,
      std::string(__FILE__) + ":" + std::to_string(line) +
          ": DataCopy<float> GM->UB: repeatParams.blockCount 4096 is out of "
          "range: it must be 0 to 4095"));
  // 3 blocks of 1, 2 skipped: the third block ends at byte 224 + 32 = 256+.
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(ub.a, g, DataCopyParams(3, 1, 3, 0)); },
      "DataCopy<float> GM->UB: repeatParams {blockCount 3, blockLen 1, "
      "srcStride 3, dstStride 0} (units of 32 bytes) reach 288 bytes into "
      "src, past the end of the GlobalTensor of 64 elements (256 bytes)"));
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(ub.a[248], g, DataCopyParams(2, 1, 0, 0)); },
                "reach 64 bytes into dst, past the end of the LocalTensor of 8 "
                "elements (32 bytes)"));
}

// ---- Slices -----------------------------------------------------------------

TEST(DataCopySlice, TheDocumentedTwoDimensionalExample) {
  // src: 3 rows of 87 floats; in rows 0 and 2, elements 16..39 and 47..70
  // (bursts of 3 blocks = 24 floats, 7 apart) go to 2 rows of 48 floats.
  TPipe pipe;
  TBuf<TPosition::VECIN> buf;
  pipe.InitBuffer(buf, 2 * 48 * 4);
  LocalTensor<float> ub = buf.Get<float>();
  std::vector<float> in = Iota(3 * 87);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), in.size());
  const AscendC::SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
  const AscendC::SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
  DataCopy(ub, g, dst, src, 2);
  for (int row = 0; row < 2; ++row) {
    const int src_row = row * 2;
    for (int i = 0; i < 48; ++i) {
      const int src_col = i < 24 ? 16 + i : 47 + (i - 24);
      ASSERT_EQ(ub.GetValue(row * 48 + i), src_row * 87.0f + src_col)
          << row << "," << i;
    }
  }
  // And back: UB -> GM into a zeroed copy of the source shape.
  std::vector<float> out(3 * 87, 0.0f);
  GlobalTensor<float> gout;
  gout.SetGlobalBuffer(out.data(), out.size());
  DataCopy(gout, ub, src, dst, 2);
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 87; ++col) {
      const bool taken =
          row != 1 && ((col >= 16 && col < 40) || (col >= 47 && col < 71));
      ASSERT_EQ(out[row * 87 + col], taken ? in[row * 87 + col] : 0.0f)
          << row << "," << col;
    }
  }
}

TEST(DataCopySlice, InconsistentSlicesAreErrors) {
  Ub ub;
  std::vector<float> in = Iota(64);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 64);
  const AscendC::SliceInfo bad_count[] = {{0, 9, 0, 1, 64}};
  const AscendC::SliceInfo one[] = {{0, 7, 0, 1, 64}};
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(ub.a, g, one, bad_count, 1); },
      "DataCopy<float> GM->UB: srcSliceInfo[0] {startIndex 0, endIndex 9, "
      "stride 0, burstLen 1}: endIndex - startIndex + 1 (10) must be (N - 1) "
      "* stride + N * 8"));
  const AscendC::SliceInfo two[] = {{0, 15, 0, 1, 64}};
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a, g, one, two, 1); },
                        "srcSliceInfo selects 2 bursts but dstSliceInfo 1"));
}

// ---- DataCopyPad, GM -> UB
// ---------------------------------------------------

TEST(DataCopyPadIn, OddRowsPaddedWithPaddingValue) {
  Ub ub;
  std::vector<float> in = Iota(15);  // 3 rows of 5 floats
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 15);
  // Each 20-byte row padded with 3 floats of -1 to one 32-byte block.
  DataCopyPad(ub.a, g, DataCopyExtParams(3, 5 * sizeof(float), 0, 0, 0),
              DataCopyPadExtParams<float>(true, 0, 3, -1.0f));
  const std::vector<float> expected = {0,  1,  2,  3,  4,  -1, -1, -1,
                                       5,  6,  7,  8,  9,  -1, -1, -1,
                                       10, 11, 12, 13, 14, -1, -1, -1};
  EXPECT_EQ(Read(ub.a, 24), expected);
  EXPECT_EQ(ub.a.GetValue(24), -7.0f);
}

TEST(DataCopyPadIn, WithoutPaddingTheFillerRepeatsTheFirstElement) {
  Ub ub;
  std::vector<float> in = Iota(10);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 10);
  // 2 rows of 5 floats, source rows 0 bytes apart, UB rows 1 block apart.
  DataCopyPad(ub.a, g, DataCopyExtParams(2, 20, 0, 1, 0),
              DataCopyPadExtParams<float>(true, 0, 0, -1.0f));
  const std::vector<float> expected = {0,  1,  2,  3,  4,  0,  0,  0,
                                       -7, -7, -7, -7, -7, -7, -7, -7,
                                       5,  6,  7,  8,  9,  5,  5,  5};
  EXPECT_EQ(Read(ub.a, 24), expected);
}

TEST(DataCopyPadIn, SetPadValueServesWhenIsPadIsFalse) {
  Ub ub;
  std::vector<float> in = Iota(12);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 12);
  AscendC::SetPadValue(9.0f);
  // Rows of 6 floats read 6 floats apart in GM (srcStride 0 bytes) with 2
  // left and 0 right padding: 8 floats per row.
  DataCopyPadExtParams<float> pad;
  pad.isPad = false;
  pad.leftPadding = 2;
  pad.rightPadding = 0;
  pad.paddingValue = -1.0f;  // ignored: isPad is false
  DataCopyPad(ub.a, g, DataCopyExtParams(2, 24, 0, 0, 0), pad);
  const std::vector<float> expected = {9, 9, 0, 1, 2, 3, 4,  5,
                                       9, 9, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(Read(ub.a, 16), expected);
}

TEST(DataCopyPadIn, SrcStrideInBytesAndTheOlderStructs) {
  Ub ub;
  std::vector<float> in = Iota(32);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 32);
  // Rows of 3 floats, 5 floats (20 bytes) skipped in GM; right padding 5.
  DataCopyParams params(4, 12, 20, 0);
  DataCopyPadParams pad(true, 0, 5, 0);
  DataCopyPad(ub.a, g, params, pad);
  const std::vector<float> expected = {0, 1, 2,  0,  0,  0,  0,  0,  8, 9, 10,
                                       0, 0, 0,  0,  0,  16, 17, 18, 0, 0, 0,
                                       0, 0, 24, 25, 26, 0,  0,  0,  0, 0};
  EXPECT_EQ(Read(ub.a, 32), expected);
}

TEST(DataCopyPadIn, CompactModePacksTheBlocks) {
  Ub ub;
  std::vector<float> in = Iota(36);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 36);
  // 3 blocks of 12 floats (48 bytes) packed; 4 floats of padding at the end.
  DataCopyPad<float, AscendC::PaddingMode::Compact>(
      ub.a, g, DataCopyExtParams(3, 48, 0, 0, 0),
      DataCopyPadExtParams<float>(true, 0, 4, 0.5f));
  std::vector<float> expected = Iota(36);
  for (int i = 0; i < 4; ++i) expected.push_back(0.5f);
  EXPECT_EQ(Read(ub.a, 40), expected);
  EXPECT_EQ(ub.a.GetValue(40), -7.0f);
}

TEST(DataCopyPadIn, LimitsAreErrors) {
  Ub ub;
  std::vector<float> in = Iota(64);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 64);
  const DataCopyPadExtParams<float> none{};
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyPad(ub.a, g, DataCopyExtParams(1, 10, 0, 0, 0), none); },
      "DataCopyPad<float> GM->UB: dataCopyParams.blockLen 10 bytes is not a "
      "multiple of the element size 4"));
  const DataCopyPadExtParams<float> wide(true, 9, 0, 0.0f);
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyPad(ub.a, g, DataCopyExtParams(1, 16, 0, 0, 0), wide); },
      "DataCopyPad<float> GM->UB: padParams.leftPadding 9 elements (36 "
      "bytes) is over 32 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyPad(ub.a, g, DataCopyExtParams(5000, 4, 0, 0, 0), none); },
      "dataCopyParams.blockCount 5000 is out of range: it must be 0 to 4095"));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyPad(ub.a, g, DataCopyExtParams(2, 132, 0, 0, 0), none); },
      "reach 264 bytes into src, past the end of the GlobalTensor of 64 "
      "elements (256 bytes)"));
  // Two 32-byte rows fit exactly in the last 16 floats ...
  DataCopyPad(ub.a[240], g, DataCopyExtParams(2, 20, 0, 0, 0), none);
  // ... but not in the last 8.
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopyPad(ub.a[248], g, DataCopyExtParams(2, 20, 0, 0, 0), none);
      },
      "reach 64 bytes into dst, past the end of the LocalTensor of 8 "
      "elements (32 bytes)"));
}

// ---- DataCopyPad, UB -> GM
// ---------------------------------------------------

TEST(DataCopyPadOut, DropsTheFillerAndHonoursByteStrides) {
  Ub ub;
  for (uint32_t i = 0; i < 24; ++i) ub.a.SetValue(i, 100.0f + i);
  std::vector<float> out(20, 0.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out.data(), 20);
  // 3 UB rows of 8 floats, 5 floats of each to GM, 1 float apart.
  DataCopyPad(g, ub.a, DataCopyExtParams(3, 20, 0, 4, 0));
  // Row k starts at UB float 8k and GM float 6k.
  std::vector<float> want(20, 0.0f);
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 5; ++i) want[6 * k + i] = 100.0f + 8 * k + i;
  }
  EXPECT_EQ(out, want);
}

TEST(DataCopyPadOut, SrcStrideInBlocksWithTheOlderStruct) {
  Ub ub;
  for (uint32_t i = 0; i < 64; ++i) ub.a.SetValue(i, static_cast<float>(i));
  std::vector<float> out(6, 0.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out.data(), 6);
  // 2 rows of 3 floats; UB rows 1 block + 1 block apart (16 floats).
  DataCopyPad(g, ub.a, DataCopyParams(2, 12, 1, 0));
  EXPECT_EQ(out, (std::vector<float>{0, 1, 2, 16, 17, 18}));
  EXPECT_TRUE(FailsWith(
      [&] { DataCopyPad(g, ub.a, DataCopyParams(3, 12, 1, 0)); },
      "DataCopyPad<float> UB->GM: dataCopyParams {blockCount 3, blockLen 12, "
      "gm stride 0 bytes, ub stride 1 blocks} reach 36 bytes into dst, past "
      "the end of the GlobalTensor of 6 elements (24 bytes)"));
}

// ---- Copy and the scalar bypass accesses ------------------------------------

TEST(Copy, AnyCountUbToUb) {
  Ub ub;
  for (uint32_t i = 0; i < 16; ++i) ub.a.SetValue(i, static_cast<float>(i));
  AscendC::Copy(ub.b, ub.a, 10);
  std::vector<float> expected = Iota(10);
  expected.push_back(-7.0f);
  EXPECT_EQ(Read(ub.b, 11), expected);
  EXPECT_TRUE(FailsWith([&] { AscendC::Copy(ub.b[248], ub.a, 10); },
                        "Copy<float> UB->UB: count 10 exceeds the dst "
                        "LocalTensor of 8 elements"));
}

TEST(ByPassDCache, ReadsAndWritesGlobalMemory) {
  std::vector<int32_t> gm = {1, 2, 3, 4};
  EXPECT_EQ(AscendC::ReadGmByPassDCache(gm.data() + 2), 3);
  AscendC::WriteGmByPassDCache(gm.data() + 1, int32_t{-5});
  EXPECT_EQ(gm, (std::vector<int32_t>{1, -5, 3, 4}));
}

// ---- NDDMA: the 950's multi-dimensional GM -> UB copy
// -------------------------

// A 950 pipe with one UB buffer of `bytes`, filled with 0xA5 bytes.
struct Ub950 {
  explicit Ub950(uint32_t bytes) {
    pipe.InitBuffer(buf, bytes);
    std::memset(buf.Get<uint8_t>().GetPhyAddr(), 0xA5, bytes);
  }
  compat_test::ProfileScope scope{normgrad_ascendc::Profile::k950};
  TPipe pipe;
  TBuf<TPosition::VECIN> buf;
};

// The expected 2D result of the page's loops, written from the loop model:
// row r of `rows` (top padding `top`), column c of `cols` (left padding
// `left`); real element (r - top, c - left) is src[(r - top) * src_row + c -
// left]; padding is `pad` or, in nearest mode, the clamped element.
std::vector<float> Padded2D(const std::vector<float>& src, uint32_t src_row,
                            uint32_t n_rows, uint32_t n_cols, uint32_t top,
                            uint32_t left, uint32_t rows, uint32_t cols,
                            float pad, bool nearest) {
  std::vector<float> out(rows * cols);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const bool inside =
          r >= top && r < top + n_rows && c >= left && c < left + n_cols;
      const int64_t sr =
          std::min<int64_t>(std::max<int64_t>(int64_t{r} - top, 0), n_rows - 1);
      const int64_t sc = std::min<int64_t>(
          std::max<int64_t>(int64_t{c} - left, 0), n_cols - 1);
      out[r * cols + c] = inside || nearest ? src[sr * src_row + sc] : pad;
    }
  }
  return out;
}

// The NdDmaDci page's worked example: [2, 8] padded to [4, 16] (left 3, top
// 1, right 5, bottom 1) with 0.
TEST(NdDma, PageExamplePadsWithZero) {
  Ub950 ub(256);
  std::vector<float> gm = Iota(17);
  gm.erase(gm.begin());  // 1 .. 16
  GlobalTensor<float> x;
  x.SetGlobalBuffer(gm.data(), gm.size());
  AscendC::NdDmaLoopInfo loopInfo{{1, 8}, {1, 16}, {8, 2}, {3, 1}, {5, 1}};
  AscendC::NdDmaParams params{loopInfo, 0};
  AscendC::NdDmaDci();
  LocalTensor<float> local = ub.buf.Get<float>();
  DataCopy(local, x, params);
  const float want[4][16] = {
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0},
      {0, 0, 0, 9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t c = 0; c < 16; ++c) {
      EXPECT_EQ(local.GetValue(r * 16 + c), want[r][c]) << r << "," << c;
    }
  }
}

// The page's scenario 1 ([16, 32] into [32, 64], constant 0) and scenario 2
// ([28, 15] into [32, 32], nearest values).
TEST(NdDma, PagePaddingScenarios) {
  {
    Ub950 ub(32 * 64 * 4);
    std::vector<float> gm = Iota(16 * 32);
    GlobalTensor<float> x;
    x.SetGlobalBuffer(gm.data(), gm.size());
    AscendC::NdDmaLoopInfo loopInfo{
        {1, 32}, {1, 64}, {32, 16}, {15, 13}, {17, 3}};
    AscendC::NdDmaParams params{loopInfo, 0};
    DataCopy(ub.buf.Get<float>(), x, params);
    EXPECT_EQ(Read(ub.buf.Get<float>(), 32 * 64),
              Padded2D(gm, 32, 16, 32, 13, 15, 32, 64, 0.0f, false));
  }
  {
    Ub950 ub(32 * 32 * 4);
    std::vector<float> gm = Iota(28 * 15);
    GlobalTensor<float> x;
    x.SetGlobalBuffer(gm.data(), gm.size());
    AscendC::NdDmaLoopInfo loopInfo{
        {1, 15}, {1, 32}, {15, 28}, {11, 3}, {6, 1}};
    AscendC::NdDmaParams params{loopInfo, 0};
    static constexpr AscendC::NdDmaConfig kNearest = {true};
    DataCopy<float, 2, kNearest>(ub.buf.Get<float>(), x, params);
    EXPECT_EQ(Read(ub.buf.Get<float>(), 32 * 32),
              Padded2D(gm, 15, 28, 15, 3, 11, 32, 32, 0.0f, true));
  }
}

// The page's transpose ([16, 64] into [64, 16]) and broadcast ([1, 16] into
// [3, 16]) scenarios.
TEST(NdDma, PageTransposeAndBroadcast) {
  Ub950 ub(64 * 16 * 4);
  std::vector<float> gm = Iota(16 * 64);
  GlobalTensor<float> x;
  x.SetGlobalBuffer(gm.data(), gm.size());
  AscendC::NdDmaLoopInfo transpose{{1, 64}, {16, 1}, {64, 16}, {0, 0}, {0, 0}};
  DataCopy(ub.buf.Get<float>(), x, AscendC::NdDmaParams{transpose, 0});
  for (uint32_t r = 0; r < 64; ++r) {
    for (uint32_t c = 0; c < 16; ++c) {
      ASSERT_EQ(ub.buf.Get<float>().GetValue(r * 16 + c), gm[c * 64 + r]);
    }
  }
  AscendC::NdDmaLoopInfo broadcast{{1, 0}, {1, 16}, {16, 3}, {0, 0}, {0, 0}};
  DataCopy(ub.buf.Get<float>(), x, AscendC::NdDmaParams{broadcast, 0});
  for (uint32_t k = 0; k < 48; ++k) {
    EXPECT_EQ(ub.buf.Get<float>().GetValue(k), gm[k % 16]) << k;
  }
}

// Three loops of int16_t with the config's padding for every loop and a
// constant of -1; the positions outside the loops keep their bytes.
TEST(NdDma, ConfigPaddingOverridesEveryLoop) {
  Ub950 ub(1024);
  std::vector<int16_t> gm(2 * 3 * 4);
  for (size_t i = 0; i < gm.size(); ++i) gm[i] = static_cast<int16_t>(i + 1);
  GlobalTensor<int16_t> x;
  x.SetGlobalBuffer(gm.data(), gm.size());
  // Source [2][3][4]; every loop padded by 1 on both sides: [4][5][6].
  AscendC::NdDmaLoopInfo<3> loopInfo{
      {1, 4, 12}, {1, 6, 30}, {4, 3, 2}, {9, 9, 9}, {9, 9, 9}};
  static constexpr AscendC::NdDmaConfig kOne = {false, 1, 1};
  LocalTensor<int16_t> local = ub.buf.Get<int16_t>();
  DataCopy<int16_t, 3, kOne>(local, x, AscendC::NdDmaParams{loopInfo, -1});
  for (uint32_t a = 0; a < 4; ++a) {
    for (uint32_t b = 0; b < 5; ++b) {
      for (uint32_t c = 0; c < 6; ++c) {
        const bool inside =
            a >= 1 && a <= 2 && b >= 1 && b <= 3 && c >= 1 && c <= 4;
        const int16_t want =
            inside ? gm[(a - 1) * 12 + (b - 1) * 4 + (c - 1)] : int16_t{-1};
        ASSERT_EQ(local.GetValue(a * 30 + b * 6 + c), want)
            << a << "," << b << "," << c;
      }
    }
  }
  EXPECT_EQ(local.GetValue(120), static_cast<int16_t>(0xA5A5));
}

TEST(NdDma, Errors) {
  std::vector<float> gm = Iota(64);
  GlobalTensor<float> x;
  x.SetGlobalBuffer(gm.data(), gm.size());
  AscendC::NdDmaLoopInfo ok{{1, 8}, {1, 8}, {8, 8}, {0, 0}, {0, 0}};
  {
    compat_test::ProfileScope scope(normgrad_ascendc::Profile::kA2);
    Ub ub;
    EXPECT_TRUE(FailsWith(
        [&] {
          DataCopy(ub.a, x, AscendC::NdDmaParams{ok, 0});
        },
        "DataCopy<float> GM->UB (NDDMA): NDDMA is not available on profile "
        "Atlas A2/A3 (Ascend 950 only)"));
    EXPECT_TRUE(FailsWith([&] { AscendC::NdDmaDci(); },
                          "NdDmaDci: NDDMA is not available on profile"));
  }
  Ub950 ub(256);
  LocalTensor<float> local = ub.buf.Get<float>();
  AscendC::NdDmaLoopInfo wide{{1, 8}, {1, 9}, {8, 8}, {0, 0}, {0, 0}};
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(local, x, AscendC::NdDmaParams{wide, 0});
      },
      "DataCopy<float> GM->UB (NDDMA): the loops write element 70 of dst, "
      "past the end of the LocalTensor of 64 elements"));
  AscendC::NdDmaLoopInfo far{{1, 9}, {1, 8}, {8, 8}, {0, 0}, {0, 0}};
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(local, x, AscendC::NdDmaParams{far, 0});
      },
      "the loops read element 70 of src, past the end of the GlobalTensor of "
      "64 elements"));
  AscendC::NdDmaLoopInfo overlap{{1, 8}, {1, 2}, {2, 4}, {1, 0}, {0, 0}};
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(local, x, AscendC::NdDmaParams{overlap, 0});
      },
      "loopDstStride[1] 2 is less than the 3 elements loops 0 to 0 span; "
      "with ascending strides the loops may not interleave"));
  AscendC::NdDmaLoopInfo big{{1, 8}, {1, 1u << 20}, {8, 1}, {0, 0}, {0, 0}};
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(local, x, AscendC::NdDmaParams{big, 0});
      },
      "loopInfo.loopDstStride[1] 1048576 is out of range (0 to 2^20 - 1)"));
  std::vector<int64_t> wide_gm(8, 5);
  GlobalTensor<int64_t> w;
  w.SetGlobalBuffer(wide_gm.data(), wide_gm.size());
  AscendC::NdDmaLoopInfo<1> one{{1}, {1}, {4}, {1}, {0}};
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy(ub.buf.Get<int64_t>(), w,
                 AscendC::NdDmaParams<int64_t, 1>{one, 3});
      },
      "DataCopy<int64_t> GM->UB (NDDMA): constantValue must be 0 for 64-bit "
      "elements"));
  static constexpr AscendC::NdDmaConfig kNearest = {true};
  EXPECT_TRUE(FailsWith(
      [&] {
        DataCopy<int64_t, 1, kNearest>(
            ub.buf.Get<int64_t>(), w, AscendC::NdDmaParams<int64_t, 1>{one, 0});
      },
      "isNearestValueMode must be false for 64-bit elements"));
  // 64-bit elements with constant 0 padding copy as any other.
  DataCopy(ub.buf.Get<int64_t>(), w, AscendC::NdDmaParams<int64_t, 1>{one, 0});
  EXPECT_EQ(ub.buf.Get<int64_t>().GetValue(0), 0);
  EXPECT_EQ(ub.buf.Get<int64_t>().GetValue(4), 5);
}

// ---- Loop mode (SetLoopModePara) on the 950
// ----------------------------------

// The page's int8_t example: DataCopyPad of 2 blocks of 48 bytes, repeated
// 2 x 2 times, source iterations 96 and 192 bytes apart, destination
// iterations 128 and 288 bytes apart.
TEST(LoopMode, PageExampleRepeatsDataCopyPad) {
  Ub950 ub(1024);
  std::vector<int8_t> gm(384);
  for (size_t i = 0; i < gm.size(); ++i) gm[i] = static_cast<int8_t>(i * 7);
  GlobalTensor<int8_t> x;
  x.SetGlobalBuffer(gm.data(), gm.size());
  LocalTensor<int8_t> local = ub.buf.Get<int8_t>();
  AscendC::LoopModeParams loop{2, 2, 96, 128, 192, 288};
  AscendC::SetLoopModePara(loop, AscendC::DataCopyMVType::OUT_TO_UB);
  DataCopyPad(local, x, DataCopyExtParams{2, 48, 0, 0, 0},
              DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
  AscendC::ResetLoopModePara(AscendC::DataCopyMVType::OUT_TO_UB);
  for (uint32_t i2 = 0; i2 < 2; ++i2) {
    for (uint32_t i1 = 0; i1 < 2; ++i1) {
      for (uint32_t k = 0; k < 2; ++k) {
        for (uint32_t j = 0; j < 48; ++j) {
          ASSERT_EQ(local.GetValue(i2 * 288 + i1 * 128 + k * 64 + j),
                    gm[i2 * 192 + i1 * 96 + k * 48 + j])
              << i2 << "," << i1 << "," << k << "," << j;
        }
      }
    }
  }
  // The 32 bytes between the outer iterations are not written.
  for (uint32_t b = 256; b < 288; ++b) {
    EXPECT_EQ(static_cast<uint8_t>(local.GetValue(b)), 0xA5) << b;
  }
  // After the reset one DataCopyPad is one copy again.
  std::memset(local.GetPhyAddr(), 0, 1024);
  DataCopyPad(local, x, DataCopyExtParams{1, 32, 0, 0, 0},
              DataCopyPadExtParams<int8_t>{false, 0, 0, 0});
  EXPECT_EQ(local.GetValue(31), gm[31]);
  EXPECT_EQ(local.GetValue(128), 0);
}

// UB_TO_OUT with the count form of DataCopy: 3 iterations of 8 floats, 64
// bytes apart in the UB and 40 bytes apart in GM (loop2Size 0 runs once).
TEST(LoopMode, UbToOutRepeatsDataCopy) {
  Ub950 ub(256);
  LocalTensor<float> local = ub.buf.Get<float>();
  for (uint32_t i = 0; i < 64; ++i) local.SetValue(i, float(i));
  std::vector<float> gm(40, -1.0f);
  GlobalTensor<float> y;
  y.SetGlobalBuffer(gm.data(), gm.size());
  AscendC::SetLoopModePara({3, 0, 64, 40, 0, 0},
                           AscendC::DataCopyMVType::UB_TO_OUT);
  DataCopy(y, local, 8);
  AscendC::ResetLoopModePara(AscendC::DataCopyMVType::UB_TO_OUT);
  for (uint32_t i = 0; i < 40; ++i) {
    const uint32_t it = i / 10, k = i % 10;
    EXPECT_EQ(gm[i], it < 3 && k < 8 ? float(it * 16 + k) : -1.0f) << i;
  }
}

TEST(LoopMode, Errors) {
  {
    compat_test::ProfileScope scope(normgrad_ascendc::Profile::kA2);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::SetLoopModePara({}, AscendC::DataCopyMVType::OUT_TO_UB);
        },
        "SetLoopModePara: loop mode is not available on profile Atlas A2/A3 "
        "(Ascend 950 only)"));
  }
  Ub950 ub(256);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetLoopModePara({2, 1, 0, 48, 0, 0},
                                 AscendC::DataCopyMVType::OUT_TO_UB);
      },
      "SetLoopModePara: loopParams.loop1DstStride 48 is not a multiple of 32 "
      "bytes (the UB side's strides are, for OUT_TO_UB)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetLoopModePara({1u << 21, 1, 0, 0, 0, 0},
                                 AscendC::DataCopyMVType::UB_TO_OUT);
      },
      "SetLoopModePara: loopParams.loop1Size 2097152 is out of range (0 to "
      "2^21 - 1)"));
  std::vector<float> gm(64);
  GlobalTensor<float> x;
  x.SetGlobalBuffer(gm.data(), gm.size());
  AscendC::SetLoopModePara({6, 1, 0, 64, 0, 0},
                           AscendC::DataCopyMVType::OUT_TO_UB);
  EXPECT_TRUE(FailsWith(
      [&] { DataCopy(ub.buf.Get<float>(), x, 16); },
      "DataCopy: loop mode moves dst 320 bytes at iteration (5, 0), past the "
      "end of its 256 bytes"));
}

}  // namespace
