// cube_aipp.cc — the cube core's AIPP image loads (normgrad_ascendc/cube/
// cube_aipp.h, docs/cube.md "AIPP image loads"): SetAippFunctions checks the
// preprocessing and keeps it in the core's AIPP registers; LoadImageToLocal
// crops the window, and for each pixel reads its channels, swaps them,
// converts the color space, converts the data type, pads the image (spatial
// padding) and pads the channels, then writes the pixels into L1 row after
// row, each pixel's channels together.
#include "normgrad_ascendc/cube/cube_aipp.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

const AippSizeRanges kLoadImageToLocalRanges = {
    2,
    4095,
    "loadDataParams.horizSize",
    "loadDataParams.vertSize",
    "loadDataParams.horizStartPos",
    "loadDataParams.vertStartPos",
    "loadDataParams.srcHorizSize",
    "loadDataParams.topPadSize",
    "loadDataParams.botPadSize",
    "loadDataParams.leftPadSize",
    "loadDataParams.rightPadSize",
};

namespace {

using AscendC::AippInputFormat;
using AscendC::TPosition;

constexpr const char* kSetApi = "SetAippFunctions";
constexpr uint32_t kMaxPad = 32;

const char* FormatName(uint8_t format) {
  switch (static_cast<AippInputFormat>(format)) {
    case AippInputFormat::YUV420SP_U8:
      return "YUV420SP_U8";
    case AippInputFormat::XRGB8888_U8:
      return "XRGB8888_U8";
    case AippInputFormat::RGB888_U8:
      return "RGB888_U8";
    case AippInputFormat::YUV400_U8:
      return "YUV400_U8";
  }
  return nullptr;
}

// Bytes of one pixel in the first plane.
uint32_t PixelBytes(AippInputFormat format) {
  switch (format) {
    case AippInputFormat::XRGB8888_U8:
      return 4;
    case AippInputFormat::RGB888_U8:
      return 3;
    default:
      return 1;
  }
}

// Channels a pixel has after the read (XRGB8888 drops its fourth).
uint32_t ImageChannels(AippInputFormat format) {
  return format == AippInputFormat::YUV400_U8 ? 1 : 3;
}

// A double rounded to the nearest binary16 value, ties to even; past the
// largest finite half, ±inf. Returns the half's bits.
uint16_t RoundToHalf(double v) {
  if (std::isnan(v)) return 0x7e00;
  const double mag = std::fabs(v);
  double rounded = 0;
  if (mag != 0 && !std::isinf(mag)) {
    int e = 0;
    std::frexp(mag, &e);  // mag = m · 2^e, m in [0.5, 1)
    const int exponent = std::max(e - 1, -14);
    const double quantum = std::ldexp(1.0, exponent - 10);
    rounded = std::nearbyint(mag / quantum) * quantum;  // ties to even
  } else {
    rounded = mag;
  }
  const float f = rounded >= 65520.0 ? INFINITY : static_cast<float>(rounded);
  return normgrad::bits::FloatToHalf(v < 0 ? -f : f);
}

double HalfValue(uint16_t bits) {
  return static_cast<double>(normgrad::bits::HalfToFloat(bits));
}

GmSide ImageSide(const AippRegisters::Image& image) {
  return {const_cast<uint8_t*>(image.data), image.elems, image.sized,
          image.base};
}

AippRegisters::Image ImageOf(const GmSide& gm) {
  return {gm.data, gm.elems, gm.sized, gm.base};
}

void CheckImageAlignment(const char* which, const GmSide& gm,
                         const char* format, uint32_t align) {
  const auto at = reinterpret_cast<uintptr_t>(gm.data);
  if (at % align != 0) {
    Fail(
        "%s: %s starts at GM address 0x%llx, which is not a multiple of %u "
        "bytes; a %s image's %s must be %u-byte aligned",
        kSetApi, which, static_cast<unsigned long long>(at), align, format,
        which, align);
  }
}

void CheckSwapFits(bool set, const char* flag, const char* format, bool applies,
                   const char* formats) {
  if (set && !applies) {
    Fail("%s: config.swapParams.%s is true for a %s image; it applies to %s",
         kSetApi, flag, format, formats);
  }
}

// Where a padded row or column `v` of an image `n` long reads from in padding
// mode 1, 2 or 3 (`before` and `after` the pad sizes on each side).
uint32_t PaddedIndex(int64_t v, uint32_t n, uint32_t before, uint32_t after,
                     uint32_t mode) {
  if (v >= 0 && v < n) return static_cast<uint32_t>(v);
  const int64_t last = int64_t{n} - 1;
  int64_t at = 0;
  switch (mode) {
    case 1:  // the nearest row / column
      at = v < 0 ? 0 : last;
      break;
    case 2:  // the block of the pad's size at the same edge, as it is
      at = v < 0 ? v + before : v - after;
      break;
    default:  // that block mirrored about the edge
      at = v < 0 ? -1 - v : 2 * int64_t{n} - 1 - v;
      break;
  }
  return static_cast<uint32_t>(at);
}

// One source pixel's channels after the read, the swaps and the color-space
// conversion.
struct Pixel {
  int32_t ch[3] = {};
};

class ImageReader {
 public:
  ImageReader(const AippRegisters& regs, uint32_t stride, uint32_t row0,
              uint32_t col0)
      : regs_(regs),
        format_(static_cast<AippInputFormat>(regs.format)),
        stride_(stride),
        row0_(row0),
        col0_(col0) {}

  // The pixel at row y and column x of the window.
  Pixel Read(uint32_t y, uint32_t x) const {
    const uint64_t sy = row0_ + y;
    const uint64_t sx = col0_ + x;
    const uint8_t* y_plane = regs_.src0.data;
    Pixel p;
    switch (format_) {
      case AippInputFormat::YUV400_U8:
        p.ch[0] = y_plane[sy * stride_ + sx];
        break;
      case AippInputFormat::RGB888_U8: {
        const uint8_t* at = y_plane + (sy * stride_ + sx) * 3;
        p.ch[0] = at[0];
        p.ch[1] = at[1];
        p.ch[2] = at[2];
        break;
      }
      case AippInputFormat::XRGB8888_U8: {
        const uint8_t* at = y_plane + (sy * stride_ + sx) * 4;
        // isSwapAX moves channel 0 behind the others; the fourth is dropped.
        const uint32_t first = regs_.swap_ax ? 1 : 0;
        for (uint32_t c = 0; c < 3; ++c) p.ch[c] = at[(first + c) % 4];
        break;
      }
      case AippInputFormat::YUV420SP_U8: {
        // One UV pair for each 2 × 2 block of Y.
        const uint8_t* uv = regs_.src1.data + (sy / 2) * stride_ + sx / 2 * 2;
        p.ch[0] = y_plane[sy * stride_ + sx];
        p.ch[1] = uv[regs_.swap_uv ? 1 : 0];
        p.ch[2] = uv[regs_.swap_uv ? 0 : 1];
        break;
      }
    }
    if (regs_.swap_rb) std::swap(p.ch[0], p.ch[2]);
    if (regs_.csc) p = Csc(p);
    return p;
  }

 private:
  // The matrix is in units of 1/256: each output is the integer sum shifted
  // right by 8 (rounding toward −inf), clamped to [0, 255]. RGB → YUV adds
  // cscBiasIn after the matrix; YUV → RGB takes cscBiasOut from the input
  // before it (docs/decisions.md).
  Pixel Csc(const Pixel& in) const {
    const bool from_yuv = format_ == AippInputFormat::YUV420SP_U8;
    Pixel out;
    for (uint32_t r = 0; r < 3; ++r) {
      int64_t sum = 0;
      for (uint32_t c = 0; c < 3; ++c) {
        const int64_t x =
            from_yuv ? in.ch[c] - int64_t{regs_.csc_bias_out[c]} : in.ch[c];
        sum += int64_t{regs_.csc_matrix[r * 3 + c]} * x;
      }
      int64_t v = sum >> 8;
      if (!from_yuv) v += regs_.csc_bias_in[r];
      out.ch[r] = static_cast<int32_t>(std::clamp<int64_t>(v, 0, 255));
    }
    return out;
  }

  const AippRegisters& regs_;
  AippInputFormat format_;
  uint64_t stride_;
  uint32_t row0_;
  uint32_t col0_;
};

// The data-type conversion of channel c's value into the output's bits.
uint16_t ConvertChannel(const AippRegisters& regs, uint32_t c, int32_t value) {
  const int32_t centered = value - regs.dtc_mean[c];
  if (regs.out_bytes == 1) {
    return static_cast<uint8_t>(
        static_cast<int8_t>(std::clamp<int32_t>(centered, -128, 127)));
  }
  // half: (value − mean) is exact; − min and · var each round to half.
  const uint16_t shifted = RoundToHalf(centered - HalfValue(regs.dtc_min[c]));
  return RoundToHalf(HalfValue(shifted) * HalfValue(regs.dtc_var[c]));
}

}  // namespace

void RunSetAippFunctions(const GmSide& src0, const GmSide* src1,
                         const AippSettings& s) {
  if (!CurrentCore().is_cube()) {
    Fail(
        "%s: runs on the cube unit; this kernel runs on a vector core "
        "(declare it __cube__ or KERNEL_TASK_TYPE_DEFAULT("
        "KERNEL_TYPE_AIC_ONLY))",
        kSetApi);
  }
  const uint8_t format_value = static_cast<uint8_t>(s.format);
  const char* format = FormatName(format_value);
  if (format == nullptr) {
    Fail(
        "%s: format %u is not an AippInputFormat (YUV420SP_U8 0, XRGB8888_U8 "
        "1, RGB888_U8 4, YUV400_U8 9)",
        kSetApi, format_value);
  }
  if (s.out_bytes == 1 && std::strcmp(s.out_type, "uint8_t") == 0) {
    Fail(
        "%s: U is uint8_t (no data-type conversion); LoadImageToLocal on "
        "Atlas A2/A3 writes int8_t or half only",
        kSetApi);
  }
  if (src0.data == nullptr) {
    Fail("%s: src0 GlobalTensor has no buffer (call SetGlobalBuffer first)",
         kSetApi);
  }
  const bool yuv420 = s.format == AippInputFormat::YUV420SP_U8;
  if (yuv420) {
    if (src1 == nullptr) {
      Fail(
          "%s: format YUV420SP_U8 needs the UV plane: call the form with "
          "src0 (Y) and src1 (UV)",
          kSetApi);
    }
    if (src1->data == nullptr) {
      Fail("%s: src1 GlobalTensor has no buffer (call SetGlobalBuffer first)",
           kSetApi);
    }
    CheckImageAlignment("src0", src0, format, 2);
    CheckImageAlignment("src1", *src1, format, 2);
  } else if (s.format == AippInputFormat::XRGB8888_U8) {
    CheckImageAlignment("src0", src0, format, 4);
  }
  CheckRange(kSetApi, "config.paddingParams.paddingMode", s.padding_mode, 0, 3);
  CheckRange(kSetApi, "config.cPaddingParams.cPaddingMode", s.c_padding_mode, 0,
             1);
  if (s.dtc.dtcRoundMode != 0) {
    Fail(
        "%s: config.dtcParams.dtcRoundMode is %u; only Atlas 200I/500 A2 "
        "can set it, Atlas A2/A3 takes 0",
        kSetApi, s.dtc.dtcRoundMode);
  }
  const bool rgb = s.format == AippInputFormat::RGB888_U8 ||
                   s.format == AippInputFormat::XRGB8888_U8;
  CheckSwapFits(s.swap.isSwapRB, "isSwapRB", format, rgb,
                "RGB888_U8 and XRGB8888_U8");
  CheckSwapFits(s.swap.isSwapUV, "isSwapUV", format, yuv420, "YUV420SP_U8");
  CheckSwapFits(s.swap.isSwapAX, "isSwapAX", format,
                s.format == AippInputFormat::XRGB8888_U8, "XRGB8888_U8");
  if (s.csc.isEnableCsc && s.format == AippInputFormat::YUV400_U8) {
    Fail(
        "%s: config.cscParams.isEnableCsc is true for a YUV400_U8 image; the "
        "color-space conversion needs three channels (YUV420SP_U8, "
        "XRGB8888_U8 or RGB888_U8)",
        kSetApi);
  }

  AippRegisters& regs = CurrentCore().aipp_registers();
  regs = AippRegisters();
  regs.set = true;
  regs.format = format_value;
  regs.out_type = s.out_type;
  regs.out_bytes = s.out_bytes;
  regs.src0 = ImageOf(src0);
  if (yuv420) regs.src1 = ImageOf(*src1);
  regs.padding_mode = s.padding_mode;
  std::memcpy(regs.padding_value, s.padding_value, sizeof regs.padding_value);
  regs.swap_rb = s.swap.isSwapRB;
  regs.swap_uv = s.swap.isSwapUV;
  regs.swap_ax = s.swap.isSwapAX;
  regs.single_line = s.single_line.isSingleLineCopy;
  const AscendC::AippDataTypeConvParams& d = s.dtc;
  const uint8_t means[3] = {d.dtcMeanCh0, d.dtcMeanCh1, d.dtcMeanCh2};
  const half mins[3] = {d.dtcMinCh0, d.dtcMinCh1, d.dtcMinCh2};
  const half vars[3] = {d.dtcVarCh0, d.dtcVarCh1, d.dtcVarCh2};
  for (uint32_t c = 0; c < 3; ++c) {
    regs.dtc_mean[c] = means[c];
    regs.dtc_min[c] = AippBits(mins[c]);
    regs.dtc_var[c] = AippBits(vars[c]);
  }
  regs.c_padding_mode = s.c_padding_mode;
  regs.c_padding_value = s.c_padding_value;
  const AscendC::AippColorSpaceConvParams& m = s.csc;
  regs.csc = m.isEnableCsc;
  const int16_t matrix[9] = {
      m.cscMatrixR0C0, m.cscMatrixR0C1, m.cscMatrixR0C2,
      m.cscMatrixR1C0, m.cscMatrixR1C1, m.cscMatrixR1C2,
      m.cscMatrixR2C0, m.cscMatrixR2C1, m.cscMatrixR2C2,
  };
  std::memcpy(regs.csc_matrix, matrix, sizeof regs.csc_matrix);
  const uint8_t bias_in[3] = {m.cscBiasIn0, m.cscBiasIn1, m.cscBiasIn2};
  const uint8_t bias_out[3] = {m.cscBiasOut0, m.cscBiasOut1, m.cscBiasOut2};
  std::memcpy(regs.csc_bias_in, bias_in, sizeof bias_in);
  std::memcpy(regs.csc_bias_out, bias_out, sizeof bias_out);
}

void RunLoadImageToLocal(const char* api, const char* type_name,
                         uint32_t elem_bytes, const TensorView& dst,
                         const AscendC::LoadImageToLocalParams& p,
                         const AippSizeRanges& ranges) {
  CheckOperand(api, "dst", dst, {TPosition::A1, TPosition::B1}, "A1 or B1 (L1)",
               32);
  if (std::strcmp(type_name, "uint8_t") == 0) {
    Fail(
        "%s: dst is of uint8_t; LoadImageToLocal on Atlas A2/A3 writes int8_t "
        "or half only",
        api);
  }
  const AippRegisters& regs = CurrentCore().aipp_registers();
  if (!regs.set) {
    Fail(
        "%s: no image to load: SetAippFunctions was not called in this "
        "block",
        api);
  }
  if (elem_bytes != regs.out_bytes ||
      std::strcmp(type_name, regs.out_type) != 0) {
    Fail(
        "%s: dst is of %s, but SetAippFunctions set the output type U to "
        "%s; the two must be the same",
        api, type_name, regs.out_type);
  }
  const auto format = static_cast<AippInputFormat>(regs.format);
  const char* format_name = FormatName(regs.format);
  const bool yuv420 = format == AippInputFormat::YUV420SP_U8;
  const uint32_t lo = ranges.size_lo;
  const uint32_t hi = ranges.size_hi;
  CheckRange(api, ranges.horiz_size, p.horizSize, lo, hi);
  if (!regs.single_line) CheckRange(api, ranges.vert_size, p.vertSize, lo, hi);
  CheckRange(api, ranges.horiz_start, p.horizStartPos, 0, 4095);
  CheckRange(api, ranges.vert_start, p.vertStartPos, 0, 4095);
  CheckRange(api, ranges.src_horiz_size, p.srcHorizSize, lo, hi);
  CheckRange(api, ranges.top_pad, p.topPadSize, 0, kMaxPad);
  CheckRange(api, ranges.bot_pad, p.botPadSize, 0, kMaxPad);
  CheckRange(api, ranges.left_pad, p.leftPadSize, 0, kMaxPad);
  CheckRange(api, ranges.right_pad, p.rightPadSize, 0, kMaxPad);
  if (p.horizStartPos % 2 != 0) {
    Fail("%s: %s %u is odd; it must be even for a %s image", api,
         ranges.horiz_start, p.horizStartPos, format_name);
  }
  if (yuv420 && p.vertStartPos % 2 != 0) {
    Fail("%s: %s %u is odd; it must be even for a YUV420SP_U8 image", api,
         ranges.vert_start, p.vertStartPos);
  }
  if (yuv420 && p.srcHorizSize % 2 != 0) {
    Fail("%s: %s %u is odd; it must be even for a YUV420SP_U8 image", api,
         ranges.src_horiz_size, p.srcHorizSize);
  }
  if (uint32_t{p.horizStartPos} + p.horizSize > p.srcHorizSize) {
    Fail(
        "%s: the window's columns %u..%u (%s + %s) reach past the source's "
        "%u columns (%s)",
        api, p.horizStartPos, p.horizStartPos + p.horizSize - 1,
        ranges.horiz_start, ranges.horiz_size, p.srcHorizSize,
        ranges.src_horiz_size);
  }
  const uint32_t width = p.horizSize;
  const uint32_t height = regs.single_line ? 1 : p.vertSize;
  if (regs.padding_mode == 0 && (p.topPadSize != 0 || p.botPadSize != 0)) {
    Fail(
        "%s: %s %u and %s %u with padding mode 0 (constant); that mode pads "
        "left and right only",
        api, ranges.top_pad, p.topPadSize, ranges.bot_pad, p.botPadSize);
  }
  if (regs.padding_mode >= 2) {
    const struct {
      const char* name;
      uint32_t pad;
      uint32_t limit;
      const char* of;
    } sides[] = {
        {ranges.left_pad, p.leftPadSize, width, ranges.horiz_size},
        {ranges.right_pad, p.rightPadSize, width, ranges.horiz_size},
        {ranges.top_pad, p.topPadSize, height, ranges.vert_size},
        {ranges.bot_pad, p.botPadSize, height, ranges.vert_size},
    };
    for (const auto& side : sides) {
      if (side.pad > side.limit) {
        Fail(
            "%s: %s %u is more than the window's %u (%s%s); padding mode %u "
            "copies its pad from the cropped image",
            api, side.name, side.pad, side.limit, side.of,
            regs.single_line && side.limit == height ? ", one row read" : "",
            regs.padding_mode);
      }
    }
  }
  const uint32_t out_w = p.leftPadSize + width + p.rightPadSize;
  const uint32_t out_h = p.topPadSize + height + p.botPadSize;
  const uint32_t pixel_elems =
      regs.c_padding_mode == 0 ? 32 / regs.out_bytes : 4;
  const uint64_t out_bytes =
      uint64_t{out_w} * out_h * pixel_elems * regs.out_bytes;
  CheckFits(api, "dst", out_bytes, dst.bytes, "the padded image");

  // The source bytes the window reads.
  const uint32_t row0 = p.vertStartPos;
  const uint32_t col0 = p.horizStartPos;
  const uint32_t bpp = PixelBytes(format);
  const uint64_t stride = p.srcHorizSize;
  const uint64_t last_row = row0 + height - 1;
  CheckGmSide(api, "src0", ImageSide(regs.src0), 1,
              (last_row * stride + col0 + width) * bpp, false);
  for (uint64_t r = row0; r <= last_row; ++r) {
    NoteGmRead(api, regs.src0.data + (r * stride + col0) * bpp,
               uint64_t{width} * bpp);
  }
  if (yuv420) {
    const uint64_t uv_col0 = col0 / 2 * 2;
    const uint64_t uv_end = (col0 + width - 1) / 2 * 2 + 2;
    CheckGmSide(api, "src1", ImageSide(regs.src1), 1,
                last_row / 2 * stride + uv_end, false);
    for (uint64_t r = row0 / 2; r <= last_row / 2; ++r) {
      NoteGmRead(api, regs.src1.data + r * stride + uv_col0, uv_end - uv_col0);
    }
  }

  // The window, converted.
  const ImageReader reader(regs, p.srcHorizSize, row0, col0);
  const uint32_t channels = ImageChannels(format);
  std::vector<uint16_t> image(size_t{width} * height * channels);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const Pixel px = reader.Read(y, x);
      for (uint32_t c = 0; c < channels; ++c) {
        image[(size_t{y} * width + x) * channels + c] =
            ConvertChannel(regs, c, px.ch[c]);
      }
    }
  }

  // The padded image, pixel after pixel, each pixel_elems channels.
  uint8_t* out = dst.data();
  const auto put = [&](uint64_t at, uint16_t bits) {
    std::memcpy(out + at * regs.out_bytes, &bits, regs.out_bytes);
  };
  for (uint32_t oy = 0; oy < out_h; ++oy) {
    const int64_t y = int64_t{oy} - p.topPadSize;
    for (uint32_t ox = 0; ox < out_w; ++ox) {
      const int64_t x = int64_t{ox} - p.leftPadSize;
      const uint64_t at = (uint64_t{oy} * out_w + ox) * pixel_elems;
      const bool inside = y >= 0 && y < height && x >= 0 && x < width;
      if (!inside && regs.padding_mode == 0) {
        for (uint32_t c = 0; c < pixel_elems; ++c) {
          put(at + c, c < 4 ? regs.padding_value[c] : regs.c_padding_value);
        }
        continue;
      }
      const uint32_t sy =
          PaddedIndex(y, height, p.topPadSize, p.botPadSize, regs.padding_mode);
      const uint32_t sx = PaddedIndex(x, width, p.leftPadSize, p.rightPadSize,
                                      regs.padding_mode);
      const uint16_t* px = &image[(size_t{sy} * width + sx) * channels];
      for (uint32_t c = 0; c < pixel_elems; ++c) {
        put(at + c, c < channels ? px[c] : regs.c_padding_value);
      }
    }
  }
}

}  // namespace normgrad_ascendc
