// cube_bit_mode.cc — the Ascend 950's BitMode forms (normgrad_ascendc/cube/
// cube_bit_mode.h): Load2DBitModeParam, Load3DBitModeParam,
// SetFMatrixBitModeParams and MmadBitModeParams unpacked into the parameters
// of LoadData2DParamsV2, LoadData 3D, SetFmatrix and MmadParams, after the
// rules the BitMode pages add; the moves and the product are the forms' own
// (RunLoadData2DV2, RunLoadData3D, RunSetFmatrix, RunMmad).
#include <cstdint>
#include <cstdio>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_bit_mode.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/position.h"

namespace normgrad_ascendc {

namespace {

// The rules both BitMode loads open with ("LoadData<type>(form)"): the 950
// profile (`why` says so otherwise), and each operand at the position its
// template argument names.
void OpenBitModeLoad(const char* type_name, const char* form, const char* why,
                     AscendC::TPosition dst_template,
                     AscendC::TPosition src_template, const TensorView& dst,
                     const TensorView& src) {
  char api[64];
  std::snprintf(api, sizeof api, "LoadData<%s>(%s)", type_name, form);
  RequireCubeProfile(api, {Profile::k950}, why);
  const bool d = dst.position != dst_template;
  if (d || src.position != src_template) {
    Fail(
        "%s: %s LocalTensor is at position %s, not the %s template argument "
        "%s",
        api, d ? "dst" : "src", PositionName(d ? dst.position : src.position),
        d ? "Dst" : "Src", PositionName(d ? dst_template : src_template));
  }
}

}  // namespace

AscendC::LoadData2DParamsV2 UnpackLoad2DBitMode(
    const char* type_name, AscendC::TPosition dst_template,
    AscendC::TPosition src_template, const TensorView& dst,
    const TensorView& src, const AscendC::Load2DBitModeParam& p) {
  OpenBitModeLoad(type_name, "Load2DBitModeParam",
                  "Load2DBitModeParam is the 950's; Atlas A2/A3 loads with "
                  "LoadData2DParams",
                  dst_template, src_template, dst, src);
  return AscendC::LoadData2DParamsV2(
      p.GetMStartPosition(), p.GetKStartPosition(), p.GetMStep(), p.GetKStep(),
      p.GetSrcStride(), p.GetDstStride(), p.ifTranspose, 0);
}

Img2colFields UnpackLoad3DBitMode(const char* type_name,
                                  AscendC::TPosition dst_template,
                                  AscendC::TPosition src_template,
                                  const TensorView& dst, const TensorView& src,
                                  const AscendC::Load3DBitModeParam& p) {
  OpenBitModeLoad(type_name, "Load3DBitModeParam",
                  "Load3DBitModeParam is the 950's; Atlas A2/A3 unfolds "
                  "with LoadData3DParamsV2",
                  dst_template, src_template, dst, src);
  Img2colFields f;
  f.k_extension = p.GetKExtension();
  f.m_extension = p.GetMExtension();
  f.k_start = p.GetKStartPt();
  f.m_start = p.GetMStartPt();
  f.stride_w = p.GetStrideW();
  f.stride_h = p.GetStrideH();
  f.filter_w = p.GetFilterW();
  f.filter_h = p.GetFilterH();
  f.dilation_w = p.GetDilationFilterW();
  f.dilation_h = p.GetDilationFilterH();
  f.filter_size_w = p.GetFilterSizeW();
  f.filter_size_h = p.GetFilterSizeH();
  f.transpose = p.GetTranspose();
  f.fmatrix_ctrl = p.GetFmatrixCtrl();
  f.channel_size = p.GetChannelSize();
  f.set_fmatrix = false;
  f.set_padding = false;
  f.form = "Load3DBitModeParam";
  return f;
}

void RunSetFmatrixBitMode(const AscendC::SetFMatrixBitModeParams& p,
                          AscendC::FmatrixMode mode) {
  RequireCubeProfile("SetFmatrix(SetFMatrixBitModeParams)", {Profile::k950},
                     "SetFMatrixBitModeParams is the 950's; Atlas A2/A3 "
                     "takes l1H, l1W and padList");
  uint8_t pads[4];
  p.GetPadList(pads);
  RunSetFmatrix(p.GetL1H(), p.GetL1W(), pads, mode);
}

AscendC::MmadParams UnpackMmadBitMode(const AscendC::MmadBitModeParams& p) {
  const char* api = "Mmad(MmadBitModeParams)";
  RequireCubeProfile(api, {Profile::k950},
                     "MmadBitModeParams is the 950's; Atlas A2/A3 takes "
                     "MmadParams");
  if (p.GetK() % 64 != 0) {
    Fail("%s: mmadParams k %u is not a multiple of 64", api, p.GetK());
  }
  AscendC::MmadParams params;
  params.m = p.GetM();
  params.n = p.GetN();
  params.k = p.GetK();
  params.unitFlag = p.GetUnitFlag();
  params.disableGemv = p.GetDisableGemv();
  params.cmatrixSource = p.GetCmatrixSource();
  params.cmatrixInitVal = p.GetCmatrixInitVal();
  return params;
}

}  // namespace normgrad_ascendc
