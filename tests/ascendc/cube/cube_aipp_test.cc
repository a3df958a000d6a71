// cube_aipp_test.cc — the cube core's AIPP image loads (docs/cube.md, "AIPP
// image loads"): SetAippFunctions and LoadImageToLocal for each input format
// (YUV420SP, XRGB8888, RGB888, YUV400) into int8_t and half, the swaps, the
// color-space conversion in both directions, the data-type conversion, each
// spatial padding mode at every edge, the channel padding modes and the
// single-line read, against a reference written here from the pages: plain
// per-pixel arithmetic in double, rounded to half (ties to even) by its own
// code. Then every rule's message.
//
// Extending: a new option gets a case that runs Load() and compares with
// Reference(); a new rule gets a FailsWith line with its message. Each test
// starts a fresh block (the AIPP registers unset) on a cube core.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::AippInputFormat;
using AscendC::AippParams;
using AscendC::GlobalTensor;
using AscendC::LoadImageToLocal;
using AscendC::LoadImageToLocalParams;
using AscendC::LocalTensor;
using AscendC::SetAippFunctions;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

class AippTest : public CubeCoreTest {};

// ---- the reference ---------------------------------------------------------

// The binary16 nearest to v, ties to even, as bits (|v| past the largest
// finite half: inf). Walks the binade of v and rounds its scaled mantissa.
uint16_t HalfBitsOf(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (a == 0) return sign;
  int exp = 15;
  while (exp > -14 && a < std::ldexp(1.0, exp)) --exp;
  const double ulp = std::ldexp(1.0, exp - 10);
  const double scaled = a / ulp;  // exact: a power-of-two scale
  double whole = std::floor(scaled);
  const double frac = scaled - whole;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) != 0)) whole += 1;
  const double r = whole * ulp;
  if (r >= 65536.0 - 16.0) return sign | 0x7c00;  // rounds past 65504
  if (r < std::ldexp(1.0, -14)) {                 // subnormal
    return sign | static_cast<uint16_t>(r / std::ldexp(1.0, -24));
  }
  int e = -14;
  while (r >= std::ldexp(1.0, e + 1)) ++e;
  const auto mant = static_cast<uint16_t>(r / std::ldexp(1.0, e - 10) - 1024);
  return sign | static_cast<uint16_t>((e + 15) << 10) | mant;
}

double HalfOf(uint16_t bits) {
  const int e = bits >> 10 & 0x1f;
  const int m = bits & 0x3ff;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return bits & 0x8000 ? -mag : mag;
}

// A source image: its width in pixels and its planes (YUV420SP: Y, UV).
struct Image {
  AippInputFormat format;
  uint32_t width;
  uint32_t height;
  std::vector<uint8_t> y;
  std::vector<uint8_t> uv;
};

Image RandomImage(AippInputFormat format, uint32_t width, uint32_t height,
                  uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  Image im{format, width, height, {}, {}};
  uint32_t bpp = 1;
  if (format == AippInputFormat::RGB888_U8) bpp = 3;
  if (format == AippInputFormat::XRGB8888_U8) bpp = 4;
  im.y.resize(size_t{width} * height * bpp);
  for (auto& b : im.y) b = static_cast<uint8_t>(byte(gen));
  if (format == AippInputFormat::YUV420SP_U8) {
    im.uv.resize(size_t{width} * (height / 2));
    for (auto& b : im.uv) b = static_cast<uint8_t>(byte(gen));
  }
  return im;
}

// One source pixel (row r, column c of the whole image) after the read and
// the swaps: the channels the page lists for the format, in output order.
std::vector<int> SourcePixel(const Image& im, uint32_t r, uint32_t c,
                             const AscendC::AippSwapParams& swap) {
  const size_t i = size_t{r} * im.width + c;
  std::vector<int> ch;
  switch (im.format) {
    case AippInputFormat::YUV400_U8:
      ch = {im.y[i]};
      break;
    case AippInputFormat::RGB888_U8:
      ch = {im.y[3 * i], im.y[3 * i + 1], im.y[3 * i + 2]};
      break;
    case AippInputFormat::XRGB8888_U8: {
      std::vector<int> x = {im.y[4 * i], im.y[4 * i + 1], im.y[4 * i + 2],
                            im.y[4 * i + 3]};
      if (swap.isSwapAX) x = {x[1], x[2], x[3], x[0]};  // XRGB -> RGBX
      ch = {x[0], x[1], x[2]};                          // the 4th dropped
      break;
    }
    case AippInputFormat::YUV420SP_U8: {
      const size_t uv = size_t{r / 2} * im.width + (c / 2) * 2;
      int u = im.uv[uv];
      int v = im.uv[uv + 1];
      if (swap.isSwapUV) std::swap(u, v);
      ch = {im.y[i], u, v};
      break;
    }
  }
  if (swap.isSwapRB) std::swap(ch[0], ch[2]);
  return ch;
}

// The color-space conversion as docs/cube.md gives it: the matrix in
// 1/256 units, floor, clamp to a byte; RGB → YUV adds cscBiasIn after it,
// YUV → RGB takes cscBiasOut off before it.
std::vector<int> Csc(const std::vector<int>& in,
                     const AscendC::AippColorSpaceConvParams& p,
                     bool from_yuv) {
  const double m[3][3] = {{double(p.cscMatrixR0C0), double(p.cscMatrixR0C1),
                           double(p.cscMatrixR0C2)},
                          {double(p.cscMatrixR1C0), double(p.cscMatrixR1C1),
                           double(p.cscMatrixR1C2)},
                          {double(p.cscMatrixR2C0), double(p.cscMatrixR2C1),
                           double(p.cscMatrixR2C2)}};
  const double bias_in[3] = {double(p.cscBiasIn0), double(p.cscBiasIn1),
                             double(p.cscBiasIn2)};
  const double bias_out[3] = {double(p.cscBiasOut0), double(p.cscBiasOut1),
                              double(p.cscBiasOut2)};
  std::vector<int> out(3);
  for (int r = 0; r < 3; ++r) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) {
      sum += m[r][c] * (in[c] - (from_yuv ? bias_out[c] : 0.0));
    }
    double v = std::floor(sum / 256.0) + (from_yuv ? 0.0 : bias_in[r]);
    v = std::min(255.0, std::max(0.0, v));
    out[r] = static_cast<int>(v);
  }
  return out;
}

// The expected L1 contents, one entry (the output type's bits) per element.
template <typename U>
std::vector<uint16_t> Reference(const Image& im, const AippParams<U>& cfg,
                                const LoadImageToLocalParams& lp) {
  constexpr bool kHalf = std::is_same_v<U, half>;
  const uint32_t w = lp.horizSize;
  const uint32_t h = cfg.singleLineParams.isSingleLineCopy ? 1 : lp.vertSize;
  const uint32_t ow = lp.leftPadSize + w + lp.rightPadSize;
  const uint32_t oh = lp.topPadSize + h + lp.botPadSize;
  const uint32_t per_pixel =
      cfg.cPaddingParams.cPaddingMode == 0 ? 32 / sizeof(U) : 4;
  const uint32_t real = im.format == AippInputFormat::YUV400_U8 ? 1 : 3;
  const auto bits = [](U v) {
    uint16_t b = 0;
    std::memcpy(&b, &v, sizeof(U));
    return b;
  };
  const U pad_values[4] = {
      cfg.paddingParams.paddingValueCh0, cfg.paddingParams.paddingValueCh1,
      cfg.paddingParams.paddingValueCh2, cfg.paddingParams.paddingValueCh3};
  const auto& d = cfg.dtcParams;
  const int mean[3] = {d.dtcMeanCh0, d.dtcMeanCh1, d.dtcMeanCh2};
  const double mins[3] = {double(float(d.dtcMinCh0)),
                          double(float(d.dtcMinCh1)),
                          double(float(d.dtcMinCh2))};
  const double vars[3] = {double(float(d.dtcVarCh0)),
                          double(float(d.dtcVarCh1)),
                          double(float(d.dtcVarCh2))};
  const uint32_t mode = cfg.paddingParams.paddingMode;
  // Where output row/column o of an edge-padded axis reads from.
  const auto source = [&](int64_t v, int64_t n, int64_t before,
                          int64_t after) -> int64_t {
    if (v >= 0 && v < n) return v;
    if (mode == 1) return v < 0 ? 0 : n - 1;
    if (mode == 2) return v < 0 ? before + v : v - after;
    return v < 0 ? -v - 1 : 2 * n - 1 - v;  // mode 3: the mirror image
  };
  std::vector<uint16_t> out(size_t{ow} * oh * per_pixel);
  for (uint32_t oy = 0; oy < oh; ++oy) {
    for (uint32_t ox = 0; ox < ow; ++ox) {
      uint16_t* px = &out[(size_t{oy} * ow + ox) * per_pixel];
      const int64_t y = int64_t{oy} - lp.topPadSize;
      const int64_t x = int64_t{ox} - lp.leftPadSize;
      const bool inside = y >= 0 && y < h && x >= 0 && x < w;
      if (!inside && mode == 0) {
        for (uint32_t c = 0; c < per_pixel; ++c) {
          px[c] = c < 4 ? bits(pad_values[c])
                        : bits(cfg.cPaddingParams.cPaddingValue);
        }
        continue;
      }
      const int64_t sy = source(y, h, lp.topPadSize, lp.botPadSize);
      const int64_t sx = source(x, w, lp.leftPadSize, lp.rightPadSize);
      std::vector<int> ch = SourcePixel(
          im, static_cast<uint32_t>(lp.vertStartPos + sy),
          static_cast<uint32_t>(lp.horizStartPos + sx), cfg.swapParams);
      if (cfg.cscParams.isEnableCsc) {
        ch = Csc(ch, cfg.cscParams, im.format == AippInputFormat::YUV420SP_U8);
      }
      for (uint32_t c = 0; c < per_pixel; ++c) {
        if (c >= real) {
          px[c] = bits(cfg.cPaddingParams.cPaddingValue);
        } else if (kHalf) {
          const double shifted =
              HalfOf(HalfBitsOf(double(ch[c] - mean[c]) - mins[c]));
          px[c] = HalfBitsOf(shifted * vars[c]);
        } else {
          const int v = std::min(127, std::max(-128, ch[c] - mean[c]));
          px[c] = static_cast<uint8_t>(static_cast<int8_t>(v));
        }
      }
    }
  }
  return out;
}

// ---- running it ------------------------------------------------------------

// Runs SetAippFunctions and LoadImageToLocal on `im` into an A1 buffer; the
// result's elements as bits (as many as the reference has).
template <typename U>
std::vector<uint16_t> Load(Image& im, const AippParams<U>& cfg,
                           const LoadImageToLocalParams& lp, size_t elems) {
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  pipe.InitBuffer(a1, 256 * 1024);
  const LocalTensor<U> dst = a1.Get<U>();
  GlobalTensor<uint8_t> y;
  y.SetGlobalBuffer(im.y.data(), im.y.size());
  if (im.format == AippInputFormat::YUV420SP_U8) {
    GlobalTensor<uint8_t> uv;
    uv.SetGlobalBuffer(im.uv.data(), im.uv.size());
    SetAippFunctions(y, uv, im.format, cfg);
  } else {
    SetAippFunctions(y, im.format, cfg);
  }
  LoadImageToLocal(dst, lp);
  std::vector<uint16_t> got(elems);
  const auto* bytes = reinterpret_cast<const uint8_t*>(dst.GetPhyAddr());
  for (size_t i = 0; i < elems; ++i) {
    std::memcpy(&got[i], bytes + i * sizeof(U), sizeof(U));
  }
  return got;
}

LoadImageToLocalParams Window(uint16_t w, uint16_t h, uint16_t x0, uint16_t y0,
                              uint16_t src_w) {
  LoadImageToLocalParams lp;
  lp.horizSize = w;
  lp.vertSize = h;
  lp.horizStartPos = x0;
  lp.vertStartPos = y0;
  lp.srcHorizSize = src_w;
  return lp;
}

template <typename U>
void ExpectMatches(Image& im, const AippParams<U>& cfg,
                   const LoadImageToLocalParams& lp) {
  const std::vector<uint16_t> want = Reference(im, cfg, lp);
  const std::vector<uint16_t> got = Load(im, cfg, lp, want.size());
  int shown = 0;
  for (size_t i = 0; i < want.size() && shown < 5; ++i) {
    if (got[i] != want[i]) {
      ADD_FAILURE() << "element " << i << ": got 0x" << std::hex << got[i]
                    << ", want 0x" << want[i];
      ++shown;
    }
  }
}

// The BT.601 matrices (1/256 units) both directions use.
AscendC::AippColorSpaceConvParams YuvToRgb() {
  AscendC::AippColorSpaceConvParams p;
  p.isEnableCsc = true;
  p.cscMatrixR0C0 = 298;
  p.cscMatrixR0C2 = 409;
  p.cscMatrixR1C0 = 298;
  p.cscMatrixR1C1 = -100;
  p.cscMatrixR1C2 = -208;
  p.cscMatrixR2C0 = 298;
  p.cscMatrixR2C1 = 516;
  p.cscBiasOut0 = 16;
  p.cscBiasOut1 = 128;
  p.cscBiasOut2 = 128;
  return p;
}

AscendC::AippColorSpaceConvParams RgbToYuv() {
  AscendC::AippColorSpaceConvParams p;
  p.isEnableCsc = true;
  p.cscMatrixR0C0 = 66;
  p.cscMatrixR0C1 = 129;
  p.cscMatrixR0C2 = 25;
  p.cscMatrixR1C0 = -38;
  p.cscMatrixR1C1 = -74;
  p.cscMatrixR1C2 = 112;
  p.cscMatrixR2C0 = 112;
  p.cscMatrixR2C1 = -94;
  p.cscMatrixR2C2 = -18;
  p.cscBiasIn0 = 16;
  p.cscBiasIn1 = 128;
  p.cscBiasIn2 = 128;
  return p;
}

// ---- formats and conversions ---------------------------------------------

TEST_F(AippTest, Rgb888IntoHalfWithMeanMinVarAndChannelsTo32Bytes) {
  Image im = RandomImage(AippInputFormat::RGB888_U8, 10, 7, 1);
  AippParams<half> cfg;
  cfg.dtcParams.dtcMeanCh0 = 120;
  cfg.dtcParams.dtcMeanCh1 = 7;
  cfg.dtcParams.dtcMeanCh2 = 250;
  cfg.dtcParams.dtcMinCh0 = half(-3.25f);
  cfg.dtcParams.dtcMinCh1 = half(0.1f);  // inexact: the subtraction rounds
  cfg.dtcParams.dtcMinCh2 = half(-128.0f);
  cfg.dtcParams.dtcVarCh0 = half(1.0f / 255);
  cfg.dtcParams.dtcVarCh1 = half(0.0173f);
  cfg.dtcParams.dtcVarCh2 = half(3.0f);
  cfg.cPaddingParams.cPaddingValue = half(-1.5f);
  ExpectMatches(im, cfg, Window(6, 4, 2, 3, 10));
}

TEST_F(AippTest, Rgb888IntoInt8SaturatesAndSwapsRb) {
  Image im = RandomImage(AippInputFormat::RGB888_U8, 8, 4, 2);
  AippParams<int8_t> cfg;
  cfg.swapParams.isSwapRB = true;
  cfg.dtcParams.dtcMeanCh1 = 128;  // channel 0: 128..255 saturate to 127
  cfg.dtcParams.dtcMeanCh2 = 255;  // channel 2: nothing below -128
  cfg.cPaddingParams.cPaddingMode = 1;
  cfg.cPaddingParams.cPaddingValue = int8_t{-7};
  ExpectMatches(im, cfg, Window(8, 4, 0, 0, 8));
  // Channel 0 of pixel 0 is the source's B, less mean 0, saturated.
  const int b = im.y[2];
  const std::vector<uint16_t> got = Load(im, cfg, Window(8, 4, 0, 0, 8), 4);
  EXPECT_EQ(static_cast<int8_t>(got[0]), std::min(b, 127));
  EXPECT_EQ(static_cast<int8_t>(got[3]), -7);
}

TEST_F(AippTest, Xrgb8888DropsTheFourthChannelAndMovesX) {
  Image im = RandomImage(AippInputFormat::XRGB8888_U8, 6, 5, 3);
  AippParams<int8_t> cfg;
  cfg.dtcParams.dtcMeanCh0 = 100;
  cfg.dtcParams.dtcMeanCh1 = 50;
  cfg.dtcParams.dtcMeanCh2 = 200;
  ExpectMatches(im, cfg, Window(4, 3, 2, 1, 6));  // XRGB: X stays first
  cfg.swapParams.isSwapAX = true;
  ExpectMatches(im, cfg, Window(4, 3, 2, 1, 6));
  cfg.swapParams.isSwapRB = true;
  ExpectMatches(im, cfg, Window(4, 3, 2, 1, 6));
  AippParams<half> to_half;
  to_half.swapParams.isSwapAX = true;
  to_half.dtcParams.dtcVarCh1 = half(0.5f);
  ExpectMatches(im, to_half, Window(6, 5, 0, 0, 6));
}

TEST_F(AippTest, Yuv400HasOneChannel) {
  Image im = RandomImage(AippInputFormat::YUV400_U8, 9, 6, 4);
  AippParams<int8_t> cfg;
  cfg.dtcParams.dtcMeanCh0 = 77;
  cfg.cPaddingParams.cPaddingValue = int8_t{5};
  ExpectMatches(im, cfg, Window(5, 4, 4, 1, 9));
  AippParams<half> to_half;
  to_half.dtcParams.dtcMeanCh0 = 3;
  to_half.dtcParams.dtcVarCh0 = half(1.0f / 64);
  to_half.cPaddingParams.cPaddingMode = 1;
  ExpectMatches(im, to_half, Window(9, 6, 0, 0, 9));
}

TEST_F(AippTest, Yuv420spSharesOneUvPairPerTwoByTwoBlock) {
  Image im = RandomImage(AippInputFormat::YUV420SP_U8, 8, 6, 5);
  AippParams<int8_t> cfg;
  cfg.dtcParams.dtcMeanCh1 = 128;
  cfg.dtcParams.dtcMeanCh2 = 128;
  ExpectMatches(im, cfg, Window(5, 3, 2, 2, 8));  // odd width and height
  cfg.swapParams.isSwapUV = true;
  ExpectMatches(im, cfg, Window(6, 4, 0, 2, 8));
}

TEST_F(AippTest, ColorSpaceConversionBothWays) {
  Image yuv = RandomImage(AippInputFormat::YUV420SP_U8, 12, 8, 6);
  AippParams<half> to_rgb;
  to_rgb.cscParams = YuvToRgb();
  to_rgb.cscParams.cscBiasIn0 = 99;  // not used from YUV
  to_rgb.dtcParams.dtcVarCh0 = half(1.0f / 255);
  to_rgb.dtcParams.dtcVarCh1 = half(1.0f / 255);
  to_rgb.dtcParams.dtcVarCh2 = half(1.0f / 255);
  ExpectMatches(yuv, to_rgb, Window(10, 6, 2, 2, 12));
  to_rgb.swapParams.isSwapUV = true;
  ExpectMatches(yuv, to_rgb, Window(10, 6, 2, 2, 12));

  Image rgb = RandomImage(AippInputFormat::RGB888_U8, 7, 5, 7);
  AippParams<int8_t> to_yuv;
  to_yuv.cscParams = RgbToYuv();
  to_yuv.cscParams.cscBiasOut1 = 99;  // not used from RGB
  to_yuv.dtcParams.dtcMeanCh0 = 16;
  to_yuv.dtcParams.dtcMeanCh1 = 128;
  to_yuv.dtcParams.dtcMeanCh2 = 128;
  to_yuv.swapParams.isSwapRB = true;  // a BGR source
  ExpectMatches(rgb, to_yuv, Window(7, 5, 0, 0, 7));

  // A known pixel: white RGB (255, 255, 255) is Y 235, U 128, V 128 (the
  // matrix's rows sum to 220, 0 and 0 in 1/256 units: 219.14.. → 219 + 16).
  Image white{
      AippInputFormat::RGB888_U8, 2, 2, std::vector<uint8_t>(12, 255), {}};
  AippParams<int8_t> plain;
  plain.cscParams = RgbToYuv();
  plain.dtcParams.dtcMeanCh0 = 128;
  plain.dtcParams.dtcMeanCh1 = 128;
  plain.dtcParams.dtcMeanCh2 = 128;
  const std::vector<uint16_t> got =
      Load(white, plain, Window(2, 2, 0, 0, 2), 3);
  EXPECT_EQ(static_cast<int8_t>(got[0]), 235 - 128);
  EXPECT_EQ(static_cast<int8_t>(got[1]), 0);
  EXPECT_EQ(static_cast<int8_t>(got[2]), 0);
}

// ---- padding ---------------------------------------------------------------

TEST_F(AippTest, ConstantPaddingLeftAndRight) {
  Image im = RandomImage(AippInputFormat::RGB888_U8, 8, 4, 8);
  AippParams<half> cfg;
  cfg.paddingParams.paddingValueCh0 = half(1.0f);
  cfg.paddingParams.paddingValueCh1 = half(2.0f);
  cfg.paddingParams.paddingValueCh2 = half(3.0f);
  cfg.paddingParams.paddingValueCh3 = half(4.0f);
  cfg.cPaddingParams.cPaddingValue = half(9.0f);
  LoadImageToLocalParams lp = Window(4, 3, 2, 1, 8);
  lp.leftPadSize = 3;
  lp.rightPadSize = 32;
  ExpectMatches(im, cfg, lp);
  AippParams<int8_t> small;
  small.cPaddingParams.cPaddingMode = 1;
  small.paddingParams.paddingValueCh3 = int8_t{-3};
  lp.leftPadSize = 1;
  lp.rightPadSize = 0;
  ExpectMatches(im, small, lp);
}

TEST_F(AippTest, EdgePaddingModesAtEveryEdge) {
  Image im = RandomImage(AippInputFormat::RGB888_U8, 9, 7, 9);
  for (uint32_t mode = 1; mode <= 3; ++mode) {
    SCOPED_TRACE(mode);
    AippParams<int8_t> cfg;
    cfg.paddingParams.paddingMode = mode;
    cfg.cPaddingParams.cPaddingMode = 1;
    LoadImageToLocalParams lp = Window(5, 4, 2, 2, 9);
    lp.topPadSize = 2;
    lp.botPadSize = 4;  // as tall as the window
    lp.leftPadSize = 5;
    lp.rightPadSize = 3;
    ExpectMatches(im, cfg, lp);
  }
  // Mode 1 by hand: the corner takes the window's corner pixel.
  AippParams<int8_t> nearest;
  nearest.paddingParams.paddingMode = 1;
  nearest.cPaddingParams.cPaddingMode = 1;
  LoadImageToLocalParams lp = Window(2, 2, 0, 0, 9);
  lp.topPadSize = 1;
  lp.leftPadSize = 1;
  const std::vector<uint16_t> got = Load(im, nearest, lp, 4);
  EXPECT_EQ(static_cast<int8_t>(got[0]), std::min<int>(im.y[0], 127));
  // Mode 3 by hand: left pad column 0 of 2 mirrors window column 1.
  AippParams<int8_t> mirror = nearest;
  mirror.paddingParams.paddingMode = 3;
  lp = Window(2, 2, 0, 0, 9);
  lp.leftPadSize = 2;
  const std::vector<uint16_t> row = Load(im, mirror, lp, 4);
  EXPECT_EQ(static_cast<int8_t>(row[0]), std::min<int>(im.y[3], 127));
}

TEST_F(AippTest, Yuv420spPaddedIntoHalf) {
  Image im = RandomImage(AippInputFormat::YUV420SP_U8, 10, 8, 10);
  AippParams<half> cfg;
  cfg.paddingParams.paddingMode = 3;
  cfg.cscParams = YuvToRgb();
  LoadImageToLocalParams lp = Window(6, 4, 4, 4, 10);
  lp.topPadSize = 3;
  lp.leftPadSize = 6;
  lp.rightPadSize = 1;
  ExpectMatches(im, cfg, lp);
}

TEST_F(AippTest, SingleLineReadsOneRow) {
  Image im = RandomImage(AippInputFormat::RGB888_U8, 8, 6, 11);
  AippParams<int8_t> cfg;
  cfg.singleLineParams.isSingleLineCopy = true;
  cfg.cPaddingParams.cPaddingMode = 1;
  LoadImageToLocalParams lp = Window(6, 5, 2, 3, 8);
  ExpectMatches(im, cfg, lp);
  lp.vertSize = 0;  // not used, so not checked
  ExpectMatches(im, cfg, lp);
  cfg.paddingParams.paddingMode = 2;
  lp.topPadSize = 1;
  lp.botPadSize = 1;
  ExpectMatches(im, cfg, lp);
}

TEST_F(AippTest, TheRegistersLastUntilTheNextCall) {
  Image im = RandomImage(AippInputFormat::YUV400_U8, 4, 4, 12);
  AippParams<int8_t> cfg;
  cfg.cPaddingParams.cPaddingMode = 1;
  const std::vector<uint16_t> first = Load(im, cfg, Window(4, 4, 0, 0, 4), 64);
  // A second LoadImageToLocal without SetAippFunctions reads the same image.
  TPipe pipe;
  TBuf<TPosition::B1> b1;
  pipe.InitBuffer(b1, 1024);
  LoadImageToLocal(b1.Get<int8_t>(), Window(4, 4, 0, 0, 4));
  const auto* bytes =
      reinterpret_cast<const uint8_t*>(b1.Get<int8_t>().GetPhyAddr());
  for (size_t i = 0; i < first.size(); ++i) ASSERT_EQ(bytes[i], first[i]);
}

// ---- rules -----------------------------------------------------------------

TEST_F(AippTest, SetAippFunctionsRules) {
  std::vector<uint8_t> bytes(64);
  GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(bytes.data(), bytes.size());
  GlobalTensor<uint8_t> odd;
  odd.SetGlobalBuffer(bytes.data() + 1, 32);
  const auto fails = [&](AippInputFormat f, const AippParams<int8_t>& cfg,
                         const std::string& m) {
    return FailsWith([&] { SetAippFunctions(gm, f, cfg); },
                     "SetAippFunctions: " + m);
  };
  AippParams<int8_t> cfg;
  EXPECT_TRUE(fails(static_cast<AippInputFormat>(2), cfg,
                    "format 2 is not an AippInputFormat"));
  EXPECT_TRUE(fails(AippInputFormat::YUV420SP_U8, cfg,
                    "format YUV420SP_U8 needs the UV plane"));
  EXPECT_TRUE(FailsWith(
      [&] { SetAippFunctions(odd, gm, AippInputFormat::YUV420SP_U8, cfg); },
      "is not a multiple of 2 bytes; a YUV420SP_U8 image's src0 must be "
      "2-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] { SetAippFunctions(gm, odd, AippInputFormat::YUV420SP_U8, cfg); },
      "a YUV420SP_U8 image's src1 must be 2-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] { SetAippFunctions(odd, AippInputFormat::XRGB8888_U8, cfg); },
      "a XRGB8888_U8 image's src0 must be 4-byte aligned"));
  SetAippFunctions(odd, AippInputFormat::RGB888_U8, cfg);  // no rule
  cfg.paddingParams.paddingMode = 4;
  EXPECT_TRUE(fails(AippInputFormat::RGB888_U8, cfg,
                    "config.paddingParams.paddingMode 4 is out of range [0, "
                    "3]"));
  cfg = {};
  cfg.cPaddingParams.cPaddingMode = 2;
  EXPECT_TRUE(fails(AippInputFormat::RGB888_U8, cfg,
                    "config.cPaddingParams.cPaddingMode 2 is out of range "
                    "[0, 1]"));
  cfg = {};
  cfg.dtcParams.dtcRoundMode = 1;
  EXPECT_TRUE(fails(AippInputFormat::RGB888_U8, cfg,
                    "config.dtcParams.dtcRoundMode is 1; only Atlas 200I/500 "
                    "A2 can set it, Atlas A2/A3 takes 0"));
  cfg = {};
  cfg.swapParams.isSwapRB = true;
  EXPECT_TRUE(fails(AippInputFormat::YUV400_U8, cfg,
                    "config.swapParams.isSwapRB is true for a YUV400_U8 "
                    "image; it applies to RGB888_U8 and XRGB8888_U8"));
  cfg = {};
  cfg.swapParams.isSwapUV = true;
  EXPECT_TRUE(fails(AippInputFormat::RGB888_U8, cfg,
                    "config.swapParams.isSwapUV is true for a RGB888_U8 "
                    "image; it applies to YUV420SP_U8"));
  cfg = {};
  cfg.swapParams.isSwapAX = true;
  EXPECT_TRUE(fails(AippInputFormat::RGB888_U8, cfg,
                    "config.swapParams.isSwapAX is true for a RGB888_U8 "
                    "image; it applies to XRGB8888_U8"));
  cfg = {};
  cfg.cscParams.isEnableCsc = true;
  EXPECT_TRUE(fails(AippInputFormat::YUV400_U8, cfg,
                    "config.cscParams.isEnableCsc is true for a YUV400_U8 "
                    "image; the color-space conversion needs three channels"));
  AippParams<uint8_t> unconverted;
  EXPECT_TRUE(FailsWith(
      [&] { SetAippFunctions(gm, AippInputFormat::RGB888_U8, unconverted); },
      "SetAippFunctions: U is uint8_t (no data-type conversion); "
      "LoadImageToLocal on Atlas A2/A3 writes int8_t or half only"));
  GlobalTensor<uint8_t> none;
  EXPECT_TRUE(FailsWith(
      [&] { SetAippFunctions(none, AippInputFormat::RGB888_U8, cfg); },
      "SetAippFunctions: src0 GlobalTensor has no buffer"));
}

TEST_F(AippTest, LoadImageToLocalRules) {
  std::vector<uint8_t> bytes(64 * 64 * 3);
  GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(bytes.data(), bytes.size());
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  pipe.InitBuffer(a1, 4096);
  pipe.InitBuffer(a2, 1024);
  const LocalTensor<int8_t> dst = a1.Get<int8_t>();
  const std::string api = "LoadImageToLocal<int8_t>: ";
  EXPECT_TRUE(FailsWith([&] { LoadImageToLocal(dst, Window(4, 4, 0, 0, 8)); },
                        api + "no image to load: SetAippFunctions was not "
                              "called in this block"));
  AippParams<int8_t> cfg;
  cfg.cPaddingParams.cPaddingMode = 1;
  SetAippFunctions(gm, AippInputFormat::RGB888_U8, cfg);
  const auto fails = [&](const LoadImageToLocalParams& lp,
                         const std::string& m) {
    return FailsWith([&] { LoadImageToLocal(dst, lp); }, api + m);
  };
  EXPECT_TRUE(fails(Window(1, 4, 0, 0, 8),
                    "loadDataParams.horizSize 1 is out of range [2, 4095]"));
  EXPECT_TRUE(fails(Window(4, 4096, 0, 0, 8),
                    "loadDataParams.vertSize 4096 is out of range [2, 4095]"));
  EXPECT_TRUE(fails(Window(4, 4, 4096, 0, 8),
                    "loadDataParams.horizStartPos 4096 is out of range"));
  EXPECT_TRUE(fails(Window(4, 4, 0, 5000, 8),
                    "loadDataParams.vertStartPos 5000 is out of range"));
  EXPECT_TRUE(fails(Window(4, 4, 0, 0, 1),
                    "loadDataParams.srcHorizSize 1 is out of range [2, "
                    "4095]"));
  LoadImageToLocalParams lp = Window(4, 4, 0, 0, 8);
  lp.leftPadSize = 33;
  EXPECT_TRUE(fails(lp,
                    "loadDataParams.leftPadSize 33 is out of range [0, "
                    "32]"));
  EXPECT_TRUE(fails(Window(4, 4, 1, 0, 8),
                    "loadDataParams.horizStartPos 1 is odd; it must be even "
                    "for a RGB888_U8 image"));
  EXPECT_TRUE(fails(Window(6, 4, 4, 0, 8),
                    "the window's columns 4..9 (loadDataParams.horizStartPos "
                    "+ loadDataParams.horizSize) reach past the source's 8 "
                    "columns"));
  lp = Window(4, 4, 0, 0, 8);
  lp.topPadSize = 1;
  EXPECT_TRUE(fails(lp,
                    "loadDataParams.topPadSize 1 and loadDataParams."
                    "botPadSize 0 with padding mode 0 (constant); that mode "
                    "pads left and right only"));
  EXPECT_TRUE(fails(Window(40, 30, 0, 0, 64),
                    "the padded image reaches 4800 bytes into dst, past the "
                    "end of its 4096 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadImageToLocal(a2.Get<int8_t>(), Window(4, 4, 0, 0, 8)); },
      "dst LocalTensor is at position A2; it must be at A1 or B1 (L1)"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadImageToLocal(a1.Get<uint8_t>(), Window(4, 4, 0, 0, 8)); },
      "LoadImageToLocal<uint8_t>: dst is of uint8_t; LoadImageToLocal on "
      "Atlas A2/A3 writes int8_t or half only"));
  EXPECT_TRUE(FailsWith(
      [&] { LoadImageToLocal(a1.Get<half>(), Window(4, 4, 0, 0, 8)); },
      "LoadImageToLocal<half>: dst is of half, but SetAippFunctions set the "
      "output type U to int8_t; the two must be the same"));
  // The source's end: a GlobalTensor of 64 · 64 · 3 bytes ends at row 63.
  EXPECT_TRUE(fails(Window(4, 4, 0, 62, 64),
                    "the access reaches element 12492 of src0, past the end "
                    "of the GlobalTensor of 12288 elements"));

  cfg.paddingParams.paddingMode = 2;
  SetAippFunctions(gm, AippInputFormat::RGB888_U8, cfg);
  lp = Window(4, 3, 0, 0, 8);
  lp.rightPadSize = 5;
  EXPECT_TRUE(fails(lp,
                    "loadDataParams.rightPadSize 5 is more than the window's "
                    "4 (loadDataParams.horizSize); padding mode 2 copies its "
                    "pad from the cropped image"));
  lp = Window(4, 3, 0, 0, 8);
  lp.botPadSize = 4;
  EXPECT_TRUE(fails(lp,
                    "loadDataParams.botPadSize 4 is more than the window's 3 "
                    "(loadDataParams.vertSize)"));

  std::vector<uint8_t> uv(64 * 32);
  GlobalTensor<uint8_t> uv_gm;
  uv_gm.SetGlobalBuffer(uv.data(), uv.size());
  SetAippFunctions(gm, uv_gm, AippInputFormat::YUV420SP_U8, cfg);
  EXPECT_TRUE(fails(Window(4, 4, 0, 1, 8),
                    "loadDataParams.vertStartPos 1 is odd; it must be even "
                    "for a YUV420SP_U8 image"));
  EXPECT_TRUE(fails(Window(4, 4, 0, 0, 9),
                    "loadDataParams.srcHorizSize 9 is odd; it must be even "
                    "for a YUV420SP_U8 image"));
  // The UV plane holds 32 rows of 64 bytes: rows 62..65 of the image need
  // UV row 32.
  GlobalTensor<uint8_t> y_plane;
  y_plane.SetGlobalBuffer(bytes.data(), 64 * 66);
  SetAippFunctions(y_plane, uv_gm, AippInputFormat::YUV420SP_U8, cfg);
  EXPECT_TRUE(fails(Window(4, 4, 0, 62, 64),
                    "the access reaches element 2052 of src1, past the end "
                    "of the GlobalTensor of 2048 elements"));
  GlobalTensor<uint8_t> none;
  EXPECT_TRUE(FailsWith(
      [&] { SetAippFunctions(gm, none, AippInputFormat::YUV420SP_U8, cfg); },
      "SetAippFunctions: src1 GlobalTensor has no buffer"));
}

TEST_F(AippTest, VectorCoreRefused) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  std::vector<uint8_t> bytes(64);
  GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(bytes.data(), bytes.size());
  EXPECT_TRUE(FailsWith(
      [&] {
        SetAippFunctions(gm, AippInputFormat::RGB888_U8, AippParams<half>{});
      },
      "SetAippFunctions: runs on the cube unit; this kernel runs on a vector "
      "core"));
}

}  // namespace
