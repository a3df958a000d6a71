// normgrad_ascendc/cube/cube_load_950.h — the Ascend 950's loads from L1 into
// L0A / L0B (docs/cube.md, "The Ascend 950: loads into L0A and L0B"):
// LoadData with LoadData2DParamsV2 (a block of mStep × kStep fractals of an
// Nz matrix, each fractal or square of fractals transposed on request) and
// LoadDataWithTranspose with LoadData2dTransposeParamsV2 (into L0B only), and
// LoadDataWithStride, the img2col load (cube_img2col.h) whose output
// columns lie the dstStride of SetLoadDataRepeatWithStride apart. All exist
// on the 950 profile only. The moves and their checks are in
// src/ascendc/cube/cube_load_950.cc (LoadDataWithStride: cube_img2col.cc).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_img2col.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace AscendC {

/// LoadData 2D on the 950: fractal (m, k) of the source Nz matrix lies at
/// fractal (kStartPosition + k) × srcStride + mStartPosition + m of src and
/// lands at fractal k × dstStride + m of dst.
struct LoadData2DParamsV2 {
  LoadData2DParamsV2() = default;
  LoadData2DParamsV2(uint32_t mStartPositionIn, uint32_t kStartPositionIn,
                     uint16_t mStepIn, uint16_t kStepIn, int32_t srcStrideIn,
                     uint16_t dstStrideIn, bool ifTransposeIn, uint8_t sidIn)
      : mStartPosition(mStartPositionIn),
        kStartPosition(kStartPositionIn),
        mStep(mStepIn),
        kStep(kStepIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        ifTranspose(ifTransposeIn),
        sid(sidIn) {}
  uint32_t mStartPosition = 0;  ///< first fractal row (16 elements each)
  uint32_t kStartPosition = 0;  ///< first fractal column (32 bytes each)
  uint16_t mStep = 0;           ///< fractal rows moved, 0..255 (0: nothing)
  uint16_t kStep = 0;           ///< fractal columns moved, 0..255 (0: nothing)
  int32_t srcStride = 0;        ///< fractals between src's columns, >= 0
  uint16_t dstStride = 0;       ///< fractals between dst's columns
  bool ifTranspose = false;     ///< transpose each square of fractals
  uint8_t sid = 0;              ///< reserved; ignored
};

/// LoadDataWithTranspose on the 950 (L1 → L0B): repeatTimes squares, the
/// first at fractal startIndex, srcStride fractals between the squares and
/// srcFracGap fractals between one square's fractals in src.
struct LoadData2dTransposeParamsV2 {
  LoadData2dTransposeParamsV2() = default;
  LoadData2dTransposeParamsV2(uint16_t startIndexIn, uint8_t repeatTimesIn,
                              uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn, uint16_t srcFracGapIn,
                              uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstFracGapIn),
        srcFracGap(srcFracGapIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;  ///< the first square's first fractal
  uint8_t repeatTimes = 0;  ///< squares moved, 1..255
  uint16_t srcStride = 0;   ///< fractals between the squares' firsts
  uint16_t dstGap = 0;      ///< fractals between the iterations' firsts
  uint16_t dstFracGap = 0;  ///< fractals between one square's fractals (dst)
  uint16_t srcFracGap = 0;  ///< fractals between one square's fractals (src)
  uint8_t addrMode = 0;     ///< 0: the index grows; 1: it falls
};

/// SetLoadDataRepeatWithStride's parameters: SetLoadDataRepeat's, with
/// dstStride the fractals between the output's columns of fractals.
struct LoadDataRepeatParamWithStride {
  uint16_t repeatStride = 0;  ///< rows: 16 elements; columns: 32 bytes
  uint8_t repeatTime = 1;     ///< 0: the load does nothing
  uint8_t repeatMode = 0;     ///< 0: along the rows (M); 1: the columns (K)
  uint16_t dstStride = 0;     ///< fractals between the output's columns
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The types the 950's V2 loads take (LoadData2DParamsV2, GM → L1 and
/// L1 → L0A / L0B, and their BitMode forms): the cube's, but no 16-bit
/// integers (their pages' lists).
template <typename T>
inline constexpr bool kLoadV2Type =
    kCubeMoveType<T> && !std::is_same_v<T, int16_t> &&
    !std::is_same_v<T, uint16_t>;

/// `elem_bits`: 4 (int4b_t), 8, 16 or 32.
void RunLoadData2DV2(const char* type_name, uint32_t elem_bits,
                     const TensorView& dst, const TensorView& src,
                     const AscendC::LoadData2DParamsV2& params);
void RunLoadDataWithTransposeV2(
    const char* type_name, uint32_t elem_bits, const TensorView& dst,
    const TensorView& src, const AscendC::LoadData2dTransposeParamsV2& params);

void RunSetLoadDataRepeatWithStride(
    const AscendC::LoadDataRepeatParamWithStride& params);
/// LoadData 3D (RunLoadData3D) as LoadDataWithStride: the 950 only.
void RunLoadDataWithStride(const char* type_name, uint32_t elem_bits,
                           const TensorView& dst, const TensorView& src,
                           const Img2colFields& fields, const void* pad_value);

}  // namespace normgrad_ascendc

namespace AscendC {

/// L1 → L0A / L0B on the 950: a block of fractals of an Nz matrix.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData2DParamsV2& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  static_assert(normgrad_ascendc::kLoadV2Type<U>,
                "LoadData(LoadData2DParamsV2): T must be int8_t, uint8_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadData2DV2(normgrad_ascendc::TypeName<U>(),
                                    normgrad_ascendc::kImg2colBits<U>,
                                    dst.view(), src.view(), loadDataParams);
}

/// L1 → L0B on the 950, square by square, each transposed.
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParamsV2& loadDataParams,
                           normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  static_assert(normgrad_ascendc::kLoadV2Type<U>,
                "LoadDataWithTranspose(LoadData2dTransposeParamsV2): T must "
                "be int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t or "
                "float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadDataWithTransposeV2(
      normgrad_ascendc::TypeName<U>(), normgrad_ascendc::kImg2colBits<U>,
      dst.view(), src.view(), loadDataParams);
}

/// Sets the repeat and the output's column stride of LoadDataWithStride.
inline void SetLoadDataRepeatWithStride(
    const LoadDataRepeatParamWithStride& repeatParams,
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetLoadDataRepeatWithStride(repeatParams);
}

/// img2col L1 → L0A on the 950, the output's columns dstStride fractals
/// apart.
template <
    typename T,
    const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
    typename U = PrimT<T>,
    typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type =
        true>
void LoadDataWithStride(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LoadData3DParamsV2<U>& loadDataParams,
                        normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kLoadV2Type<U>,
                "LoadDataWithStride: T must be int8_t, uint8_t, half, "
                "bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Img2colFields fields =
      normgrad_ascendc::Img2colFieldsOf(loadDataParams);
  fields.set_fmatrix = defaultConfig.isSetFMatrix;
  fields.set_padding = defaultConfig.isSetPadding;
  fields.form = "LoadDataWithStride";
  normgrad_ascendc::RunLoadDataWithStride(
      normgrad_ascendc::TypeName<U>(), normgrad_ascendc::kImg2colBits<U>,
      dst.view(), src.view(), fields, &loadDataParams.padValue);
}

}  // namespace AscendC
