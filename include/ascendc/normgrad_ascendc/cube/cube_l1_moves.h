// normgrad_ascendc/cube/cube_l1_moves.h — the matrix moves around the cube's
// memories that sit beside the basic data path (docs/cube.md, "Matrix
// moves"): the vector core's format-converting copies, GM → UB with ND2NZ
// (the DataCopy(LocalTensor, GlobalTensor, Nd2NzParams) of cube_api.h with a
// UB destination) and UB → GM with NZ2ND (Nz2NdParamsFull, here). The GM ↔
// L1 forms with DataCopyParams are the DataCopy overloads of data_copy.h.
//
// Each call checks its operands and its parameters' documented ranges and
// reports a broken rule as a KernelError naming the call, the argument, the
// value and the rule. The moves are in src/ascendc/cube/cube_l1_moves.cc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// DataCopy UB → GM with the Nz → ND conversion: ndNum Nz matrices of
/// nValue rows and dValue columns (column blocks of 16 elements) become ND
/// matrices in GM (units in the comments).
struct Nz2NdParamsFull {
  Nz2NdParamsFull() = default;
  Nz2NdParamsFull(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn,
                  uint16_t srcNdMatrixStrideIn, uint16_t srcNStrideIn,
                  uint16_t dstDStrideIn, uint16_t dstNdMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcNStride(srcNStrideIn),
        dstDStride(dstDStrideIn),
        dstNdMatrixStride(dstNdMatrixStrideIn) {}
  uint16_t ndNum = 0;              ///< matrices, 0..4095 (0: nothing)
  uint16_t nValue = 0;             ///< rows of each, 1..8192
  uint16_t dValue = 0;             ///< columns of each, 1..8192, 16s
  uint16_t srcNdMatrixStride = 0;  ///< 256-element units, matrix to matrix
  uint16_t srcNStride = 0;         ///< 16-element units, column block to next
  uint16_t dstDStride = 0;         ///< elements from one ND row to the next
  uint16_t dstNdMatrixStride = 0;  ///< elements from one ND matrix to next
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// GM → UB with ND2NZ (the vector core's form of the ND2NZ DataCopy).
void RunNd2NzToUb(const char* type_name, uint32_t elem_bytes,
                  const TensorView& dst, const GmSide& src,
                  const AscendC::Nd2NzParams& params);
/// UB → GM with NZ2ND.
void RunNz2Nd(const char* type_name, uint32_t elem_bytes, const GmSide& dst,
              const TensorView& src, const AscendC::Nz2NdParamsFull& params);

/// The types of the NZ2ND DataCopy on Atlas A2/A3: 16- and 32-bit.
template <typename T>
inline constexpr bool kNz2NdType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, float>;

}  // namespace normgrad_ascendc

namespace AscendC {

/// UB → GM with the Nz → ND conversion.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
              const Nz2NdParamsFull& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kNz2NdType<T>,
                "DataCopy(Nz2NdParamsFull): T must be int16_t, uint16_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunNz2Nd(normgrad_ascendc::TypeName<T>(), sizeof(T),
                             normgrad_ascendc::GmSideOf(dst), src.view(),
                             intriParams);
}

}  // namespace AscendC
