// cube_load_transpose.cc — LoadDataWithTranspose (normgrad_ascendc/cube/
// cube_load_transpose.h, docs/cube.md "LoadDataWithTranspose"): squares of
// fractals from L1, each transposed into L0A / L0B, checked before a byte
// moves.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

void RunLoadDataWithTranspose(const char* type_name, uint32_t elem_bytes,
                              const TensorView& dst, const TensorView& src,
                              const AscendC::LoadData2dTransposeParams& p) {
  constexpr uint32_t kFractalBytes = 512;
  char api[64];
  std::snprintf(api, sizeof api, "LoadDataWithTranspose<%s> L1->%s", type_name,
                dst.position == AscendC::TPosition::B2 ? "L0B" : "L0A");
  CheckOperand(api, "dst", dst,
               {AscendC::TPosition::A2, AscendC::TPosition::B2},
               "A2 (L0A) or B2 (L0B)", kFractalBytes);
  CheckOperand(
      api, "src", src,
      {AscendC::TPosition::A1, AscendC::TPosition::B1, AscendC::TPosition::C1},
      "A1, B1 or C1 (L1)", 32);
  CheckRange(api, "loadDataParams.addrMode", p.addrMode, 0, 1);
  if (p.repeatTimes == 0) return;  // a NOP
  // A square: one 16 x 16 fractal (16-bit), two 16 x 8 side by side (32-bit)
  // or two 16 x 32 one above the other (8-bit).
  const uint32_t fractals = elem_bytes == 2 ? 1 : 2;
  const uint32_t side = elem_bytes == 1 ? 32 : 16;
  const uint32_t c0 = 32 / elem_bytes;  // columns of a fractal
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
  // (dstFracGap only where a square has two fractals).
  const uint64_t frac_step = fractals > 1 ? 1u + p.dstFracGap : 0;
  const uint64_t dst_end =
      (last * (1u + p.dstGap) + (fractals - 1) * frac_step + 1) * kFractalBytes;
  // The page leaves no overlap to the caller: a square's second fractal may
  // not land on a later square's first.
  if (fractals > 1 && frac_step % (1u + p.dstGap) == 0 &&
      frac_step / (1u + p.dstGap) <= last) {
    Fail(
        "%s: loadDataParams.dstFracGap %u and dstGap %u put the second "
        "fractal of square 0 on the first of square %llu; the transposed "
        "fractals must not overlap",
        api, p.dstFracGap, p.dstGap,
        static_cast<unsigned long long>(frac_step / (1u + p.dstGap)));
  }
  CheckFits(api, "dst", dst_end, dst.bytes, "the fractals written");
  const uint8_t* from = src.declared_data();
  uint8_t* to = dst.declared_data();
  std::vector<uint8_t> square(square_bytes);
  std::vector<uint8_t> turned(square_bytes);
  // Square element (r, c) in fractal terms: 32-bit squares split the columns
  // in two fractals, 8-bit squares the rows; 16-bit squares are one fractal.
  const auto at = [&](uint32_t r, uint32_t c) -> uint64_t {
    const uint32_t frac = elem_bytes == 4 ? c / c0 : r / 16;
    return uint64_t{frac} * kFractalBytes +
           (uint64_t{r % 16} * c0 + c % c0) * elem_bytes;
  };
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t step = uint64_t{i} * p.srcStride;
    const uint64_t index = falling ? p.startIndex - step : p.startIndex + step;
    std::memcpy(square.data(), from + index * square_bytes, square_bytes);
    for (uint32_t r = 0; r < side; ++r) {
      for (uint32_t c = 0; c < side; ++c) {
        std::memcpy(&turned[at(c, r)], &square[at(r, c)], elem_bytes);
      }
    }
    for (uint32_t j = 0; j < fractals; ++j) {
      std::memcpy(
          to + (i * (1u + uint64_t{p.dstGap}) + j * frac_step) * kFractalBytes,
          &turned[uint64_t{j} * kFractalBytes], kFractalBytes);
    }
  }
}

}  // namespace normgrad_ascendc
