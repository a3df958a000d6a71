// normgrad_ascendc/cube/cube_sparse.h — the 4:2 structured-sparse matrix
// multiply of Atlas A2/A3 (docs/cube.md, "Sparse Mmad"):
// LoadDataWithSparse moves the densified int8 B (K/2 × N, Zn fractals) from
// L1 into L0B and its 2-bit index fractals (128 bytes each) into the cube
// core's index buffer; MmadWithSparse multiplies the full int8 A (M × K in
// L0A) by it, each index choosing which of four A values meets a dense B
// value, into int32_t in L0C. T may be a TensorTrait (PrimT<T>). The moves,
// the arithmetic and their checks are in src/ascendc/cube/cube_sparse.cc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace normgrad_ascendc {

void RunLoadDataWithSparse(const TensorView& dst, const TensorView& src,
                           const TensorView& idx,
                           const AscendC::LoadData2DParams& params);
void RunMmadWithSparse(const TensorView& dst, const TensorView& fm,
                       const TensorView& filter,
                       const AscendC::MmadParams& params);

}  // namespace normgrad_ascendc

namespace AscendC {

/// L1 (B1) → L0B: repeatTimes consecutive 512-byte fractals of the dense B
/// from fractal startIndex, and as many 128-byte index fractals of idx from
/// index fractal startIndex into the index buffer beside them.
template <typename T = int8_t, typename U = uint8_t>
void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<U>& idx,
                        const LoadData2DParams& loadDataParam,
                        normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<PrimT<T>, int8_t>,
                "LoadDataWithSparse: T (dst, src) must be int8_t");
  static_assert(std::is_same_v<PrimT<U>, uint8_t>,
                "LoadDataWithSparse: U (idx) must be uint8_t");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadDataWithSparse(dst.view(), src.view(), idx.view(),
                                          loadDataParam);
}

/// C (m × n, int32_t in L0C) = A (m × k, int8_t in L0A) × B, B the dense
/// (k / 2 × n) int8_t in L0B whose indices LoadDataWithSparse loaded, plus
/// the initial C the parameters choose.
template <typename T = int32_t, typename U = int8_t>
void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                    const LocalTensor<U>& filter, const MmadParams& mmadParams,
                    normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<PrimT<T>, int32_t>,
                "MmadWithSparse: T (dst) must be int32_t");
  static_assert(std::is_same_v<PrimT<U>, int8_t>,
                "MmadWithSparse: U (fm, filter) must be int8_t");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmadWithSparse(dst.view(), fm.view(), filter.view(),
                                      mmadParams);
}

}  // namespace AscendC
