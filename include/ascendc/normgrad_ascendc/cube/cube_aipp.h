// normgrad_ascendc/cube/cube_aipp.h — the cube core's image loads with AI
// Core pre-processing (AIPP) on Atlas A2/A3 (docs/cube.md, "AIPP image
// loads"): SetAippFunctions keeps a source image in GM (YUV420SP, XRGB8888,
// RGB888 or YUV400, uint8_t) and the preprocessing (channel swaps, single-line
// read, color-space conversion, data-type conversion into int8_t or half,
// spatial padding, channel padding) in the core's AIPP registers;
// LoadImageToLocal crops a window of that image, applies them and writes the
// result into L1 (A1/B1), one pixel after another with its channels padded
// (HWC0). The registers start unset in every block.
//
// The arithmetic, the layout and the checks are in src/ascendc/cube/
// cube_aipp.cc.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace AscendC {

/// The source image's format (all of uint8_t).
enum class AippInputFormat : uint8_t {
  YUV420SP_U8 = 0,  ///< a Y plane, then an interleaved UV plane of half height
  XRGB8888_U8 = 1,  ///< four bytes a pixel; the fourth channel is dropped
  RGB888_U8 = 4,    ///< three bytes a pixel
  YUV400_U8 = 9,    ///< one byte a pixel (Y only)
};

/// Spatial padding: the mode (0 constant, left and right only; 1 the nearest
/// row / column; 2 a block of the cropped image; 3 that block mirrored) and
/// the constant of each channel (mode 0), in the output type.
template <typename T>
struct AippPaddingParams {
  uint32_t paddingMode = 0;
  T paddingValueCh0{};
  T paddingValueCh1{};
  T paddingValueCh2{};
  T paddingValueCh3{};
};

/// Channel swaps: R and B (RGB888, XRGB8888), U and V (YUV420SP), X to the
/// back (XRGB8888: XRGB → RGBX).
struct AippSwapParams {
  bool isSwapRB = false;
  bool isSwapUV = false;
  bool isSwapAX = false;
};

/// Reads one row of the source (vertSize is then not used).
struct AippSingleLineParams {
  bool isSingleLineCopy = false;
};

/// The data-type conversion of uint8_t into the output type: int8_t takes
/// in − mean (saturated); half takes (in − mean − min) · var.
struct AippDataTypeConvParams {
  uint8_t dtcMeanCh0{0};
  uint8_t dtcMeanCh1{0};
  uint8_t dtcMeanCh2{0};
  half dtcMinCh0{0};
  half dtcMinCh1{0};
  half dtcMinCh2{0};
  half dtcVarCh0{1.0};
  half dtcVarCh1{1.0};
  half dtcVarCh2{1.0};
  uint32_t dtcRoundMode{0};  ///< Atlas 200I/500 A2 only: 0 on Atlas A2/A3
};

/// Channel padding: mode 0 pads each pixel to 32 bytes of the output type,
/// mode 1 to 4 channels; the added channels hold cPaddingValue.
template <typename T>
struct AippChannelPaddingParams {
  uint32_t cPaddingMode = 0;
  T cPaddingValue{};
};

/// Color-space conversion: a 3 × 3 matrix in units of 1/256 and the biases
/// of the direction the source format gives (docs/cube.md).
struct AippColorSpaceConvParams {
  bool isEnableCsc = false;
  int16_t cscMatrixR0C0 = 0;
  int16_t cscMatrixR0C1 = 0;
  int16_t cscMatrixR0C2 = 0;
  int16_t cscMatrixR1C0 = 0;
  int16_t cscMatrixR1C1 = 0;
  int16_t cscMatrixR1C2 = 0;
  int16_t cscMatrixR2C0 = 0;
  int16_t cscMatrixR2C1 = 0;
  int16_t cscMatrixR2C2 = 0;
  uint8_t cscBiasIn0 = 0;  ///< RGB → YUV
  uint8_t cscBiasIn1 = 0;
  uint8_t cscBiasIn2 = 0;
  uint8_t cscBiasOut0 = 0;  ///< YUV → RGB
  uint8_t cscBiasOut1 = 0;
  uint8_t cscBiasOut2 = 0;
};

template <typename T>
struct AippParams {
  AippPaddingParams<T> paddingParams;
  AippSwapParams swapParams;
  AippSingleLineParams singleLineParams;
  AippDataTypeConvParams dtcParams;
  AippChannelPaddingParams<T> cPaddingParams;
  AippColorSpaceConvParams cscParams;
};

/// LoadImageToLocal's window of the source image and the output's padding,
/// in pixels.
struct LoadImageToLocalParams {
  uint16_t horizSize = 0;      ///< window width, 2..4095
  uint16_t vertSize = 0;       ///< window height, 2..4095
  uint16_t horizStartPos = 0;  ///< first column, 0..4095, even
  uint16_t vertStartPos = 0;   ///< first row, 0..4095 (YUV420SP: even)
  uint16_t srcHorizSize = 0;   ///< source width, 2..4095 (YUV420SP: even)
  uint8_t topPadSize = 0;      ///< 0..32
  uint8_t botPadSize = 0;      ///< 0..32
  uint16_t leftPadSize = 0;    ///< 0..32
  uint16_t rightPadSize = 0;   ///< 0..32
  uint8_t sid = 0;             ///< reserved
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// SetAippFunctions's settings without their output type.
struct AippSettings {
  AscendC::AippInputFormat format = AscendC::AippInputFormat::RGB888_U8;
  const char* out_type = "";
  uint32_t out_bytes = 0;
  uint32_t padding_mode = 0;
  uint16_t padding_value[4] = {};
  uint32_t c_padding_mode = 0;
  uint16_t c_padding_value = 0;
  AscendC::AippSwapParams swap;
  AscendC::AippSingleLineParams single_line;
  AscendC::AippDataTypeConvParams dtc;
  AscendC::AippColorSpaceConvParams csc;
};

/// The bits of a value of the output type (int8_t or half).
template <typename U>
uint16_t AippBits(const U& value) {
  uint16_t bits = 0;
  std::memcpy(&bits, &value, sizeof(U));
  return bits;
}

template <typename U>
AippSettings AippSettingsOf(AscendC::AippInputFormat format,
                            const AscendC::AippParams<U>& config) {
  AippSettings s;
  s.format = format;
  s.out_type = TypeName<U>();
  s.out_bytes = sizeof(U);
  s.padding_mode = config.paddingParams.paddingMode;
  s.padding_value[0] = AippBits(config.paddingParams.paddingValueCh0);
  s.padding_value[1] = AippBits(config.paddingParams.paddingValueCh1);
  s.padding_value[2] = AippBits(config.paddingParams.paddingValueCh2);
  s.padding_value[3] = AippBits(config.paddingParams.paddingValueCh3);
  s.c_padding_mode = config.cPaddingParams.cPaddingMode;
  s.c_padding_value = AippBits(config.cPaddingParams.cPaddingValue);
  s.swap = config.swapParams;
  s.single_line = config.singleLineParams;
  s.dtc = config.dtcParams;
  s.csc = config.cscParams;
  return s;
}

/// SetAippFunctions: checks the settings and keeps them, with the image
/// (`src1` null for the one-source form), in the core's AIPP registers.
void RunSetAippFunctions(const GmSide& src0, const GmSide* src1,
                         const AippSettings& settings);

/// The ranges of LoadImageToLocal's sizes, which the C++ and the C API's
/// pages give differently.
struct AippSizeRanges {
  uint32_t size_lo;  ///< horizSize, vertSize, srcHorizSize
  uint32_t size_hi;
  const char* horiz_size;  ///< the argument names, as the caller's page
  const char* vert_size;   ///< spells them
  const char* horiz_start;
  const char* vert_start;
  const char* src_horiz_size;
  const char* top_pad;
  const char* bot_pad;
  const char* left_pad;
  const char* right_pad;
};
/// LoadImageToLocal's page: sizes in [2, 4095], fields loadDataParams.*.
extern const AippSizeRanges kLoadImageToLocalRanges;

/// LoadImageToLocal: the image the AIPP registers hold, cropped, converted
/// and padded, into `dst` (an L1 tensor of `type_name`); `api` names the
/// call in messages.
void RunLoadImageToLocal(const char* api, const char* type_name,
                         uint32_t elem_bytes, const TensorView& dst,
                         const AscendC::LoadImageToLocalParams& params,
                         const AippSizeRanges& ranges);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Sets the AIPP registers for a YUV400, RGB888 or XRGB8888 image at src0.
template <typename T, typename U>
void SetAippFunctions(const GlobalTensor<T>& src0, AippInputFormat format,
                      AippParams<U> config,
                      normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, uint8_t>,
                "SetAippFunctions: T must be uint8_t (every AippInputFormat "
                "is of uint8_t)");
  static_assert(std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t> ||
                    std::is_same_v<U, half>,
                "SetAippFunctions: U must be int8_t, uint8_t or half");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetAippFunctions(
      normgrad_ascendc::GmSideOf(src0), nullptr,
      normgrad_ascendc::AippSettingsOf(format, config));
}

/// Sets the AIPP registers for a YUV420SP image: its Y plane at src0 and
/// its UV plane at src1 (src1 is not used by the other formats).
template <typename T, typename U>
void SetAippFunctions(const GlobalTensor<T>& src0, const GlobalTensor<T>& src1,
                      AippInputFormat format, AippParams<U> config,
                      normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, uint8_t>,
                "SetAippFunctions: T must be uint8_t (every AippInputFormat "
                "is of uint8_t)");
  static_assert(std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t> ||
                    std::is_same_v<U, half>,
                "SetAippFunctions: U must be int8_t, uint8_t or half");
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::GmSide uv = normgrad_ascendc::GmSideOf(src1);
  normgrad_ascendc::RunSetAippFunctions(
      normgrad_ascendc::GmSideOf(src0), &uv,
      normgrad_ascendc::AippSettingsOf(format, config));
}

/// Loads the AIPP registers' image, preprocessed, into dst (A1 or B1).
template <typename T>
void LoadImageToLocal(const LocalTensor<T>& dst,
                      const LoadImageToLocalParams& loadDataParams,
                      normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  static_assert(std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t> ||
                    std::is_same_v<U, half>,
                "LoadImageToLocal: T must be int8_t, uint8_t or half");
  const normgrad_ascendc::ApiCall call(site);
  char api[48];
  std::snprintf(api, sizeof api, "LoadImageToLocal<%s>",
                normgrad_ascendc::TypeName<U>());
  normgrad_ascendc::RunLoadImageToLocal(
      api, normgrad_ascendc::TypeName<U>(), sizeof(U), dst.view(),
      loadDataParams, normgrad_ascendc::kLoadImageToLocalRanges);
}

}  // namespace AscendC
