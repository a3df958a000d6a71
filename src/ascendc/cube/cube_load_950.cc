// cube_load_950.cc — the Ascend 950's loads from L1 into L0A / L0B
// (normgrad_ascendc/cube/cube_load_950.h, docs/cube.md "The Ascend 950: loads
// into L0A and L0B"): LoadData with LoadData2DParamsV2 and
// LoadDataWithTranspose with LoadData2dTransposeParamsV2, each checked
// before a byte moves, and LoadDataWithStride's profile rule before
// cube_img2col.cc's img2col move. The squares are transposed by
// cube_load_transpose.cc's TransposeSquare.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

constexpr uint32_t kFractalBytes = 512;

}  // namespace

void RunLoadData2DV2(const char* type_name, uint32_t elem_bits,
                     const TensorView& dst, const TensorView& src,
                     const AscendC::LoadData2DParamsV2& p) {
  const bool to_b = dst.position == AscendC::TPosition::B2;
  char api[80];
  std::snprintf(api, sizeof api, "LoadData<%s>(LoadData2DParamsV2) L1->%s",
                type_name, to_b ? "L0B" : "L0A");
  RequireCubeProfile(api, {Profile::k950},
                     "LoadData2DParamsV2 is the 950's; Atlas A2/A3 loads with "
                     "LoadData2DParams");
  CheckOperand(api, "dst", dst,
               {AscendC::TPosition::A2, AscendC::TPosition::B2},
               "A2 (L0A) or B2 (L0B)", kFractalBytes);
  CheckOperand(
      api, "src", src,
      {AscendC::TPosition::A1, AscendC::TPosition::B1, AscendC::TPosition::C1},
      "A1, B1 or C1 (L1)", 32);
  CheckRange(api, "loadDataParams.mStep", p.mStep, 0, 255);
  CheckRange(api, "loadDataParams.kStep", p.kStep, 0, 255);
  if (p.srcStride < 0) {
    Fail(
        "%s: loadDataParams.srcStride %d is negative; it counts the fractals "
        "between two columns of src",
        api, p.srcStride);
  }
  // A transposed square spans `rows` fractal rows (4 for b4, 2 for b8) and
  // `columns` fractal columns (2 for b32).
  const uint32_t rows = elem_bits == 4 ? 4 : elem_bits == 8 ? 2 : 1;
  const uint32_t columns = elem_bits == 32 ? 2 : 1;
  if (p.ifTranspose) {
    if (p.mStep % rows != 0) {
      Fail(
          "%s: loadDataParams.mStep %u with ifTranspose; a %u-bit type "
          "transposes squares of %u fractal rows, so mStep must be a "
          "multiple of %u",
          api, p.mStep, elem_bits, rows, rows);
    }
    if (p.kStep % columns != 0) {
      Fail(
          "%s: loadDataParams.kStep %u with ifTranspose; a 32-bit type "
          "transposes squares of 2 fractal columns, so kStep must be a "
          "multiple of 2",
          api, p.kStep);
    }
  }
  if (p.mStep == 0 || p.kStep == 0) return;  // a NOP
  const uint64_t src_stride = static_cast<uint64_t>(p.srcStride);
  const auto src_index = [&](uint32_t m, uint32_t k) -> uint64_t {
    return (uint64_t{p.kStartPosition} + k) * src_stride + p.mStartPosition + m;
  };
  const auto dst_index = [&](uint32_t m, uint32_t k) -> uint64_t {
    return uint64_t{k} * p.dstStride + m;
  };
  // The last fractal read and written: the column or row that ends furthest
  // (a stride may be smaller than a column).
  uint64_t src_last = 0;
  uint64_t dst_last = 0;
  for (uint32_t k = 0; k < p.kStep; ++k) {
    src_last = std::max(src_last, src_index(p.mStep - 1u, k));
    dst_last = std::max(dst_last, dst_index(p.mStep - 1u, k));
  }
  CheckFits(api, "src", (src_last + 1) * kFractalBytes, src.bytes,
            "the fractals read");
  CheckFits(api, "dst", (dst_last + 1) * kFractalBytes, dst.bytes,
            "the fractals written");
  const uint8_t* from = src.declared_data();
  uint8_t* to = dst.declared_data();
  if (!p.ifTranspose) {
    for (uint32_t k = 0; k < p.kStep; ++k) {
      for (uint32_t m = 0; m < p.mStep; ++m) {
        std::memmove(to + dst_index(m, k) * kFractalBytes,
                     from + src_index(m, k) * kFractalBytes, kFractalBytes);
      }
    }
    return;
  }
  // Each square is transposed where it stands: its fractal j (a fractal row
  // down for b4 and b8, a column across for b32) lands where source
  // fractal j of the square would have landed.
  const uint32_t fractals = SquareFractals(elem_bits);
  for (uint32_t k = 0; k < p.kStep; k += columns) {
    for (uint32_t m = 0; m < p.mStep; m += rows) {
      const uint8_t* in[4];
      uint8_t* out[4];
      for (uint32_t j = 0; j < fractals; ++j) {
        const uint32_t fm = m + (columns == 1 ? j : 0);
        const uint32_t fk = k + (columns == 1 ? 0 : j);
        in[j] = from + src_index(fm, fk) * kFractalBytes;
        out[j] = to + dst_index(fm, fk) * kFractalBytes;
      }
      TransposeSquare(elem_bits, in, out);
    }
  }
}

void RunLoadDataWithTransposeV2(const char* type_name, uint32_t elem_bits,
                                const TensorView& dst, const TensorView& src,
                                const AscendC::LoadData2dTransposeParamsV2& p) {
  char api[96];
  std::snprintf(api, sizeof api,
                "LoadDataWithTranspose<%s>(LoadData2dTransposeParamsV2) "
                "L1->L0B",
                type_name);
  RequireCubeProfile(api, {Profile::k950},
                     "LoadData2dTransposeParamsV2 is the 950's; Atlas A2/A3 "
                     "transposes with LoadData2dTransposeParams");
  CheckOperand(api, "dst", dst, {AscendC::TPosition::B2}, "B2 (L0B)",
               kFractalBytes);
  CheckOperand(
      api, "src", src,
      {AscendC::TPosition::A1, AscendC::TPosition::B1, AscendC::TPosition::C1},
      "A1, B1 or C1 (L1)", 32);
  CheckRange(api, "loadDataParams.repeatTimes", p.repeatTimes, 1, 255);
  CheckRange(api, "loadDataParams.addrMode", p.addrMode, 0, 1);
  const uint32_t fractals = SquareFractals(elem_bits);
  const uint64_t last = p.repeatTimes - 1u;
  const bool falling = p.addrMode == 1;
  if (falling && last * p.srcStride > p.startIndex) {
    Fail(
        "%s: loadDataParams.addrMode 1 from startIndex %u steps %llu "
        "fractals down (repeatTimes %u x srcStride %u): below fractal 0",
        api, p.startIndex, static_cast<unsigned long long>(last * p.srcStride),
        p.repeatTimes, p.srcStride);
  }
  // Fractal j of square i: from startIndex ± i × srcStride + j × (1 +
  // srcFracGap), to i × (1 + dstGap) + j × (1 + dstFracGap); the gaps between
  // one square's fractals only count where a square has several.
  const uint64_t src_frac_step = fractals > 1 ? 1u + p.srcFracGap : 0;
  const uint64_t dst_frac_step = fractals > 1 ? 1u + p.dstFracGap : 0;
  const uint64_t iter_step = 1u + p.dstGap;
  for (uint32_t j = 1; j < fractals; ++j) {
    if ((j * dst_frac_step) % iter_step == 0 &&
        j * dst_frac_step / iter_step <= last) {
      Fail(
          "%s: loadDataParams.dstFracGap %u and dstGap %u put fractal %u of "
          "square 0 on fractal 0 of square %llu; the transposed fractals must "
          "not overlap",
          api, p.dstFracGap, p.dstGap, j,
          static_cast<unsigned long long>(j * dst_frac_step / iter_step));
    }
  }
  const uint64_t src_end = p.startIndex + (falling ? 0 : last * p.srcStride) +
                           (fractals - 1) * src_frac_step + 1;
  const uint64_t dst_end =
      last * iter_step + (fractals - 1) * dst_frac_step + 1;
  CheckFits(api, "src", src_end * kFractalBytes, src.bytes,
            "the fractals read");
  CheckFits(api, "dst", dst_end * kFractalBytes, dst.bytes,
            "the fractals written");
  const uint8_t* from = src.declared_data();
  uint8_t* to = dst.declared_data();
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t step = uint64_t{i} * p.srcStride;
    const uint64_t first = falling ? p.startIndex - step : p.startIndex + step;
    const uint8_t* in[4];
    uint8_t* out[4];
    for (uint32_t j = 0; j < fractals; ++j) {
      in[j] = from + (first + j * src_frac_step) * kFractalBytes;
      out[j] = to + (i * iter_step + j * dst_frac_step) * kFractalBytes;
    }
    TransposeSquare(elem_bits, in, out);
  }
}

void RunLoadDataWithStride(const char* type_name, uint32_t elem_bits,
                           const TensorView& dst, const TensorView& src,
                           const Img2colFields& fields, const void* pad_value) {
  char api[64];
  std::snprintf(api, sizeof api, "LoadDataWithStride<%s>", type_name);
  RequireCubeProfile(api, {Profile::k950},
                     "LoadDataWithStride is the 950's; Atlas A2/A3 unfolds "
                     "with LoadData and LoadData3DParamsV2");
  RunLoadData3D(type_name, elem_bits, dst, src, fields, pad_value);
}

}  // namespace normgrad_ascendc
