// cube_fixpipe_layouts_test.cc — the NZ output layouts of Fixpipe and
// DataCopy out of L0C (docs/cube.md, "Fixpipe layouts and L0C → L1"): F32
// Channel Split (16 × 8 fractals in GM), Int8 Channel Merge (16 × 32
// fractals, the last 16 channels of an odd count kept 16 × 16) into GM and
// L1, and DataCopy L0C → L1 with the fixpipe registers; each against an
// index map written here from the feature pages, and each rule's message.
//
// Extending: one TEST per behaviour; a reference places element (m, n) by
// the page's fractal shapes, never by the code under test. Tests run on the
// calling thread's core made a cube core by the fixture.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::DataCopyCO12DstParams;
using AscendC::Fixpipe;
using AscendC::FixpipeParamsV220;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

class CubeFixpipeLayoutTest : public CubeCoreTest {};

// An NZ output in GM starts at a 32-byte boundary.
template <typename T>
struct alignas(32) GmBlock {
  T v[8192];
};

// L0C (Nz, 16 x 16 fractals of 4-byte values, column blocks m1 x 16 x 16
// values apart) holding value(r, c) for r < m, c < n.
template <typename T>
LocalTensor<T> FillL0c(TPipe& pipe, TBuf<TPosition::CO1>& buf, uint32_t m,
                       uint32_t n, T (*value)(uint32_t, uint32_t)) {
  const uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16;
  pipe.InitBuffer(buf, m1 * n1 * 1024);
  LocalTensor<T> c = buf.Get<T>();
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      c.SetValue((col / 16) * m1 * 256 + r * 16 + col % 16, value(r, col));
  }
  return c;
}

float DistinctFloat(uint32_t r, uint32_t c) {
  return float(r * 1000 + c) + 0.25f - (c % 3 == 0 ? 4000.0f : 0.0f);
}
int32_t SmallSigned(uint32_t r, uint32_t c) {
  return int32_t((r * 7 + c * 5) % 200) - 100;
}
float SmallUnsigned(uint32_t r, uint32_t c) {
  return float((r * 13 + c * 3) % 250);
}

// A quantization parameter (the 2201 table): the scale's float bits, the
// sign bit 46 for int8_t results; no shift, no offset.
uint64_t ScaleOne(bool is_signed) {
  const float one = 1.0f;
  uint32_t bits;
  std::memcpy(&bits, &one, 4);
  return uint64_t{bits} | uint64_t{is_signed} << 46;
}

// ---- F32 Channel Split -----------------------------------------------------

// The feature page: each 16 x 16 fractal becomes two 16 x 8 ones, so the
// output's column blocks hold 8 channels (32 bytes a row); column block b
// starts b x dstStride x 32 bytes into dst.
size_t SplitIndex(uint32_t r, uint32_t c, uint32_t dst_stride) {
  return size_t{c / 8} * dst_stride * 8 + size_t{r} * 8 + c % 8;
}

TEST_F(CubeFixpipeLayoutTest, ChannelSplitWritesSixteenByEightFractals) {
  // N 24 (a multiple of 8, not of 16: the second source fractal is half
  // used), M 20 (a partial fractal row).
  const uint32_t m = 20, n = 24, m1 = 2, dst_stride = 22;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c<float>(pipe, l0c, m, n, DistinctFloat);
  const size_t total = size_t{n / 8} * dst_stride * 8;
  const auto out = std::make_unique<GmBlock<float>>();
  std::fill(out->v, out->v + total, -1.0f);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out->v, total);
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m1 * 16;
  p.dstStride = dst_stride;
  p.channelSplit = true;
  Fixpipe<float, float, AscendC::CFG_NZ>(g, c, p);
  std::vector<float> want(total, -1.0f);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      want[SplitIndex(r, col, dst_stride)] = DistinctFloat(r, col);
  }
  for (size_t i = 0; i < total; ++i) ASSERT_EQ(out->v[i], want[i]) << i;
  // DataCopy L0C -> GM with channelSplit writes the same bytes.
  const auto again = std::make_unique<GmBlock<float>>();
  std::fill(again->v, again->v + total, -1.0f);
  GlobalTensor<float> g2;
  g2.SetGlobalBuffer(again->v, total);
  DataCopyCO12DstParams d;
  d.mSize = m;
  d.nSize = n;
  d.srcStride = m1 * 16;
  d.dstStride = dst_stride;
  d.channelSplit = true;
  DataCopy(g2, c, d);
  EXPECT_EQ(std::memcmp(out->v, again->v, total * 4), 0);
}

TEST_F(CubeFixpipeLayoutTest, ChannelSplitRules) {
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  LocalTensor<float> c = FillL0c<float>(pipe, l0c, 16, 32, DistinctFloat);
  pipe.InitBuffer(l1, 4096);
  const auto out = std::make_unique<GmBlock<float>>();
  GlobalTensor<float> g;
  g.SetGlobalBuffer(out->v, 8192);
  GlobalTensor<half> gh;
  gh.SetGlobalBuffer(reinterpret_cast<half*>(out->v), 8192);
  FixpipeParamsV220 p;
  p.mSize = 16;
  p.nSize = 12;
  p.srcStride = 16;
  p.dstStride = 16;
  p.channelSplit = true;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, AscendC::CFG_NZ>(g, c, p); },
      "Fixpipe<float, float> L0C->GM: intriParams.nSize 12 is not a multiple "
      "of 8 (NZ output with channelSplit)"));
  p.nSize = 16;
  p.unitFlag = 3;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, AscendC::CFG_NZ>(g, c, p); },
      "intriParams.channelSplit does not combine with unitFlag 3 (set "
      "unitFlag 0)"));
  p.unitFlag = 0;
  p.quantPre = AscendC::F322F16;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, AscendC::CFG_NZ>(gh, c, p); },
      "intriParams.channelSplit is true for float -> half; F32 Channel Split "
      "needs float in L0C and float out"));
  LocalTensor<half> to_l1 = l1.Get<half>();
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<half, float, AscendC::CFG_NZ>(to_l1, c, p); },
      "Fixpipe<half, float> L0C->L1: intriParams.channelSplit is true; F32 "
      "Channel Split takes effect only on the L0C -> GM path (set it false)"));
  p.quantPre = AscendC::NoQuant;
  EXPECT_TRUE(FailsWith([&] { Fixpipe(g, c, p); },
                        "intriParams.channelSplit does not combine with "
                        "NZ2ND"));
  // 8 channels a row: one column of fractals is mSize x 32 bytes.
  p.dstStride = 15;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<float, float, AscendC::CFG_NZ>(g, c, p); },
      "intriParams.dstStride 15 (x 32 bytes) is less than one column of "
      "fractals (mSize 16 x 8 x 4 bytes): the NZ output would overlap"));
}

// ---- Int8 Channel Merge ----------------------------------------------------

// The feature page: an 8-bit NZ output merges each two neighbouring 16 x 16
// fractals along N into one 16 x 32 (rows of 32 bytes); with an odd number
// of 16s the last 16 channels stay a 16 x 16 fractal (rows of 16 bytes).
// Column block b starts b x dstStride x 32 bytes into dst.
size_t MergeIndex(uint32_t r, uint32_t c, uint32_t n, uint32_t dst_stride) {
  const uint32_t merged = n / 32;
  if (c < merged * 32)
    return size_t{c / 32} * dst_stride * 32 + size_t{r} * 32 + c % 32;
  return size_t{merged} * dst_stride * 32 + size_t{r} * 16 + (c - merged * 32);
}

TEST_F(CubeFixpipeLayoutTest, Int8ChannelMergeIntoGmEvenAndOddN) {
  const uint32_t m = 20, m1 = 2, dst_stride = 21;
  for (const uint32_t n : {64u, 48u, 16u}) {
    SCOPED_TRACE(n);
    TPipe pipe;
    TBuf<TPosition::CO1> l0c;
    LocalTensor<int32_t> c = FillL0c<int32_t>(pipe, l0c, m, n, SmallSigned);
    const size_t total = size_t{(n + 31) / 32} * dst_stride * 32;
    const auto out = std::make_unique<GmBlock<int8_t>>();
    std::fill(out->v, out->v + total, int8_t{-128});
    GlobalTensor<int8_t> g;
    g.SetGlobalBuffer(out->v, total);
    FixpipeParamsV220 p;
    p.mSize = m;
    p.nSize = uint16_t(n);
    p.srcStride = m1 * 16;
    p.dstStride = dst_stride;
    p.quantPre = AscendC::REQ8;
    p.deqScalar = ScaleOne(true);  // x 1.0: the values themselves
    Fixpipe<int8_t, int32_t, AscendC::CFG_NZ>(g, c, p);
    std::vector<int8_t> want(total, int8_t{-128});
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t col = 0; col < n; ++col)
        want[MergeIndex(r, col, n, dst_stride)] = int8_t(SmallSigned(r, col));
    }
    for (size_t i = 0; i < total; ++i) ASSERT_EQ(out->v[i], want[i]) << i;
  }
}

TEST_F(CubeFixpipeLayoutTest, Int8ChannelMergeIntoL1FromFloat) {
  // The page's example: M 32, N 48 into L1; uint8_t from float.
  const uint32_t m = 32, n = 48, m1 = 2, dst_stride = 32;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::B1> l1;
  LocalTensor<float> c = FillL0c<float>(pipe, l0c, m, n, SmallUnsigned);
  const uint32_t total = 2 * dst_stride * 32;
  pipe.InitBuffer(l1, total);
  LocalTensor<uint8_t> dst = l1.Get<uint8_t>();
  for (uint32_t i = 0; i < total; ++i) dst.SetValue(i, 255);
  FixpipeParamsV220 p;
  p.mSize = m;
  p.nSize = n;
  p.srcStride = m1 * 16;
  p.dstStride = dst_stride;
  p.quantPre = AscendC::QF322B8_PRE;
  p.deqScalar = ScaleOne(false);
  Fixpipe<uint8_t, float, AscendC::CFG_NZ>(dst, c, p);
  std::vector<uint8_t> want(total, 255);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col)
      want[MergeIndex(r, col, n, dst_stride)] = uint8_t(SmallUnsigned(r, col));
  }
  for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(dst.GetValue(i), want[i]) << i;
  // 32 channels a row: one column of fractals is mSize x 32 bytes.
  p.dstStride = 31;
  EXPECT_TRUE(FailsWith(
      [&] { Fixpipe<uint8_t, float, AscendC::CFG_NZ>(dst, c, p); },
      "intriParams.dstStride 31 (x 32 bytes) is less than one column of "
      "fractals (mSize 32 x 32 x 1 bytes): the NZ output would overlap"));
}

// ---- DataCopy L0C -> L1 ----------------------------------------------------

TEST_F(CubeFixpipeLayoutTest, DataCopyL0cToL1MatchesFixpipeToL1) {
  const uint32_t m = 20, n = 48, m1 = 2;
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2PIPE2GM> fb;
  LocalTensor<int32_t> c = FillL0c<int32_t>(pipe, l0c, m, n, SmallSigned);
  pipe.InitBuffer(l1, 2 * 8192);
  pipe.InitBuffer(fb, n * 8);
  LocalTensor<uint8_t> bytes = l1.Get<uint8_t>();
  LocalTensor<int8_t> by_fixpipe = bytes[0].ReinterpretCast<int8_t>();
  LocalTensor<int8_t> by_copy = bytes[8192].ReinterpretCast<int8_t>();
  FixpipeParamsV220 f;
  f.mSize = m;
  f.nSize = n;
  f.srcStride = m1 * 16;
  f.dstStride = m;
  f.quantPre = AscendC::REQ8;
  f.deqScalar = ScaleOne(true);
  f.reluEn = true;
  Fixpipe<int8_t, int32_t, AscendC::CFG_NZ>(by_fixpipe, c, f);
  DataCopyCO12DstParams d;
  d.mSize = m;
  d.nSize = n;
  d.srcStride = m1 * 16;
  d.dstStride = m;
  d.quantPre = AscendC::REQ8;
  d.reluPre = 1;
  EXPECT_TRUE(FailsWith([&] { DataCopy(by_copy, c, d); },
                        "DataCopy<int8_t, int32_t> L0C->L1: "
                        "intriParams.quantPre REQ8 takes its parameter from "
                        "SetFixpipePreQuantFlag, which was not called in this "
                        "block"));
  AscendC::SetFixpipePreQuantFlag(ScaleOne(true));
  DataCopy(by_copy, c, d);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const size_t at = MergeIndex(r, col, n, m);
      ASSERT_EQ(by_copy.GetValue(at), by_fixpipe.GetValue(at))
          << r << "," << col;
    }
  }
  // ReLU: the negative values are 0; a positive one is kept.
  EXPECT_EQ(by_copy.GetValue(MergeIndex(0, 0, n, m)), 0);  // -100
  EXPECT_EQ(by_copy.GetValue(MergeIndex(19, 40, n, m)), 33);
  // VDEQF16: the per-column parameters from SetFixPipeConfig's tensor.
  LocalTensor<uint64_t> table = fb.Get<uint64_t>();
  for (uint32_t col = 0; col < n; ++col) {
    const float scale = col % 2 == 0 ? 0.5f : 2.0f;
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    table.SetValue(col, bits);
  }
  AscendC::SetFixPipeConfig(table);
  LocalTensor<half> h = bytes[0].ReinterpretCast<half>();
  d.quantPre = AscendC::VDEQF16;
  d.reluPre = 0;
  d.dstStride = m;  // 16 halves a row: m x 32 bytes a column of fractals
  DataCopy(h, c, d);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      const float want = float(SmallSigned(r, col)) * (col % 2 ? 2.0f : 0.5f);
      ASSERT_EQ(float(h.GetValue((col / 16) * m * 16 + r * 16 + col % 16)),
                want)
          << r << "," << col;
    }
  }
}

TEST_F(CubeFixpipeLayoutTest, DataCopyL0cToL1Rules) {
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::A1> l1;
  LocalTensor<float> c = FillL0c<float>(pipe, l0c, 16, 16, SmallUnsigned);
  pipe.InitBuffer(l1, 1024);
  LocalTensor<half> dst = l1.Get<half>();
  LocalTensor<float> dst_f = l1.Get<float>();
  DataCopyCO12DstParams d;
  d.mSize = 16;
  d.nSize = 16;
  d.srcStride = 16;
  d.dstStride = 16;
  d.quantPre = AscendC::F322F16;
  d.nz2ndEn = true;
  EXPECT_TRUE(FailsWith([&] { DataCopy(dst, c, d); },
                        "DataCopy<half, float> L0C->L1: intriParams.nz2ndEn is "
                        "true; the L0C -> L1 path of Atlas A2/A3 writes NZ "
                        "only (set it false)"));
  d.nz2ndEn = false;
  d.channelSplit = true;
  EXPECT_TRUE(FailsWith([&] { DataCopy(dst, c, d); },
                        "intriParams.channelSplit is true; F32 Channel Split "
                        "takes effect only on the L0C -> GM path"));
  d.channelSplit = false;
  d.quantPre = AscendC::NoQuant;
  EXPECT_TRUE(FailsWith([&] { DataCopy(dst_f, c, d); },
                        "DataCopy<float, float> L0C->L1: intriParams.quantPre "
                        "NoQuant: the L0C -> L1 path always converts"));
  d.quantPre = AscendC::F322F16;
  d.mSize = 33;
  d.dstStride = 33;
  EXPECT_TRUE(FailsWith([&] { DataCopy(dst, c, d); },
                        "the NZ matrices reaches 2112 bytes into src, past the "
                        "end of its 1024 bytes"));
  d.mSize = 16;
  d.dstStride = 16;
  LocalTensor<half> in_l0c = l0c.Get<half>();
  EXPECT_TRUE(FailsWith([&] { DataCopy(in_l0c, c, d); },
                        "dst LocalTensor is at position CO1; it must be at A1, "
                        "B1 or C1 (L1)"));
  // F322F16 into L1 (values exact in half), row r of column block b at
  // (b x dstStride + r) x 32 bytes.
  DataCopy(dst, c, d);
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t col = 0; col < 16; ++col) {
      ASSERT_EQ(float(dst.GetValue(r * 16 + col)), SmallUnsigned(r, col));
    }
  }
}

}  // namespace
