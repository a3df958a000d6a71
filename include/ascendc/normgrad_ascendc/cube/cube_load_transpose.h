// normgrad_ascendc/cube/cube_load_transpose.h — LoadDataWithTranspose for
// Atlas A2/A3 (docs/cube.md, "LoadDataWithTranspose"): L1 → L0A / L0B by
// square blocks of 512-byte fractals, each square transposed on the way
// (16 × 16 halves: one fractal; 16 × 16 of a 32-bit type: two 16 × 8
// fractals side by side; 32 × 32 of an 8-bit type: two 16 × 32 fractals, and
// 64 × 64 int4b_t (into L0B only): four 16 × 64 fractals, one above the
// other), with LoadData2dTransposeParams. T may be a TensorTrait
// (its element type is PrimT<T>). The move and its checks are in
// src/ascendc/cube/cube_load_transpose.cc.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace AscendC {

/// LoadDataWithTranspose's parameters (Atlas A2/A3 form).
struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn,
                            uint16_t srcStrideIn, uint16_t dstGapIn,
                            uint16_t dstFracGapIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstFracGapIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;  ///< the first square (in squares)
  uint8_t repeatTimes = 0;  ///< squares moved (0: nothing)
  uint16_t srcStride = 0;   ///< squares from one square to the next
  uint16_t dstGap = 0;      ///< fractals between the iterations' firsts
  uint16_t dstFracGap = 0;  ///< fractals between one square's fractals
  uint8_t addrMode = 0;     ///< 0: the index grows; 1: it falls
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// `elem_bits`: 4 (int4b_t), 8, 16 or 32.
void RunLoadDataWithTranspose(const char* type_name, uint32_t elem_bits,
                              const TensorView& dst, const TensorView& src,
                              const AscendC::LoadData2dTransposeParams& params);

/// The fractals of one transposed square for `elem_bits` (4: four 16 × 64
/// one above the other, 8: two 16 × 32 one above the other, 16: one 16 × 16,
/// 32: two 16 × 8 side by side).
uint32_t SquareFractals(uint32_t elem_bits);
/// Transposes one square: `from[j]` is its fractal j in the source, `to[j]`
/// where fractal j of the transposed square goes (the two may overlap).
void TransposeSquare(uint32_t elem_bits, const uint8_t* const* from,
                     uint8_t* const* to);

}  // namespace normgrad_ascendc

namespace AscendC {

/// L1 → L0A / L0B, square by square, each transposed.
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& loadDataParams,
                           normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  static_assert(normgrad_ascendc::kCubeMoveOrInt4<U> &&
                    !std::is_same_v<U, int16_t> && !std::is_same_v<U, uint16_t>,
                "LoadDataWithTranspose: T must be int4b_t (into L0B), int8_t, "
                "uint8_t, half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  constexpr uint32_t bits =
      std::is_same_v<U, int4b_t> ? 4 : static_cast<uint32_t>(sizeof(U) * 8);
  normgrad_ascendc::RunLoadDataWithTranspose(normgrad_ascendc::TypeName<U>(),
                                             bits, dst.view(), src.view(),
                                             loadDataParams);
}

}  // namespace AscendC
