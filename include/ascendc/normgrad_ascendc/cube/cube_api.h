// normgrad_ascendc/cube/cube_api.h — the cube unit's basic data path
// (docs/cube.md): DataCopy GM → L1 with ND2NZ (Nd2NzParams), LoadData 2D
// L1/GM → L0A/L0B (LoadData2DParams), Mmad L0A × L0B → L0C (MmadParams) and
// Fixpipe L0C → GM (NZ2ND or NZ2NZ, with F32 Channel Split and Int8 Channel
// Merge) and L0C → L1 (FixpipeParamsV220) with its casts and quantization
// modes, and DataCopy L0C → GM / L1 with the fixpipe registers, as the Atlas
// A2/A3 pages give them. The contiguous DataCopy forms between GM and L1 are
// the DataCopy overloads of data_copy.h, which tell an L1 tensor by its
// position.
//
// Each call checks its operands (position, alignment, bounds) and parameters
// (documented ranges and rules) and reports a broken rule as a KernelError
// naming the call, the argument, the value and the rule. The computation is
// in src/ascendc/cube/cube_ops.cc; the layouts and the accumulation order are
// in docs/cube.md and docs/numerics.md.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_table_copy.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/float8.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// DataCopy GM → L1 with the ND → Nz conversion (units in the comments).
struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn,
              uint16_t srcNdMatrixStrideIn, uint16_t srcDValueIn,
              uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;              ///< ND matrices, 0..4095 (0: nothing)
  uint16_t nValue = 0;             ///< rows of each, 0..16384 (0: nothing)
  uint16_t dValue = 0;             ///< columns of each (0: nothing)
  uint16_t srcNdMatrixStride = 0;  ///< elements between source matrices
  uint16_t srcDValue = 0;          ///< elements of a source row, >= 1
  uint16_t dstNzC0Stride = 0;      ///< 32-byte units between column blocks
  uint16_t dstNzNStride = 0;       ///< 32-byte units between rows
  uint16_t dstNzMatrixStride = 0;  ///< elements between destination matrices
};

/// LoadData 2D: repeatTimes 512-byte fractals from fractal startIndex of
/// src, srcStride fractals apart, into dst with dstGap fractals between.
struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn,
                   uint16_t srcStrideIn, uint8_t sidIn, uint16_t dstGapIn,
                   bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        sid(sidIn),
        dstGap(dstGapIn),
        ifTranspose(ifTransposeIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;  ///< 0: nothing
  uint16_t srcStride = 0;
  uint8_t sid = 0;  ///< reserved; ignored
  uint16_t dstGap = 0;
  bool ifTranspose = false;  ///< transpose each fractal (b16, from L1)
  uint8_t addrMode = 0;      ///< 0: the fractal index grows
};

/// Mmad: C (m × n, L0C) = A (m × k, L0A) × B (k × n, L0B) + the initial C.
struct MmadParams {
  uint16_t m = 0;  ///< 0..4095 (0: nothing)
  uint16_t n = 0;
  uint16_t k = 0;
  bool cmatrixInitVal = true;    ///< C starts at 0
  bool cmatrixSource = false;    ///< C starts from the bias table
  bool isBias = false;           ///< deprecated: C += A × B
  bool disableGemv = false;      ///< the 950 only
  uint8_t unitFlag = 0;          ///< 0, 2 or 3
  bool kDirectionAlign = false;  ///< float: K aligned to 16 instead of 8
  int32_t fmOffset = 0;          ///< not used on Atlas A2/A3
  bool enSsparse = false;        ///< not used on Atlas A2/A3
  bool enWinogradA = false;      ///< not used on Atlas A2/A3
  bool enWinogradB = false;      ///< not used on Atlas A2/A3
};

/// Fixpipe's conversion of the L0C values on their way out (the V forms read
/// one parameter per column). The modes from QF322FP8_PRE on are the Ascend
/// 950's: float into fp8_e4m3fn_t, hifloat8_t (rounding half away from zero,
/// or the hybrid rounding), half, bfloat16_t or float, and int32_t into
/// bfloat16_t, each times a scale.
enum QuantMode_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
  QF322FP8_PRE,
  VQF322FP8_PRE,
  QF322HIF8_PRE,
  VQF322HIF8_PRE,
  QF322HIF8_PRE_HYBRID,
  VQF322HIF8_PRE_HYBRID,
  QS322BF16_PRE,
  VQS322BF16_PRE,
  QF322F16_PRE,
  VQF322F16_PRE,
  QF322BF16_PRE,
  VQF322BF16_PRE,
  QF322F32_PRE,
  VQF322F32_PRE,
};

/// Fixpipe's output layout.
enum class CO2Layout : uint8_t { NZ, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB = false;  ///< L0C → UB: not on Atlas A2/A3
};
/// NZ2ND: the output is row major (ND).
inline constexpr FixpipeConfig CFG_ROW_MAJOR{CO2Layout::ROW_MAJOR};
/// NZ2NZ: the output keeps the Nz layout.
inline constexpr FixpipeConfig CFG_NZ{CO2Layout::NZ};

/// Fixpipe L0C → GM or L1 (Atlas A2/A3 form).
struct FixpipeParamsV220 {
  uint16_t nSize = 0;      ///< columns (N) of the source, 0..4095
  uint16_t mSize = 0;      ///< rows (M); NZ2ND: 0..8192, NZ: 0..65535
  uint16_t srcStride = 0;  ///< 16-element units between column blocks
  /// NZ2ND: elements of a destination row; NZ: 32-byte units between the
  /// destination's column blocks.
  uint32_t dstStride = 0;
  QuantMode_t quantPre = NoQuant;
  uint64_t deqScalar = 0;    ///< the scalar modes' parameter (QUANT_PRE)
  uint16_t ndNum = 1;        ///< matrices (0: nothing)
  uint16_t srcNdStride = 0;  ///< 16-element units between source matrices
  uint32_t dstNdStride = 0;  ///< elements between destination matrices
  bool reluEn = false;
  uint8_t unitFlag = 0;  ///< 0, 2 or 3
  bool channelSplit = false;
};

/// DataCopy L0C → GM: the Fixpipe of FixpipeParamsV220 with its settings in
/// the fixpipe registers (SetFixpipePreQuantFlag, SetFixPipeConfig,
/// SetFixpipeNz2ndFlag).
struct DataCopyCO12DstParams {
  uint8_t sid = 0;         ///< reserved; ignored
  uint16_t nSize = 0;      ///< as FixpipeParamsV220
  uint16_t mSize = 0;      ///< as FixpipeParamsV220
  uint32_t dstStride = 0;  ///< as FixpipeParamsV220
  uint16_t srcStride = 0;  ///< as FixpipeParamsV220
  uint8_t unitFlag = 0;    ///< 0, 2 or 3
  QuantMode_t quantPre = NoQuant;
  uint8_t reluPre = 0;  ///< 0: no ReLU, 1: Normal ReLU
  bool channelSplit = false;
  bool nz2ndEn = false;  ///< ND output with SetFixpipeNz2ndFlag's setting
};

/// Fill: repeatTimes repeats of blockNum blocks set to initValue, dstGap
/// blocks between repeats (blocks of 32 bytes in L1, 512 in L0A/L0B).
template <typename U>
struct InitConstValueParams {
  InitConstValueParams() = default;
  // The counts must be integers: a braced list of four floats (a test's
  // own Fill helper, say) is then no InitConstValueParams.
  template <typename R, typename B, typename G,
            typename = std::enable_if_t<std::is_integral_v<R> &&
                                        std::is_integral_v<B> &&
                                        std::is_integral_v<G>>>
  InitConstValueParams(R repeatTimesIn, B blockNumIn, G dstGapIn, U initValueIn)
      : repeatTimes(static_cast<uint16_t>(repeatTimesIn)),
        blockNum(static_cast<uint16_t>(blockNumIn)),
        dstGap(static_cast<uint16_t>(dstGapIn)),
        initValue(initValueIn) {}
  uint16_t repeatTimes = 0;  ///< 0..32767 (0: nothing)
  uint16_t blockNum = 0;     ///< 0..32767 (0: nothing)
  uint16_t dstGap = 0;       ///< 0..32767
  U initValue{};
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The element types the cube calls tell apart.
enum class CubeType : uint8_t {
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kHalf,
  kBfloat16,
  kInt32,
  kUint32,
  kFloat,
  kInt4,
  // The Ascend 950's 8-bit floats and the MX scale (runtime/float8.h), and
  // its packed 4-bit floats (two a byte).
  kFp8E4m3,
  kFp8E5m2,
  kHif8,
  kFp8E8m0,
  kFp4E2m1,
  kFp4E1m2,
  kOther,
};

template <typename T>
constexpr CubeType CubeTypeOf() {
  if constexpr (std::is_same_v<T, int8_t>) return CubeType::kInt8;
  if constexpr (std::is_same_v<T, uint8_t>) return CubeType::kUint8;
  if constexpr (std::is_same_v<T, int16_t>) return CubeType::kInt16;
  if constexpr (std::is_same_v<T, uint16_t>) return CubeType::kUint16;
  if constexpr (std::is_same_v<T, half>) return CubeType::kHalf;
  if constexpr (std::is_same_v<T, bfloat16_t>) return CubeType::kBfloat16;
  if constexpr (std::is_same_v<T, int32_t>) return CubeType::kInt32;
  if constexpr (std::is_same_v<T, uint32_t>) return CubeType::kUint32;
  if constexpr (std::is_same_v<T, float>) return CubeType::kFloat;
  if constexpr (std::is_same_v<T, AscendC::int4b_t>) return CubeType::kInt4;
  if constexpr (std::is_same_v<T, fp8_e4m3fn_t>) return CubeType::kFp8E4m3;
  if constexpr (std::is_same_v<T, fp8_e5m2_t>) return CubeType::kFp8E5m2;
  if constexpr (std::is_same_v<T, hifloat8_t>) return CubeType::kHif8;
  if constexpr (std::is_same_v<T, fp8_e8m0_t>) return CubeType::kFp8E8m0;
  if constexpr (std::is_same_v<T, fp4x2_e2m1_t>) return CubeType::kFp4E2m1;
  if constexpr (std::is_same_v<T, fp4x2_e1m2_t>) return CubeType::kFp4E1m2;
  return CubeType::kOther;
}

/// The types of a byte or more the cube's moves take on Atlas A2/A3.
template <typename T>
inline constexpr bool kCubeMoveType =
    CubeTypeOf<T>() != CubeType::kOther&& CubeTypeOf<T>() != CubeType::kInt4;
/// ND2NZ and LoadData 2D L1 → L0A/L0B also take int4b_t, moved as its bytes
/// (the ND2NZ page: a b4 matrix is set up as b8).
template <typename T>
inline constexpr bool kCubeMoveOrInt4 =
    kCubeMoveType<T> || std::is_same_v<T, AscendC::int4b_t>;

/// A GlobalTensor's side of a cube call.
struct GmSide {
  uint8_t* data;
  uint64_t elems;
  bool sized;
  const void* base;
  bool int4 = false;  ///< `elems` counts bytes of two int4b_t each
};

template <typename T>
GmSide GmSideOf(const AscendC::GlobalTensor<T>& t) {
  return {reinterpret_cast<uint8_t*>(t.GetPhyAddr()), t.GetSize(), t.sized(),
          t.base()};
}
/// An int4b_t GlobalTensor's side counts its bytes.
inline GmSide GmSideOf(const AscendC::GlobalTensor<AscendC::int4b_t>& t) {
  return {reinterpret_cast<uint8_t*>(t.GetPhyAddr()), (t.GetSize() + 1) / 2,
          t.sized(), t.base(), true};
}

void RunNd2Nz(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
              const GmSide& src, const AscendC::Nd2NzParams& params);
/// `src_local` or `src_gm` is the source (the other null).
void RunLoadData2D(const char* type_name, uint32_t elem_bytes,
                   const TensorView& dst, const TensorView* src_local,
                   const GmSide* src_gm,
                   const AscendC::LoadData2DParams& params);
/// `bias` null: the form without a bias tensor.
void RunMmad(CubeType dst_type, CubeType fm_type, CubeType filter_type,
             const TensorView& dst, const TensorView& fm,
             const TensorView& filter, const TensorView* bias,
             CubeType bias_type, const AscendC::MmadParams& params);
/// Fixpipe writes to GM (`dst_gm`) or to an L1 tensor (`dst_l1`), the other
/// null; `workspace` (the per-channel quantization parameters in L1) is null
/// in the forms without cbufWorkspace.
void RunFixpipe(CubeType dst_type, CubeType src_type, AscendC::CO2Layout layout,
                const GmSide* dst_gm, const TensorView* dst_l1,
                const TensorView& src, const TensorView* workspace,
                const AscendC::FixpipeParamsV220& params);
/// Fill: the `elem_bytes` bytes at `value` repeated over the blocks.
void RunFill(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
             uint32_t repeat_times, uint32_t block_num, uint32_t dst_gap,
             const void* value);
/// DataCopy L0C → GM with the fixpipe registers.
void RunDataCopyL0cToGm(CubeType dst_type, CubeType src_type, const GmSide& dst,
                        const TensorView& src,
                        const AscendC::DataCopyCO12DstParams& params);
/// DataCopy L0C -> L1 (NZ) with the fixpipe registers.
void RunDataCopyL0cToL1(CubeType dst_type, CubeType src_type,
                        const TensorView& dst, const TensorView& src,
                        const AscendC::DataCopyCO12DstParams& params);
/// SetFixPipeConfig: `quant` null sets no quantization tensor;
/// `clear_unit_flags` (isUnitFlag) sets every unit flag of L0C to 0.
void RunSetFixPipeConfig(const TensorView* quant, const TensorView* relu,
                         bool clear_unit_flags);
void RunSetFixpipeNz2ndFlag(uint16_t nd_num, uint16_t src_nd_stride,
                            uint16_t dst_nd_stride);
void RunSetFixpipePreQuantFlag(uint64_t config);

}  // namespace normgrad_ascendc

namespace AscendC {

/// GM → L1 with the ND → Nz conversion; with dst in the UB, the vector
/// core's GM → UB form (cube_l1_moves.h).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const Nd2NzParams& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kCubeMoveOrInt4<T>,
                "DataCopy(Nd2NzParams): T must be int4b_t, int8_t, uint8_t, "
                "int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or "
                "float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunNd2Nz(normgrad_ascendc::TypeName<T>(), sizeof(T),
                             dst.view(), normgrad_ascendc::GmSideOf(src),
                             intriParams);
}

/// L1 → L0A / L0B, fractal by fractal.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData2DParams& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kCubeMoveOrInt4<T>,
                "LoadData: T must be int4b_t, int8_t, uint8_t, int16_t, "
                "uint16_t, half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadData2D(normgrad_ascendc::TypeName<T>(), sizeof(T),
                                  dst.view(), &src.view(), nullptr,
                                  loadDataParams);
}

/// GM → L0A / L0B, fractal by fractal (no transpose).
template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const LoadData2DParams& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kCubeMoveType<T>,
                "LoadData: T must be int8_t, uint8_t, int16_t, uint16_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::GmSide gm = normgrad_ascendc::GmSideOf(src);
  normgrad_ascendc::RunLoadData2D(normgrad_ascendc::TypeName<T>(), sizeof(T),
                                  dst.view(), nullptr, &gm, loadDataParams);
}

/// L1 → bias table with a conversion (float from half, and on the 950 from
/// bfloat16_t): blockLen and dstGap in 64 bytes of dst (32 on the 950),
/// srcGap in 32 bytes of src. The same-type forms are the DataCopy
/// overloads of data_copy.h.
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyParams& repeatParams,
              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunL1ToCubeTable(
      {normgrad_ascendc::TypeName<T>(), sizeof(T)},
      {normgrad_ascendc::TypeName<U>(), sizeof(U)}, dst.view(), &src.view(), 0,
      &repeatParams);
}

namespace cube_detail {
// The 8-bit float inputs of the Ascend 950's Mmad: the two FP8 formats mix,
// hifloat8_t pairs only with itself.
template <typename U, typename S>
inline constexpr bool kMmadFloat8Pair =
    ((std::is_same_v<U, fp8_e4m3fn_t> ||
      std::is_same_v<U, fp8_e5m2_t>)&&(std::is_same_v<S, fp8_e4m3fn_t> ||
                                       std::is_same_v<S, fp8_e5m2_t>)) ||
    (std::is_same_v<U, hifloat8_t> && std::is_same_v<S, hifloat8_t>);
// The type pairs of Mmad: dst, fm, filter (Atlas A2/A3 and the 950's 8-bit
// floats, which RunMmad refuses on other profiles).
template <typename T, typename U, typename S>
inline constexpr bool kMmadPair =
    (std::is_same_v<T, int32_t> && std::is_same_v<U, int8_t> &&
     std::is_same_v<S, int8_t>) ||
    (std::is_same_v<T, int32_t> && std::is_same_v<U, AscendC::int4b_t> &&
     std::is_same_v<S, AscendC::int4b_t>) ||
    (std::is_same_v<T, float> && std::is_same_v<U, S> &&
     (std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t> ||
      std::is_same_v<U, float>)) ||
    (std::is_same_v<T, float> && kMmadFloat8Pair<U, S>);

}  // namespace cube_detail

/// C = A × B (+ the initial C the parameters choose).
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
          const LocalTensor<S>& filter, const MmadParams& mmadParams,
          normgrad_ascendc::CallSite site = {}) {
  static_assert(cube_detail::kMmadPair<T, U, S>,
                "Mmad: (dst, fm, filter) must be (int32_t, int8_t, int8_t), "
                "(int32_t, int4b_t, int4b_t), (float, half, half), (float, "
                "bfloat16_t, bfloat16_t), (float, float, float), (float, "
                "fp8_e4m3fn_t or fp8_e5m2_t, fp8_e4m3fn_t or fp8_e5m2_t) or "
                "(float, hifloat8_t, hifloat8_t)");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmad(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      normgrad_ascendc::CubeTypeOf<S>(), dst.view(), fm.view(), filter.view(),
      nullptr, normgrad_ascendc::CubeType::kOther, mmadParams);
}

/// C = bias (broadcast over the rows) + A × B.
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
          const LocalTensor<S>& filter, const LocalTensor<V>& bias,
          const MmadParams& mmadParams, normgrad_ascendc::CallSite site = {}) {
  static_assert(cube_detail::kMmadPair<T, U, S>,
                "Mmad: (dst, fm, filter) must be (int32_t, int8_t, int8_t), "
                "(float, half, half), (float, bfloat16_t, bfloat16_t), "
                "(float, float, float), (float, fp8_e4m3fn_t or fp8_e5m2_t, "
                "fp8_e4m3fn_t or fp8_e5m2_t) or (float, hifloat8_t, "
                "hifloat8_t)");
  static_assert(std::is_same_v<V, T>,
                "Mmad: the bias type must be the dst type (int32_t or float)");
  static_assert(!std::is_same_v<U, AscendC::int4b_t>,
                "Mmad: the bias form takes no int4b_t inputs (its page's "
                "table lists none)");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmad(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      normgrad_ascendc::CubeTypeOf<S>(), dst.view(), fm.view(), filter.view(),
      &bias.view(), normgrad_ascendc::CubeTypeOf<V>(), mmadParams);
}

namespace cube_detail {
// Fixpipe's operand types, checked at compile time.
template <typename T, typename U>
constexpr void CheckFixpipeTypes() {
  static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>,
                "Fixpipe: the L0C type U must be float or int32_t");
  static_assert(normgrad_ascendc::kCubeMoveType<T>,
                "Fixpipe: T must be a documented output type (float, half, "
                "bfloat16_t, int32_t, int8_t, uint8_t)");
}
// The L0C -> UB path is the Ascend 950's and Atlas 200I/500 A2's only.
template <const FixpipeConfig& config>
constexpr void CheckFixpipeConfig() {
  static_assert(!config.isToUB,
                "Fixpipe: config.isToUB (L0C -> UB) is not on Atlas A2/A3: "
                "its page lists the Ascend 950 and Atlas 200I/500 A2 only");
}
}  // namespace cube_detail

/// L0C → GM (T: the GM type, U: the L0C type).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsV220& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  cube_detail::CheckFixpipeConfig<config>();
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::GmSide gm = normgrad_ascendc::GmSideOf(dst);
  normgrad_ascendc::RunFixpipe(normgrad_ascendc::CubeTypeOf<T>(),
                               normgrad_ascendc::CubeTypeOf<U>(), config.format,
                               &gm, nullptr, src.view(), nullptr, intriParams);
}

/// L0C → GM with per-channel quantization parameters (cbufWorkspace in L1,
/// one uint64_t per column).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          typename S = uint64_t>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  cube_detail::CheckFixpipeConfig<config>();
  static_assert(std::is_same_v<S, uint64_t>,
                "Fixpipe: cbufWorkspace must be a LocalTensor<uint64_t>");
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::GmSide gm = normgrad_ascendc::GmSideOf(dst);
  normgrad_ascendc::RunFixpipe(normgrad_ascendc::CubeTypeOf<T>(),
                               normgrad_ascendc::CubeTypeOf<U>(), config.format,
                               &gm, nullptr, src.view(), &cbufWorkspace.view(),
                               intriParams);
}

/// L0C → L1 (NZ output only).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsV220& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  cube_detail::CheckFixpipeConfig<config>();
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunFixpipe(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      config.format, nullptr, &dst.view(), src.view(), nullptr, intriParams);
}

/// L0C → L1 with per-channel quantization parameters.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          typename S = uint64_t>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  cube_detail::CheckFixpipeConfig<config>();
  static_assert(std::is_same_v<S, uint64_t>,
                "Fixpipe: cbufWorkspace must be a LocalTensor<uint64_t>");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunFixpipe(normgrad_ascendc::CubeTypeOf<T>(),
                               normgrad_ascendc::CubeTypeOf<U>(), config.format,
                               nullptr, &dst.view(), src.view(),
                               &cbufWorkspace.view(), intriParams);
}

/// L0C → GM as set up by the fixpipe registers (T: the GM type, U: the L0C
/// type).
template <typename T, typename U>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyCO12DstParams& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunDataCopyL0cToGm(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      normgrad_ascendc::GmSideOf(dst), src.view(), intriParams);
}

/// L0C → L1 as set up by the fixpipe registers: NZ, always converted (T: the
/// L1 type, U: the L0C type).
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyCO12DstParams& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckFixpipeTypes<T, U>();
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunDataCopyL0cToL1(normgrad_ascendc::CubeTypeOf<T>(),
                                       normgrad_ascendc::CubeTypeOf<U>(),
                                       dst.view(), src.view(), intriParams);
}

/// Points the per-column quantization at `quantPre` in the fixpipe buffer;
/// `reluPre` is reserved (an empty tensor).
template <typename T>
void SetFixPipeConfig(const LocalTensor<T>& reluPre,
                      const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                      normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, uint64_t>,
                "SetFixPipeConfig: T must be uint64_t");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetFixPipeConfig(&quantPre.view(), &reluPre.view(),
                                        isUnitFlag);
}

/// The one-tensor form: `preData` is the quantization tensor in the fixpipe
/// buffer, or (to clear the unit flags only) a tensor at CO1.
template <typename T, bool setRelu = false>
void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false,
                      normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, uint64_t>,
                "SetFixPipeConfig: T must be uint64_t");
  static_assert(!setRelu,
                "SetFixPipeConfig: setRelu must be false (the one tensor is "
                "the quantization tensor)");
  const normgrad_ascendc::ApiCall call(site);
  const bool clear_only =
      isUnitFlag && preData.view().position == TPosition::CO1;
  normgrad_ascendc::RunSetFixPipeConfig(clear_only ? nullptr : &preData.view(),
                                        nullptr, isUnitFlag);
}

/// The NZ2ND setting of DataCopy L0C → GM.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride,
                                uint16_t dstNdStride,
                                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride);
}

/// The scalar quantization parameter of DataCopy L0C → GM.
inline void SetFixpipePreQuantFlag(uint64_t config,
                                   normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetFixpipePreQuantFlag(config);
}

/// Sets blocks of an L1, L0A or L0B tensor to one value.
template <typename T, typename U = T>
void Fill(const LocalTensor<T>& dst,
          const InitConstValueParams<U>& initConstValueParams,
          normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, U>,
                "Fill: the value's type U must be the dst type T");
  static_assert(normgrad_ascendc::kCubeMoveType<T>,
                "Fill: T must be int8_t, uint8_t, int16_t, uint16_t, half, "
                "bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunFill(
      normgrad_ascendc::TypeName<T>(), sizeof(T), dst.view(),
      initConstValueParams.repeatTimes, initConstValueParams.blockNum,
      initConstValueParams.dstGap, &initConstValueParams.initValue);
}

}  // namespace AscendC
