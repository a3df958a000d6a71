// cube_load_950.cc — the C API's loads into L0A / L0B on the Ascend 950
// (c_api/cube_datamove/cube_datamove.h, its last blocks): the 2D forms of
// asc_copy_l12l0a / asc_copy_l12l0b and their _transpose forms on LoadData
// with LoadData2DParamsV2 (RunLoadData2DV2), and the 950's
// asc_copy_l12l0b_trans on LoadDataWithTranspose with
// LoadData2dTransposeParamsV2 (RunLoadDataWithTransposeV2).
#include <cstdint>

#include "c_api/cube_datamove/cube_datamove.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_load_950.h"

namespace normgrad_ascendc {

namespace {

uint32_t ElemBits(const CapiCubeType& type) {
  return type.type == CubeType::kInt4 ? 4 : type.bytes * 8;
}

}  // namespace

void CapiCopyL1ToL0V2(const char* api, const CapiCubeType& type,
                      AscendC::TPosition to, void* dst, void* src,
                      const AscendC::LoadData2DParamsV2& params,
                      const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const CapiCubeName name(api, type.name);
  const TensorView d = CubePointerView(api, type.name, "dst", dst, to);
  const TensorView s =
      CubePointerView(api, type.name, "src", src, AscendC::TPosition::A1);
  RunAsCapi(name.text,
            [&] { RunLoadData2DV2(type.name, ElemBits(type), d, s, params); });
}

void CapiCopyL1ToL0bTransV2(const char* api, const CapiCubeType& type,
                            void* dst, void* src,
                            const AscendC::LoadData2dTransposeParamsV2& params,
                            const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const CapiCubeName name(api, type.name);
  const TensorView d =
      CubePointerView(api, type.name, "dst", dst, AscendC::TPosition::B2);
  const TensorView s =
      CubePointerView(api, type.name, "src", src, AscendC::TPosition::A1);
  RunAsCapi(name.text, [&] {
    RunLoadDataWithTransposeV2(type.name, ElemBits(type), d, s, params);
  });
}

}  // namespace normgrad_ascendc
