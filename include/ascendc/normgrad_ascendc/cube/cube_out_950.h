// normgrad_ascendc/cube/cube_out_950.h — the Ascend 950's ways out of L0C
// (docs/cube.md, "The Ascend 950: out of L0C, and UB ↔ L1"):
// FixpipeParamsArch3510 and the Fixpipe forms that take it, L0C → GM,
// L0C → L1 and L0C → UB (the UB of a vector core of the same AI Core, or of
// both in the dual-destination mode), each with an NZ, ND (NZ2ND) or DN
// (NZ2DN) output and the casts, quantization modes and ReLU that the Atlas
// A2/A3 Fixpipe has (cube_api.h) plus the 950's added quantization modes
// (into fp8_e4m3fn_t, hifloat8_t, half, bfloat16_t and float), computed by
// the same code; and
// DataCopyL1ToUB, the cube core's copy from L1 into a vector core's UB.
//
// The forms run on the 950 profile only; on another profile a call is a
// KernelError naming the profile. The checks and the element walk are in
// src/ascendc/cube/cube_out_950.cc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy_params.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// NZ2DN: the output is column major (DN); the Ascend 950's only.
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR{CO2Layout::COLUMN_MAJOR};

/// NZ2ND's matrices (FixpipeParamsArch3510<CO2Layout::ROW_MAJOR>::params).
struct Nz2NdParams {
  uint16_t ndNum = 1;        ///< matrices (0: nothing)
  uint16_t srcNdStride = 0;  ///< 16-value rows of L0C between matrices
  uint32_t dstNdStride = 0;  ///< elements between destination matrices
};

/// NZ2DN's matrices (FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR>::params).
struct Nz2DnParams {
  uint16_t dnNum = 1;              ///< matrices (0: nothing)
  uint16_t srcNzMatrixStride = 0;  ///< 16-value rows between source matrices
  uint32_t dstDnMatrixStride = 0;  ///< elements between destination matrices
  uint16_t srcNzC0Stride = 0;      ///< 16-value rows between a fractal's rows
};

/// The `params` field's type for each output layout (NZ: none to set).
template <CO2Layout format>
struct TransformParams {};
template <>
struct TransformParams<CO2Layout::NZ> {
  TransformParams() {}
  using PARAMS = uint8_t;
};
template <>
struct TransformParams<CO2Layout::ROW_MAJOR> {
  TransformParams() {}
  using PARAMS = Nz2NdParams;
};
template <>
struct TransformParams<CO2Layout::COLUMN_MAJOR> {
  TransformParams() {}
  using PARAMS = Nz2DnParams;
};

/// Fixpipe out of L0C on the Ascend 950 (units in the comments).
template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsArch3510 {
  uint16_t nSize = 0;      ///< columns (N) of the source, 0..4095
  uint16_t mSize = 0;      ///< rows (M), 0..65535
  uint16_t srcStride = 0;  ///< 16-value rows between column blocks
  /// NZ: elements between the destination's column blocks; ND / DN:
  /// elements of a destination row.
  uint32_t dstStride = 0;
  QuantMode_t quantPre = NoQuant;
  uint64_t deqScalar = 0;  ///< the scalar modes' parameter (QUANT_PRE)
  bool reluEn = false;
  uint8_t unitFlag = 0;  ///< 0, 2 or 3
  typename TransformParams<format>::PARAMS params{};
  /// L0C → UB: 0 one UB (subBlockId's), 1 rows split in two halves, 2
  /// columns split in two halves (3 is reserved).
  uint8_t dualDstCtrl = 0;
  uint8_t subBlockId = 0;       ///< L0C → UB, one UB: vector core 0 or 1
  bool isChannelSplit = false;  ///< F32 Channel Split, L0C → GM NZ only
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// FixpipeParamsArch3510 without its layout in the type.
struct Fixpipe950Params {
  AscendC::CO2Layout layout;
  uint16_t n_size, m_size, src_stride;
  uint32_t dst_stride;
  AscendC::QuantMode_t quant_pre;
  uint64_t deq_scalar;
  bool relu;
  uint8_t unit_flag;
  uint32_t num;                // ndNum / dnNum (NZ: 1)
  uint32_t src_matrix_stride;  // srcNdStride / srcNzMatrixStride
  uint64_t dst_matrix_stride;  // dstNdStride / dstDnMatrixStride
  uint32_t src_c0_stride;      // srcNzC0Stride (NZ, ND: 1)
  uint8_t dual_dst;
  uint8_t sub_block;
  bool channel_split;
};

template <AscendC::CO2Layout format>
Fixpipe950Params Fixpipe950ParamsOf(
    const AscendC::FixpipeParamsArch3510<format>& p) {
  Fixpipe950Params q{format,
                     p.nSize,
                     p.mSize,
                     p.srcStride,
                     p.dstStride,
                     p.quantPre,
                     p.deqScalar,
                     p.reluEn,
                     p.unitFlag,
                     1,
                     0,
                     0,
                     1,
                     p.dualDstCtrl,
                     p.subBlockId,
                     p.isChannelSplit};
  if constexpr (format == AscendC::CO2Layout::ROW_MAJOR) {
    q.num = p.params.ndNum;
    q.src_matrix_stride = p.params.srcNdStride;
    q.dst_matrix_stride = p.params.dstNdStride;
  } else if constexpr (format == AscendC::CO2Layout::COLUMN_MAJOR) {
    q.num = p.params.dnNum;
    q.src_matrix_stride = p.params.srcNzMatrixStride;
    q.dst_matrix_stride = p.params.dstDnMatrixStride;
    q.src_c0_stride = p.params.srcNzC0Stride;
  }
  return q;
}

/// Where a V mode's per-column parameters lie: the C++ forms' cbufWorkspace
/// in L1, or the fixpipe buffer at SetFixPipeConfig's tensor (the C API's
/// copies out of L0C, after asc_set_l0c2gm_config).
enum class Fixpipe950Table : uint8_t { kCbufWorkspace, kFixpipeBuffer };

/// Fixpipe with FixpipeParamsArch3510: into GM (`dst_gm`) or a LocalTensor
/// (`dst_local`: L1, or with `to_ub` a vector core's UB), the other null;
/// `workspace` (the per-column parameters, where `table` says) null in the
/// forms without them.
void RunFixpipe950(CubeType dst_type, CubeType src_type, bool to_ub,
                   const GmSide* dst_gm, const TensorView* dst_local,
                   const TensorView& src, const TensorView* workspace,
                   const Fixpipe950Params& params,
                   Fixpipe950Table table = Fixpipe950Table::kCbufWorkspace);

/// DataCopyL1ToUB: `block_count` blocks of `block_len` 32-byte units from L1
/// `src` into the UB of vector core `sub_block`, `src_gap` / `dst_gap` units
/// between blocks.
void RunDataCopyL1ToUb(const char* type_name, uint32_t sub_block,
                       const TensorView& dst, const TensorView& src,
                       uint32_t block_count, uint32_t block_len,
                       uint32_t src_gap, uint32_t dst_gap);

}  // namespace normgrad_ascendc

namespace AscendC {

/// L1 → the UB of vector core subBlockId of this AI Core (1:2 kernels):
/// count elements, cut down to whole 32-byte blocks.
template <typename T, uint8_t subBlockId = 0>
void DataCopyL1ToUB(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    const uint32_t count,
                    normgrad_ascendc::CallSite site = {}) {
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
      "DataCopyL1ToUB: T must be a b8, b16, b32 or b64 type");
  static_assert(subBlockId <= 1, "DataCopyL1ToUB: subBlockId must be 0 or 1");
  const normgrad_ascendc::ApiCall call(site);
  const uint64_t blocks = uint64_t{count} * sizeof(T) / 32;
  normgrad_ascendc::RunDataCopyL1ToUb(
      normgrad_ascendc::TypeName<T>(), subBlockId, dst.view(), src.view(),
      blocks == 0 ? 0 : 1, static_cast<uint32_t>(blocks), 0, 0);
}

/// L1 → the UB of vector core subBlockId in blocks (DataCopyParams: units
/// of 32 bytes).
template <typename T, uint8_t subBlockId = 0>
void DataCopyL1ToUB(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    const DataCopyParams& repeatParams,
                    normgrad_ascendc::CallSite site = {}) {
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
      "DataCopyL1ToUB: T must be a b8, b16, b32 or b64 type");
  static_assert(subBlockId <= 1, "DataCopyL1ToUB: subBlockId must be 0 or 1");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunDataCopyL1ToUb(
      normgrad_ascendc::TypeName<T>(), subBlockId, dst.view(), src.view(),
      repeatParams.blockCount, repeatParams.blockLen, repeatParams.srcStride,
      repeatParams.dstStride);
}

/// L0C → GM, Ascend 950 form (T: the GM type, U: the L0C type).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsArch3510<config.format>& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  static_assert(!config.isToUB,
                "Fixpipe: config.isToUB is for a LocalTensor dst in the UB");
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::GmSide gm = normgrad_ascendc::GmSideOf(dst);
  normgrad_ascendc::RunFixpipe950(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      false, &gm, nullptr, src.view(), nullptr,
      normgrad_ascendc::Fixpipe950ParamsOf(intriParams));
}

/// L0C → GM with per-column quantization parameters (cbufWorkspace in L1).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          typename S = uint64_t>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsArch3510<config.format>& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  static_assert(!config.isToUB,
                "Fixpipe: config.isToUB is for a LocalTensor dst in the UB");
  static_assert(std::is_same_v<S, uint64_t>,
                "Fixpipe: cbufWorkspace must be a LocalTensor<uint64_t>");
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::GmSide gm = normgrad_ascendc::GmSideOf(dst);
  normgrad_ascendc::RunFixpipe950(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      false, &gm, nullptr, src.view(), &cbufWorkspace.view(),
      normgrad_ascendc::Fixpipe950ParamsOf(intriParams));
}

/// L0C → L1, or with config.isToUB L0C → a vector core's UB (T: the dst
/// type, U: the L0C type).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsArch3510<config.format>& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunFixpipe950(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      config.isToUB, nullptr, &dst.view(), src.view(), nullptr,
      normgrad_ascendc::Fixpipe950ParamsOf(intriParams));
}

/// L0C → L1 or UB with per-column quantization parameters.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          typename S = uint64_t>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsArch3510<config.format>& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  static_assert(std::is_same_v<S, uint64_t>,
                "Fixpipe: cbufWorkspace must be a LocalTensor<uint64_t>");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunFixpipe950(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      config.isToUB, nullptr, &dst.view(), src.view(), &cbufWorkspace.view(),
      normgrad_ascendc::Fixpipe950ParamsOf(intriParams));
}

}  // namespace AscendC
