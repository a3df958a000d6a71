// normgrad_ascendc/cube/cube_img2col.h — the cube's img2col path for Atlas
// A2/A3 (docs/cube.md, "Img2col"): LoadData L1 → L0A / L0B with
// LoadData3DParamsV2 or LoadData3DParamsV2Pro, which unfolds a feature map
// (C1HWC0 in L1) into the matrix of its convolution windows and writes a
// window of that matrix as Zz (L0A) or Zn (L0B), and the registers it reads:
// SetFmatrix (the feature map's shape and padding), SetLoadDataPaddingValue,
// SetLoadDataBoundary and SetLoadDataRepeat. The registers are the core's and
// start unset in every block. As the page's signature has it, T may be a
// TensorTrait: the element type is PrimT<T>, so the same templates take trait
// tensors.
//
// The computation and its checks are in src/ascendc/cube/cube_img2col.cc.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace AscendC {

/// Entries of a padding list: left, right, top, bottom.
inline constexpr uint32_t PAD_SIZE = 4;

/// Whether LoadData 3D sets the feature-map registers (l1H, l1W, padList)
/// and the pad value from its parameters (true) or reads what SetFmatrix and
/// SetLoadDataPaddingValue set (false).
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true,
                                                                       true};

/// Which feature-map register LoadData 3D reads (only the left one exists on
/// Atlas A2/A3).
enum class FmatrixMode : uint8_t {
  FMATRIX_LEFT = 0,
  FMATRIX_RIGHT = 1,
};

/// LoadData 3D v2: a window of the img2col matrix of a feature map.
template <typename T>
struct LoadData3DParamsV2 {
  uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};  ///< left, right, top, bottom
  uint16_t l1H = 0;          ///< feature-map height (0: nothing)
  uint16_t l1W = 0;          ///< feature-map width (0: nothing)
  uint16_t channelSize = 0;  ///< channels (0: nothing)
  uint16_t kExtension = 0;   ///< window columns (0: nothing)
  uint16_t mExtension = 0;   ///< window rows (0: nothing)
  uint16_t kStartPt = 0;     ///< first column, a multiple of C0
  uint16_t mStartPt = 0;     ///< first row, 0..32767
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;  ///< L0A, 16- and 32-bit types: transpose
  bool enSmallK = false;     ///< no longer supported
  T padValue{};
  bool filterSizeW = false;  ///< the kernel width is filterW + 256
  bool filterSizeH = false;  ///< the kernel height is filterH + 256
  bool fMatrixCtrl = false;  ///< false: the left feature-map register
};

/// LoadData 3D v2 Pro: the window and the kernel packed into two words; the
/// feature map and the pad value always come from the registers.
struct LoadData3DParamsV2Pro {
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  /// mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension
  uint64_t extConfig = 0;
  /// dilationFilterH << 40 | dilationFilterW << 32 | filterH << 24 |
  /// filterW << 16 | strideH << 8 | strideW
  uint64_t filterConfig = 0x10101010101;
};

/// SetLoadDataRepeat's parameters.
struct LoadDataRepeatParam {
  uint16_t repeatStride = 0;  ///< rows: 16 elements; columns: 32 bytes
  uint8_t repeatTime = 1;     ///< 0: LoadData 3D does nothing
  uint8_t repeatMode = 0;     ///< 0: along the rows (M); 1: the columns (K)
  uint16_t dstStride = 0;     ///< the 950's; not on Atlas A2/A3
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// LoadData 3D's fields without the pad value's type.
struct Img2colFields {
  uint8_t pad_list[4] = {};
  uint16_t l1_h = 0;
  uint16_t l1_w = 0;
  uint16_t channel_size = 0;
  uint16_t k_extension = 0;
  uint16_t m_extension = 0;
  uint16_t k_start = 0;
  uint16_t m_start = 0;
  uint8_t stride_w = 1;
  uint8_t stride_h = 1;
  uint8_t filter_w = 1;
  uint8_t filter_h = 1;
  uint8_t dilation_w = 1;
  uint8_t dilation_h = 1;
  bool transpose = false;
  bool small_k = false;
  bool filter_size_w = false;
  bool filter_size_h = false;
  bool fmatrix_ctrl = false;
  bool set_fmatrix = true;  ///< the call sets the feature-map registers
  bool set_padding = true;  ///< the call sets the pad-value register
  /// On the 950: the output's columns of fractals one after another (a
  /// dstStride of the output's fractal rows) instead of SetLoadDataRepeat's
  /// dstStride; the C API's 3D copies, whose repeat setter has none.
  bool dense_columns = false;
  const char* form = "LoadData3DParamsV2";
};

template <typename T>
Img2colFields Img2colFieldsOf(const AscendC::LoadData3DParamsV2<T>& p) {
  Img2colFields f;
  std::memcpy(f.pad_list, p.padList, sizeof f.pad_list);
  f.l1_h = p.l1H;
  f.l1_w = p.l1W;
  f.channel_size = p.channelSize;
  f.k_extension = p.kExtension;
  f.m_extension = p.mExtension;
  f.k_start = p.kStartPt;
  f.m_start = p.mStartPt;
  f.stride_w = p.strideW;
  f.stride_h = p.strideH;
  f.filter_w = p.filterW;
  f.filter_h = p.filterH;
  f.dilation_w = p.dilationFilterW;
  f.dilation_h = p.dilationFilterH;
  f.transpose = p.enTranspose;
  f.small_k = p.enSmallK;
  f.filter_size_w = p.filterSizeW;
  f.filter_size_h = p.filterSizeH;
  f.fmatrix_ctrl = p.fMatrixCtrl;
  return f;
}

/// The v2 Pro form's fields: its two words unpacked; the feature map and
/// the pad value from the registers.
Img2colFields Img2colFieldsOf(const AscendC::LoadData3DParamsV2Pro& p);

/// LoadData 3D L1 → L0A / L0B for elements of `elem_bits` bits (4: int4b_t).
/// `pad_value` points at the call's pad value (a T; used when
/// `fields.set_padding`).
void RunLoadData3D(const char* type_name, uint32_t elem_bits,
                   const TensorView& dst, const TensorView& src,
                   const Img2colFields& fields, const void* pad_value);
void RunSetFmatrix(uint16_t l1_h, uint16_t l1_w, const uint8_t pad_list[4],
                   AscendC::FmatrixMode mode);
void RunSetLoadDataPaddingValue(const char* type_name, uint32_t elem_bytes,
                                const void* value);
void RunSetLoadDataBoundary(uint32_t boundary);
void RunSetLoadDataRepeat(const AscendC::LoadDataRepeatParam& params);

/// The types LoadData 3D moves on Atlas A2/A3 (into L0A; L0B takes the 16-
/// and 32-bit ones, checked at run time).
template <typename T>
inline constexpr bool kImg2colType =
    kCubeMoveOrInt4<T> && !std::is_same_v<T, int16_t> &&
    !std::is_same_v<T, uint16_t>;
/// The bits of an element of T (int4b_t and the fp4x2 types: 4, two a
/// byte).
template <typename T>
inline constexpr uint32_t kImg2colBits =
    std::is_same_v<T, AscendC::int4b_t> ||
            std::is_same_v<T, AscendC::fp4x2_e2m1_t> ||
            std::is_same_v<T, AscendC::fp4x2_e1m2_t>
        ? 4
        : static_cast<uint32_t>(sizeof(T) * 8);

}  // namespace normgrad_ascendc

namespace AscendC {

/// LoadData 3D v2: img2col L1 → L0A / L0B.
template <
    typename T,
    const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
    typename U = PrimT<T>,
    typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type =
        true>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2<U>& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kImg2colType<U>,
                "LoadData(LoadData3DParamsV2): T must be int4b_t, int8_t, "
                "uint8_t, half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Img2colFields fields =
      normgrad_ascendc::Img2colFieldsOf(loadDataParams);
  fields.set_fmatrix = defaultConfig.isSetFMatrix;
  fields.set_padding = defaultConfig.isSetPadding;
  normgrad_ascendc::RunLoadData3D(normgrad_ascendc::TypeName<U>(),
                                  normgrad_ascendc::kImg2colBits<U>, dst.view(),
                                  src.view(), fields, &loadDataParams.padValue);
}

/// LoadData 3D v2 Pro: img2col L1 → L0A / L0B from the registers.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2Pro& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  static_assert(normgrad_ascendc::kImg2colType<U>,
                "LoadData(LoadData3DParamsV2Pro): T must be int4b_t, int8_t, "
                "uint8_t, half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadData3D(
      normgrad_ascendc::TypeName<U>(), normgrad_ascendc::kImg2colBits<U>,
      dst.view(), src.view(), normgrad_ascendc::Img2colFieldsOf(loadDataParams),
      nullptr);
}

/// Sets the feature-map registers (shape and padding) LoadData 3D reads.
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4],
                       const FmatrixMode& fmatrixMode,
                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetFmatrix(l1H, l1W, padList, fmatrixMode);
}

/// Sets the value LoadData 3D writes for the padding.
template <typename T>
void SetLoadDataPaddingValue(const T padValue,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kCubeMoveType<T>,
                "SetLoadDataPaddingValue: T must be int8_t, uint8_t, "
                "int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or "
                "float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetLoadDataPaddingValue(normgrad_ascendc::TypeName<T>(),
                                               sizeof(T), &padValue);
}

/// Sets the L1 byte where LoadData 3D's reads wrap to L1's start (0: none).
inline void SetLoadDataBoundary(uint32_t boundaryValue,
                                normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetLoadDataBoundary(boundaryValue);
}

/// Sets LoadData 3D's repeat.
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams,
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetLoadDataRepeat(repeatParams);
}

}  // namespace AscendC
