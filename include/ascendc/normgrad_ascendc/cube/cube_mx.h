// normgrad_ascendc/cube/cube_mx.h — the Ascend 950's microscaling (MX)
// matrix multiply and its 8-bit float modes (docs/cube.md, "The Ascend 950:
// 8-bit floats and MX"):
//
//   - the MX scale buffers L0A_MX and L0B_MX (4 KiB each; the scales of an
//     operand at L0A or L0B byte address X are at X / 16), filled by the MX
//     LoadData (its matrix part is LoadData2DParamsV2's move,
//     cube_load_950.h) and its scale part (RunLoadMxScales, the C API's
//     asc_copy_l12l0a_mx / asc_copy_l12l0b_mx) in 32-byte fractals of 16
//     rows × 2 fp8_e8m0_t scales;
//   - MmadMx: C = (scaleA ⊗ A) × (scaleB ⊗ B) + the initial C, one scale per
//     32 elements along K, for the fp8 and fp4x2 input pairs of its page;
//   - the HiF8 / FP8 mode of Mmad's 8-bit float operands (asc_enable_hif8,
//     asc_enable_fp8).
//
// All of it runs on a cube core of the 950 profile only; elsewhere each call
// is a KernelError naming the call and the profile. The arithmetic is in
// src/ascendc/cube/cube_mx.cc; its order and rounding in docs/numerics.md.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/float8.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// The scale part of LoadData's MX form: a block of xStep × yStep 32-byte
/// scale fractals from L1 into L0A_MX / L0B_MX. x runs along M (N for B) in
/// fractals of 16 rows, y along K in 32-byte fractals (2 scales a row).
struct LoadData2DMxParams {
  uint16_t xStartPosition = 0;  ///< first fractal row read
  uint16_t yStartPosition = 0;  ///< first 32-byte fractal of the row read
  uint8_t xStep = 0;            ///< fractal rows moved; 0: a NOP
  uint8_t yStep = 0;            ///< fractals a row moved; 0: a NOP
  uint16_t srcStride = 0;       ///< source fractal rows apart, in 32 bytes
  uint16_t dstStride = 0;       ///< destination rows apart, in 32 bytes
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// Which MX scale buffer: A's (L0A_MX) or B's (L0B_MX).
enum class MxSide : uint8_t { kA = 0, kB = 1 };

/// The scale move of LoadData's MX form into `side`'s buffer from byte
/// `mx_addr` on, from `src` (fp8_e8m0_t, at A1 or B1).
void RunLoadMxScales(const char* api, MxSide side, uint64_t mx_addr,
                     const TensorView& src,
                     const AscendC::LoadData2DMxParams& params);
/// MmadMx; `bias` null: the form without a bias tensor.
void RunMmadMx(CubeType fm_type, CubeType filter_type, const TensorView& dst,
               const TensorView& fm, const TensorView& filter,
               const TensorView* bias, const AscendC::MmadParams& params);
/// The type Mmad reads an operand of `type` as: 8-bit floats only on the
/// 950, hifloat8_t for every 8-bit float in HiF8 mode, and a hifloat8_t
/// refused in FP8 mode (a KernelError naming `api` and `which`).
CubeType MmadInputType(const char* api, const char* which, CubeType type);
/// asc_enable_hif8 / asc_enable_fp8.
void RunSetFloat8Mode(const char* api, MmadModes::Float8Mode mode);

}  // namespace normgrad_ascendc

namespace AscendC {

namespace cube_detail {
// The input pairs of MmadMx: both fp4x2 types, or both FP8 types, mixed.
template <typename U, typename S>
inline constexpr bool kMmadMxPair =
    ((std::is_same_v<U, fp4x2_e2m1_t> ||
      std::is_same_v<U, fp4x2_e1m2_t>)&&(std::is_same_v<S, fp4x2_e2m1_t> ||
                                         std::is_same_v<S, fp4x2_e1m2_t>)) ||
    ((std::is_same_v<U, fp8_e4m3fn_t> ||
      std::is_same_v<U, fp8_e5m2_t>)&&(std::is_same_v<S, fp8_e4m3fn_t> ||
                                       std::is_same_v<S, fp8_e5m2_t>));
}  // namespace cube_detail

#define NORMGRAD_MMAD_MX_TYPES                                               \
  "MmadMx: dst must be float and (fm, filter) fp4x2_e2m1_t or fp4x2_e1m2_t " \
  "each, or fp8_e4m3fn_t or fp8_e5m2_t each"

/// C = (scaleA ⊗ A) × (scaleB ⊗ B) (+ the initial C the parameters choose),
/// the scales read from L0A_MX / L0B_MX at fm's and filter's address / 16.
template <typename T, typename U, typename S>
void MmadMx(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
            const LocalTensor<S>& filter, const MmadParams& mmadParams,
            normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, float> && cube_detail::kMmadMxPair<U, S>,
                NORMGRAD_MMAD_MX_TYPES);
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmadMx(normgrad_ascendc::CubeTypeOf<U>(),
                              normgrad_ascendc::CubeTypeOf<S>(), dst.view(),
                              fm.view(), filter.view(), nullptr, mmadParams);
}

/// C = bias (broadcast over the rows) + (scaleA ⊗ A) × (scaleB ⊗ B).
template <typename T, typename U, typename S, typename V>
void MmadMx(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
            const LocalTensor<S>& filter, const LocalTensor<V>& bias,
            const MmadParams& mmadParams,
            normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, float> && cube_detail::kMmadMxPair<U, S>,
                NORMGRAD_MMAD_MX_TYPES);
  static_assert(std::is_same_v<V, float>, "MmadMx: the bias must be float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmadMx(
      normgrad_ascendc::CubeTypeOf<U>(), normgrad_ascendc::CubeTypeOf<S>(),
      dst.view(), fm.view(), filter.view(), &bias.view(), mmadParams);
}

#undef NORMGRAD_MMAD_MX_TYPES

/// LoadData's MX form: src's fractals into dst (L0A or L0B) as
/// LoadData2DParamsV2 moves them, then srcMx's scale fractals into L0A_MX /
/// L0B_MX at dst's address / 16 as LoadData2DMxParams says.
template <typename T, typename U>
void LoadData(const LocalTensor<U>& dst, const LocalTensor<T>& src,
              const LocalTensor<fp8_e8m0_t>& srcMx,
              const LoadData2DParamsV2& loadDataParams,
              const LoadData2DMxParams& loadMxDataParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, U> && cube_detail::kMmadMxPair<T, T>,
                "LoadData (MX): src and dst must be one of fp4x2_e2m1_t, "
                "fp4x2_e1m2_t, fp8_e4m3fn_t and fp8_e5m2_t");
  constexpr bool kFp4 =
      std::is_same_v<T, fp4x2_e2m1_t> || std::is_same_v<T, fp4x2_e1m2_t>;
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::TensorView& to = dst.view();
  normgrad_ascendc::RunLoadData2DV2(normgrad_ascendc::TypeName<T>(),
                                    kFp4 ? 4 : 8, to, src.view(),
                                    loadDataParams);
  normgrad_ascendc::RunLoadMxScales(
      "LoadData (MX)",
      to.position == TPosition::B2 ? normgrad_ascendc::MxSide::kB
                                   : normgrad_ascendc::MxSide::kA,
      to.offset / 16, srcMx.view(), loadMxDataParams);
}

}  // namespace AscendC
