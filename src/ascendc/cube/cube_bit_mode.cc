// cube_bit_mode.cc — the Ascend 950's BitMode forms (normgrad_ascendc/cube/
// cube_bit_mode.h): Load2DBitModeParam and MmadBitModeParams unpacked into
// the parameters of LoadData2DParamsV2 and MmadParams, after the rules the
// BitMode pages add; the moves and the product are the forms' own
// (RunLoadData2DV2, RunMmad).
#include <cstdint>
#include <cstdio>

#include "ascendc/cube/cube_checks.h"
#include "normgrad_ascendc/cube/cube_bit_mode.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/system_query.h"

namespace normgrad_ascendc {

AscendC::LoadData2DParamsV2 UnpackLoad2DBitMode(
    const char* type_name, AscendC::TPosition dst_template,
    AscendC::TPosition src_template, const TensorView& dst,
    const TensorView& src, const AscendC::Load2DBitModeParam& p) {
  char api[64];
  std::snprintf(api, sizeof api, "LoadData<%s>(Load2DBitModeParam)", type_name);
  RequireProfile(api, {Profile::k950}, "the 950");
  // The template arguments name the operands' positions.
  if (dst.position != dst_template) {
    Fail(
        "%s: dst LocalTensor is at position %s, not the Dst template "
        "argument %s",
        api, PositionName(dst.position), PositionName(dst_template));
  }
  if (src.position != src_template) {
    Fail(
        "%s: src LocalTensor is at position %s, not the Src template "
        "argument %s",
        api, PositionName(src.position), PositionName(src_template));
  }
  return AscendC::LoadData2DParamsV2(
      p.GetMStartPosition(), p.GetKStartPosition(), p.GetMStep(), p.GetKStep(),
      p.GetSrcStride(), p.GetDstStride(), p.ifTranspose, 0);
}

AscendC::MmadParams UnpackMmadBitMode(const TensorView& dst,
                                      const AscendC::MmadBitModeParams& p) {
  const char* api = "Mmad(MmadBitModeParams)";
  RequireProfile(api, {Profile::k950}, "the 950");
  if (dst.offset % 1024 != 0) {
    Fail(
        "%s: dst LocalTensor starts at L0C byte %u, which is not a multiple "
        "of 1024 bytes",
        api, dst.offset);
  }
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
