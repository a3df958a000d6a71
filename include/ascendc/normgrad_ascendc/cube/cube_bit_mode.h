// normgrad_ascendc/cube/cube_bit_mode.h — the Ascend 950's BitMode forms
// (docs/cube.md, "The Ascend 950: loads into L0A and L0B"): the parameters
// packed into 64-bit words, a union of each word and a bit-field struct of
// its fields, lowest field first. LoadData with Load2DBitModeParam is
// LoadData with LoadData2DParamsV2 (cube_load_950.h); LoadData with
// Load3DBitModeParam is the img2col load of LoadData3DParamsV2 with the
// feature map and pad value from their registers, which SetFmatrix with
// SetFMatrixBitModeParams sets (cube_img2col.h); Mmad with
// MmadBitModeParams is Mmad with MmadParams (cube_api.h) plus the BitMode
// page's own rule (k a multiple of 64). Both exist on the 950 profile only; the
// unpacking and the rules are in src/ascendc/cube/cube_bit_mode.cc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace AscendC {

/// Load2DBitModeParam's first word: bits 0-15 mStartPosition, 16-31
/// kStartPosition, 32-39 mStep, 40-47 kStep.
struct Load2DBitModeConfig0 {
  uint64_t mStartPosition : 16;
  uint64_t kStartPosition : 16;
  uint64_t mStep : 8;
  uint64_t kStep : 8;
};
/// Its second word: bits 0-15 srcStride (signed), 16-31 dstStride.
struct Load2DBitModeConfig1 {
  uint64_t srcStride : 16;
  uint64_t dstStride : 16;
};

/// LoadData2DParamsV2 packed into two words.
class Load2DBitModeParam {
 public:
  Load2DBitModeParam() : config0(0), config1(0) {}
  Load2DBitModeParam(const LoadData2DParamsV2& p)  // NOLINT: as the page
      : config0(0), config1(0), ifTranspose(p.ifTranspose) {
    SetMStartPosition(p.mStartPosition);
    SetKStartPosition(p.kStartPosition);
    SetMStep(p.mStep);
    SetKStep(p.kStep);
    SetSrcStride(p.srcStride);
    SetDstStride(p.dstStride);
  }
  void SetMStartPosition(uint32_t v) { config0BitMode.mStartPosition = v; }
  void SetKStartPosition(uint32_t v) { config0BitMode.kStartPosition = v; }
  void SetMStep(uint16_t v) { config0BitMode.mStep = v; }
  void SetKStep(uint16_t v) { config0BitMode.kStep = v; }
  void SetSrcStride(int32_t v) {
    config1BitMode.srcStride = static_cast<uint16_t>(v);
  }
  void SetDstStride(uint16_t v) { config1BitMode.dstStride = v; }
  uint32_t GetMStartPosition() const {
    return static_cast<uint32_t>(config0BitMode.mStartPosition);
  }
  uint32_t GetKStartPosition() const {
    return static_cast<uint32_t>(config0BitMode.kStartPosition);
  }
  uint16_t GetMStep() const {
    return static_cast<uint16_t>(config0BitMode.mStep);
  }
  uint16_t GetKStep() const {
    return static_cast<uint16_t>(config0BitMode.kStep);
  }
  int32_t GetSrcStride() const {
    return static_cast<int16_t>(
        static_cast<uint16_t>(config1BitMode.srcStride));
  }
  uint16_t GetDstStride() const {
    return static_cast<uint16_t>(config1BitMode.dstStride);
  }
  uint64_t GetConfig0() const { return config0; }
  uint64_t GetConfig1() const { return config1; }

  union {
    uint64_t config0;
    Load2DBitModeConfig0 config0BitMode;
  };
  union {
    uint64_t config1;
    Load2DBitModeConfig1 config1BitMode;
  };
  bool ifTranspose = false;
};

/// Load3DBitModeParam's first word: bits 0-15 kExtension, 16-31
/// mExtension, 32-47 kStartPt, 48-63 mStartPt.
struct Load3DBitModeConfig0 {
  uint64_t kExtension : 16;
  uint64_t mExtension : 16;
  uint64_t kStartPt : 16;
  uint64_t mStartPt : 16;
};
/// Its second word: strideW (6 bits), strideH (6), filterW (8), filterH (8),
/// dilationFilterW (8), dilationFilterH (8), filterSizeW, filterSizeH,
/// transpose, fmatrixCtrl (1 each), channelSize (16).
struct Load3DBitModeConfig1 {
  uint64_t strideW : 6;
  uint64_t strideH : 6;
  uint64_t filterW : 8;
  uint64_t filterH : 8;
  uint64_t dilationFilterW : 8;
  uint64_t dilationFilterH : 8;
  uint64_t filterSizeW : 1;
  uint64_t filterSizeH : 1;
  uint64_t transpose : 1;
  uint64_t fmatrixCtrl : 1;
  uint64_t channelSize : 16;
};

/// LoadData3DParamsV2's window and kernel in two words (the feature map and
/// the pad value come from their registers).
class Load3DBitModeParam {
 public:
  Load3DBitModeParam() : config0(0), config1(0) {}
  template <typename T>
  Load3DBitModeParam(const LoadData3DParamsV2<T>& p)  // NOLINT: as the page
      : config0(0), config1(0) {
    SetKExtension(p.kExtension);
    SetMExtension(p.mExtension);
    SetKStartPt(p.kStartPt);
    SetMStartPt(p.mStartPt);
    SetStrideW(p.strideW);
    SetStrideH(p.strideH);
    SetFilterW(p.filterW);
    SetFilterH(p.filterH);
    SetDilationFilterW(p.dilationFilterW);
    SetDilationFilterH(p.dilationFilterH);
    SetFilterSizeW(p.filterSizeW);
    SetFilterSizeH(p.filterSizeH);
    SetTranspose(p.enTranspose);
    SetFmatrixCtrl(p.fMatrixCtrl);
    SetChannelSize(p.channelSize);
  }
  void SetKExtension(uint16_t v) { config0BitMode.kExtension = v; }
  void SetMExtension(uint16_t v) { config0BitMode.mExtension = v; }
  void SetKStartPt(uint16_t v) { config0BitMode.kStartPt = v; }
  void SetMStartPt(uint16_t v) { config0BitMode.mStartPt = v; }
  void SetStrideW(uint8_t v) { config1BitMode.strideW = v; }
  void SetStrideH(uint8_t v) { config1BitMode.strideH = v; }
  void SetFilterW(uint8_t v) { config1BitMode.filterW = v; }
  void SetFilterH(uint8_t v) { config1BitMode.filterH = v; }
  void SetDilationFilterW(uint8_t v) { config1BitMode.dilationFilterW = v; }
  void SetDilationFilterH(uint8_t v) { config1BitMode.dilationFilterH = v; }
  void SetFilterSizeW(bool v) { config1BitMode.filterSizeW = v; }
  void SetFilterSizeH(bool v) { config1BitMode.filterSizeH = v; }
  void SetTranspose(bool v) { config1BitMode.transpose = v; }
  void SetFmatrixCtrl(bool v) { config1BitMode.fmatrixCtrl = v; }
  void SetChannelSize(uint16_t v) { config1BitMode.channelSize = v; }
  uint16_t GetKExtension() const {
    return static_cast<uint16_t>(config0BitMode.kExtension);
  }
  uint16_t GetMExtension() const {
    return static_cast<uint16_t>(config0BitMode.mExtension);
  }
  uint16_t GetKStartPt() const {
    return static_cast<uint16_t>(config0BitMode.kStartPt);
  }
  uint16_t GetMStartPt() const {
    return static_cast<uint16_t>(config0BitMode.mStartPt);
  }
  uint8_t GetStrideW() const {
    return static_cast<uint8_t>(config1BitMode.strideW);
  }
  uint8_t GetStrideH() const {
    return static_cast<uint8_t>(config1BitMode.strideH);
  }
  uint8_t GetFilterW() const {
    return static_cast<uint8_t>(config1BitMode.filterW);
  }
  uint8_t GetFilterH() const {
    return static_cast<uint8_t>(config1BitMode.filterH);
  }
  uint8_t GetDilationFilterW() const {
    return static_cast<uint8_t>(config1BitMode.dilationFilterW);
  }
  uint8_t GetDilationFilterH() const {
    return static_cast<uint8_t>(config1BitMode.dilationFilterH);
  }
  bool GetFilterSizeW() const { return config1BitMode.filterSizeW != 0; }
  bool GetFilterSizeH() const { return config1BitMode.filterSizeH != 0; }
  bool GetTranspose() const { return config1BitMode.transpose != 0; }
  bool GetFmatrixCtrl() const { return config1BitMode.fmatrixCtrl != 0; }
  uint16_t GetChannelSize() const {
    return static_cast<uint16_t>(config1BitMode.channelSize);
  }
  uint64_t GetConfig0() const { return config0; }
  uint64_t GetConfig1() const { return config1; }

  union {
    uint64_t config0;
    Load3DBitModeConfig0 config0BitMode;
  };
  union {
    uint64_t config1;
    Load3DBitModeConfig1 config1BitMode;
  };
};

/// SetFmatrix's word: bits 0-15 l1H, 16-31 l1W, then the four pads (left,
/// right, top, bottom) of 8 bits each.
struct SetFMatrixBitModeConfig0 {
  uint64_t l1H : 16;
  uint64_t l1W : 16;
  uint64_t padList0 : 8;
  uint64_t padList1 : 8;
  uint64_t padList2 : 8;
  uint64_t padList3 : 8;
};

/// SetFmatrix's feature map in one word.
class SetFMatrixBitModeParams {
 public:
  SetFMatrixBitModeParams() : config0(0) {}
  template <typename T>
  SetFMatrixBitModeParams(const LoadData3DParamsV2<T>& p)  // NOLINT
      : config0(0) {
    SetL1H(p.l1H);
    SetL1W(p.l1W);
    SetPadList(p.padList);
  }
  void SetL1H(uint16_t v) { config0BitMode.l1H = v; }
  void SetL1W(uint16_t v) { config0BitMode.l1W = v; }
  void SetPadList(const uint8_t padList[4]) {
    config0BitMode.padList0 = padList[0];
    config0BitMode.padList1 = padList[1];
    config0BitMode.padList2 = padList[2];
    config0BitMode.padList3 = padList[3];
  }
  uint16_t GetL1H() const { return static_cast<uint16_t>(config0BitMode.l1H); }
  uint16_t GetL1W() const { return static_cast<uint16_t>(config0BitMode.l1W); }
  void GetPadList(uint8_t padList[4]) const {
    padList[0] = static_cast<uint8_t>(config0BitMode.padList0);
    padList[1] = static_cast<uint8_t>(config0BitMode.padList1);
    padList[2] = static_cast<uint8_t>(config0BitMode.padList2);
    padList[3] = static_cast<uint8_t>(config0BitMode.padList3);
  }
  uint64_t GetConfig0() const { return config0; }

  union {
    uint64_t config0;
    SetFMatrixBitModeConfig0 config0BitMode;
  };
};

/// MmadBitModeParams's word: bits 0-11 m, 12-23 k, 24-35 n, 36-37 unitFlag,
/// 38 disableGemv, 39 cmatrixSource, 40 cmatrixInitVal.
struct MmadBitModeConfig0 {
  uint64_t m : 12;
  uint64_t k : 12;
  uint64_t n : 12;
  uint64_t unitFlag : 2;
  uint64_t disableGemv : 1;
  uint64_t cmatrixSource : 1;
  uint64_t cmatrixInitVal : 1;
};

/// MmadParams packed into one word; cmatrixInitVal starts true (C from 0),
/// as MmadParams's does.
class MmadBitModeParams {
 public:
  MmadBitModeParams() : config0(uint64_t{1} << 40) {}
  MmadBitModeParams(const MmadBitModeParams& other) : config0(other.config0) {}
  MmadBitModeParams& operator=(const MmadBitModeParams& other) {
    config0 = other.config0;
    return *this;
  }
  void SetM(uint16_t v) { config0BitMode.m = v; }
  void SetK(uint16_t v) { config0BitMode.k = v; }
  void SetN(uint16_t v) { config0BitMode.n = v; }
  void SetUnitFlag(uint8_t v) { config0BitMode.unitFlag = v; }
  void SetDisableGemv(bool v) { config0BitMode.disableGemv = v; }
  void SetCmatrixSource(bool v) { config0BitMode.cmatrixSource = v; }
  void SetCmatrixInitVal(bool v) { config0BitMode.cmatrixInitVal = v; }
  uint16_t GetM() const { return static_cast<uint16_t>(config0BitMode.m); }
  uint16_t GetK() const { return static_cast<uint16_t>(config0BitMode.k); }
  uint16_t GetN() const { return static_cast<uint16_t>(config0BitMode.n); }
  uint8_t GetUnitFlag() const {
    return static_cast<uint8_t>(config0BitMode.unitFlag);
  }
  bool GetDisableGemv() const { return config0BitMode.disableGemv != 0; }
  bool GetCmatrixSource() const { return config0BitMode.cmatrixSource != 0; }
  bool GetCmatrixInitVal() const { return config0BitMode.cmatrixInitVal != 0; }
  uint64_t GetConfig0() const { return config0; }

  union {
    uint64_t config0;
    MmadBitModeConfig0 config0BitMode;
  };
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// Load2DBitModeParam's fields as LoadData2DParamsV2, after the template
/// positions' check (the 950 only).
AscendC::LoadData2DParamsV2 UnpackLoad2DBitMode(
    const char* type_name, AscendC::TPosition dst_template,
    AscendC::TPosition src_template, const TensorView& dst,
    const TensorView& src, const AscendC::Load2DBitModeParam& params);
/// Load3DBitModeParam's fields as LoadData 3D's (the feature map and pad
/// value from their registers), after the template positions' check (the
/// 950 only).
Img2colFields UnpackLoad3DBitMode(const char* type_name,
                                  AscendC::TPosition dst_template,
                                  AscendC::TPosition src_template,
                                  const TensorView& dst, const TensorView& src,
                                  const AscendC::Load3DBitModeParam& params);
/// SetFmatrix from SetFMatrixBitModeParams (the 950 only).
void RunSetFmatrixBitMode(const AscendC::SetFMatrixBitModeParams& params,
                          AscendC::FmatrixMode mode);
/// MmadBitModeParams as MmadParams, after the BitMode page's own rule (the
/// 950 only, k a multiple of 64; Mmad checks dst's 1024-byte alignment).
AscendC::MmadParams UnpackMmadBitMode(const AscendC::MmadBitModeParams& params);

}  // namespace normgrad_ascendc

namespace AscendC {

namespace cube_detail {

/// The compile-time rules of both BitMode loads (LoadData with
/// Load2DBitModeParam or Load3DBitModeParam): the positions their template
/// arguments name and the element type; the runtime checks that the
/// operands are at those positions.
template <TPosition Dst, TPosition Src, typename U>
constexpr void CheckBitModeLoad() {
  static_assert(Dst == TPosition::A2 || Dst == TPosition::B2,
                "LoadData(Load2DBitModeParam or Load3DBitModeParam): Dst "
                "must be A2 or B2");
  static_assert(Src == TPosition::A1 || Src == TPosition::B1,
                "LoadData(Load2DBitModeParam or Load3DBitModeParam): Src "
                "must be A1 or B1");
  static_assert(normgrad_ascendc::kLoadV2Type<U>,
                "LoadData(Load2DBitModeParam or Load3DBitModeParam): T must "
                "be int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t or "
                "float");
}

/// The compile-time rule of both Mmad forms with MmadBitModeParams: the
/// type pairs of the 950's cube without int4b_t.
template <typename T, typename U, typename S>
constexpr void CheckBitModeMmad() {
  static_assert(kMmadPair<T, U, S> && !std::is_same_v<U, AscendC::int4b_t>,
                "Mmad(MmadBitModeParams): (dst, fm, filter) must be "
                "(int32_t, int8_t, int8_t), (float, half, half), (float, "
                "bfloat16_t, bfloat16_t) or (float, float, float)");
}

}  // namespace cube_detail

/// L1 → L0A / L0B on the 950 from the packed words: LoadData with
/// LoadData2DParamsV2.
template <TPosition Dst, TPosition Src, typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const Load2DBitModeParam& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  cube_detail::CheckBitModeLoad<Dst, Src, U>();
  const normgrad_ascendc::ApiCall call(site);
  const LoadData2DParamsV2 p = normgrad_ascendc::UnpackLoad2DBitMode(
      normgrad_ascendc::TypeName<U>(), Dst, Src, dst.view(), src.view(),
      loadDataParams);
  normgrad_ascendc::RunLoadData2DV2(normgrad_ascendc::TypeName<U>(),
                                    normgrad_ascendc::kImg2colBits<U>,
                                    dst.view(), src.view(), p);
}

/// img2col L1 → L0A on the 950 from the packed words: the LoadData 3D move
/// with the feature map and pad value of their registers.
template <TPosition Dst, TPosition Src, typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const Load3DBitModeParam& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  cube_detail::CheckBitModeLoad<Dst, Src, U>();
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunLoadData3D(
      normgrad_ascendc::TypeName<U>(), normgrad_ascendc::kImg2colBits<U>,
      dst.view(), src.view(),
      normgrad_ascendc::UnpackLoad3DBitMode(normgrad_ascendc::TypeName<U>(),
                                            Dst, Src, dst.view(), src.view(),
                                            loadDataParams),
      nullptr);
}

/// Sets the feature-map registers from the packed word (the 950).
inline void SetFmatrix(const SetFMatrixBitModeParams& param,
                       const FmatrixMode& fmatrixMode,
                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunSetFmatrixBitMode(param, fmatrixMode);
}

/// C = A × B (+ the initial C the word chooses) on the 950: Mmad with
/// MmadParams.
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
          const LocalTensor<S>& filter, const MmadBitModeParams& mmadParams,
          normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckBitModeMmad<T, U, S>();
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmad(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      normgrad_ascendc::CubeTypeOf<S>(), dst.view(), fm.view(), filter.view(),
      nullptr, normgrad_ascendc::CubeType::kOther,
      normgrad_ascendc::UnpackMmadBitMode(mmadParams));
}

/// C = bias (broadcast over the rows) + A × B on the 950.
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
          const LocalTensor<S>& filter, const LocalTensor<V>& bias,
          const MmadBitModeParams& mmadParams,
          normgrad_ascendc::CallSite site = {}) {
  cube_detail::CheckBitModeMmad<T, U, S>();
  static_assert(std::is_same_v<V, T>,
                "Mmad(MmadBitModeParams): the bias type must be the dst type "
                "(int32_t or float)");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::RunMmad(
      normgrad_ascendc::CubeTypeOf<T>(), normgrad_ascendc::CubeTypeOf<U>(),
      normgrad_ascendc::CubeTypeOf<S>(), dst.view(), fm.view(), filter.view(),
      &bias.view(), normgrad_ascendc::CubeTypeOf<V>(),
      normgrad_ascendc::UnpackMmadBitMode(mmadParams));
}

}  // namespace AscendC
