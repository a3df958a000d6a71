// cube_img2col.cc — the cube's img2col path (normgrad_ascendc/cube/
// cube_img2col.h, docs/cube.md "Img2col"): LoadData 3D L1 → L0A / L0B and
// the registers it reads (SetFmatrix, SetLoadDataPaddingValue,
// SetLoadDataBoundary, SetLoadDataRepeat and the 950's
// SetLoadDataRepeatWithStride), each checked against its page's rules before
// it moves a byte. On the 950 the output is Nz, its columns of fractals
// dstStride apart (docs/cube.md, "The Ascend 950: loads into L0A and
// L0B").
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_img2col.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/int4.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

constexpr uint32_t kFractalBytes = 512;  // one L0A/L0B fractal
constexpr uint32_t kFractalRows = 16;

uint32_t RoundUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// Whether `channels` is one of the channel counts the page lists for an
// element of `bits` bits (C0 = 256 / bits): whole C0 blocks, optionally
// followed by one shorter block (4; 8 for 8- and 16-bit types; 16 for 8-bit
// ones; 8, 16 or 32 for int4b_t).
bool ChannelSizeAllowed(uint32_t channels, uint32_t bits) {
  const uint32_t c0 = 256 / bits;
  const uint32_t tail = channels % c0;
  if (tail == 0) return true;
  if (bits == 4) return tail == 8 || tail == 16 || tail == 32;
  return tail == 4 || (tail == 8 && bits <= 16) || (tail == 16 && bits == 8);
}

// The repeat registers SetLoadDataRepeat and SetLoadDataRepeatWithStride
// set (dstStride: the 950's only).
void SetRepeatRegisters(uint16_t stride, uint8_t time, uint8_t mode,
                        uint16_t dst_stride) {
  Img2colRegisters& regs = CurrentCore().img2col_registers();
  regs.repeat_set = true;
  regs.repeat_stride = stride;
  regs.repeat_time = time;
  regs.repeat_mode = mode;
  regs.dst_stride = dst_stride;
}

const char* ChannelSizeRule(uint32_t bits) {
  switch (bits) {
    case 4:
      return "8, 16, 32, N*64, N*64+8, N*64+16 or N*64+32";
    case 8:
      return "4, 8, 16, N*32, N*32+4, N*32+8 or N*32+16";
    case 16:
      return "4, 8, N*16, N*16+4 or N*16+8";
    default:
      return "4, N*8 or N*8+4";
  }
}

}  // namespace

Img2colFields Img2colFieldsOf(const AscendC::LoadData3DParamsV2Pro& p) {
  Img2colFields f;
  f.channel_size = p.channelSize;
  f.transpose = p.enTranspose;
  f.small_k = p.enSmallK;
  f.filter_size_w = p.filterSizeW;
  f.filter_size_h = p.filterSizeH;
  f.fmatrix_ctrl = p.fMatrixCtrl;
  f.m_start = static_cast<uint16_t>(p.extConfig >> 48);
  f.k_start = static_cast<uint16_t>(p.extConfig >> 32);
  f.m_extension = static_cast<uint16_t>(p.extConfig >> 16);
  f.k_extension = static_cast<uint16_t>(p.extConfig);
  f.dilation_h = static_cast<uint8_t>(p.filterConfig >> 40);
  f.dilation_w = static_cast<uint8_t>(p.filterConfig >> 32);
  f.filter_h = static_cast<uint8_t>(p.filterConfig >> 24);
  f.filter_w = static_cast<uint8_t>(p.filterConfig >> 16);
  f.stride_h = static_cast<uint8_t>(p.filterConfig >> 8);
  f.stride_w = static_cast<uint8_t>(p.filterConfig);
  f.set_fmatrix = false;
  f.set_padding = false;
  f.form = "LoadData3DParamsV2Pro";
  return f;
}

void RunLoadData3D(const char* type_name, uint32_t elem_bits,
                   const TensorView& dst, const TensorView& src,
                   const Img2colFields& f, const void* pad_value) {
  const bool to_b = dst.position == TPosition::B2;
  char api[80];
  std::snprintf(api, sizeof api, "LoadData<%s> L1->%s (%s)", type_name,
                to_b ? "L0B" : "L0A", f.form);
  CheckOperand(api, "dst", dst, {TPosition::A2, TPosition::B2},
               "A2 (L0A) or B2 (L0B)", kFractalBytes);
  CheckOperand(api, "src", src, {TPosition::A1, TPosition::B1}, "A1 or B1 (L1)",
               32);
  // The 950 writes the matrix as Nz into L0A and L0B alike (L0B's Zn of B
  // is the Nz of the img2col matrix, as on Atlas A2/A3), and with
  // enTranspose into L0A the transposed matrix as Nz; the columns of
  // fractals lie dstStride fractals apart.
  const bool nz_a = OnProfile950();
  if (nz_a && elem_bits == 4) {
    Fail("%s: T is int4b_t, which the 950's img2col does not move", api);
  }
  if (to_b && elem_bits <= 8) {
    Fail(
        "%s: dst is at B2 (L0B) and T is %s; img2col into L0B moves 16- and "
        "32-bit types only",
        api, type_name);
  }
  if (f.transpose && !to_b && elem_bits <= 8 && !nz_a) {
    Fail(
        "%s: loadDataParams.enTranspose is true and T is %s; the transpose "
        "into L0A moves 16- and 32-bit types only",
        api, type_name);
  }
  if (f.small_k) {
    Fail(
        "%s: loadDataParams.enSmallK is true; Atlas A2/A3 no longer "
        "supports the small-K fractals (set it false)",
        api);
  }
  if (f.fmatrix_ctrl) {
    Fail(
        "%s: loadDataParams.fMatrixCtrl is true (the right feature-map "
        "register); only false (FMATRIX_LEFT) is supported",
        api);
  }
  Img2colRegisters& regs = CurrentCore().img2col_registers();
  if (f.set_fmatrix) {
    CheckRange(api, "loadDataParams.l1H", f.l1_h, 0, 32767);
    CheckRange(api, "loadDataParams.l1W", f.l1_w, 0, 32767);
    regs.fmatrix_set = true;
    regs.l1_h = f.l1_h;
    regs.l1_w = f.l1_w;
    std::memcpy(regs.pad_list, f.pad_list, sizeof regs.pad_list);
  } else if (!regs.fmatrix_set) {
    Fail(
        "%s: the feature map comes from the registers (isSetFMatrix false "
        "or the v2 Pro form), but SetFmatrix was not called in this block",
        api);
  }
  if (f.set_padding) {
    regs.pad_set = true;
    regs.pad_bits = 0;
    std::memcpy(&regs.pad_bits, pad_value, elem_bits == 4 ? 1 : elem_bits / 8);
    regs.pad_width = elem_bits;
    regs.pad_type = type_name;
  } else if (!regs.pad_set) {
    Fail(
        "%s: the pad value comes from its register (isSetPadding false or "
        "the v2 Pro form), but SetLoadDataPaddingValue was not called in "
        "this block",
        api);
  } else if (regs.pad_width != elem_bits) {
    Fail(
        "%s: SetLoadDataPaddingValue set a %s pad value, which is not a "
        "%s: set the pad value in the type LoadData moves",
        api, regs.pad_type, type_name);
  }
  const uint32_t c0 = 256 / elem_bits;
  CheckRange(api, "loadDataParams.mStartPt", f.m_start, 0, 32767);
  CheckRange(api, "loadDataParams.strideW", f.stride_w, 0, 63);
  CheckRange(api, "loadDataParams.strideH", f.stride_h, 0, 63);
  if (f.k_start % c0 != 0) {
    Fail(
        "%s: loadDataParams.kStartPt %u is not a multiple of %u (C0: 32 "
        "bytes of %s)",
        api, f.k_start, c0, type_name);
  }
  const uint32_t repeat_time = regs.repeat_set ? regs.repeat_time : 1;
  const uint32_t kernel_w = f.filter_w + (f.filter_size_w ? 256u : 0u);
  const uint32_t kernel_h = f.filter_h + (f.filter_size_h ? 256u : 0u);
  // A zero in any of these makes the instruction a NOP.
  if (regs.l1_h == 0 || regs.l1_w == 0 || f.channel_size == 0 ||
      f.k_extension == 0 || f.m_extension == 0 || kernel_w == 0 ||
      kernel_h == 0 || repeat_time == 0) {
    return;
  }
  if (!ChannelSizeAllowed(f.channel_size, elem_bits)) {
    Fail("%s: loadDataParams.channelSize %u is not one of %s (for %s)", api,
         f.channel_size, ChannelSizeRule(elem_bits), type_name);
  }
  if (f.stride_w == 0 || f.stride_h == 0) {
    Fail(
        "%s: loadDataParams.stride%s is 0; a window that does not move has "
        "no output width or height (use 1..63)",
        api, f.stride_w == 0 ? "W" : "H");
  }
  // The padded feature map and the dilated kernel give the output's width
  // (the rows of the img2col matrix run over it) and height.
  const uint32_t pad_left = regs.pad_list[0];
  const uint32_t pad_right = regs.pad_list[1];
  const uint32_t pad_top = regs.pad_list[2];
  const uint32_t pad_bottom = regs.pad_list[3];
  const uint32_t span_w = uint32_t{f.dilation_w} * (kernel_w - 1) + 1;
  const uint32_t span_h = uint32_t{f.dilation_h} * (kernel_h - 1) + 1;
  const uint32_t padded_w = regs.l1_w + pad_left + pad_right;
  const uint32_t padded_h = regs.l1_h + pad_top + pad_bottom;
  if (span_w > padded_w || span_h > padded_h) {
    const bool w = span_w > padded_w;
    Fail(
        "%s: the dilated kernel is %u %s, more than the padded feature map's "
        "%u (l1%s %u + padding %u + %u): no window fits",
        api, w ? span_w : span_h, w ? "wide" : "high", w ? padded_w : padded_h,
        w ? "W" : "H", w ? regs.l1_w : regs.l1_h, w ? pad_left : pad_top,
        w ? pad_right : pad_bottom);
  }
  const uint32_t out_w = (padded_w - span_w) / f.stride_w + 1;
  const uint32_t out_h = (padded_h - span_h) / f.stride_h + 1;
  const uint64_t rows = uint64_t{out_h} * out_w;  // M of the img2col matrix
  const uint32_t c1 = (f.channel_size + c0 - 1) / c0;
  const uint32_t tail = f.channel_size % c0;  // channels of a short last block
  const uint64_t cols = uint64_t{kernel_h} * kernel_w * f.channel_size;  // K
  // A window that stops short of the matrix's last fractal column (row)
  // covers whole fractals.
  if (f.k_extension % c0 != 0 &&
      uint64_t{f.k_start} + f.k_extension <= RoundUp(cols, c0) - c0) {
    Fail(
        "%s: loadDataParams.kExtension %u is not a multiple of %u and the "
        "window (kStartPt %u) ends before the last fractal of the %llu "
        "columns; only a window reaching the last fractal may end inside one",
        api, f.k_extension, c0, f.k_start,
        static_cast<unsigned long long>(cols));
  }
  if (elem_bits != 32 && f.m_extension % kFractalRows != 0 &&
      uint64_t{f.m_start} + f.m_extension <=
          RoundUp(rows, kFractalRows) - kFractalRows) {
    Fail(
        "%s: loadDataParams.mExtension %u is not a multiple of 16 and the "
        "window (mStartPt %u) ends before the last fractal of the %llu rows; "
        "only a window reaching the last fractal may end inside one",
        api, f.m_extension, f.m_start, static_cast<unsigned long long>(rows));
  }
  // The window, whole fractals, once per repeat: stacked below each other
  // (repeatMode 0, rows) or side by side (1, columns).
  const uint32_t win_rows = RoundUp(f.m_extension, kFractalRows);
  const uint32_t win_cols = RoundUp(f.k_extension, c0);
  const bool along_k = regs.repeat_mode == 1;
  const uint32_t all_rows = win_rows * (along_k ? 1 : repeat_time);
  const uint32_t all_cols = win_cols * (along_k ? repeat_time : 1);
  // Into L0A with enTranspose the whole matrix is transposed (its rows
  // padded to 16, its columns to C0); into L0B it always is, as Zn.
  const bool turn_a = f.transpose && !to_b;
  const uint32_t out_rows = turn_a ? RoundUp(all_cols, kFractalRows) : all_rows;
  const uint32_t out_cols = turn_a ? RoundUp(all_rows, c0) : all_cols;
  const uint32_t frac_rows = out_rows / kFractalRows;
  const uint32_t frac_cols = out_cols / c0;
  const uint64_t fractals = uint64_t{frac_rows} * frac_cols;
  // On the 950 the columns of fractals land dstStride fractals apart.
  const bool own_stride = nz_a && !f.dense_columns;
  const uint32_t dst_stride = own_stride ? regs.dst_stride : frac_rows;
  if (own_stride && (!regs.repeat_set || dst_stride < frac_rows)) {
    Fail(
        "%s: dstStride %u (SetLoadDataRepeat or SetLoadDataRepeatWithStride%s) "
        "is less than the output's %u fractal rows: on the 950 each column of "
        "fractals lands dstStride fractals after the previous one, and they "
        "must not overlap",
        api, dst_stride, regs.repeat_set ? "" : ", not called in this block",
        frac_rows);
  }
  CheckFits(api, "dst",
            (uint64_t{frac_cols - 1} * dst_stride + frac_rows) * kFractalBytes,
            dst.bytes, "the fractals written");
  // The L1 boundary: reads at or past it wrap to L1's start.
  const uint32_t boundary = regs.boundary_set ? regs.boundary : 0;
  if (boundary != 0 && src.offset >= boundary) {
    Fail(
        "%s: src starts at L1 byte %u, not inside the boundary of %u bytes "
        "SetLoadDataBoundary set",
        api, src.offset, boundary);
  }
  const uint8_t* l1 = CurrentCore().cube_memory(CubeMemory::kL1);
  const uint32_t l1_bytes = MaxCubeMemoryBytes(CubeMemory::kL1);
  const uint64_t src_end = uint64_t{src.offset} + src.bytes;
  std::vector<uint8_t> out(fractals * kFractalBytes, 0);
  const uint8_t* pad = reinterpret_cast<const uint8_t*>(&regs.pad_bits);
  // Writes element `to` of the output from `from` (int4b_t: its nibble
  // `nibble`; the pad value's nibble is its low one).
  const auto put = [&](uint64_t to, const uint8_t* from, uint32_t nibble) {
    if (elem_bits == 4) {
      SetInt4At(out.data(), to, Int4At(from, nibble));
    } else {
      std::memcpy(out.data() + to * (elem_bits / 8), from, elem_bits / 8);
    }
  };
  for (uint32_t r = 0; r < all_rows; ++r) {
    const uint32_t it_r = along_k ? 0 : r / win_rows;
    if (r % win_rows >= f.m_extension) continue;
    for (uint32_t c = 0; c < all_cols; ++c) {
      const uint32_t it_c = along_k ? c / win_cols : 0;
      if (c % win_cols >= f.k_extension) continue;
      // The img2col matrix's row and column this position shows.
      const uint64_t m = f.m_start +
                         uint64_t{it_r} * regs.repeat_stride * kFractalRows +
                         r % win_rows;
      const uint64_t k =
          f.k_start + uint64_t{it_c} * regs.repeat_stride * c0 + c % win_cols;
      // Transposed, element (r, c) is the transpose's (c, r): Zz on Atlas
      // A2/A3, Nz on the 950.
      const uint64_t to =
          turn_a && nz_a ? ((uint64_t{r / c0} * (out_rows / kFractalRows) +
                             c / kFractalRows) *
                                kFractalRows * c0 +
                            uint64_t{c % kFractalRows} * c0 + r % c0)
          : turn_a ? ((uint64_t{c / kFractalRows} * (out_cols / c0) + r / c0) *
                          kFractalRows * c0 +
                      uint64_t{c % kFractalRows} * c0 + r % c0)
          : to_b || nz_a
              ? ((uint64_t{c / c0} * (out_rows / kFractalRows) +
                  r / kFractalRows) *
                     kFractalRows * c0 +
                 uint64_t{r % kFractalRows} * c0 + c % c0)
              : ((uint64_t{r / kFractalRows} * (out_cols / c0) + c / c0) *
                     kFractalRows * c0 +
                 uint64_t{r % kFractalRows} * c0 + c % c0);
      if (m >= rows || k >= cols) continue;  // past the matrix: 0
      // k runs over channel blocks, then kernel rows and columns, then the
      // block's channels (C0, or the short last block's).
      const uint64_t block_k = uint64_t{kernel_h} * kernel_w * c0;
      const uint32_t block = static_cast<uint32_t>(k / block_k);
      const uint32_t width = (block == c1 - 1 && tail != 0) ? tail : c0;
      const uint64_t in_block = k - uint64_t{block} * block_k;
      const uint32_t point = static_cast<uint32_t>(in_block / width);
      const uint32_t channel = static_cast<uint32_t>(in_block % width);
      const uint32_t kh = point / kernel_w;
      const uint32_t kw = point % kernel_w;
      const int64_t h = static_cast<int64_t>(m / out_w) * f.stride_h - pad_top +
                        int64_t{kh} * f.dilation_h;
      const int64_t w = static_cast<int64_t>(m % out_w) * f.stride_w -
                        pad_left + int64_t{kw} * f.dilation_w;
      if (h < 0 || w < 0 || h >= regs.l1_h || w >= regs.l1_w) {
        put(to, pad, 0);
        continue;
      }
      // The element's byte in L1 (int4b_t: the odd channel in the high
      // nibble of the byte).
      uint64_t at = src.offset +
                    ((uint64_t{block} * regs.l1_h + static_cast<uint64_t>(h)) *
                         regs.l1_w +
                     static_cast<uint64_t>(w)) *
                        32 +
                    uint64_t{channel} * elem_bits / 8;
      const uint32_t size = std::max(1u, elem_bits / 8);
      if (boundary != 0) {
        at %= boundary;
        if (at + size > l1_bytes) {
          Fail(
              "%s: the feature map's element (channel %u) wraps to L1 byte "
              "%llu, whose %u bytes pass the end of L1 (%u bytes)",
              api, block * c0 + channel, static_cast<unsigned long long>(at),
              size, l1_bytes);
        }
      } else if (at + size > src_end) {
        Fail(
            "%s: the feature map's element (channel %u, h %lld, w %lld) is "
            "at L1 byte %llu, past the end of src (%u bytes from byte %u)",
            api, block * c0 + channel, static_cast<long long>(h),
            static_cast<long long>(w), static_cast<unsigned long long>(at),
            src.bytes, src.offset);
      }
      put(to, l1 + at, channel % 2);
    }
  }
  // Column of fractals j (Nz: its fractal rows one after another) at
  // fractal j x dst_stride; Zz and Zn fill dst in one run.
  const uint64_t column = uint64_t{frac_rows} * kFractalBytes;
  for (uint32_t j = 0; j < (nz_a ? frac_cols : 1u); ++j) {
    std::memcpy(dst.declared_data() + uint64_t{j} * dst_stride * kFractalBytes,
                out.data() + j * column, nz_a ? column : out.size());
  }
}

void RunSetFmatrix(uint16_t l1_h, uint16_t l1_w, const uint8_t pad_list[4],
                   AscendC::FmatrixMode mode) {
  const char* api = "SetFmatrix";
  CheckRange(api, "l1H", l1_h, 1, 32767);
  CheckRange(api, "l1W", l1_w, 1, 32767);
  if (mode != AscendC::FmatrixMode::FMATRIX_LEFT) {
    Fail("%s: fmatrixMode %u; only FMATRIX_LEFT (0) is supported", api,
         static_cast<unsigned>(mode));
  }
  Img2colRegisters& regs = CurrentCore().img2col_registers();
  regs.fmatrix_set = true;
  regs.l1_h = l1_h;
  regs.l1_w = l1_w;
  std::memcpy(regs.pad_list, pad_list, sizeof regs.pad_list);
}

void RunSetLoadDataPaddingValue(const char* type_name, uint32_t elem_bytes,
                                const void* value) {
  Img2colRegisters& regs = CurrentCore().img2col_registers();
  regs.pad_set = true;
  regs.pad_bits = 0;
  std::memcpy(&regs.pad_bits, value, elem_bytes);
  regs.pad_width = elem_bytes * 8;
  regs.pad_type = type_name;
}

void RunSetLoadDataBoundary(uint32_t boundary) {
  const char* api = "SetLoadDataBoundary";
  RequireCubeProfile(api, {Profile::kA2},
                     "the 950 has no L1 boundary register");
  const uint32_t l1 = MaxCubeMemoryBytes(CubeMemory::kL1);
  if (boundary != 0 && (boundary < 1024 || boundary > l1)) {
    Fail(
        "%s: boundaryValue %u is out of range; 0 (no boundary) or "
        "1024..%u bytes (values 1..1023 are undefined)",
        api, boundary, l1);
  }
  Img2colRegisters& regs = CurrentCore().img2col_registers();
  regs.boundary_set = true;
  regs.boundary = boundary;
}

void RunSetLoadDataRepeat(const AscendC::LoadDataRepeatParam& p) {
  const char* api = "SetLoadDataRepeat";
  CheckRange(api, "repeatParams.repeatMode", p.repeatMode, 0, 1);
  if (p.dstStride != 0 && !OnProfile950()) {
    Fail(
        "%s: repeatParams.dstStride %u; Atlas A2/A3 has no dstStride (the "
        "Ascend 950's): leave it 0",
        api, p.dstStride);
  }
  SetRepeatRegisters(p.repeatStride, p.repeatTime, p.repeatMode, p.dstStride);
}

void RunSetLoadDataRepeatWithStride(
    const AscendC::LoadDataRepeatParamWithStride& p) {
  const char* api = "SetLoadDataRepeatWithStride";
  RequireCubeProfile(api, {Profile::k950},
                     "SetLoadDataRepeatWithStride is the 950's; Atlas A2/A3 "
                     "sets the repeat with SetLoadDataRepeat");
  CheckRange(api, "repeatParams.repeatMode", p.repeatMode, 0, 1);
  SetRepeatRegisters(p.repeatStride, p.repeatTime, p.repeatMode, p.dstStride);
}

}  // namespace normgrad_ascendc
