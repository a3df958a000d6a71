// cube_load_transpose.cc — LoadDataWithTranspose (normgrad_ascendc/cube/
// cube_load_transpose.h, docs/cube.md "LoadDataWithTranspose"): squares of
// fractals from L1, each transposed into L0A / L0B, checked before a byte
// moves.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/int4.h"

namespace normgrad_ascendc {

void RunLoadDataWithTranspose(const char* type_name, uint32_t elem_bits,
                              const TensorView& dst, const TensorView& src,
                              const AscendC::LoadData2dTransposeParams& p) {
  constexpr uint32_t kFractalBytes = 512;
  const bool to_b = dst.position == AscendC::TPosition::B2;
  char api[64];
  std::snprintf(api, sizeof api, "LoadDataWithTranspose<%s> L1->%s", type_name,
                to_b ? "L0B" : "L0A");
  CheckOperand(api, "dst", dst,
               {AscendC::TPosition::A2, AscendC::TPosition::B2},
               "A2 (L0A) or B2 (L0B)", kFractalBytes);
  CheckOperand(
      api, "src", src,
      {AscendC::TPosition::A1, AscendC::TPosition::B1, AscendC::TPosition::C1},
      "A1, B1 or C1 (L1)", 32);
  // The 950 keeps this form's L1 -> L0B path only.
  if (!to_b) {
    RequireCubeProfile(api, {Profile::kA2},
                       "the 950's LoadDataWithTranspose moves into L0B (B2) "
                       "only");
  }
  if (elem_bits == 4 && !to_b) {
    Fail("%s: int4b_t moves into L0B (B2) only", api);
  }
  CheckRange(api, "loadDataParams.addrMode", p.addrMode, 0, 1);
  if (p.repeatTimes == 0) return;  // a NOP
  // A square: one 16 x 16 fractal (16-bit); two 16 x 8 fractals side by side
  // (32-bit); two 16 x 32 (8-bit) or four 16 x 64 (4-bit) fractals one above
  // the other.
  const uint32_t fractals = SquareFractals(elem_bits);
  const uint32_t square_bytes = fractals * kFractalBytes;
  const uint64_t last = p.repeatTimes - 1u;
  const bool falling = p.addrMode == 1;
  if (falling && last * p.srcStride > p.startIndex) {
    Fail(
        "%s: loadDataParams.addrMode 1 from startIndex %u steps %llu squares "
        "down (repeatTimes %u x srcStride %u): below square 0",
        api, p.startIndex, static_cast<unsigned long long>(last * p.srcStride),
        p.repeatTimes, p.srcStride);
  }
  const uint64_t src_end =
      (p.startIndex + (falling ? 0 : last * p.srcStride) + 1) * square_bytes;
  CheckFits(api, "src", src_end, src.bytes, "the squares read");
  // Fractal j of iteration i lands at i * (1 + dstGap) + j * (1 + dstFracGap)
  // (dstFracGap only where a square has several fractals).
  const uint64_t frac_step = fractals > 1 ? 1u + p.dstFracGap : 0;
  const uint64_t iter_step = 1u + p.dstGap;
  const uint64_t dst_end =
      (last * iter_step + (fractals - 1) * frac_step + 1) * kFractalBytes;
  // The page leaves no overlap to the caller: fractal j of a square may not
  // land on the first of a later square.
  for (uint32_t j = 1; j < fractals; ++j) {
    if ((j * frac_step) % iter_step == 0 && j * frac_step / iter_step <= last) {
      Fail(
          "%s: loadDataParams.dstFracGap %u and dstGap %u put fractal %u of "
          "square 0 on fractal 0 of square %llu; the transposed fractals must "
          "not overlap",
          api, p.dstFracGap, p.dstGap, j,
          static_cast<unsigned long long>(j * frac_step / iter_step));
    }
  }
  CheckFits(api, "dst", dst_end, dst.bytes, "the fractals written");
  const uint8_t* from = src.declared_data();
  uint8_t* to = dst.declared_data();
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t step = uint64_t{i} * p.srcStride;
    const uint64_t index = falling ? p.startIndex - step : p.startIndex + step;
    const uint8_t* in[4];
    uint8_t* out[4];
    for (uint32_t j = 0; j < fractals; ++j) {
      in[j] = from + (index * fractals + j) * kFractalBytes;
      out[j] = to + (i * iter_step + j * frac_step) * kFractalBytes;
    }
    TransposeSquare(elem_bits, in, out);
  }
}

uint32_t SquareFractals(uint32_t elem_bits) {
  return elem_bits == 16 ? 1 : elem_bits == 4 ? 4 : 2;
}

void TransposeSquare(uint32_t elem_bits, const uint8_t* const* from,
                     uint8_t* const* to) {
  constexpr uint32_t kFractalBytes = 512;
  const uint32_t fractals = SquareFractals(elem_bits);
  const uint32_t side = elem_bits == 32 ? 16 : 256 / elem_bits;
  const uint32_t c0 = 256 / elem_bits;  // columns of a fractal
  uint8_t square[4 * kFractalBytes];
  uint8_t turned[4 * kFractalBytes];
  for (uint32_t j = 0; j < fractals; ++j) {
    std::memcpy(square + j * kFractalBytes, from[j], kFractalBytes);
  }
  // Square element (r, c) as an element index: 32-bit squares split the
  // columns over their fractals, the others the rows.
  const auto at = [&](uint32_t r, uint32_t c) -> uint64_t {
    const uint32_t frac = elem_bits == 32 ? c / c0 : r / 16;
    return uint64_t{frac} * (kFractalBytes * 8 / elem_bits) +
           uint64_t{r % 16} * c0 + c % c0;
  };
  const uint32_t elem_bytes = elem_bits / 8;
  for (uint32_t r = 0; r < side; ++r) {
    for (uint32_t c = 0; c < side; ++c) {
      if (elem_bits == 4) {
        SetInt4At(turned, at(c, r), Int4At(square, at(r, c)));
      } else {
        std::memcpy(&turned[at(c, r) * elem_bytes],
                    &square[at(r, c) * elem_bytes], elem_bytes);
      }
    }
  }
  for (uint32_t j = 0; j < fractals; ++j) {
    std::memcpy(to[j], turned + j * kFractalBytes, kFractalBytes);
  }
}

}  // namespace normgrad_ascendc
