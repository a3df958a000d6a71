// normgrad_ascendc/cube/cube_gm_l1_950.h — the Ascend 950's moves from global
// memory into L1 (docs/cube.md, "The Ascend 950: moves into L1"): DataCopy
// with the DN → Nz conversion (Dn2NzParams, with its SmallC0 mode) and
// LoadData of whole 512-byte fractals by M and K steps (LoadData2DParamsV2,
// declared with the loads into L0A / L0B in cube_load_950.h).
// DataCopyPad GM → L1 is the DataCopyPad of data_copy_pad.h with an L1
// destination; CheckPadIntoL1 is its L1 side.
//
// These paths exist on the 950 only: on another profile each call is a
// KernelError naming the API and the profile. Each call checks its operands
// and its parameters' documented ranges before it moves a byte. The moves
// are in src/ascendc/cube/cube_gm_l1_950.cc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// DataCopy GM → L1 with the DN → Nz conversion: dnNum matrices, each read
/// as dValue source lines of nValue elements (srcDValue elements apart);
/// element n of line d lands in Nz row n, column d (units in the comments).
struct Dn2NzParams {
  Dn2NzParams() = default;
  Dn2NzParams(uint16_t dnNumIn, uint16_t nValueIn, uint32_t dValueIn,
              uint64_t srcDnMatrixStrideIn, uint64_t srcDValueIn,
              uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : dnNum(dnNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcDnMatrixStride(srcDnMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t dnNum = 0;              ///< matrices, 0..4095 (0: nothing)
  uint16_t nValue = 0;             ///< elements of a line, 0..16384
  uint32_t dValue = 0;             ///< lines, 0..2^21-1 (0: nothing)
  uint64_t srcDnMatrixStride = 0;  ///< elements between source matrices
  uint64_t srcDValue = 0;          ///< elements between source lines, >= 1
  uint16_t dstNzC0Stride = 0;      ///< 32-byte units between C0 pieces of a row
  uint16_t dstNzNStride = 0;       ///< 32-byte units between Nz rows
  uint16_t dstNzMatrixStride = 0;  ///< elements between Nz matrices
};

}  // namespace AscendC

namespace normgrad_ascendc {

void RunDn2Nz(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
              const GmSide& src, const AscendC::Dn2NzParams& params,
              bool small_c0);
void RunLoadDataGmToL1V2(const char* type_name, uint32_t elem_bytes,
                         const TensorView& dst, const GmSide& src,
                         const AscendC::LoadData2DParamsV2& params);
/// The L1 destination of DataCopyPad GM → L1 (data_copy_pad.cc): the 950
/// profile, an L1 position, 32-byte aligned.
void CheckPadIntoL1(const char* api, const TensorView& dst);

}  // namespace normgrad_ascendc

namespace AscendC {

/// GM (DN) → L1 (Nz). enableSmallC0: with dValue at most 4, each Nz row is
/// 4 elements wide instead of 32 bytes.
template <typename T, bool enableSmallC0 = false>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const Dn2NzParams& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kCubeMoveType<T>,
                "DataCopy(Dn2NzParams): T must be int8_t, uint8_t, int16_t, "
                "uint16_t, half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunDn2Nz(normgrad_ascendc::TypeName<T>(), sizeof(T),
                             dst.view(), normgrad_ascendc::GmSideOf(src),
                             intriParams, enableSmallC0);
}

/// GM (Nz) → L1, fractal by fractal.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const LoadData2DParamsV2& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kLoadV2Type<T>,
                "LoadData(LoadData2DParamsV2): T must be int8_t, uint8_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadDataGmToL1V2(
      normgrad_ascendc::TypeName<T>(), sizeof(T), dst.view(),
      normgrad_ascendc::GmSideOf(src), loadDataParams);
}

}  // namespace AscendC
