// cube_mx.cc — the C API's side of the 950's 8-bit floats and MX
// (c_api/cube_compute/cube_compute.h, c_api/cube_datamove/cube_datamove.h):
// asc_mmad_mx on MmadMx, asc_copy_l12l0a_mx / asc_copy_l12l0b_mx on the MX
// scale move, asc_enable_hif8 / asc_enable_fp8 on the Mmad mode register
// (normgrad_ascendc/cube/cube_mx.h).
#include <cstdint>

#include "c_api/cube_compute/cube_compute.h"
#include "c_api/cube_datamove/cube_datamove.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_mx.h"

namespace normgrad_ascendc {

void CapiMmadMx(const char* api, CubeType a_type, CubeType b_type, void* c,
                void* a, void* b, const CapiMmadArgs& args,
                const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const TensorView dst =
      CubePointerView(api, nullptr, "c_matrix", c, AscendC::TPosition::CO1);
  const TensorView fm =
      CubePointerView(api, nullptr, "a_matrix", a, AscendC::TPosition::A2);
  const TensorView filter =
      CubePointerView(api, nullptr, "b_matrix", b, AscendC::TPosition::B2);
  if (!args.c_matrix_init_val && args.c_matrix_source) {
    Fail(
        "%s: c_matrix_init_val false with c_matrix_source true starts C from "
        "the bias table, but asc_mmad_mx names no bias-table address; start "
        "from 0 (c_matrix_init_val true) or from L0C (c_matrix_source false)",
        api);
  }
  AscendC::MmadParams p;
  p.m = args.left_height;
  p.k = args.n_dim;
  p.n = args.right_width;
  p.unitFlag = args.unit_flag;
  p.disableGemv = args.k_direction_align;
  p.cmatrixInitVal = args.c_matrix_init_val;
  p.cmatrixSource = false;
  RunAsCapi(api,
            [&] { RunMmadMx(a_type, b_type, dst, fm, filter, nullptr, p); });
}

void CapiSetFloat8Mode(const char* api, bool hif8, const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CheckCapiCubeCore(api);
  RunSetFloat8Mode(
      api, hif8 ? MmadModes::Float8Mode::kHif8 : MmadModes::Float8Mode::kFp8);
}

void CapiCopyL1ToMx(const char* api, MxSide side, uint64_t dst, const void* src,
                    uint16_t x_start_pos, uint16_t y_start_pos, uint8_t x_step,
                    uint8_t y_step, uint16_t src_stride, uint16_t dst_stride,
                    const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const bool a = side == MxSide::kA;
  if (dst > UINT64_MAX / 16) {
    Fail(
        "%s: dst 0x%llx is not an %s address / 16 (take "
        "asc_get_phy_buf_addr(offset) / 16)",
        api, static_cast<unsigned long long>(dst), a ? "L0A" : "L0B");
  }
  const TensorView operand = CubePointerView(
      api, nullptr, "dst (x 16)", reinterpret_cast<void*>(dst * 16),
      a ? AscendC::TPosition::A2 : AscendC::TPosition::B2);
  const TensorView from =
      CubePointerView(api, nullptr, "src", src,
                      a ? AscendC::TPosition::A1 : AscendC::TPosition::B1);
  AscendC::LoadData2DMxParams p;
  p.xStartPosition = x_start_pos;
  p.yStartPosition = y_start_pos;
  p.xStep = x_step;
  p.yStep = y_step;
  p.srcStride = src_stride;
  p.dstStride = dst_stride;
  RunAsCapi(api, [&] {
    RunLoadMxScales("LoadData (MX)", side, operand.offset / 16, from, p);
  });
}

}  // namespace normgrad_ascendc
