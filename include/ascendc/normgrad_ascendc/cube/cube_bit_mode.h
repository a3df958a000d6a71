// normgrad_ascendc/cube/cube_bit_mode.h — the Ascend 950's BitMode forms
// (docs/cube.md, "The Ascend 950: loads into L0A and L0B"): the parameters
// packed into 64-bit words, a union of each word and a bit-field struct of
// its fields, lowest field first. LoadData with Load2DBitModeParam is
// LoadData with LoadData2DParamsV2 (cube_load_950.h); Mmad with
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
/// MmadBitModeParams as MmadParams, after the BitMode page's own rule (the
/// 950 only, k a multiple of 64; Mmad checks dst's 1024-byte alignment).
AscendC::MmadParams UnpackMmadBitMode(const AscendC::MmadBitModeParams& params);

}  // namespace normgrad_ascendc

namespace AscendC {

/// L1 → L0A / L0B on the 950 from the packed words: LoadData with
/// LoadData2DParamsV2.
template <TPosition Dst, TPosition Src, typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const Load2DBitModeParam& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  using U = PrimT<T>;
  static_assert(Dst == TPosition::A2 || Dst == TPosition::B2,
                "LoadData(Load2DBitModeParam): Dst must be A2 or B2");
  static_assert(Src == TPosition::A1 || Src == TPosition::B1,
                "LoadData(Load2DBitModeParam): Src must be A1 or B1");
  static_assert(normgrad_ascendc::kCubeMoveType<U> &&
                    !std::is_same_v<U, int16_t> && !std::is_same_v<U, uint16_t>,
                "LoadData(Load2DBitModeParam): T must be int8_t, uint8_t, "
                "half, bfloat16_t, int32_t, uint32_t or float");
  const normgrad_ascendc::ApiCall call(site);
  const LoadData2DParamsV2 p = normgrad_ascendc::UnpackLoad2DBitMode(
      normgrad_ascendc::TypeName<U>(), Dst, Src, dst.view(), src.view(),
      loadDataParams);
  normgrad_ascendc::RunLoadData2DV2(normgrad_ascendc::TypeName<U>(),
                                    normgrad_ascendc::kCubeElemBits<U>,
                                    dst.view(), src.view(), p);
}

/// C = A × B (+ the initial C the word chooses) on the 950: Mmad with
/// MmadParams.
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
          const LocalTensor<S>& filter, const MmadBitModeParams& mmadParams,
          normgrad_ascendc::CallSite site = {}) {
  static_assert(
      cube_detail::kMmadPair<T, U, S> && !std::is_same_v<U, AscendC::int4b_t>,
      "Mmad(MmadBitModeParams): (dst, fm, filter) must be "
      "(int32_t, int8_t, int8_t), (float, half, half), (float, "
      "bfloat16_t, bfloat16_t) or (float, float, float)");
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
  static_assert(
      cube_detail::kMmadPair<T, U, S> && !std::is_same_v<U, AscendC::int4b_t>,
      "Mmad(MmadBitModeParams): (dst, fm, filter) must be "
      "(int32_t, int8_t, int8_t), (float, half, half), (float, "
      "bfloat16_t, bfloat16_t) or (float, float, float)");
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
