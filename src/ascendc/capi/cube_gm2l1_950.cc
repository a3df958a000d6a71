// cube_gm2l1_950.cc — the C API's Ascend 950 moves from GM into L1
// (c_api/cube_datamove/cube_datamove.h, c_api/sys_var/sys_var.h; docs/capi.md
// "The 950's moves into L1"): asc_copy_gm2l1_nd2nz / _dn2nz on DataCopy with
// Nd2NzParams / Dn2NzParams (RunNd2Nz, RunDn2Nz), with the matrix count and
// destination strides of MTE2_NZ_PARA (asc_set_gm2l1_nz_para); and
// asc_copy_gm2l1_align on DataCopyPad GM -> L1 (DataCopyPadInImpl), repeated
// over the loops of asc_set_gm2l1_loop_size / _loop1_stride / _loop2_stride,
// padding with the value of asc_set_gm2l1_pad.
#include <cstdint>
#include <cstring>

#include "ascendc/cube/cube_checks.h"
#include "c_api/cube_datamove/cube_datamove.h"
#include "c_api/sys_var/sys_var.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_gm_l1_950.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/data_copy_pad.h"

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

void CheckL2CacheCtl(const char* api, uint8_t l2_cache_ctl) {
  if (l2_cache_ctl != 0 && l2_cache_ctl != 1 && l2_cache_ctl != 2 &&
      l2_cache_ctl != 4) {
    Fail("%s: l2_cache_ctl %u is not 0, 1, 2 or 4 (the page's modes)", api,
         l2_cache_ctl);
  }
}

// The GM -> L1 registers' setters: the 950's, ranges checked.
CapiRegisters& Gm2L1Registers(const char* api) {
  RequireCubeProfile(api, {Profile::k950},
                     "the GM -> L1 loop and pad registers are the Ascend "
                     "950's");
  return CurrentCore().capi();
}

void SetLoopStrides(const char* api, uint32_t loop, uint64_t src_stride,
                    uint64_t dst_stride, const char* src_arg,
                    const char* dst_arg) {
  CapiRegisters& regs = Gm2L1Registers(api);
  CheckRange(api, src_arg, src_stride, 0, uint64_t{1} << 40);
  CheckRange(api, dst_arg, dst_stride, 0, uint64_t{1} << 21);
  if (dst_stride % 32 != 0) {
    Fail("%s: %s %llu bytes is not a multiple of 32", api, dst_arg,
         static_cast<unsigned long long>(dst_stride));
  }
  regs.gm2l1_loop_src_stride[loop] = src_stride;
  regs.gm2l1_loop_dst_stride[loop] = dst_stride;
}

}  // namespace

void CapiCopyGm2L1Align(const char* api, const CapiCubeType& type, void* dst,
                        void* src, uint32_t n_burst, uint32_t len_burst,
                        uint8_t left_padding_count, uint8_t right_padding_count,
                        bool data_select_bit, uint8_t l2_cache_ctl,
                        uint64_t burst_src_stride, uint32_t burst_dst_stride,
                        const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const CapiCubeName name(api, type.name);
  RequireCubeProfile(name.text, {Profile::k950},
                     "asc_copy_gm2l1_align is the Ascend 950's");
  CheckGmPointer(name.text, "src", src);
  CheckL2CacheCtl(name.text, l2_cache_ctl);
  if (data_select_bit) {
    Fail(
        "%s: data_select_bit is true; its page allows false only (padding "
        "from asc_set_gm2l1_pad, filler from the block's first element)",
        name.text);
  }
  CheckRange(name.text, "n_burst", n_burst, 0, 4095);
  CheckRange(name.text, "burst_src_stride", burst_src_stride, 0, UINT32_MAX);
  const CapiRegisters& regs = CurrentCore().capi();
  const bool padded = left_padding_count != 0 || right_padding_count != 0;
  if (padded && !regs.gm2l1_pad_set) {
    Fail(
        "%s: left_padding_count %u, right_padding_count %u, but the padding "
        "value was not set in this block (call asc_set_gm2l1_pad first)",
        name.text, left_padding_count, right_padding_count);
  }
  PadFill fill{padded, left_padding_count, right_padding_count, {}};
  std::memcpy(
      fill.value, &regs.gm2l1_pad,
      type.bytes < sizeof regs.gm2l1_pad ? type.bytes : sizeof regs.gm2l1_pad);
  const PadBlocks blocks{"bursts",         n_burst,          len_burst, 2097151,
                         burst_src_stride, burst_dst_stride, false};
  const uint32_t n1 =
      regs.gm2l1_loop_size[0] == 0 ? 1 : regs.gm2l1_loop_size[0];
  const uint32_t n2 =
      regs.gm2l1_loop_size[1] == 0 ? 1 : regs.gm2l1_loop_size[1];
  const auto run = [&](uint32_t i1, uint32_t i2, bool copy) {
    const uint64_t src_at = i1 * regs.gm2l1_loop_src_stride[0] +
                            uint64_t{i2} * regs.gm2l1_loop_src_stride[1];
    const uint64_t dst_at = i1 * regs.gm2l1_loop_dst_stride[0] +
                            uint64_t{i2} * regs.gm2l1_loop_dst_stride[1];
    const TensorView to =
        CubePointerView(api, type.name, "dst",
                        static_cast<uint8_t*>(dst) + dst_at, TPosition::A1);
    uint8_t* from = static_cast<uint8_t*>(src) + src_at;
    CheckGmPointer(name.text, "src", from);
    if (!copy) return;
    const CopyEnd d{to.declared_data(), &to, to.bytes / type.bytes, true,
                    nullptr};
    const CopyEnd s{from, nullptr, 0, false, from};
    DataCopyPadInImpl(type.name, type.bytes, d, s, blocks, fill, api);
  };
  // The last iteration moves furthest: its operands are checked first.
  run(n1 - 1, n2 - 1, false);
  for (uint32_t i2 = 0; i2 < n2; ++i2) {
    for (uint32_t i1 = 0; i1 < n1; ++i1) run(i1, i2, true);
  }
}

void CapiCopyGm2L1Nz950(const char* api, bool dn, const CapiCubeType& type,
                        void* dst, void* src, uint64_t loop1_src_stride,
                        uint8_t l2_cache_ctl, uint16_t n_value,
                        uint32_t d_value, uint64_t loop4_src_stride,
                        bool smallc0_en, const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const CapiCubeName name(api, type.name);
  RequireCubeProfile(name.text, {Profile::k950},
                     dn ? "DN2NZ is the Ascend 950's"
                        : "this form is the Ascend 950's (Atlas A2/A3 take "
                          "the ten-argument asc_copy_gm2l1_nd2nz)");
  const TensorView to =
      CubePointerView(api, type.name, "dst", dst, TPosition::A1);
  CheckGmPointer(name.text, "src", src);
  const GmSide from{static_cast<uint8_t*>(src), 0, false, src};
  CheckL2CacheCtl(name.text, l2_cache_ctl);
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
      "asc_set_gm2l1_nz_para", site, normgrad_ascendc::CapiProfiles::kA2And950);
  normgrad_ascendc::RequireCubeProfile("asc_set_gm2l1_nz_para",
                                       {normgrad_ascendc::Profile::k950},
                                       "MTE2_NZ_PARA is the Ascend 950's");
  normgrad_ascendc::CapiRegisters& regs =
      normgrad_ascendc::CurrentCore().capi();
  regs.nz_para_set = true;
  regs.nz_para = config;
}

void asc_set_gm2l1_loop_size(uint64_t loop1_size, uint64_t loop2_size,
                             normgrad_ascendc::CallSite site) {
  using namespace normgrad_ascendc;
  const char* api = "asc_set_gm2l1_loop_size";
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CapiRegisters& regs = Gm2L1Registers(api);
  CheckRange(api, "loop1_size", loop1_size, 0, uint64_t{1} << 21);
  CheckRange(api, "loop2_size", loop2_size, 0, uint64_t{1} << 21);
  regs.gm2l1_loop_size[0] = static_cast<uint32_t>(loop1_size);
  regs.gm2l1_loop_size[1] = static_cast<uint32_t>(loop2_size);
}

void asc_set_gm2l1_loop1_stride(uint64_t loop1_src_stride,
                                uint64_t loop1_dst_stride,
                                normgrad_ascendc::CallSite site) {
  using namespace normgrad_ascendc;
  const CapiCall call("asc_set_gm2l1_loop1_stride", site,
                      CapiProfiles::kA2And950);
  SetLoopStrides("asc_set_gm2l1_loop1_stride", 0, loop1_src_stride,
                 loop1_dst_stride, "loop1_src_stride", "loop1_dst_stride");
}

void asc_set_gm2l1_loop2_stride(uint64_t loop2_src_stride,
                                uint64_t loop2_dst_stride,
                                normgrad_ascendc::CallSite site) {
  using namespace normgrad_ascendc;
  const CapiCall call("asc_set_gm2l1_loop2_stride", site,
                      CapiProfiles::kA2And950);
  SetLoopStrides("asc_set_gm2l1_loop2_stride", 1, loop2_src_stride,
                 loop2_dst_stride, "loop2_src_stride", "loop2_dst_stride");
}

void asc_set_gm2l1_pad(uint32_t pad_val, normgrad_ascendc::CallSite site) {
  using namespace normgrad_ascendc;
  const CapiCall call("asc_set_gm2l1_pad", site, CapiProfiles::kA2And950);
  CapiRegisters& regs = Gm2L1Registers("asc_set_gm2l1_pad");
  regs.gm2l1_pad_set = true;
  regs.gm2l1_pad = pad_val;
}
