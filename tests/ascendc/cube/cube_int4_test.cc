// cube_int4_test.cc — int4b_t on the cube's data path (docs/cube.md, "int4b_t
// on the cube"): ND2NZ set up as for bytes, LoadData 2D L1 → L0A/L0B, and
// Mmad int4b_t × int4b_t → int32_t (Zz / Zn fractals of 16 × 64 values),
// exact against an integer reference that packs the nibbles itself.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::GlobalTensor;
using AscendC::int4b_t;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

class CubeInt4Test : public CubeCoreTest {};

// Nibble i of packed bytes: the low nibble holds the even element.
int Nibble(const uint8_t* bytes, size_t i) {
  const int v = (bytes[i / 2] >> (i % 2 ? 4 : 0)) & 0xF;
  return v >= 8 ? v - 16 : v;
}
void SetNibble(uint8_t* bytes, size_t i, int v) {
  const int shift = i % 2 ? 4 : 0;
  bytes[i / 2] =
      uint8_t((bytes[i / 2] & ~(0xF << shift)) | ((v & 0xF) << shift));
}

int Value(size_t i) { return int(i * 5 % 16) - 8; }  // -8..7

TEST_F(CubeInt4Test, Nd2NzMovesTheBytesAsB8) {
  const uint32_t rows = 20, cols = 100, padded = 32;  // 2 blocks of 64
  std::vector<uint8_t> nd(rows * cols / 2, 0);
  for (size_t i = 0; i < rows * cols; ++i) SetNibble(nd.data(), i, Value(i));
  GlobalTensor<int4b_t> gm;
  gm.SetGlobalBuffer(reinterpret_cast<int4b_t*>(nd.data()), rows * cols);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  pipe.InitBuffer(a1, 2 * padded * 32);
  LocalTensor<int4b_t> l1 = a1.Get<int4b_t>();
  AscendC::Nd2NzParams p;  // in bytes, as for int8_t
  p.ndNum = 1;
  p.nValue = rows;
  p.dValue = cols / 2;
  p.srcDValue = cols / 2;
  p.dstNzC0Stride = padded;
  p.dstNzNStride = 1;
  AscendC::DataCopy(l1, gm, p);
  const uint8_t* nz = l1.ReinterpretCast<uint8_t>().GetPhyAddr();
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < 128; ++c) {
      const size_t at = (size_t{c / 64} * padded + r) * 64 + c % 64;
      ASSERT_EQ(Nibble(nz, at), c < cols ? Value(r * cols + c) : 0)
          << r << ", " << c;
    }
  }
  // The GM side is counted in bytes: one more row does not fit.
  p.nValue = rows + 1;
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(l1, gm, p); },
                        "DataCopy<int4b_t> GM->L1 (Nd2NzParams): the access "
                        "reaches byte 1050 of src, past the end of the "
                        "GlobalTensor of 1000 bytes (two int4b_t a byte)"));
}

TEST_F(CubeInt4Test, LoadData2DMovesFractalsAndRefusesTheTranspose) {
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B2> b2;
  pipe.InitBuffer(a1, 1024);
  pipe.InitBuffer(b2, 1024);
  LocalTensor<int4b_t> src = a1.Get<int4b_t>();
  LocalTensor<int4b_t> dst = b2.Get<int4b_t>();
  for (uint32_t i = 0; i < 2048; ++i) src.SetValue(i, int4b_t(Value(i)));
  AscendC::LoadData2DParams p;
  p.startIndex = 1;
  p.repeatTimes = 1;
  AscendC::LoadData(dst, src, p);
  for (uint32_t i = 0; i < 1024; ++i) {
    ASSERT_EQ(int(dst.GetValue(i)), Value(1024 + i)) << i;
  }
  p.ifTranspose = true;
  EXPECT_TRUE(FailsWith([&] { AscendC::LoadData(dst, src, p); },
                        "LoadData<int4b_t> L1->L0B: loadDataParams.ifTranspose "
                        "is true for a 1-byte type"));
}

// C = A · B for int4 A (m x k) in L0A (Zz) and B (k x n) in L0B (Zn).
std::vector<int32_t> RunInt4Mmad(uint32_t m, uint32_t k, uint32_t n) {
  const uint32_t m1 = (m + 15) / 16, k1 = (k + 63) / 64, n1 = (n + 15) / 16;
  TPipe pipe;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(a2, m1 * k1 * 512);
  pipe.InitBuffer(b2, k1 * n1 * 512);
  pipe.InitBuffer(co1, m1 * n1 * 1024);
  uint8_t* a = a2.Get<uint8_t>().GetPhyAddr();
  uint8_t* b = b2.Get<uint8_t>().GetPhyAddr();
  std::memset(a, 0, m1 * k1 * 512);
  std::memset(b, 0, k1 * n1 * 512);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const size_t at = m == 1 ? c
                               : (size_t{r / 16} * k1 + c / 64) * 1024 +
                                     (r % 16) * 64 + c % 64;
      SetNibble(a, at, Value(r * k + c));
    }
  }
  for (uint32_t r = 0; r < k; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      const size_t at =
          (size_t{r / 64} * n1 + c / 16) * 1024 + (c % 16) * 64 + r % 64;
      SetNibble(b, at, Value(7 + r * n + c * 3));
    }
  }
  AscendC::MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  LocalTensor<int32_t> c = co1.Get<int32_t>();
  AscendC::Mmad(c, a2.Get<int4b_t>(), b2.Get<int4b_t>(), p);
  std::vector<int32_t> out(m * n);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      out[r * n + col] =
          c.GetValue((col / 16 * m1 + r / 16) * 256 + (r % 16) * 16 + col % 16);
    }
  }
  return out;
}

TEST_F(CubeInt4Test, MmadInt4IntoInt32IsExact) {
  for (const auto& [m, k, n] :
       {std::tuple<uint32_t, uint32_t, uint32_t>{20, 100, 24}, {1, 130, 16}}) {
    const std::vector<int32_t> got = RunInt4Mmad(m, k, n);
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t c = 0; c < n; ++c) {
        int64_t want = 0;
        for (uint32_t i = 0; i < k; ++i) {
          want += int64_t{Value(r * k + i)} * Value(7 + i * n + c * 3);
        }
        ASSERT_EQ(got[r * n + c], want)
            << m << "x" << k << "x" << n << " (" << r << ", " << c << ")";
      }
    }
  }
}

TEST_F(CubeInt4Test, LoadDataWithTransposeTurns64x64SquaresIntoL0b) {
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  pipe.InitBuffer(a1, 3 * 2048);
  pipe.InitBuffer(a2, 512);
  pipe.InitBuffer(b2, 16 * 512);
  uint8_t* l1 = a1.Get<uint8_t>().GetPhyAddr();
  for (size_t i = 0; i < 3 * 4096; ++i) SetNibble(l1, i, Value(i * 3 + 1));
  const LocalTensor<int4b_t> src = a1.Get<int4b_t>();
  const LocalTensor<int4b_t> dst = b2.Get<int4b_t>();
  // Squares 2 and 0 (addrMode 1), their four fractals 2 apart (dstFracGap
  // 1), the squares one fractal apart (dstGap 0).
  AscendC::LoadDataWithTranspose(
      dst, src, AscendC::LoadData2dTransposeParams(2, 2, 2, 0, 1, 1));
  const uint8_t* out = b2.Get<uint8_t>().GetPhyAddr();
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t square = 2 - 2 * i;
    for (uint32_t r = 0; r < 64; ++r) {
      for (uint32_t c = 0; c < 64; ++c) {
        // Element (r, c) of the transposed square is (c, r) of the source;
        // both are four 16 x 64 fractals one above the other.
        const size_t from = square * 4096 + (c / 16) * 1024 + (c % 16) * 64 + r;
        const size_t to = (i + (r / 16) * 2) * 1024 + (r % 16) * 64 + c;
        ASSERT_EQ(Nibble(out, to), Nibble(l1, from))
            << i << ": " << r << ", " << c;
      }
    }
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::LoadDataWithTranspose(
            a2.Get<int4b_t>(), src,
            AscendC::LoadData2dTransposeParams(0, 1, 0, 0, 0, 0));
      },
      "LoadDataWithTranspose<int4b_t> L1->L0A: int4b_t moves into L0B (B2) "
      "only"));
}

TEST_F(CubeInt4Test, Img2colIntoL0aWithAShortChannelBlock) {
  // 72 channels (a block of 64 and one of 8), 4 x 5, kernel 2 x 2, padding
  // 1 on every side: 5 x 6 = 30 rows, 2 * 2 * 72 = 288 columns.
  const uint32_t ch = 72, h = 4, w = 5, kh = 2, kw = 2, pad = 1;
  const uint32_t ow = w + 2 * pad - kw + 1, oh = h + 2 * pad - kh + 1;
  const uint32_t rows = oh * ow, cols = kh * kw * ch;
  auto fm = [&](uint32_t c, uint32_t y, uint32_t x) {
    return Value(c * 31 + y * 7 + x);
  };
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  pipe.InitBuffer(a1, 2 * h * w * 32);
  pipe.InitBuffer(a2, 2 * 5 * 512);  // 32 rows x 320 columns
  uint8_t* l1 = a1.Get<uint8_t>().GetPhyAddr();
  std::memset(l1, 0, 2 * h * w * 32);
  for (uint32_t c = 0; c < ch; ++c) {
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        SetNibble(l1, ((size_t{c / 64} * h + y) * w + x) * 64 + c % 64,
                  fm(c, y, x));
      }
    }
  }
  AscendC::LoadData3DParamsV2<int4b_t> p;
  for (auto& v : p.padList) v = pad;
  p.l1H = h;
  p.l1W = w;
  p.channelSize = ch;
  p.mExtension = rows;
  p.kExtension = cols;
  p.filterH = kh;
  p.filterW = kw;
  p.padValue = int4b_t(-3);
  AscendC::LoadData(a2.Get<int4b_t>(), a1.Get<int4b_t>(), p);
  const uint8_t* out = a2.Get<uint8_t>().GetPhyAddr();
  for (uint32_t r = 0; r < 32; ++r) {
    for (uint32_t k = 0; k < 320; ++k) {
      int want = 0;  // past the matrix
      if (r < rows && k < cols) {
        // Columns: the 64-channel block's taps, then the 8-channel block's.
        const uint32_t block = k < kh * kw * 64 ? 0 : 1;
        const uint32_t width = block == 0 ? 64 : 8;
        const uint32_t in = k - block * kh * kw * 64;
        const uint32_t tap = in / width, c = block * 64 + in % width;
        const int y = int(r / ow) - int(pad) + int(tap / kw);
        const int x = int(r % ow) - int(pad) + int(tap % kw);
        want = y < 0 || x < 0 || y >= int(h) || x >= int(w) ? -3 : fm(c, y, x);
      }
      const size_t at =
          (size_t{r / 16} * 5 + k / 64) * 1024 + (r % 16) * 64 + k % 64;
      ASSERT_EQ(Nibble(out, at), want) << r << ", " << k;
    }
  }
  p.channelSize = 68;  // 64 + 4: not an int4 count
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::LoadData(a2.Get<int4b_t>(), a1.Get<int4b_t>(), p); },
      "loadDataParams.channelSize 68 is not one of 8, 16, 32, N*64, N*64+8, "
      "N*64+16 or N*64+32 (for int4b_t)"));
}

}  // namespace
