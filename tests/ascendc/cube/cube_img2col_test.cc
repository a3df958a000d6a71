// cube_img2col_test.cc — the cube's img2col path (docs/cube.md, "Img2col"):
// LoadData 3D (LoadData3DParamsV2 and V2Pro) from a C1HWC0 feature map in L1
// into L0A (Zz, optionally transposed) and L0B (Zn), against a reference
// written here that walks the convolution windows of a [C][H][W] array; the
// registers (SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary,
// SetLoadDataRepeat) and every rule's message.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line with
// its message. Each test starts a fresh block (the registers unset) on the
// calling thread's core, made a cube core.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LoadData;
using AscendC::LoadData3DParamsV2;
using AscendC::LoadData3DParamsV2Pro;
using AscendC::LoadDataRepeatParam;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

class Img2colTest : public CubeCoreTest {};

// A convolution's shape: feature map C × H × W, kernel, stride, dilation,
// padding (left, right, top, bottom).
struct Conv {
  uint32_t c, h, w;
  uint32_t kh, kw;
  uint32_t sh = 1, sw = 1;
  uint32_t dh = 1, dw = 1;
  uint32_t pad[4] = {0, 0, 0, 0};
  uint32_t OutW() const {
    return (w + pad[0] + pad[1] - dw * (kw - 1) - 1) / sw + 1;
  }
  uint32_t OutH() const {
    return (h + pad[2] + pad[3] - dh * (kh - 1) - 1) / sh + 1;
  }
  uint32_t Rows() const { return OutH() * OutW(); }
  uint32_t Cols() const { return kh * kw * c; }
};

// The feature map fm[ch][y][x] laid out as C1HWC0: channel blocks of C0
// (32 bytes), each H × W pixels of C0 channels; the last block padded.
template <typename T>
std::vector<T> ToC1hwc0(const std::vector<T>& fm, const Conv& cv) {
  const uint32_t c0 = 32 / sizeof(T);
  const uint32_t c1 = (cv.c + c0 - 1) / c0;
  std::vector<T> out(size_t{c1} * cv.h * cv.w * c0, T(0));
  for (uint32_t ch = 0; ch < cv.c; ++ch) {
    for (uint32_t y = 0; y < cv.h; ++y) {
      for (uint32_t x = 0; x < cv.w; ++x) {
        out[((size_t{ch / c0} * cv.h + y) * cv.w + x) * c0 + ch % c0] =
            fm[(size_t{ch} * cv.h + y) * cv.w + x];
      }
    }
  }
  return out;
}

// The img2col matrix: row (oy, ox) of the output, column (channel block,
// kernel row, kernel column, channel of the block); padding reads `pad`.
template <typename T>
std::vector<T> Img2col(const std::vector<T>& fm, const Conv& cv, T pad) {
  const uint32_t c0 = 32 / sizeof(T);
  std::vector<T> mat(size_t{cv.Rows()} * cv.Cols());
  for (uint32_t oy = 0; oy < cv.OutH(); ++oy) {
    for (uint32_t ox = 0; ox < cv.OutW(); ++ox) {
      size_t col = 0;
      for (uint32_t base = 0; base < cv.c; base += c0) {
        const uint32_t width = std::min(c0, cv.c - base);
        for (uint32_t ky = 0; ky < cv.kh; ++ky) {
          for (uint32_t kx = 0; kx < cv.kw; ++kx) {
            for (uint32_t ch = base; ch < base + width; ++ch, ++col) {
              const int y = int(oy * cv.sh + ky * cv.dh) - int(cv.pad[2]);
              const int x = int(ox * cv.sw + kx * cv.dw) - int(cv.pad[0]);
              const bool inside =
                  y >= 0 && x >= 0 && y < int(cv.h) && x < int(cv.w);
              mat[(size_t{oy} * cv.OutW() + ox) * cv.Cols() + col] =
                  inside ? fm[(size_t{ch} * cv.h + y) * cv.w + x] : pad;
            }
          }
        }
      }
    }
  }
  return mat;
}

// Element (r, c) of a matrix of `cols` columns (padded to C0) stored Zz:
// 16 × C0 fractals in row-major order.
size_t Zz(size_t r, size_t c, size_t cols, size_t c0) {
  const size_t k1 = (cols + c0 - 1) / c0;
  return ((r / 16) * k1 + c / c0) * 16 * c0 + (r % 16) * c0 + c % c0;
}
// Element (k, n) of a K × N matrix stored Zn: C0 × 16 fractals in row-major
// order, each column major.
size_t Zn(size_t k, size_t n, size_t n_cols, size_t c0) {
  const size_t n1 = (n_cols + 15) / 16;
  return ((k / c0) * n1 + n / 16) * 16 * c0 + (n % 16) * c0 + k % c0;
}

template <typename T>
std::vector<T> Counting(size_t count, int mod) {
  std::vector<T> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = T(float(int(i % mod) - mod / 2));
  return v;
}

// Copies `values` into an L1 tensor and returns the tensor.
template <typename T>
LocalTensor<T> Put(LocalTensor<T> l1, const std::vector<T>& values) {
  std::memcpy(l1.GetPhyAddr(), values.data(), values.size() * sizeof(T));
  return l1;
}

template <typename T>
LoadData3DParamsV2<T> Params(const Conv& cv, uint16_t m_ext, uint16_t k_ext,
                             T pad_value) {
  LoadData3DParamsV2<T> p;
  for (int i = 0; i < 4; ++i) p.padList[i] = uint8_t(cv.pad[i]);
  p.l1H = uint16_t(cv.h);
  p.l1W = uint16_t(cv.w);
  p.channelSize = uint16_t(cv.c);
  p.mExtension = m_ext;
  p.kExtension = k_ext;
  p.strideH = uint8_t(cv.sh);
  p.strideW = uint8_t(cv.sw);
  p.filterH = uint8_t(cv.kh);
  p.filterW = uint8_t(cv.kw);
  p.dilationFilterH = uint8_t(cv.dh);
  p.dilationFilterW = uint8_t(cv.dw);
  p.padValue = pad_value;
  return p;
}

// Compares an L0 tensor with the expected layout: `expect(r, c)` for every
// position of `rows` × `cols` at `index(r, c)`.
template <typename T, typename Expect, typename Index>
::testing::AssertionResult Matches(const LocalTensor<T>& l0, size_t rows,
                                   size_t cols, Expect expect, Index index) {
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const float got = float(l0.GetValue(index(r, c)));
      const float want = float(expect(r, c));
      if (got != want) {
        return ::testing::AssertionFailure()
               << "(" << r << ", " << c << "): got " << got << ", want "
               << want;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST_F(Img2colTest, HalfThreeByThreePaddedIntoL0a) {
  const Conv cv{16, 5, 5, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}};
  const std::vector<half> fm = Counting<half>(16 * 5 * 5, 23);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  pipe.InitBuffer(a1, 32 * 1024);
  pipe.InitBuffer(a2, 32 * 1024);
  const LocalTensor<half> src = Put(a1.Get<half>(), ToC1hwc0(fm, cv));
  const LocalTensor<half> dst = a2.Get<half>();
  const half pad(7.0f);
  // All 25 rows (ending inside the last fractal row) and 144 columns.
  LoadData(dst, src, Params<half>(cv, 25, 144, pad));
  const std::vector<half> mat = Img2col(fm, cv, pad);
  EXPECT_TRUE(Matches(
      dst, 32, 144,
      [&](size_t r, size_t c) { return r < 25 ? mat[r * 144 + c] : half(0); },
      [](size_t r, size_t c) { return Zz(r, c, 144, 16); }));
  // A window: rows 16..31 (16 of them), columns 32..95.
  auto p = Params<half>(cv, 16, 64, pad);
  p.mStartPt = 16;
  p.kStartPt = 32;
  LoadData(dst, src, p);
  EXPECT_TRUE(Matches(
      dst, 16, 64,
      [&](size_t r, size_t c) {
        return r + 16 < 25 ? mat[(r + 16) * 144 + c + 32] : half(0);
      },
      [](size_t r, size_t c) { return Zz(r, c, 64, 16); }));
}

TEST_F(Img2colTest, FloatShortChannelBlockStrideDilationAndLayouts) {
  // 12 float channels: a block of 8 and one of 4; stride 2, dilation 2.
  Conv cv{12, 7, 6, 2, 2, 2, 2, 2, 2, {0, 1, 1, 0}};
  const std::vector<float> fm = Counting<float>(12 * 7 * 6, 17);
  const uint32_t rows = cv.Rows(), cols = cv.Cols();  // 9 x 48
  ASSERT_EQ(rows, 9u);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  pipe.InitBuffer(a1, 16 * 1024);
  pipe.InitBuffer(a2, 16 * 1024);
  pipe.InitBuffer(b2, 16 * 1024);
  const LocalTensor<float> src = Put(a1.Get<float>(), ToC1hwc0(fm, cv));
  const std::vector<float> mat = Img2col(fm, cv, -1.0f);
  const auto at = [&](size_t r, size_t c) {
    return r < rows && c < cols ? mat[r * cols + c] : 0.0f;
  };
  auto p = Params<float>(cv, 9, 48, -1.0f);
  // L0A: Zz of 16 x 48 (rows past 9 are 0).
  LoadData(a2.Get<float>(), src, p);
  EXPECT_TRUE(Matches(a2.Get<float>(), 16, 48, at,
                      [](size_t r, size_t c) { return Zz(r, c, 48, 8); }));
  // L0A transposed: the 48 x 16 transpose (columns padded to C0 = 8), Zz.
  p.enTranspose = true;
  LoadData(a2.Get<float>(), src, p);
  EXPECT_TRUE(Matches(
      a2.Get<float>(), 48, 16, [&](size_t r, size_t c) { return at(c, r); },
      [](size_t r, size_t c) { return Zz(r, c, 16, 8); }));
  // L0B: B = the transpose (K 48 x N 16) in Zn, enTranspose or not.
  p.enTranspose = false;
  LoadData(b2.Get<float>(), src, p);
  EXPECT_TRUE(Matches(
      b2.Get<float>(), 48, 16, [&](size_t k, size_t n) { return at(n, k); },
      [](size_t k, size_t n) { return Zn(k, n, 16, 8); }));
}

TEST_F(Img2colTest, Int8ChannelsAndBigKernelSize) {
  // 40 int8 channels (32 + 8) and a 2 x 3 kernel, no padding.
  const Conv cv{40, 4, 5, 2, 3};
  std::vector<int8_t> fm(40 * 4 * 5);
  for (size_t i = 0; i < fm.size(); ++i) fm[i] = int8_t(i * 7 % 251 - 125);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  pipe.InitBuffer(a1, 8 * 1024);
  pipe.InitBuffer(a2, 16 * 1024);
  pipe.InitBuffer(b2, 1024);
  const LocalTensor<int8_t> src = Put(a1.Get<int8_t>(), ToC1hwc0(fm, cv));
  const std::vector<int8_t> mat = Img2col(fm, cv, int8_t(0));
  const uint32_t rows = cv.Rows(), cols = cv.Cols();  // 9 x 240
  LoadData(a2.Get<int8_t>(), src, Params<int8_t>(cv, 9, 240, int8_t(0)));
  EXPECT_TRUE(Matches(
      a2.Get<int8_t>(), 16, 256,
      [&](size_t r, size_t c) {
        return r < rows && c < cols ? mat[r * cols + c] : int8_t(0);
      },
      [](size_t r, size_t c) { return Zz(r, c, 256, 32); }));
  // filterSizeW adds 256 to the kernel width: no 259-wide window fits.
  auto p = Params<int8_t>(cv, 9, 240, int8_t(0));
  p.filterSizeW = true;
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(a2.Get<int8_t>(), src, p); },
      "LoadData<int8_t> L1->L0A (LoadData3DParamsV2): the dilated kernel is "
      "259 wide, more than the padded feature map's 5 (l1W 5 + padding 0 + "
      "0): no window fits"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadData(b2.Get<int8_t>(), src, Params<int8_t>(cv, 9, 240, int8_t(0)));
      },
      "LoadData<int8_t> L1->L0B (LoadData3DParamsV2): dst is at B2 (L0B) "
      "and T is int8_t; img2col into L0B moves 16- and 32-bit types only"));
}

TEST_F(Img2colTest, RepeatAlongRowsAndColumns) {
  const Conv cv{16, 6, 6, 1, 2};  // 30 rows x 32 columns
  const std::vector<half> fm = Counting<half>(16 * 6 * 6, 29);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  pipe.InitBuffer(a1, 8 * 1024);
  pipe.InitBuffer(a2, 8 * 1024);
  const LocalTensor<half> src = Put(a1.Get<half>(), ToC1hwc0(fm, cv));
  const LocalTensor<half> dst = a2.Get<half>();
  const std::vector<half> mat = Img2col(fm, cv, half(0));
  const auto at = [&](size_t r, size_t c) {
    return r < 30 && c < 32 ? mat[r * 32 + c] : half(0);
  };
  // Rows: two repeats of 16 rows x 16 columns, the second 1 x 16 rows on.
  AscendC::SetLoadDataRepeat({1, 2, 0});
  LoadData(dst, src, Params<half>(cv, 16, 16, half(0)));
  EXPECT_TRUE(Matches(dst, 32, 16, at,
                      [](size_t r, size_t c) { return Zz(r, c, 16, 16); }));
  // Columns: two repeats of 16 x 16, the second 16 columns on (stride 1 C0).
  AscendC::SetLoadDataRepeat({1, 2, 1});
  LoadData(dst, src, Params<half>(cv, 16, 16, half(0)));
  EXPECT_TRUE(Matches(dst, 16, 32, at,
                      [](size_t r, size_t c) { return Zz(r, c, 32, 16); }));
  // repeatTime 0: nothing moves.
  std::memset(static_cast<void*>(dst.GetPhyAddr()), 0x11, 1024);
  AscendC::SetLoadDataRepeat({1, 0, 0});
  LoadData(dst, src, Params<half>(cv, 16, 16, half(0)));
  uint8_t first = 0;
  std::memcpy(&first, dst.GetPhyAddr(), 1);
  EXPECT_EQ(first, 0x11);
  EXPECT_TRUE(FailsWith(
      [] {
        AscendC::SetLoadDataRepeat({0, 1, 2});
      },
      "SetLoadDataRepeat: repeatParams.repeatMode 2 is out "
      "of range [0, 1]"));
  EXPECT_TRUE(FailsWith(
      [] {
        AscendC::SetLoadDataRepeat({0, 1, 0, 3});
      },
      "SetLoadDataRepeat: repeatParams.dstStride 3; Atlas "
      "A2/A3 has no dstStride"));
}

TEST_F(Img2colTest, RegistersFeedTheCallsThatDoNotSetThem) {
  const Conv cv{16, 4, 4, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}};
  const std::vector<half> fm = Counting<half>(16 * 4 * 4, 13);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::A2> a2_pro;
  pipe.InitBuffer(a1, 8 * 1024);
  pipe.InitBuffer(a2, 8 * 1024);
  pipe.InitBuffer(a2_pro, 8 * 1024);
  const LocalTensor<half> src = Put(a1.Get<half>(), ToC1hwc0(fm, cv));
  static constexpr AscendC::IsResetLoad3dConfig kFromRegisters = {false, false};
  // The call's l1H, l1W, padList and padValue do not count.
  LoadData3DParamsV2<half> p = Params<half>(cv, 16, 144, half(0));
  p.l1H = 1;
  p.l1W = 1;
  p.padList[0] = 0;
  const char* api = "LoadData<half> L1->L0A (LoadData3DParamsV2): ";
  EXPECT_TRUE(FailsWith(
      [&] { LoadData<half, kFromRegisters>(a2.Get<half>(), src, p); },
      std::string(api) +
          "the feature map comes from the registers (isSetFMatrix false or "
          "the v2 Pro form), but SetFmatrix was not called in this block"));
  const uint8_t pads[AscendC::PAD_SIZE] = {1, 1, 1, 1};
  AscendC::SetFmatrix(4, 4, pads, AscendC::FmatrixMode::FMATRIX_LEFT);
  EXPECT_TRUE(FailsWith(
      [&] { LoadData<half, kFromRegisters>(a2.Get<half>(), src, p); },
      "the pad value comes from its register (isSetPadding false or the v2 "
      "Pro form), but SetLoadDataPaddingValue was not called in this block"));
  AscendC::SetLoadDataPaddingValue(float(3));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData<half, kFromRegisters>(a2.Get<half>(), src, p); },
      "SetLoadDataPaddingValue set a float pad value, which is not a half"));
  AscendC::SetLoadDataPaddingValue(half(-2.0f));
  LoadData<half, kFromRegisters>(a2.Get<half>(), src, p);
  const std::vector<half> mat = Img2col(fm, cv, half(-2.0f));
  EXPECT_TRUE(Matches(
      a2.Get<half>(), 16, 144,
      [&](size_t r, size_t c) { return mat[r * 144 + c]; },
      [](size_t r, size_t c) { return Zz(r, c, 144, 16); }));
  // The v2 Pro form: the same window and kernel packed into two words.
  LoadData3DParamsV2Pro pro;
  pro.channelSize = 16;
  pro.extConfig = (uint64_t{0} << 48) | (uint64_t{0} << 32) |
                  (uint64_t{16} << 16) | uint64_t{144};
  pro.filterConfig = (uint64_t{1} << 40) | (uint64_t{1} << 32) |
                     (uint64_t{3} << 24) | (uint64_t{3} << 16) |
                     (uint64_t{1} << 8) | uint64_t{1};
  LoadData(a2_pro.Get<half>(), src, pro);
  EXPECT_EQ(std::memcmp(a2.Get<half>().GetPhyAddr(),
                        a2_pro.Get<half>().GetPhyAddr(), 16 * 144 * 2),
            0);
  // A call that sets the registers leaves them for the next.
  LoadData(a2.Get<half>(), src, Params<half>(cv, 16, 144, half(5.0f)));
  LoadData(a2_pro.Get<half>(), src, pro);
  EXPECT_EQ(float(a2_pro.Get<half>().GetValue(0)), 5.0f);  // a padded corner
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetFmatrix(0, 4, pads, AscendC::FmatrixMode::FMATRIX_LEFT);
      },
      "SetFmatrix: l1H 0 is out of range [1, 32767]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetFmatrix(4, 4, pads, AscendC::FmatrixMode::FMATRIX_RIGHT);
      },
      "SetFmatrix: fmatrixMode 1; only FMATRIX_LEFT (0) is supported"));
}

TEST_F(Img2colTest, BoundaryWrapsReadsToL1sStart) {
  // A 1 x 64 map of 16 halves per pixel (2048 bytes) at L1 byte 1024 with
  // the boundary at 2048: its second half is read from bytes 0..1023.
  const Conv cv{16, 1, 64, 1, 1};
  const std::vector<half> fm = Counting<half>(16 * 64, 31);
  const std::vector<half> nz = ToC1hwc0(fm, cv);
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> a2;
  pipe.InitBuffer(l1, 4096);
  pipe.InitBuffer(a2, 4096);
  LocalTensor<half> all = l1.Get<half>();
  std::memcpy(all.GetPhyAddr() + 512, nz.data(), 1024);  // pixels 0..31
  std::memcpy(all.GetPhyAddr(), nz.data() + 512, 1024);  // pixels 32..63
  const LocalTensor<half> src = all[512];
  AscendC::SetLoadDataBoundary(2048);
  LoadData(a2.Get<half>(), src, Params<half>(cv, 64, 16, half(0)));
  EXPECT_TRUE(Matches(
      a2.Get<half>(), 64, 16,
      [&](size_t r, size_t c) { return fm[c * 64 + r]; },
      [](size_t r, size_t c) { return Zz(r, c, 16, 16); }));
  EXPECT_TRUE(FailsWith([] { AscendC::SetLoadDataBoundary(1000); },
                        "SetLoadDataBoundary: boundaryValue 1000 is out of "
                        "range; 0 (no boundary) or 1024..524288 bytes"));
  AscendC::SetLoadDataBoundary(1024);
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(a2.Get<half>(), src, Params<half>(cv, 64, 16, half(0))); },
      "src starts at L1 byte 1024, not inside the boundary of 1024 bytes "
      "SetLoadDataBoundary set"));
  // A boundary that is not a multiple of the element's bytes can wrap an
  // element across L1's end: a 2 x 24576 float map, kernel 2 x 1, whose
  // element (h 1, w 24575, channel 7) is at byte 1572860, 524286 after the
  // wrap at 524287.
  {
    TBuf<TPosition::A2> a2f;
    pipe.InitBuffer(a2f, 512);
    AscendC::SetLoadDataBoundary(524287);
    auto wide = Params<float>(Conv{8, 2, 24576, 2, 1}, 16, 8, 0.0f);
    wide.mStartPt = 24560;
    wide.kStartPt = 8;  // the kernel's second row
    EXPECT_TRUE(FailsWith(
        [&] { LoadData(a2f.Get<float>(), all.ReinterpretCast<float>(), wide); },
        "LoadData<float> L1->L0A (LoadData3DParamsV2): the feature map's "
        "element (channel 7) wraps to L1 byte 524286, whose 4 bytes pass the "
        "end of L1 (524288 bytes)"));
  }
  // Without a boundary the map must lie inside src.
  AscendC::SetLoadDataBoundary(0);
  EXPECT_TRUE(FailsWith(
      [&] {
        auto far = Params<half>(Conv{16, 1, 200, 1, 1}, 8, 16, half(0));
        far.mStartPt = 192;  // pixels 192..199, past src's 3072 bytes
        LoadData(a2.Get<half>(), src, far);
      },
      "past the end of src"));
}

// The page's use of the transpose: a float A stored transposed ([k, m], ND
// in GM) goes to L1 as Nz by ND2NZ, which is a C1HWC0 map of height 1, width
// k (padded to 16) and m channels; img2col with a 1 x 1 kernel and
// enTranspose writes A (m x k) into L0A as Zz with K padded to 16, which
// Mmad reads with kDirectionAlign. C = A · B against a double reference.
TEST_F(Img2colTest, TransposedFloatMatrixFeedsMmadAsThePageShows) {
  const uint32_t m = 24, k = 40, n = 16, kPad = 48, mPad = 32;
  std::vector<float> at(k * m), b(k * n);  // at: A transposed, [k][m]
  for (uint32_t i = 0; i < at.size(); ++i) at[i] = float(int(i * 7 % 19) - 9);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 13) - 6);
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(at.data(), at.size());
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> co1;
  pipe.InitBuffer(a1, kPad * mPad * 4);
  pipe.InitBuffer(a2, mPad * kPad * 4);
  pipe.InitBuffer(b2, kPad * n * 4);
  pipe.InitBuffer(co1, mPad * n * 4);
  std::memset(static_cast<void*>(a1.Get<float>().GetPhyAddr()), 0,
              kPad * mPad * 4);
  AscendC::Nd2NzParams nz;
  nz.ndNum = 1;
  nz.nValue = k;
  nz.dValue = m;
  nz.srcDValue = m;
  nz.dstNzC0Stride = kPad;
  nz.dstNzNStride = 1;
  AscendC::DataCopy(a1.Get<float>(), gm, nz);
  LoadData3DParamsV2<float> p;
  p.l1H = 1;
  p.l1W = kPad;
  p.channelSize = m;
  p.kExtension = m;
  p.mExtension = kPad;
  p.enTranspose = true;
  LoadData(a2.Get<float>(), a1.Get<float>(), p);
  // B (k x n) into L0B as Zn (8 x 16 fractals, column major inside).
  LocalTensor<float> filter = b2.Get<float>();
  for (uint32_t i = 0; i < kPad * n; ++i) filter.SetValue(i, 0.0f);
  for (uint32_t r = 0; r < k; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      filter.SetValue(Zn(r, c, n, 8), b[r * n + c]);
    }
  }
  AscendC::MmadParams mm;
  mm.m = m;
  mm.n = n;
  mm.k = k;
  mm.kDirectionAlign = true;
  LocalTensor<float> c = co1.Get<float>();
  AscendC::Mmad(c, a2.Get<float>(), filter, mm);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      double want = 0;
      for (uint32_t i = 0; i < k; ++i) {
        want += double(at[i * m + r]) * b[i * n + col];
      }
      ASSERT_EQ(c.GetValue((r / 16) * 256 + (r % 16) * 16 + col), want)
          << r << ", " << col;
    }
  }
}

TEST_F(Img2colTest, Rules) {
  const Conv cv{16, 4, 4, 3, 3};
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B1> b1;
  pipe.InitBuffer(a1, 4096);
  pipe.InitBuffer(a2, 1024);
  pipe.InitBuffer(b1, 1024);
  const LocalTensor<half> src = a1.Get<half>();
  const LocalTensor<half> dst = a2.Get<half>();
  const char* api = "LoadData<half> L1->L0A (LoadData3DParamsV2): ";
  const auto fails = [&](LoadData3DParamsV2<half> p, const std::string& m) {
    return FailsWith([&] { LoadData(dst, src, p); }, api + m);
  };
  auto p = Params<half>(cv, 4, 16, half(0));
  p.channelSize = 28;  // 16 + 12
  EXPECT_TRUE(fails(p,
                    "loadDataParams.channelSize 28 is not one of 4, 8, N*16, "
                    "N*16+4 or N*16+8 (for half)"));
  p = Params<half>(cv, 4, 16, half(0));
  p.kStartPt = 8;
  EXPECT_TRUE(fails(p,
                    "loadDataParams.kStartPt 8 is not a multiple of 16 (C0: "
                    "32 bytes of half)"));
  p = Params<half>(cv, 4, 8, half(0));
  EXPECT_TRUE(fails(p,
                    "loadDataParams.kExtension 8 is not a multiple of 16 and "
                    "the window (kStartPt 0) ends before the last fractal of "
                    "the 144 columns"));
  p = Params<half>(Conv{16, 8, 8, 1, 1}, 8, 16, half(0));
  EXPECT_TRUE(fails(p,
                    "loadDataParams.mExtension 8 is not a multiple of 16 and "
                    "the window (mStartPt 0) ends before the last fractal of "
                    "the 64 rows"));
  p = Params<half>(cv, 4, 16, half(0));
  p.strideW = 64;
  EXPECT_TRUE(fails(p, "loadDataParams.strideW 64 is out of range [0, 63]"));
  p.strideW = 0;
  EXPECT_TRUE(fails(p, "loadDataParams.strideW is 0"));
  p = Params<half>(cv, 4, 16, half(0));
  p.mStartPt = 40000;
  EXPECT_TRUE(
      fails(p, "loadDataParams.mStartPt 40000 is out of range [0, 32767]"));
  p = Params<half>(cv, 4, 16, half(0));
  p.l1W = 40000;
  EXPECT_TRUE(fails(p, "loadDataParams.l1W 40000 is out of range [0, 32767]"));
  p = Params<half>(cv, 4, 16, half(0));
  p.enSmallK = true;
  EXPECT_TRUE(fails(p, "loadDataParams.enSmallK is true"));
  p.enSmallK = false;
  p.fMatrixCtrl = true;
  EXPECT_TRUE(fails(p, "loadDataParams.fMatrixCtrl is true"));
  p = Params<half>(cv, 64, 144, half(0));
  EXPECT_TRUE(fails(p,
                    "the fractals written reaches 18432 bytes into dst, past "
                    "the end of its 1024 bytes"));
  // Operands: dst in L0A/L0B, src in A1/B1.
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(b1.Get<half>(), src, Params<half>(cv, 4, 16, half(0))); },
      "dst LocalTensor is at position B1; it must be at A2 (L0A) or B2 (L0B)"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadData(dst, dst, Params<half>(cv, 4, 16, half(0))); },
      "src LocalTensor is at position A2; it must be at A1 or B1 (L1)"));
  // A zero extent is a NOP (nothing checked past the operands).
  std::memset(static_cast<void*>(dst.GetPhyAddr()), 0, 1024);
  p = Params<half>(cv, 0, 16, half(0));
  p.channelSize = 28;
  LoadData(dst, src, p);
  EXPECT_EQ(float(dst.GetValue(0)), 0.0f);
}

}  // namespace

namespace {

// LoadData 3D on tensors over a TensorTrait: the element type is the
// trait's (PrimT), the same bytes as on plain tensors.
TEST_F(Img2colTest, TraitTensorsMoveTheSameBytes) {
  const Conv cv{16, 4, 4, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}};
  const std::vector<half> fm = Counting<half>(16 * 4 * 4, 13);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> plain;
  TBuf<TPosition::A2> trait;
  pipe.InitBuffer(a1, 8 * 1024);
  pipe.InitBuffer(plain, 8 * 1024);
  pipe.InitBuffer(trait, 8 * 1024);
  const LocalTensor<half> src = Put(a1.Get<half>(), ToC1hwc0(fm, cv));
  const auto p = Params<half>(cv, 16, 144, half(1.0f));
  LoadData(plain.Get<half>(), src, p);
  LoadData(trait.Get<AscendC::TensorTrait<half>>(),
           a1.Get<AscendC::TensorTrait<half>>(), p);
  EXPECT_EQ(std::memcmp(plain.Get<half>().GetPhyAddr(),
                        trait.Get<half>().GetPhyAddr(), 16 * 144 * 2),
            0);
}

}  // namespace
