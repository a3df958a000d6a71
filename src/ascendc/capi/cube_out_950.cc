// cube_out_950.cc — the C API's copies out of the cube core on the Ascend
// 950 (asc_copy_l0c2ub, the 3510 forms of asc_copy_l0c2gm and
// asc_copy_l0c2l1, asc_copy_l12ub in c_api/cube_datamove/cube_datamove.h,
// docs/capi.md): their arguments checked and mapped onto the C++ Fixpipe
// with FixpipeParamsArch3510 and DataCopyL1ToUB (cube/cube_out_950.h), which
// move the values; a scalar quantization mode takes its parameter from
// asc_set_l0c_copy_prequant, a vector (V) mode its per-column parameters
// from the fixpipe buffer at asc_set_l0c2gm_config's address. The rest of the C
// API maps Atlas A2/A3; these forms are the 950's only, as is
// asc_set_l0c2gm_nz2nd (c_api/cube_compute/cube_compute.h), the NZ2ND register
// they read.
#include <cstdint>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/cube/fixpipe_convert.h"
#include "c_api/cube_compute/cube_compute.h"
#include "c_api/cube_datamove/cube_datamove.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_out_950.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

namespace {

// The UB view of `p` on a cube core: an address asc_get_phy_buf_addr gives
// (the offset into the vector core's UB the copy writes) or one of the
// calling core's own UB.
TensorView CubeSideUbView(const char* api, const void* p) {
  Core& core = CurrentCore();
  const auto at = reinterpret_cast<uintptr_t>(p);
  const auto own = reinterpret_cast<uintptr_t>(core.ub());
  uint64_t offset = 0;
  if (at >= kCubeAddressBase && at < kCubeAddressBase + core.ub_size()) {
    offset = at - kCubeAddressBase;
  } else if (at >= own && at < own + core.ub_size()) {
    offset = at - own;
  } else {
    Fail(
        "%s: dst_addr %p is not a unified-buffer address; take it from "
        "asc_get_phy_buf_addr(offset), offset 0 to %u (%u bytes on profile "
        "%s)",
        api, p, core.ub_size() - 1, core.ub_size(), core.profile().name);
  }
  TensorView view;
  view.core = &core;
  view.offset = static_cast<uint32_t>(offset);
  view.bytes = static_cast<uint32_t>(core.ub_size() - offset);
  view.position = AscendC::TPosition::VECOUT;
  return view;
}

// The post-processing arguments the emulation does not have: each must be
// off.
void RequireOff(const char* api, const char* arg, uint64_t value) {
  if (value == 0) return;
  Fail(
      "%s: %s %llu: the post-processing stage (quant_post, relu_post, "
      "clip_relu_pre/post, eltwise_op, eltwise_antq_en, c0_pad_en, "
      "broadcast_en) is not emulated; pass 0 / false",
      api, arg, static_cast<unsigned long long>(value));
}

}  // namespace

void CapiCopyL0cOut950(CapiL0cTarget target, const char* api,
                       const CapiCubeType& dst_type,
                       const CapiCubeType& src_type, void* dst, void* src,
                       const CapiL0cOut950& a, const CallSite& site) {
  const ApiCall call(site);
  const SyncCheckPause unfollowed;  // as every C API call (capi_call.h)
  const CapiCubeName name(api, dst_type.name);
  RequireCubeProfile(name.text, {Profile::k950},
                     "this form is the Ascend 950's (arch 3510)");
  CheckCapiCubeCore(name.text);
  const TensorView s =
      CubePointerView(api, dst_type.name, "src", src, AscendC::TPosition::CO1);
  RequireOff(name.text, "clip_relu_pre", a.clip_relu_pre);
  RequireOff(name.text, "quant_post", a.quant_post);
  RequireOff(name.text, "relu_post", a.relu_post);
  RequireOff(name.text, "clip_relu_post", a.clip_relu_post);
  RequireOff(name.text, "eltwise_op", a.eltwise_op);
  RequireOff(name.text, "eltwise_antq_en", a.eltwise_antq_en);
  RequireOff(name.text, "c0_pad_en", a.c0_pad_en);
  RequireOff(name.text, "broadcast_en", a.broadcast_en);
  if (a.nz2nd_en && a.nz2dn_en) {
    Fail("%s: nz2nd_en and nz2dn_en are both true; choose one output layout",
         name.text);
  }
  CheckRange(name.text, "quant_pre", a.quant_pre, AscendC::NoQuant,
             AscendC::VQF322F32_PRE);
  const auto mode = static_cast<AscendC::QuantMode_t>(a.quant_pre);
  // A V mode reads one parameter per column from the fixpipe buffer, at the
  // address asc_set_l0c2gm_config gave (asc_copy_l12fb fills it).
  const bool vector_mode = IsVectorMode(mode);
  TensorView table;
  if (vector_mode) {
    const FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
    if (!regs.config_set) {
      Fail(
          "%s: quant_pre %llu (%s) is a vector mode, whose per-column "
          "parameters lie in the fixpipe buffer at the address "
          "asc_set_l0c2gm_config sets; it was not called in this block",
          name.text, static_cast<unsigned long long>(a.quant_pre),
          QuantModeName(mode));
    }
    table = FixpipeConfigTable();
  }
  const TensorView* table_view = vector_mode ? &table : nullptr;
  CheckRange(name.text, "relu_pre", a.relu_pre, 0, 1);
  Fixpipe950Params p{};
  p.layout = a.nz2nd_en   ? AscendC::CO2Layout::ROW_MAJOR
             : a.nz2dn_en ? AscendC::CO2Layout::COLUMN_MAJOR
                          : AscendC::CO2Layout::NZ;
  p.n_size = a.n_size;
  p.m_size = a.m_size;
  p.src_stride = a.loop_src_stride;
  p.dst_stride = a.loop_dst_stride;
  p.quant_pre = mode;
  if (!vector_mode && ModeQuantizes(mode)) {
    const FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
    if (!regs.quant_set) {
      Fail(
          "%s: quant_pre %llu (%s) is a scalar mode, whose parameter "
          "asc_set_l0c_copy_prequant sets; it was not called in this block",
          name.text, static_cast<unsigned long long>(a.quant_pre),
          QuantModeName(mode));
    }
    p.deq_scalar = regs.quant_pre;
  }
  p.relu = a.relu_pre != 0;
  p.unit_flag = a.unit_flag_ctl;
  p.num = 1;
  const CapiRegisters& regs = CurrentCore().capi();
  if (a.nz2nd_en && regs.l0c_nz2nd_set) {
    p.num = regs.l0c_nd_num;
    p.src_matrix_stride = regs.l0c_src_nd_stride;
    p.dst_matrix_stride = regs.l0c_dst_nd_stride;
  }
  p.src_c0_stride = 1;
  p.dual_dst = a.dual_dst_ctl;
  p.sub_block = a.sub_blockid ? 1 : 0;
  p.channel_split = a.split_en;
  if (target == CapiL0cTarget::kGm) {
    CheckGmPointer(name.text, "dst", dst);
    const GmSide gm{static_cast<uint8_t*>(dst), 0, false, dst};
    RunAsCapi(name.text, [&] {
      RunFixpipe950(dst_type.type, src_type.type, false, &gm, nullptr, s,
                    table_view, p, Fixpipe950Table::kFixpipeBuffer);
    });
    return;
  }
  const TensorView d = target == CapiL0cTarget::kUb
                           ? CubeSideUbView(name.text, dst)
                           : CubePointerView(api, dst_type.name, "dst", dst,
                                             AscendC::TPosition::A1);
  RunAsCapi(name.text, [&] {
    RunFixpipe950(dst_type.type, src_type.type, target == CapiL0cTarget::kUb,
                  nullptr, &d, s, table_view, p,
                  Fixpipe950Table::kFixpipeBuffer);
  });
}

void CapiCopyL1ToUb(const char* api, void* dst, void* src, bool sub_blockid,
                    uint16_t n_burst, uint16_t len_burst, uint16_t src_gap,
                    uint16_t dst_gap, const CallSite& site) {
  const ApiCall call(site);
  const SyncCheckPause unfollowed;  // as every C API call (capi_call.h)
  RequireCubeProfile(api, {Profile::k950}, "this copy is the Ascend 950's");
  CheckCapiCubeCore(api);
  const TensorView s =
      CubePointerView(api, nullptr, "src_addr", src, AscendC::TPosition::A1);
  const TensorView d = CubeSideUbView(api, dst);
  RunAsCapi(api, [&] {
    RunDataCopyL1ToUb("void", sub_blockid ? 1 : 0, d, s, n_burst, len_burst,
                      src_gap, dst_gap);
  });
}

}  // namespace normgrad_ascendc

void asc_set_l0c2gm_nz2nd(uint64_t nd_num, uint64_t src_nd_stride,
                          uint64_t dst_nd_stride,
                          normgrad_ascendc::CallSite site) {
  using namespace normgrad_ascendc;  // NOLINT: one setter
  const char* api = "asc_set_l0c2gm_nz2nd";
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  RequireCubeProfile(api, {Profile::k950},
                     "its NZ2ND register is the Ascend 950's (Atlas A2/A3: "
                     "asc_set_l0c_copy_params)");
  CheckCapiCubeCore(api);
  CheckRange(api, "nd_num", nd_num, 1, 65535);
  CheckRange(api, "src_nd_stride", src_nd_stride, 0, 65535);
  CheckRange(api, "dst_nd_stride", dst_nd_stride, 1, UINT32_MAX);
  CapiRegisters& regs = CurrentCore().capi();
  regs.l0c_nz2nd_set = true;
  regs.l0c_nd_num = static_cast<uint16_t>(nd_num);
  regs.l0c_src_nd_stride = static_cast<uint16_t>(src_nd_stride);
  regs.l0c_dst_nd_stride = static_cast<uint32_t>(dst_nd_stride);
}
