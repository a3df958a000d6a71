// cube_gm2l1_950.cc — the C API's Ascend 950 moves from GM into L1
// (c_api/cube_datamove/cube_datamove.h, c_api/sys_var/sys_var.h; docs/capi.md
// "The 950's moves into L1"): asc_copy_gm2l1_nd2nz / _dn2nz on DataCopy with
// Nd2NzParams / Dn2NzParams (RunNd2Nz, RunDn2Nz), with the matrix count and
// destination strides of MTE2_NZ_PARA (asc_set_gm2l1_nz_para).
#include <cstdint>

#include "ascendc/cube/cube_checks.h"
#include "c_api/cube_datamove/cube_datamove.h"
#include "c_api/sys_var/sys_var.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_gm_l1_950.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

// The fields of MTE2_NZ_PARA, 16 bits each from bit 0 up.
struct NzPara {
  uint16_t matrices;
  uint16_t n_stride;       // 32-byte units
  uint16_t c0_stride;      // 32-byte units
  uint16_t matrix_stride;  // elements
};

NzPara ReadNzPara(const char* api) {
  const CapiRegisters& regs = CurrentCore().capi();
  if (!regs.nz_para_set) {
    Fail(
        "%s: MTE2_NZ_PARA was not set in this block (call "
        "asc_set_gm2l1_nz_para first: the matrix count and the destination "
        "strides)",
        api);
  }
  const uint64_t v = regs.nz_para;
  return {static_cast<uint16_t>(v), static_cast<uint16_t>(v >> 16),
          static_cast<uint16_t>(v >> 32), static_cast<uint16_t>(v >> 48)};
}

// A byte stride of the C API as a whole number of elements.
uint64_t InElements(const char* api, const char* arg, uint64_t bytes,
                    uint32_t elem_bytes) {
  if (bytes % elem_bytes != 0) {
    Fail("%s: %s %llu bytes is not a whole number of %u-byte elements", api,
         arg, static_cast<unsigned long long>(bytes), elem_bytes);
  }
  return bytes / elem_bytes;
}

}  // namespace

void CapiCopyGm2L1Nz950(const char* api, bool dn, const CapiCubeType& type,
                        void* dst, void* src, uint64_t loop1_src_stride,
                        uint8_t l2_cache_ctl, uint16_t n_value,
                        uint32_t d_value, uint64_t loop4_src_stride,
                        bool smallc0_en, const CallSite& site) {
  const CapiCall call(site, CapiCall::Ascend950{});
  const CapiCubeName name(api, type.name);
  RequireCubeProfile(name.text, {Profile::k950},
                     dn ? "DN2NZ is the Ascend 950's"
                        : "this form is the Ascend 950's (Atlas A2/A3 take "
                          "the ten-argument asc_copy_gm2l1_nd2nz)");
  const TensorView to =
      CubePointerView(api, type.name, "dst", dst, TPosition::A1);
  CheckGmPointer(name.text, "src", src);
  const GmSide from{static_cast<uint8_t*>(src), 0, false, src};
  if (l2_cache_ctl != 0 && l2_cache_ctl != 1 && l2_cache_ctl != 2 &&
      l2_cache_ctl != 4) {
    Fail("%s: l2_cache_ctl %u is not 0, 1, 2 or 4 (the page's modes)",
         name.text, l2_cache_ctl);
  }
  const NzPara para = ReadNzPara(name.text);
  const uint64_t line =
      InElements(name.text, "loop1_src_stride", loop1_src_stride, type.bytes);
  const uint64_t matrix =
      InElements(name.text, "loop4_src_stride", loop4_src_stride, type.bytes);
  if (dn) {
    const AscendC::Dn2NzParams p(para.matrices, n_value, d_value, matrix, line,
                                 para.c0_stride, para.n_stride,
                                 para.matrix_stride);
    RunAsCapi(name.text, [&] {
      RunDn2Nz(type.name, type.bytes, to, from, p, smallc0_en);
    });
    return;
  }
  if (smallc0_en) {
    Fail(
        "%s: smallc0_en is true; SmallC0 is emulated for DN2NZ only "
        "(asc_copy_gm2l1_dn2nz)",
        name.text);
  }
  // Nd2NzParams' fields are 16 bits wide.
  CheckRange(name.text, "d_value", d_value, 0, 65535);
  CheckRange(name.text, "loop1_src_stride (in elements)", line, 0, 65535);
  CheckRange(name.text, "loop4_src_stride (in elements)", matrix, 0, 65535);
  const AscendC::Nd2NzParams p(
      para.matrices, n_value, static_cast<uint16_t>(d_value),
      static_cast<uint16_t>(matrix), static_cast<uint16_t>(line),
      para.c0_stride, para.n_stride, para.matrix_stride);
  RunAsCapi(name.text, [&] { RunNd2Nz(type.name, type.bytes, to, from, p); });
}

}  // namespace normgrad_ascendc

void asc_set_gm2l1_nz_para(uint64_t config, normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::CapiCall call(
      site, normgrad_ascendc::CapiCall::Ascend950{});
  normgrad_ascendc::RequireCubeProfile("asc_set_gm2l1_nz_para",
                                       {normgrad_ascendc::Profile::k950},
                                       "MTE2_NZ_PARA is the Ascend 950's");
  normgrad_ascendc::CapiRegisters& regs =
      normgrad_ascendc::CurrentCore().capi();
  regs.nz_para_set = true;
  regs.nz_para = config;
}
